"""The chart of the training planner's check: where a device's memory and a step's time go.

Two small panels, one above the other, each a legend with the numbers and a horizontal
bar stacked from the check mode's own outputs: the memory of a device of the first
stage (weights, gradients, optimizer states, activations) against the device's memory,
a line across the bar; and the step (compute, pipeline bubble, tensor-parallel,
pipeline and data-parallel traffic), whose parts the first-order model adds one after
another. Each panel is its own ``<svg role="img">`` so that its legend sits beside it:
on a phone a bar's colours are read from the lines just above it, not from a list of
ten keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from .decimals import exact, plain
from .drawing import (
    FONT,
    SHARED_WORDS,
    WIDTH,
    Labels,
    Numbers,
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
from .spec import Chart, Mode, Value

__all__ = ["PLANNER", "planner"]

WORDS: Mapping[str, str] = MappingProxyType(
    {
        "planner.title": (
            "Memory and step time: t = {tensor}, p = {pipeline}, d = {data_parallel}, "
            "v = {interleave}"
        ),
        "planner.memory": "Memory per device: {total} of {capacity}",
        "planner.memory.over": "Memory per device: {total}, more than {capacity}",
        "planner.step": "Step time: {total}",
        "planner.axis.memory": "Memory, GB",
        "planner.axis.step": "Time, s",
        "planner.gb": "{value}\u00a0GB",
        "planner.s": "{value}\u00a0s",
        "planner.part": "{part}: {amount}",
        "planner.weights": "Weights",
        "planner.gradients": "Gradients",
        "planner.optimizer": "Optimizer states",
        "planner.activations": "Activations",
        "planner.capacity": "Capacity",
        "planner.compute": "Compute",
        "planner.bubble": "Pipeline bubble",
        "planner.tensor": "Tensor-parallel traffic",
        "planner.pipeline": "Pipeline traffic",
        "planner.data": "Data-parallel traffic",
        "planner.total.memory": "Memory per device",
        "planner.total.step": "Step time",
        "planner.desc.memory": (
            "A device of the first stage holds {weights} of weights, {gradients} of "
            "gradients, {optimizer} of optimizer states and {activations} of activations: "
            "{total} of its {capacity}."
        ),
        "planner.desc.memory.over": (
            "A device of the first stage would hold {weights} of weights, {gradients} of "
            "gradients, {optimizer} of optimizer states and {activations} of activations: "
            "{total}, more than its {capacity}."
        ),
        "planner.desc.step": (
            "A step takes {total}: {compute} of compute, {bubble} of pipeline bubble, "
            "{tensor} of tensor-parallel traffic, {pipeline} of pipeline traffic and "
            "{data} of data-parallel traffic."
        ),
        "planner.over": (
            "Does not fit: {total} needed against {capacity}; the bar passes the line by "
            "what the device lacks."
        ),
        "planner.added": (
            "The parts of a step follow one another: this first-order model overlaps no "
            "traffic with compute, so all of the data-parallel traffic is exposed."
        ),
        "planner.col.part": "Part",
        "planner.col.amount": "Amount",
    }
)
"""The chart's words in English, by key; ``{name}`` marks a number.

