"""Numbers as a reader writes them: the page's language, or plain notation.

A form's field is text. On a French page ``96,59`` is 96.59 and ``1 500`` is
1500; on an Italian page ``2.000`` is two thousand. Plain notation (``96.59``,
``2000``, ``1e3``, what a script or a shared link carries) is understood on
every page too. This module turns a field's text into plain notation, given the
page language's symbols, so that the one strict parser of :mod:`.values` reads
it; the command line and the JSON boundary keep plain notation only.

The rules, for a text with its surrounding spaces removed:

1. It is read in plain notation: optional sign, digits, optional ``.``
   and digits, optional exponent (``e`` or ``E``), no grouping.
2. It is read in the language's notation: optional sign, an integer part
   either ungrouped or grouped well (first group of one to three digits not
   starting with 0, then groups of exactly ``group_size`` digits, each after a
   group separator), optional decimal separator and digits, optional exponent.
   A language whose group separator is a space accepts any of the space,
   the no-break space and the narrow no-break space.
3. If only one reading exists, or both give the same number, that number is
   taken. If they give two numbers (``1.500`` on an Italian page: 1500 in
   Italian, 1.5 in plain notation), the language's reading is taken and a
   :class:`Note` says so, with both readings, so the page can tell the reader
   how to write the other one. Nothing is read silently two ways.
4. Otherwise the text is passed on unchanged, and the parser reports
   ``not_a_number``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from . import decimals
from .errors import SpecError

__all__ = ["ENGLISH", "Notation", "Note", "localise"]

_SPACES = " \u00a0\u202f"
"""Group separators a reader may type where the language's separator is a space."""

_PLAIN = re.compile(
    r"(?P<sign>[+-]?)(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?(?P<exp>[eE][+-]?[0-9]+)?\Z"
)


