"""The engine's files, their folder and their URLs: what the build plans and writes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from calcsite import build_cache, engine, runtime, stdlib
from calcsite.engine import EngineError

from .conftest import ROOT

PACKAGE = ROOT / "node_modules" / "pyodide"


# --------------------------------------------------------------- the package index


def test_the_package_index_lists_no_package_and_pyodides_info() -> None:
    lock = json.loads(runtime.minimal_lock(PACKAGE))
    npm = json.loads((PACKAGE / runtime.LOCK).read_text(encoding="utf-8"))
    assert lock == {"info": npm["info"], "packages": {}}
    assert len(runtime.minimal_lock(PACKAGE)) < 200


# --------------------------------------------------------------- the engine's folder


def test_the_engine_folder_is_named_by_all_three_files() -> None:
    plan = engine.plan(ROOT, PACKAGE, None)
    name = plan.wheel_path.rsplit("/", 1)[1]
    assert list(plan.files) == [name, engine.SITE_STDLIB, runtime.LOCK]
    digest = hashlib.sha256()
    for file, data in plan.files.items():
        digest.update(f"{file}\0{len(data)}\0".encode() + data)
    assert plan.engine_dir == f"assets/engine/{digest.hexdigest()[:16]}"
    assert plan.fetched == (
        f"assets/pyodide/{runtime.pyodide_version(PACKAGE)}/pyodide.mjs",
        f"assets/pyodide/{runtime.pyodide_version(PACKAGE)}/pyodide.asm.mjs",
        f"assets/pyodide/{runtime.pyodide_version(PACKAGE)}/pyodide.asm.wasm",
        plan.wheel_path,
        f"{plan.engine_dir}/{engine.SITE_STDLIB}",
        f"{plan.engine_dir}/{runtime.LOCK}",
    )
    cdn = engine.plan(ROOT, PACKAGE, "https://cdn.example/pyodide/v{version}/full/")
    assert cdn.engine_dir == plan.engine_dir
    assert (
        cdn.fetched[0]
        == f"https://cdn.example/pyodide/v{runtime.pyodide_version(PACKAGE)}/full/pyodide.mjs"
    )
    assert cdn.fetched[3:] == plan.fetched[3:]


def test_the_build_refuses_a_core_that_imports_an_unlisted_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "calculator").mkdir()
    (tmp_path / "calculator" / "web.py").write_text("import statistics\n", encoding="utf-8")
    with pytest.raises(EngineError, match=r"statistics.*--record"):
        engine.plan(tmp_path, PACKAGE, None)


def test_the_build_cache_keeps_only_what_the_build_used() -> None:
    folder = build_cache.location(PACKAGE)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "wheel-0123456789abcdef.gz").write_bytes(b"left by an older build")
    engine.plan(ROOT, PACKAGE, None)
    assert [path.name for path in folder.iterdir()] == [stdlib.cache_name(PACKAGE)]
