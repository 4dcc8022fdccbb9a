"""Registry-wide guarantees: a calculator added to the registry is tested by being added.

Every test here iterates the declarations: each calculator and mode must compute
its pre-rendered example, return exactly its declared outputs, stay finite at
the edges of its bounds, and refuse what lies beyond them with the right code.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator import (
    CALCULATORS,
    Calculator,
    Choice,
    Input,
    InputError,
    InvalidInputs,
    Mode,
    Output,
    UnknownCalculatorError,
    display_decimal,
    evaluate,
    get,
    run,
)
from calculator.errors import Bound
from calculator.spec import Field, Value
from calculator.values import parse_choice, parse_value
from tests import cases
from tests.browser.expected import CROSS_FIELD, NEW_VALUES

MODES = [(calculator, mode) for calculator in CALCULATORS.values() for mode in calculator.modes]
MODE_IDS = [f"{calculator.slug}/{mode.name}" for calculator, mode in MODES]
INPUTS = [(mode, s) for _, mode in MODES for s in mode.inputs if isinstance(s, Input)]
INPUT_IDS = [
    f"{c.slug}/{m.name}/{s.name}" for c, m in MODES for s in m.inputs if isinstance(s, Input)
]
CHOICES = [(mode, s) for _, mode in MODES for s in mode.inputs if isinstance(s, Choice)]
CHOICE_IDS = [
    f"{c.slug}/{m.name}/{s.name}" for c, m in MODES for s in m.inputs if isinstance(s, Choice)
]
# Refusals that involve several fields, with whether they carry a bound; a search too
# large to run (the training planner's) is one, its bound the most layouts searched.
CROSS_FIELD_CODES = {
    "not_divisible": True,
    "above_maximum": True,
    "tree_allreduce_only": False,
    "too_many_layouts": True,
}

by_mode = pytest.mark.parametrize(("calculator", "mode"), MODES, ids=MODE_IDS)
by_input = pytest.mark.parametrize(("mode", "spec"), INPUTS, ids=INPUT_IDS)
by_choice = pytest.mark.parametrize(("mode", "spec"), CHOICES, ids=CHOICE_IDS)


def test_registry_is_keyed_by_slug_and_get_returns_each_calculator() -> None:
    assert list(CALCULATORS) == [calculator.slug for calculator in CALCULATORS.values()]
    for slug, calculator in CALCULATORS.items():
        assert get(slug) is calculator


def test_get_unknown_slug_raises_unknown_calculator_error_listing_the_known() -> None:
    with pytest.raises(UnknownCalculatorError) as raised:
        get("tensor-parallel")
    assert raised.value.name == "tensor-parallel"
    assert raised.value.known == tuple(CALCULATORS)
    assert "data-parallel-scaling" in str(raised.value)


def test_registry_cannot_be_changed_at_run_time() -> None:
    with pytest.raises(TypeError):
        # The registry is a read-only mapping: mypy refuses the write this test makes.
        CALCULATORS["x"] = next(iter(CALCULATORS.values()))  # type: ignore[index]


def test_every_registered_calculator_has_known_value_cases() -> None:
    assert {case.slug for case in cases.KNOWN} == set(CALCULATORS)
    assert {(case.slug, case.mode) for case in cases.KNOWN} == {
        (calculator.slug, mode.name) for calculator, mode in MODES
    }


def test_every_registered_calculator_has_refused_cases() -> None:
    assert {case.slug for case in cases.REFUSED} == set(CALCULATORS)


def test_every_registered_calculator_has_plausible_random_requests() -> None:
    missing = set(CALCULATORS) - set(cases.PLAUSIBLE)
    assert not missing, (
        f"add plausible requests for {sorted(missing)} to PLAUSIBLE in tests/cases.py"
    )
    assert set(cases.PLAUSIBLE) == set(CALCULATORS)


PLAUSIBLE_DRAWS = 200
"""Plausible requests drawn per calculator to see what they cover."""


@pytest.mark.parametrize("calculator", CALCULATORS.values(), ids=list(CALCULATORS))
def test_plausible_requests_mostly_compute_in_every_mode(calculator: Calculator) -> None:
    # Random requests that CPython and Pyodide must answer alike: mostly results, so
    # that both runtimes are compared on numbers, and some in every mode.
    rng = random.Random(calculator.slug)
    replies = [
        json.loads(evaluate(calculator.slug, json.dumps(cases.PLAUSIBLE[calculator.slug](rng))))
        for _ in range(PLAUSIBLE_DRAWS)
    ]
    computed = [reply["mode"] for reply in replies if reply["ok"]]
    assert set(computed) == {mode.name for mode in calculator.modes}
    assert len(computed) > PLAUSIBLE_DRAWS / 2


def test_every_form_has_the_values_the_browser_tests_type() -> None:
    forms = {(calculator.slug, mode.name) for calculator, mode in MODES}
    missing = forms - set(NEW_VALUES)
    assert not missing, f"add {sorted(missing)} to NEW_VALUES in tests/browser/expected.py"
    assert set(NEW_VALUES) == forms


@by_mode
def test_the_values_the_browser_tests_type_are_new_and_compute(
    calculator: Calculator, mode: Mode
) -> None:
    new = NEW_VALUES[calculator.slug, mode.name]
    example = {name: "" if value is None else str(value) for name, value in mode.defaults().items()}
    assert new
    assert set(new) <= set(example)
    assert all(new[name] != example[name] for name in new)
    reply = json.loads(evaluate(calculator.slug, json.dumps({"mode": mode.name, **example, **new})))
    assert reply["ok"] is True, reply


@pytest.mark.parametrize("calculator", CALCULATORS.values(), ids=list(CALCULATORS))
def test_the_browser_tests_refusal_across_fields_is_one(calculator: Calculator) -> None:
    assert calculator.slug in CROSS_FIELD, (
        f"add a refusal across fields for {calculator.slug} to CROSS_FIELD in "
        "tests/browser/expected.py"
    )
    bad = CROSS_FIELD[calculator.slug]
    if not bad:  # said in so many words: no field of it is refused because of another
        return
    forms = [mode for mode in calculator.modes if set(bad) <= {s.name for s in mode.inputs}]
    assert forms
    for mode in forms:
        # Each value alone is within its field's bounds: only another field refuses it,
        # typed over the form's new values as the live test types it.
        for name, text in bad.items():
            spec = mode.input(name)
            assert isinstance(spec, Input)
            parse_value(spec, text)
        typed = {**mode.defaults(), **NEW_VALUES[calculator.slug, mode.name], **bad}
        with pytest.raises(InvalidInputs) as raised:
            run(mode, typed)
        assert {error.code for error in raised.value.errors} <= set(CROSS_FIELD_CODES)


@by_mode
def test_defaults_compute_exactly_the_declared_finite_outputs(
    calculator: Calculator, mode: Mode
) -> None:
    result = run(mode, mode.defaults())
    assert list(result.values) == [output.name for output in mode.outputs]
    for value in result.values.values():
        assert value is not None
        assert not isinstance(value, bool)
        assert math.isfinite(value)
    assert result.warnings == ()


@by_mode
def test_defaults_as_typed_text_give_the_same_reply_as_numbers(
    calculator: Calculator, mode: Mode
) -> None:
    numbers = {"mode": mode.name, **mode.defaults()}
    texts = {name: "" if v is None else str(v) for name, v in mode.defaults().items()}
    assert evaluate(calculator.slug, json.dumps(numbers)) == evaluate(
        calculator.slug, json.dumps({"mode": mode.name, **texts})
    )


@by_mode
def test_empty_request_requires_every_required_input_in_form_order(
    calculator: Calculator, mode: Mode
) -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(mode, {})
    assert [(e.field, e.code) for e in raised.value.errors] == [
        (spec.name, "required")
        for spec in mode.inputs
        if not (isinstance(spec, Input) and spec.optional)
    ]


@by_mode
def test_unknown_field_is_refused(calculator: Calculator, mode: Mode) -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(mode, {**mode.defaults(), "mode_typo": 1})
    assert [e.as_dict() for e in raised.value.errors] == [
        {"field": "mode_typo", "code": "unknown_field", "bound": None}
    ]


@by_mode
def test_declarations_are_complete_for_the_site(calculator: Calculator, mode: Mode) -> None:
    assert calculator.title
    assert calculator.summary
    assert mode.label
    items: tuple[Field | Output, ...] = (*mode.inputs, *mode.outputs)
    for item in items:
        assert item.label
        assert item.help
        if isinstance(item, Choice):
            assert all(option.label for option in item.options)
    grouped = [spec.name for _, group in mode.input_groups() for spec in group]
    assert sorted(grouped) == sorted(spec.name for spec in mode.inputs)


@by_input
def test_default_is_within_bounds_and_parses_back(mode: Mode, spec: Input) -> None:
    if spec.default is None:
        assert spec.optional
        return
    assert spec.accepts(spec.default)
    assert parse_value(spec, str(spec.default)) == spec.default


@by_choice
def test_choice_default_is_an_option_and_parses_back(mode: Mode, spec: Choice) -> None:
    assert spec.default in spec.values
    assert parse_choice(spec, spec.default) == spec.default
    for value in spec.values:
        assert parse_choice(spec, f" {value} ") == value


def _not_options(spec: Choice) -> list[object]:
    """Values near a choice's options that are none of them, derived from the options.

    JSON values that are no text; text no option can be; a longer word than any option;
    each option in another case, padded with a zero or given a fraction; and, for an
    option that is a whole number (a ZeRO stage), that number as a JSON number, since a
    choice's value is a word as written, never a number read from it.
    """
    longest = max(len(value) for value in spec.values)
    near: list[object] = [True, 1.5, [], {"v": 1}, "?", "x" * (longest + 1)]
    for value in spec.values:
        near += [value.upper(), value.title(), f"0{value}", f"{value}.0"]
        if value.isdigit():
            near += [int(value), float(value)]
    # A variant that happens to be another option is not a near miss.
    return list({repr(raw): raw for raw in near if raw not in spec.values}.values())


NOT_OPTIONS = [(mode, spec, raw) for mode, spec in CHOICES for raw in _not_options(spec)]
NOT_OPTION_IDS = [
    f"{cid}-{raw!r}"
    for (_, spec), cid in zip(CHOICES, CHOICE_IDS, strict=True)
    for raw in _not_options(spec)
]


@pytest.mark.parametrize(("mode", "spec", "raw"), NOT_OPTIONS, ids=NOT_OPTION_IDS)
def test_choice_refuses_what_is_not_an_option_as_not_a_choice(
    mode: Mode, spec: Choice, raw: object
) -> None:
    assert _refusal(mode, spec, raw) == {"field": spec.name, "code": "not_a_choice", "bound": None}


@by_choice
@pytest.mark.parametrize("empty", ["", "  ", None])
def test_empty_choice_is_required(mode: Mode, spec: Choice, empty: object) -> None:
    assert _refusal(mode, spec, empty) == {"field": spec.name, "code": "required", "bound": None}


def _refusal(mode: Mode, spec: Field, raw: object) -> dict[str, str | Bound]:
    with pytest.raises(InvalidInputs) as raised:
        run(mode, {**mode.defaults(), spec.name: raw})
    (error,) = raised.value.errors
    return error.as_dict()


@by_input
def test_below_minimum_is_refused_with_the_minimum_as_bound(mode: Mode, spec: Input) -> None:
    assert spec.minimum is not None
    code = "not_above_minimum" if spec.exclusive_minimum else "below_minimum"
    below = spec.minimum - 1
    assert _refusal(mode, spec, below) == {"field": spec.name, "code": code, "bound": spec.minimum}
    assert _refusal(mode, spec, "-1e309")["code"] == code
    if spec.exclusive_minimum:
        assert _refusal(mode, spec, spec.minimum)["code"] == code


@by_input
def test_above_maximum_is_refused_with_the_maximum_as_bound(mode: Mode, spec: Input) -> None:
    above = spec.maximum + 1 if spec.integer else spec.maximum * 1.001
    expected = {"field": spec.name, "code": "above_maximum", "bound": spec.maximum}
    assert _refusal(mode, spec, above) == expected
    assert _refusal(mode, spec, "1e309") == expected
    assert _refusal(mode, spec, "9" * 5000) == expected


@by_input
@pytest.mark.parametrize("raw", [True, False, "nan", "inf", "1_0", "١٢", [1], {"v": 1}, "x"])
def test_non_numbers_are_refused_as_not_a_number(mode: Mode, spec: Input, raw: object) -> None:
    assert _refusal(mode, spec, raw) == {"field": spec.name, "code": "not_a_number", "bound": None}


FALLBACKS: dict[tuple[str, str], Callable[[dict[str, Value | str | None]], Value]] = {
    # g = a: without grouped-query attention each head has its own keys and values.
    ("training-planner", "kv_heads"): lambda fields: _number(fields["heads"]),
    # f = 4h: the MLP width of GPT and of Megatron-LM's default.
    ("training-planner", "ffn"): lambda fields: 4 * _number(fields["hidden"]),
}
"""What an optional input left empty stands for, where it stands for a value (its help
says so: "empty for a", "empty for 4h"), from the mode's other fields. An optional input
without an entry here must leave an output without a value instead."""


def _number(value: Value | str | None) -> Value:
    assert isinstance(value, int | float)
    return value


def _slug(mode: Mode) -> str:
    """The slug of the calculator that declares ``mode``."""
    return next(c.slug for c, m in MODES if m is mode)


@by_input
@pytest.mark.parametrize("empty", ["", "  ", None])
def test_empty_field_is_required_unless_optional(mode: Mode, spec: Input, empty: object) -> None:
    if not spec.optional:
        assert _refusal(mode, spec, empty) == {
            "field": spec.name,
            "code": "required",
            "bound": None,
        }
        return
    fields = mode.defaults()
    result = run(mode, {**fields, spec.name: empty})
    fallback = FALLBACKS.get((_slug(mode), spec.name))
    if fallback is None:
        # Empty means "does not apply": some output has no value.
        assert None in result.values.values(), (
            f"{spec.name}: left empty, it leaves every output with a value; if it stands "
            "for a value, say which in FALLBACKS"
        )
    else:
        # Empty means the value it stands for: the very reply that value gives.
        value = fallback(fields)
        assert spec.accepts(value)
        assert result == run(mode, {**fields, spec.name: value})


@by_input
def test_whole_number_inputs_refuse_fractions(mode: Mode, spec: Input) -> None:
    if not spec.integer:
        return
    # A whole number within bounds, and half more: the example's, or the smallest value.
    whole = spec.default if spec.default is not None else math.ceil(spec.minimum or 0)
    assert _refusal(mode, spec, f"{whole}.5") == {
        "field": spec.name,
        "code": "not_an_integer",
        "bound": None,
    }


def _in_bounds(spec: Field) -> st.SearchStrategy[object]:
    if isinstance(spec, Choice):
        return st.sampled_from(spec.values)
    if spec.integer:
        numbers: st.SearchStrategy[float] = st.integers(
            min_value=math.ceil(spec.minimum or 0) + (1 if spec.exclusive_minimum else 0),
            max_value=math.floor(spec.maximum),
        )
        edges = [edge for edge in (spec.minimum, spec.maximum) if edge is not None]
    else:
        numbers = st.floats(
            min_value=spec.minimum,
            max_value=spec.maximum,
            exclude_min=spec.exclusive_minimum,
            allow_nan=False,
        )
        edges = [spec.maximum, math.nextafter(spec.minimum or 0, math.inf)]
    values = numbers | st.sampled_from([edge for edge in edges if spec.accepts(edge)])
    typed = values | values.map(repr)
    return typed | st.sampled_from([None, ""]) if spec.optional else typed


EXAMPLES_PER_MODE = 1_000
"""Examples each mode's registry-wide property draws in one run of the tests.

