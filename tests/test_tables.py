"""List outputs' links and headings, and presets: declarations refuse what cannot work.

A table's ``related`` gives, per row, cases of other calculators; every such case the
planner's search gives must be one its target computes without an error, for any
search the planner answers (a hypothesis property over small clusters).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import get, run
from calculator.engine import heading_unit, related_rows
from calculator.errors import SpecError
from calculator.spec import Choice, Input, Mode, Option, Output, Preset, Presets, Result, Table
from calculator.values import parse_inputs

PLANNER = get("training-planner")
SEARCH = PLANNER.mode("search")
(PLANS,) = SEARCH.tables

COUNT = Input(name="count", label="Devices", unit="devices", default=1, maximum=10, integer=True)
SIZE = Input(name="size", label="Size", unit="GB", default=1, maximum=10)
PICK = Choice(
    name="pick",
    label="Pick",
    options=(Option(value="a", label="A"), Option(value="b", label="B")),
    default="a",
)
SHARE = Output(name="share", label="Share", style="percent")


def _mode(**extra: Any) -> Mode:
    return Mode(
        name="m",
        label="M",
        inputs=(COUNT, SIZE, PICK),
        outputs=(SHARE,),
        compute=lambda **_: Result(values={"share": 1}),
        **extra,
    )


@pytest.mark.parametrize(
    ("column", "unit"),
    [
        (COUNT, ""),  # "Devices" already says devices
        (SIZE, "GB"),
        (PICK, ""),
        (SHARE, "%"),
        (Output(name="time", label="Time", unit="s"), "s"),
        (Output(name="factor", label="Speedup", style="multiplier"), "×"),
    ],
)
def test_heading_unit_is_shown_unless_the_label_says_it(column: Any, unit: str) -> None:
    assert heading_unit(column) == unit


def test_table_related_and_opens_go_together() -> None:
    with pytest.raises(SpecError, match="related and opens"):
        Table(name="t", label="T", columns=(SIZE,), limit=2, opens=("a/b",))
    with pytest.raises(SpecError, match="related and opens"):
        Table(name="t", label="T", columns=(SIZE,), limit=2, related=lambda inputs, row: {})
    with pytest.raises(SpecError, match="related and opens"):
        Table(
            name="t",
            label="T",
            columns=(SIZE,),
            limit=2,
            related=lambda inputs, row: {},
            opens=("a/b", "a/b"),
        )


@pytest.mark.parametrize("rows", [-1, 3, True])
def test_table_page_rows_stay_within_its_limit(rows: Any) -> None:
    with pytest.raises(SpecError, match="page_rows"):
        Table(name="t", label="T", columns=(SIZE,), limit=2, page_rows=rows)


def test_a_table_without_related_gives_an_empty_case_per_row() -> None:
    table = Table(name="t", label="T", columns=(SIZE,), limit=2)
    assert related_rows(table, {}, [{"size": 1}, {"size": 2}]) == [{}, {}]


def test_related_cases_are_written_in_plain_notation() -> None:
    table = Table(
        name="t",
        label="T",
        columns=(SIZE,),
        limit=2,
        related=lambda inputs, row: {"x/y": {"size": row["size"], "pick": "b"}},
        opens=("x/y",),
    )
    assert related_rows(table, {}, [{"size": 2.5}, {"size": 10**19}]) == [
        {"x/y": {"size": "2.5", "pick": "b"}},
        {"x/y": {"size": "10000000000000000000", "pick": "b"}},
    ]


def _presets(**values: Any) -> Presets:
    return Presets(
        name="kit",
        label="Kit",
        options=(Preset(value="one", label="One", values=values, source="A data sheet"),),
    )


@pytest.mark.parametrize(
    "values",
    [
        {"count": 11},
        {"count": 1.5},
        {"count": True},
        {"count": "3"},
        {"size": float("inf")},
        {"pick": "c"},
        {"other": 1},
    ],
)
def test_a_preset_must_fill_inputs_of_its_mode_with_values_they_accept(
    values: dict[str, Any],
) -> None:
    with pytest.raises(SpecError, match="kit/one"):
        _mode(presets=(_presets(**values),))


def test_presets_are_named_apart_from_inputs_and_each_other() -> None:
    with pytest.raises(SpecError, match="presets names"):
        _mode(presets=(_presets(count=2), _presets(size=2)))
    clash = Presets(
        name="size",
        label="Size",
        options=(Preset(value="one", label="One", values={"count": 2}, source="S"),),
    )
    with pytest.raises(SpecError, match="presets names"):
        _mode(presets=(clash,))


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"value": "Not A Slug"}, "kebab-case"),
        ({"label": ""}, "needs a label"),
        ({"values": {}}, "needs a label"),
        ({"source": ""}, "needs a label"),
        ({"url": "http://example.com"}, "https"),
    ],
)
def test_a_preset_is_named_labelled_sourced_and_linked_securely(
    fields: dict[str, Any], match: str
) -> None:
    declared: dict[str, Any] = {
        "value": "one",
        "label": "One",
        "values": {"count": 2},
        "source": "S",
        **fields,
    }
    with pytest.raises(SpecError, match=match):
        Preset(**declared)


def test_a_list_of_presets_needs_distinct_presets_and_a_snake_case_name() -> None:
    one = Preset(value="one", label="One", values={"count": 2}, source="S")
    with pytest.raises(SpecError, match="distinct"):
        Presets(name="kit", label="Kit", options=(one, one))
    with pytest.raises(SpecError, match="distinct"):
        Presets(name="kit", label="Kit", options=())
    with pytest.raises(SpecError, match="snake_case"):
        Presets(name="Kit", label="Kit", options=(one,))


def test_presets_list_the_fields_they_fill_and_find_a_preset_by_value() -> None:
    two = Preset(value="two", label="Two", values={"size": 2, "count": 3}, source="S")
    one = Preset(value="one", label="One", values={"count": 2}, source="S")
    kit = Presets(name="kit", label="Kit", options=(one, two))
    assert kit.fields == ("count", "size")
    assert kit.option("two") is two
    with pytest.raises(KeyError):
        kit.option("three")


@settings(max_examples=25)
@given(
    devices=st.sampled_from([8, 16, 32, 64]),
    batch=st.sampled_from([16, 32, 64]),
    layers=st.sampled_from([8, 12, 24]),
)
def test_every_case_a_plan_opens_is_one_its_calculator_computes(
    devices: int, batch: int, layers: int
) -> None:
    raw = {
        **{name: value for name, value in SEARCH.defaults().items() if value is not None},
        "layers": layers,
        "hidden": 2048,
        "heads": 16,
        "devices": devices,
        "global_batch": batch,
    }
    result = run(SEARCH, raw)
    cases = related_rows(PLANS, parse_inputs(SEARCH, raw), result.tables["plans"])
    for case in cases:
        assert tuple(case) == PLANS.opens
        for target, inputs in case.items():
            slug, _, mode = target.partition("/")
            run(get(slug).mode(mode), inputs)  # raises if the case is refused


def test_a_plans_check_case_computes_the_plans_own_step_time() -> None:
    raw = {name: value for name, value in SEARCH.defaults().items() if value is not None}
    result = run(SEARCH, raw)
    (first, *_) = result.tables["plans"]
    (case, *_) = related_rows(PLANS, parse_inputs(SEARCH, raw), [first])
    check = run(PLANNER.mode("check"), case["training-planner/check"])
    assert check.values["step_time"] == first["step_time"]
