"""The core's wheel as the site serves it: repacked from hatchling's, one gzip stream."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

import pytest
from calcsite import gzipped
from calcsite.wheel import (
    COMPRESSOR,
    WheelError,
    build_wheel,
    mark_names_utf8,
    served_wheel,
    stored,
    without_description,
)
from hatchling.builders.wheel import WheelBuilder

from .conftest import ROOT

READS_NAMES = (
    "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).namelist();"
    " print('encodings.cp437' in sys.modules)"
)


@pytest.fixture(scope="module")
def hatchling_wheel() -> bytes:
    """The wheel exactly as hatchling builds it."""
    with tempfile.TemporaryDirectory() as folder:
        (path,) = WheelBuilder(str(ROOT)).build(directory=folder, versions=["standard"])
        return Path(path).read_bytes()


@pytest.fixture(scope="module")
def served_file() -> tuple[str, bytes]:
    """The wheel's file as the site serves it: its name and its bytes, one gzip stream."""
    return served_wheel(ROOT)


@pytest.fixture(scope="module")
def unpacked(served_file: tuple[str, bytes]) -> bytes:
    """The wheel the worker unpacks: the served file, inflated."""
    return gzip.decompress(served_file[1])


def cp437_imported(archive: bytes, folder: Path) -> bool:
    """Whether reading the archive's names makes a fresh Python import the cp437 codec."""
    path = folder / "probe.whl"
    path.write_bytes(archive)
    done = subprocess.run(
        [sys.executable, "-c", READS_NAMES, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip() == "True"


def test_every_entry_of_the_served_wheel_has_a_utf8_name(unpacked: bytes) -> None:
    entries = zipfile.ZipFile(io.BytesIO(unpacked)).infolist()
    assert entries
    assert all(entry.flag_bits & 0x800 for entry in entries)


def test_the_served_wheel_holds_what_hatchling_built_stored(
    unpacked: bytes, hatchling_wheel: bytes
) -> None:
    served = zipfile.ZipFile(io.BytesIO(unpacked))
    built = zipfile.ZipFile(io.BytesIO(hatchling_wheel))
    assert served.testzip() is None
    assert served.namelist() == built.namelist()
    same = [name for name in built.namelist() if not name.endswith(("/METADATA", "/RECORD"))]
    assert len(same) == len(built.namelist()) - 2
    assert [served.read(name) for name in same] == [built.read(name) for name in same]
    assert [(entry.date_time, entry.external_attr) for entry in served.infolist()] == [
        (entry.date_time, entry.external_attr) for entry in built.infolist()
    ]
    assert {entry.compress_type for entry in served.infolist()} == {zipfile.ZIP_STORED}


def metadata_of(wheel: zipfile.ZipFile) -> bytes:
    return wheel.read(next(name for name in wheel.namelist() if name.endswith("/METADATA")))


def test_the_served_wheel_keeps_its_metadata_headers_but_not_the_readme(
    unpacked: bytes, hatchling_wheel: bytes
) -> None:
    served = metadata_of(zipfile.ZipFile(io.BytesIO(unpacked))).decode()
    built = metadata_of(zipfile.ZipFile(io.BytesIO(hatchling_wheel))).decode()
    headers = built.split("\n\n", 1)[0]
    assert "# Parallel-training calculators" in built
    assert "# Parallel-training calculators" not in served
    assert served == "".join(
        line + "\n"
        for line in headers.split("\n")
        if not line.startswith("Description-Content-Type:")
    )
    assert "Name: parallelism-calculators\n" in served


def test_every_file_of_the_served_wheel_matches_its_record(unpacked: bytes) -> None:
    """RECORD's hash and size of each file, as pip checks them: a wheel pip installs."""
    wheel = zipfile.ZipFile(io.BytesIO(unpacked))
    (record,) = (name for name in wheel.namelist() if name.endswith("/RECORD"))
    rows = [line.split(",") for line in wheel.read(record).decode().splitlines()]
    assert sorted(row[0] for row in rows) == sorted(wheel.namelist())
    for name, digest, size in rows:
        if name == record:
            assert digest == size == ""
            continue
        data = wheel.read(name)
        expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        assert digest == f"sha256={expected.decode()}", name
        assert int(size) == len(data), name


def test_a_zip_that_is_no_wheel_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("calculator/__init__.py", "")
    with pytest.raises(WheelError, match="not a wheel"):
        without_description(out.getvalue())


def test_the_served_wheel_is_one_gzip_stream_smaller_than_hatchlings(
    served_file: tuple[str, bytes], hatchling_wheel: bytes
) -> None:
    name, data = served_file
    assert name == build_wheel(ROOT)[0] + gzipped.SUFFIX
    assert name.endswith(".whl.gz")
    assert data[:4] == b"\x1f\x8b\x08\x00"  # gzip, deflate, no file name
    assert data[4:8] == bytes(4)  # no date
    assert len(data) < 0.9 * len(hatchling_wheel), (len(data), len(hatchling_wheel))


def test_the_served_wheel_is_zlibs_best(served_file: tuple[str, bytes]) -> None:
    """At zlib's level 9, not Zopfli's: each change to the core makes it again, uncached."""
    assert COMPRESSOR is gzipped.ZLIB
    data = served_file[1]
    assert data == zlib.compress(gzip.decompress(data), 9, wbits=16 + zlib.MAX_WBITS)


def test_unpacking_the_served_wheel_needs_no_cp437_codec(
    unpacked: bytes, hatchling_wheel: bytes, tmp_path: Path
) -> None:
    assert cp437_imported(hatchling_wheel, tmp_path)
    assert not cp437_imported(unpacked, tmp_path)


def test_the_same_sources_give_the_same_wheel(served_file: tuple[str, bytes]) -> None:
    """Built and packed again, byte for byte: the same sources, the same URL."""
    assert build_wheel(ROOT)[1] == build_wheel(ROOT)[1]
    assert served_wheel(ROOT) == served_file


@pytest.mark.parametrize(
    "archive",
    [
        b"",
        b"not a zip at all",
        b"PK\x05\x06" + bytes(10),  # an end record cut short
        b"PK\x05\x06" + bytes(6) + b"\x01\x00" + bytes(4) + b"\xff\x00\x00\x00",  # points nowhere
    ],
)
def test_what_is_not_a_plain_zip_is_refused(archive: bytes) -> None:
    with pytest.raises(WheelError):
        mark_names_utf8(archive)


# --------------------------------------------------------------- stored files


DATE = (2020, 2, 29, 12, 30, 58)


def deflated_zip() -> bytes:
    """A zip like hatchling's: deflated files, a folder, dates and attributes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("pkg/", DATE), b"")
        first = zipfile.ZipInfo("pkg/__init__.py", DATE)
        first.external_attr = 0o644 << 16
        archive.writestr(first, b"VALUE = 1\n" * 200, zipfile.ZIP_DEFLATED)
        second = zipfile.ZipInfo("pkg-0.1.dist-info/RECORD", (1980, 1, 1, 0, 0, 0))
        second.external_attr = 0o600 << 16
        archive.writestr(second, b"pkg/__init__.py,sha256=x,2000\n", zipfile.ZIP_DEFLATED)
    return out.getvalue()


def test_stored_keeps_every_file_name_order_date_and_attribute() -> None:
    original = zipfile.ZipFile(io.BytesIO(deflated_zip()))
    copy = zipfile.ZipFile(io.BytesIO(stored(deflated_zip())))
    assert copy.testzip() is None

    def kept(archive: zipfile.ZipFile) -> list[tuple[object, ...]]:
        return [(e.filename, e.date_time, e.external_attr) for e in archive.infolist()]

    assert kept(copy) == kept(original)
    assert [copy.read(name) for name in copy.namelist()] == [
        original.read(name) for name in original.namelist()
    ]
    assert {entry.compress_type for entry in copy.infolist()} == {zipfile.ZIP_STORED}


def test_stored_puts_the_replaced_files_in_their_places() -> None:
    copy = zipfile.ZipFile(io.BytesIO(stored(deflated_zip(), {"pkg/__init__.py": b"VALUE = 2\n"})))
    assert copy.namelist() == zipfile.ZipFile(io.BytesIO(deflated_zip())).namelist()
    assert copy.read("pkg/__init__.py") == b"VALUE = 2\n"
    assert copy.read("pkg-0.1.dist-info/RECORD") == b"pkg/__init__.py,sha256=x,2000\n"


def test_stored_refuses_what_is_not_a_zip() -> None:
    with pytest.raises(zipfile.BadZipFile):
        stored(b"not a zip at all")
