"""One real build of the whole site, shared by the site tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def build_site(target: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` of the project into ``target``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(target)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per session for ``https://docs.example.org/calc/``, warning-free."""
    target = tmp_path_factory.mktemp("site")
    result = build_site(target, SITE_URL="https://docs.example.org/calc/")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert warnings == []
    return target
