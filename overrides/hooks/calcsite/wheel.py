"""The core's wheel as the site serves it: built by hatchling, repacked, one gzip stream.

hatchling builds the same ``py3-none-any`` wheel that pip installs (complete:
the command line's modules and every calculator written); Pyodide unpacks it
as it is (``pyodide.unpackArchive(bytes, "wheel")``). The site repacks it for
the page, and it stays a wheel that pip installs:

- with the core's modules that the page's boundary reaches
  (:func:`calcsite.imports.reached`) and its ``.dist-info``, nothing else
  (:func:`page_part`): a module no import of the page's reaches, such as a
  calculator written but not registered yet, or the command line, is not
  downloaded by every reader, and ships once the registry imports it;
- without the long description (:func:`without_description`), which only pip shows;
- with every docstring emptied (:func:`without_docstrings`), which the page's
  Python never reads, every line kept where it was, so that a traceback still
  points at the line of the source;
- with its files stored, uncompressed (:func:`stored`), since the whole
  archive travels as one gzip stream (:mod:`calcsite.gzipped`; zlib's,
  :data:`COMPRESSOR`);
- with every entry's name flagged as UTF-8 (:func:`mark_names_utf8`), so that
  unpacking it imports no codec.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import struct
import tempfile
import zipfile
from collections.abc import Collection, Mapping
from pathlib import Path

from hatchling.builders.wheel import WheelBuilder

from . import gzipped
from .imports import CORE, reached

__all__ = [
    "COMPRESSOR",
    "WheelError",
    "build_wheel",
    "mark_names_utf8",
    "page_part",
    "recorded",
    "served_wheel",
    "stored",
    "without_description",
    "without_docstrings",
]

COMPRESSOR = gzipped.ZLIB
"""What gzips the served wheel: zlib's best, in a hundredth of a second, as every change
to the core makes it again (Zopfli's stream, 4 % smaller, takes 0.7 s)."""


class WheelError(ValueError):
    """The wheel cannot be repacked: not a plain zip, or no wheel's METADATA and RECORD."""


def build_wheel(project_root: Path) -> tuple[str, bytes]:
    """Build the core's pure-Python wheel in memory; return its file name and bytes.

    hatchling builds reproducibly (fixed timestamps), so the same sources give
    the same bytes and the same hashed URL.

    Raises:
        WheelError: If hatchling's wheel is not a plain zip.
    """
    with tempfile.TemporaryDirectory() as folder:
        builder = WheelBuilder(str(project_root))
        (path,) = builder.build(directory=folder, versions=["standard"])
        return Path(path).name, mark_names_utf8(Path(path).read_bytes())


def served_wheel(project_root: Path) -> tuple[str, bytes]:
    """The core's wheel as the site serves it: the page's part, no README or docstrings, gzipped.

    The page's part (:func:`page_part`): the core's modules that
    ``calculator.web`` reaches, found by reading the sources hatchling packs
    (:func:`calcsite.imports.reached`), and the ``.dist-info``. Built afresh
    each time: hatchling, the scan and zlib (:data:`COMPRESSOR`) take a
    fraction of a second on it, and the hook builds it again only when the
    core changes.

    Args:
        project_root: The project, whose ``pyproject.toml`` hatchling reads and
            whose :data:`calcsite.imports.CORE` folder is the core.

    Returns:
        Its file name (the wheel's, with :data:`gzipped.SUFFIX`) and its bytes.

    Raises:
        WheelError: If hatchling's wheel is not a plain zip with METADATA and
            RECORD, or lacks a module the page reaches.
    """
    name, wheel = build_wheel(project_root)
    kept = page_part(wheel, reached(project_root / CORE).files)
    source = zipfile.ZipFile(io.BytesIO(wheel))
    replaced = without_description(wheel) | {
        module: without_docstrings(source.read(module), module)
        for module in kept
        if module.endswith(".py")
    }
    served = mark_names_utf8(stored(wheel, recorded(wheel, replaced, kept), kept))
    return name + gzipped.SUFFIX, COMPRESSOR.compress(served)


def page_part(wheel: bytes, modules: Collection[str]) -> list[str]:
    """The names of the ``wheel``'s files the page needs: the ``modules`` and the ``.dist-info``.

    In the wheel's order. The ``.dist-info`` is the package's metadata, what
    makes the archive a wheel that pip installs; any other file of the
    package that is not a module reached (``py.typed``, read by type checkers
    only) the page's Python never opens.

    Args:
        wheel: The wheel, as hatchling builds it.
        modules: The module files to keep, as the wheel names them
            (``calculator/web.py``).

    Raises:
        WheelError: If a module is not in the wheel (hatchling's build leaves
            it out, say), since the page would fail to import it.
    """
    names = zipfile.ZipFile(io.BytesIO(wheel)).namelist()
    if missing := sorted(set(modules) - set(names)):
        raise WheelError(f"the page imports {', '.join(missing)}, which the wheel lacks")
    wanted = set(modules)
    return [name for name in names if name in wanted or _is_metadata(name)]


def _is_metadata(name: str) -> bool:
    # A wheel's metadata is its one top-level folder named `<name>-<version>.dist-info`.
    return name.split("/", 1)[0].endswith(".dist-info")


def without_description(wheel: bytes) -> dict[str, bytes]:
    """The ``wheel``'s METADATA, by name, less its long description.

    The long description is the README that METADATA ends with.

    pip shows it; the page's Python never reads it, and it was an eighth of
    the wheel that every reader downloads (4.7 kB of 38 kB, gzip). METADATA
    keeps its other headers (name, version, dependencies); :func:`recorded`
    gives RECORD the new file's hash and size, so that the wheel stays one
    that pip installs.

    Args:
        wheel: The wheel, as hatchling builds it.

    Raises:
        WheelError: If ``wheel`` has no METADATA in its ``.dist-info``.
    """
    source = zipfile.ZipFile(io.BytesIO(wheel))
    described = _dist_info(source, "METADATA")
    # The headers end at the first empty line (the core metadata's email format).
    head = source.read(described).replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]
    lines = [
        line for line in head.split(b"\n") if not line.startswith(b"Description-Content-Type:")
    ]
    return {described: b"\n".join(lines) + b"\n"}


