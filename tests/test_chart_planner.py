"""The training planner's chart: memory per device and step time, each a bar of its parts.

Every number the chart writes is one of the check mode's outputs, rounded as the
results show it; the segments of each bar tile it from 0 to its total.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from hypothesis import given, settings

from calculator import evaluate, get, run
from calculator.chart_planner import MEMORY, PLANNER, STEP, WORDS
from calculator.charts import PLAIN, Labels, render
from calculator.drawing import Numbers, fitting_axis
from calculator.engine import display_decimal
from calculator.notation import Notation
from calculator.spec import Value
from calculator.values import parse_inputs
from tests.strategies import planner_layouts
from tests.test_charts import check_markup, local, table, texts

SLUG, MODE = "training-planner", "check"
CHECK = get(SLUG).mode(MODE)
OUTPUTS = {output.name: output for output in CHECK.outputs}
DEFAULTS = {name: value for name, value in CHECK.defaults().items() if value is not None}
FRENCH = Notation(decimal=",", group="\u202f")
LEFT, RIGHT = 16, 376
"""The bars' span in the drawing, as the module lays it out."""
UNITS = {MEMORY.name: "\u00a0GB", STEP.name: "\u00a0s"}


def drawn(**values: object) -> tuple[str, Mapping[str, Value | None], tuple[str, ...]]:
    """The chart of the default case changed by ``values``, with the check's outputs."""
    raw = {**DEFAULTS, **values}
    result = run(CHECK, raw)
    html = render(SLUG, MODE, parse_inputs(CHECK, raw))
    assert html is not None
    return html, result.values, result.warnings


def shown(name: str, value: Value | None) -> str:
    """An output as the results show it, in English, with its unit."""
    assert value is not None
    unit = UNITS[MEMORY.name] if OUTPUTS[name].unit == "GB" else UNITS[STEP.name]
    return PLAIN.grouped(display_decimal(OUTPUTS[name], value)) + unit


def panels(root: ET.Element) -> list[ET.Element]:
    """The two drawings, memory first."""
    found = [
        element
        for element in root.iter()
        if local(element.tag) == "svg" and element.attrib.get("class") == "calc-chart__svg"
    ]
    assert len(found) == 2
    return found


def segments(panel: ET.Element) -> list[tuple[str, Fraction, Fraction]]:
    """Each part drawn in a bar: (its class, where it starts, its width)."""
    return [
        (
            element.attrib["class"].split()[-1],
            Fraction(element.attrib["x"]),
            Fraction(element.attrib["width"]),
        )
        for element in panel.iter()
        if local(element.tag) == "rect"
    ]


def capacity_x(panel: ET.Element) -> Fraction:
    (line,) = (
        element for element in panel.iter() if element.attrib.get("class") == "calc-chart__capacity"
    )
    assert line.attrib["x1"] == line.attrib["x2"]
    return Fraction(line.attrib["x1"])


def legends(root: ET.Element) -> list[list[str]]:
    """Each legend's entries, as the reader sees them."""
    return [
        ["".join(item.itertext()).strip() for item in element if local(item.tag) == "li"]
        for element in root.iter()
        if element.attrib.get("class") == "calc-chart__legend"
    ]


# ---------------------------------------------------------------- known shapes


def test_the_default_layout_draws_its_memory_within_the_device_and_its_step() -> None:
    html, values, warnings = drawn()
    assert warnings == ()
    root = check_markup(html)
    memory, step = panels(root)
    for panel in (memory, step):
        assert panel.attrib["role"] == "img"
        assert [local(child.tag) for child in panel][:2] == ["title", "desc"]
    assert texts(root, "p")[0] == "Memory and step time: t = 8, p = 8, d = 1, v = 3"
    assert texts(memory, "title") == [
        f"Memory per device: {shown('memory', values['memory'])} of 80\u00a0GB"
    ]
    assert texts(step, "title") == [f"Step time: {shown('step_time', values['step_time'])}"]
    assert texts(memory, "desc")[0].startswith(
        f"A device of the first stage holds {shown('weights_memory', values['weights_memory'])} "
        "of weights, "
    )
    assert texts(memory, "desc")[0].endswith(
        f"{shown('memory', values['memory'])} of its 80\u00a0GB."
    )
    # Ticks of each axis, and its title.
    assert texts(memory, "text")[1:] == [
        "0",
        "20",
        "40",
        "60",
        "80",
        "Memory, GB",
    ]
    assert texts(step, "text")[1:] == ["0", "5", "10", "15", "Time, s"]
    # The parts in order, from the bar's start; the data-parallel traffic is 0 (d = 1).
    assert [kind for kind, _, _ in segments(memory)] == [
        "calc-chart__weights",
        "calc-chart__gradients",
        "calc-chart__optimizer",
        "calc-chart__activations",
    ]
    assert [kind for kind, _, _ in segments(step)] == [
        "calc-chart__compute",
        "calc-chart__idle",
        "calc-chart__tensor",
        "calc-chart__sends",
    ]
    # 80 GB at the axis's end; 5.645… GB of weights on 360 units for 80 GB.
    assert capacity_x(memory) == RIGHT
    assert segments(memory)[0] == ("calc-chart__weights", Fraction(LEFT), Fraction("25.4"))
    notes = texts(root, "p")[1:]
    assert notes == [
        "The parts of a step follow one another: this first-order model overlaps no traffic "
        "with compute, so all of the data-parallel traffic is exposed."
    ]


