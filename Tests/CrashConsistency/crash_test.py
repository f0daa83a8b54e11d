#!/usr/bin/env python3
"""Power cuts, simulated: records what photolibd does to its files during a day's work, builds the states a power
cut could leave at each sync point (crash_states.py), starts the daemon on each and checks it (check_state.py).

Usage (as root): crash_test.py --binary PHOTOLIBD --faultfs FAULTFS --work DIR [--sample N] [--mixes N] [--jobs N]
Prints how many states it explored and how many failed, with each failure's problems; exits 1 when any failed.
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import time

import crash_states
from workload import Recorder, make_photos, prepare_old_library, record

HERE = os.path.dirname(os.path.abspath(__file__))
PHOTOS = ["old-1.jpg", "old-2.jpg", "copy-1.jpg", "copy-2.jpg", "copy-3.jpg", "drop-1.jpg", "drop-2.jpg", "drop-3.jpg",
          "reference-1.jpg", "reference-2.jpg"]


class Mount:
    """faultfs passing `backing` through at `root`, recording to `log` when given."""

    def __init__(self, faultfs, backing, root, log=None):
        self.root = root
        command = [faultfs, backing, root] + ([f"--log={log}"] if log else [])
        subprocess.run(command, check=True)

    def __enter__(self):
        return self

    def __exit__(self, *error):
        for _ in range(50):
            if subprocess.run(["fusermount3", "-u", self.root], stderr=subprocess.DEVNULL).returncode == 0:
                return
            time.sleep(0.1)
        subprocess.run(["umount", "-l", self.root], check=True)


def record_day(arguments, work):
    """Makes the starting library, then records the day's work on it; returns the snapshot, the log's operations
    and the expectations file."""
    backing, root, scratch = f"{work}/backing", f"{work}/root", f"{work}/scratch"
    for folder in (backing, root, scratch + "/setup", scratch + "/record"):
        os.makedirs(folder)
    with Mount(arguments.faultfs, backing, root):
        hashes = make_photos(f"{root}/photos", PHOTOS)
        os.makedirs(f"{root}/drop")
        initial = prepare_old_library(arguments.binary, root, scratch + "/setup", hashes)
    snapshot = crash_states.Snapshot(backing)
    recorder = Recorder(root)
    with Mount(arguments.faultfs, backing, root, log=f"{work}/log"):
        record(arguments.binary, root, scratch + "/record", hashes, recorder)
    expectations = f"{work}/expectations.json"
    recorder.save(expectations, initial)
    return snapshot, crash_states.parse_log(f"{work}/log"), expectations


def check(arguments, work, history, expectations, number, cut, description):
    """Checks the state materialized as `number`, in a mount namespace of its own; its problems."""
    folder = f"{work}/states/{number}"
    scratch = f"{work}/scratch/{number}"
    os.makedirs(scratch)
    command = ["unshare", "--mount", "--propagation", "private", sys.executable, f"{HERE}/check_state.py",
               arguments.binary, folder, f"{work}/root", scratch, expectations] + history.marks_before(cut)
    result = subprocess.run(command, capture_output=True, text=True)
    try:
        problems = json.loads(result.stdout.strip().splitlines()[-1])["problems"]
    except (IndexError, ValueError, KeyError):
        problems = [f"the checker failed: {result.stdout[-2000:]} {result.stderr[-2000:]}"]
    if not problems or not arguments.keep_failures:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(scratch, ignore_errors=True)
    return number, cut, description, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--faultfs", required=True)
    parser.add_argument("--work", required=True, help="a folder to create (removed first)")
    parser.add_argument("--sample", type=int, help="check this many states, spread over the crash points")
    parser.add_argument("--mixes", type=int, default=6, help="random mixes of unsynced writes per crash point")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--keep-failures", action="store_true", help="keep the states that failed under WORK/states")
    arguments = parser.parse_args()
    arguments.binary = os.path.abspath(arguments.binary)
    work = os.path.abspath(arguments.work)
    shutil.rmtree(work, ignore_errors=True)
    started = time.monotonic()

    snapshot, ops, expectations = record_day(arguments, work)
    history = crash_states.History(snapshot, ops)
    crash_states.DATA["file"] = open(f"{work}/log.data", "rb")
    rng = random.Random(arguments.seed)
    plans = [(cut, description, kept, chooser) for cut in history.crash_points()
             for description, kept, chooser in history.variants(cut, rng, arguments.mixes)]
    if arguments.sample and arguments.sample < len(plans):
        step = len(plans) / arguments.sample
        plans = [plans[int(index * step)] for index in range(arguments.sample)]
    print(f"crash-test: recorded {len(ops)} operations with {len(history.syncs)} syncs; checking {len(plans)} states",
          flush=True)

    failures = []

    def report(future):
        number, cut, description, problems = future.result()
        if problems:
            failures.append((number, cut, description, problems))
            print(f"  state {number} (cut before operation {cut}, {description}): FAILED", flush=True)
            for problem in problems[:10]:
                print(f"    {problem[:500]}", flush=True)

    with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
        pending = set()
        for number, (cut, description, kept, chooser) in enumerate(plans):
            # States are built here, one at a time, and checked on the pool's threads.
            crash_states.materialize(history.state(cut, kept, chooser), f"{work}/states/{number}", history.kinds)
            pending.add(pool.submit(check, arguments, work, history, expectations, number, cut, description))
            if len(pending) >= 2 * arguments.jobs:
                done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    report(future)
        for future in concurrent.futures.as_completed(pending):
            report(future)
    points = len({plan[0] for plan in plans})
    print(f"crash-test: {len(plans)} states explored at {points} crash points, {len(failures)} failed "
          f"({time.monotonic() - started:.0f} s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
