"""The core's one writer of plain decimal text: exact values and the one rounding."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator.decimals import exact, plain, rounded

finite = st.floats(allow_nan=False, allow_infinity=False)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (-0.0, "0"),
        (1500, "1500"),
        (2.5, "2.5"),
        (0.1, "0.1"),
        (1e-5, "0.00001"),
        (1e19, "10000000000000000000"),
        (-3.25, "-3.25"),
        (10**30 + 1, "1000000000000000000000000000001"),
        ("1.5e3", "1500"),
        ("96.590", "96.59"),
        (Fraction(3, 8), "0.375"),
        ("3/4", "0.75"),  # text that is a fraction, not a decimal, is read as one
    ],
)
def test_plain_writes_the_decimal_as_written(
    value: int | float | str | Fraction, text: str
) -> None:
    assert plain(value) == text


def test_plain_refuses_a_fraction_without_a_finite_decimal() -> None:
    with pytest.raises(ValueError, match="no finite decimal"):
        plain(Fraction(1, 3))


@pytest.mark.parametrize("value", [math.inf, "nan", "Infinity", "twelve"])
def test_plain_refuses_what_is_no_finite_number(value: float | str) -> None:
    with pytest.raises(ValueError, match="Invalid literal for Fraction"):
        plain(value)


@given(finite)
def test_plain_reads_back_as_the_same_double_and_never_has_an_exponent(value: float) -> None:
    text = plain(value)
    assert float(text) == value
    assert "e" not in text
    assert text == "0" or not text.endswith(("0", ".")) or "." not in text


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [
        (0.125, 2, "0.13"),
        (2.675, 2, "2.68"),  # the double is 2.67499...: rounded as the 2.675 written
        (-2.675, 2, "-2.68"),  # half away from zero
        (-0.001, 2, "0"),  # never "-0"
        (Fraction(1, 3), 6, "0.333333"),
        (1500, 1, "1500"),
        (99.995, 2, "100"),
    ],
)
def test_rounded_is_half_away_from_zero_on_the_decimal_as_written(
    value: float | Fraction, digits: int, text: str
) -> None:
    assert rounded(value, digits) == text


@given(finite, st.integers(min_value=0, max_value=8))
def test_rounded_agrees_with_decimal_round_half_up(value: float, digits: int) -> None:
    with localcontext() as context:
        context.prec = 400
        quantized = Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)
    expected = format(quantized, "f")
    if "." in expected:
        expected = expected.rstrip("0").rstrip(".")
    assert rounded(value, digits) == ("0" if expected in ("-0", "") else expected)


@given(st.integers(min_value=-(10**40), max_value=10**40))
def test_exact_keeps_ints_and_reads_floats_by_their_shortest_repr(value: int) -> None:
    assert exact(value) == value
    assert exact(0.1) == Fraction(1, 10)
    assert math.isclose(float(exact(value / 7)), value / 7)


written_text = st.decimals(allow_nan=False, allow_infinity=False).map(str)


@given(st.one_of(finite, st.integers(), written_text))
def test_a_written_number_is_written_and_rounded_as_its_exact_fraction(
    value: float | int | str,
) -> None:
    # Ints, floats and decimal text take a faster way than fractions; both must agree.
    assert plain(value) == plain(exact(value))
    for digits in (0, 1, 2, 7):
        assert rounded(value, digits) == rounded(exact(value), digits)
