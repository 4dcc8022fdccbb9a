"""Declarations: wrong ones raise SpecError when they are made, right ones answer questions."""

from __future__ import annotations

from typing import Any

import pytest

from calculator import (
    Calculator,
    CalculatorError,
    Input,
    Mode,
    Output,
    Result,
    SpecError,
    UnknownCalculatorError,
)
from calculator.spec import Chart, Choice, Option, Table, unit_for


def _compute(**values: object) -> Result:
    return Result({"out": 1})


def _input(**overrides: Any) -> Input:
    fields: dict[str, Any] = {"name": "count", "label": "Count", "default": 4, "maximum": 10}
    return Input(**{**fields, **overrides})


def _output(**overrides: Any) -> Output:
    return Output(**{"name": "out", "label": "Out", **overrides})


def _mode(**overrides: Any) -> Mode:
    fields: dict[str, Any] = {
        "name": "only",
        "label": "Only",
        "inputs": (_input(),),
        "outputs": (_output(),),
        "compute": _compute,
    }
    return Mode(**{**fields, **overrides})


def _calculator(**overrides: Any) -> Calculator:
    fields: dict[str, Any] = {
        "slug": "toy",
        "title": "Toy",
        "summary": "A toy.",
        "modes": (_mode(),),
    }
    return Calculator(**{**fields, **overrides})


@pytest.mark.parametrize(
    "overrides",
    [
        {"name": "Count"},
        {"name": "count-of"},
        {"name": "1count"},
        {"name": ""},
        {"name": "count\n"},
        {"name": "mode"},
        {"minimum": float("-inf")},
        {"minimum": float("nan")},
        {"maximum": float("inf")},
        {"maximum": None},
        {"minimum": 10, "maximum": 10},
        {"minimum": 11, "maximum": 10},
        {"default": None},
        {"integer": True, "default": 2.5},
        {"minimum": 5, "default": 4},
        {"default": 11},
        {"minimum": 4, "exclusive_minimum": True, "default": 4},
    ],
    ids=repr,
)
def test_wrong_input_declaration_raises_spec_error(overrides: dict[str, Any]) -> None:
    with pytest.raises(SpecError):
        _input(**overrides)


@pytest.mark.parametrize(
    "overrides",
    [
        {"name": "Out"},
        {"name": "out-put"},
        {"style": "fraction"},
        {"digits": -1},
        {"digits": 7},
        {"style": "percent", "unit": "%"},
        {"style": "multiplier", "unit": "x"},
    ],
    ids=repr,
)
def test_wrong_output_declaration_raises_spec_error(overrides: dict[str, Any]) -> None:
    with pytest.raises(SpecError):
        _output(**overrides)


@pytest.mark.parametrize(
    "overrides",
    [
        {"name": "Only"},
        {"name": "only_mode"},
        {"name": "-only"},
        {"inputs": ()},
        {"inputs": (_input(), _input())},
        {"outputs": ()},
        {"outputs": (_output(), _output())},
        {"groups": (("group", ()),)},
        {"groups": (("group", ("count", "count")),)},
        {"groups": (("group", ("count",)), ("other", ("count",)))},
        {"groups": (("group", ("count", "other")),)},
    ],
    ids=repr,
)
def test_wrong_mode_declaration_raises_spec_error(overrides: dict[str, Any]) -> None:
    with pytest.raises(SpecError):
        _mode(**overrides)


@pytest.mark.parametrize(
    "overrides",
    [
        {"slug": "Toy"},
        {"slug": "toy_calculator"},
        {"slug": "toy-"},
        {"slug": "toy--calculator"},
        {"modes": ()},
        {"modes": (_mode(), _mode())},
    ],
    ids=repr,
)
def test_wrong_calculator_declaration_raises_spec_error(overrides: dict[str, Any]) -> None:
    with pytest.raises(SpecError):
        _calculator(**overrides)


def test_spec_error_is_a_calculator_error() -> None:
    assert issubclass(SpecError, CalculatorError)


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"name": "tensor_parallel_2"},
        {"minimum": 1, "default": 1},
        {"minimum": 0, "exclusive_minimum": True, "default": 0.5},
        {"minimum": -1.5, "maximum": 2.5, "default": -1.5},
        {"default": None, "optional": True},
        {"integer": True, "default": 4.0},
    ],
    ids=repr,
)
def test_right_input_declaration_is_accepted(overrides: dict[str, Any]) -> None:
    spec = _input(**overrides)
    assert spec.default is None or spec.accepts(spec.default)


@pytest.mark.parametrize(
    ("overrides", "value", "accepted"),
    [
        ({"minimum": 1}, 1, True),
        ({"minimum": 1}, 0.999, False),
        ({"minimum": 1, "exclusive_minimum": True, "default": 2}, 1, False),
        ({"minimum": 1, "exclusive_minimum": True, "default": 2}, 1.001, True),
        ({}, 10, True),
        ({}, 10.001, False),
        ({}, -1e300, True),
    ],
)
def test_input_accepts_values_within_its_bounds(
    overrides: dict[str, Any], value: float, accepted: bool
) -> None:
    assert _input(**overrides).accepts(value) is accepted


def test_input_step_is_1_for_whole_numbers_and_any_otherwise() -> None:
    assert _input(integer=True).step == "1"
    assert _input().step == "any"


def test_mode_finds_inputs_by_name_and_refuses_others() -> None:
    mode = _mode(inputs=(_input(), _input(name="other", default=None, optional=True)))
    other = mode.input("other")
    assert isinstance(other, Input)
    assert other.optional
    with pytest.raises(KeyError):
        mode.input("missing")
    assert mode.defaults() == {"count": 4, "other": None}


