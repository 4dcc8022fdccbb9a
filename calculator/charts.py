"""Charts drawn by the core: SVG built from numbers and from the site's own words.

One function per chart, so that the site's build, the browser's worker and the
tests draw the same bytes:

- :func:`scaling`, for every mode of data-parallel scaling: throughput (or, in
  the estimating mode, the speedup) against the number of devices, with the
  ideal line, the line at the efficiency entered or measured, the curve the
  all-reduce model predicts, and the entered case marked;
- :func:`schedule`, for the pipeline bubble: the schedule itself, stages ×
  time, with every idle stretch drawn and both conventions' figures on it.

:func:`render` picks the chart of a calculator's mode. A chart is an HTML
fragment: a visible title, a legend, an ``<svg role="img">`` named by its
``<title>`` and ``<desc>``, notes, and its numbers as a table in a
``<details>`` for screen readers and for copying.

What goes in is numbers (the parsed inputs), the page language's
:class:`~calculator.notation.Notation` and :class:`Labels` (the site's words,
English by default). Every text node and attribute value is escaped, ids are
reduced to ``[a-z0-9-]``, and elements, attribute names and classes are this
module's literals: no text can become markup. No colour is written: the site's
stylesheet colours each class from the theme's custom properties, so a chart
follows the light and dark palettes and prints; without it, lines take
``currentColor``.

Everything is computed with exact fractions, or with the four operations of
IEEE doubles rounded once, and written with fixed digits, so CPython and
Pyodide write the same bytes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .calculators.data_parallel_scaling import estimate, measure, predict
from .calculators.pipeline_bubble import bubble
from .decimals import exact, rounded
from .notation import ENGLISH, Notation
from .spec import SIGNS, Value

__all__ = ["CHARTS", "PLAIN", "WORDS", "Labels", "escape", "render", "scaling", "schedule"]

WORDS: Mapping[str, str] = MappingProxyType(
    {
        # Shared.
        "data": "The chart's numbers",
        "entered": "{value} (entered)",
        # Data-parallel scaling.
        "scaling.title": "Throughput against the number of devices",
        "scaling.title.estimate": "Speedup against the number of devices, as estimated",
        "scaling.x": "Devices",
        "scaling.y": "Throughput, samples/s",
        "scaling.y.estimate": "Speedup over one device",
        "scaling.ideal": "Ideal: d·v",
        "scaling.ideal.estimate": "Ideal: d",
        "scaling.actual": "At E = {efficiency}",
        "scaling.actual.measure": "At the measured E = {efficiency}",
        "scaling.constant": "If Ê stayed at {efficiency}",
        "scaling.estimated": "Estimated: d·Ê(d), Ê falling as d grows",
        "scaling.point": "Entered: d = {devices}, {throughput} samples/s",
        "scaling.point.measure": "Measured: d = {devices}, {throughput} samples/s",
        "scaling.point.estimate": "Entered: d = {devices}, a speedup of {speedup}",
        "scaling.desc.predict": (
            "Ideal throughput grows in proportion to the devices: {ideal} samples/s at "
            "d = {devices}. At E = {efficiency} the cluster delivers {actual} samples/s, "
            "and the gap widens with every device added."
        ),
        "scaling.desc.measure": (
            "At d = {devices} the measured {measured} samples/s are {efficiency} of the ideal "
            "{ideal} samples/s; the second line carries that efficiency to other cluster sizes."
        ),
        "scaling.desc.estimate": (
            "The estimated efficiency falls from 100% on one device to {efficiency} at "
            "d = {devices}, a speedup of {speedup} where perfect scaling would give {ideal}; "
            "the curve follows the all-reduce model up to d = {last}."
        ),
        "scaling.col.devices": "Devices d",
        "scaling.col.ideal": "Ideal throughput, samples/s",
        "scaling.col.actual": "Throughput at E = {efficiency}, samples/s",
        "scaling.col.efficiency": "Estimated efficiency Ê",
        "scaling.col.speedup": "Estimated speedup",
        "scaling.col.ideal_speedup": "Ideal speedup",
        # Pipeline bubble.
        "schedule.title": "Pipeline schedule: p = {stages}, m = {micro_batches}, v = {chunks}",
        "schedule.x": "Time",
        "schedule.y": "Stage",
        "schedule.forward": "Forward pass",
        "schedule.backward": "Backward pass",
        "schedule.idle": "Idle: the bubble",
        "schedule.conventions": (
            "β = {beta} of the ideal compute time (Megatron-LM); σ = {sigma} of the step (GPipe)"
        ),
        "schedule.order": (
            "Drawn in GPipe's order, every forward pass then every backward pass, each pass "
            "half a slot long; 1F1B orders them differently and idles as long."
        ),
        "schedule.chunks": (
            "Each device holds {chunks} chunks of the model; the darker boxes are its "
            "even-numbered chunks."
        ),
        "schedule.cut.time": (
            "Shortened where every stage is busy: {hidden} of the {total} forward passes of each "
            "stage are not drawn, and as many backward passes."
        ),
        "schedule.cut.stages": (
            "Stages {first} to {last} are not drawn; each idles as long as the stages shown."
        ),
        "schedule.thin": "At this scale a stage's work is drawn wider than it lasts.",
        "schedule.desc": (
            "Each of the {stages} stages computes for {busy} slots and is idle for {idle} of the "
            "{step} slots of a step, a slot being the forward and backward pass of one "
            "micro-batch on one chunk: the bubble is {beta} of the ideal compute time, "
            "{sigma} of the step."
        ),
        "schedule.col.stage": "Stage",
        "schedule.col.before": "Idle before its first forward pass, slots",
        "schedule.col.middle": "Idle between its forward and backward passes, slots",
        "schedule.col.after": "Idle after its last backward pass, slots",
        "schedule.col.total": "Idle in all, slots",
        "schedule.skipped": "Stages {first} to {last}",
    }
)
"""Every word a chart shows, in English, by key; ``{name}`` marks a number.

