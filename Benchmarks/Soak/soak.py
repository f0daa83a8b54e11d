#!/usr/bin/env python3
"""An hour (or --minutes) of mixed load on one photolibd, sampled each minute: resident memory, open descriptors,
threads, and the p99 latency of each kind of call in that minute. After the warm-up every sample of memory and
descriptors must stay within ±10 % of their median; each kind of call's p99 over the second half of the time after
the warm-up must be within ±10 % (or 5 ms) of its p99 over the first half: no drift (a minute's p99 is the
third-slowest of a few hundred calls, and moves with whatever else the machine does). The logs must hold no error
line. Writes the figures and a plot (matplotlib) and exits 1 when a check fails.

Threads are counted each second by name (`ThreadCensus`), since two pools the daemon uses grow with the moment's
work and shrink when idle: libvips starts workers as images are rendered at once and stops each after 15 s without
work (8.14's threadset), Dispatch (GRDB's queues, Swift's executor) after a few seconds. A single sample a minute
catches them grown or shrunk at random. So the process's own threads (main, event loops, the blocking pool) must
stay within ±10 %, the minute's peak of Dispatch's workers within ±10 % or one thread, and the minute's peak of
libvips' workers within their bound: three per image rendered at once (one worker, two write-behind buffers), one
image a core.

The load, all on this machine's own socket, each loop bounded by the run's end:
- drops: a new photo into the move-mode drop folder every 2 s; the oldest assets beyond 300 are trashed and purged,
  so that the library keeps its size;
- change blocks: every 0.5 s, favorites set and cleared and an album's members replaced;
- observers: five Observe streams held all run long, read as events come; one more that comes and goes every 10 s;
- image requests: every 0.25 s a thumbnail of a random asset at a random size (cached or not);
- fetches: every 0.5 s a predicate fetch;
- the gallery: photolib-web on the same daemon, visited and its event streams held (gallery_load.py).
Both processes are sampled: the daemon's figures and photolib-web's ("web ...").

Usage: soak.py --binary PHOTOLIBD --work DIR --minutes 60 --warm-up 10 --report Benchmarks/RELIABILITY.md
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "CrashConsistency"))
from daemon import Connection, Daemon, VarlinkError  # noqa: E402  (the crash harness's client, shared)
from gallery_load import Gallery, GalleryLoad  # noqa: E402


class Latencies:
    def __init__(self):
        self.lock = threading.Lock()
        self.samples = {}
        self.by_minute = {}

    def add(self, kind, seconds):
        with self.lock:
            self.samples.setdefault(kind, []).append(seconds)

    def take(self, minute):
        """The p99 of each kind of call since the last minute's; the calls are kept for `drift`."""
        with self.lock:
            taken, self.samples = self.samples, {}
        self.by_minute[minute] = taken
        return {kind: percentile(values, 99) for kind, values in taken.items() if values}

    def drift(self, kind, minutes):
        """The p99 of `kind` over the first and the second half of `minutes`, in ms."""
        half = len(minutes) // 2
        halves = [[value for minute in part for value in self.by_minute.get(minute, {}).get(kind, [])]
                  for part in (minutes[:half], minutes[half:])]
        return tuple(percentile(values, 99) * 1000 if values else None for values in halves)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share / 100))]


def timed(latencies, kind, call):
    started = time.monotonic()
    result = call()
    latencies.add(kind, time.monotonic() - started)
    return result


FIGURES = ("rss_mb", "descriptors", "own threads")
POOLS = ("dispatch", "libvips")
LIBVIPS_WORKERS_PER_IMAGE = 3


def process_figures(pid, prefix=""):
    with open(f"/proc/{pid}/status") as status:
        fields = dict(line.split(":", 1) for line in status if ":" in line)
    return {prefix + "rss_mb": int(fields["VmRSS"].split()[0]) / 1024,
            prefix + "descriptors": len(os.listdir(f"/proc/{pid}/fd"))}


def thread_pool(name):
    """The pool a thread of this name belongs to, or "own" for the process's standing threads."""
    if name == "libvips worker":
        return "libvips"
    # Dispatch's workers carry their root queue's name, cut to 15 characters: "oot.default-qos", "-qos.overcommit".
    return "dispatch" if "qos" in name else "own"


