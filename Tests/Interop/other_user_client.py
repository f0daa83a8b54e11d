#!/usr/bin/env python3
"""What another local user gets from photolibd, through a plain Unix socket and varlink's `upgrade` (which the stock
`varlink` package does not offer to clients): its authorization at both access levels, what fetches show, the
bytes of a file the daemon named (ReadFile) and an upload that becomes an asset (Upload, then createAsset).

Usage: other_user_client.py SOCKET_PATH PHOTO_TO_UPLOAD [ASSET_ID]
Prints one JSON summary line: each step's outcome or the error it met."""
import hashlib
import json
import socket
import sys


class Connection:
    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.pending = b""

    def call(self, method, parameters, upgrade=False):
        message = {"method": method, "parameters": parameters}
        if upgrade:
            message["upgrade"] = True
        self.socket.sendall(json.dumps(message).encode() + b"\0")
        return self.reply()

    def reply(self):
        while b"\0" not in self.pending:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise EOFError("the daemon closed the connection")
            self.pending += chunk
        message, _, self.pending = self.pending.partition(b"\0")
        return json.loads(message)

    def read(self, count):
        data, self.pending = self.pending[:count], self.pending[count:]
        while len(data) < count:
            chunk = self.socket.recv(min(1 << 20, count - len(data)))
            if not chunk:
                raise EOFError("the bytes broke off")
            data += chunk
        return data


def outcome(reply):
    return reply.get("error") or reply.get("parameters")


def main():
    socket_path, photo = sys.argv[1], sys.argv[2]
    asset_id = sys.argv[3] if len(sys.argv) > 3 else None
    summary = {}
    connection = Connection(socket_path)
    for level in ["readWrite", "addOnly"]:
        reply = connection.call("io.photolibd.Library.AuthorizationStatus", {"accessLevel": level})
        summary["status." + level] = outcome(reply)["status"]
    summary["count"] = outcome(connection.call("io.photolibd.Library.FetchAssets", {"query": {}}))["count"]

    if asset_id:
        reply = connection.call("io.photolibd.Images.RequestImageData", {"assetId": asset_id})
        if "error" in reply:
            summary["data"] = reply["error"]
        else:
            path = reply["parameters"]["path"]
            try:
                open(path, "rb")
                summary["canOpen"] = True
            except OSError:
                summary["canOpen"] = False
            read = connection.call("io.photolibd.Images.ReadFile", {"path": path}, upgrade=True)
            if "error" in read:
                summary["data"] = read["error"]
            else:
                summary["data"] = hashlib.sha256(connection.read(read["parameters"]["length"])).hexdigest()

    with open(photo, "rb") as file:
        data = file.read()
    started = connection.call("io.photolibd.Import.Upload", {"size": len(data), "filename": "sent.jpg"}, upgrade=True)
    if "error" in started:
        summary["upload"] = started["error"]
    else:
        connection.socket.sendall(data)
        received = connection.reply()
        upload = outcome(received)["uploadId"]
        reply = connection.call("io.photolibd.Library.PerformChanges",
                                {"changes": [{"op": "createAsset", "upload": upload, "placeholder": "@sent"}]})
        summary["upload"] = reply.get("error") or ("created" if reply["parameters"]["created"].get("@sent") else "none")
        summary["createdId"] = reply.get("parameters", {}).get("created", {}).get("@sent")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
