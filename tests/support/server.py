"""A static server that behaves like GitHub Pages where it matters for speed.

GitHub Pages compresses text (and WebAssembly) on the fly for clients that
accept gzip, and sends ``Cache-Control: max-age=600`` with an ``ETag`` and a
``Last-Modified`` date, answering conditional requests with ``304``; every
answer carries ``Access-Control-Allow-Origin: *``. A page served without
compression and caching (``python -m http.server``) is slower on every visit
and scores lower in Lighthouse for reasons that have nothing to do with the
site. This server does the same, on 127.0.0.1, from a folder; the browser
tests and the benchmark use it::

    with serve(site_dir) as server:
        page.goto(server.url("fr/pipeline-bubble/"))

Compressed bodies are kept in memory by path, size and modification time, so
that a 9.6 MB WebAssembly module is compressed once, as a CDN would, and not
on every request of a timed run.

Off by default, the server can also play a reader's network (``link=Link()``):
each response waits a latency before its first byte, and every body shares one
bandwidth, chunk by chunk, with the others being sent at the same time, as
downloads share an office line or a VPN. Nothing else of the answer changes.
"""

from __future__ import annotations

import contextlib
import email.utils
import gzip
import http.server
import os
import posixpath
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = [
    "COMPRESSIBLE",
    "MIME_TYPES",
    "Hit",
    "Link",
    "Server",
    "SiteHandler",
    "compressed",
    "content_type",
    "serve",
    "start",
]

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".wasm": "application/wasm",
    ".whl": "application/octet-stream",
    ".zip": "application/zip",
    ".gz": "application/gzip",
}
"""Content types by extension; anything else is ``application/octet-stream``."""

COMPRESSIBLE = (
    "text/",
    "application/json",
    "application/xml",
    "application/wasm",
    "image/svg+xml",
)
"""Content types sent gzip-compressed to a client that accepts it, as GitHub Pages does."""

MAX_AGE = 600
GZIP_LEVEL = 6


def content_type(path: str | Path) -> str:
    """The ``Content-Type`` of a file, by its extension."""
    return MIME_TYPES.get(os.path.splitext(path)[1].lower(), "application/octet-stream")


def compressed(data: bytes) -> bytes:
    """The gzip body of ``data``, as sent; ``mtime=0``, so the same bytes give the same body."""
    return gzip.compress(data, GZIP_LEVEL, mtime=0)


@dataclass
class _GzipCache:
    """Compressed bodies by (path, size, mtime), shared by the handler threads."""

    bodies: dict[tuple[str, int, int], bytes] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def get(self, path: str, stat: os.stat_result) -> bytes:
        key = (path, stat.st_size, stat.st_mtime_ns)
        with self.lock:
            body = self.bodies.get(key)
        if body is None:
            body = compressed(Path(path).read_bytes())
            with self.lock:
                self.bodies[key] = body
        return body


@dataclass(frozen=True)
class Link:
    """An emulated network between the browser and the server (see the module's docstring)."""

    megabits: float = 20.0
    """The bandwidth every response shares, in Mbit/s."""
    latency_ms: float = 40.0
    """The wait before each response's first byte, in milliseconds."""
    chunk: int = 16_384
    """Bytes sent at a time: each chunk takes its turn on the shared line."""


