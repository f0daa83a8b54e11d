"""photolibd as the crash harness runs it: a config on a folder tree, the process, and calls over its socket."""
import json
import os
import signal
import socket
import subprocess
import time


class VarlinkError(Exception):
    def __init__(self, reply):
        super().__init__(f"{reply['error']}: {json.dumps(reply.get('parameters', {}))}")
        self.name = reply["error"]


class Connection:
    def __init__(self, path, timeout=60):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(timeout)
        self.socket.connect(path)
        self.buffer = b""

    def close(self):
        self.socket.close()

    def _receive(self):
        while b"\0" not in self.buffer:
            chunk = self.socket.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the daemon closed the connection")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        reply = json.loads(message)
        if "error" in reply:
            raise VarlinkError(reply)
        return reply

    def call(self, method, **parameters):
        self.socket.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\0")
        return self._receive().get("parameters", {})

    def stream(self, method, **parameters):
        """Every reply of a `more` call."""
        self.socket.sendall(json.dumps({"method": method, "parameters": parameters, "more": True}).encode() + b"\0")
        while True:
            reply = self._receive()
            yield reply.get("parameters", {})
            if not reply.get("continues"):
                return


class Daemon:
    """photolibd with its library, cache and a move-mode drop folder under `root`, its socket and log beside."""

    def __init__(self, binary, root, scratch):
        self.binary, self.root = binary, root
        self.socket_path = os.path.join(scratch, "socket")
        self.config_path = os.path.join(scratch, "photolibd.conf")
        self.log_path = os.path.join(scratch, "daemon.log")
        with open(self.config_path, "w") as config:
            config.write(f'library = "{root}/library"\ncache = "{root}/cache"\nsocket = "{self.socket_path}"\n'
                         f'[[source]]\npath = "{root}/drop"\nmode = "move"\n')
        self.process = None

    def start(self, timeout=60):
        log = open(self.log_path, "ab")
        environment = {key: value for key, value in os.environ.items() if key not in ("PHOTOLIBD_SOCKET", "NOTIFY_SOCKET")}
        self.process = subprocess.Popen([self.binary, "--config", self.config_path], stdout=log, stderr=log,
                                        stdin=subprocess.DEVNULL, env=environment)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"photolibd exited with {self.process.returncode}:\n{self.log()[-3000:]}")
            try:
                Connection(self.socket_path, timeout=5).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"photolibd did not answer in {timeout} s:\n{self.log()[-3000:]}")

    def connect(self):
        return Connection(self.socket_path)

    def stop(self, timeout=60):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise RuntimeError("photolibd did not stop within a minute of SIGTERM")
        return self.process.returncode if self.process else None

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def log(self):
        try:
            with open(self.log_path, errors="replace") as log:
                return log.read()
        except FileNotFoundError:
            return ""

    def wait_until_idle(self, connection, timeout=60):
        """Until the importer has nothing queued or under way, the drop folder is empty and every import settled."""
        deadline = time.monotonic() + timeout
        drop, incoming = f"{self.root}/drop", f"{self.root}/library/incoming"
        while time.monotonic() < deadline:
            status = connection.call("io.photolibd.Import.Status")
            if status.get("queued", 0) == 0 and status.get("processing", 0) == 0 \
                    and not files_under(drop) and not files_under(incoming):
                return True
            time.sleep(0.1)
        return False


def files_under(folder):
    found = []
    for directory, _, names in os.walk(folder):
        found += [os.path.join(directory, name) for name in names]
    return found