def _dist_info(wheel: zipfile.ZipFile, file: str) -> str:
    """The name of the ``wheel``'s ``.dist-info/{file}``.

    Raises:
        WheelError: If the wheel has none.
    """
    name = next((n for n in wheel.namelist() if n.endswith(f".dist-info/{file}")), None)
    if name is None:
        raise WheelError(f"not a wheel: no .dist-info/{file}")
    return name


def without_docstrings(source: bytes, name: str = "<module>") -> bytes:
    """A module's ``source`` with each docstring emptied, every line where it was.

    A docstring is the string that opens a module, a class or a function, or
    that follows an assignment (an attribute's, as this project documents its
    constants). Each becomes ``("")``, its lines kept as blank lines between
    the brackets, so every other statement stays on its line and a traceback
    names the line of the source. Comments stay.

    The page's Python reads no docstring (no ``__doc__``, no ``help``), and
    they were a third of the core's served wheel (24 kB of 69 kB, gzip, with
    the training planner). pip installs hatchling's wheel, docstrings and all,
    for the command line.

    Args:
        source: A module's source, UTF-8.
        name: Its name in the wheel, for the error.

    Raises:
        WheelError: If the source does not parse, or the result's syntax tree is
            not the source's with empty docstrings, each statement on its line.
    """
    try:
        tree = ast.parse(source, name)
    except SyntaxError as error:
        raise WheelError(f"{name}: {error}") from error
    lines = source.splitlines(keepends=True)
    # From the last to the first, so that a replaced span moves no other.
    for string in sorted(_docstrings(tree), key=lambda s: (s.lineno, s.col_offset), reverse=True):
        # ast.parse gives every node its end; typeshed allows None for nodes built by hand.
        first, last = string.lineno - 1, (string.end_lineno or string.lineno) - 1
        end = string.end_col_offset or 0
        blank = b"\n" * (last - first)
        lines[first : last + 1] = [
            lines[first][: string.col_offset] + b'(""' + blank + b")" + lines[last][end:]
        ]
    stripped = b"".join(lines)
    if _shape(ast.parse(stripped, name)) != _shape(_emptied(tree)):
        raise WheelError(f"{name}: emptying its docstrings changed its code")
    return stripped


def _docstrings(tree: ast.Module) -> list[ast.Constant]:
    """The string literals of ``tree`` that are docstrings (:func:`without_docstrings`)."""
    found = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        opens = isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        for index, statement in enumerate(body):
            after = body[index - 1] if index else None
            documents = opens if after is None else isinstance(after, ast.Assign | ast.AnnAssign)
            if documents and (string := _string(statement)) is not None:
                found.append(string)
    return found


