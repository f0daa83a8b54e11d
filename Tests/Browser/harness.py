"""The real photolibd and photolib-web on a temporary library, for the browser tests and the benchmark.

Products come from PHOTOLIBD_PRODUCTS (default .build/debug). Photos are made with ImageMagick (colourful plasma
fractals of varied shapes) and dated with exiftool, so that the timeline has days, rows and shapes to show.
"""
import os
import shutil
import subprocess
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRODUCTS = os.environ.get("PHOTOLIBD_PRODUCTS", os.path.join(ROOT, ".build", "debug"))

SHAPES = [(900, 600), (600, 900), (1000, 560), (800, 800), (1200, 500), (700, 525)]
COLOURS = ["skyblue-orange", "seagreen-khaki", "steelblue-gold", "orchid-navy", "tomato-lightyellow",
           "teal-coral", "slateblue-peachpuff", "darkolivegreen-wheat"]


def make_photo(path, index, date, shape=None):
    """A JPEG of a plasma fractal, `shape` (width, height) or one of SHAPES, taken at `date` ('YYYY:MM:DD HH:MM:SS')."""
    width, height = shape or SHAPES[index % len(SHAPES)]
    subprocess.run(["convert", "-seed", str(1000 + index), "-size", f"{width}x{height}",
                    f"plasma:{COLOURS[index % len(COLOURS)]}", "-blur", "0x1", "-quality", "85", path], check=True)
    subprocess.run(["exiftool", "-q", "-overwrite_original", f"-DateTimeOriginal={date}", path], check=True)
    return path


def make_video(path, seconds=6, taken="2024-05-16T10:30:00Z", codec="libx264", faststart=True):
    """A short MP4 with a moving test pattern and a tone, for the player: H.264, or HEVC with codec="libx265" (which
    Chromium does not decode); without `faststart` its index comes last."""
    video = ["-c:v", codec] + (["-tag:v", "hvc1", "-x265-params", "log-level=error"] if codec == "libx265" else [])
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=640x360:rate=25:duration={seconds}",
                    "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}", *video, "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-shortest", *(["-movflags", "+faststart"] if faststart else []),
                    "-metadata", f"creation_time={taken}", path], check=True)
    return path


class Gallery:
    """A daemon with a drop folder and photolib-web beside it, on a temporary directory."""

    def __init__(self, extra_config=""):
        self.directory = tempfile.mkdtemp(prefix="photolib-web-test-")
        self.socket = os.path.join(self.directory, "run", "socket")
        self.drop = os.path.join(self.directory, "drop")
        self.runtime = os.path.join(self.directory, "runtime")
        os.makedirs(self.drop)
        os.makedirs(self.runtime, mode=0o700)
        self.config = os.path.join(self.directory, "photolibd.conf")
        with open(self.config, "w") as config:
            config.write(f'library = "{self.directory}/library"\ncache = "{self.directory}/cache"\n'
                         f'socket = "{self.socket}"\n{extra_config}\n'
                         f'[[source]]\npath = "{self.drop}"\nmode = "move"\n')
        self.daemon = None
        self.web = None
        self.url = None
        self.environment = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, XDG_CACHE_HOME=os.path.join(self.directory, "cache-home"))
        self.environment.pop("PHOTOLIBD_SOCKET", None)

    def start_daemon(self):
        log = open(os.path.join(self.directory, "daemon.log"), "ab")
        self.daemon = subprocess.Popen([os.path.join(PRODUCTS, "photolibd"), "--config", self.config],
                                       stdout=log, stderr=log, env=self.environment)
        deadline = time.time() + 120
        while not os.path.exists(self.socket) or self.photolib("status", check=False).returncode != 0:
            if self.daemon.poll() is not None or time.time() > deadline:
                raise RuntimeError("photolibd did not start:\n" + self.log("daemon.log"))
            time.sleep(0.1)

    def stop_daemon(self):
        if self.daemon and self.daemon.poll() is None:
            self.daemon.terminate()
            self.daemon.wait(30)

    def start_web(self, listen="127.0.0.1:0", uid=None):
        """Starts photolib-web beside the daemon, as user `uid` when given (which takes root: setpriv), with a runtime
        folder and a cache of that user's own."""
        log = open(os.path.join(self.directory, "web.log"), "ab")
        command = [os.path.join(PRODUCTS, "photolib-web"), "--listen", listen, "--socket", self.socket]
        environment = self.environment
        if uid is not None:
            home = os.path.join(self.directory, f"user-{uid}")
            for folder in ("runtime", "cache"):
                os.makedirs(os.path.join(home, folder), mode=0o700)
                os.chown(os.path.join(home, folder), uid, uid)
            environment = dict(self.environment, XDG_RUNTIME_DIR=os.path.join(home, "runtime"), XDG_CACHE_HOME=os.path.join(home, "cache"))
            command = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *command]
        self.web = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, env=environment, text=True)
        self.url = self.web.stdout.readline().strip()
        if not self.url.startswith("http://"):
            raise RuntimeError("photolib-web printed no address:\n" + self.log("web.log"))
        parts = urllib.parse.urlsplit(self.url)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]
        return self.url

    def photolib(self, *arguments, check=True):
        return subprocess.run([os.path.join(PRODUCTS, "photolib"), *arguments], capture_output=True, text=True, check=check,
                              env=dict(self.environment, PHOTOLIBD_SOCKET=self.socket), timeout=120)

    def import_files(self, paths):
        self.photolib("import", *paths)

    def drop_file(self, source):
        """Moves a finished file into the drop folder in one step, as a camera import would."""
        target = os.path.join(self.drop, os.path.basename(source))
        staging = os.path.join(self.directory, "." + os.path.basename(source))
        shutil.copy(source, staging)
        os.rename(staging, target)
        return target

    def log(self, name):
        try:
            with open(os.path.join(self.directory, name), errors="replace") as file:
                return file.read()[-4000:]
        except OSError:
            return ""

    def close(self):
        for process in (self.web, self.daemon):
            if process and process.poll() is None:
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(self.directory, ignore_errors=True)
