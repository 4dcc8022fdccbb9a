"""The engine: parse, compute, hold the result to its declaration, and round for display."""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import (
    CALCULATORS,
    CalculatorError,
    ComputeError,
    Input,
    InputError,
    InvalidInputs,
    Mode,
    Output,
    Result,
    display_decimal,
    run,
)
from calculator.engine import display_cell, display_rows
from calculator.spec import Choice, Option, Style, Table, Value
from tests import strategies

X = Input(name="x", label="X", default=1, minimum=0, maximum=10)
MODES = [mode for calculator in CALCULATORS.values() for mode in calculator.modes]


def _mode(values: Mapping[str, object], warnings: tuple[str, ...] = ()) -> Mode:
    """A throwaway mode declaring outputs ``a`` and ``b`` whose compute returns ``values``."""
    return Mode(
        name="throwaway",
        label="Throwaway",
        inputs=(X,),
        outputs=(Output(name="a", label="A"), Output(name="b", label="B")),
        # Any values at all, numbers or not: what the engine must check a result for.
        compute=lambda *, x: Result(dict(values), warnings),  # type: ignore[arg-type]
    )


def test_run_returns_outputs_in_declared_order_with_warnings() -> None:
    result = run(_mode({"b": 2, "a": 1.5}, ("super_linear",)), {"x": "3"})
    assert list(result.values.items()) == [("a", 1.5), ("b", 2)]
    assert result.warnings == ("super_linear",)


def test_run_accepts_none_for_an_output_left_without_value() -> None:
    assert run(_mode({"a": None, "b": 0}), {"x": 1}).values == {"a": None, "b": 0}


def test_run_passes_parsed_values_to_compute() -> None:
    seen: list[object] = []

    def compute(*, x: float) -> Result:
        seen.append(x)
        return Result({"a": x, "b": x})

    mode = Mode(
        name="echo",
        label="Echo",
        inputs=(X,),
        outputs=(Output(name="a", label="A"), Output(name="b", label="B")),
        compute=compute,
    )
    run(mode, {"x": " 2.5 "})
    assert seen == [2.5]


@pytest.mark.parametrize(
    "values",
    [
        {"a": 1},
        {"a": 1, "b": 2, "c": 3},
        {"a": 1, "c": 2},
        {},
        {"a": math.nan, "b": 1},
        {"a": 1, "b": math.inf},
        {"a": -math.inf, "b": 1},
        {"a": True, "b": 1},
        {"a": 1, "b": False},
    ],
    ids=repr,
)
def test_run_raises_compute_error_when_compute_breaks_its_declaration(
    values: dict[str, object],
) -> None:
    with pytest.raises(ComputeError):
        run(_mode(values), {"x": 1})


def test_compute_error_is_a_calculator_error_but_not_bad_input() -> None:
    assert issubclass(ComputeError, CalculatorError)
    assert not issubclass(ComputeError, InvalidInputs)


def test_bad_input_is_reported_before_compute_runs() -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(_mode({}), {"x": "11", "y": 1})
    assert [e.as_dict() for e in raised.value.errors] == [
        {"field": "x", "code": "above_maximum", "bound": 10},
        {"field": "y", "code": "unknown_field", "bound": None},
    ]


def test_cross_field_errors_raised_by_compute_reach_the_caller() -> None:
    def compute(*, x: float) -> Result:
        raise InvalidInputs([InputError("x", "not_divisible", 3)])

    mode = Mode(
        name="picky",
        label="Picky",
        inputs=(X,),
        outputs=(Output(name="a", label="A"),),
        compute=compute,
    )
    with pytest.raises(InvalidInputs) as raised:
        run(mode, {"x": 2})
    assert raised.value.errors == (InputError("x", "not_divisible", 3),)


def _output(style: Style = "number", digits: int = 0) -> Output:
    return Output(name="shown", label="Shown", style=style, digits=digits)


