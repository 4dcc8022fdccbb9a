"""The files the live calculators need: the core's wheel and the Pyodide runtime.

Both are produced by the site build itself, so ``mkdocs build`` alone yields a
complete site. The wheel's URL carries a hash of its bytes, so a new release
is never masked by a cached old one; the runtime's URL carries its version.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hatchling.builders.wheel import WheelBuilder

__all__ = [
    "RUNTIME_FILES",
    "Engine",
    "EngineError",
    "build_wheel",
    "copy_runtime",
    "mark_names_utf8",
    "pyodide_version",
]

RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""What a page needs of the npm package to boot Pyodide with no extra package."""


class EngineError(RuntimeError):
    """The engine's files cannot be produced (no ``npm ci`` yet, for instance)."""


@dataclass(frozen=True)
class Engine:
    """Where the engine's files go in the site, relative to its root."""

    wheel_bytes: bytes
    wheel_path: str
    runtime_dir: str
    """Folder of the self-hosted runtime, relative to the site root."""
    pyodide_url: str
    """``pyodide.mjs`` to import: relative (self-hosted) or absolute (a CDN copy)."""


def pyodide_version(package_dir: Path) -> str:
    """Return the version of the npm ``pyodide`` package in ``package_dir``.

    Raises:
        EngineError: If the package is not installed.
    """
    manifest = package_dir / "package.json"
    if not manifest.is_file():
        raise EngineError(f"{package_dir} not found: run `npm ci` first")
    version = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    return str(version)


def build_wheel(project_root: Path) -> tuple[str, bytes]:
    """Build the core's pure-Python wheel in memory; return its file name and bytes.

    hatchling builds reproducibly (fixed timestamps), so the same sources give
    the same bytes and the same hashed URL.
    """
    with tempfile.TemporaryDirectory() as folder:
        builder = WheelBuilder(str(project_root))
        (path,) = builder.build(directory=folder, versions=["standard"])
        return Path(path).name, mark_names_utf8(Path(path).read_bytes())


_LOCAL = b"PK\x03\x04"
_CENTRAL = b"PK\x01\x02"
_END = b"PK\x05\x06"
_UTF8_NAMES = 0x0800
"""General-purpose bit 11 of a zip entry: its name is UTF-8 (APPNOTE 4.4.4)."""


def mark_names_utf8(archive: bytes) -> bytes:
    """Return the zip ``archive`` with every entry's name flagged as UTF-8.

    Python's zipfile reads a name without that flag as cp437, a codec Pyodide
    then imports (compiled from source) just to unpack the wheel: measured
    under Node, the unpack took 28 to 38 ms with it and takes 13 to 20 ms
    without. The names are ASCII, identical in both encodings, and zipfile
    only sets the flag itself for names that are not. Only the two
    flag fields of each entry change; no offset, size or checksum does.

    Raises:
        EngineError: If ``archive`` is not a plain (non-zip64) zip file.
    """
    data = bytearray(archive)
    end = data.rfind(_END)
    if end < 0:
        raise EngineError("not a zip archive: no end of central directory")
    try:
        _flag_entries(data, end)
    except struct.error as error:  # an offset or a record past the end of the bytes
        raise EngineError(f"not a plain zip archive: {error}") from error
    return bytes(data)


def _flag_entries(data: bytearray, end: int) -> None:
    count, _size, offset = struct.unpack_from("<HII", data, end + 10)
    position = offset
    for _ in range(count):
        if data[position : position + 4] != _CENTRAL:
            raise EngineError(f"no central directory entry at byte {position}")
        (flags,) = struct.unpack_from("<H", data, position + 8)
        struct.pack_into("<H", data, position + 8, flags | _UTF8_NAMES)
        name, extra, comment = struct.unpack_from("<HHH", data, position + 28)
        (local,) = struct.unpack_from("<I", data, position + 42)
        if data[local : local + 4] != _LOCAL:
            raise EngineError(f"no local file header at byte {local}")
        (flags,) = struct.unpack_from("<H", data, local + 6)
        struct.pack_into("<H", data, local + 6, flags | _UTF8_NAMES)
        position += 46 + name + extra + comment


def plan(project_root: Path, package_dir: Path, cdn_base: str | None) -> Engine:
    """Build the wheel and decide every URL of the engine."""
    version = pyodide_version(package_dir)
    name, data = build_wheel(project_root)
    digest = hashlib.sha256(data).hexdigest()[:16]
    runtime_dir = f"assets/pyodide/{version}"
    base = cdn_base.format(version=version).rstrip("/") if cdn_base else None
    return Engine(
        wheel_bytes=data,
        wheel_path=f"assets/engine/{digest}/{name}",
        runtime_dir=runtime_dir,
        pyodide_url=f"{base}/pyodide.mjs" if base else f"{runtime_dir}/pyodide.mjs",
    )


def write(engine: Engine, package_dir: Path, site_dir: Path, self_hosted: bool) -> None:
    """Write the wheel, and the runtime files unless a CDN serves them, into the site."""
    wheel = site_dir / engine.wheel_path
    wheel.parent.mkdir(parents=True, exist_ok=True)
    wheel.write_bytes(engine.wheel_bytes)
    if self_hosted:
        copy_runtime(package_dir, site_dir / engine.runtime_dir)


def copy_runtime(package_dir: Path, target: Path) -> None:
    """Copy the runtime files a page needs, and nothing else, into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        source = package_dir / name
        if not source.is_file():
            raise EngineError(f"{source} missing: run `npm ci`")
        destination = target / name
        # A rebuild (mkdocs serve) must not copy 13 MB again for nothing.
        if not destination.exists() or destination.stat().st_size != source.stat().st_size:
            shutil.copyfile(source, destination)
