"""The files the live calculators need: the core's wheel, a standard library, and Pyodide.

Everything is produced by the site build itself, so ``mkdocs build`` alone
yields a complete site, from the pinned npm copy of Pyodide and nothing
downloaded. The page's worker boots Pyodide's runtime (``pyodide.mjs``, its
JavaScript and its WebAssembly: the npm package's, self-hosted or from a CDN)
with the site's own files instead of two of the package's, which sit next to
the core's wheel in one folder whose name is a hash of the three (the page's
head names each of them, ``calc:wheel``, ``calc:stdlib`` and ``calc:lock``, and
the worker passes them to loadPyodide's ``stdLibURL`` and ``lockFileURL``):

- ``python_stdlib.zip.gz``: the standard library files the engine imports
  (listed in :mod:`calcsite.stdlib_files`, recorded by running the core's cases
  in Pyodide), compiled by Pyodide's Python (:mod:`calcsite.slim`), so that
  Python has no source to compile as it starts;
- ``pyodide-lock.json``: a package index with no package, since the page installs
  none: the npm package's ``info`` (which Pyodide checks) and nothing else.

The wheel and the standard library travel as one gzip stream each, which the
worker inflates (:mod:`calcsite.gzipped`, which gives their sizes).
The runtime's URL carries its version; the engine folder's a hash of its files,
so a new release is never masked by a cached old one. The self-hosted runtime
folder is a copy of the npm package's runtime, whole, as a CDN serves it: its
standard library and package index are never fetched by a page (the
benchmark's floor, bare Pyodide, boots from them).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import json
import os
import shutil
import struct
import subprocess
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from hatchling.builders.wheel import WheelBuilder

from . import gzipped, slim, stdlib_files

__all__ = [
    "HEAD_URLS",
    "LOCK",
    "PAGE_RUNTIME",
    "RUNTIME_FILES",
    "SITE_STDLIB",
    "STDLIB",
    "Engine",
    "EngineError",
    "build_wheel",
    "copy_runtime",
    "mark_names_utf8",
    "minimal_lock",
    "pyodide_version",
    "served_wheel",
    "stdlib_archive",
    "unlisted_imports",
    "version",
    "versioned",
    "without_description",
]

STDLIB = "python_stdlib.zip"
"""The npm package's standard library, which the site's is made from."""
SITE_STDLIB = STDLIB + gzipped.SUFFIX
"""The site's standard library: the files the engine imports, compiled, in one gzip stream."""
LOCK = "pyodide-lock.json"
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", STDLIB, LOCK)
"""The npm package's runtime, copied as a CDN serves it (the benchmark's floor boots it whole)."""
HEAD_URLS = ("pyodide", "wheel", "stdlib", "lock")
"""The engine's files a page names in its head (``<meta name="calc:wheel">``...) for its worker."""
PAGE_RUNTIME = RUNTIME_FILES[:3]
"""What a page fetches of it: its standard library and package index are the site's own."""
CACHE = Path("node_modules") / ".cache" / "calcsite"
"""Where built archives are kept, relative to the project: building one takes seconds."""
NODE_TIMEOUT = 300
"""Seconds for Node to boot Pyodide and slim its standard library (a few on an idle machine)."""


class EngineError(RuntimeError):
    """The engine's files cannot be produced (no ``npm ci`` yet, for instance)."""


@dataclass(frozen=True)
class Engine:
    """The engine's files and where they go in the site, relative to its root."""

    files: dict[str, bytes]
    """The site's own engine files by name: the wheel, ``SITE_STDLIB`` and ``LOCK``."""
    engine_dir: str
    """Their folder, named by a hash of them all."""
    wheel_path: str
    runtime_dir: str
    """Folder of the self-hosted runtime, relative to the site root."""
    pyodide_url: str
    """``pyodide.mjs`` to import: relative (self-hosted) or absolute (a CDN copy)."""

    @property
    def head_urls(self) -> dict[str, str]:
        """Each file of :data:`HEAD_URLS` by name, relative to the site root or absolute."""
        urls = {
            "pyodide": self.pyodide_url,
            "wheel": self.wheel_path,
            "stdlib": f"{self.engine_dir}/{SITE_STDLIB}",
            "lock": f"{self.engine_dir}/{LOCK}",
        }
        return {name: urls[name] for name in HEAD_URLS}

    @property
    def fetched(self) -> tuple[str, ...]:
        """Every file a page's engine fetches: the runtime's, then the site's own.

        Relative to the site root, or absolute (a CDN copy). The worker, whose
        URL is the template's, is not among them.
        """
        runtime = self.pyodide_url.rsplit("/", 1)[0]
        return (
            *(f"{runtime}/{name}" for name in PAGE_RUNTIME),
            *(f"{self.engine_dir}/{name}" for name in self.files),
        )


