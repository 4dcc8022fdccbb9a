"""Charts drawn by the core: their content for given inputs, and nothing else in them."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import chart_scaling, chart_schedule, charts, drawing, evaluate, get, run
from calculator.charts import WORDS, Labels, escape, render
from calculator.notation import Notation
from calculator.values import parse_inputs

NS = "{http://www.w3.org/2000/svg}"
FRENCH = Notation(decimal=",", group="\u202f")
ITALIAN = Notation(decimal=",", group=".")

ELEMENTS = {
    "p", "ul", "li", "svg", "g", "path", "line", "rect", "circle", "text", "title", "desc",
    "details", "summary", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
"""Every element a chart may hold: the page script keeps these and drops anything else."""
ATTRIBUTES = {
    "class", "id", "viewBox", "role", "aria-labelledby", "aria-hidden", "focusable", "width",
    "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "d", "fill", "stroke",
    "stroke-width", "stroke-dasharray", "font-size", "text-anchor", "scope", "tabindex",
}  # fmt: skip
"""The attributes the page script keeps (and ``xmlns``, which XML parsing consumes)."""


def parse(html: str) -> ET.Element:
    """The chart as XML: it must be well-formed, every text escaped."""
    return ET.fromstring(f"<root>{html}</root>")


def local(tag: str) -> str:
    return tag.removeprefix(NS)


def drawn(slug: str, mode: str, **values: str) -> str:
    spec = get(slug).mode(mode)
    raw = {**{k: v for k, v in spec.defaults().items() if v is not None}, **values}
    run(spec, raw)
    html = render(slug, mode, parse_inputs(spec, raw))
    assert html is not None
    return html


def texts(root: ET.Element, tag: str) -> list[str]:
    return ["".join(element.itertext()) for element in root.iter() if local(element.tag) == tag]


def table(root: ET.Element) -> list[list[str]]:
    return [
        ["".join(cell.itertext()) for cell in row] for row in root.iter() if local(row.tag) == "tr"
    ]


def svg(root: ET.Element) -> ET.Element:
    return next(
        element
        for element in root.iter()
        if local(element.tag) == "svg" and element.attrib.get("class") == "calc-chart__svg"
    )


def check_markup(html: str) -> ET.Element:
    """Well-formed, only the module's elements and attributes, the labels pointing at ids."""
    root = parse(html)
    ids = set()
    for element in root.iter():
        if element is root:
            continue
        assert local(element.tag) in ELEMENTS, element.tag
        assert set(element.attrib) <= ATTRIBUTES, element.attrib
        if "id" in element.attrib:
            assert element.attrib["id"] not in ids
            ids.add(element.attrib["id"])
    drawing = svg(root)
    assert drawing.attrib["role"] == "img"
    assert set(drawing.attrib["aria-labelledby"].split()) <= ids
    assert [local(child.tag) for child in drawing][:2] == ["title", "desc"]
    assert "style" not in html
    return root


# ---------------------------------------------------------------- data-parallel scaling


def test_predict_draws_the_ideal_and_actual_lines_through_the_entered_case() -> None:
    root = check_markup(drawn("data-parallel-scaling", "predict"))
    assert texts(root, "title") == ["Throughput against the number of devices"]
    assert texts(root, "desc") == [
        "Ideal throughput grows in proportion to the devices: 128,000 samples/s at d = 64. "
        "At E = 90% the cluster delivers 115,200 samples/s, and the gap widens with every "
        "device added."
    ]
    assert texts(root, "li") == [
        " Ideal: d·v",
        " At E = 90%",
        " Entered: d = 64, 115,200 samples/s",
    ]
    assert table(root) == [
        ["Devices d", "Ideal throughput, samples/s", "Throughput at E = 90%, samples/s"],
        ["20", "40,000", "36,000"],
        ["40", "80,000", "72,000"],
        ["60", "120,000", "108,000"],
        ["64 (entered)", "128,000", "115,200"],
        ["80", "160,000", "144,000"],
    ]
    ticks = [text for text in texts(root, "text") if text[:1].isdigit()]
    assert ticks == ["0", "50,000", "100,000", "150,000", "200,000", "0", "20", "40", "60", "80"]
    lines = {
        element.attrib["class"]: element.attrib["d"]
        for element in root.iter()
        if element.attrib.get("class", "").startswith("calc-chart__line")
    }
    # From the origin to x = 80 devices: 160,000 and 144,000 samples/s on a 200,000 axis.
    assert lines == {
        "calc-chart__line calc-chart__ideal": "M64 240L376 72",
        "calc-chart__line calc-chart__actual": "M64 240L376 88.8",
    }
    point = next(element for element in svg(root).iter() if local(element.tag) == "circle")
    assert (point.attrib["cx"], point.attrib["cy"]) == ("313.6", "119.04")


