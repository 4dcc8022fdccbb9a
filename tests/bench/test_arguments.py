"""The benchmark's command line."""

from __future__ import annotations

import pytest

from bench.__main__ import _arguments
from bench.__main__ import main as bench_main


@pytest.mark.parametrize("option", ["--lighthouse-runs", "--runs", "--changes"])
def test_a_count_below_one_is_refused_before_anything_runs(
    option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        bench_main([option, "0"])
    assert stopped.value.code == 2
    assert f"{option} must be at least 1" in capsys.readouterr().err


def test_render_document_is_off_unless_asked_for() -> None:
    assert _arguments([]).render_document is False
    assert _arguments(["--render-document"]).render_document is True