The site passes each language's translation (:class:`Labels`); a key it leaves
out falls back to the English here.
"""

# Characters XML 1.0 does not allow, and lone surrogates: dropped from any text.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
_NOT_ID = re.compile(r"[^a-z0-9-]")
_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def escape(text: str) -> str:
    """``text`` safe as an HTML or XML text node or quoted attribute value."""
    text = _NOT_XML.sub("", text)
    for char, entity in _ESCAPES.items():  # & first: the others' entities start with it
        text = text.replace(char, entity)
    return text


@dataclass(frozen=True, slots=True)
class Labels:
    """The words and number conventions of the page a chart is drawn for."""

    words: Mapping[str, str] = field(default_factory=lambda: WORDS)
    """Templates by key of :data:`WORDS`, in the page's language."""
    min_grouping: int = 1
    """CLDR's minimum grouping digits: Italian groups ``12.345`` but not ``1234``."""
    percent: str = "{value}%"
    """Where the number goes in a percentage (``{value}\u00a0%`` in French)."""
    prefix: str = "chart"
    """Prefix of the chart's element ids, unique on the page."""

    @classmethod
    def from_json(cls, text: str | None) -> Labels:
        """Read labels from the JSON object the page passes; anything unusable is ignored.

        The object may hold ``words`` (templates by key), ``min_grouping`` (1 to 4),
        ``percent`` (a template holding ``{value}``) and ``id``.
        """
        try:
            data = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            data = None
        if not isinstance(data, dict):
            data = {}
        given = data.get("words")
        words = {
            key: value
            for key, value in (given.items() if isinstance(given, dict) else ())
            if key in WORDS and isinstance(value, str)
        }
        grouping = data.get("min_grouping")
        percent = data.get("percent")
        prefix = data.get("id")
        ident = _NOT_ID.sub("", prefix.lower())[:64] if isinstance(prefix, str) else ""
        return cls(
            words={**WORDS, **words},
            min_grouping=grouping if type(grouping) is int and 1 <= grouping <= 4 else 1,
            percent=percent if isinstance(percent, str) and "{value}" in percent else "{value}%",
            prefix=ident or "chart",
        )

    def word(self, key: str, **values: str) -> str:
        """The template ``key`` with each ``{name}`` replaced by its value."""
        text = self.words.get(key, WORDS[key])
        for name, value in values.items():
            text = text.replace("{" + name + "}", value)
        return text


PLAIN = ENGLISH
"""The notation of a chart drawn without one: English's."""


def _input(values: Mapping[str, Value | str | None], name: str) -> Value:
    """The number entered for ``name``: 0 for an empty optional field."""
    value = values[name]
    assert not isinstance(value, str), f"{name} is a choice, not a number"
    return value or 0


class _Numbers:
    """Numbers written as the page's language writes them, as Babel and ``Intl`` do."""

    def __init__(self, notation: Notation, labels: Labels) -> None:
        self._notation = notation
        self._labels = labels

    def plain(self, text: str) -> str:
        """A plain decimal (``1234.5``) with the language's separators and grouping."""
        return self._notation.grouped(text, self._labels.min_grouping)

    def number(self, value: Value | Fraction, digits: int = 6) -> str:
        return self.plain(rounded(value, digits))

    def percent(self, value: Value | Fraction, digits: int = 2) -> str:
        """A value in percent points (90 means 90 %), as the language places the sign."""
        return self._labels.percent.replace("{value}", self.number(value, digits))

    def times(self, value: Value | Fraction, digits: int = 2) -> str:
        return self.number(value, digits) + SIGNS["multiplier"]


# ---------------------------------------------------------------- drawing


def _n(value: Fraction | float) -> str:
    """A coordinate: rounded once to a double, then to two places, zeros dropped."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def _tag(name: str, attributes: Mapping[str, str], text: str) -> str:
    """One element and its text; attribute values and text are escaped, names are this module's."""
    attrs = "".join(f' {key}="{escape(value)}"' for key, value in attributes.items())
    return f"<{name}{attrs}>{escape(text)}</{name}>"


