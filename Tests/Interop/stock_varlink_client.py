#!/usr/bin/env python3
"""Exercises photolibd with the stock `varlink` client from PyPI: introspects every interface
(parsing its IDL) and calls FetchAssets, FetchCollections and AuthorizationStatus.

Usage: stock_varlink_client.py SOCKET_PATH EXPECTED_ASSET_COUNT
Prints one JSON summary line; exits non-zero on any mismatch."""
import json
import sys

import varlink

INTERFACES = ["io.photolibd.Library", "io.photolibd.Images", "io.photolibd.Import"]


def main() -> int:
    socket_path, expected_count = sys.argv[1], int(sys.argv[2])
    summary = {}
    with varlink.Client(address=f"unix:{socket_path}") as client:
        for name in INTERFACES:
            interface = client.get_interface(name)  # parses the IDL with varlink's own parser
            summary[name] = sorted(
                member for member, kind in interface.members.items() if type(kind).__name__ == "_Method"
            )
        with client.open("io.photolibd.Library") as library:
            assets = library.FetchAssets({}, 0, 10)
            summary["count"] = assets["count"]
            summary["filenames"] = [asset["originalFilename"] for asset in assets["assets"]]
            summary["token"] = assets["token"]
            collections = library.FetchCollections({"kind": "smartAlbum"})
            summary["smartAlbums"] = sorted(c["subtype"] for c in collections["collections"])
            summary["status"] = library.AuthorizationStatus()["status"]
            try:
                library.FetchAssets({"collection": "no-such-album"})
                summary["notFound"] = None
            except varlink.VarlinkError as error:
                summary["notFound"] = error.error()
    print(json.dumps(summary))
    if summary["count"] != expected_count:
        print(f"expected {expected_count} assets, got {summary['count']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