def test_the_legends_and_the_table_write_the_check_outputs_as_the_results_do() -> None:
    html, values, _ = drawn()
    root = check_markup(html)
    memory_legend, step_legend = legends(root)
    assert memory_legend == [
        *(
            f"{WORDS[part.word]}: {shown(part.output, values[part.output])}"
            for part in MEMORY.parts
        ),
        "Capacity: 80\u00a0GB",
    ]
    assert step_legend == [
        f"{WORDS[part.word]}: {shown(part.output, values[part.output])}" for part in STEP.parts
    ]
    rows = table(root)
    assert rows[0] == ["Part", "Amount"]
    assert rows[1:] == [
        *([WORDS[part.word], shown(part.output, values[part.output])] for part in MEMORY.parts),
        ["Memory per device", shown("memory", values["memory"])],
        ["Capacity", "80\u00a0GB"],
        *([WORDS[part.word], shown(part.output, values[part.output])] for part in STEP.parts),
        ["Step time", shown("step_time", values["step_time"])],
    ]


def test_a_layout_that_does_not_fit_passes_the_capacity_line_and_says_so() -> None:
    html, values, warnings = drawn(memory="40")
    assert warnings == ("out_of_memory",)
    root = check_markup(html)
    memory, _ = panels(root)
    total = shown("memory", values["memory"])
    assert texts(memory, "title") == [f"Memory per device: {total}, more than 40\u00a0GB"]
    assert texts(memory, "desc")[0].endswith(f"{total}, more than its 40\u00a0GB.")
    assert texts(root, "p")[1] == (
        f"Does not fit: {total} needed against 40\u00a0GB; the bar passes the line by what the "
        "device lacks."
    )
    # The axis reaches the need, 64.1 GB (0 to 80 by 20); the line stands at 40 GB, mid-bar.
    assert texts(memory, "text")[-2] == "80"
    _, start, width = segments(memory)[-1]
    assert capacity_x(memory) == (LEFT + RIGHT) // 2
    assert start + width > capacity_x(memory)
    assert table(root)[6] == ["Capacity", "40\u00a0GB"]


def test_a_part_that_takes_no_time_is_listed_but_not_drawn() -> None:
    html, values, _ = drawn(tensor="1", pipeline="1", interleave="1", devices="8", zero="3")
    assert values["tensor_time"] == values["pipeline_time"] == values["bubble_time"] == 0
    root = check_markup(html)
    _, step = panels(root)
    assert [kind for kind, _, _ in segments(step)] == [
        "calc-chart__compute",
        "calc-chart__reduction",
    ]
    assert legends(root)[1][1] == "Pipeline bubble: 0\u00a0s"


def test_huge_and_tiny_amounts_are_written_in_a_power_of_ten_on_the_axis() -> None:
    html, _, _ = drawn(memory="1e9")
    memory, _ = panels(check_markup(html))
    assert "Memory, GB (× 10⁶)" in texts(memory, "text")
    assert capacity_x(memory) == RIGHT
    # The capacity is written as entered, to its last digit.
    html, _, _ = drawn(memory="0.001")
    assert legends(check_markup(html))[0][-1] == "Capacity: 0.001\u00a0GB"
    html, values, _ = drawn(
        layers="24", hidden="64", heads="8", vocabulary="100", sequence="16", global_batch="64"
    )
    assert values["step_time"] is not None
    assert values["step_time"] < 1
    _, step = panels(check_markup(html))
    assert any(text.startswith("Time, s (× 10⁻") for text in texts(step, "text"))