Each input is drawn from its declared edges (both bounds, the smallest value above an
exclusive minimum, every option) as one branch of its strategy, so a thousand draws per
mode still put every edge of every input in many examples; the extremes taken together
are pinned as known values (``tests/cases.py``, the worst case of the estimate).
Ten thousand per mode cost 25 to 50 s of CPU each under coverage on 2 cores: six
minutes of every run of the suite."""


# By name, not by declaration: Hypothesis reports a failing example with its arguments,
# and a declaration's repr runs to tens of kilobytes (the planner's, 60 kB), past which
# Hypothesis warns; under ``filterwarnings = error`` that warning hid the failure itself.
@pytest.mark.parametrize("form", MODE_IDS)
@settings(max_examples=EXAMPLES_PER_MODE)
@given(data=st.data())
def test_any_values_within_bounds_compute_finite_outputs_or_a_cross_field_refusal(
    form: str, data: st.DataObject
) -> None:
    calculator, mode = MODES[MODE_IDS.index(form)]
    raw = {spec.name: data.draw(_in_bounds(spec), label=spec.name) for spec in mode.inputs}
    try:
        result = run(mode, raw)
    except InvalidInputs as invalid:
        for error in invalid.errors:
            assert error.code in CROSS_FIELD_CODES
            if CROSS_FIELD_CODES[error.code]:
                assert error.bound is not None
                assert math.isfinite(error.bound)
            else:
                assert error.bound is None
        reply = json.loads(evaluate(calculator.slug, json.dumps({"mode": mode.name, **raw})))
        assert reply["ok"] is False
        return
    assert list(result.values) == [output.name for output in mode.outputs]
    for output in mode.outputs:
        value = result.values[output.name]
        if value is None:
            continue
        assert math.isfinite(value)
        text = display_decimal(output, value)
        assert "e" not in text.lower()
    reply = json.loads(evaluate(calculator.slug, json.dumps({"mode": mode.name, **raw})))
    assert reply["ok"] is True


@by_mode
def test_every_input_error_is_a_calculator_error_with_a_stable_code(
    calculator: Calculator, mode: Mode
) -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(mode, {spec.name: "?" for spec in mode.inputs})
    assert len(raised.value.errors) == len(mode.inputs)
    for error in raised.value.errors:
        assert isinstance(error, InputError)
        assert error.code in cases.CODES
