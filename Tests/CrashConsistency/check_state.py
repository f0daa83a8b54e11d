#!/usr/bin/env python3
"""Starts photolibd on one state a power cut could leave and checks what it must hold after its recovery.

Usage (as root, in a mount namespace of its own: the state is mounted where the recorded daemon saw its files):
    check_state.py BINARY STATE ROOT SCRATCH EXPECTATIONS MARK...
MARK... are the marks the cut came after. Prints one JSON line {"problems": [...]}; exits 0 either way.

It must hold: the daemon starts; the database passes PRAGMA integrity_check and foreign_key_check; every change
acknowledged before the cut is there (the one in flight may or may not be); every asset has its file, whole; every
dropped file that was durable is in the library and the drop folder is empty; nothing is left over: no file in the
store that no asset uses, nothing in incoming/, no copy still waiting for its sync; a referenced photo's XMP sidecar,
when there is one or the photo is rated, is whole and says the library's rating.
"""
import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys
from xml.etree import ElementTree

from daemon import Daemon, files_under


def fold(initial, acks):
    """The facts after `acks`, on top of `initial`."""
    state = {}
    for fact in initial + [fact for ack in acks for fact in ack["facts"]]:
        key = (fact["kind"], fact["id"])
        value = fact["value"]
        if value is None or state.get(key) is None:
            state[key] = None if value is None else dict(value)
        else:
            state[key].update(value)
    return state


def read_library(path):
    database = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    problems = []
    integrity = [row[0] for row in database.execute("PRAGMA integrity_check")]
    if integrity != ["ok"]:
        problems.append(f"integrity_check: {integrity[:5]}")
    foreign = database.execute("PRAGMA foreign_key_check").fetchall()
    if foreign:
        problems.append(f"foreign_key_check: {foreign[:5]}")
    assets = {row[0]: {"hash": row[1], "favorite": bool(row[2]), "trashed": bool(row[3]), "edited": bool(row[4]),
                       "rating": row[5]}
              for row in database.execute("SELECT id, contentHash, isFavorite, trashedTime IS NOT NULL, hasAdjustments, "
                                          "rating FROM asset")}
    resources = database.execute("SELECT assetId, path, isOwnedByLibrary FROM resource").fetchall()
    edits = database.execute("SELECT assetId, path, fileSize FROM asset_edit").fetchall()
    albums = {}
    for album_id, title in database.execute("SELECT id, title FROM collection WHERE kind = 'album'"):
        members = [row[0] for row in database.execute(
            "SELECT assetId FROM album_asset WHERE albumId = ? ORDER BY position", (album_id,))]
        albums[album_id] = {"title": title, "members": members}
    unsynced = database.execute("SELECT storedPath FROM unsynced_copy").fetchall()
    database.close()
    return problems, assets, resources, edits, albums, unsynced


def check_facts(expected, newer, assets, albums):
    problems = []
    for key in set(expected) | set(newer):
        kind, object_id = key
        actual = (assets if kind == "asset" else albums).get(object_id)

        def holds(fact):
            if fact is None:
                return actual is None
            return actual is not None and all(actual.get(field) == value for field, value in fact.items())
        if not (holds(expected.get(key)) or (key in newer and holds(newer[key]))):
            problems.append(f"acknowledged {kind} {object_id}: expected {expected.get(key)}, found {actual}")
    return problems


def sha256(path):
    with open(path, "rb") as source:
        return hashlib.sha256(source.read()).hexdigest()


def check_sidecar(asset_id, path, rating):
    """A referenced photo's XMP sidecar, once the daemon has settled: whole, and saying the library's rating."""
    sidecar = path + ".xmp"
    if not os.path.exists(sidecar):
        return [f"asset {asset_id} is rated {rating} but has no sidecar"] if rating else []
    try:
        text = ElementTree.tostring(ElementTree.parse(sidecar).getroot(), encoding="unicode")
    except ElementTree.ParseError as error:
        return [f"asset {asset_id}'s sidecar is not whole: {error}"]
    written = re.search(r'Rating="?(-?\d+)|Rating>(-?\d+)<', text)
    found = int(next(group for group in written.groups() if group)) if written else 0
    return [] if found == rating else [f"asset {asset_id} is rated {rating}; its sidecar says {found}"]


def check_files(root, assets, resources, edits, unsynced):
    problems = []
    used = set()
    for asset_id, path, owned in resources:
        used.add(path)
        if not os.path.isfile(path):
            problems.append(f"asset {asset_id} lacks its file {path}")
        elif owned and sha256(path) != assets[asset_id]["hash"]:
            problems.append(f"asset {asset_id}'s copy {path} is not what was imported")
    for asset_id, path, size in edits:
        used.add(path)
        if not os.path.isfile(path) or os.path.getsize(path) != size:
            problems.append(f"asset {asset_id}'s edit {path} is missing or not whole")
    for asset_id, path, owned in resources:
        problems += check_sidecar(asset_id, path, assets[asset_id]["rating"]) if not owned else []
    for path in files_under(f"{root}/library/originals") + files_under(f"{root}/library/edits"):
        if path not in used:
            problems.append(f"orphan in the store: {path}")
    for path in files_under(f"{root}/library/incoming"):
        problems.append(f"left in incoming: {path}")
    if unsynced:
        problems.append(f"copies still waiting for their sync: {unsynced}")
    return problems


def main():
    binary, state, root, scratch, expectations_path = sys.argv[1:6]
    marks = set(sys.argv[6:])
    with open(expectations_path) as source:
        expectations = json.load(source)
    subprocess.run(["mount", "--bind", state, root], check=True)
    problems = []
    daemon = Daemon(binary, root, scratch)
    try:
        daemon.start()
        connection = daemon.connect()
        if not daemon.wait_until_idle(connection):
            problems.append("the daemon did not settle its imports within a minute")
        connection.close()
        if daemon.stop() != 0:
            problems.append(f"photolibd stopped with status {daemon.process.returncode}")
    except Exception as error:  # a daemon that does not start is what this reports
        daemon.kill()
        print(json.dumps({"problems": [f"{error}"]}))
        return
    library_problems, assets, resources, edits, albums, unsynced = read_library(f"{root}/library/library.sqlite")
    problems += library_problems
    acks = expectations["acks"]
    done = [ack for ack in acks if ack["mark"] in marks]
    expected = fold(expectations["initial"], done)
    newer = fold(expectations["initial"], acks[:len(done) + 1])
    problems += check_facts(expected, newer, assets, albums)
    problems += check_files(root, assets, resources, edits, unsynced)
    hashes = {row["hash"] for row in assets.values()}
    for drop in expectations["drops"]:
        if drop["mark"] in marks and drop["hash"] not in hashes:
            problems.append(f"a durable drop ({drop['mark']}) is not in the library")
    problems += [f"left in the drop folder: {path}" for path in files_under(f"{root}/drop")]
    problems += [f"log: {line}" for line in daemon.log().splitlines() if " error " in line or " critical " in line]
    print(json.dumps({"problems": problems}))


if __name__ == "__main__":
    main()
