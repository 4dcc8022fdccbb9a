"""Pyodide's npm package, as the site uses it: its version, its runtime and its package index.

The site boots the runtime of the pinned npm package (``package-lock.json``):
``pyodide.mjs``, its JavaScript and its WebAssembly, self-hosted by default,
from a CDN's copy of the same version when one is configured
(:func:`calcsite.engine.plan`). The self-hosted folder is a copy of the
package's runtime, whole, as a CDN serves it: its standard library and package
index are never fetched by a page, which gets the site's own instead, but the
benchmark's floor, bare Pyodide, boots from them. The package's standard
library is what the site's is made from (:mod:`calcsite.stdlib`); its package
index gives the site's the one field Pyodide checks (:func:`minimal_lock`).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

__all__ = [
    "LOCK",
    "RUNTIME_FILES",
    "STDLIB",
    "PackageError",
    "copy_runtime",
    "minimal_lock",
    "pyodide_version",
]

STDLIB = "python_stdlib.zip"
"""The npm package's standard library, which the site's is made from."""
LOCK = "pyodide-lock.json"
"""The package index, the npm package's and (emptied) the site's."""
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", STDLIB, LOCK)
"""The npm package's runtime, copied as a CDN serves it (the benchmark's floor boots it whole)."""


class PackageError(RuntimeError):
    """Pyodide's npm package is not installed, or lacks a file the site needs (no ``npm ci``)."""


def pyodide_version(package_dir: Path) -> str:
    """Return the version of the npm ``pyodide`` package in ``package_dir``.

    Raises:
        PackageError: If the package is not installed.
    """
    manifest = package_dir / "package.json"
    if not manifest.is_file():
        raise PackageError(f"{package_dir} not found: run `npm ci` first")
    version = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    return str(version)


def minimal_lock(package_dir: Path) -> bytes:
    """A package index with no package: the npm package's lock file less its packages.

    Pyodide reads the lock file as it boots and refuses one whose ``info``
    (its ABI version) is not its own; the page installs no package.

    Raises:
        PackageError: If the package has no lock file.
    """
    source = package_dir / LOCK
    if not source.is_file():
        raise PackageError(f"{source} missing: run `npm ci`")
    info = json.loads(source.read_text(encoding="utf-8"))["info"]
    return json.dumps({"info": info, "packages": {}}, sort_keys=True).encode("utf-8")


def copy_runtime(package_dir: Path, target: Path) -> None:
    """Copy the npm package's runtime files, and nothing else, into ``target``.

    Raises:
        PackageError: If one of :data:`RUNTIME_FILES` is missing from the package.
    """
    target.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        source = package_dir / name
        if not source.is_file():
            raise PackageError(f"{source} missing: run `npm ci`")
        destination = target / name
        # A rebuild (mkdocs serve) must not copy 13 MB again for nothing.
        if not destination.exists() or destination.stat().st_size != source.stat().st_size:
            shutil.copyfile(source, destination)