class Line:
    """A link's shared bandwidth: one clock of when the line is next free, for every response."""

    def __init__(
        self,
        link: Link,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        self.link = link
        self.clock = clock
        self.sleep = sleep
        self.lock = threading.Lock()
        self.free = 0.0

    def send(self, write: Callable[[bytes], object], data: bytes) -> None:
        """Write ``data`` as fast as the line allows, sharing it with concurrent senders."""
        seconds_per_byte = 8 / (self.link.megabits * 1e6)
        for start in range(0, len(data), self.link.chunk):
            piece = data[start : start + self.link.chunk]
            with self.lock:
                self.free = max(self.clock(), self.free) + len(piece) * seconds_per_byte
                arrives = self.free
            self.sleep(max(0.0, arrives - self.clock()))
            write(piece)


@dataclass(frozen=True)
class Hit:
    """One answered request: its URL path, status and body bytes sent."""

    path: str
    status: int
    sent: int


class SiteHandler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of the files under ``directory``, published under ``prefix``."""

    protocol_version = "HTTP/1.1"  # keep-alive, as every real host

    def __init__(
        self,
        *args: object,
        directory: str,
        prefix: str = "/",
        cache: _GzipCache,
        hits: list[Hit],
        compress: bool = True,
        line: Line | None = None,
        **kwargs: object,
    ) -> None:
        self.directory = directory
        self.prefix = prefix
        self.cache = cache
        self.hits = hits
        self.compress = compress
        self.line = line
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    # ------------------------------------------------------------ routing

    def _file(self, route: str) -> tuple[str | None, str | None]:
        """Return (file path, redirect location) for a URL path."""
        if not route.startswith(self.prefix):
            return None, None
        relative = posixpath.normpath(unquote(route[len(self.prefix) :]))
        parts = [part for part in relative.split("/") if part not in ("", ".", "..")]
        path = os.path.join(self.directory, *parts)
        if os.path.isdir(path):
            if not route.endswith("/"):
                return None, route + "/"
            path = os.path.join(path, "index.html")
        return (path if os.path.isfile(path) else None), None

    def do_HEAD(self) -> None:
        """Answer as GET would, without the body."""
        self._respond(body=False)

    def do_GET(self) -> None:
        """Answer with the file, its 404 page, a redirect to the folder, or 304."""
        self._respond(body=True)

    def _respond(self, body: bool) -> None:
        if self.line is not None:
            time.sleep(self.line.link.latency_ms / 1000)
        url = urlsplit(self.path)
        path, location = self._file(url.path)
        if location is not None:
            self.send_response(301)
            self.send_header("Location", location + (f"?{url.query}" if url.query else ""))
            self.send_header("Content-Length", "0")
            self.hits.append(Hit(url.path, 301, 0))
            self.end_headers()
            return
        status = 200
        if path is None:
            status = 404
            path = os.path.join(self.directory, "404.html")
            if not os.path.isfile(path):
                self.hits.append(Hit(url.path, 404, 0))
                self.send_error(404)
                return
        stat = os.stat(path)
        mime = content_type(path)
        gzipped = (
            self.compress
            and mime.startswith(COMPRESSIBLE)
            and "gzip" in self.headers.get("Accept-Encoding", "")
        )
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}{"-gz" if gzipped else ""}"'
        modified = email.utils.formatdate(stat.st_mtime, usegmt=True)
        if status == 200 and self._fresh(etag, stat.st_mtime):
            self.send_response(304)
            self._validators(etag, modified, gzipped)
            self.hits.append(Hit(url.path, 304, 0))
            self.end_headers()
            return
        data = self.cache.get(path, stat) if gzipped else Path(path).read_bytes()
        self.send_response(status)
        self.send_header("Content-Type", mime)
        self.send_header("Content-Length", str(len(data)))
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self._validators(etag, modified, gzipped)
        # Recorded before the client can have the whole answer.
        self.hits.append(Hit(url.path, status, len(data) if body else 0))
        self.end_headers()
        if body:
            try:
                if self.line is None:
                    self.wfile.write(data)
                else:
                    self.line.send(self.wfile.write, data)
            except ConnectionError:
                self.close_connection = True  # the browser went away mid-download

    def _validators(self, etag: str, modified: str, gzipped: bool) -> None:
        # GitHub Pages lets any origin read what it serves; a site that loads
        # Pyodide from another origin (PYODIDE_CDN) relies on the same from its CDN.
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", f"max-age={MAX_AGE}")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", modified)
        if self.compress:
            self.send_header("Vary", "Accept-Encoding")

    def _fresh(self, etag: str, mtime: float) -> bool:
        """Whether the client's cached copy is current (If-None-Match, else If-Modified-Since)."""
        match = self.headers.get("If-None-Match")
        if match is not None:
            tags = {tag.strip().removeprefix("W/") for tag in match.split(",")}
            return etag in tags or "*" in tags
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                parsed = email.utils.parsedate_to_datetime(since)
            except (TypeError, ValueError):
                return False
            return int(mtime) <= parsed.timestamp()
        return False

    def version_string(self) -> str:
        """The ``Server`` header."""
        return "bench"

    def log_message(self, format: str, *args: object) -> None:
        """Say nothing: the benchmark prints its own progress."""


class _QuietServer(http.server.ThreadingHTTPServer):
    """Says nothing when a browser drops a connection it no longer needs."""

    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        # A closed tab or a cancelled fetch resets its connection: routine for
        # a benchmark that opens and closes browsers, not worth a traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@dataclass
class Server:
    """A running server: its base URL (ending in ``/``), its origin and its address."""

    base: str
    origin: str
    httpd: http.server.ThreadingHTTPServer = field(repr=False)
    link: Link | None = None
    """The emulated network, if any."""
    hits: list[Hit] = field(default_factory=list, repr=False)
    """Every request answered, in order; the benchmark clears it between runs."""

    def url(self, path: str = "") -> str:
        """Return the absolute URL of ``path``, relative to the published root."""
        return self.base + path.lstrip("/")

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.httpd.shutdown()
        self.httpd.server_close()


def start(
    directory: Path,
    prefix: str = "/",
    port: int = 0,
    compress: bool = True,
    link: Link | None = None,
) -> Server:
    """Serve ``directory`` under ``prefix`` on 127.0.0.1 from a background thread.

    ``port=0`` picks a free port. ``compress=False`` serves every file as is,
    for comparison. ``link`` puts an emulated network between the server and
    its clients.
    """
    cache = _GzipCache()
    hits: list[Hit] = []
    line = None if link is None else Line(link)

    def handler(*args: object) -> SiteHandler:
        return SiteHandler(
            *args,
            directory=str(directory),
            prefix=prefix,
            cache=cache,
            hits=hits,
            compress=compress,
            line=line,
        )

    httpd = _QuietServer(("127.0.0.1", port), handler)
    threading.Thread(target=httpd.serve_forever, name="bench-server", daemon=True).start()
    origin = f"http://127.0.0.1:{httpd.server_address[1]}"
    return Server(base=origin + prefix, origin=origin, httpd=httpd, hits=hits, link=link)


@contextlib.contextmanager
def serve(
    directory: Path,
    prefix: str = "/",
    port: int = 0,
    compress: bool = True,
    link: Link | None = None,
) -> Iterator[Server]:
    """Serve ``directory`` for the duration of a ``with`` block (see :func:`start`)."""
    server = start(directory, prefix, port, compress, link)
    try:
        yield server
    finally:
        server.stop()
