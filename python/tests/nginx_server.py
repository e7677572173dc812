"""nginx serving a directory on 127.0.0.1, the way an object store serves files: HEAD, GET with byte ranges
(206), a directory listing for globs. Run from a directory of its own (configuration, pid, logs and nginx's
temporary paths all in it; nothing root-owned), in the foreground as a child process, stopped at exit.
Its access log says what every request asked for and what was sent, for counting requests and bytes.

Used by python/tests/test_http.py and bench/scripts/http_dask.py.
"""

import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

# One line per request: method, path, status, the Range header ("-" without one), bytes sent in all
# (headers included) and bytes of the body.
LOG_FORMAT = '$request_method $uri $status "$http_range" $bytes_sent $body_bytes_sent'


def nginx_binary():
    """The nginx program, or None (Debian puts it in /usr/sbin, which a user's PATH may lack)."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


@dataclass
class Request:
    method: str
    path: str
    status: int
    range: str  # "bytes=a-b", or "" without a Range header
    bytes_sent: int
    body_bytes: int

    @property
    def span(self):
        """(first, last) byte of a "bytes=a-b" range, or None."""
        if not self.range.startswith("bytes="):
            return None
        first, last = self.range[len("bytes="):].split("-")
        return int(first), int(last)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    def __init__(self, directory, served):
        self.directory = os.path.abspath(directory)
        self.served = os.path.abspath(served)
        self.log = os.path.join(self.directory, "access.log")
        self.process = None
        self.port = None

    def _config(self, port):
        d = self.directory
        # nginx started by root runs its workers as "nobody", who could not read a test's 0700 directory
        # nor pcrypt's 0600 ciphertext: they run as the same user instead.
        user = "user root;\n" if os.geteuid() == 0 else ""
        return (f"{user}worker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n"
                "events { worker_connections 64; }\n"
                "http {\n"
                f"  log_format ranges '{LOG_FORMAT}';\n"
                f"  access_log {d}/access.log ranges;\n"
                + "".join(f"  {kind}_temp_path {d}/temp;\n" for kind in ("client_body", "proxy", "fastcgi",
                                                                           "uwsgi", "scgi"))
                + "  default_type application/octet-stream;\n"
                f"  server {{ listen 127.0.0.1:{port}; root {self.served}; autoindex on; }}\n"
                "}\n")

    def start(self):
        binary = nginx_binary()
        os.makedirs(os.path.join(self.directory, "temp"), exist_ok=True)
        conf = os.path.join(self.directory, "nginx.conf")
        for _ in range(5):  # another program may take the free port first: try another
            port = _free_port()
            with open(conf, "w") as f:
                f.write(self._config(port))
            # -e: the error log before the configuration is read (the built-in default is under /var/log).
            self.process = subprocess.Popen(
                [binary, "-p", self.directory, "-e", os.path.join(self.directory, "error.log"), "-c", conf,
                 "-g", "daemon off;"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    self.port = port
                    return self
                except OSError:
                    time.sleep(0.02)
            self.stop()
        with open(os.path.join(self.directory, "error.log")) as f:
            raise RuntimeError(f"nginx did not start: {f.read()[-2000:]}")

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: nginx's fast shutdown, workers included
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def url(self, name=""):
        return f"http://127.0.0.1:{self.port}/{name}"

    def mark(self):
        """Where the access log ends now: requests_since(mark) are the requests made after."""
        return os.path.getsize(self.log) if os.path.exists(self.log) else 0

    def requests_since(self, mark=0):
        """The requests logged after ``mark``. nginx logs a request once its response is sent, which may be
        after the client has it: a last request of our own, logged after all those before it (one worker,
        one event loop), says when the log is complete; it is not among those returned."""
        self._settles = getattr(self, "_settles", 0) + 1
        settle = f"/.settled-{self._settles}"
        try:
            urllib.request.urlopen(urllib.request.Request(self.url(settle[1:]), method="HEAD"), timeout=10)
        except urllib.error.HTTPError:
            pass  # 404, as meant
        deadline = time.monotonic() + 10
        while True:
            with open(self.log) as f:
                f.seek(mark)
                lines = f.read().splitlines()
            if any(f" {settle} " in line for line in lines) or time.monotonic() > deadline:
                break
            time.sleep(0.01)
        out = []
        for line in lines:
            if f" {settle} " in line or " /.settled-" in line:
                continue
            method, path, status, quoted_range, sent, body = line.split(" ")
            rng = quoted_range.strip('"')
            out.append(Request(method, path, int(status), "" if rng == "-" else rng, int(sent), int(body)))
        return out
