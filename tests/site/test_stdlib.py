"""The standard library the site serves, built by Pyodide in Node, and the core's imports.

Built as the build builds it, from the same cache: these tests check what it
holds and how it is made; that the core runs on it, case by case, is
``tests/test_pyodide.py``'s part.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import shutil
import zipfile
import zlib
from importlib import metadata
from pathlib import Path

import pytest
from calcsite import build_cache, gzipped, runtime, stdlib, stdlib_files
from calcsite.stdlib import StdlibError, cache_name, stdlib_archive, unlisted_imports

from .conftest import ROOT

PACKAGE = ROOT / "node_modules" / "pyodide"

pytestmark = pytest.mark.usefixtures("engine_cache")  # the build cache's archive, made once


@pytest.fixture(scope="module")
def archive() -> zipfile.ZipFile:
    """The standard library the site serves, inflated as the worker inflates it."""
    return zipfile.ZipFile(io.BytesIO(gzip.decompress(stdlib_archive(PACKAGE))))


@pytest.fixture(scope="module")
def npm_archive() -> zipfile.ZipFile:
    return zipfile.ZipFile(PACKAGE / runtime.STDLIB)


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
    served = len(stdlib_archive(PACKAGE))
    full = (PACKAGE / runtime.STDLIB).stat().st_size
    assert served < full / 3.5, (served, full)


def test_one_gzip_stream_sends_less_than_each_file_deflated(archive: zipfile.ZipFile) -> None:
    """What the modules share is sent once: at least 10 % less than zip's best, file by file.

    With Pyodide 314.0.7's files: 641.7 kB against 727.3 kB, 11.8 % less.
    """
    each = io.BytesIO()
    with zipfile.ZipFile(each, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for entry in archive.infolist():
            target.writestr(entry, archive.read(entry), zipfile.ZIP_DEFLATED, 9)
    served = len(stdlib_archive(PACKAGE))
    assert served < 0.9 * len(each.getvalue()), (served, len(each.getvalue()))


def test_the_stream_is_zopflis_smaller_than_zlibs_best() -> None:
    """Zopfli's stream, not zlib's: with Pyodide 314.0.7's files 641.7 kB against 664.6 kB."""
    assert stdlib.COMPRESSOR is gzipped.ZOPFLI
    served = stdlib_archive(PACKAGE)
    zlibs = len(gzipped.ZLIB.compress(gzip.decompress(served)))
    assert len(served) < 0.98 * zlibs, (len(served), zlibs)


def test_the_same_list_gives_the_same_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Built again from nothing (no cache), the same archive, byte for byte.

    Made one stream by zlib rather than Zopfli: what can differ between two builds is
    the archive (its files' order, dates and bytecode), which is compared inflated;
    that a compressor writes the same bytes for the same input is
    tests/site/test_gzipped.py's, and Zopfli's 8 s are paid once a run, not twice.
    """
    served = gzip.decompress(stdlib_archive(PACKAGE))
    monkeypatch.setattr(stdlib, "COMPRESSOR", gzipped.ZLIB)
    assert gzip.decompress(stdlib_archive(PACKAGE, cache=tmp_path)) == served
    # The gzip stream the site serves is kept, and nothing else.
    assert [path.name for path in tmp_path.iterdir()] == [cache_name(PACKAGE)]


def test_a_cached_archive_is_not_built_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cache that holds the archive under its name: a copy of the build cache's, not
    # another 8 s of Zopfli.
    name = cache_name(PACKAGE)
    shutil.copyfile(build_cache.location(PACKAGE) / name, tmp_path / name)

    def refuse(*_: object) -> bytes:
        raise AssertionError("built again")

    monkeypatch.setattr(stdlib, "_slim_in_node", refuse)
    assert stdlib_archive(PACKAGE, cache=tmp_path) == stdlib_archive(PACKAGE)
    # Another list is another archive.
    monkeypatch.setattr(stdlib_files, "FILES", stdlib_files.FILES[:-1])
    with pytest.raises(AssertionError, match="built again"):
        stdlib_archive(PACKAGE, cache=tmp_path)


def test_another_compressor_is_another_cached_archive(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stream kept by one compressor is not served for another, nor for another version."""
    name = cache_name(PACKAGE)
    monkeypatch.setattr(stdlib, "COMPRESSOR", gzipped.ZLIB)
    assert cache_name(PACKAGE) != name
    monkeypatch.setattr(stdlib, "COMPRESSOR", gzipped.ZOPFLI)
    assert cache_name(PACKAGE) == name
    # Zopfli's stream owes nothing to zlib: a cache copied to another zlib still serves.
    monkeypatch.setattr(zlib, "ZLIB_RUNTIME_VERSION", "0.0.0-other")
    assert cache_name(PACKAGE) == name
    monkeypatch.setattr(metadata, "version", lambda package: f"{package} 0.0.1")
    assert cache_name(PACKAGE) != name


def test_a_list_recorded_with_another_pyodide_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stdlib_files, "PYODIDE", "0.1.0")
    with pytest.raises(StdlibError, match="--record"):
        stdlib_archive(PACKAGE)


# --------------------------------------------------------------- the core's imports


def _core(folder: Path, files: dict[str, str]) -> Path:
    core = folder / "calculator"
    for name, text in files.items():
        (core / name).parent.mkdir(parents=True, exist_ok=True)
        (core / name).write_text(text, encoding="utf-8")
    return core


def test_the_page_part_of_the_core_imports_nothing_unlisted() -> None:
    assert unlisted_imports(ROOT / "calculator") == []
    # The command line is no part of the page: argparse need not be in the archive.
    assert unlisted_imports(ROOT / "calculator", entry="cli") == ["argparse"]


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
    assert unlisted_imports(core, files=files, builtin=builtin) == ["csv", "statistics"]
