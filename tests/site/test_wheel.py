"""The core's wheel as the site serves it: the page's part of hatchling's, one gzip stream."""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import subprocess
import sys
import tempfile
import traceback
import zipfile
import zlib
from pathlib import Path

import pytest
from calcsite import gzipped
from calcsite.imports import CORE, reached
from calcsite.wheel import (
    COMPRESSOR,
    WheelError,
    build_wheel,
    mark_names_utf8,
    page_part,
    recorded,
    served_wheel,
    stored,
    without_description,
    without_docstrings,
)
from hatchling.builders.wheel import WheelBuilder

from .conftest import ROOT

READS_NAMES = (
    "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).namelist();"
    " print('encodings.cp437' in sys.modules)"
)
IMPORTS_THE_BOUNDARY = (
    "import json, sys; from calculator.web import evaluate;"
    " print(json.dumps({name: getattr(module, '__file__', None)"
    " for name, module in sys.modules.items() if name.partition('.')[0] == 'calculator'}))"
)
"""The worker's first import, then which of the core's modules Python imported, and their files."""


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


def test_the_served_wheel_holds_the_page_part_of_what_hatchling_built_stored(
    unpacked: bytes, hatchling_wheel: bytes
) -> None:
    served = zipfile.ZipFile(io.BytesIO(unpacked))
    built = zipfile.ZipFile(io.BytesIO(hatchling_wheel))
    assert served.testzip() is None
    kept = page_part(hatchling_wheel, reached(ROOT / CORE).files)
    assert served.namelist() == kept
    same = [name for name in kept if not name.endswith(("/METADATA", "/RECORD"))]
    assert len(same) == len(kept) - 2
    # Each module without its docstrings; the other files as hatchling wrote them.
    assert [served.read(name) for name in same] == [
        without_docstrings(built.read(name)) if name.endswith(".py") else built.read(name)
        for name in same
    ]
    assert [(entry.date_time, entry.external_attr) for entry in served.infolist()] == [
        (built.getinfo(name).date_time, built.getinfo(name).external_attr) for name in kept
    ]
    assert {entry.compress_type for entry in served.infolist()} == {zipfile.ZIP_STORED}


