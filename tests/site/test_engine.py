"""The site's own engine files: the core's wheel, the standard library and the package index.

The standard library is built by Pyodide in Node (as the build builds it, from
the same cache): these tests check what it holds and how it is made; that the
core runs on it, case by case, is ``tests/test_pyodide.py``'s part.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import marshal
import os
import subprocess
import sys
import tempfile
import types
import zipfile
from pathlib import Path
from typing import Any

import pytest
from calcsite import engine, gzipped, slim, stdlib_files
from calcsite.engine import EngineError, build_wheel, mark_names_utf8
from calcsite.slim import SlimError
from hatchling.builders.wheel import WheelBuilder

from .conftest import ROOT

PACKAGE = ROOT / "node_modules" / "pyodide"

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
    return engine.served_wheel(ROOT)


@pytest.fixture(scope="module")
def served_wheel(served_file: tuple[str, bytes]) -> bytes:
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


def test_every_entry_of_the_served_wheel_has_a_utf8_name(served_wheel: bytes) -> None:
    entries = zipfile.ZipFile(io.BytesIO(served_wheel)).infolist()
    assert entries
    assert all(entry.flag_bits & 0x800 for entry in entries)


def test_the_served_wheel_holds_what_hatchling_built_stored(
    served_wheel: bytes, hatchling_wheel: bytes
) -> None:
    served = zipfile.ZipFile(io.BytesIO(served_wheel))
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
    served_wheel: bytes, hatchling_wheel: bytes
) -> None:
    served = metadata_of(zipfile.ZipFile(io.BytesIO(served_wheel))).decode()
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


def test_every_file_of_the_served_wheel_matches_its_record(served_wheel: bytes) -> None:
    """RECORD's hash and size of each file, as pip checks them: a wheel pip installs."""
    wheel = zipfile.ZipFile(io.BytesIO(served_wheel))
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