def test_measure_carries_the_measured_efficiency_and_a_super_linear_line() -> None:
    root = check_markup(drawn("data-parallel-scaling", "measure", measured="130000"))
    assert texts(root, "li")[1] == " At the measured E = 101.56%"
    assert table(root)[4] == ["64 (entered)", "128,000", "130,000"]
    # Above ideal: the y axis reaches the measured line's end, 80 × 130,000 / 64.
    ticks = [text for text in texts(root, "text") if text[:1].isdigit()]
    assert ticks[:5] == ["0", "50,000", "100,000", "150,000", "200,000"]
    assert "measured 130,000 samples/s are 101.56% of the ideal 128,000" in texts(root, "desc")[0]


def test_estimate_draws_the_speedup_with_an_efficiency_that_falls_with_the_devices() -> None:
    # One latency for every step, inside nodes and across them.
    case = {"latency": "3.4", "network_latency": "3.4", "devices": "1024"}
    html = drawn("data-parallel-scaling", "estimate", **case)
    root = check_markup(html)
    assert texts(root, "title") == ["Speedup against the number of devices, as estimated"]
    rows = table(root)
    assert rows[0] == ["Devices d", "Estimated efficiency Ê", "Estimated speedup", "Ideal speedup"]
    entered = next(row for row in rows if row[0] == "1,024 (entered)")
    spec = get("data-parallel-scaling").mode("estimate")
    defaults = {k: v for k, v in spec.defaults().items() if v is not None}
    result = run(spec, {**defaults, **case}).values
    assert entered == [
        "1,024 (entered)",
        f"{result['efficiency']:.2f}%",
        f"{result['speedup']:.2f}×",
        "1,024×",
    ]
    efficiencies = [float(row[1].rstrip("%")) for row in rows[1:]]
    assert efficiencies == sorted(efficiencies, reverse=True)
    assert efficiencies[0] < 100
    curve = next(
        element.attrib["d"]
        for element in root.iter()
        if element.attrib.get("class") == "calc-chart__line calc-chart__estimated"
    )
    # One point per sample and the entered one, from one device on.
    assert curve.count("L") >= chart_scaling._SAMPLES
    assert curve.startswith("M64.")
    desc = texts(root, "desc")[0]
    assert desc.startswith("The estimated efficiency falls from 100% on one device to ")
    assert desc.endswith("up to d = 1,500.")


def test_one_device_has_an_axis_of_whole_devices() -> None:
    root = check_markup(drawn("data-parallel-scaling", "predict", devices="1"))
    assert [row[0] for row in table(root)[1:]] == ["1 (entered)", "2"]


