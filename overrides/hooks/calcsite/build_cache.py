"""The build's cache: what takes seconds to make, kept between builds in ``node_modules``.

One thing takes that long: the standard library, compiled by Pyodide under
Node and gzipped by Zopfli (:mod:`calcsite.stdlib`), 17 s on an idle
machine, half a minute on a busy one. It is kept in
``node_modules/.cache/calcsite``, where tools keep their caches by
convention (``npm ci`` empties it with the packages it is made from), under
a name that hashes everything it is made from: a file found under its name is
the one a build would make, and a change to any input names another file.

Each change would then leave a file behind: the engine's plan keeps only the
files the current build used (:func:`prune`, from :func:`calcsite.engine.plan`).
Builds and tests may run side by side (``mkdocs serve`` and ``./dev test``):
a file is written whole or not at all, and one that another build removes
between two steps is made again.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["CACHE", "kept", "location", "prune"]

CACHE = Path(".cache") / "calcsite"
"""The cache's folder, in the ``node_modules`` folder of the npm packages it is made from."""


def location(package_dir: Path) -> Path:
    """The cache beside the npm package ``package_dir``: ``node_modules/.cache/calcsite``."""
    return package_dir.parent / CACHE


def kept(folder: Path, name: str, make: Callable[[], bytes]) -> bytes:
    """The file ``name`` of ``folder``, made by ``make`` and kept there when missing."""
    cached = folder / name
    try:
        return cached.read_bytes()
    except FileNotFoundError:
        pass
    data = make()
    folder.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    # Whole or absent, whatever runs beside. A build beside that uses another file
    # may prune this one before it is in place: the next build keeps it.
    with contextlib.suppress(FileNotFoundError):
        partial.replace(cached)
    return data


def prune(folder: Path, keep: Iterable[str]) -> list[str]:
    """Remove every file of ``folder`` but those named in ``keep``; return the names removed.

    A missing folder has nothing to remove.
    """
    kept_names = set(keep)
    removed = []
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        if path.name not in kept_names and path.is_file():
            path.unlink(missing_ok=True)
            removed.append(path.name)
    return removed
