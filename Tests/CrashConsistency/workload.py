"""The work the crash harness records: what a library goes through on a normal day, each acknowledged step marked.

A step's facts are what its acknowledgement promises (an import's reply: the asset and its whole copy; a change
block's reply: its changes). A dropped file is marked once it is durable in the drop folder (written, synced, renamed
in, folder synced, as a careful upload tool does); nothing is acknowledged for it but that.
"""
import base64
import hashlib
import json
import os
import sqlite3
import subprocess
import time

from daemon import Daemon, files_under


def make_photos(folder, names):
    """Small JPEGs, one picture with a different tail after its end marker each; their SHA-256 by name."""
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(folder, ".base.jpg")
    subprocess.run(["vips", "gaussnoise", base + ".v", "64", "48"], check=True)
    subprocess.run(["vips", "copy", base + ".v", base], check=True)
    with open(base, "rb") as source:
        picture = source.read()
    for scratch in (base, base + ".v"):
        os.remove(scratch)
    hashes = {}
    for number, name in enumerate(names):
        data = picture + f"photolibd-crash-{name}-{number}".encode()
        with open(os.path.join(folder, name), "wb") as output:
            output.write(data)
        hashes[name] = hashlib.sha256(data).hexdigest()
    return hashes


class Recorder:
    """Marks acknowledged points in the faultfs log and remembers what each promised."""

    def __init__(self, mount):
        self.mount = mount
        self.acks, self.drops = [], []

    def mark(self, name):
        try:
            os.stat(f"{self.mount}/.faultfs-mark-{name}")
        except FileNotFoundError:
            pass

    def acknowledged(self, facts):
        name = f"ack-{len(self.acks) + 1}"
        self.mark(name)
        self.acks.append({"mark": name, "facts": facts})

    def dropped(self, digest):
        name = f"drop-{len(self.drops) + 1}"
        self.mark(name)
        self.drops.append({"mark": name, "hash": digest})

    def save(self, path, initial_facts):
        with open(path, "w") as output:
            json.dump({"initial": initial_facts, "acks": self.acks, "drops": self.drops}, output, indent=1)


def asset_fact(asset_id, **value):
    return {"kind": "asset", "id": asset_id, "value": value}


def imported_facts(reply, hashes, paths):
    facts = []
    for file in reply["files"]:
        assert file["status"] == "imported", file
        name = os.path.basename(file["path"])
        facts.append(asset_fact(file["assetId"], hash=hashes[name], favorite=False, trashed=False, edited=False))
        paths[name] = file["assetId"]
    return facts


def prepare_old_library(binary, root, scratch, hashes):
    """A library made by the daemon and then taken back to before its newest migration, which the recorded start
    runs again; the facts of the assets it holds."""
    daemon = Daemon(binary, root, scratch)
    daemon.start()
    connection = daemon.connect()
    names = ["old-1.jpg", "old-2.jpg"]
    reply = list(connection.stream("io.photolibd.Import.ImportFiles", paths=[f"{root}/photos/{name}" for name in names]))[-1]
    facts = imported_facts(reply, hashes, {})
    connection.close()
    daemon.stop()
    database = sqlite3.connect(f"{root}/library/library.sqlite")
    database.execute("DROP TABLE unsynced_copy")
    database.execute("DELETE FROM grdb_migrations WHERE identifier = 'v7-unsynced-copies'")
    database.commit()
    database.close()
    return facts


def record(binary, root, scratch, hashes, recorder):
    """Runs the day's work on the daemon over the recording mount at `root`."""
    daemon = Daemon(binary, root, scratch)
    daemon.start()  # runs the migration and the start-up recovery
    connection = daemon.connect()
    assets = {}
    try:
        reply = list(connection.stream("io.photolibd.Import.ImportFiles",
                                       paths=[f"{root}/photos/copy-{n}.jpg" for n in (1, 2, 3)]))[-1]
        recorder.acknowledged(imported_facts(reply, hashes, assets))

        staging = f"{root}/staging"
        os.makedirs(staging, exist_ok=True)
        for number in (1, 2, 3):
            name = f"drop-{number}.jpg"
            with open(f"{root}/photos/{name}", "rb") as source:
                data = source.read()
            descriptor = os.open(f"{staging}/{name}", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            os.write(descriptor, data)
            os.fsync(descriptor)
            os.close(descriptor)
            os.rename(f"{staging}/{name}", f"{root}/drop/{name}")
            folder = os.open(f"{root}/drop", os.O_RDONLY | os.O_DIRECTORY)
            os.fsync(folder)
            os.close(folder)
            recorder.dropped(hashes[name])
        if not daemon.wait_until_idle(connection):
            raise RuntimeError(f"the drops were not imported: {files_under(root + '/drop')}")

        reply = list(connection.stream("io.photolibd.Import.ImportFiles", mode="reference",
                                       paths=[f"{root}/photos/reference-{n}.jpg" for n in (1, 2)]))[-1]
        recorder.acknowledged(imported_facts(reply, hashes, assets))

        # A rating and a keyword on a referenced photo: written back to an XMP sidecar beside it (issue 31).
        rated = assets["reference-1.jpg"]
        connection.call("io.photolibd.Library.PerformChanges", changes=[
            {"op": "updateAsset", "target": rated, "rating": 4, "addKeywords": ["harbour"]}])
        recorder.acknowledged([asset_fact(rated, rating=4)])

        first, second, third = assets["copy-1.jpg"], assets["copy-2.jpg"], assets["copy-3.jpg"]
        reply = connection.call("io.photolibd.Library.PerformChanges", changes=[
            {"op": "createAlbum", "title": "Trip", "placeholder": "@trip"},
            {"op": "addAssets", "target": "@trip", "ids": [first, second]},
            {"op": "updateAsset", "target": first, "isFavorite": True},
        ])
        recorder.acknowledged([{"kind": "album", "id": reply["created"]["@trip"], "value": {"title": "Trip", "members": [first, second]}},
                               asset_fact(first, favorite=True)])

        rotate = base64.b64encode(json.dumps({"rotate": 90}).encode()).decode()
        connection.call("io.photolibd.Library.PerformChanges", changes=[{
            "op": "editAsset", "target": second,
            "adjustment": {"formatIdentifier": "io.photolibd.basic", "formatVersion": "1", "data": rotate},
        }])
        recorder.acknowledged([asset_fact(second, edited=True)])

        connection.call("io.photolibd.Images.RequestImage", assetId=second, targetWidth=32, targetHeight=32,
                        deliveryMode="highQuality")

        connection.call("io.photolibd.Library.PerformChanges", changes=[{"op": "deleteAssets", "ids": [third]}])
        recorder.acknowledged([asset_fact(third, trashed=True)])
        connection.call("io.photolibd.Library.PerformChanges", changes=[{"op": "deleteAssets", "ids": [third], "permanently": True}])
        recorder.acknowledged([{"kind": "asset", "id": third, "value": None}])
        time.sleep(0.5)  # the purged files' removal follows the reply
    finally:
        connection.close()
        daemon.stop()