@dataclass(frozen=True, slots=True)
class Note:
    """A field whose text reads two ways; the language's reading was taken.

    Attributes:
        field: The input's public name.
        code: ``read_grouped``: the language's group separator is plain
            notation's decimal point, and the text was read as grouped.
        readings: The number taken, then the number plain notation would give,
            both as plain fixed-point decimal strings (``"1500"``, ``"1.5"``).
    """

    field: str
    code: str
    readings: tuple[str, str]

    def as_dict(self) -> dict[str, object]:
        """Return the note as the JSON-ready mapping used at the browser boundary."""
        return {"field": self.field, "code": self.code, "readings": list(self.readings)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Notation:
    """How a language writes numbers: CLDR's symbols, from the site's build."""

    decimal: str
    """Decimal separator (``,`` in French and Italian)."""
    group: str
    """Group separator (U+202F in French, ``.`` in Italian, ``,`` in English)."""
    group_size: int = 3
    """Digits per group."""
    minus: str = "-"
    """Minus sign; the ASCII hyphen-minus is always accepted too."""

    def __post_init__(self) -> None:
        symbols = (self.decimal, self.group, self.minus)
        if any(len(symbol) != 1 or symbol.isdigit() for symbol in symbols):
            raise SpecError("notation: each symbol must be one character other than a digit")
        if self.decimal == self.group or self.decimal in "eE+" or self.group in "eE+-":
            raise SpecError("notation: decimal and group separators must differ and not be signs")
        if not 1 <= self.group_size <= 4:
            raise SpecError("notation: group_size must be between 1 and 4")

    @classmethod
    def from_json(cls, text: str) -> Notation:
        """Build a notation from the JSON object the page sends.

        Raises:
            SpecError: If the text is not a JSON object of valid symbols.
        """
        try:
            data = json.loads(text)
        except (TypeError, ValueError):
            data = None
        if not isinstance(data, dict):
            raise SpecError("notation: expected a JSON object")
        try:
            return cls(
                decimal=str(data["decimal"]),
                group=str(data["group"]),
                group_size=int(data.get("group_size", 3)),
                minus=str(data.get("minus", "-")),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise SpecError(f"notation: {error}") from None

    def as_json(self) -> str:
        """Return the notation as the JSON object the page carries."""
        return json.dumps(
            {
                "decimal": self.decimal,
                "group": self.group,
                "group_size": self.group_size,
                "minus": self.minus,
            },
            ensure_ascii=False,
            sort_keys=True,
        )

    @property
    def _groups(self) -> str:
        spaced = unicodedata.category(self.group) == "Zs"
        return _SPACES if spaced else self.group

    def _local_pattern(self) -> re.Pattern[str]:
        group = "[" + re.escape(self._groups) + "]"
        size = self.group_size
        minus = re.escape(self.minus)
        return re.compile(
            rf"(?P<sign>[+\-{minus}]?)"
            rf"(?P<int>[0-9]*|[1-9][0-9]{{0,{size - 1}}}(?:{group}[0-9]{{{size}}})+)"
            rf"(?:{re.escape(self.decimal)}(?P<frac>[0-9]*))?"
            r"(?P<exp>[eE][+\-" + minus + r"]?[0-9]+)?\Z"
        )

    def read(self, text: str) -> tuple[str, str | None] | None:
        """Read ``text`` in this notation and in plain notation.

        Returns:
            ``None`` if neither reads it. Otherwise the plain-notation text to
            parse and, if plain notation reads the text as another number,
            that other number's plain text (the language's reading wins).
        """
        stripped = text.strip()
        plain = _parts(_PLAIN.match(stripped), self.minus)
        local = _parts(self._local_pattern().match(stripped), self.minus)
        if local is None:
            return None if plain is None else (stripped, None)
        local_text = _join(*local)
        if plain is None:
            return local_text, None
        if Decimal(local_text) == Decimal(_join(*plain)):
            return stripped, None
        return local_text, decimals.plain(_join(*plain))

    def grouped(self, plain: str, min_grouping: int = 1) -> str:
        """Write a plain fixed-point decimal (``-1234.5``) as this language does, grouped.

        The core's one grouping of digits, for what is read rather than typed
        (a chart's numbers, the command line's results): the whole part in groups
        of :attr:`group_size` once it has at least ``group_size + min_grouping``
        digits (CLDR's minimum grouping: Italian writes ``1234`` but ``12.345``).

        Raises:
            ValueError: If ``plain`` is not a fixed-point decimal string.
        """
        written = self.write(plain)
        sign = written[: len(written) - len(written.lstrip(self.minus))]
        whole, _, fraction = written[len(sign) :].partition(self.decimal)
        size = self.group_size
        if len(whole) >= size + min_grouping:
            head = len(whole) % size or size
            groups = [whole[:head]] + [whole[i : i + size] for i in range(head, len(whole), size)]
            whole = self.group.join(groups)
        return sign + whole + (self.decimal + fraction if fraction else "")

    def write(self, plain: str) -> str:
        """Write a plain fixed-point decimal (``-1234.5``) as this language does, ungrouped.

        A field shows values ungrouped: on an Italian page ``15.000`` would
        read two ways, ``15000`` reads one.

        Raises:
            ValueError: If ``plain`` is not a fixed-point decimal string.
        """
        match = re.fullmatch(r"(-?)([0-9]+)(?:\.([0-9]+))?", plain)
        if match is None:
            raise ValueError(f"not a fixed-point decimal: {plain!r}")
        sign, whole, fraction = match.groups()
        text = (self.minus if sign else "") + whole
        return text + (self.decimal + fraction if fraction else "")


def _parts(match: re.Match[str] | None, minus: str) -> tuple[str, str, str, str] | None:
    """Sign, integer digits, fraction digits and exponent of a match, or ``None``."""
    if match is None:
        return None
    whole = re.sub(r"[^0-9]", "", match["int"])
    fraction = match["frac"] or ""
    if not whole and not fraction:
        return None
    sign = "-" if match["sign"] in ("-", minus) else ""
    exponent = (match["exp"] or "").replace(minus, "-").lower()
    return sign, whole, fraction, exponent


def _join(sign: str, whole: str, fraction: str, exponent: str) -> str:
    return sign + (whole or "0") + ("." + fraction if fraction else "") + exponent


def localise(
    names: tuple[str, ...], raw: Mapping[str, object], notation: Notation
) -> tuple[dict[str, object], tuple[Note, ...]]:
    """Turn the text of each named field into plain notation.

    Args:
        names: The inputs of the mode, in form order.
        raw: Raw values by name; non-text values and unknown keys pass unchanged.
        notation: The page language's notation.

    Returns:
        The raw values with every readable text in plain notation, and one
        :class:`Note` per field that read two ways, in form order.
    """
    plain: dict[str, object] = dict(raw)
    notes: list[Note] = []
    for name in names:
        text = raw.get(name)
        if not isinstance(text, str):
            continue
        reading = notation.read(text)
        if reading is None:
            continue
        taken, other = reading
        plain[name] = taken
        if other is not None:
            notes.append(Note(name, "read_grouped", (decimals.plain(taken), other)))
    return plain, tuple(notes)


ENGLISH = Notation(decimal=".", group=",")
"""English's notation: the command line's, and a chart's drawn without a page's."""