def _string(statement: ast.stmt) -> ast.Constant | None:
    """The string a statement is, if it is one alone: ``"text"`` on its own."""
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return statement.value if isinstance(statement.value.value, str) else None
    return None


def _emptied(tree: ast.Module) -> ast.Module:
    """``tree`` with each docstring's text replaced by the empty string (in place)."""
    for string in _docstrings(tree):
        string.value = ""
    return tree


def _shape(tree: ast.Module) -> tuple[str, list[int]]:
    """The tree's nodes, and the line each statement starts on: what emptying must keep."""
    return ast.dump(tree), [node.lineno for node in ast.walk(tree) if isinstance(node, ast.stmt)]


def recorded(
    wheel: bytes, replaced: Mapping[str, bytes], kept: Collection[str] | None = None
) -> dict[str, bytes]:
    """The ``replaced`` files, by name, and the ``wheel``'s RECORD to go with them.

    RECORD gives each replaced file its new hash and size, as pip checks them,
    and lists the files of the repacked wheel alone, as pip expects of a wheel:
    every file listed and every row a file.

    Args:
        wheel: The wheel, as hatchling builds it.
        replaced: New bytes of some of its files, by name.
        kept: The names of the files the repacked wheel keeps (:func:`page_part`),
            or ``None`` for all.

    Raises:
        WheelError: If ``wheel`` has no RECORD in its ``.dist-info``.
    """
    source = zipfile.ZipFile(io.BytesIO(wheel))
    record = _dist_info(source, "RECORD")
    wanted = None if kept is None else set(kept)
    rows = []
    for line in source.read(record).decode("utf-8").splitlines():
        name = line.split(",")[0]
        if wanted is not None and name not in wanted:
            continue
        if name in replaced:
            data = replaced[name]
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            rows.append(f"{name},sha256={digest.decode()},{len(data)}")
        else:
            rows.append(line)
    return {**replaced, record: ("\n".join(rows) + "\n").encode("utf-8")}


def stored(
    archive: bytes,
    replaced: Mapping[str, bytes] | None = None,
    kept: Collection[str] | None = None,
) -> bytes:
    """The zip ``archive`` with every file stored uncompressed, or those named in ``kept``.

    Names, order, dates and permissions are kept; the files named in
    ``replaced`` get its bytes instead of theirs. Python's zipfile writes each
    entry's flags afresh: :func:`mark_names_utf8` sets the one the site needs
    afterwards.

    Raises:
        zipfile.BadZipFile: If ``archive`` is not a zip file.
    """
    replaced = replaced or {}
    source = zipfile.ZipFile(io.BytesIO(archive))
    entries = source.infolist()
    if kept is not None:
        wanted = set(kept)
        entries = [entry for entry in entries if entry.filename in wanted]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as target:
        for entry in entries:
            copy = zipfile.ZipInfo(entry.filename, entry.date_time)
            copy.external_attr = entry.external_attr
            copy.create_system = entry.create_system
            copy.compress_type = zipfile.ZIP_STORED
            data = replaced.get(entry.filename)
            target.writestr(copy, source.read(entry) if data is None else data)
    return out.getvalue()


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
        WheelError: If ``archive`` is not a plain (non-zip64) zip file.
    """
    data = bytearray(archive)
    end = data.rfind(_END)
    if end < 0:
        raise WheelError("not a zip archive: no end of central directory")
    try:
        _flag_entries(data, end)
    except struct.error as error:  # an offset or a record past the end of the bytes
        raise WheelError(f"not a plain zip archive: {error}") from error
    return bytes(data)


def _flag_entries(data: bytearray, end: int) -> None:
    count, _size, offset = struct.unpack_from("<HII", data, end + 10)
    position = offset
    for _ in range(count):
        if data[position : position + 4] != _CENTRAL:
            raise WheelError(f"no central directory entry at byte {position}")
        (flags,) = struct.unpack_from("<H", data, position + 8)
        struct.pack_into("<H", data, position + 8, flags | _UTF8_NAMES)
        name, extra, comment = struct.unpack_from("<HHH", data, position + 28)
        (local,) = struct.unpack_from("<I", data, position + 42)
        if data[local : local + 4] != _LOCAL:
            raise WheelError(f"no local file header at byte {local}")
        (flags,) = struct.unpack_from("<H", data, local + 6)
        struct.pack_into("<H", data, local + 6, flags | _UTF8_NAMES)
        position += 46 + name + extra + comment
