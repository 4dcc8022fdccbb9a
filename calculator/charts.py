"""Charts drawn by the core: SVG built from numbers and from the site's own words.

A mode declares its chart beside its inputs and outputs (``Mode.chart``, a
:class:`~calculator.spec.Chart`: a drawing function and its English words), so
that the site's build, the browser's worker and the tests draw the same bytes
and find every chart in the registry:

- :mod:`calculator.chart_scaling`, for every mode of data-parallel scaling:
  throughput (or, in the estimating mode, the speedup) against the number of
  devices, with the ideal line, the line at the efficiency entered or measured,
  the curve the all-reduce model predicts, and the entered case marked;
- :mod:`calculator.chart_schedule`, for the pipeline bubble: the schedule
  itself, stages × time, with every idle stretch drawn and both conventions'
  figures on it;
- :mod:`calculator.chart_planner`, for the training planner's check: the memory
  of a device of the first stage against its capacity and the step time, each a
  bar stacked from its parts, two panels each with its own ``<svg role="img">``.

:func:`render` draws the chart of a calculator's mode. A chart is an HTML
fragment: a visible title, a legend, an ``<svg role="img">`` named by its
``<title>`` and ``<desc>``, notes, and its numbers as a table in a
``<details>`` for screen readers and for copying. What goes in is numbers (the
parsed inputs), the page language's :class:`~calculator.notation.Notation` and
:class:`Labels` (the site's words, English by default); the toolkit they share
is :mod:`calculator.drawing`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .drawing import Labels, escape
from .notation import ENGLISH, Notation
from .registry import CALCULATORS, get
from .spec import Chart, Value

__all__ = ["CHARTS", "PLAIN", "WORDS", "Labels", "escape", "render"]

CHARTS: Mapping[str, Mapping[str, Chart]] = MappingProxyType(
    {
        calculator.slug: MappingProxyType(
            {mode.name: mode.chart for mode in calculator.modes if mode.chart is not None}
        )
        for calculator in CALCULATORS.values()
        if any(mode.chart is not None for mode in calculator.modes)
    }
)
"""The charts of every calculator that has one: by slug, then by mode."""

WORDS: Mapping[str, str] = MappingProxyType(
    {
        key: text
        for charts in CHARTS.values()
        for chart in charts.values()
        for key, text in chart.words.items()
    }
)
"""Every word a chart shows, in English, by key; ``{name}`` marks a number.

The site passes each language's translation (:class:`Labels`); a key it leaves
out is drawn in English.
"""

PLAIN = ENGLISH
"""The notation of a chart drawn without one: English's."""


def render(
    slug: str,
    mode: str,
    values: Mapping[str, Value | str | None],
    labels: Labels | None = None,
    notation: Notation | None = None,
) -> str | None:
    """The chart of ``slug``'s ``mode`` for parsed inputs, or ``None`` if it has none.

    ``values`` must be inputs the mode's compute function accepts (what
    :func:`calculator.run` accepted).
    """
    declared = get(slug).mode(mode)
    if declared.chart is None:
        return None
    words = (labels or Labels()).for_chart(declared.chart.words)
    return declared.chart.draw(declared, values, words, notation or ENGLISH)