The parts' names are the check mode's output labels, so that each is translated once;
``tests/test_chart_planner.py`` holds them equal."""


@dataclass(frozen=True)
class _Part:
    """One segment of a bar: a check output, its class and its name."""

    output: str
    kind: str
    """CSS class of its segment and legend key."""
    word: str


@dataclass(frozen=True)
class _Panel:
    """One bar: its parts in order, the output they add up to, its words and unit."""

    name: str
    """Suffix of the panel's ids, and of its words' keys."""
    parts: tuple[_Part, ...]
    total: str
    unit: str
    """Key of the template that writes an amount with its unit."""


MEMORY = _Panel(
    "memory",
    (
        _Part("weights_memory", "calc-chart__weights", "planner.weights"),
        _Part("gradients_memory", "calc-chart__gradients", "planner.gradients"),
        _Part("optimizer_memory", "calc-chart__optimizer", "planner.optimizer"),
        _Part("activation_memory", "calc-chart__activations", "planner.activations"),
    ),
    total="memory",
    unit="planner.gb",
)
STEP = _Panel(
    "step",
    (
        _Part("compute_time", "calc-chart__compute", "planner.compute"),
        # The pipeline schedule's class: the bubble looks the same on both pages.
        _Part("bubble_time", "calc-chart__idle", "planner.bubble"),
        _Part("tensor_time", "calc-chart__tensor", "planner.tensor"),
        _Part("pipeline_time", "calc-chart__sends", "planner.pipeline"),
        _Part("data_time", "calc-chart__reduction", "planner.data"),
    ),
    total="step_time",
    unit="planner.s",
)

_HEIGHT = 104
_LEFT, _RIGHT = 16, 376
"""The bar's span: room on either side for a tick's label centred on its end."""
_HEAD_Y, _BAR_TOP, _BAR = 16, 28, 28
_MARK = 6
"""How far the capacity line reaches above and below the bar."""
_AXIS_Y = _BAR_TOP + _BAR + 4
_TICK = 4


def _snap(value: Fraction) -> Fraction:
    """A coordinate as written: segments drawn from written ends tile without a gap."""
    return Fraction(coordinate(value))


@dataclass(frozen=True)
class _Drawn:
    """A check's outputs, as numbers and as the page writes them with their units."""

    values: Mapping[str, Value | None]
    digits: Mapping[str, int]
    numbers: Numbers
    labels: Labels

    def exact(self, name: str) -> Fraction:
        return exact(self.values[name] or 0)

    def amount(self, name: str, unit: str) -> str:
        """An output rounded as the results show it, with its unit."""
        return self.labels.word(
            unit, value=self.numbers.number(self.exact(name), self.digits[name])
        )


