"""Times the gallery in headless Chromium on a large library, and its cached thumbnails under wrk.

Usage: gallery_benchmark.py PRODUCTS WORK ASSETS   (Benchmarks/gallery.sh builds what it needs and runs it)

Figures: navigation to a screen of decoded thumbnails; a scrubber jump to a month, filled; a photo dropped into the
drop folder visible in the page after the daemon's commit event; the page's JavaScript heap after scrolling the
whole timeline; wrk (4 connections) on a cached thumbnail, beside nginx (Debian's, installed by scripts/setup
--benchmarks) serving the same bytes as a static file. Each figure goes to BENCHMARK_RECORD (when set) for
Benchmarks/report.sh.

The library is built through the store, so no import made its assets' grid thumbnails as the daemon's imports do.
On a fresh work directory the first navigation and scrubber jumps are timed that way (thumbnails made on demand),
then every grid thumbnail is asked for once through the socket, and the figures with targets are taken on the
library as imports leave it.
"""
import json
import os
import random
import re
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests", "Browser"))
from harness import make_photo  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

products, work, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
figures = []


def record(name, ours, unit, target, peer=None, peer_name=None, better="lower"):
    figures.append((name, ours, unit, target, peer, peer_name))
    path = os.environ.get("BENCHMARK_RECORD")
    if path:
        with open(path, "a") as file:
            file.write(json.dumps({"kind": "figure", "name": name, "ours": ours, "peer": peer, "peerName": peer_name, "unit": unit,
                                   "better": better, "comparison": "ratio", "target": target}, sort_keys=True) + "\n")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


class Observer(threading.Thread):
    """The daemon's change events, with the time each inserted asset's commit event arrived (ms since the epoch)."""

    def __init__(self, socket_path):
        super().__init__(daemon=True)
        self.connection = socket.socket(socket.AF_UNIX)
        self.connection.connect(socket_path)
        call = {"method": "io.photolibd.Library.Observe", "more": True,
                "parameters": {"assetQueries": {"timeline": {}}, "onlyRelevant": True}}
        self.connection.sendall(json.dumps(call).encode() + b"\0")
        self.inserted = {}

    def run(self):
        buffer = b""
        while True:
            data = self.connection.recv(1 << 20)
            if not data:
                return
            buffer += data
            while b"\0" in buffer:
                message, buffer = buffer.split(b"\0", 1)
                arrived = time.time() * 1000
                reply = json.loads(message).get("parameters", {})
                for change in reply.get("objects", []):
                    if change["kind"] == "asset" and change["change"] == "inserted":
                        self.inserted.setdefault(change["id"], arrived)


