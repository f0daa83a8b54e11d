"""The gallery's part of the soak: photolib-web on the soaked daemon, visited as browsers visit it.

- page visits: every 2 s a visitor signs in with the token, loads the page, the timeline's index, its first sections and
  up to 24 grid thumbnails of them (one timed figure per visit);
- event streams: three pages hold the timeline's event stream all run long, one more comes and goes every 10 s.
"""
import http.client
import http.cookiejar
import json
import os
import random
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request


class Gallery:
    """photolib-web, started beside the daemon's binary, on the daemon's socket."""

    def __init__(self, daemon_binary, socket_path, work):
        environment = dict(os.environ, XDG_RUNTIME_DIR=f"{work}/web-runtime", XDG_CACHE_HOME=f"{work}/web-cache")
        os.makedirs(environment["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
        self.log_path = f"{work}/web.log"
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(
                [os.path.join(os.path.dirname(daemon_binary), "photolib-web"), "--listen", "127.0.0.1:0",
                 "--socket", socket_path], stdout=subprocess.PIPE, stderr=log, env=environment, text=True)
        self.url = self.process.stdout.readline().strip()
        parts = urllib.parse.urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port
        self.origin = f"http://{parts.netloc}"

    def stop(self):
        self.process.terminate()
        return self.process.wait(timeout=60)

    def log(self):
        with open(self.log_path, errors="replace") as log:
            return log.read()

    def sign_in(self):
        """An opener that holds a session cookie, as a browser does after opening the address with its token, and
        that cookie as a `Cookie` header."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        opener.open(self.url, timeout=30).read()
        return opener, "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


class GalleryLoad:
    """The visits and event streams, run by the soak's threads; counts and errors go to the soak's `load`."""

    def __init__(self, gallery, load):
        self.gallery, self.load = gallery, load

    def visit(self, opener, rng):
        origin = self.gallery.origin
        started = time.monotonic()
        opener.open(origin + "/", timeout=30).read()
        index = json.load(opener.open(origin + "/api/views/timeline", timeout=30))
        keys = [key for key, _ in index["sections"][:3]]
        tiles = []
        if keys:
            sections = json.load(opener.open(f"{origin}/api/views/timeline/sections?keys={','.join(keys)}", timeout=30))
            tiles = [tile for section in sections["sections"] for tile in section["tiles"]]
        for identifier, _, _, _, _, version, _ in rng.sample(tiles, min(24, len(tiles))):
            try:
                opener.open(f"{origin}/image/{identifier}/{version}/256", timeout=30).read()
            except urllib.error.HTTPError as error:
                # The soak purges the oldest photos as it drops new ones: one may go between the section and its picture.
                if error.code != 404:
                    raise
                self.load.count("gallery thumbnails of purged photos")
        self.load.latencies.add("gallery visit", time.monotonic() - started)

    def visits(self, name, pause):
        rng = random.Random(name)
        opener, _ = self.gallery.sign_in()
        while time.monotonic() < self.load.end:
            try:
                self.visit(opener, rng)
                self.load.count(name)
            except Exception as error:  # noqa: BLE001  (counted and reported, the load goes on)
                self.load.errors.append(f"{name}: {error}")
                opener, _ = self.gallery.sign_in()
            time.sleep(pause)

    def events(self, name, lifetime):
        """The timeline's event stream, read as events come, for `lifetime` seconds at a time until the end."""
        while time.monotonic() < self.load.end:
            until = min(self.load.end, time.monotonic() + lifetime)
            connection = None
            try:
                _, cookie = self.gallery.sign_in()
                connection = http.client.HTTPConnection(self.gallery.host, self.gallery.port, timeout=5)
                connection.request("GET", "/api/events?view=timeline", headers={"Cookie": cookie,
                                                                                "Accept": "text/event-stream"})
                response = connection.getresponse()
                if response.status != 200:
                    raise RuntimeError(f"event stream answered {response.status}")
                while time.monotonic() < until:
                    try:
                        line = response.fp.readline()
                    except TimeoutError:
                        continue
                    if not line:
                        raise RuntimeError("the event stream ended")
                    if line.startswith(b"data:"):
                        self.load.count(name)
            except Exception as error:  # noqa: BLE001
                self.load.errors.append(f"{name}: {error}")
                time.sleep(1)
            finally:
                if connection:
                    connection.close()