@pytest.mark.parametrize(
    ("style", "digits", "value", "expected"),
    [
        # Half-up on the decimal representation, not banker's rounding on the binary value.
        ("number", 1, 0.25, "0.3"),
        ("number", 1, 0.35, "0.4"),
        ("number", 2, 2.675, "2.68"),
        ("number", 2, 1.005, "1.01"),
        ("number", 0, 0.5, "1"),
        ("number", 0, 2.5, "3"),
        ("number", 1, -0.25, "-0.3"),
        # Trailing zeros and a bare point are stripped; negative zero is plain zero.
        ("number", 2, 1.5, "1.5"),
        ("number", 2, 2.0, "2"),
        ("number", 1, 128000.0, "128000"),
        ("number", 3, 0.0, "0"),
        ("number", 1, -0.0, "0"),
        ("number", 1, -0.04, "0"),
        ("number", 0, -0.4, "0"),
        ("number", 2, 5e-324, "0"),
        ("number", 1, 1e19, "10000000000000000000"),
        ("number", 6, 0.1234565, "0.123457"),
        # Large integers are exact, not floats.
        ("number", 0, 10**29, "1" + "0" * 29),
        ("number", 0, 2**64 + 1, "18446744073709551617"),
        ("number", 0, 4194304, "4194304"),
        ("number", 3, 12, "12"),
        ("number", 0, -7, "-7"),
        # Percent outputs are percent points, returned as fractions.
        ("percent", 2, 37.5, "0.375"),
        ("percent", 2, 90.0, "0.9"),
        ("percent", 2, 100, "1"),
        ("percent", 2, 0.0, "0"),
        ("percent", 2, 101.5625, "1.0156"),
        ("percent", 2, 300 / 19, "0.1579"),
        ("percent", 2, 11.71875, "0.1172"),
        ("percent", 2, 1500 / 143, "0.1049"),
        ("percent", 0, 12.5, "0.13"),
        ("percent", 2, 700.0, "7"),
        ("multiplier", 2, 57.6, "57.6"),
        ("multiplier", 2, 57.599999999999994, "57.6"),
        ("multiplier", 2, 3.0000000000000004, "3"),
    ],
    ids=repr,
)
def test_display_decimal(style: Style, digits: int, value: Value, expected: str) -> None:
    assert display_decimal(_output(style, digits), value) == expected


@given(
    st.floats(min_value=-1e15, max_value=1e15, allow_nan=False),
    st.integers(min_value=0, max_value=6),
    st.sampled_from(["number", "percent", "multiplier"]),
)
def test_display_decimal_is_the_half_up_rounding_of_the_repr(
    value: float, digits: int, style: Style
) -> None:
    text = display_decimal(_output(style, digits), value)
    exact = Decimal(repr(value))
    places = digits
    if style == "percent":
        exact, places = exact.scaleb(-2), digits + 2
    expected = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    assert Decimal(text) == expected
    assert not text.startswith("-0") or text.startswith("-0.")
    assert text != "-0"
    if "." in text:
        assert not text.endswith(("0", "."))
        assert len(text.split(".")[1]) <= places
    assert "e" not in text.lower()


@given(st.integers(min_value=-(10**40), max_value=10**40))
def test_display_decimal_shows_any_int_exactly(value: int) -> None:
    assert display_decimal(_output(), value) == str(value)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
@given(raw=strategies.fields)
def test_run_raises_only_calculator_errors_and_returns_finite_values(
    mode: Mode, raw: dict[str, object]
) -> None:
    try:
        values = run(mode, raw).values
    except InvalidInputs as invalid:
        values, errors = {}, invalid.errors
    else:
        errors = ()
    assert bool(errors) != bool(values)
    for value in values.values():
        assert value is None or math.isfinite(value)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
@given(data=st.data())
def test_run_on_mostly_valid_fields_raises_only_input_errors(
    mode: Mode, data: st.DataObject
) -> None:
    raw: dict[str, object] = dict(mode.defaults())
    for spec in mode.inputs:
        if data.draw(st.booleans(), label=f"replace {spec.name}"):
            raw[spec.name] = data.draw(strategies.garbage, label=spec.name)
    errors: tuple[InputError, ...] = ()
    try:
        run(mode, raw)
    except InvalidInputs as invalid:
        errors = invalid.errors
    assert {error.field for error in errors} <= set(raw)


# --------------------------------------------------------------------------- tables