class ThreadCensus:
    """Counts each process's threads by pool every second; `take` gives each pool's peak since the last take."""

    def __init__(self, pids, end):
        self.pids, self.end = pids, end
        self.lock = threading.Lock()
        self.peaks = {}
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while time.monotonic() < self.end:
            for prefix, pid in self.pids.items():
                counts = {"own": 0, **{pool: 0 for pool in POOLS}}
                try:
                    for task in os.listdir(f"/proc/{pid}/task"):
                        with open(f"/proc/{pid}/task/{task}/comm") as comm:
                            counts[thread_pool(comm.read().strip())] += 1
                except FileNotFoundError:  # a thread that ended while counted
                    continue
                counts["threads"] = sum(counts.values())
                with self.lock:
                    for pool, count in counts.items():
                        key = prefix + (pool + " threads" if pool != "threads" else pool)
                        self.peaks[key] = max(self.peaks.get(key, 0), count)
            time.sleep(1)

    def take(self):
        with self.lock:
            taken, self.peaks = self.peaks, {}
        return taken


class Load:
    def __init__(self, daemon, photo, end):
        self.daemon, self.photo, self.end = daemon, photo, end
        self.latencies = Latencies()
        self.errors = []
        self.counts = {}

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1

    def loop(self, name, pause, step):
        connection = self.daemon.connect()
        rng = random.Random(name)
        while time.monotonic() < self.end:
            try:
                step(connection, rng)
                self.count(name)
            except Exception as error:  # noqa: BLE001  (counted and reported, the load goes on)
                self.errors.append(f"{name}: {error}")
                connection.close()
                connection = self.daemon.connect()
            time.sleep(pause)
        connection.close()

    def asset_ids(self, connection):
        reply = timed(self.latencies, "FetchAssets", lambda: connection.call(
            "io.photolibd.Library.FetchAssets", query={"sort": [{"key": "addedDate", "ascending": True}]}, pageSize=1000))
        return [asset["id"] for asset in reply["assets"]]

    def drop(self, connection, rng):
        number = self.counts.get("drops", 0)
        staging = f"{self.daemon.root}/staging/soak-{number}.jpg"
        with open(staging, "wb") as output:
            output.write(self.photo + f"soak-{number}-{rng.random()}".encode())
        os.rename(staging, f"{self.daemon.root}/drop/soak-{number}.jpg")
        ids = self.asset_ids(connection)
        if len(ids) > 300:
            old = ids[:len(ids) - 300]
            for permanently in (False, True):
                timed(self.latencies, "PerformChanges", lambda: connection.call(
                    "io.photolibd.Library.PerformChanges",
                    changes=[{"op": "deleteAssets", "ids": old, "permanently": permanently}]))

    def change(self, connection, rng):
        ids = self.asset_ids(connection)
        if not ids:
            return
        chosen = rng.sample(ids, min(5, len(ids)))
        if not hasattr(self, "album"):
            reply = connection.call("io.photolibd.Library.PerformChanges",
                                    changes=[{"op": "createAlbum", "title": "Soak", "placeholder": "@soak"}])
            self.album = reply["created"]["@soak"]
        members = connection.call("io.photolibd.Library.FetchAssets", query={"collection": self.album}, pageSize=1000)
        try:
            timed(self.latencies, "PerformChanges", lambda: connection.call("io.photolibd.Library.PerformChanges", changes=[
                {"op": "updateAsset", "target": chosen[0], "isFavorite": rng.random() < 0.5},
                {"op": "removeAssets", "target": self.album, "ids": [asset["id"] for asset in members["assets"]]},
                {"op": "addAssets", "target": self.album, "ids": chosen},
            ]))
        except VarlinkError as error:
            # The drops' purges may take a chosen photo between the fetch and the change: the block is refused whole.
            if error.name != "io.photolibd.Library.NotFound":
                raise
            self.count("change blocks naming a photo purged meanwhile")

    def image(self, connection, rng):
        ids = self.asset_ids(connection)
        if ids:
            size = rng.choice([64, 128, 256, 512])
            timed(self.latencies, "RequestImage", lambda: connection.call(
                "io.photolibd.Images.RequestImage", assetId=rng.choice(ids), targetWidth=size, targetHeight=size,
                deliveryMode="highQuality"))

    def fetch(self, connection, rng):
        timed(self.latencies, "FetchAssets", lambda: connection.call(
            "io.photolibd.Library.FetchAssets", query={"predicate": f"pixelWidth > {rng.randint(0, 100)} OR isFavorite == YES"}))

    def observe(self, name, lifetime):
        """An Observe stream, read as events come, for `lifetime` seconds at a time until the end."""
        while time.monotonic() < self.end:
            connection = Connection(self.daemon.socket_path, timeout=5)
            until = min(self.end, time.monotonic() + lifetime)
            try:
                replies = connection.stream("io.photolibd.Library.Observe",
                                            assetQueries={"all": {}, "favorites": {"predicate": "isFavorite == YES"}})
                while time.monotonic() < until:
                    try:
                        next(replies)
                        self.count(name)
                    except TimeoutError:
                        continue
            except Exception as error:  # noqa: BLE001
                self.errors.append(f"{name}: {error}")
            connection.close()