@pytest.mark.parametrize(
    ("values", "x_title", "y_title"),
    [
        (
            {"devices": "10000000", "throughput": "1e12", "efficiency": "100"},
            "Devices (× 10⁶)",
            "Throughput, samples/s (× 10¹⁸)",
        ),
        (
            {"devices": "1", "throughput": "1e-9", "efficiency": "0.5"},
            "Devices",
            "Throughput, samples/s (× 10⁻⁹)",
        ),
        (
            {"devices": "500000", "throughput": "1", "efficiency": "50"},
            "Devices",
            "Throughput, samples/s",
        ),
    ],
)
def test_axes_label_large_and_small_numbers_with_a_power_of_ten(
    values: dict[str, str], x_title: str, y_title: str
) -> None:
    root = check_markup(drawn("data-parallel-scaling", "predict", **values))
    all_texts = texts(root, "text")
    assert x_title in all_texts
    assert y_title in all_texts
    ticks = [text for text in all_texts if text[:1].isdigit()]
    assert max(len(text) for text in ticks) <= 7
    x_ticks = ticks[len(ticks) // 2 :]
    assert len(x_ticks) >= 3


def test_wide_tick_labels_get_fewer_ticks_and_never_collide() -> None:
    numbers = drawing.Numbers(charts.PLAIN, Labels())
    axis = drawing.fitting_axis(Fraction(625000), Fraction(312), numbers)
    widest = max(len(axis.label(numbers, tick)) for tick in axis.ticks)
    assert 312 / (len(axis.ticks) - 1) >= widest * 7.8 + 8
    # Nothing fits in 10 units: the last candidate, one interval, is taken anyway.
    fallback = drawing.fitting_axis(Fraction(625000), Fraction(10), numbers)
    assert len(fallback.ticks) == 2


# ---------------------------------------------------------------- pipeline schedule


def boxes(root: ET.Element, kind: str) -> list[ET.Element]:
    return [
        element
        for element in root.iter()
        if local(element.tag) == "rect" and kind in element.attrib.get("class", "").split()
    ]


def test_schedule_draws_every_stage_with_p_minus_1_idle_slots() -> None:
    root = check_markup(drawn("pipeline-bubble", "bubble"))
    assert texts(root, "title") == ["Pipeline schedule: p = 4, m = 8, v = 1"]
    assert "β = 37.5% · σ = 27.27%" in texts(root, "text")
    notes = texts(root, "p")[1:]
    assert notes[0] == (
        "β = 37.5% of the ideal compute time (Megatron-LM); σ = 27.27% of the step (GPipe)"
    )
    assert len(notes) == 2  # the conventions, the order: nothing cut
    assert table(root) == [
        [
            "Stage",
            "Idle before its first forward pass, slots",
            "Idle between its forward and backward passes, slots",
            "Idle after its last backward pass, slots",
            "Idle in all, slots",
        ],
        ["1", "0", "3", "0", "3"],
        ["2", "0.5", "2", "0.5", "3"],
        ["3", "1", "1", "1", "3"],
        ["4", "1.5", "0", "1.5", "3"],
    ]
    # One forward and one backward box per stage; idle boxes only where a stage waits.
    assert len(boxes(root, "calc-chart__forward")) == 4
    assert len(boxes(root, "calc-chart__backward")) == 4
    assert len(boxes(root, "calc-chart__idle")) == 1 + 3 + 3 + 2
    # Each box's width is its share of a step of 2 × (8 + 3) passes, on 352 units.
    unit = 352 / 22
    widths = [float(box.attrib["width"]) for box in boxes(root, "calc-chart__forward")]
    assert widths == [pytest.approx(8 * unit, abs=0.01)] * 4
    idle_total = sum(float(box.attrib["width"]) for box in boxes(root, "calc-chart__idle"))
    assert idle_total == pytest.approx(4 * 2 * 3 * unit, abs=0.05)
    # Wide enough boxes carry their micro-batch.
    assert texts(root, "text").count("8") == 8


def test_interleaved_chunks_are_shaded_in_turn_and_said_so() -> None:
    root = check_markup(drawn("pipeline-bubble", "bubble", chunks="2"))
    even = [
        box
        for box in boxes(root, "calc-chart__forward")
        if "calc-chart__even" in box.attrib["class"]
    ]
    assert len(even) == 4
    assert any("holds 2 chunks" in note for note in texts(root, "p"))
    assert table(root)[4] == ["4", "1.5", "0", "1.5", "3"]


def test_a_large_pipeline_is_drawn_shortened_and_says_so() -> None:
    root = check_markup(drawn("pipeline-bubble", "bubble", stages="16", micro_batches="128"))
    notes = texts(root, "p")
    assert any(
        "125 of the 128 forward passes" not in note and "of the 128 forward passes" in note
        for note in notes
    )
    assert "Stages 7 to 11 are not drawn; each idles as long as the stages shown." in notes
    rows = table(root)
    assert [row[0] for row in rows[1:]] == [
        "1", "2", "3", "4", "5", "6", "Stages 7 to 11", "12", "13", "14", "15", "16",
    ]  # fmt: skip
    assert rows[7] == ["Stages 7 to 11", "…", "…", "…", "15"]
    assert rows[-1] == ["16", "7.5", "0", "7.5", "15"]
    cuts = [e for e in root.iter() if e.attrib.get("class") == "calc-chart__cut"]
    assert len(cuts) == 2
    assert "⋮" in texts(root, "text")


def test_the_cut_keeps_every_idle_stretch_whole() -> None:
    timeline = chart_schedule._timeline(stages=4, work=100)
    # Every stage is busy from 3 to 100 (forward) and from 106 to 203 (backward).
    assert timeline.cuts == ((6, 97), (109, 200))
    # Idle stretches lie outside the cuts: drawn whole.
    for stage in range(4):
        for start, end in ((0, stage), (stage + 100, 106 - stage), (206 - stage, 206)):
            assert timeline.pieces(start, end) == ([(start, end)] if start < end else [])
    assert timeline.pieces(0, 206) == [(0, 6), (97, 109), (200, 206)]
    assert timeline.position(97) == 6 + chart_schedule._GAP
    assert timeline.drawn == 206 - 2 * (91 - chart_schedule._GAP)


def test_a_single_stage_never_idles() -> None:
    root = check_markup(drawn("pipeline-bubble", "bubble", stages="1", micro_batches="1"))
    assert boxes(root, "calc-chart__idle") == []
    assert table(root)[1] == ["1", "0", "0", "0", "0"]


def test_the_largest_pipeline_is_drawn_in_bounded_size() -> None:
    html = drawn(
        "pipeline-bubble", "bubble", stages="100000", micro_batches="1000000000", chunks="1000"
    )
    root = check_markup(html)
    assert len(html) < 40_000
    assert "Pipeline schedule: p = 100,000, m = 1,000,000,000, v = 1,000" in texts(root, "title")


def test_work_too_short_to_see_is_drawn_one_unit_wide_and_said_so() -> None:
    root = check_markup(drawn("pipeline-bubble", "bubble", stages="100000", micro_batches="1"))
    assert "At this scale a stage's work is drawn wider than it lasts." in texts(root, "p")
    widths = [float(box.attrib["width"]) for box in boxes(root, "calc-chart__forward")]
    assert set(widths) == {1.0}


# ---------------------------------------------------------------- words and numbers


def test_words_and_numbers_follow_the_page_language() -> None:
    labels = Labels(
        words={**WORDS, "scaling.title": "Débit selon le nombre d’accélérateurs"},
        percent="{value}\u00a0%",
        prefix="calc-x-chart",
    )
    html = render(
        "data-parallel-scaling",
        "predict",
        {"devices": 64, "throughput": 1234.5, "efficiency": 87.5},
        labels,
        FRENCH,
    )
    assert html is not None
    root = check_markup(html)
    assert texts(root, "title") == ["Débit selon le nombre d’accélérateurs"]
    assert table(root)[4] == ["64 (entered)", "79\u202f008", "69\u202f132"]
    assert " At E = 87,5\u00a0%" in texts(root, "li")
    assert 'id="calc-x-chart-title"' in html


def test_minimum_grouping_leaves_four_digits_ungrouped() -> None:
    labels = Labels(min_grouping=2)
    numbers = drawing.Numbers(ITALIAN, labels)
    assert [numbers.plain(text) for text in ("999", "1234", "12345.5", "1234567")] == [
        "999",
        "1234",
        "12.345,5",
        "1.234.567",
    ]
    assert drawing.Numbers(charts.PLAIN, Labels()).plain("1234") == "1,234"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, Labels()),
        ("not json", Labels()),
        ("[1, 2]", Labels()),
        ('{"words": [], "min_grouping": true, "percent": "%", "id": 5}', Labels()),
        ('{"min_grouping": 9, "percent": 7, "id": "!!!"}', Labels()),
        (
            '{"words": {"data": "Données", "nope": "x", "entered": 3}, "min_grouping": 2, '
            '"percent": "{value} %", "id": "Calc-A_b-1"}',
            Labels(
                words={"data": "Données", "nope": "x"},
                min_grouping=2,
                percent="{value} %",
                prefix="calc-ab-1",
            ),
        ),
    ],
)
def test_labels_keep_what_they_can_use(text: str | None, expected: Labels) -> None:
    assert Labels.from_json(text) == expected