def version(data: bytes) -> str:
    """What names a file's content in its URL: the first 12 hex digits of its bytes' SHA-256."""
    return hashlib.sha256(data).hexdigest()[:12]


def versioned(path: str, root: Path) -> str:
    """``path`` (relative to ``root``) with a query naming its content: ``?v=`` and :func:`version`.

    The site's own scripts and stylesheet keep their file names, while GitHub
    Pages lets a browser reuse what it fetched for ten minutes: a page built
    after a change would otherwise meet the previous worker, which may not
    read the engine files it names, or the previous ``theme-start.js`` beside
    a bundle that calls what only the new one defines. ``root`` is the built
    site, once every step of the build has written the file: the version is
    of the bytes a reader gets (:mod:`calcsite.versions`).

    Raises:
        EngineError: If the file is not in ``root``.
    """
    source = root / path
    if not source.is_file():
        raise EngineError(f"{source} not found")
    return f"{path}?v={version(source.read_bytes())}"


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


def minimal_lock(package_dir: Path) -> bytes:
    """A package index with no package: the npm package's lock file less its packages.

    Pyodide reads the lock file as it boots and refuses one whose ``info``
    (its ABI version) is not its own; the page installs no package.
    """
    source = package_dir / LOCK
    if not source.is_file():
        raise EngineError(f"{source} missing: run `npm ci`")
    info = json.loads(source.read_text(encoding="utf-8"))["info"]
    return json.dumps({"info": info, "packages": {}}, sort_keys=True).encode("utf-8")


def unlisted_imports(
    core: Path,
    entry: str = "web",
    files: tuple[str, ...] = stdlib_files.FILES,
    builtin: tuple[str, ...] = stdlib_files.BUILTIN,
) -> list[str]:
    """Top-level modules the page's part of the core imports that Pyodide would not find.

    The page imports ``calculator.web`` (``entry``) and, through it, the core's
    modules it names; a module they import must be in the standard library
    list (:mod:`calcsite.stdlib_files`, recorded by running the core in
    Pyodide) or built into Pyodide. This catches, at build time, a new import
    that the recording does not know of yet; what those modules import in
    turn, only the recording finds.
    """
    listed = {name.removesuffix(".py").removesuffix("/__init__").split("/")[0] for name in files}
    found: set[str] = set()
    todo, seen = [core.name, f"{core.name}.{entry}"], set()
    while todo:
        dotted = todo.pop()
        if dotted in seen:
            continue
        seen.add(dotted)
        parts = dotted.split(".")
        todo += [".".join(parts[:depth]) for depth in range(1, len(parts))]  # its packages
        base = core.parent.joinpath(*parts)
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if not path.is_file():  # a name imported from a module, not a module
            continue
        package = dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                here = package.split(".")
                anchor = here[: len(here) - node.level + 1] if node.level else []
                module = ".".join([*anchor, node.module] if node.module else anchor)
                modules = [module]
                if module.split(".")[0] == core.name:
                    # `from package import name` may name a module of the package.
                    modules += [f"{module}.{alias.name}" for alias in node.names]
            for module in modules:
                if module.split(".")[0] == core.name:
                    todo.append(module)
                else:
                    found.add(module.split(".")[0])
    return sorted(found - listed - set(builtin))


