"""The site's archives as one gzip stream each: stored files, deterministic gzip."""

from __future__ import annotations

import gzip
import io
import zipfile

import pytest
from calcsite.gzipped import gzipped, stored
from hypothesis import given
from hypothesis import strategies as st

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


@given(st.binary(max_size=4096))
def test_gzipped_inflates_back_to_the_same_bytes(data: bytes) -> None:
    assert gzip.decompress(gzipped(data)) == data


def test_gzipped_writes_no_name_and_no_date_so_the_same_bytes_give_the_same_file() -> None:
    data = stored(deflated_zip())
    packed = gzipped(data)
    assert packed == gzipped(data)
    assert packed[:4] == b"\x1f\x8b\x08\x00"  # gzip, deflate, no flags: no file name
    assert packed[4:8] == bytes(4)  # no date


def test_gzipped_beats_zlibs_best_on_the_same_bytes() -> None:
    """Zopfli earns its place: smaller than gzip -9."""
    data = stored(deflated_zip()) * 20
    assert len(gzipped(data)) < len(gzip.compress(data, 9, mtime=0))
