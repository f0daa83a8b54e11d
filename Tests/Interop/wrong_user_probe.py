#!/usr/bin/env python3
"""What a local user can see of photolibd's library outside the socket and through Observe.

Usage: wrong_user_probe.py SOCKET_PATH FOLDER...
Prints one JSON line: `opened`, the files under the FOLDERs this user could open for reading (and folders it could
list), and `observed`, what the first Observe reply of a query on every asset showed (its count and ids)."""
import json
import os
import socket
import sys


def openable(folders):
    opened = []
    for folder in folders:
        for directory, names, files in os.walk(folder, onerror=lambda error: None):
            opened.append(directory)  # os.walk lists only folders it could open
            for name in files:
                path = os.path.join(directory, name)
                try:
                    with open(path, "rb") as file:
                        file.read(1)
                    opened.append(path)
                except OSError:
                    pass
    return opened


def first_observe_reply(socket_path):
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(30)
    connection.connect(socket_path)
    call = {"method": "io.photolibd.Library.Observe", "more": True,
            "parameters": {"assetQueries": {"all": {"includeHidden": True, "includeTrashed": True}}}}
    connection.sendall(json.dumps(call).encode() + b"\0")
    pending = b""
    while b"\0" not in pending:
        chunk = connection.recv(65536)
        if not chunk:
            return {"error": "closed"}
        pending += chunk
    reply = json.loads(pending.split(b"\0", 1)[0])
    connection.close()
    if "error" in reply:
        return {"error": reply["error"]}
    results = reply["parameters"].get("results", [])
    return {"count": sum(result.get("count", 0) for result in results),
            "ids": [identifier for result in results for identifier in result.get("ids") or []]}


def main():
    socket_path, folders = sys.argv[1], sys.argv[2:]
    print(json.dumps({"opened": openable(folders), "observed": first_observe_reply(socket_path)}))


if __name__ == "__main__":
    main()
