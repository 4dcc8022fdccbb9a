"""Errors: stable codes and bounds for machines, English only for the command line."""

from __future__ import annotations

import pytest

from calculator import CalculatorError, InputError, InvalidInputs, UnknownCalculatorError
from calculator.errors import english


def test_every_error_is_a_calculator_error() -> None:
    for kind in (InputError, InvalidInputs, UnknownCalculatorError):
        assert issubclass(kind, CalculatorError)
    assert issubclass(InputError, ValueError)
    assert issubclass(InvalidInputs, ValueError)
    assert issubclass(UnknownCalculatorError, LookupError)


def test_input_error_carries_field_code_and_bound() -> None:
    error = InputError("devices", "below_minimum", 1)
    assert (error.field, error.code, error.bound) == ("devices", "below_minimum", 1)
    assert error.as_dict() == {"field": "devices", "code": "below_minimum", "bound": 1}
    assert str(error) == error.describe() == "devices: must be at least 1"


def test_input_errors_compare_and_hash_by_field_code_and_bound() -> None:
    error = InputError("stages", "not_divisible", 4)
    assert error == InputError("stages", "not_divisible", 4)
    assert error != InputError("stages", "not_divisible", 8)
    assert error != ("stages", "not_divisible", 4)
    assert len({error, InputError("stages", "not_divisible", 4)}) == 1


def test_invalid_inputs_keeps_every_error_in_order() -> None:
    errors = [InputError("a", "required"), InputError("b", "not_a_number")]
    invalid = InvalidInputs(iter(errors))
    assert invalid.errors == tuple(errors)
    assert str(invalid) == "a: a value is required; b: not a number"


def test_invalid_inputs_needs_at_least_one_error() -> None:
    with pytest.raises(ValueError, match="at least one"):
        InvalidInputs([])


@pytest.mark.parametrize(
    ("code", "bound", "text"),
    [
        ("required", None, "a value is required"),
        ("not_a_number", None, "not a number"),
        ("not_an_integer", None, "must be a whole number"),
        ("below_minimum", 1, "must be at least 1"),
        ("not_above_minimum", 0.0, "must be greater than 0"),
        ("above_maximum", 1e19, "must be at most 10000000000000000000"),
        ("above_maximum", 0.0006103515625, "must be at most 0.0006103515625"),
        ("not_divisible", 12, "must be a multiple of 12"),
        ("unknown_field", None, "not an input of this calculator"),
        ("some_new_code", None, "some new code"),
    ],
)
def test_english_words_each_code_with_its_bound(code: str, bound: float | None, text: str) -> None:
    assert english(code, bound) == text


def test_an_input_error_needs_a_code_of_the_one_list() -> None:
    with pytest.raises(ValueError, match="ERRORS"):
        InputError("devices", "not_a_code")