_SLIM = """
import {readFileSync, writeFileSync} from "node:fs";
import {pathToFileURL} from "node:url";
const [packageDir, output] = process.argv.slice(1);
const {files, source} = JSON.parse(readFileSync(0, "utf-8"));
const {loadPyodide} = await import(pathToFileURL(`${packageDir}/pyodide.mjs`).href);
const say = (line) => process.stderr.write(`${line}\\n`);
const pyodide = await loadPyodide({
  indexURL: `${packageDir}/`,
  stdout: say,
  stderr: say,
  // The same bytes from one build to the next (marshal writes sets in hash order).
  env: {PYTHONHASHSEED: "0"},
});
pyodide.FS.writeFile("/tmp/calcsite_slim.py", source);
pyodide.globals.set("files", pyodide.toPy(files));
pyodide.runPython(`
import sys
sys.path.insert(0, "/tmp")
import calcsite_slim
archive = next(entry for entry in sys.path if entry.endswith(".zip"))
with open(archive, "rb") as full, open("/tmp/slim.zip", "wb") as out:
    out.write(calcsite_slim.slim(full.read(), list(files), archive))
`);
writeFileSync(output, pyodide.FS.readFile("/tmp/slim.zip"));
"""
"""Boots the npm package's Pyodide in Node and runs :func:`calcsite.slim.slim` in it."""


def _gzipped(data: bytes, folder: Path, prefix: str) -> bytes:
    """``data`` as one gzip stream (:func:`gzipped.gzipped`), kept in ``folder``.

    Kept under a hash of the bytes compressed, the packing code and Zopfli's
    version: Zopfli takes seconds on the standard library, half a second on
    the wheel, and a build needs both.
    """
    key = hashlib.sha256(data)
    for part in (Path(gzipped.__file__).read_text(encoding="utf-8"), metadata.version("zopfli")):
        key.update(part.encode("utf-8") + b"\0")
    name = f"{prefix}-{key.hexdigest()[:16]}{gzipped.SUFFIX}"
    return _cached(folder, name, lambda: gzipped.gzipped(data))


def _cached(folder: Path, name: str, make: Callable[[], bytes]) -> bytes:
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


def without_description(wheel: bytes) -> dict[str, bytes]:
    """The ``wheel``'s METADATA and RECORD, by name, less its long description.

    The long description is the README that METADATA ends with.

    pip shows it; the page's Python never reads it, and it was an eighth of
    the wheel that every reader downloads (4.7 kB of 38 kB, gzip). METADATA
    keeps its other headers (name, version, dependencies), and RECORD the new file's
    hash and size, so that the wheel stays one that pip installs.

    Raises:
        EngineError: If ``wheel`` has no METADATA or no RECORD in its ``.dist-info``.
    """
    source = zipfile.ZipFile(io.BytesIO(wheel))
    names = source.namelist()
    described = next((name for name in names if name.endswith(".dist-info/METADATA")), None)
    record = next((name for name in names if name.endswith(".dist-info/RECORD")), None)
    if described is None or record is None:
        raise EngineError("not a wheel: no .dist-info/METADATA and RECORD")
    # The headers end at the first empty line (the core metadata's email format).
    head = source.read(described).replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    kept = [line for line in head.split(b"\n") if not line.startswith(b"Description-Content-Type:")]
    headers = b"\n".join(kept) + b"\n"
    digest = base64.urlsafe_b64encode(hashlib.sha256(headers).digest()).rstrip(b"=")
    lines = [
        f"{described},sha256={digest.decode()},{len(headers)}"
        if line.split(",")[0] == described
        else line
        for line in source.read(record).decode("utf-8").splitlines()
    ]
    return {described: headers, record: ("\n".join(lines) + "\n").encode("utf-8")}


def served_wheel(project_root: Path, cache: Path | None = None) -> tuple[str, bytes]:
    """The core's wheel as the site serves it: no long description, its files stored, gzipped.

    Returns:
        Its file name (the wheel's, with :data:`gzipped.SUFFIX`) and its bytes.

    Raises:
        EngineError: If hatchling's wheel is not a plain zip with METADATA and RECORD.
    """
    name, wheel = build_wheel(project_root)
    served = mark_names_utf8(gzipped.stored(wheel, without_description(wheel)))
    return name + gzipped.SUFFIX, _gzipped(served, cache or project_root / CACHE, "wheel")