def test_a_kept_gzip_stream_is_made_again_for_another_zopfli(
    served_file: tuple[str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache is keyed by what packs the bytes too, not by the bytes alone."""
    assert engine.served_wheel(ROOT, cache=tmp_path) == served_file
    monkeypatch.setattr(importlib.metadata, "version", lambda name: f"{name} 0.0.1")
    assert engine.served_wheel(ROOT, cache=tmp_path) == served_file
    assert len(list(tmp_path.iterdir())) == 2


def test_a_zip_that_is_no_wheel_is_refused() -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("calculator/__init__.py", "")
    with pytest.raises(EngineError, match="not a wheel"):
        engine.without_description(out.getvalue())


def test_the_served_wheel_is_one_gzip_stream_smaller_than_hatchlings(
    served_file: tuple[str, bytes], hatchling_wheel: bytes
) -> None:
    name, data = served_file
    assert name == build_wheel(ROOT)[0] + gzipped.SUFFIX
    assert name.endswith(".whl.gz")
    assert data[:4] == b"\x1f\x8b\x08\x00"  # gzip, deflate, no file name
    assert data[4:8] == bytes(4)  # no date
    assert len(data) < 0.9 * len(hatchling_wheel), (len(data), len(hatchling_wheel))


def test_unpacking_the_served_wheel_needs_no_cp437_codec(
    served_wheel: bytes, hatchling_wheel: bytes, tmp_path: Path
) -> None:
    assert cp437_imported(hatchling_wheel, tmp_path)
    assert not cp437_imported(served_wheel, tmp_path)


def test_the_same_sources_give_the_same_wheel(
    served_file: tuple[str, bytes], tmp_path: Path
) -> None:
    """Built and packed again from nothing (no cache), byte for byte."""
    assert build_wheel(ROOT)[1] == build_wheel(ROOT)[1]
    assert engine.served_wheel(ROOT, cache=tmp_path) == served_file
    assert len(list(tmp_path.iterdir())) == 1


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


# --------------------------------------------------------------- the standard library


@pytest.fixture(scope="module")
def archive() -> zipfile.ZipFile:
    """The standard library the site serves, inflated as the worker inflates it."""
    return zipfile.ZipFile(io.BytesIO(gzip.decompress(engine.stdlib_archive(PACKAGE))))


@pytest.fixture(scope="module")
def npm_archive() -> zipfile.ZipFile:
    return zipfile.ZipFile(PACKAGE / engine.STDLIB)


def test_the_archive_holds_the_listed_modules_compiled_and_their_folders(
    archive: zipfile.ZipFile,
) -> None:
    names = archive.namelist()
    files = [name for name in names if not name.endswith("/")]
    assert files == sorted(name + "c" for name in stdlib_files.FILES)
    folders = {name.rsplit("/", 1)[0] + "/" for name in files if "/" in name}
    assert folders <= set(names)
    assert archive.testzip() is None
    assert {entry.compress_type for entry in archive.infolist()} == {zipfile.ZIP_STORED}
    # Bytecode for one Python (Pyodide's): one magic number, then flags, date and size at 0.
    headers = {archive.read(name)[:16] for name in files}
    (magic,) = {header[:4] for header in headers}
    assert magic != importlib.util.MAGIC_NUMBER  # not the build's Python 3.11's
    assert {header[4:] for header in headers} == {bytes(12)}


def test_the_archive_sent_is_a_quarter_of_pyodides() -> None:
    served = len(engine.stdlib_archive(PACKAGE))
    full = (PACKAGE / engine.STDLIB).stat().st_size
    assert served < full / 3.5, (served, full)


def test_one_gzip_stream_sends_less_than_each_file_deflated(archive: zipfile.ZipFile) -> None:
    """What the modules share is sent once: at least 10 % less than zip's best, file by file."""
    each = io.BytesIO()
    with zipfile.ZipFile(each, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for entry in archive.infolist():
            target.writestr(entry, archive.read(entry), zipfile.ZIP_DEFLATED, 9)
    served = len(engine.stdlib_archive(PACKAGE))
    assert served < 0.9 * len(each.getvalue()), (served, len(each.getvalue()))


def test_the_same_list_gives_the_same_archive(tmp_path: Path) -> None:
    """Built again from nothing (no cache), byte for byte."""
    assert engine.stdlib_archive(PACKAGE, cache=tmp_path) == engine.stdlib_archive(PACKAGE)
    # The archive Pyodide built, and its gzip stream.
    assert sorted(path.suffix for path in tmp_path.iterdir()) == [".gz", ".zip"]


def test_a_cached_archive_is_not_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine.stdlib_archive(PACKAGE, cache=tmp_path)

    def refuse(*_: object) -> bytes:
        raise AssertionError("built again")

    monkeypatch.setattr(engine, "_slim_in_node", refuse)
    monkeypatch.setattr(gzipped, "gzipped", refuse)
    assert engine.stdlib_archive(PACKAGE, cache=tmp_path) == engine.stdlib_archive(PACKAGE)
    # Another list is another archive.
    monkeypatch.setattr(stdlib_files, "FILES", stdlib_files.FILES[:-1])
    with pytest.raises(AssertionError, match="built again"):
        engine.stdlib_archive(PACKAGE, cache=tmp_path)


def test_a_list_recorded_with_another_pyodide_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stdlib_files, "PYODIDE", "0.1.0")
    with pytest.raises(EngineError, match="--record"):
        engine.stdlib_archive(PACKAGE)


MODULE = '''"""A module."""
# a comment
from __future__ import annotations

import os  # why


class Thing:
    """A class."""

    def method(self) -> int:
        """Only a docstring."""


def run() -> str:
    """A function."""
    assert os.sep
    return f"{os.sep!r:>3}"  # formatted
'''


def load(data: bytes) -> dict[str, Any]:
    """Run a ``.pyc`` made for this Python; return the module's namespace."""
    assert data[:4] == importlib.util.MAGIC_NUMBER
    namespace: dict[str, Any] = {"__name__": "module"}
    exec(marshal.loads(data[16:]), namespace)
    return namespace


def test_bytecode_drops_docstrings_and_nothing_else() -> None:
    module = load(slim.bytecode(MODULE, "module.py", "/lib/here/module.py"))
    assert module.get("__doc__") is None
    thing, run = module["Thing"], module["run"]
    assert thing.__doc__ is None
    assert thing().method() is None
    assert run.__doc__ is None
    assert run() == f"{os.sep!r:>3}"
    assert run.__code__.co_filename == "/lib/here/module.py"


NESTED = '''
def outer(x):
    """Doc."""

    def inner(y):
        if y:
            raise ValueError(f"line 7, {y}")
        return [z * 2 for z in range(y, 3)]

    return inner(x)
'''


def _code_objects(code: types.CodeType) -> list[types.CodeType]:
    inner = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    return [code, *(found for c in inner for found in _code_objects(c))]


def test_bytecode_locates_each_function_at_its_first_line_and_runs_the_same() -> None:
    slimmed = load(slim.bytecode(NESTED, "m", "m.py"))
    whole: dict[str, Any] = {}
    exec(compile(NESTED, "m.py", "exec"), whole)
    assert slimmed["outer"](0) == whole["outer"](0) == [0, 2, 4]
    with pytest.raises(ValueError, match="line 7, 1") as raised:
        slimmed["outer"](1)
    # The frames of outer and inner, at their def lines (pytest counts lines from 0).
    assert [entry.lineno + 1 for entry in raised.traceback[-2:]] == [2, 5]
    with pytest.raises(ValueError, match="line 7, 1") as raised:
        whole["outer"](1)
    assert raised.traceback[-1].lineno + 1 == 7


def test_function_lines_cover_every_instruction_with_one_line() -> None:
    compiled = compile(NESTED + "\n" * 500 + "late = 1\n", "m.py", "exec")
    for code in _code_objects(slim.function_lines(compiled)):
        lines = {line for _start, _end, line in code.co_lines()}
        assert lines == {code.co_firstlineno}, code.co_name
        covered = sum(end - start for start, end, _line in code.co_lines())
        assert covered == len(code.co_code)
        assert code.co_code == next(
            c.co_code for c in _code_objects(compiled) if c.co_name == code.co_name
        )


def test_bytecode_of_what_this_python_cannot_read_is_refused() -> None:
    with pytest.raises(SlimError, match=r"module\.py"):
        slim.bytecode("def (:\n", "module.py", "module.py")


def _zip(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name, text in files.items():
            target.writestr(name, text)
    return out.getvalue()


def test_slim_compiles_every_file_in_order_and_refuses_missing_files() -> None:
    source = _zip({"a.py": MODULE, "pkg/sub/b.py": "x = 1\n", "pyodide/c.py": MODULE})
    files = ["pyodide/c.py", "pkg/sub/b.py", "a.py"]
    archive = slim.slim(source, files, "/lib/std.zip")
    made = zipfile.ZipFile(io.BytesIO(archive))
    assert made.namelist() == [
        "pkg/",
        "pkg/sub/",
        "pyodide/",
        "a.pyc",
        "pkg/sub/b.pyc",
        "pyodide/c.pyc",
    ]
    assert load(made.read("a.pyc")).get("__doc__") is None
    assert load(made.read("pyodide/c.pyc")).get("__doc__") is None
    assert load(made.read("pkg/sub/b.pyc"))["x"] == 1
    assert {entry.date_time for entry in made.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert slim.slim(source, files, "/lib/std.zip") == archive
    with pytest.raises(SlimError, match=r"not in the standard library: d\.py"):
        slim.slim(source, ["a.py", "d.py"], "/lib/std.zip")


# --------------------------------------------------------------- the package index


def test_the_package_index_lists_no_package_and_pyodides_info() -> None:
    lock = json.loads(engine.minimal_lock(PACKAGE))
    npm = json.loads((PACKAGE / engine.LOCK).read_text(encoding="utf-8"))
    assert lock == {"info": npm["info"], "packages": {}}
    assert len(engine.minimal_lock(PACKAGE)) < 200


# --------------------------------------------------------------- the core's imports


def _core(folder: Path, files: dict[str, str]) -> Path:
    core = folder / "calculator"
    for name, text in files.items():
        (core / name).parent.mkdir(parents=True, exist_ok=True)
        (core / name).write_text(text, encoding="utf-8")
    return core


def test_the_page_part_of_the_core_imports_nothing_unlisted() -> None:
    assert engine.unlisted_imports(ROOT / "calculator") == []
    # The command line is no part of the page: argparse need not be in the archive.
    assert engine.unlisted_imports(ROOT / "calculator", entry="cli") == ["argparse"]


def test_a_new_import_on_the_pages_path_is_found(tmp_path: Path) -> None:
    core = _core(
        tmp_path,
        {
            "__init__.py": "from .web import evaluate\n",
            "web.py": "import json\nfrom .sub import deep\nfrom . import other\n",
            "sub/__init__.py": "",
            "sub/deep.py": "from ..spec import thing\nimport math, statistics\n",
            "spec.py": "from decimal import Decimal\nimport unicodedata\n",
            "other.py": "import csv\n",
            "cli.py": "import argparse\n",
        },
    )
    files = ("json/__init__.py", "decimal.py")
    builtin = ("math", "unicodedata")
    assert engine.unlisted_imports(core, files=files, builtin=builtin) == ["csv", "statistics"]


def test_the_build_refuses_a_core_that_imports_an_unlisted_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "calculator").mkdir()
    (tmp_path / "calculator" / "web.py").write_text("import statistics\n", encoding="utf-8")
    with pytest.raises(EngineError, match=r"statistics.*--record"):
        engine.plan(tmp_path, PACKAGE, None)


# --------------------------------------------------------------- the engine's folder


def test_the_engine_folder_is_named_by_all_three_files() -> None:
    plan = engine.plan(ROOT, PACKAGE, None)
    name = plan.wheel_path.rsplit("/", 1)[1]
    assert list(plan.files) == [name, engine.SITE_STDLIB, engine.LOCK]
    digest = hashlib.sha256()
    for file, data in plan.files.items():
        digest.update(f"{file}\0{len(data)}\0".encode() + data)
    assert plan.engine_dir == f"assets/engine/{digest.hexdigest()[:16]}"
    assert plan.fetched == (
        f"assets/pyodide/{engine.pyodide_version(PACKAGE)}/pyodide.mjs",
        f"assets/pyodide/{engine.pyodide_version(PACKAGE)}/pyodide.asm.mjs",
        f"assets/pyodide/{engine.pyodide_version(PACKAGE)}/pyodide.asm.wasm",
        plan.wheel_path,
        f"{plan.engine_dir}/{engine.SITE_STDLIB}",
        f"{plan.engine_dir}/{engine.LOCK}",
    )
    cdn = engine.plan(ROOT, PACKAGE, "https://cdn.example/pyodide/v{version}/full/")
    assert cdn.engine_dir == plan.engine_dir
    assert (
        cdn.fetched[0]
        == f"https://cdn.example/pyodide/v{engine.pyodide_version(PACKAGE)}/full/pyodide.mjs"
    )
    assert cdn.fetched[3:] == plan.fetched[3:]
