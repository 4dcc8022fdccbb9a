"""Numbers and dates in the page's language, from CLDR data through Babel.

The core rounds (:func:`calculator.display_decimal`); this module only
localises the digits of that decimal string. In the browser the same string is
localised by ``Intl.NumberFormat``; the browser tests compare the two
character for character.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from functools import cache

from babel import Locale
from babel.dates import format_date
from babel.numbers import (
    format_decimal,
    format_percent,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
)

from calculator import Output, display_decimal
from calculator.decimals import plain
from calculator.notation import Notation
from calculator.spec import SIGNS, Value

__all__ = [
    "format_bound",
    "format_day",
    "format_field",
    "format_output",
    "notation",
    "plain",
    "plural_category",
]

# CLDR's minimumGroupingDigits, which browsers apply ("1234,5" in Italian) but
# Babel 2.18 does not expose. Locales not listed group from four digits.
_MIN_GROUPING = {"it": 2, "es": 2, "pl": 2, "pt_PT": 2}


def _grouped(shown: Decimal, language: str) -> bool:
    """Whether the integer part of the number as shown gets group separators."""
    return abs(shown) >= Decimal(10) ** (2 + _MIN_GROUPING.get(language, 1))


def _decimal(number: Decimal, language: str) -> str:
    return format_decimal(
        number,
        locale=language,
        decimal_quantization=False,
        group_separator=_grouped(number, language),
    )


def format_output(output: Output, value: Value | None, language: str) -> str:
    """Return the text of one result as the page shows it (``57,6×``, ``37,5 %``).

    ``None`` (a result that does not apply) is shown as a dash.
    """
    if value is None:
        return "—"
    number = Decimal(display_decimal(output, value))
    if output.style == "percent":
        return format_percent(
            number,
            locale=language,
            decimal_quantization=False,
            group_separator=_grouped(number.scaleb(2), language),
        )
    text = _decimal(number, language)
    return text + SIGNS["multiplier"] if output.style == "multiplier" else text


def format_bound(value: Value, language: str) -> str:
    """Return an input value or bound as the page shows it (``2 000``, ``0,5``)."""
    number = Decimal(value) if isinstance(value, int) else Decimal(repr(value))
    if number == number.to_integral_value():
        number = number.quantize(Decimal(1))
    else:
        number = number.normalize()
    return _decimal(number, language)


def format_day(day: datetime.date, language: str) -> str:
    """Return a date in the page's language, long form (``30 novembre 2026``)."""
    return format_date(day, format="long", locale=language)


@cache
def notation(language: str) -> Notation:
    """How ``language`` writes numbers, from CLDR: what the core reads a field with."""
    return Notation(
        decimal=get_decimal_symbol(language),
        group=get_group_symbol(language),
        group_size=Locale.parse(language).decimal_formats[None].grouping[0],
        minus=get_minus_sign_symbol(language),
    )


def format_field(value: Value | None, language: str) -> str:
    """Return a value as a field shows it: the language's decimal sign, no grouping.

    Ungrouped because on an Italian page ``15.000`` would read two ways.
    """
    return "" if value is None else notation(language).write(plain(value))


def plural_category(shown: str, language: str) -> str:
    """CLDR plural category of a number shown as the plain decimal ``shown``.

    ``many`` (French and Italian millions) takes the ``other`` form: no unit
    of the site has a separate one.
    """
    category = Locale.parse(language).plural_form(Decimal(shown))
    return "other" if category == "many" else category