def stdlib_archive(package_dir: Path, cache: Path | None = None) -> bytes:
    """The standard library the site serves: :data:`stdlib_files.FILES`, compiled, gzipped.

    Built by Pyodide itself, under Node (its Python reads its own standard
    library), from the npm package alone, then made one gzip stream
    (:mod:`calcsite.gzipped`); kept in ``cache`` under a hash of everything it
    is made from, so that only the first build pays for it.

    Raises:
        EngineError: If the list was recorded for another Pyodide, or Node fails.
    """
    pyodide = pyodide_version(package_dir)
    if pyodide != stdlib_files.PYODIDE:
        raise EngineError(
            f"calcsite/stdlib_files.py was recorded with Pyodide {stdlib_files.PYODIDE}, not"
            f" {pyodide}: run `PYTHONPATH=overrides/hooks python -m tests.test_pyodide --record`"
        )
    source = package_dir / STDLIB
    if not source.is_file():
        raise EngineError(f"{source} missing: run `npm ci`")
    program = Path(slim.__file__).read_text(encoding="utf-8")
    key = hashlib.sha256()
    for part in (pyodide, program, _SLIM, "\n".join(stdlib_files.FILES)):
        key.update(part.encode("utf-8") + b"\0")
    key.update(hashlib.sha256(source.read_bytes()).digest())
    folder = cache or package_dir.parents[1] / CACHE
    archive = _cached(
        folder,
        f"python_stdlib-{key.hexdigest()[:16]}.zip",
        lambda: _slim_in_node(package_dir, program),
    )
    return _gzipped(archive, folder, "python_stdlib")


def _slim_in_node(package_dir: Path, program: str) -> bytes:
    node = shutil.which("node")
    if node is None:
        raise EngineError("node is not on PATH: the standard library is built by Pyodide in Node")
    request = json.dumps({"files": list(stdlib_files.FILES), "source": program})
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder) / STDLIB
        command = [node, "--input-type=module", "-e", _SLIM, str(package_dir), str(output)]
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
            raise EngineError(
                f"slimming the standard library took over {NODE_TIMEOUT} s"
            ) from error
        if done.returncode != 0 or not output.is_file():
            tail = "\n".join(done.stderr.strip().splitlines()[-5:])
            raise EngineError(f"slimming the standard library failed:\n{tail}")
        return output.read_bytes()


def plan(project_root: Path, package_dir: Path, cdn_base: str | None) -> Engine:
    """Build the wheel and the standard library, and decide every URL of the engine.

    Raises:
        EngineError: If a file cannot be built, or the core imports a module the
            standard library list lacks.
    """
    version = pyodide_version(package_dir)
    if missing := unlisted_imports(project_root / "calculator"):
        raise EngineError(
            f"the core imports {', '.join(missing)}, which the standard library list lacks:"
            " run `PYTHONPATH=overrides/hooks python -m tests.test_pyodide --record`"
        )
    name, wheel = served_wheel(project_root)
    files = {
        name: wheel,
        SITE_STDLIB: stdlib_archive(package_dir),
        LOCK: minimal_lock(package_dir),
    }
    digest = hashlib.sha256()
    for file, data in files.items():
        digest.update(f"{file}\0{len(data)}\0".encode() + data)
    engine_dir = f"assets/engine/{digest.hexdigest()[:16]}"
    runtime_dir = f"assets/pyodide/{version}"
    base = cdn_base.format(version=version).rstrip("/") if cdn_base else None
    return Engine(
        files=files,
        engine_dir=engine_dir,
        wheel_path=f"{engine_dir}/{name}",
        runtime_dir=runtime_dir,
        pyodide_url=f"{base}/pyodide.mjs" if base else f"{runtime_dir}/pyodide.mjs",
    )


def write(engine: Engine, package_dir: Path, site_dir: Path, self_hosted: bool) -> None:
    """Write the site's engine files, and the runtime unless a CDN serves it, into the site."""
    folder = site_dir / engine.engine_dir
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in engine.files.items():
        (folder / name).write_bytes(data)
    if self_hosted:
        copy_runtime(package_dir, site_dir / engine.runtime_dir)


def copy_runtime(package_dir: Path, target: Path) -> None:
    """Copy the npm package's runtime files, and nothing else, into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_FILES:
        source = package_dir / name
        if not source.is_file():
            raise EngineError(f"{source} missing: run `npm ci`")
        destination = target / name
        # A rebuild (mkdocs serve) must not copy 13 MB again for nothing.
        if not destination.exists() or destination.stat().st_size != source.stat().st_size:
            shutil.copyfile(source, destination)
