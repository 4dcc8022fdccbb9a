"""Bytes: what a calculator page downloads before its engine, and the engine itself.

Sizes are read from the built files: ``raw`` is the file, ``gzip`` what the
server (:mod:`tests.support.server`) sends a browser that accepts gzip:
compressed for text and WebAssembly, as is for archives.
Which files a page downloads is what the browser asked the server for on a
first visit (see :mod:`bench.timing`), so nothing is assumed.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from tests.support.server import COMPRESSIBLE, compressed, content_type

KINDS = {".html": "HTML", ".css": "CSS", ".js": "JS", ".mjs": "JS"}


@dataclass(frozen=True)
class Size:
    """A number of bytes, raw and as sent gzip-compressed."""

    raw: int = 0
    gzip: int = 0

    def __add__(self, other: Size) -> Size:
        return Size(self.raw + other.raw, self.gzip + other.gzip)


@functools.cache
def served(path: Path) -> Size:
    """Size of one file, raw and as the server sends it to a client accepting gzip."""
    data = path.read_bytes()
    sent = compressed(data) if content_type(path).startswith(COMPRESSIBLE) else data
    return Size(len(data), len(sent))


@dataclass(frozen=True)
class Engine:
    """Where a page's engine lives: URL paths of the worker, runtime and wheel folders."""

    worker: str
    folders: tuple[str, ...]

    def owns(self, path: str) -> bool:
        """Whether a URL path belongs to the engine."""
        return path == self.worker or path.startswith(self.folders)


_META = re.compile(r'<meta name="calc:(worker|pyodide|wheel)" content="([^"]+)"')


def engine_of(html: str, page_url_path: str) -> Engine:
    """Read the engine's URLs from a page's ``<meta name="calc:...">`` tags."""
    found = {name: urlsplit(urljoin(page_url_path, url)).path for name, url in _META.findall(html)}
    return Engine(
        worker=found["worker"],
        folders=tuple(posixpath.dirname(found[name]) + "/" for name in ("pyodide", "wheel")),
    )


@dataclass
class Inventory:
    """A page's downloads, split into what comes before the engine and the engine."""

    before: dict[str, Size] = field(default_factory=dict)
    """By kind: HTML, CSS, JS, and "other" (search index, images)."""
    engine: dict[str, Size] = field(default_factory=dict)
    """By file name."""
    missing: list[str] = field(default_factory=list)
    """Requested paths with no file behind them."""

    @property
    def page(self) -> Size:
        """HTML + CSS + JS before the engine: what the target is about."""
        return sum((self.before.get(kind, Size()) for kind in ("HTML", "CSS", "JS")), Size())

    @property
    def everything_before(self) -> Size:
        """Every byte before the engine, the search index and images included."""
        return sum(self.before.values(), Size())

    @property
    def engine_total(self) -> Size:
        """The engine's bytes."""
        return sum(self.engine.values(), Size())


def inventory(site: Path, prefix: str, paths: Iterable[str], engine: Engine) -> Inventory:
    """Account for each URL path the browser requested (once) of ``site``, served at ``prefix``."""
    result = Inventory()
    for path in dict.fromkeys(paths):
        relative = path[len(prefix) :]
        file = site / relative
        if file.is_dir() or not relative:
            file = file / "index.html"
        if not file.is_file():
            result.missing.append(path)
            continue
        size = served(file)
        if engine.owns(path):
            result.engine[file.name] = result.engine.get(file.name, Size()) + size
        else:
            kind = KINDS.get(file.suffix.lower(), "other")
            result.before[kind] = result.before.get(kind, Size()) + size
    return result