def test_mode_without_groups_has_one_unnamed_group_in_form_order() -> None:
    inputs = (_input(name="b"), _input(name="a"))
    assert _mode(inputs=inputs).input_groups() == (("", inputs),)


def test_mode_groups_list_their_inputs_in_declared_group_order() -> None:
    first, second, third = _input(name="a"), _input(name="b"), _input(name="c")
    mode = _mode(inputs=(first, second, third), groups=(("one", ("c", "a")), ("two", ("b",))))
    assert mode.input_groups() == (("one", (third, first)), ("two", (second,)))


def test_calculator_default_mode_is_the_first() -> None:
    first, second = _mode(name="first"), _mode(name="second")
    calculator = _calculator(modes=(first, second))
    assert calculator.default_mode is first
    assert calculator.mode() is first
    assert calculator.mode(None) is first
    assert calculator.mode("second") is second


def test_calculator_unknown_mode_raises_unknown_calculator_error_naming_modes() -> None:
    with pytest.raises(UnknownCalculatorError) as raised:
        _calculator().mode("other")
    assert raised.value.name == "toy/other"
    assert raised.value.known == ("only",)
    assert isinstance(raised.value, LookupError)


def test_declarations_are_frozen() -> None:
    spec = _input()
    with pytest.raises(AttributeError):
        spec.maximum = 20  # type: ignore[misc]  # frozen: the write the test expects to fail


def test_a_unit_must_be_one_of_the_declared_units_with_a_singular() -> None:
    with pytest.raises(SpecError, match="UNITS"):
        _input(unit="furlongs")
    with pytest.raises(SpecError, match="UNITS"):
        _output(unit="furlongs")
    assert _input(unit="replicas").unit == "replicas"


def test_a_warning_must_be_one_of_the_declared_codes() -> None:
    with pytest.raises(SpecError, match="WARNINGS"):
        Result({"out": 1}, ("careful",))


@pytest.mark.parametrize(
    ("unit", "shown", "text"),
    [("replicas", "1", "replica"), ("replicas", "1.5", "replicas"), ("replicas", "0", "replicas")],
)
def test_english_units_are_singular_for_exactly_one(unit: str, shown: str, text: str) -> None:
    assert unit_for(unit, shown) == text


def test_a_chart_without_words_is_refused() -> None:
    with pytest.raises(SpecError, match="needs its words"):
        Chart(draw=lambda *_: "", words={})


OPTIONS = (Option(value="ring", label="Ring"), Option(value="tree", label="Tree"))


@pytest.mark.parametrize(
    ("value", "label", "message"),
    [
        ("Ring", "Ring", "kebab-case or a whole number"),
        ("a b", "A b", "kebab-case or a whole number"),
        ("ring", "", "needs a label"),
    ],
)
def test_a_wrong_option_is_refused(value: str, label: str, message: str) -> None:
    with pytest.raises(SpecError, match=message):
        Option(value=value, label=label)


def test_an_option_may_be_a_whole_number() -> None:
    assert Option(value="3", label="ZeRO-3").value == "3"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "Algorithm"}, "snake_case"),
        ({"name": "mode"}, "not reserved"),
        ({"options": OPTIONS[:1]}, "two or more distinct"),
        ({"options": (OPTIONS[0], OPTIONS[0])}, "two or more distinct"),
        ({"default": "butterfly"}, "is not one of"),
    ],
)
def test_a_wrong_choice_is_refused(changes: dict[str, Any], message: str) -> None:
    declaration: dict[str, Any] = {
        "name": "algorithm",
        "label": "Algorithm",
        "options": OPTIONS,
        "default": "ring",
    }
    with pytest.raises(SpecError, match=message):
        Choice(**{**declaration, **changes})


def test_a_choice_finds_each_option_by_its_value() -> None:
    choice = Choice(name="algorithm", label="Algorithm", options=OPTIONS, default="ring")
    assert choice.values == ("ring", "tree")
    assert choice.option("tree") is OPTIONS[1]
    with pytest.raises(KeyError):
        choice.option("butterfly")


def _table(**overrides: Any) -> Table:
    fields: dict[str, Any] = {
        "name": "rows",
        "label": "Rows",
        "columns": (_input(), _output()),
        "limit": 3,
    }
    return Table(**{**fields, **overrides})


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "Rows"}, "snake_case"),
        ({"columns": ()}, "present and unique"),
        ({"columns": (_input(), _output(name="count"))}, "present and unique"),
        ({"limit": 0}, "from 1 to 1000"),
        ({"limit": 1001}, "from 1 to 1000"),
        ({"limit": True}, "from 1 to 1000"),
        ({"shown": ("missing",)}, "distinct columns"),
        ({"shown": ("out", "out")}, "distinct columns"),
    ],
    ids=repr,
)
def test_a_wrong_table_is_refused(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(SpecError, match=message):
        _table(**changes)


def test_a_table_finds_its_columns_and_shows_the_chosen_ones_in_their_order() -> None:
    count, out = _input(), _output()
    table = _table(columns=(count, out))
    assert table.column("out") is out
    with pytest.raises(KeyError):
        table.column("missing")
    assert table.compact == (count, out)
    assert _table(columns=(count, out), shown=("out", "count")).compact == (out, count)


@pytest.mark.parametrize("name", ["out", "rows"])
def test_a_table_name_may_be_neither_an_outputs_nor_another_tables(name: str) -> None:
    with pytest.raises(SpecError, match="table names"):
        _mode(tables=(_table(), _table(name=name)))


def test_a_mode_has_no_tables_unless_declared_and_a_result_none_unless_given() -> None:
    assert _mode().tables == ()
    assert Result({"out": 1}).tables == {}
    assert _mode(tables=(_table(),)).tables[0].name == "rows"
