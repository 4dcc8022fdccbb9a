"""Numbers in the page's language, from CLDR through Babel."""

from __future__ import annotations

import datetime

import pytest
from calcsite.formatting import format_bound, format_day, format_output

from calculator import Output
from calculator.spec import SIGNS

from .conftest import ROOT

NUMBER = Output(name="n", label="N", digits=2)
PERCENT = Output(name="p", label="P", style="percent", digits=2)
TIMES = Output(name="t", label="T", style="multiplier", digits=2)


@pytest.mark.parametrize(
    ("output", "value", "language", "text"),
    [
        (NUMBER, 115200.0, "en", "115,200"),
        (NUMBER, 115200.0, "fr", "115\u202f200"),
        (NUMBER, 115200.0, "it", "115.200"),
        (TIMES, 57.6, "en", "57.6×"),
        (TIMES, 57.6, "fr", "57,6×"),
        (TIMES, 57.6, "it", "57,6×"),
        (PERCENT, 37.5, "en", "37.5%"),
        (PERCENT, 37.5, "fr", "37,5\u00a0%"),
        (PERCENT, 37.5, "it", "37,5%"),
        # CLDR's minimum grouping digits: Italian leaves four-digit numbers whole.
        (NUMBER, 1234.5, "it", "1234,5"),
        (NUMBER, 12345.0, "it", "12.345"),
        (NUMBER, 1234.5, "en", "1,234.5"),
        (PERCENT, 1250.0, "it", "1250%"),
        (PERCENT, 12500.0, "it", "12.500%"),
        (NUMBER, 0.125, "en", "0.13"),
        (NUMBER, None, "en", "—"),
    ],
)
def test_format_output_matches_cldr(
    output: Output, value: float | None, language: str, text: str
) -> None:
    assert format_output(output, value, language) == text


@pytest.mark.parametrize(
    ("value", "language", "text"),
    [
        (2000, "fr", "2\u202f000"),
        (1e12, "en", "1,000,000,000,000"),
        (0.5, "it", "0,5"),
        (2000, "it", "2000"),
    ],
)
def test_format_bound(value: float, language: str, text: str) -> None:
    assert format_bound(value, language) == text


def test_format_day_is_long_and_localised() -> None:
    assert format_day(datetime.date(2026, 11, 30), "fr") == "30 novembre 2026"
    assert format_day(datetime.date(2026, 11, 30), "en") == "November 30, 2026"


def test_the_workers_multiplier_sign_is_the_cores() -> None:
    worker = (ROOT / "overrides" / "assets" / "javascripts" / "calculator-worker.mjs").read_text(
        encoding="utf-8"
    )
    assert f'const TIMES = "{SIGNS["multiplier"]}";' in worker