def test_a_chart_takes_the_page_words_it_has_and_english_for_the_rest() -> None:
    english = chart_scaling.SCALING.words
    labels = Labels(words={"data": "Données", "nope": "x"}).for_chart(english)
    assert labels.words == {**english, "data": "Données"}
    assert labels.word("entered", value="7") == "7 (entered)"
    assert Labels().for_chart(english).word("data") == "The chart's numbers"


def test_every_word_of_every_declared_chart_is_in_words() -> None:
    for charts_of in charts.CHARTS.values():
        for chart in charts_of.values():
            assert dict(chart.words).items() <= dict(WORDS).items()
    assert set(charts.CHARTS) == {"data-parallel-scaling", "pipeline-bubble", "training-planner"}


def test_escape_drops_what_xml_refuses_and_escapes_the_rest() -> None:
    assert escape("a<b>&\"'\x00\x1b\ud800\ufffe z") == "a&lt;b&gt;&amp;&quot;&#39; z"


# ---------------------------------------------------------------- hostile words and values

HOSTILE = [
    "<script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "' onmouseover='alert(1)",
    "]]><!--",
    "&lt;img src=x onerror=alert(1)&gt;",
    "\x00\x08\x1f\ud800",
    "{devices}{throughput}<b>",
]


@pytest.mark.parametrize(
    ("slug", "mode"),
    [
        ("data-parallel-scaling", "predict"),
        ("data-parallel-scaling", "measure"),
        ("data-parallel-scaling", "estimate"),
        ("pipeline-bubble", "bubble"),
        ("training-planner", "check"),
    ],
)
@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_labels_stay_text(slug: str, mode: str, payload: str) -> None:
    labels = json.dumps(
        {
            "words": {key: payload + value for key, value in WORDS.items()},
            "percent": payload + "{value}",
            "id": payload,
            "min_grouping": 1,
        }
    )
    spec = get(slug).mode(mode)
    request = {k: v for k, v in spec.defaults().items() if v is not None}
    reply = json.loads(
        evaluate(
            slug,
            json.dumps({**request, "mode": mode}),
            json.dumps(
                {
                    "decimal": "<",
                    "group": "&",
                    "group_size": 3,
                    "minus": "'",
                }
            ),
            labels,
        )
    )
    assert reply["ok"], reply
    html = reply["chart"]
    root = check_markup(html)
    assert not re.search(r"<(?!/?(?:" + "|".join(ELEMENTS) + r")[\s/>])", html)
    for element in root.iter():
        assert not any(name.lower().startswith("on") for name in element.attrib)
    # The words arrive as text, whole, less what XML cannot hold.
    title = texts(root, "title")[0]
    assert title.startswith(drawing._NOT_XML.sub("", payload))
    assert title.endswith(("devices", "as estimated", "v = 1", "\u00a0GB"))


