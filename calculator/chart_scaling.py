"""The chart of data-parallel scaling: throughput, or speedup, against the devices.

Every mode draws the ideal line and the entered case; ``predict`` and
``measure`` draw throughput in samples/s with the line at the efficiency
entered or measured, ``estimate`` draws the speedup with the curve d·Ê(d) of
the all-reduce model. Every point comes from the mode's own compute function.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from .decimals import exact
from .drawing import (
    FONT,
    SHARED_WORDS,
    WIDTH,
    Axis,
    Labels,
    Numbers,
    axis,
    coordinate,
    data_table,
    figure,
    fitting_axis,
    input_number,
    legend_box,
    svg_root,
    tag,
)
from .notation import Notation
from .spec import Chart, Compute, Mode, Value

__all__ = ["SCALING", "scaling"]

WORDS: Mapping[str, str] = MappingProxyType(
    {
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
    }
)
"""The chart's words in English, by key; ``{name}`` marks a number."""


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


_HEIGHT = 290
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 376, 30, 240


def _draw_lines(plot: _LinePlot, labels: Labels, numbers: Numbers, x_axis: Axis) -> str:
    y_axis = axis(plot.y_top, 5, integer=False)
    width, height = Fraction(_RIGHT - _LEFT), Fraction(_BOTTOM - _TOP)

    def x(value: Fraction) -> Fraction:
        return _LEFT + width * value / x_axis.top

    def y(value: Fraction) -> Fraction:
        return _BOTTOM - height * value / y_axis.top

    grid = "".join(
        f'<line x1="{_LEFT}" y1="{coordinate(y(tick))}" x2="{_RIGHT}" y2="{coordinate(y(tick))}"/>'
        for tick in y_axis.ticks[1:]
    )
    y_labels = "".join(
        tag(
            "text",
            {"x": str(_LEFT - 6), "y": coordinate(y(tick) + 4), "text-anchor": "end"},
            y_axis.label(numbers, tick),
        )
        for tick in y_axis.ticks
    )
    x_labels = "".join(
        tag(
            "text",
            {"x": coordinate(x(tick)), "y": str(_BOTTOM + 18), "text-anchor": "middle"},
            x_axis.label(numbers, tick),
        )
        for tick in x_axis.ticks
    )
    axes = (
        f'<g class="calc-chart__grid" stroke="currentColor" stroke-width="0.5">{grid}</g>'
        f'<g class="calc-chart__axes" fill="currentColor" font-size="{FONT}">'
        f'<path d="M{_LEFT} {_TOP}V{_BOTTOM}H{_RIGHT}" fill="none" stroke="currentColor"/>'
        + y_labels
        + x_labels
        + tag(
            "text",
            {"x": str((_LEFT + _RIGHT) // 2), "y": str(_HEIGHT - 6), "text-anchor": "middle"},
            x_axis.title(plot.x_title),
        )
        + tag("text", {"x": "0", "y": "14"}, y_axis.title(plot.y_title))
        + "</g>"
    )
    lines = "".join(
        f'<path class="calc-chart__line {series.kind}" fill="none" stroke="currentColor" '
        f'stroke-width="2" d="'
        + "".join(
            f"{'M' if index == 0 else 'L'}{coordinate(x(px))} {coordinate(y(py))}"
            for index, (px, py) in enumerate(series.points)
        )
        + '"/>'
        for series in plot.series
    )
    px, py = x(plot.point[0]), y(plot.point[1])
    guide = (
        f'<line class="calc-chart__guide" x1="{coordinate(px)}" y1="{coordinate(y(plot.guide))}" '
        f'x2="{coordinate(px)}" y2="{coordinate(py)}" '
        'stroke="currentColor" stroke-dasharray="3 3"/>'
    )
    point = (
        f'<g class="{plot.point_kind}"><circle cx="{coordinate(px)}" cy="{coordinate(py)}" r="5" '
        f'stroke="currentColor" stroke-width="2"/></g>'
    )
    svg = svg_root(
        labels.prefix,
        WIDTH,
        _HEIGHT,
        title=plot.title,
        desc=plot.desc,
        body=axes + lines + guide + point,
    )
    legend = legend_box(
        [("line", series.kind, series.legend) for series in plot.series]
        + [("point", plot.point_kind, plot.point_legend)]
    )
    table = data_table(labels.prefix, labels.word("data"), plot.headers, plot.rows)
    return figure(labels.prefix, plot.title, legend=legend, svg=svg, notes=(), table=table)


def _rows_at(x_axis: Axis, devices: int) -> list[int]:
    """The device counts the table lists: every tick but 0, and the entered one."""
    return sorted({int(tick) for tick in x_axis.ticks[1:]} | {devices})


def scaling(
    mode: Mode, values: Mapping[str, Value | str | None], labels: Labels, notation: Notation
) -> str:
    """Throughput against the number of devices, for one mode of data-parallel scaling.

    Args:
        mode: The mode drawn, ``predict``, ``measure`` or ``estimate``, whose
            compute function gives every point of the chart.
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
    numbers = Numbers(notation, labels)
    devices = int(input_number(values, "devices"))
    x_top = max(Fraction(devices * 5, 4), Fraction(2))
    x_axis = fitting_axis(x_top, Fraction(_RIGHT - _LEFT), numbers)
    plot = {"predict": _predict_plot, "measure": _measure_plot, "estimate": _estimate_plot}[
        mode.name
    ](mode.compute, values, labels, numbers, x_axis)
    return _draw_lines(plot, labels, numbers, x_axis)


def _throughput_rows(
    x_axis: Axis,
    devices: int,
    numbers: Numbers,
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
    compute: Compute,
    values: Mapping[str, Value | str | None],
    labels: Labels,
    numbers: Numbers,
    x_axis: Axis,
) -> _LinePlot:
    devices, throughput = (
        int(input_number(values, "devices")),
        exact(input_number(values, "throughput")),
    )
    efficiency = exact(input_number(values, "efficiency"))
    result = compute(
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
    compute: Compute,
    values: Mapping[str, Value | str | None],
    labels: Labels,
    numbers: Numbers,
    x_axis: Axis,
) -> _LinePlot:
    devices, throughput = (
        int(input_number(values, "devices")),
        exact(input_number(values, "throughput")),
    )
    measured = exact(input_number(values, "measured"))
    result = compute(
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
    numbers: Numbers,
    x_axis: Axis,
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
    compute: Compute,
    values: Mapping[str, Value | str | None],
    labels: Labels,
    numbers: Numbers,
    x_axis: Axis,
) -> _LinePlot:
    devices = int(input_number(values, "devices"))
    given: dict[str, Any] = {name: value for name, value in values.items() if value is not None}

    def at(count: int) -> Mapping[str, Value | None]:
        return compute(**{**given, "devices": count}).values

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


SCALING = Chart(draw=scaling, words=MappingProxyType({**SHARED_WORDS, **WORDS}))
"""The chart every mode of data-parallel scaling declares."""
