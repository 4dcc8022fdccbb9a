"""The core's wheel as the site serves it: built by hatchling, repacked, one gzip stream.

hatchling builds the same ``py3-none-any`` wheel that pip installs; Pyodide
unpacks it as it is (``pyodide.unpackArchive(bytes, "wheel")``). The site
repacks it for the page, and it stays a wheel that pip installs:

- without the long description (:func:`without_description`), which only pip shows;
- with its files stored, uncompressed (:func:`stored`), since the whole
  archive travels as one gzip stream (:mod:`calcsite.gzipped`; zlib's,
  :data:`COMPRESSOR`);
- with every entry's name flagged as UTF-8 (:func:`mark_names_utf8`), so that
  unpacking it imports no codec.
"""

from __future__ import annotations

import base64
import hashlib
import io
import struct
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path

from hatchling.builders.wheel import WheelBuilder

from . import gzipped

__all__ = [
    "COMPRESSOR",
    "WheelError",
    "build_wheel",
    "mark_names_utf8",
    "served_wheel",
    "stored",
    "without_description",
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
    """The core's wheel as the site serves it: no long description, its files stored, gzipped.

    Built afresh each time: hatchling and zlib (:data:`COMPRESSOR`) take a
    fraction of a second on it, and the hook builds it again only when the
    core changes.

    Args:
        project_root: The project, whose ``pyproject.toml`` hatchling reads.

    Returns:
        Its file name (the wheel's, with :data:`gzipped.SUFFIX`) and its bytes.

    Raises:
        WheelError: If hatchling's wheel is not a plain zip with METADATA and RECORD.
    """
    name, wheel = build_wheel(project_root)
    served = mark_names_utf8(stored(wheel, without_description(wheel)))
    return name + gzipped.SUFFIX, COMPRESSOR.compress(served)


def without_description(wheel: bytes) -> dict[str, bytes]:
    """The ``wheel``'s METADATA and RECORD, by name, less its long description.

    The long description is the README that METADATA ends with.

    pip shows it; the page's Python never reads it, and it was an eighth of
    the wheel that every reader downloads (4.7 kB of 38 kB, gzip). METADATA
    keeps its other headers (name, version, dependencies), and RECORD the new file's
    hash and size, so that the wheel stays one that pip installs.

    Raises:
        WheelError: If ``wheel`` has no METADATA or no RECORD in its ``.dist-info``.
    """
    source = zipfile.ZipFile(io.BytesIO(wheel))
    names = source.namelist()
    described = next((name for name in names if name.endswith(".dist-info/METADATA")), None)
    record = next((name for name in names if name.endswith(".dist-info/RECORD")), None)
    if described is None or record is None:
        raise WheelError("not a wheel: no .dist-info/METADATA and RECORD")
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


def stored(archive: bytes, replaced: Mapping[str, bytes] | None = None) -> bytes:
    """The zip ``archive`` with every file stored uncompressed.

    Names, order, dates and permissions are kept; the files named in
    ``replaced`` get its bytes instead of theirs. Python's zipfile writes each
    entry's flags afresh: :func:`mark_names_utf8` sets the one the site needs
    afterwards.

    Raises:
        zipfile.BadZipFile: If ``archive`` is not a zip file.
    """
    replaced = replaced or {}
    source = zipfile.ZipFile(io.BytesIO(archive))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as target:
        for entry in source.infolist():
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
