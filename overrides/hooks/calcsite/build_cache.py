"""The build's cache: what takes seconds to make, kept between builds under ``node_modules``.

Each file is named by a hash of everything it is made from, so a file found
under its name is the one a build would make; a change to any of its inputs
names another file. The folder sits in ``node_modules/.cache``, where tools
keep their caches by convention: ``npm ci`` empties it with the packages the
files are made from.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from . import gzipped

__all__ = ["CACHE", "gzipped_kept", "kept"]

CACHE = Path("node_modules") / ".cache" / "calcsite"
"""Where built archives are kept, relative to the project: building one takes seconds."""


def kept(folder: Path, name: str, make: Callable[[], bytes]) -> bytes:
    """The file ``name`` of ``folder``, made by ``make`` and kept there on the first call."""
    cached = folder / name
    if cached.is_file():
        return cached.read_bytes()
    data = make()
    folder.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(cached)  # whole or absent, whatever runs beside
    return data


def gzipped_kept(data: bytes, folder: Path, prefix: str) -> bytes:
    """``data`` as one gzip stream (:func:`calcsite.gzipped.gzipped`), kept in ``folder``.

    Kept under a hash of the bytes compressed, the packing code and Zopfli's
    version: Zopfli takes seconds on the standard library, half a second on
    the wheel, and a build needs both.
    """
    key = hashlib.sha256(data)
    for part in (Path(gzipped.__file__).read_text(encoding="utf-8"), metadata.version("zopfli")):
        key.update(part.encode("utf-8") + b"\0")
    name = f"{prefix}-{key.hexdigest()[:16]}{gzipped.SUFFIX}"
    return kept(folder, name, lambda: gzipped.gzipped(data))