def make_grid_thumbnails(socket_path, database, connections=3):
    """Asks the daemon for every asset's grid thumbnail (256) once, over a few connections; returns the seconds taken."""
    ids = [row[0] for row in sqlite3.connect(database).execute("SELECT id FROM asset ORDER BY creationTime DESC")]
    started = time.time()

    def ask(chunk):
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(socket_path)
        for asset in chunk:
            call = {"method": "io.photolibd.Images.RequestImage",
                    "parameters": {"assetId": asset, "targetWidth": 256, "targetHeight": 256, "deliveryMode": "highQuality"}}
            connection.sendall(json.dumps(call).encode() + b"\0")
            reply = b""
            while not reply.endswith(b"\0"):
                reply += connection.recv(65536)
            if "error" in json.loads(reply[:-1]):
                raise RuntimeError(f"no thumbnail for {asset}: {reply[:200]}")
        connection.close()

    workers = [threading.Thread(target=ask, args=(ids[index::connections],)) for index in range(connections)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return time.time() - started


def jump_times(browser, months, count):
    """Milliseconds from a scrubber jump to each of `count` months (chosen the same way each run) to its screen filled."""
    return [browser.execute_async_script("""const done = arguments[arguments.length - 1];
        const start = performance.now(); window.gallery.jumpTo(arguments[0]);
        window.gallery.whenFilled().then(() => done(performance.now() - start));""", month)
        for month in random.Random(7).sample(months, min(count, len(months)))]


def main():
    photos = os.path.join(work, "photos")
    os.makedirs(photos, exist_ok=True)
    shapes = [(640, 427), (427, 640), (640, 360), (512, 512), (700, 300), (600, 450)]
    for index in range(120):
        path = os.path.join(photos, f"P{index:03}.jpg")
        if not os.path.exists(path):
            make_photo(path, index, "2020:01:01 12:00:00", shapes[index % len(shapes)])
    subprocess.run([os.path.join(products, "gallery-benchmark-library"), work, str(count), photos], check=True)
    drop = os.path.join(work, "drop")
    runtime = os.path.join(work, "runtime")
    for folder in (drop, runtime):
        os.makedirs(folder, mode=0o700, exist_ok=True)
    socket_path = os.path.join(work, "socket")
    with open(os.path.join(work, "photolibd.conf"), "w") as config:
        config.write(f'library = "{work}/library"\ncache = "{work}/cache"\nsocket = "{socket_path}"\n'
                     f'[[source]]\npath = "{drop}"\nmode = "move"\n')
    environment = dict(os.environ, XDG_RUNTIME_DIR=runtime, XDG_CACHE_HOME=os.path.join(work, "cache-home"))
    daemon = subprocess.Popen([os.path.join(products, "photolibd"), "--config", os.path.join(work, "photolibd.conf"),
                               "--log-level", "warning"], env=environment)
    web = browser = peer = None
    try:
        while not os.path.exists(socket_path):
            time.sleep(0.05)
        web = subprocess.Popen([os.path.join(products, "photolib-web"), "--listen", "127.0.0.1:0", "--socket", socket_path],
                               stdout=subprocess.PIPE, env=environment, text=True)
        url = web.stdout.readline().strip()
        parts = urllib.parse.urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        options = webdriver.ChromeOptions()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900",
                         "--force-device-scale-factor=1", "--enable-precise-memory-info"]:
            options.add_argument(argument)
        options.binary_location = "/usr/bin/chromium"
        browser = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        browser.set_script_timeout(110)
        filled = """const done = arguments[arguments.length - 1];
            (async () => { while (!window.gallery || !window.gallery.timeline.sections.length) await new Promise(r => setTimeout(r, 5));
                           await window.gallery.whenFilled(); done(performance.now()); })();"""

        # Without grid thumbnails (a fresh work directory only): the first navigation and jumps make them on demand.
        renditions = os.path.join(work, "cache", "renditions")
        fresh = not any(files for _, _, files in os.walk(renditions))
        browser.get(url)
        first = browser.execute_async_script(filled)
        months = sorted({key[:7] for key in browser.execute_script("return window.gallery.timeline.sections.map(s => s.key)")})
        if fresh:
            record(f"Gallery ({count} assets): first navigation, no thumbnail made yet", first, "ms", "—")
            record(f"Gallery ({count} assets): scrubber jump, no thumbnail made yet",
                   statistics.median(jump_times(browser, months, 10)), "ms", "—")
        seconds = make_grid_thumbnails(socket_path, os.path.join(work, "library", "library.sqlite"))
        print(f"every grid thumbnail asked for once through the socket in {seconds:.0f} s")

        # Navigation, thumbnails as imports leave them.
        warm = []
        for _ in range(5):
            browser.get(origin + "/")
            warm.append(browser.execute_async_script(filled))
        record(f"Gallery ({count} assets): navigation to a screen of decoded thumbnails", statistics.median(warm), "ms", "≤ 1000 ms")

        # Scrubber jumps to months anywhere in the timeline.
        jumps = jump_times(browser, months, 20)
        record(f"Gallery ({count} assets): scrubber jump to a month, filled", statistics.median(jumps), "ms", "≤ 300 ms")
        record(f"Gallery ({count} assets): scrubber jump to a month, filled (p99)", percentile(jumps, 0.99), "ms", "≤ 300 ms")

        # Dropped photos: from the daemon's commit event to the tile in the page.
        browser.execute_script("""document.querySelector('#scroller').scrollTop = 0; window.appeared = {};
            new MutationObserver(records => { const now = Date.now();
              for (const r of records) for (const n of r.addedNodes) if (n.dataset && n.dataset.assetId && !(n.dataset.assetId in window.appeared))
                window.appeared[n.dataset.assetId] = now; }).observe(document.querySelector('#canvas'), {childList: true, subtree: true});""")
        observer = Observer(socket_path)
        observer.start()
        time.sleep(1)
        drops = os.path.join(work, "drops")
        os.makedirs(drops, exist_ok=True)
        # Each taken a second after the last, after every photo the library holds (a reused work directory keeps the
        # drops of earlier runs): it lands at the top of the timeline, where the page is.
        newest = sqlite3.connect(os.path.join(work, "library", "library.sqlite")).execute("SELECT max(creationTime) FROM asset")
        first_drop = max(time.time(), newest.fetchone()[0] + 1)
        for index in range(30):
            taken = time.strftime("%Y:%m:%d %H:%M:%S", time.localtime(first_drop + index))
            source = make_photo(os.path.join(drops, f"D{index:03}_{time.time_ns()}.jpg"), 500 + index, taken, (480, 320))
            os.rename(source, os.path.join(drop, os.path.basename(source)))
            time.sleep(0.4)
        deadline = time.time() + 60
        while len(observer.inserted) < 30 and time.time() < deadline:
            time.sleep(0.1)
        time.sleep(1)
        appeared = browser.execute_script("return window.appeared")
        latencies = [appeared[asset] - committed for asset, committed in observer.inserted.items() if asset in appeared]
        if len(latencies) < 30:
            print(f"only {len(latencies)} of 30 dropped photos were seen in the page", file=sys.stderr)
        record(f"Gallery ({count} assets): dropped photo visible after its commit event (p99)", percentile(latencies, 0.99), "ms", "≤ 500 ms")
        record(f"Gallery ({count} assets): dropped photo visible after its commit event", statistics.median(latencies), "ms", "—")

        # The heap after scrolling the whole timeline in steps of two screens (each loads the screen above and below
        # it), a hundred steps per script so that no call outlasts the driver's HTTP timeout.
        position, started = 0, time.time()
        while position is not None:
            position = browser.execute_async_script("""const done = arguments[arguments.length - 1]; const start = arguments[0];
                (async () => { const s = document.querySelector('#scroller'); const t = window.gallery.timeline;
                  let y = start;
                  for (let step = 0; step < 100 && y < t.total; step++, y += s.clientHeight * 2) { s.scrollTop = y; t.update();
                    while (t.loading.size) await new Promise(r => setTimeout(r, 2)); }
                  done(y < t.total ? y : null); })();""", position)
        print(f"scrolled the whole timeline in {time.time() - started:.0f} s")
        browser.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
        heap = browser.execute_cdp_cmd("Runtime.getHeapUsage", {})["usedSize"] / 1e6
        record(f"Gallery ({count} assets): JavaScript heap after scrolling the whole timeline", heap, "MB", "≤ 150 MB")
        browser.execute_script("document.querySelector('#scroller').scrollTop = 0")
        browser.execute_async_script("const done = arguments[arguments.length - 1]; window.gallery.whenFilled().then(done);")
        browser.save_screenshot(os.path.join(HERE, "report", "gallery.png"))

        # Cached thumbnails under wrk, beside nginx serving the same bytes.
        thumbnail = browser.execute_script("return document.querySelector('[data-asset-id] img').getAttribute('src')")
        cookie = browser.get_cookie("photolib_session")["value"]
        body = subprocess.run(["curl", "-sf", "-H", f"Cookie: photolib_session={cookie}", origin + thumbnail], capture_output=True, check=True).stdout
        static = os.path.join(work, "static")
        os.makedirs(static, exist_ok=True)
        with open(os.path.join(static, "thumbnail.jpg"), "wb") as file:
            file.write(body)
        peer = start_nginx(static, 18471)
        ours = wrk(origin + thumbnail, {"Cookie": f"photolib_session={cookie}"})
        theirs = wrk("http://127.0.0.1:18471/thumbnail.jpg", {})
        record("Gallery: cached thumbnails over HTTP, wrk with 4 connections", ours[0], "req/s", "≥ 5000 req/s",
               theirs[0], "nginx, same bytes as a static file", better="higher")
        record("Gallery: cached thumbnail latency under wrk (p50)", ours[1], "ms", "≤ 1 ms", theirs[1], "nginx, same bytes as a static file")
    finally:
        for process in (peer, web, daemon):
            if process and process.poll() is None:
                process.terminate()
                process.wait(30)
        if browser:
            browser.quit()
    print()
    print(f"{'what':<84} {'ours':>10} {'peer':>10}  target")
    for name, ours, unit, target, peer_value, peer_name in figures:
        peer_text = f"{peer_value:.3g}" if peer_value is not None else "—"
        print(f"{name:<84} {ours:>8.3g} {unit:<5} {peer_text:>6}  {target}" + (f"  (peer: {peer_name})" if peer_name else ""))