def _table(prefix: str, caption: str, headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    head = "".join(_tag("th", {"scope": "col"}, text) for text in headers)
    body = "".join(
        "<tr>"
        + _tag("th", {"scope": "row"}, row[0])
        + "".join(_tag("td", {}, cell) for cell in row[1:])
        + "</tr>"
        for row in rows
    )
    return (
        '<details class="calc-chart__data">'
        + _tag("summary", {}, caption)
        + f'<table class="calc-chart__table" id="{prefix}-table" tabindex="0">'
        + f"<thead><tr>{head}</tr></thead>"
        + f"<tbody>{body}</tbody></table></details>"
    )


_KEYS = {
    "line": '<line x1="1" y1="6" x2="23" y2="6" stroke="currentColor"/>',
    "point": '<circle cx="12" cy="6" r="4" stroke="currentColor"/>',
    "box": '<rect x="3" y="1" width="18" height="10" stroke="currentColor"/>',
}


def _legend(entries: Iterable[tuple[str, str, str]]) -> str:
    """A list of (shape, class, text): the key drawn in the series' own class."""
    items = "".join(
        "<li>"
        f'<svg class="calc-chart__key" viewBox="0 0 24 12" width="24" height="12" '
        f'aria-hidden="true" focusable="false"><g class="{kind}">{_KEYS[shape]}</g></svg> '
        f"{escape(text)}</li>"
        for shape, kind, text in entries
    )
    return f'<ul class="calc-chart__legend">{items}</ul>'


def _svg(prefix: str, width: int, height: int, *, title: str, desc: str, body: str) -> str:
    return (
        f'<svg class="calc-chart__svg" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{prefix}-title {prefix}-desc">'
        + _tag("title", {"id": f"{prefix}-title"}, title)
        + _tag("desc", {"id": f"{prefix}-desc"}, desc)
        + body
        + "</svg>"
    )


def _figure(
    prefix: str, title: str, *, legend: str, svg: str, notes: Iterable[str], table: str
) -> str:
    notes_html = "".join(_tag("p", {"class": "calc-chart__note"}, note) for note in notes)
    return (
        _tag("p", {"class": "calc-chart__title", "id": f"{prefix}-heading"}, title)
        + legend
        + svg
        + notes_html
        + table
    )


# ---------------------------------------------------------------- axes

_FONT = 13
_CHAR = Fraction(_FONT * 6, 10)
"""Width of one character of a label, for spacing: 0.6 em."""


def _nice_step(raw: Fraction) -> Fraction:
    """The smallest of 1, 2 or 5 times a power of ten that is at least ``raw`` (> 0)."""
    power = Fraction(1)
    while power > raw:
        power /= 10
    while power * 10 <= raw:
        power *= 10
    return next(factor * power for factor in (1, 2, 5, 10) if factor * power >= raw)


@dataclass(frozen=True)
class _Axis:
    top: Fraction
    ticks: tuple[Fraction, ...]
    scale: int
    """Power of ten the tick labels are written in (``× 10⁶``); 0 for none."""

    def label(self, numbers: _Numbers, tick: Fraction) -> str:
        return numbers.number(tick / Fraction(10) ** self.scale)

    def title(self, text: str) -> str:
        if not self.scale:
            return text
        return f"{text} (× 10{str(self.scale).translate(_SUPERSCRIPTS)})"


def _axis(top: Fraction, intervals: int, integer: bool) -> _Axis:
    """Ticks from 0 to a round bound at least ``top``, about ``intervals`` apart."""
    step = _nice_step(top / intervals)
    if integer:
        step = max(step, Fraction(1))
    bound = step * math.ceil(top / step)
    scale = 0
    # Labels of at most four integer digits, in thousands, millions...: "× 10⁶".
    if bound >= 10**6 or bound < 1:
        while bound / Fraction(10) ** scale >= 10**4:
            scale += 3
        while bound / Fraction(10) ** scale < 1:
            scale -= 3
    count = int(bound / step)
    return _Axis(bound, tuple(step * k for k in range(count + 1)), scale)


def _fitting_axis(top: Fraction, width: Fraction, numbers: _Numbers) -> _Axis:
    """The x axis with the most ticks whose labels do not collide (devices: whole)."""
    candidates = [_axis(top, intervals, integer=True) for intervals in (6, 5, 4, 3, 2, 1)]

    def fits(axis: _Axis) -> bool:
        widest = max(len(axis.label(numbers, tick)) for tick in axis.ticks) * _CHAR
        return width / (len(axis.ticks) - 1) >= widest + 8

    return next((axis for axis in candidates if fits(axis)), candidates[-1])


# ---------------------------------------------------------------- scaling


@dataclass(frozen=True)
class _Series:
    kind: str
    """CSS class of the series."""
    points: tuple[tuple[Fraction, Fraction], ...]
    legend: str


@dataclass(frozen=True)
class _LinePlot:
    title: str
    desc: str
    x_title: str
    y_title: str
    y_top: Fraction
    """The highest value the lines reach at the x axis's end."""
    series: tuple[_Series, ...]
    point: tuple[Fraction, Fraction]
    point_legend: str
    point_kind: str
    guide: Fraction
    """y of the ideal line at the entered point: a dashed guide joins them."""
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


_WIDTH, _HEIGHT = 400, 290
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 376, 30, 240


def _draw_lines(plot: _LinePlot, labels: Labels, numbers: _Numbers, x_axis: _Axis) -> str:
    y_axis = _axis(plot.y_top, 5, integer=False)
    width, height = Fraction(_RIGHT - _LEFT), Fraction(_BOTTOM - _TOP)

    def x(value: Fraction) -> Fraction:
        return _LEFT + width * value / x_axis.top

    def y(value: Fraction) -> Fraction:
        return _BOTTOM - height * value / y_axis.top

    grid = "".join(
        f'<line x1="{_LEFT}" y1="{_n(y(tick))}" x2="{_RIGHT}" y2="{_n(y(tick))}"/>'
        for tick in y_axis.ticks[1:]
    )
    y_labels = "".join(
        _tag(
            "text",
            {"x": str(_LEFT - 6), "y": _n(y(tick) + 4), "text-anchor": "end"},
            y_axis.label(numbers, tick),
        )
        for tick in y_axis.ticks
    )
    x_labels = "".join(
        _tag(
            "text",
            {"x": _n(x(tick)), "y": str(_BOTTOM + 18), "text-anchor": "middle"},
            x_axis.label(numbers, tick),
        )
        for tick in x_axis.ticks
    )
    axes = (
        f'<g class="calc-chart__grid" stroke="currentColor" stroke-width="0.5">{grid}</g>'
        f'<g class="calc-chart__axes" fill="currentColor" font-size="{_FONT}">'
        f'<path d="M{_LEFT} {_TOP}V{_BOTTOM}H{_RIGHT}" fill="none" stroke="currentColor"/>'
        + y_labels
        + x_labels
        + _tag(
            "text",
            {"x": str((_LEFT + _RIGHT) // 2), "y": str(_HEIGHT - 6), "text-anchor": "middle"},
            x_axis.title(plot.x_title),
        )
        + _tag("text", {"x": "0", "y": "14"}, y_axis.title(plot.y_title))
        + "</g>"
    )
    lines = "".join(
        f'<path class="calc-chart__line {series.kind}" fill="none" stroke="currentColor" '
        f'stroke-width="2" d="'
        + "".join(
            f"{'M' if index == 0 else 'L'}{_n(x(px))} {_n(y(py))}"
            for index, (px, py) in enumerate(series.points)
        )
        + '"/>'
        for series in plot.series
    )
    px, py = x(plot.point[0]), y(plot.point[1])
    guide = (
        f'<line class="calc-chart__guide" x1="{_n(px)}" y1="{_n(y(plot.guide))}" '
        f'x2="{_n(px)}" y2="{_n(py)}" stroke="currentColor" stroke-dasharray="3 3"/>'
    )
    point = (
        f'<g class="{plot.point_kind}"><circle cx="{_n(px)}" cy="{_n(py)}" r="5" '
        f'stroke="currentColor" stroke-width="2"/></g>'
    )
    svg = _svg(
        labels.prefix,
        _WIDTH,
        _HEIGHT,
        title=plot.title,
        desc=plot.desc,
        body=axes + lines + guide + point,
    )
    legend = _legend(
        [("line", series.kind, series.legend) for series in plot.series]
        + [("point", plot.point_kind, plot.point_legend)]
    )
    table = _table(labels.prefix, labels.word("data"), plot.headers, plot.rows)
    return _figure(labels.prefix, plot.title, legend=legend, svg=svg, notes=(), table=table)


def _rows_at(x_axis: _Axis, devices: int) -> list[int]:
    """The device counts the table lists: every tick but 0, and the entered one."""
    return sorted({int(tick) for tick in x_axis.ticks[1:]} | {devices})


def scaling(
    mode: str, values: Mapping[str, Value | str | None], labels: Labels, notation: Notation
) -> str:
    """Throughput against the number of devices, for one mode of data-parallel scaling.

    Args:
        mode: ``predict``, ``measure`` or ``estimate``.
        values: The mode's parsed inputs, accepted by its compute function.
        labels: The page's words and number conventions.
        notation: How the page's language writes numbers.

    Returns:
        The chart as an HTML fragment. ``predict`` and ``measure`` draw
        throughput in samples/s: the ideal line d·v and the line at the
        efficiency entered or measured, through the entered case. ``estimate``
        has no throughput per device: it draws the speedup, throughput in single
        devices, with the ideal d, the curve d·Ê(d) of the all-reduce model, on
        which Ê falls as d grows, and the line at a constant Ê for comparison.
    """
    numbers = _Numbers(notation, labels)
    devices = int(_input(values, "devices"))
    x_top = max(Fraction(devices * 5, 4), Fraction(2))
    x_axis = _fitting_axis(x_top, Fraction(_RIGHT - _LEFT), numbers)
    plot = {"predict": _predict_plot, "measure": _measure_plot, "estimate": _estimate_plot}[mode](
        values, labels, numbers, x_axis
    )
    return _draw_lines(plot, labels, numbers, x_axis)


def _throughput_rows(
    x_axis: _Axis,
    devices: int,
    numbers: _Numbers,
    labels: Labels,
    *,
    throughput: Fraction,
    slope: Fraction,
    entered: tuple[str, str],
) -> tuple[tuple[str, ...], ...]:
    rows = []
    for count in _rows_at(x_axis, devices):
        if count == devices:
            rows.append((labels.word("entered", value=numbers.number(count)), *entered))
        else:
            rows.append(
                (
                    numbers.number(count),
                    numbers.number(count * throughput, 1),
                    numbers.number(count * slope, 1),
                )
            )
    return tuple(rows)


def _predict_plot(
    values: Mapping[str, Value | str | None], labels: Labels, numbers: _Numbers, x_axis: _Axis
) -> _LinePlot:
    devices, throughput = int(_input(values, "devices")), exact(_input(values, "throughput"))
    efficiency = exact(_input(values, "efficiency"))
    result = predict(
        devices=devices,
        throughput=float(values["throughput"] or 0),
        efficiency=float(values["efficiency"] or 0),
    ).values
    shown = numbers.percent(efficiency)
    ideal, actual = (
        numbers.number(result["ideal"] or 0, 1),
        numbers.number(result["actual"] or 0, 1),
    )
    return _throughput_plot(
        labels,
        numbers,
        x_axis,
        devices=devices,
        throughput=throughput,
        slope=throughput * efficiency / 100,
        point_y=exact(result["actual"] or 0),
        shown=shown,
        texts=(ideal, actual),
        desc=labels.word(
            "scaling.desc.predict",
            ideal=ideal,
            devices=numbers.number(devices),
            efficiency=shown,
            actual=actual,
        ),
        mode="",
    )


def _measure_plot(
    values: Mapping[str, Value | str | None], labels: Labels, numbers: _Numbers, x_axis: _Axis
) -> _LinePlot:
    devices, throughput = int(_input(values, "devices")), exact(_input(values, "throughput"))
    measured = exact(_input(values, "measured"))
    result = measure(
        devices=devices,
        throughput=float(values["throughput"] or 0),
        measured=float(values["measured"] or 0),
    ).values
    shown = numbers.percent(result["efficiency"] or 0)
    ideal, entered = numbers.number(result["ideal"] or 0, 1), numbers.number(measured, 1)
    return _throughput_plot(
        labels,
        numbers,
        x_axis,
        devices=devices,
        throughput=throughput,
        slope=measured / devices,
        point_y=measured,
        shown=shown,
        texts=(ideal, entered),
        desc=labels.word(
            "scaling.desc.measure",
            devices=numbers.number(devices),
            measured=entered,
            efficiency=shown,
            ideal=ideal,
        ),
        mode=".measure",
    )


def _throughput_plot(
    labels: Labels,
    numbers: _Numbers,
    x_axis: _Axis,
    *,
    devices: int,
    throughput: Fraction,
    slope: Fraction,
    point_y: Fraction,
    shown: str,
    texts: tuple[str, str],
    desc: str,
    mode: str,
) -> _LinePlot:
    """Throughput against devices: the ideal line, the line at ``slope``, the case marked.

    ``texts`` are the ideal and the case's throughput as shown; ``mode`` picks
    the legend words of the mode (``""`` or ``".measure"``).
    """
    top = x_axis.top
    return _LinePlot(
        title=labels.word("scaling.title"),
        desc=desc,
        x_title=labels.word("scaling.x"),
        y_title=labels.word("scaling.y"),
        y_top=top * max(throughput, slope),
        series=(
            _Series(
                "calc-chart__ideal",
                ((Fraction(0), Fraction(0)), (top, top * throughput)),
                labels.word("scaling.ideal"),
            ),
            _Series(
                "calc-chart__actual",
                ((Fraction(0), Fraction(0)), (top, top * slope)),
                labels.word(f"scaling.actual{mode}", efficiency=shown),
            ),
        ),
        point=(Fraction(devices), point_y),
        point_legend=labels.word(
            f"scaling.point{mode}", devices=numbers.number(devices), throughput=texts[1]
        ),
        point_kind="calc-chart__point",
        guide=devices * throughput,
        headers=(
            labels.word("scaling.col.devices"),
            labels.word("scaling.col.ideal"),
            labels.word("scaling.col.actual", efficiency=shown),
        ),
        rows=_throughput_rows(
            x_axis,
            devices,
            numbers,
            labels,
            throughput=throughput,
            slope=slope,
            entered=texts,
        ),
    )


_SAMPLES = 48
"""Points of the estimated curve between 1 device and the axis's end."""


def _estimate_plot(
    values: Mapping[str, Value | str | None], labels: Labels, numbers: _Numbers, x_axis: _Axis
) -> _LinePlot:
    devices = int(_input(values, "devices"))
    given: dict[str, Any] = {name: value for name, value in values.items() if value is not None}

    def at(count: int) -> Mapping[str, Value | None]:
        return estimate(**{**given, "devices": count}).values

    top = x_axis.top
    counts = sorted(
        {1, devices} | {max(1, round(top * k / _SAMPLES)) for k in range(1, _SAMPLES + 1)}
    )
    curve = tuple((Fraction(count), exact(at(count)["speedup"] or 0)) for count in counts)
    entered = at(devices)
    efficiency = entered["efficiency"] or 0
    shown = numbers.percent(efficiency)
    rows = []
    for count in _rows_at(x_axis, devices):
        result = at(count)
        first = numbers.number(count)
        rows.append(
            (
                labels.word("entered", value=first) if count == devices else first,
                numbers.percent(result["efficiency"] or 0),
                numbers.times(result["speedup"] or 0),
                numbers.times(count),
            )
        )
    return _LinePlot(
        title=labels.word("scaling.title.estimate"),
        desc=labels.word(
            "scaling.desc.estimate",
            efficiency=shown,
            devices=numbers.number(devices),
            speedup=numbers.times(entered["speedup"] or 0),
            ideal=numbers.times(devices),
            last=numbers.number(counts[-1]),
        ),
        x_title=labels.word("scaling.x"),
        y_title=labels.word("scaling.y.estimate"),
        y_top=top,
        series=(
            _Series(
                "calc-chart__ideal",
                ((Fraction(0), Fraction(0)), (top, top)),
                labels.word("scaling.ideal.estimate"),
            ),
            _Series(
                "calc-chart__constant",
                ((Fraction(0), Fraction(0)), (top, top * exact(efficiency) / 100)),
                labels.word("scaling.constant", efficiency=shown),
            ),
            _Series("calc-chart__estimated", curve, labels.word("scaling.estimated")),
        ),
        point=(Fraction(devices), exact(entered["speedup"] or 0)),
        point_legend=labels.word(
            "scaling.point.estimate",
            devices=numbers.number(devices),
            speedup=numbers.times(entered["speedup"] or 0),
        ),
        point_kind="calc-chart__point",
        guide=Fraction(devices),
        headers=(
            labels.word("scaling.col.devices"),
            labels.word("scaling.col.efficiency"),
            labels.word("scaling.col.speedup"),
            labels.word("scaling.col.ideal_speedup"),
        ),
        rows=tuple(rows),
    )


# ---------------------------------------------------------------- schedule

_MAX_ROWS = 12
"""Stages drawn at most; beyond, the first and last few, and a row that says so."""
_HEAD_ROWS, _TAIL_ROWS = 6, 5
_MAX_UNITS = 48
"""Passes drawn across at most before the busy middle of each phase is cut short."""
_KEEP = 3
"""Passes kept on each side of a cut."""
_GAP = 2
"""Width of a cut, in passes."""
_S_LEFT, _S_RIGHT, _S_TOP = 40, 392, 34
_ROW, _BAR = 24, 18
_LABELLED = 14
"""Width of a pass, in the drawing's units, from which boxes carry their micro-batch."""


@dataclass(frozen=True)
class _Timeline:
    """Where each instant of the step is drawn, with the busy middles cut short."""

    cuts: tuple[tuple[int, int], ...]
    drawn: Fraction
    """Width of the drawing, in passes, gaps included."""

    def position(self, time: int) -> Fraction:
        shift = Fraction(0)
        for start, end in self.cuts:
            if time >= end:
                shift += end - start - _GAP
        return time - shift

    def pieces(self, start: int, end: int) -> list[tuple[int, int]]:
        """The parts of [start, end) that are drawn."""
        parts = [(start, end)] if start < end else []
        for cut_start, cut_end in self.cuts:
            parts = [
                piece
                for low, high in parts
                for piece in ((low, min(high, cut_start)), (max(low, cut_end), high))
                if piece[0] < piece[1]
            ]
        return parts


def _timeline(stages: int, work: int) -> _Timeline:
    """The timeline of a step of ``work`` forward passes per stage on ``stages`` stages."""
    units = 2 * (work + stages - 1)
    # Every stage is busy from p−1 to v·m (forward) and from v·m + 2(p−1) to 2v·m + p−1.
    length = work - stages + 1
    if units <= _MAX_UNITS or length <= 2 * _KEEP + _GAP:
        return _Timeline((), Fraction(units))
    hidden = length - 2 * _KEEP
    first = stages - 1 + _KEEP
    second = work + 2 * (stages - 1) + _KEEP
    cuts = ((first, first + hidden), (second, second + hidden))
    return _Timeline(cuts, Fraction(units - 2 * (hidden - _GAP)))


def _drawn_stages(stages: int) -> list[int | None]:
    """0-based stages drawn, top to bottom; ``None`` for the row that stands for the rest."""
    if stages <= _MAX_ROWS:
        return list(range(stages))
    return [*range(_HEAD_ROWS), None, *range(stages - _TAIL_ROWS, stages)]


@dataclass
class _Schedule:
    """One pipeline schedule as drawn: p, m, v, where each instant goes, and the rows."""

    stages: int
    micro: int
    chunks: int
    numbers: _Numbers
    timeline: _Timeline = field(init=False)
    rows: list[int | None] = field(init=False)
    scale: Fraction = field(init=False)
    """Width of one pass in the drawing's units."""
    thin: bool = field(default=False, init=False)
    """Whether some stage's work was drawn wider than it lasts (a huge p)."""

    def __post_init__(self) -> None:
        self.timeline = _timeline(self.stages, self.work)
        self.rows = _drawn_stages(self.stages)
        self.scale = Fraction(_S_RIGHT - _S_LEFT) / self.timeline.drawn

    @property
    def work(self) -> int:
        """Forward passes of each stage per step, v·m; as many backward passes."""
        return self.chunks * self.micro

    def x(self, time: int) -> Fraction:
        return _S_LEFT + self.scale * self.timeline.position(time)

    def boxes(self, row_y: int, start: int, end: int, kind: str) -> str:
        out = []
        for low, high in self.timeline.pieces(start, end):
            width = self.x(high) - self.x(low)
            if width < 1 and kind != "calc-chart__idle":
                self.thin = True
                width = Fraction(1)
            out.append(
                f'<rect class="{kind}" x="{_n(self.x(low))}" y="{row_y}" width="{_n(width)}" '
                f'height="{_BAR}" stroke="currentColor" stroke-width="0.5"/>'
            )
        return "".join(out)

    def numbered(self, row_y: int, start: int, tone: str) -> str:
        """The micro-batch numbers of one chunk's drawn passes, where a box is wide enough."""
        if self.scale < _LABELLED:
            return ""
        texts = "".join(
            _tag(
                "text",
                {"x": _n(self.x(time) + self.scale / 2), "y": str(row_y + 13)},
                self.numbers.number(time - start + 1),
            )
            for low, high in self.timeline.pieces(start, start + self.micro)
            for time in range(low, high)
        )
        return (
            f'<g class="calc-chart__cell-label{tone}" font-size="11" text-anchor="middle">'
            f"{texts}</g>"
        )

    def drawn_chunks(self, start: int) -> list[int]:
        """The chunks, in time order, of a phase from ``start`` that are drawn at all."""
        seen: set[int] = set()
        for low, high in self.timeline.pieces(start, start + self.work):
            seen.update(range((low - start) // self.micro, (high - 1 - start) // self.micro + 1))
        return sorted(seen)

    def row(self, position: int, stage: int | None) -> str:
        """One stage's row: its number, its passes and its idle stretches."""
        row_y = _S_TOP + position * _ROW
        middle = str(row_y + _BAR // 2 + 4)
        if stage is None:
            return _tag(
                "text", {"x": str(_S_LEFT - 8), "y": middle, "text-anchor": "end"}, "⋮"
            ) + _tag(
                "text",
                {"x": str((_S_LEFT + _S_RIGHT) // 2), "y": middle, "text-anchor": "middle"},
                "⋮",
            )
        work, stages, micro = self.work, self.stages, self.micro
        backward = work + 2 * (stages - 1) - stage
        parts = [
            _tag(
                "text",
                {"x": str(_S_LEFT - 8), "y": middle, "text-anchor": "end"},
                self.numbers.number(stage + 1),
            ),
            self.boxes(row_y, 0, stage, "calc-chart__idle"),
            self.boxes(row_y, stage + work, backward, "calc-chart__idle"),
            self.boxes(row_y, backward + work, backward + work + stage, "calc-chart__idle"),
        ]
        # Forward passes chunk by chunk, then backward passes in reverse order of chunks;
        # chunks counted from 1, as the note says: the even ones darker.
        for phase, kind, first in ((stage, "forward", 0), (backward, "backward", self.chunks - 1)):
            for order in self.drawn_chunks(phase):
                chunk = abs(first - order)
                tone = " calc-chart__even" if chunk % 2 == 1 else ""
                start = phase + order * micro
                parts.append(self.boxes(row_y, start, start + micro, f"calc-chart__{kind}{tone}"))
                parts.append(self.numbered(row_y, start, tone))
        return "".join(parts)

    def drawing(self, figures: str, labels: Labels) -> tuple[int, str]:
        """The SVG's height and content: the figures, the axes, the rows and the cuts."""
        span = len(self.rows) * _ROW
        axis_y = _S_TOP + span + 2
        cuts = "".join(
            f'<path class="calc-chart__cut" d="M{_n(self.x(start) + 3)} {_S_TOP - 4}'
            f"l-3 {span + 4}M{_n(self.x(start) + 7)} {_S_TOP - 4}"
            f'l-3 {span + 4}" fill="none" stroke="currentColor"/>'
            for start, _ in self.timeline.cuts
        )
        centre = str((_S_LEFT + _S_RIGHT) // 2)
        content = (
            f'<g class="calc-chart__axes" fill="currentColor" font-size="{_FONT}">'
            + _tag(
                "text",
                {"class": "calc-chart__figures", "x": str(_S_RIGHT), "y": "16"}
                | {"text-anchor": "end"},
                figures,
            )
            + f'<path d="M{_S_LEFT} {axis_y}H{_S_RIGHT}m-6 -4l6 4l-6 4" fill="none" '
            'stroke="currentColor"/>'
            + _tag(
                "text",
                {"x": centre, "y": str(axis_y + 18), "text-anchor": "middle"},
                labels.word("schedule.x"),
            )
            + _tag("text", {"x": "4", "y": "16"}, labels.word("schedule.y"))
            + "".join(self.row(position, stage) for position, stage in enumerate(self.rows))
            + "</g>"
            + cuts
        )
        return _S_TOP + span + 30, content

    def notes(self, labels: Labels, beta: str, sigma: str) -> list[str]:
        """The conventions' figures in words, how the schedule is drawn, and what is not."""
        number = self.numbers.number
        notes = [
            labels.word("schedule.conventions", beta=beta, sigma=sigma),
            labels.word("schedule.order"),
        ]
        if self.chunks > 1:
            notes.append(labels.word("schedule.chunks", chunks=number(self.chunks)))
        for start, end in self.timeline.cuts[:1]:
            notes.append(
                labels.word(
                    "schedule.cut.time", hidden=number(end - start), total=number(self.work)
                )
            )
        if None in self.rows:
            notes.append(self.skipped(labels, "schedule.cut.stages"))
        if self.thin:
            notes.append(labels.word("schedule.thin"))
        return notes

    def skipped(self, labels: Labels, key: str) -> str:
        number = self.numbers.number
        return labels.word(key, first=number(_HEAD_ROWS + 1), last=number(self.stages - _TAIL_ROWS))

    def table(self, labels: Labels) -> str:
        """Each drawn stage's idle time, in slots: before, between and after its passes."""
        number, idle = self.numbers.number, self.numbers.number(self.stages - 1)
        rows = [
            (self.skipped(labels, "schedule.skipped"), "…", "…", "…", idle)
            if stage is None
            else (
                number(stage + 1),
                number(Fraction(stage, 2)),
                number(self.stages - 1 - stage),
                number(Fraction(stage, 2)),
                idle,
            )
            for stage in self.rows
        ]
        headers = [
            labels.word(f"schedule.col.{name}")
            for name in ("stage", "before", "middle", "after", "total")
        ]
        return _table(labels.prefix, labels.word("data"), headers, rows)


def schedule(
    mode: str, values: Mapping[str, Value | str | None], labels: Labels, notation: Notation
) -> str:
    """The schedule of a synchronous pipeline, stages × time, with its bubbles.

    Args:
        mode: ``bubble``, the pipeline calculator's one mode.
        values: ``stages`` p, ``micro_batches`` m and ``chunks`` v, accepted by
            :func:`calculator.calculators.pipeline_bubble.bubble`.
        labels: The page's words and number conventions.
        notation: How the page's language writes numbers.

    Returns:
        The chart as an HTML fragment. Stage i (from 0) runs its v·m forward
        passes from time i, and its backward passes, in reverse order of chunks,
        from v·m + 2(p−1) − i, each pass half a slot long (a slot is the forward
        and backward pass of one micro-batch on one chunk, t/v): it idles i half
        slots before, 2(p−1−i) between and i after, p−1 slots in all, as every
        synchronous schedule does. With more than 12 stages the first six and the
        last five are drawn; with more than 24 slots in a step, the middle of each
        phase, where every stage is busy, is cut short. A note says so.
    """
    del mode  # one mode
    numbers = _Numbers(notation, labels)
    stages, micro, chunks = (
        int(values[name] or 0) for name in ("stages", "micro_batches", "chunks")
    )
    drawn = _Schedule(stages, micro, chunks, numbers)
    result = bubble(stages=stages, micro_batches=micro, chunks=chunks).values
    beta = numbers.percent(result["bubble_overhead"] or 0)
    sigma = numbers.percent(result["idle_share"] or 0)
    height, content = drawn.drawing(f"β = {beta} · σ = {sigma}", labels)
    title = labels.word(
        "schedule.title",
        stages=numbers.number(stages),
        micro_batches=numbers.number(micro),
        chunks=numbers.number(chunks),
    )
    desc = labels.word(
        "schedule.desc",
        stages=numbers.number(stages),
        busy=numbers.number(drawn.work),
        idle=numbers.number(stages - 1),
        step=numbers.number(drawn.work + stages - 1),
        beta=beta,
        sigma=sigma,
    )
    svg = _svg(labels.prefix, _WIDTH, height, title=title, desc=desc, body=content)
    legend = _legend(
        [
            ("box", "calc-chart__forward", labels.word("schedule.forward")),
            ("box", "calc-chart__backward", labels.word("schedule.backward")),
            ("box", "calc-chart__idle", labels.word("schedule.idle")),
        ]
    )
    return _figure(
        labels.prefix,
        title,
        legend=legend,
        svg=svg,
        notes=drawn.notes(labels, beta, sigma),
        table=drawn.table(labels),
    )


# ---------------------------------------------------------------- registry

Chart = Callable[[str, Mapping[str, Value | str | None], Labels, Notation], str]

CHARTS: Mapping[str, Chart] = MappingProxyType(
    {"data-parallel-scaling": scaling, "pipeline-bubble": schedule}
)
"""The chart of each calculator that has one, by slug; it draws every mode."""


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
    draw = CHARTS.get(slug)
    if draw is None:
        return None
    return draw(mode, values, labels or Labels(), notation or PLAIN)