def test_words_and_numbers_follow_the_page_language() -> None:
    labels = Labels(
        words={
            "planner.gb": "{value}\u00a0Go",
            "planner.part": "{part}\u00a0: {amount}",
            "planner.weights": "Poids",
        },
        prefix="calc-training-planner-check-chart",
    )
    html = render(SLUG, MODE, parse_inputs(CHECK, DEFAULTS), labels, FRENCH)
    assert html is not None
    root = check_markup(html)
    _, values, _ = drawn()
    weights = display_decimal(OUTPUTS["weights_memory"], values["weights_memory"] or 0)
    assert legends(root)[0][0] == f"Poids\u00a0: {FRENCH.grouped(weights)}\u00a0Go"
    ids = {element.attrib["id"] for element in root.iter() if "id" in element.attrib}
    assert {
        "calc-training-planner-check-chart-memory-title",
        "calc-training-planner-check-chart-step-desc",
        "calc-training-planner-check-chart-table",
    } <= ids


# ---------------------------------------------------------------- words


def test_each_part_is_named_as_the_check_names_its_output() -> None:
    """The parts' words are the outputs' labels: translated once, and never apart."""
    for panel in (MEMORY, STEP):
        for part in panel.parts:
            assert WORDS[part.word] == OUTPUTS[part.output].label
        assert WORDS[f"planner.total.{panel.name}"] == OUTPUTS[panel.total].label


def test_every_word_of_the_chart_is_drawn_in_some_case() -> None:
    marked = Labels(words={key: f"«{key}»{text}" for key, text in PLANNER.words.items()})
    html = "".join(
        render(SLUG, MODE, parse_inputs(CHECK, {**DEFAULTS, **case}), marked) or ""
        for case in ({}, {"memory": "40"})
    )
    used = {key for key in PLANNER.words if f"«{key}»" in html}
    assert used == set(WORDS) | {"data"}


# ---------------------------------------------------------------- the boundary


def test_the_page_gets_the_chart_with_its_results_and_none_for_a_refused_layout() -> None:
    reply = json.loads(evaluate(SLUG, json.dumps({**DEFAULTS, "mode": MODE}), None, "{}"))
    assert reply["ok"], reply
    assert reply["chart"] == drawn()[0]
    refused = json.loads(
        evaluate(SLUG, json.dumps({**DEFAULTS, "mode": MODE, "devices": "60"}), None, "{}")
    )
    assert refused["ok"] is False
    assert "chart" not in refused


# ---------------------------------------------------------------- any valid layout


@settings(max_examples=60, deadline=None)
@given(planner_layouts())
def test_any_valid_layout_draws_bars_whose_parts_add_up_to_their_totals(
    request: dict[str, Any],
) -> None:
    result = run(CHECK, request)
    values = result.values
    html = render(SLUG, MODE, parse_inputs(CHECK, request))
    assert html is not None
    root = check_markup(html)
    numbers = Numbers(PLAIN, Labels())
    capacity = Fraction(repr(float(request["memory"])))
    for panel, drawing, legend in zip((MEMORY, STEP), panels(root), legends(root), strict=True):
        total = Fraction(repr(values[panel.total]))
        top = max(total, capacity) if panel is MEMORY else total
        axis = fitting_axis(top, Fraction(RIGHT - LEFT), numbers, integer=False)
        parts = segments(drawing)
        # The parts tile the bar from its start, each as long as its share of the axis.
        position = Fraction(LEFT)
        for _, start, width in parts:
            assert start == position
            position += width
        end = LEFT + (RIGHT - LEFT) * total / axis.top
        assert abs(position - end) <= Fraction(1, 50)
        drawn_parts = [part for part in panel.parts if values[part.output]]
        assert [kind for kind, _, _ in parts] == [part.kind for part in drawn_parts]
        for part, (_, _, width) in zip(drawn_parts, parts, strict=True):
            share = (RIGHT - LEFT) * Fraction(repr(values[part.output])) / axis.top
            assert abs(width - share) <= Fraction(1, 50)
        # Every amount written is the check's output, rounded as the results show it.
        assert legend[: len(panel.parts)] == [
            f"{WORDS[part.word]}: {shown(part.output, values[part.output])}" for part in panel.parts
        ]
    memory = panels(root)[0]
    if "out_of_memory" in result.warnings:
        assert capacity_x(memory) < sum(width for _, _, width in segments(memory)) + LEFT + 1
    else:
        assert capacity_x(memory) >= LEFT