@settings(max_examples=60, deadline=None)
@given(
    st.text(max_size=40),
    st.sampled_from(sorted(WORDS)),
    st.integers(min_value=1, max_value=64),
    st.integers(min_value=1, max_value=64),
)
def test_any_word_in_any_place_leaves_the_chart_well_formed(
    text: str, key: str, stages: int, micro: int
) -> None:
    labels = Labels.from_json(json.dumps({"words": {key: text}, "id": text}))
    html = render(
        "pipeline-bubble", "bubble", {"stages": stages, "micro_batches": micro, "chunks": 1}, labels
    )
    assert html is not None
    check_markup(html)
    html = render(
        "data-parallel-scaling",
        "predict",
        {"devices": micro, "throughput": 1.5, "efficiency": 50},
        labels,
    )
    assert html is not None
    check_markup(html)


def test_values_from_the_address_bar_never_reach_a_chart() -> None:
    """Text that is no number is refused before anything is drawn."""
    reply = json.loads(
        evaluate(
            "pipeline-bubble",
            json.dumps({"stages": "<svg onload=alert(1)>", "micro_batches": "8", "chunks": "1"}),
            None,
            "{}",
        )
    )
    assert reply["ok"] is False
    assert "chart" not in reply


# ---------------------------------------------------------------- the boundary