def flat(values, floor=0.0):
    """Whether every value is within ±10 % (or `floor`) of their median; the largest deviation, in %."""
    middle = statistics.median(values)
    allowed = max(abs(middle) * 0.10, floor)
    worst = max(abs(value - middle) for value in values)
    return worst <= allowed, (100 * worst / middle if middle else 0.0)


def plot(samples, warm_up, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    minutes = [sample["minute"] for sample in samples]
    figure, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    for axis, (key, title) in zip(axes.flat[:3], [("rss_mb", "resident memory (MB)"), ("descriptors", "open descriptors"),
                                                   ("threads", "threads, the minute's peak")]):
        axis.plot(minutes, [sample[key] for sample in samples], marker=".", label="photolibd")
        axis.plot(minutes, [sample["web " + key] for sample in samples], marker=".", label="photolib-web")
        if key == "threads":  # what the check holds flat: each process's own threads, beside the pools' peaks
            axis.plot(minutes, [sample["own threads"] for sample in samples], linestyle="--", label="photolibd, own")
            axis.plot(minutes, [sample["web own threads"] for sample in samples], linestyle="--", label="photolib-web, own")
        axis.set_title(title)
        axis.set_ylim(bottom=0)
        axis.legend(fontsize=8)
    kinds = sorted({kind for sample in samples for kind in sample["p99_ms"]})
    for kind in kinds:
        axes.flat[3].plot(minutes, [sample["p99_ms"].get(kind) for sample in samples], marker=".", label=kind)
    axes.flat[3].set_title("p99 latency per minute (ms)")
    axes.flat[3].set_yscale("log")
    axes.flat[3].legend(fontsize=8)
    for axis in axes.flat:
        axis.axvspan(0, warm_up, color="0.9")
        axis.set_xlabel("minute")
    figure.suptitle("photolibd soak: mixed load (grey: warm-up)")
    figure.tight_layout()
    figure.savefig(path, dpi=90)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--minutes", type=int, default=60)
    parser.add_argument("--warm-up", type=int, default=10)
    parser.add_argument("--report", help="a Markdown file to write the figures to (a .png plot beside it)")
    arguments = parser.parse_args()
    work = os.path.abspath(arguments.work)
    shutil.rmtree(work, ignore_errors=True)
    root = f"{work}/root"
    for folder in (f"{root}/drop", f"{root}/staging", f"{work}/scratch"):
        os.makedirs(folder)
    subprocess.run(["vips", "gaussnoise", f"{work}/photo.v", "800", "600"], check=True)
    subprocess.run(["vips", "copy", f"{work}/photo.v", f"{work}/photo.jpg"], check=True)
    with open(f"{work}/photo.jpg", "rb") as source:
        photo = source.read()

    daemon = Daemon(os.path.abspath(arguments.binary), root, f"{work}/scratch")
    daemon.start()
    gallery = Gallery(os.path.abspath(arguments.binary), daemon.socket_path, work)
    started = time.monotonic()
    load = Load(daemon, photo, started + arguments.minutes * 60)
    pages = GalleryLoad(gallery, load)
    threads = [threading.Thread(target=load.loop, args=("drops", 2, load.drop)),
               threading.Thread(target=load.loop, args=("changes", 0.5, load.change)),
               threading.Thread(target=load.loop, args=("images", 0.25, load.image)),
               threading.Thread(target=load.loop, args=("fetches", 0.5, load.fetch)),
               threading.Thread(target=load.observe, args=("observer come and go", 10))]
    threads += [threading.Thread(target=load.observe, args=(f"observer {number}", 1e9)) for number in range(5)]
    threads += [threading.Thread(target=pages.visits, args=("gallery visits", 2)),
                threading.Thread(target=pages.events, args=("gallery events come and go", 10))]
    threads += [threading.Thread(target=pages.events, args=(f"gallery events {number}", 1e9)) for number in range(3)]
    for thread in threads:
        thread.start()
    census = ThreadCensus({"": daemon.process.pid, "web ": gallery.process.pid}, load.end)
    samples = []
    for minute in range(1, arguments.minutes + 1):
        time.sleep(max(0, started + minute * 60 - time.monotonic()))
        sample = {"minute": minute, **process_figures(daemon.process.pid),
                  **process_figures(gallery.process.pid, prefix="web "), **census.take(),
                  "p99_ms": {kind: round(value * 1000, 2) for kind, value in load.latencies.take(minute).items()}}
        samples.append(sample)
        print(json.dumps(sample), flush=True)
    for thread in threads:
        thread.join()
    stop_status = {"photolib-web": gallery.stop(), "photolibd": daemon.stop()}
    errors = [line for line in (daemon.log() + gallery.log()).splitlines() if " error " in line or " critical " in line]

    after = [sample for sample in samples if sample["minute"] > arguments.warm_up]
    checks = []
    libvips_bound = LIBVIPS_WORKERS_PER_IMAGE * os.cpu_count()
    for prefix in ("", "web "):
        for key in FIGURES:
            ok, worst = flat([sample[prefix + key] for sample in after])
            checks.append((prefix + key, ok, f"{statistics.median(sample[prefix + key] for sample in after):.1f}", worst))
        dispatch = [sample[prefix + "dispatch threads"] for sample in after]
        ok, worst = flat(dispatch, floor=1)
        checks.append((prefix + "Dispatch's workers, the minute's peak", ok, f"{statistics.median(dispatch):.1f}", worst))
        libvips = max(sample[prefix + "libvips threads"] for sample in after)
        checks.append((f"{prefix}libvips' workers, the minute's peak (bound {libvips_bound})", libvips <= libvips_bound,
                       f"{libvips} at most", 0.0))
    minutes = [sample["minute"] for sample in after]
    for kind in sorted({kind for sample in after for kind in sample["p99_ms"]}):
        first, second = load.latencies.drift(kind, minutes)
        ok = first is not None and second is not None and abs(second - first) <= max(0.10 * first, 5.0)
        change = 100 * (second - first) / first if first and second is not None else 0.0
        checks.append((f"p99 {kind} (ms), first half → second half", ok, f"{first or 0:.1f} → {second or 0:.1f}", change))
    failed = [check for check in checks if not check[1]] + ([("log errors", False, len(errors), 0)] if errors else [])
    if load.errors:
        failed.append(("client errors", False, len(load.errors), 0))
    summary = {"checks": checks, "log_errors": errors[:20], "client_errors": load.errors[:20], "counts": load.counts,
               "stop_status": stop_status}
    print(json.dumps(summary, indent=1))
    if arguments.report:
        folder, name = os.path.split(os.path.splitext(arguments.report)[0])
        picture = os.path.join(folder, name.lower() + "-soak.png")
        plot(samples, arguments.warm_up, picture)
        write_report(arguments, samples, checks, errors, load, picture)
    print(f"soak: {len(checks)} figures checked, {len(failed)} outside their bounds or failed")
    sys.exit(1 if failed else 0)


def write_report(arguments, samples, checks, errors, load, picture):
    lines = [f"## Soak: {arguments.minutes} minutes of mixed load ({time.strftime('%Y-%m-%d')})", "",
             f"`scripts/soak {arguments.minutes}` on `{os.path.basename(arguments.binary)}`; "
             f"warm-up {arguments.warm_up} min; calls made: " + ", ".join(f"{name} {count}" for name, count in sorted(load.counts.items())),
             "", "| figure (after warm-up) | value (median, or p99 of each half) | largest deviation, or change | "
                 "within bounds |", "| --- | --- | --- | --- |"]
    for name, ok, value, change in checks:
        lines.append(f"| {name} | {value} | {change:+.1f} % | {'yes' if ok else 'NO'} |")
    lines += ["", f"Error lines in the daemon's log: {len(errors)}. Client errors: {len(load.errors)}.", "",
              f"![soak]({os.path.basename(picture)})", "", "Per minute:", "",
              "| minute | RSS (MB) | descriptors | threads, peak (own, Dispatch, libvips) | "
              "photolib-web: RSS, descriptors, threads | p99 ms by call |",
              "| --- | --- | --- | --- | --- | --- |"]
    for sample in samples:
        p99 = ", ".join(f"{kind} {value}" for kind, value in sorted(sample["p99_ms"].items()))
        split = ", ".join(str(sample[pool + " threads"]) for pool in ("own",) + POOLS)
        lines.append(f"| {sample['minute']} | {sample['rss_mb']:.1f} | {sample['descriptors']} | {sample['threads']} ({split}) | "
                     f"{sample['web rss_mb']:.1f}, {sample['web descriptors']}, {sample['web threads']} | {p99} |")
    # The soak's section of the report, between its markers; the rest of the file is left as it is.
    start, end = "<!-- soak -->", "<!-- /soak -->"
    text = open(arguments.report).read() if os.path.exists(arguments.report) else f"{start}\n{end}\n"
    before, _, rest = text.partition(start)
    _, _, after = rest.partition(end)
    with open(arguments.report, "w") as output:
        output.write(before + start + "\n" + "\n".join(lines) + "\n" + end + after)


if __name__ == "__main__":
    main()