def start_nginx(root, port):
    """nginx serving the files of `root` on `port`, as a person would set it up for static files (sendfile, no
    access log, a worker per core); stopped with the benchmark."""
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as file:
        file.write(("user root;\n" if os.geteuid() == 0 else "") +
                   f"daemon off;\nworker_processes auto;\npid {work}/nginx.pid;\nerror_log {work}/nginx-error.log;\n"
                   "events { worker_connections 1024; }\n"
                   f"http {{ access_log off; sendfile on; tcp_nopush on; keepalive_requests 1000000;\n"
                   f"  server {{ listen 127.0.0.1:{port}; root {root}; }} }}\n")
    server = subprocess.Popen(["nginx", "-c", config, "-p", work, "-e", f"{work}/nginx-error.log"])
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return server
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("nginx did not start: " + open(f"{work}/nginx-error.log").read())


def wrk(url, headers):
    """Requests per second and the median latency in ms, 4 connections for 10 s."""
    arguments = ["wrk", "-t2", "-c4", "-d10s", "--latency"]
    for name, value in headers.items():
        arguments += ["-H", f"{name}: {value}"]
    output = subprocess.run(arguments + [url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    median = re.search(r"50%\s+([\d.]+)(us|ms|s)", output)
    scale = {"us": 0.001, "ms": 1, "s": 1000}[median.group(2)]
    return rate, float(median.group(1)) * scale


if __name__ == "__main__":
    main()