def imported_by_the_boundary(root: Path) -> set[str]:
    """The core's module files a fresh CPython imports for ``from calculator.web import evaluate``.

    Run, not read: what the static scan (:func:`calcsite.imports.reached`) must
    agree with. Relative to ``root`` with ``/``, as the wheel names them.
    """
    done = subprocess.run(
        [sys.executable, "-c", IMPORTS_THE_BOUNDARY],
        cwd=root,
        env={"PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=True,
    )
    files: dict[str, str | None] = json.loads(done.stdout)
    assert all(files.values()), files  # every one from a file: no namespace package
    return {Path(str(file)).relative_to(root).as_posix() for file in files.values()}


def test_the_served_wheel_holds_exactly_the_modules_the_boundary_reaches(unpacked: bytes) -> None:
    """Every module that importing ``calculator.web`` imports is served, and no other module.

    Imported by CPython from the sources here; that Pyodide, from the served
    wheel alone, imports the very same ones and computes every case is
    ``tests/test_pyodide.py``'s part.
    """
    served = zipfile.ZipFile(io.BytesIO(unpacked)).namelist()
    modules = {name for name in served if not name.split("/")[0].endswith(".dist-info")}
    imported = imported_by_the_boundary(ROOT)
    assert modules == imported
    assert modules == set(reached(ROOT / CORE).files)
    # The rest of the archive is the package's metadata.
    assert {name.rsplit("/", 1)[1] for name in served if name not in modules} == {
        "METADATA",
        "WHEEL",
        "entry_points.txt",
        "RECORD",
    }
    # The command line is the shell's, not the page's.
    assert {"calculator/cli.py", "calculator/__main__.py"}.isdisjoint(modules)


def test_the_wheel_pip_installs_stays_complete(hatchling_wheel: bytes) -> None:
    """The wheel hatchling builds, for ``pip install`` and the command line: all of the core."""
    names = zipfile.ZipFile(io.BytesIO(hatchling_wheel)).namelist()
    core = ROOT / CORE
    written = {
        path.relative_to(ROOT).as_posix()
        for path in core.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    assert written <= set(names)
    assert {"calculator/cli.py", "calculator/__main__.py", "calculator/py.typed"} <= written
    assert any(name.endswith(".dist-info/entry_points.txt") for name in names)


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
    assert_record_matches(unpacked)


def assert_record_matches(unpacked: bytes) -> None:
    """Each file of the wheel has its row in RECORD, with its hash and size; each row a file."""
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


def test_a_module_the_page_reaches_that_the_wheel_lacks_is_refused(
    hatchling_wheel: bytes,
) -> None:
    with pytest.raises(WheelError, match=r"calculator/gone\.py, which the wheel lacks"):
        page_part(hatchling_wheel, ["calculator/web.py", "calculator/gone.py"])


def test_a_zip_that_is_no_wheel_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("calculator/__init__.py", "")
    with pytest.raises(WheelError, match=r"not a wheel: no \.dist-info/METADATA"):
        without_description(out.getvalue())
    with pytest.raises(WheelError, match=r"not a wheel: no \.dist-info/RECORD"):
        recorded(out.getvalue(), {})


DOCUMENTED = b'''"""A module.

Its second paragraph.
"""

from __future__ import annotations

LIMIT = 3
"""An attribute's docstring."""


class Shape:
    """A class."""

    width: int = 1
    """A field's docstring,
    on two lines."""

    def area(self) -> int:  # a comment stays
        """A method."""
        "a second string is no docstring"
        return self.width * LIMIT


def one_line() -> str: """On the def's line."""; return f"{LIMIT}"


def fails() -> None:
    """Raises, on the line after this one's end.

    Two lines more.
    """
    raise ValueError(LIMIT)
'''

EMPTIED = b"""(""


)

from __future__ import annotations

LIMIT = 3
("")


class Shape:
    ("")

    width: int = 1
    (""
)

    def area(self) -> int:  # a comment stays
        ("")
        "a second string is no docstring"
        return self.width * LIMIT


def one_line() -> str: (""); return f"{LIMIT}"


def fails() -> None:
    (""


)
    raise ValueError(LIMIT)
"""


def test_a_modules_docstrings_are_emptied_and_every_line_stays_where_it_was() -> None:
    assert without_docstrings(DOCUMENTED) == EMPTIED
    assert len(EMPTIED.splitlines()) == len(DOCUMENTED.splitlines())


def raised_at(source: bytes) -> tuple[int, str]:
    """The line and the function where running ``fails()`` in ``source`` raises."""
    namespace: dict[str, object] = {}
    exec(compile(source, "documented.py", "exec"), namespace)
    fails = namespace["fails"]
    assert callable(fails)
    try:
        fails()
    except ValueError as error:
        frame = traceback.extract_tb(error.__traceback__)[-1]
        return frame.lineno or 0, frame.name
    raise AssertionError("fails() did not raise")


def test_a_traceback_names_the_same_line_without_docstrings() -> None:
    assert raised_at(without_docstrings(DOCUMENTED)) == raised_at(DOCUMENTED) == (33, "fails")


def test_what_no_docstring_documents_is_not_emptied() -> None:
    # A string after a statement other than an assignment, an f-string, a bytes literal.
    source = b'def f() -> None:\n    pass\n    "kept"\n\nf"{1}"\nb"bytes"\n'
    assert without_docstrings(source) == source


def test_a_module_that_does_not_parse_is_refused() -> None:
    with pytest.raises(WheelError, match=r"calculator/broken\.py: invalid syntax"):
        without_docstrings(b"def (:\n", "calculator/broken.py")


def test_the_served_wheel_is_smaller_for_its_emptied_docstrings(unpacked: bytes) -> None:
    served = zipfile.ZipFile(io.BytesIO(unpacked))
    modules = [name for name in served.namelist() if name.endswith(".py")]
    source = b"".join((ROOT / name).read_bytes() for name in modules)
    emptied = b"".join(served.read(name) for name in modules)
    assert len(zlib.compress(emptied, 9)) < 0.75 * len(zlib.compress(source, 9))


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


# --------------------------------------------------------------- a calculator registered

PYPROJECT = """\
[project]
name = "core"
version = "0.1"
description = "A core of two calculators, one registered."
readme = "README.md"

[project.scripts]
core = "calculator.cli:main"

[tool.hatch.build.targets.wheel]
packages = ["calculator"]
"""


def small_project(folder: Path, registry: str) -> Path:
    """A project whose core has two calculators, ``registry`` importing what it registers."""
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": "# Core\n\nA long description.\n",
        "calculator/__init__.py": "from .web import evaluate\n",
        "calculator/web.py": "import json\nfrom .registry import CALCULATORS\nevaluate = len\n",
        "calculator/registry.py": registry,
        "calculator/cli.py": "import argparse\nfrom .web import evaluate\n",
        "calculator/py.typed": "",
        "calculator/calculators/__init__.py": "",
        "calculator/calculators/scaling.py": "CALCULATOR = 'scaling'\n",
        "calculator/calculators/planner.py": "from .planner_runs import RUNS\n",
        "calculator/calculators/planner_runs.py": "RUNS = ()\n",
    }
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def served_names(project: Path) -> list[str]:
    """The files of ``project``'s served wheel, its RECORD checked."""
    unpacked = gzip.decompress(served_wheel(project)[1])
    assert_record_matches(unpacked)
    return zipfile.ZipFile(io.BytesIO(unpacked)).namelist()


def test_a_calculator_ships_once_registered_and_not_before(tmp_path: Path) -> None:
    written = small_project(
        tmp_path / "written", "from .calculators import scaling\nCALCULATORS = (scaling,)\n"
    )
    registered = small_project(
        tmp_path / "registered",
        "from .calculators import planner, scaling\nCALCULATORS = (scaling, planner)\n",
    )
    planner = {"calculator/calculators/planner.py", "calculator/calculators/planner_runs.py"}
    before, after = served_names(written), served_names(registered)
    assert planner.isdisjoint(before)
    assert planner <= set(after)
    assert set(after) - set(before) == planner
    for names, project in ((before, written), (after, registered)):
        modules = {name for name in names if name.startswith("calculator/")}
        assert modules == imported_by_the_boundary(project)
        assert "calculator/cli.py" not in modules
        # hatchling's own wheel, for pip, holds both calculators and the command line.
        built = zipfile.ZipFile(io.BytesIO(build_wheel(project)[1])).namelist()
        assert {*planner, "calculator/cli.py", "calculator/py.typed"} <= set(built)


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


def test_stored_keeps_only_the_files_named() -> None:
    kept = ["pkg-0.1.dist-info/RECORD", "pkg/"]
    copy = zipfile.ZipFile(io.BytesIO(stored(deflated_zip(), kept=kept)))
    assert copy.testzip() is None
    assert copy.namelist() == ["pkg/", "pkg-0.1.dist-info/RECORD"]  # the archive's order


def test_stored_refuses_what_is_not_a_zip() -> None:
    with pytest.raises(zipfile.BadZipFile):
        stored(b"not a zip at all")
