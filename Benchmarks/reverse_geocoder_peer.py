#!/usr/bin/env python3
"""The places benchmark's peer: reverse_geocoder (GeoNames cities of 1000 people or more in a SciPy k-d tree, the
library photo tools reach for) on the same points. Prints one JSON object: its load time, resident memory added,
and microseconds per lookup in one batch of every point (its fastest use) and one call per point (as a tool naming
each photo calls it) on the first SINGLE points.
Usage: reverse_geocoder_peer.py POINTS_CSV [SINGLE]
"""
import json
import os
import sys
import time


def resident_megabytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def main():
    path, single = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    with open(path) as file:
        points = [tuple(map(float, line.split(","))) for line in file]
    import reverse_geocoder
    before = resident_megabytes()
    start = time.perf_counter()
    reverse_geocoder.search([points[0]], mode=1, verbose=False)
    load = time.perf_counter() - start
    added = resident_megabytes() - before
    start = time.perf_counter()
    named = sum(1 for result in reverse_geocoder.search(points, mode=1, verbose=False) if result["name"])
    batch = time.perf_counter() - start
    start = time.perf_counter()
    for point in points[:single]:
        reverse_geocoder.search([point], mode=1, verbose=False)
    one_by_one = time.perf_counter() - start
    print(json.dumps({"loadMilliseconds": load * 1e3, "residentMegabytesAdded": added, "named": named,
                      "batchMicroseconds": batch / len(points) * 1e6, "singleMicroseconds": one_by_one / single * 1e6}))


if __name__ == "__main__":
    main()
