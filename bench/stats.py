"""How far a median of a few noisy runs can be trusted.

The first-live ratios come from a handful of rounds on a machine whose load
changes from one visit to the next, so a median of seven can move by a tenth
between two runs of the same code. The benchmark prints, next to each median,
a percentile bootstrap interval: the range in which the median of another set
of rounds like these would fall, most of the time. It is seeded, so the same
runs always print the same interval.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence

__all__ = ["CONFIDENCE", "median_interval"]

CONFIDENCE = 0.9
"""The share of resampled medians that the printed intervals hold."""


def median_interval(
    values: Sequence[float], confidence: float = CONFIDENCE, resamples: int = 4000, seed: int = 0
) -> tuple[float, float]:
    """A percentile bootstrap interval for the median of ``values``.

    Args:
        values: The measurements, at least one.
        confidence: The share of resampled medians inside the interval.
        resamples: How many resamples to draw.
        seed: The random generator's seed (the same values give the same interval).

    Returns:
        The lower and upper ends; both equal the value when there is only one.

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
