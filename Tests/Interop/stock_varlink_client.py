#!/usr/bin/env python3
"""Exercises photolibd with the stock `varlink` client from PyPI: introspects every interface (parsing its
IDL), and calls each interface the way an outside client would, `more` streams included. The client filters
every call's parameters and every reply through the IDL's types, so a shape the IDL does not declare fails.

Usage: stock_varlink_client.py SOCKET_PATH EXPECTED_ASSET_COUNT PHOTO_TO_IMPORT
Prints one JSON summary line; exits non-zero on any mismatch."""
import base64
import json
import os
import sys
import uuid

import varlink

INTERFACES = ["io.photolibd.Library", "io.photolibd.Images", "io.photolibd.Import"]


def main() -> int:
    socket_path, expected_count, photo = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    summary = {}
    with varlink.Client(address=f"unix:{socket_path}") as client:
        for name in INTERFACES:
            interface = client.get_interface(name)  # parses the IDL with varlink's own parser
            summary[name] = sorted(
                member for member, kind in interface.members.items() if type(kind).__name__ == "_Method"
            )
        with client.open("io.photolibd.Library") as library, client.open("io.photolibd.Library") as observer:
            assets = library.FetchAssets({}, 0, 10)
            summary["count"] = assets["count"]
            summary["filenames"] = [asset["originalFilename"] for asset in assets["assets"]]
            first = summary["first"] = assets["assets"][0]["id"]
            collections = library.FetchCollections({"kind": "smartAlbum"})
            summary["smartAlbums"] = sorted(c["subtype"] for c in collections["collections"])
            summary["status"] = library.AuthorizationStatus()["status"]
            summary["metadataGroups"] = sorted(library.FetchAssetMetadata(first)["metadata"].keys())
            try:
                library.FetchAssets({"collection": "no-such-album"})
                summary["notFound"] = None
            except varlink.VarlinkError as error:
                summary["notFound"] = error.error()

            # A `more` stream: the snapshot, then the reply for a change made on another connection.
            replies = observer.Observe(assetQueries={"favorites": {"predicate": "isFavorite == YES"}}, _more=True)
            snapshot = next(replies)
            changed = library.PerformChanges([{"op": "updateAsset", "target": first, "isFavorite": True}])
            update = next(replies)
            summary["observed"] = {
                "snapshot": snapshot["results"][0]["count"],
                "sameToken": update["token"] == changed["token"],
                "previousIsSnapshot": update["previousToken"] == snapshot["token"],
                "insertedIds": update["results"][0].get("insertedIds"),
                "objects": [(o["id"], o["kind"], o["change"]) for o in update["objects"]],
            }
            # Queries added to the running stream are reported from the token of their first result on.
            added = library.UpdateObservation(observerId=snapshot["observerId"],
                                              assetQueries={"all": {}}, removeQueries=["favorites"])
            library.PerformChanges([{"op": "updateAsset", "target": first, "isFavorite": False}])
            later = next(replies)
            summary["updated"] = {
                "added": [(r["name"], r["count"]) for r in added["results"]],
                "addedAtChange": added["token"] == changed["token"],
                "reported": [r["name"] for r in later["results"]],
                "changedIds": [r.get("changedIds") for r in later["results"]],
            }
            # Asked packed, a result's ids come as their 16 bytes each in base64, in the same order.
            plain = library.UpdateObservation(observerId=snapshot["observerId"], assetQueries={"plain": {}})
            packed = library.UpdateObservation(observerId=snapshot["observerId"], assetQueries={"packed": {}},
                                               packedIds=True)["results"][0]
            unpacked = base64.b64decode(packed["packedIds"], validate=True)
            summary["packed"] = {
                "ids": [str(uuid.UUID(bytes=unpacked[i:i + 16])) for i in range(0, len(unpacked), 16)]
                       == plain["results"][0]["ids"],
                "count": packed["count"],
                "hasTextIds": "ids" in packed,
            }
            history = library.FetchPersistentChanges(snapshot["token"])
            summary["persistent"] = [c["updatedAssetIds"] for c in history["changes"]]

        with client.open("io.photolibd.Import") as importer:
            replies = list(importer.ImportFiles(paths=[photo], mode="copy", _more=True))
            summary["import"] = {
                "progress": [(r["processed"], r["total"]) for r in replies],
                "files": [(f["path"], f["status"]) for f in replies[-1]["files"]],
            }
            summary["sources"] = importer.ListSources()["sources"]
            summary["importStatus"] = sorted(importer.Status().keys())

        with client.open("io.photolibd.Images") as images:
            replies = list(images.RequestImage(assetId=first, targetWidth=64, targetHeight=64,
                                               deliveryMode="opportunistic", _more=True))
            final = replies[-1]
            summary["image"] = {
                "final": not final["isDegraded"],
                "fits": max(final["width"], final["height"]) >= 64,
                "readable": os.access(final["path"], os.R_OK),
                "mimeType": final["mimeType"],
            }
        with client.open("io.photolibd.Library") as library, client.open("io.photolibd.Images") as images:
            turn = base64.b64encode(b'{"rotate":90}').decode()
            basic = {"formatIdentifier": "io.photolibd.basic", "formatVersion": "1"}
            library.PerformChanges([{"op": "editAsset", "target": first, "adjustment": dict(basic, data=turn)}])
            edited = library.FetchAssets({"ids": [first]})["assets"][0]
            resumed = images.RequestContentEditingInput(first, [basic])
            current = images.RequestContentEditingInput(assetId=first)
            library.PerformChanges([{"op": "revertAsset", "target": first}])
            summary["edit"] = {
                "hasAdjustments": edited["hasAdjustments"],
                "resumed": [resumed["baseVersion"], "same data" if resumed["adjustment"]["data"] == turn else "other data"],
                "current": [current["baseVersion"], "no adjustment" if current.get("adjustment") is None else "adjustment"],
                "reverted": library.FetchAssets({"ids": [first]})["assets"][0]["hasAdjustments"],
            }
    print(json.dumps(summary))
    if summary["count"] != expected_count:
        print(f"expected {expected_count} assets, got {summary['count']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
