"""The standard library the site serves: the files the engine imports, compiled, in one gzip stream.

Pyodide's own standard library (its npm package's ``python_stdlib.zip``) holds
559 modules as source. The site's holds the ones the page imports, listed in
:mod:`calcsite.stdlib_files` (recorded by running the core's cases in
Pyodide), compiled by Pyodide's Python (:mod:`calcsite.slim`, which
``.node/slim.mjs`` runs in Pyodide under Node), so that Python has no source
to compile as it starts; the archive travels as one gzip stream
(:mod:`calcsite.gzipped`, Zopfli's: :data:`COMPRESSOR`). It is built from the npm
package alone and kept in the build's cache (:mod:`calcsite.build_cache`): only
the first build pays for it.

The list is recorded, so it lags behind a new import in the core:
:func:`unlisted_imports` finds, at build time, a module the page's part of the
core imports that the list lacks.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import build_cache, gzipped, slim, stdlib_files
from .imports import ENTRY, reached
from .runtime import STDLIB, pyodide_version

__all__ = [
    "COMPRESSOR",
    "NODE_TIMEOUT",
    "PROGRAM",
    "RECORD",
    "StdlibError",
    "cache_name",
    "stdlib_archive",
    "unlisted_imports",
]

COMPRESSOR = gzipped.ZOPFLI
"""What gzips the archive: Zopfli, 3.4 % smaller than zlib's best, once per cached archive."""
PROGRAM = Path(__file__).parent / ".node" / "slim.mjs"
"""The Node program that boots Pyodide and runs :func:`calcsite.slim.slim` in it."""
NODE_TIMEOUT = 300
"""Seconds for Node to boot Pyodide and slim its standard library (a few on an idle machine)."""
RECORD = "PYTHONPATH=overrides/hooks python -m tests.test_pyodide --record"
"""What records :mod:`calcsite.stdlib_files` again."""


class StdlibError(RuntimeError):
    """The standard library cannot be built: a list recorded for another Pyodide, or Node fails."""


def stdlib_archive(package_dir: Path, cache: Path | None = None) -> bytes:
    """The standard library the site serves: :data:`stdlib_files.FILES`, compiled, gzipped.

    Built by Pyodide itself, under Node (its Python reads its own standard
    library), from the npm package alone, then made one gzip stream by
    :data:`COMPRESSOR`; kept in ``cache`` under :func:`cache_name`, so that
    only the first build pays for it (Zopfli's seconds included).

    Args:
        package_dir: The npm package, ``node_modules/pyodide``.
        cache: Where the archive is kept (:func:`calcsite.build_cache.location`
            of the package by default).

    Raises:
        StdlibError: If the list was recorded for another Pyodide, or Node fails.
        calcsite.runtime.PackageError: If the npm package is not installed.
    """
    return build_cache.kept(
        cache or build_cache.location(package_dir),
        cache_name(package_dir),
        lambda: COMPRESSOR.compress(_slim_in_node(package_dir)),
    )


def cache_name(package_dir: Path) -> str:
    """The name :func:`stdlib_archive` keeps its archive under: a hash of all it is made from.

    The Pyodide that compiles, the list, the two programs that compile, the
    npm package's standard library, and what gzips it: :data:`COMPRESSOR`,
    its setting and its version (:meth:`calcsite.gzipped.Compressor.key`),
    and the code that calls it.

    Raises:
        StdlibError: If the list was recorded for another Pyodide, or the
            package has no standard library.
        calcsite.runtime.PackageError: If the npm package is not installed.
    """
    pyodide = pyodide_version(package_dir)
    if pyodide != stdlib_files.PYODIDE:
        raise StdlibError(
            f"calcsite/stdlib_files.py was recorded with Pyodide {stdlib_files.PYODIDE}, not"
            f" {pyodide}: run `{RECORD}`"
        )
    source = package_dir / STDLIB
    if not source.is_file():
        raise StdlibError(f"{source} missing: run `npm ci`")
    key = hashlib.sha256()
    for part in (
        pyodide,
        "\n".join(stdlib_files.FILES),
        Path(slim.__file__).read_text(encoding="utf-8"),
        PROGRAM.read_text(encoding="utf-8"),
        Path(gzipped.__file__).read_text(encoding="utf-8"),
        COMPRESSOR.key(),
    ):
        key.update(part.encode("utf-8") + b"\0")
    key.update(hashlib.sha256(source.read_bytes()).digest())
    return f"python_stdlib-{key.hexdigest()[:16]}.zip{gzipped.SUFFIX}"


def _slim_in_node(package_dir: Path) -> bytes:
    program = Path(slim.__file__).read_text(encoding="utf-8")
    node = shutil.which("node")
    if node is None:
        raise StdlibError("node is not on PATH: the standard library is built by Pyodide in Node")
    request = json.dumps({"files": list(stdlib_files.FILES), "source": program})
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / STDLIB
        command = [node, str(PROGRAM), str(package_dir), str(output)]
        try:
            done = subprocess.run(
                command,
                input=request,
                capture_output=True,
                text=True,
                timeout=NODE_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired as error:
            raise StdlibError(
                f"slimming the standard library took over {NODE_TIMEOUT} s"
            ) from error
        if done.returncode != 0 or not output.is_file():
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            raise StdlibError(f"slimming the standard library failed:\n{tail}")
        return output.read_bytes()


def unlisted_imports(
    core: Path,
    entry: str = ENTRY,
    files: tuple[str, ...] = stdlib_files.FILES,
    builtin: tuple[str, ...] = stdlib_files.BUILTIN,
) -> list[str]:
    """Top-level modules the page's part of the core imports that Pyodide would not find.

    The page imports ``calculator.web`` (``entry``) and, through it, the core's
    modules it names (:func:`calcsite.imports.reached`, the scan that also
    decides what the served wheel holds); a module they import must be in the
    standard library list (:mod:`calcsite.stdlib_files`, recorded by running
    the core in Pyodide) or built into Pyodide. This catches, at build time, a
    new import that the recording does not know of yet; what those modules
    import in turn, only the recording finds.
    """
    listed = {name.removesuffix(".py").removesuffix("/__init__").split("/")[0] for name in files}
    return sorted(set(reached(core, entry).outside) - listed - set(builtin))