COUNT = Input(name="count", label="Count", default=2, minimum=1, maximum=8, integer=True)
KIND = Choice(
    name="kind",
    label="Kind",
    options=(Option(value="ring", label="Ring"), Option(value="tree", label="Tree")),
    default="ring",
)
SHARE = Output(name="share", label="Share", style="percent", digits=1)
TIME = Output(name="time", label="Time", unit="s", digits=3)
ROWS = Table(name="rows", label="Rows", columns=(COUNT, KIND, SHARE, TIME), limit=2)


def _tabled(rows: object, tables: str = "rows") -> Mode:
    """A throwaway mode with the table ``ROWS``, whose compute returns ``rows`` under ``tables``."""
    return Mode(
        name="tabled",
        label="Tabled",
        inputs=(X,),
        outputs=(Output(name="a", label="A"),),
        tables=(ROWS,),
        compute=lambda *, x: Result({"a": x}, (), {tables: rows}),  # type: ignore[dict-item]
    )


def test_run_returns_each_tables_rows_with_their_cells_in_column_order() -> None:
    rows = [
        {"time": 0.25, "share": 37.5, "kind": "tree", "count": 8},
        {"kind": "ring", "count": 1, "time": 1e-9, "share": 0},
    ]
    result = run(_tabled(rows), {"x": 1})
    assert result.tables == {
        "rows": (
            {"count": 8, "kind": "tree", "share": 37.5, "time": 0.25},
            {"count": 1, "kind": "ring", "share": 0, "time": 1e-9},
        )
    }
    assert [list(row) for row in result.tables["rows"]] == [["count", "kind", "share", "time"]] * 2
    assert run(_tabled([]), {"x": 1}).tables == {"rows": ()}


GOOD = {"count": 2, "kind": "ring", "share": 50.0, "time": 1.5}


@pytest.mark.parametrize(
    "rows",
    [
        [GOOD, GOOD, GOOD],  # past the limit
        [{**GOOD, "extra": 1}],
        [{name: value for name, value in GOOD.items() if name != "time"}],
        [{**GOOD, "time": math.nan}],
        [{**GOOD, "share": math.inf}],
        [{**GOOD, "time": True}],
        [{**GOOD, "time": None}],
        [{**GOOD, "time": "1.5"}],
        [{**GOOD, "count": 9}],  # beyond the input's bounds
        [{**GOOD, "count": 2.0}],  # a whole-number input's cell is an int
        [{**GOOD, "count": "2"}],
        [{**GOOD, "kind": "butterfly"}],
        [{**GOOD, "kind": 1}],
    ],
    ids=repr,
)
def test_run_raises_compute_error_when_a_table_breaks_its_declaration(rows: object) -> None:
    with pytest.raises(ComputeError):
        run(_tabled(rows), {"x": 1})


def test_run_raises_compute_error_for_an_undeclared_or_missing_table() -> None:
    with pytest.raises(ComputeError, match="tables"):
        run(_tabled([GOOD], tables="other"), {"x": 1})


def test_a_fractional_cell_is_accepted_in_a_fractional_input_column() -> None:
    ratio = Input(name="ratio", label="Ratio", default=0.5, minimum=0, maximum=1)
    table = Table(name="rows", label="Rows", columns=(ratio,), limit=1)
    mode = Mode(
        name="ratios",
        label="Ratios",
        inputs=(X,),
        outputs=(Output(name="a", label="A"),),
        tables=(table,),
        compute=lambda *, x: Result({"a": x}, (), {"rows": [{"ratio": 0.25}]}),
    )
    assert run(mode, {"x": 1}).tables["rows"] == ({"ratio": 0.25},)


def test_display_rows_round_outputs_as_declared_and_write_inputs_and_choices_plainly() -> None:
    rows: list[dict[str, int | float | str]] = [
        {"count": 8, "kind": "tree", "share": 37.25, "time": 0.0015}
    ]
    assert display_rows(ROWS, rows) == [
        {"count": "8", "kind": "tree", "share": "0.373", "time": "0.002"}
    ]
    assert display_cell(TIME, 2.675) == display_decimal(TIME, 2.675) == "2.675"
    assert display_cell(COUNT, 10**20) == "100000000000000000000"
    assert display_cell(KIND, "ring") == "ring"
