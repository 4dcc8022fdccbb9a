"""``./dev publish`` (``python -m bench.published``): a full run copied to the Performance page.

How the page renders it is tested in ``tests/site/test_performance.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from calcsite.performance import PUBLISHED, expand, load

from bench.published import DOCS, main


def published() -> dict[str, Any]:
    return load(DOCS / PUBLISHED)


def write_run(folder: Path, run: dict[str, Any]) -> Path:
    path = folder / "results.json"
    path.write_text(json.dumps(run), encoding="utf-8")
    return path


def test_publishing_copies_a_full_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = published()
    run["recompute"][next(iter(run["recompute"]))]["p95"] = 12.34
    docs = tmp_path / "docs"
    assert main([str(write_run(tmp_path, run))], docs) == 0
    assert json.loads((docs / PUBLISHED).read_text(encoding="utf-8")) == run
    assert str(docs / PUBLISHED) in capsys.readouterr().out
    assert "12,3\u00a0ms" in expand("<!-- md:bench recompute -->", "fr", docs)


def test_publishing_refuses_a_quick_or_unreadable_run_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = tmp_path / "docs"
    assert main([str(tmp_path / "missing.json")], docs) == 1
    assert "missing.json" in capsys.readouterr().err
    quick = published()
    quick["settings"]["runs"] = 3
    assert main([str(write_run(tmp_path, quick))], docs) == 1
    assert "--quick" in capsys.readouterr().err
    assert not docs.exists()
