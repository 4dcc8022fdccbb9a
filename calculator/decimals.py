"""Numbers as plain decimal text: the core's one writer of digits.

Plain text is what links, JSON, the command line and the site's formatters
carry: ASCII digits, an optional ``-``, an optional ``.`` and fraction digits,
no grouping, no exponent, no trailing zeros (``1234.5``, ``0.00001``). Every
value is taken as the decimal it was written as: a float by its shortest
``repr`` (``0.1`` is 1/10, not its binary neighbour), so that a number typed by
a reader comes back as the same text. Grouping and each language's symbols are
:mod:`calculator.notation`'s job; this module writes only the digits.
"""

from __future__ import annotations

import math
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, ROUND_HALF_UP, Context, Decimal
from fractions import Fraction

# Not spec.Value: spec imports errors, which writes its bounds with this module.
Number = int | float | Fraction | str

__all__ = ["exact", "plain", "rounded"]

_EXACT = Context(prec=MAX_PREC, rounding=ROUND_HALF_UP, Emax=MAX_EMAX, Emin=MIN_EMIN)
"""Room for any decimal's digits: quantizing in it rounds only where asked."""


def exact(value: Number) -> Fraction:
    """``value`` as the decimal it was written as.

    A float by its shortest ``repr`` (``0.3`` is 3/10), a string as the decimal it
    spells (``"1.5e3"``), an int or a fraction as it is.
    """
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def plain(value: Number) -> str:
    """Write a finite decimal ``value`` exactly (``1e19`` as 20 digits, ``2.50`` as ``2.5``).

    Raises:
        ValueError: If ``value`` is a fraction with no finite decimal expansion.
    """
    written = _written(value)
    if written is not None:
        return _text(written)
    number = exact(value)
    twos, fives = _factors(number.denominator)
    if twos * fives != number.denominator:
        raise ValueError(f"{value!r} has no finite decimal expansion")
    digits = max(twos.bit_length() - 1, _power(fives, 5))
    return rounded(number, digits)


def _factors(denominator: int) -> tuple[int, int]:
    """The largest power of 2 and the largest power of 5 that divide ``denominator``."""
    twos = denominator & -denominator
    fives = 1
    while denominator % (fives * 5) == 0:
        fives *= 5
    return twos, fives


def _power(number: int, base: int) -> int:
    exponent = 0
    while number > 1:
        number //= base
        exponent += 1
    return exponent


def rounded(value: Number, digits: int) -> str:
    """Round ``value`` half away from zero to ``digits`` places, in plain notation.

    The one rounding of the core: results for display and the numbers a chart
    writes. Taken on the exact decimal, so ``2.675`` rounds to ``2.68`` although
    its double lies just below it.
    """
    written = _written(value)
    if written is not None and digits >= 0:
        return _text(written.quantize(Decimal((0, (1,), -digits)), context=_EXACT))
    number = exact(value)
    scaled = math.floor(abs(number) * 10**digits + Fraction(1, 2))
    text = str(scaled).rjust(digits + 1, "0")
    whole, fraction = text[: len(text) - digits], text[len(text) - digits :].rstrip("0")
    sign = "-" if number < 0 and scaled else ""
    return sign + whole + ("." + fraction if fraction else "")


def _written(value: Number) -> Decimal | None:
    """``value`` as the finite decimal it was written as, or None for a fraction.

    The fast way for what the core mostly writes (ints and floats): a decimal
    holds a written number exactly, in C, where a fraction takes a gcd at every
    step. A fraction, or text that is no finite decimal, takes the exact way,
    which also raises what it raises.
    """
    if isinstance(value, Fraction):
        return None
    try:
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except ArithmeticError:
        return None
    return number if number.is_finite() else None


def _text(number: Decimal) -> str:
    """A finite decimal in plain notation: no exponent, no trailing zero, never ``-0``."""
    text = format(number, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "0") else text