def test_evaluate_adds_the_chart_only_when_asked() -> None:
    request = json.dumps({"stages": "4", "micro_batches": "8", "chunks": "1"})
    plain = json.loads(evaluate("pipeline-bubble", request))
    assert "chart" not in plain
    reply = json.loads(evaluate("pipeline-bubble", request, None, "{}"))
    assert reply["chart"] == drawn("pipeline-bubble", "bubble")
    assert {key: value for key, value in reply.items() if key != "chart"} == plain


def test_a_calculator_without_a_chart_replies_null() -> None:
    request = {
        k: v for k, v in get("effective-batch-size").mode(None).defaults().items() if v is not None
    }
    reply = json.loads(evaluate("effective-batch-size", json.dumps(request), None, "{}"))
    assert reply["ok"] is True
    assert reply["chart"] is None
    assert render("effective-batch-size", "global-batch", {}) is None


def test_a_chart_that_fails_to_draw_leaves_the_results(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> str:
        raise ZeroDivisionError

    monkeypatch.setattr("calculator.web.render", broken)
    request = json.dumps({"stages": "4", "micro_batches": "8", "chunks": "1"})
    reply = json.loads(evaluate("pipeline-bubble", request, None, "{}"))
    assert reply["ok"] is True
    assert reply["chart"] is None
    assert reply["outputs"]["idle_share"] == pytest.approx(27.2727, abs=1e-4)


def test_the_chart_reads_the_fields_in_the_page_notation() -> None:
    notation = json.dumps({"decimal": ",", "group": ".", "group_size": 3, "minus": "-"})
    request = json.dumps({"devices": "64", "throughput": "1.234,5", "efficiency": "87,5"})
    reply = json.loads(evaluate("data-parallel-scaling", request, notation, "{}"))
    assert reply["ok"], reply
    root = check_markup(reply["chart"])
    assert table(root)[4] == ["64 (entered)", "79.008", "69.132"]


def test_a_billion_micro_batches_are_drawn_at_once_numbered_where_drawn() -> None:
    root = check_markup(drawn("pipeline-bubble", "bubble", stages="2", micro_batches="1000000000"))
    numbers = [text for text in texts(root, "text") if text.replace(",", "").isdigit()]
    # Stage numbers, then each drawn pass's micro-batch: the first three and the last ones.
    assert "1,000,000,000" in numbers
    assert "500,000,000" not in numbers
    assert len(numbers) < 40
    assert any("of the 1,000,000,000 forward passes" in note for note in texts(root, "p"))
