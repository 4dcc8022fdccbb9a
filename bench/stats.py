"""Medians, percentiles, and how far a median of a few noisy runs can be trusted.

The first-live ratios come from a handful of rounds on a machine whose load
changes from one visit to the next, so a median of seven can move by a tenth
between two runs of the same code. Next to each median the benchmark gives a
seeded percentile bootstrap interval: where the median of another set of
rounds like these would fall, most of the time.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

CONFIDENCE = 0.9
"""The share of resampled medians that the printed intervals hold."""


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation; NaN for no value."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: Sequence[float]) -> float:
    """The median; NaN for no value."""
    return percentile(values, 50)


def median_interval(
    values: Sequence[float], confidence: float = CONFIDENCE, resamples: int = 4000, seed: int = 0
) -> tuple[float, float]:
    """A percentile bootstrap interval (low, high) for the median of ``values``.

    ``confidence`` is the share of resampled medians inside it; the same values
    and ``seed`` always give the same interval.

    Raises:
        ValueError: If ``values`` is empty or ``confidence`` is not in (0, 1).
    """
    if not values:
        raise ValueError("no values")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    rng = random.Random(seed)
    count = len(values)
    medians = sorted(statistics.median(rng.choices(values, k=count)) for _ in range(resamples))
    tail = (1 - confidence) / 2
    low = medians[int(tail * (resamples - 1))]
    high = medians[round((1 - tail) * (resamples - 1))]
    return low, high
