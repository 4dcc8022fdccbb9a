"""Parsing raw field values: strict numbers, bounds, and every bad field reported at once."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import Input, InputError, InvalidInputs, Mode, Output, Result
from calculator.values import parse_inputs, parse_value
from tests import strategies

COUNT = Input(name="count", label="Count", default=8, minimum=1, maximum=1000, integer=True)
RATE = Input(
    name="rate", label="Rate", default=2.5, minimum=0, exclusive_minimum=True, maximum=1e12
)
SHARE = Input(name="share", label="Share", default=50, minimum=0, maximum=100)
LENGTH = Input(
    name="length",
    label="Length",
    default=None,
    minimum=1,
    maximum=10**8,
    integer=True,
    optional=True,
)
SPECS = (COUNT, RATE, SHARE, LENGTH)


def _mode() -> Mode:
    return Mode(
        name="toy",
        label="Toy",
        inputs=SPECS,
        outputs=(Output(name="out", label="Out"),),
        compute=lambda **_: Result({"out": 1}),
    )


@pytest.mark.parametrize(
    ("spec", "raw", "expected"),
    [
        (COUNT, "8", 8),
        (COUNT, " 8 ", 8),
        (COUNT, "\t8\n", 8),
        (COUNT, "+8", 8),
        (COUNT, "08", 8),
        (COUNT, "8.0", 8),
        (COUNT, "8.", 8),
        (COUNT, "0.8e1", 8),
        (COUNT, "8E0", 8),
        (COUNT, 8, 8),
        (COUNT, 8.0, 8),
        (COUNT, "1000", 1000),
        (COUNT, "1", 1),
        (COUNT, "0" * 5000 + "8", 8),
        (RATE, "2.5", 2.5),
        (RATE, ".5", 0.5),
        (RATE, "5e-324", 5e-324),
        (RATE, "1e12", 1e12),
        (RATE, 3, 3.0),
        (SHARE, "0", 0.0),
        (SHARE, "-0", 0.0),
        (SHARE, "100", 100.0),
        (LENGTH, "", None),
        (LENGTH, "  ", None),
        (LENGTH, None, None),
        (LENGTH, "4096", 4096),
    ],
    ids=repr,
)
def test_parse_value_accepts(spec: Input, raw: object, expected: float | None) -> None:
    value = parse_value(spec, raw)
    assert value == expected
    if expected is not None:
        assert type(value) is (int if spec.integer else float)


@pytest.mark.parametrize(
    ("spec", "raw", "code", "bound"),
    [
        (COUNT, "", "required", None),
        (COUNT, "   ", "required", None),
        (COUNT, None, "required", None),
        (COUNT, "eight", "not_a_number", None),
        (COUNT, "nan", "not_a_number", None),
        (COUNT, "NaN", "not_a_number", None),
        (COUNT, math.nan, "not_a_number", None),
        (COUNT, "inf", "not_a_number", None),
        (COUNT, "Infinity", "not_a_number", None),
        (COUNT, math.inf, "above_maximum", 1000),
        (COUNT, -math.inf, "below_minimum", 1),
        (COUNT, "1e309", "above_maximum", 1000),
        (COUNT, "-1e309", "below_minimum", 1),
        (COUNT, "1" * 5000, "above_maximum", 1000),
        (COUNT, "-" + "1" * 5000, "below_minimum", 1),
        (COUNT, 10**400, "above_maximum", 1000),
        (COUNT, "-3", "below_minimum", 1),
        (COUNT, "0", "below_minimum", 1),
        (COUNT, "1001", "above_maximum", 1000),
        (COUNT, "8.5", "not_an_integer", None),
        (COUNT, 8.5, "not_an_integer", None),
        (COUNT, True, "not_a_number", None),
        (COUNT, False, "not_a_number", None),
        (COUNT, [8], "not_a_number", None),
        (COUNT, {"count": 8}, "not_a_number", None),
        (COUNT, (8,), "not_a_number", None),
        (COUNT, b"8", "not_a_number", None),
        (COUNT, "1_000", "not_a_number", None),
        (COUNT, "1,000", "not_a_number", None),
        (COUNT, "١٢", "not_a_number", None),
        (COUNT, "６", "not_a_number", None),
        (COUNT, "\u22128", "not_a_number", None),
        (COUNT, "0x10", "not_a_number", None),
        (COUNT, "8 8", "not_a_number", None),
        (COUNT, "8e", "not_a_number", None),
        (COUNT, ".", "not_a_number", None),
        (COUNT, "+", "not_a_number", None),
        (COUNT, "--8", "not_a_number", None),
        (RATE, "0", "not_above_minimum", 0),
        (RATE, "-0", "not_above_minimum", 0),
        (RATE, 0.0, "not_above_minimum", 0),
        (RATE, "1e-400", "not_above_minimum", 0),
        (RATE, "-1", "not_above_minimum", 0),
        (RATE, "1e13", "above_maximum", 1e12),
        (SHARE, "-0.001", "below_minimum", 0),
        (SHARE, "100.001", "above_maximum", 100),
        (LENGTH, "nope", "not_a_number", None),
        (LENGTH, "0", "below_minimum", 1),
        (LENGTH, False, "not_a_number", None),
    ],
    ids=repr,
)
def test_parse_value_refuses(spec: Input, raw: object, code: str, bound: float | None) -> None:
    with pytest.raises(InputError) as raised:
        parse_value(spec, raw)
    assert raised.value.as_dict() == {"field": spec.name, "code": code, "bound": bound}


def test_parse_inputs_reports_every_bad_field_in_declaration_order_then_unknown_fields() -> None:
    with pytest.raises(InvalidInputs) as raised:
        parse_inputs(_mode(), {"zzz": 1, "share": "x", "count": "", "rate": "0", "aaa": 2})
    assert [e.as_dict() for e in raised.value.errors] == [
        {"field": "count", "code": "required", "bound": None},
        {"field": "rate", "code": "not_above_minimum", "bound": 0},
        {"field": "share", "code": "not_a_number", "bound": None},
        {"field": "zzz", "code": "unknown_field", "bound": None},
        {"field": "aaa", "code": "unknown_field", "bound": None},
    ]


def test_parse_inputs_counts_missing_keys_as_empty_fields() -> None:
    with pytest.raises(InvalidInputs) as raised:
        parse_inputs(_mode(), {"count": 3})
    assert [(e.field, e.code) for e in raised.value.errors] == [
        ("rate", "required"),
        ("share", "required"),
    ]


def test_parse_inputs_returns_every_input_with_none_for_empty_optional_ones() -> None:
    values = parse_inputs(_mode(), {"count": "3", "rate": "0.5", "share": 7})
    assert values == {"count": 3, "rate": 0.5, "share": 7.0, "length": None}


def test_unknown_field_never_replaces_a_default_silently() -> None:
    with pytest.raises(InvalidInputs) as raised:
        parse_inputs(_mode(), {"count": 3, "rate": 1, "share": 1, "Count": 4})
    assert [e.as_dict() for e in raised.value.errors] == [
        {"field": "Count", "code": "unknown_field", "bound": None}
    ]


@given(strategies.garbage)
def test_parse_value_returns_a_bounded_finite_number_or_raises_input_error(raw: object) -> None:
    for spec in SPECS:
        refused: InputError | None
        try:
            value = parse_value(spec, raw)
        except InputError as error:
            refused = error
        else:
            refused = None
        if refused is not None:
            assert refused.field == spec.name
            continue
        if value is None:
            assert spec.optional
            continue
        assert math.isfinite(value)
        assert spec.accepts(value)
        assert type(value) is (int if spec.integer else float)


@given(st.floats(min_value=0, max_value=1e12, exclude_min=True))
def test_any_float_in_bounds_round_trips_through_its_repr(value: float) -> None:
    assert parse_value(RATE, repr(value)) == value
    assert parse_value(RATE, value) == value


@given(
    st.integers(min_value=1, max_value=1000), st.sampled_from(["{}", " {} ", "+{}", "{}.0", "{}e0"])
)
def test_any_whole_number_in_bounds_parses_to_that_int(value: int, template: str) -> None:
    parsed = parse_value(COUNT, template.format(value))
    assert parsed == value
    assert type(parsed) is int