def _panel_svg(
    panel: _Panel, drawn: _Drawn, *, heading: str, desc: str, capacity: Fraction | None
) -> str:
    """One bar: its heading, the stacked parts, the capacity line if any, and its axis."""
    labels, numbers = drawn.labels, drawn.numbers
    top = max(drawn.exact(panel.total), capacity or Fraction(0))
    scale = fitting_axis(top, Fraction(_RIGHT - _LEFT), numbers, integer=False)

    def x(value: Fraction) -> Fraction:
        return _snap(_LEFT + (_RIGHT - _LEFT) * value / scale.top)

    segments, reached = [], Fraction(0)
    for part in panel.parts:
        value = drawn.exact(part.output)
        start, reached = x(reached), reached + value
        if value:
            # The bubble keeps the schedule's dashed edge; the others a hairline of the page.
            hairline = "" if part.kind == "calc-chart__idle" else "calc-chart__segment "
            segments.append(
                f'<rect class="{hairline}{part.kind}" x="{coordinate(start)}" y="{_BAR_TOP}" '
                f'width="{coordinate(x(reached) - start)}" height="{_BAR}" '
                'stroke="currentColor" stroke-width="1"/>'
            )
    mark = ""
    if capacity is not None:
        at, y1, y2 = coordinate(x(capacity)), str(_BAR_TOP - _MARK), str(_BAR_TOP + _BAR + _MARK)
        # A halo of the page's colour keeps the line apart from the segment it crosses.
        mark = "".join(
            f'<line class="{kind}" x1="{at}" y1="{y1}" x2="{at}" y2="{y2}" '
            f'stroke="currentColor" stroke-width="{width}"/>'
            for kind, width in (("calc-chart__halo", 5), ("calc-chart__capacity", 2))
        )
    ticks = "".join(f"M{coordinate(x(tick))} {_AXIS_Y}v{_TICK}" for tick in scale.ticks)
    tick_labels = "".join(
        tag(
            "text",
            {"x": coordinate(x(tick)), "y": str(_AXIS_Y + _TICK + 14), "text-anchor": "middle"},
            scale.label(numbers, tick),
        )
        for tick in scale.ticks
    )
    axes = (
        f'<g class="calc-chart__axes" fill="currentColor" font-size="{FONT}">'
        + tag("text", {"class": "calc-chart__figures", "x": "0", "y": str(_HEAD_Y)}, heading)
        + f'<path d="M{_LEFT} {_AXIS_Y}H{_RIGHT}{ticks}" fill="none" stroke="currentColor"/>'
        + tick_labels
        + tag(
            "text",
            {"x": str((_LEFT + _RIGHT) // 2), "y": str(_HEIGHT - 4), "text-anchor": "middle"},
            scale.title(labels.word(f"planner.axis.{panel.name}")),
        )
        + "</g>"
    )
    return svg_root(
        f"{labels.prefix}-{panel.name}",
        WIDTH,
        _HEIGHT,
        title=heading,
        desc=desc,
        body=axes + "".join(segments) + mark,
    )


def _legend(panel: _Panel, drawn: _Drawn, extra: tuple[str, str, str] | None = None) -> str:
    """The panel's parts, each with its amount, in the order they are stacked."""
    labels = drawn.labels
    entries = [
        (
            "box",
            part.kind,
            labels.word(
                "planner.part",
                part=labels.word(part.word),
                amount=drawn.amount(part.output, panel.unit),
            ),
        )
        for part in panel.parts
    ]
    return legend_box(entries + ([extra] if extra else []))


def planner(
    mode: Mode, values: Mapping[str, Value | str | None], labels: Labels, notation: Notation
) -> str:
    """Memory per device and step time of one layout, each a bar of its parts.

    Args:
        mode: ``check``, the training planner's mode that checks one layout, whose
            compute function gives every number the chart writes.
        values: Its parsed inputs, accepted by :func:`calculator.calculators.
            training_planner.check`.
        labels: The page's words and number conventions.
        notation: How the page's language writes numbers.

    Returns:
        The chart as an HTML fragment: a title naming the layout, then two panels,
        each a legend with every part's amount and a bar of the parts stacked in that
        order on an axis from 0. The memory bar is drawn against the device's memory,
        a line across it; a layout that does not fit passes that line, as the check's
        ``out_of_memory`` warning says, and a note says so. Amounts are
        rounded as the results show them; the table under the drawing lists them all.
    """
    result = mode.compute(**values)
    numbers = Numbers(notation, labels)
    drawn = _Drawn(
        values=result.values,
        digits={output.name: output.digits for output in mode.outputs},
        numbers=numbers,
        labels=labels,
    )
    capacity = exact(input_number(values, "memory"))
    # Written as entered, every digit: the least memory allowed is 0.001 GB.
    capacity_text = labels.word(MEMORY.unit, value=numbers.plain(plain(capacity)))
    over = "out_of_memory" in result.warnings

    def amounts(panel: _Panel) -> dict[str, str]:
        shown = {
            part.word.removeprefix("planner."): drawn.amount(part.output, panel.unit)
            for part in panel.parts
        }
        return shown | {"total": drawn.amount(panel.total, panel.unit)}

    memory, step = amounts(MEMORY), amounts(STEP)
    memory_svg = _panel_svg(
        MEMORY,
        drawn,
        heading=labels.word(
            "planner.memory.over" if over else "planner.memory",
            total=memory["total"],
            capacity=capacity_text,
        ),
        desc=labels.word(
            "planner.desc.memory.over" if over else "planner.desc.memory",
            **memory,
            capacity=capacity_text,
        ),
        capacity=capacity,
    )
    step_svg = _panel_svg(
        STEP,
        drawn,
        heading=labels.word("planner.step", total=step["total"]),
        desc=labels.word("planner.desc.step", **step),
        capacity=None,
    )
    capacity_key = (
        "line",
        "calc-chart__capacity",
        labels.word("planner.part", part=labels.word("planner.capacity"), amount=capacity_text),
    )
    notes = [labels.word("planner.added")]
    if over:
        notes.insert(0, labels.word("planner.over", total=memory["total"], capacity=capacity_text))
    rows = [
        *(
            (labels.word(part.word), drawn.amount(part.output, MEMORY.unit))
            for part in MEMORY.parts
        ),
        (labels.word("planner.total.memory"), memory["total"]),
        (labels.word("planner.capacity"), capacity_text),
        *((labels.word(part.word), drawn.amount(part.output, STEP.unit)) for part in STEP.parts),
        (labels.word("planner.total.step"), step["total"]),
    ]
    table = data_table(
        labels.prefix,
        labels.word("data"),
        [labels.word("planner.col.part"), labels.word("planner.col.amount")],
        rows,
    )
    title = labels.word(
        "planner.title",
        **{
            name: numbers.number(input_number(values, name))
            for name in ("tensor", "pipeline", "interleave")
        },
        data_parallel=numbers.number(result.values["data_parallel"] or 0),
    )
    # Each panel's legend just above its bar: figure() takes the first as the chart's.
    return figure(
        labels.prefix,
        title,
        legend=_legend(MEMORY, drawn, capacity_key),
        svg=memory_svg + _legend(STEP, drawn) + step_svg,
        notes=notes,
        table=table,
    )


PLANNER = Chart(draw=planner, words=MappingProxyType({**SHARED_WORDS, **WORDS}))
"""The chart the training planner's check mode declares."""
