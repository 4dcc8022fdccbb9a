"""The core's wheel as the site serves it to Pyodide."""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from calcsite.engine import EngineError, build_wheel, mark_names_utf8
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
def served_wheel() -> bytes:
    return build_wheel(ROOT)[1]


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


def test_every_entry_of_the_served_wheel_has_a_utf8_name(served_wheel: bytes) -> None:
    entries = zipfile.ZipFile(io.BytesIO(served_wheel)).infolist()
    assert entries
    assert all(entry.flag_bits & 0x800 for entry in entries)


def test_the_served_wheel_holds_what_hatchling_built(
    served_wheel: bytes, hatchling_wheel: bytes
) -> None:
    served = zipfile.ZipFile(io.BytesIO(served_wheel))
    built = zipfile.ZipFile(io.BytesIO(hatchling_wheel))
    assert served.testzip() is None
    assert served.namelist() == built.namelist()
    assert [served.read(name) for name in served.namelist()] == [
        built.read(name) for name in built.namelist()
    ]
    assert len(served_wheel) == len(hatchling_wheel)


def test_unpacking_the_served_wheel_needs_no_cp437_codec(
    served_wheel: bytes, hatchling_wheel: bytes, tmp_path: Path
) -> None:
    assert cp437_imported(hatchling_wheel, tmp_path)
    assert not cp437_imported(served_wheel, tmp_path)


def test_the_same_sources_give_the_same_wheel(served_wheel: bytes) -> None:
    assert build_wheel(ROOT)[1] == served_wheel


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
    with pytest.raises(EngineError):
        mark_names_utf8(archive)
