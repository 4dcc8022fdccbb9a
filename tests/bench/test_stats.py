"""The bootstrap interval printed next to each first-live ratio."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.stats import median_interval

RATIOS = st.lists(st.floats(min_value=0.5, max_value=2.0), min_size=1, max_size=15)


def test_one_value_is_its_own_interval() -> None:
    assert median_interval([1.07]) == (1.07, 1.07)


def test_identical_rounds_leave_no_doubt() -> None:
    assert median_interval([1.1] * 7) == (1.1, 1.1)


def test_seven_noisy_rounds_give_a_wide_interval() -> None:
    # Per-round ratios of one page in one run of this benchmark.
    low, high = median_interval([1.414, 0.766, 1.01, 1.353, 1.14, 1.023, 0.945])
    assert (low, high) == (0.945, 1.353)


def test_the_same_rounds_always_give_the_same_interval() -> None:
    rounds = [1.2, 0.9, 1.05, 1.3, 0.95]
    assert median_interval(rounds) == median_interval(list(rounds))


@given(RATIOS)
def test_the_interval_holds_the_median_within_the_range(values: list[float]) -> None:
    low, high = median_interval(values, resamples=400)
    assert min(values) <= low <= statistics.median(values) <= high <= max(values)


@given(RATIOS)
def test_a_higher_confidence_never_narrows_the_interval(values: list[float]) -> None:
    low, high = median_interval(values, 0.5, resamples=400)
    wide_low, wide_high = median_interval(values, 0.95, resamples=400)
    assert wide_low <= low
    assert high <= wide_high


@pytest.mark.parametrize(
    ("values", "confidence", "message"),
    [([], 0.9, "no values"), ([1.0], 0.0, "between 0 and 1"), ([1.0], 1.0, "between 0 and 1")],
)
def test_nonsense_is_refused(values: list[float], confidence: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        median_interval(values, confidence)
