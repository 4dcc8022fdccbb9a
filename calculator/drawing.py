"""The drawing toolkit of the core's charts: escaping, words, numbers, SVG and axes.

Each chart (:mod:`calculator.chart_scaling`, :mod:`calculator.chart_schedule`,
:mod:`calculator.chart_planner`) is drawn from these pieces, so that every
chart escapes its text, writes its numbers as the page's language does and
lays out its axes the same way.
Everything is computed with exact fractions, or with the four operations of
IEEE doubles rounded once, and written with fixed digits, so CPython and
Pyodide write the same bytes. Every text node and attribute value is escaped,
ids are reduced to ``[a-z0-9-]``, and elements, attribute names and classes are
literals of the chart modules: no text can become markup. No colour is written:
the site's stylesheet colours each class from the theme's custom properties.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType

from .decimals import rounded
from .notation import Notation
from .spec import SIGNS, Value

__all__ = [
    "CHAR",
    "FONT",
    "SHARED_WORDS",
    "WIDTH",
    "Axis",
    "Labels",
    "Numbers",
    "axis",
    "coordinate",
    "data_table",
    "escape",
    "figure",
    "fitting_axis",
    "input_number",
    "legend_box",
    "svg_root",
    "tag",
]

SHARED_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "data": "The chart's numbers",
        "entered": "{value} (entered)",
    }
)
"""Words every chart shows, in English, by key; ``{name}`` marks a number."""

WIDTH = 400
"""Width of every chart's drawing, in its units."""

# Characters XML 1.0 does not allow, and lone surrogates: dropped from any text.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
_NOT_ID = re.compile(r"[^a-z0-9-]")
_SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def escape(text: str) -> str:
    """``text`` safe as an HTML or XML text node or quoted attribute value."""
    text = _NOT_XML.sub("", text)
    for char, entity in _ESCAPES.items():  # & first: the others' entities start with it
        text = text.replace(char, entity)
    return text


@dataclass(frozen=True, slots=True)
class Labels:
    """The words and number conventions of the page a chart is drawn for."""

    words: Mapping[str, str] = field(default_factory=dict)
    """Templates by key, in the page's language (see :meth:`for_chart`)."""
    min_grouping: int = 1
    """CLDR's minimum grouping digits: Italian groups ``12.345`` but not ``1234``."""
    percent: str = "{value}%"
    """Where the number goes in a percentage (``{value}\u00a0%`` in French)."""
    prefix: str = "chart"
    """Prefix of the chart's element ids, unique on the page."""

    @classmethod
    def from_json(cls, text: str | None) -> Labels:
        """Read labels from the JSON object the page passes; anything unusable is ignored.

        The object may hold ``words`` (templates by key), ``min_grouping`` (1 to 4),
        ``percent`` (a template holding ``{value}``) and ``id``.
        """
        try:
            data = json.loads(text) if isinstance(text, str) else None
        except ValueError:
            data = None
        if not isinstance(data, dict):
            data = {}
        given = data.get("words")
        words = {
            key: value
            for key, value in (given.items() if isinstance(given, dict) else ())
            if isinstance(key, str) and isinstance(value, str)
        }
        grouping = data.get("min_grouping")
        percent = data.get("percent")
        prefix = data.get("id")
        ident = _NOT_ID.sub("", prefix.lower())[:64] if isinstance(prefix, str) else ""
        return cls(
            words=words,
            min_grouping=grouping if type(grouping) is int and 1 <= grouping <= 4 else 1,
            percent=percent if isinstance(percent, str) and "{value}" in percent else "{value}%",
            prefix=ident or "chart",
        )

    def for_chart(self, english: Mapping[str, str]) -> Labels:
        """These labels for a chart whose words are ``english``.

        A word the page gives replaces the English one; a key the chart does not
        have is dropped, and one the page leaves out is drawn in English.
        """
        given = {key: value for key, value in self.words.items() if key in english}
        return replace(self, words={**english, **given})

    def word(self, key: str, **values: str) -> str:
        """The template ``key`` with each ``{name}`` replaced by its value."""
        text = self.words[key]
        for name, value in values.items():
            text = text.replace("{" + name + "}", value)
        return text


def input_number(values: Mapping[str, Value | str | None], name: str) -> Value:
    """The number entered for ``name``: 0 for an empty optional field."""
    value = values[name]
    assert not isinstance(value, str), f"{name} is a choice, not a number"
    return value or 0


class Numbers:
    """Numbers written as the page's language writes them, as Babel and ``Intl`` do."""

    def __init__(self, notation: Notation, labels: Labels) -> None:
        self._notation = notation
        self._labels = labels

    def plain(self, text: str) -> str:
        """A plain decimal (``1234.5``) with the language's separators and grouping."""
        return self._notation.grouped(text, self._labels.min_grouping)

    def number(self, value: Value | Fraction, digits: int = 6) -> str:
        """``value`` rounded once to at most ``digits`` places, as the language writes it."""
        return self.plain(rounded(value, digits))

    def percent(self, value: Value | Fraction, digits: int = 2) -> str:
        """A value in percent points (90 means 90 %), as the language places the sign."""
        return self._labels.percent.replace("{value}", self.number(value, digits))

    def times(self, value: Value | Fraction, digits: int = 2) -> str:
        """A factor, such as a speedup (``57.6×``)."""
        return self.number(value, digits) + SIGNS["multiplier"]


# ---------------------------------------------------------------- drawing


def coordinate(value: Fraction | float) -> str:
    """A coordinate: rounded once to a double, then to two places, zeros dropped."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def tag(name: str, attributes: Mapping[str, str], text: str) -> str:
    """One element and its text; attribute values and text are escaped, names are this module's."""
    attrs = "".join(f' {key}="{escape(value)}"' for key, value in attributes.items())
    return f"<{name}{attrs}>{escape(text)}</{name}>"


def data_table(
    prefix: str, caption: str, headers: Sequence[str], rows: Iterable[Sequence[str]]
) -> str:
    """A chart's numbers as an HTML table, folded in a ``<details>`` under the drawing."""
    head = "".join(tag("th", {"scope": "col"}, text) for text in headers)
    body = "".join(
        "<tr>"
        + tag("th", {"scope": "row"}, row[0])
        + "".join(tag("td", {}, cell) for cell in row[1:])
        + "</tr>"
        for row in rows
    )
    return (
        '<details class="calc-chart__data">'
        + tag("summary", {}, caption)
        + f'<table class="calc-chart__table" id="{prefix}-table" tabindex="0">'
        + f"<thead><tr>{head}</tr></thead>"
        + f"<tbody>{body}</tbody></table></details>"
    )


_KEYS = {
    "line": '<line x1="1" y1="6" x2="23" y2="6" stroke="currentColor"/>',
    "point": '<circle cx="12" cy="6" r="4" stroke="currentColor"/>',
    "box": '<rect x="3" y="1" width="18" height="10" stroke="currentColor"/>',
}


def legend_box(entries: Iterable[tuple[str, str, str]]) -> str:
    """A list of (shape, class, text): the key drawn in the series' own class."""
    items = "".join(
        "<li>"
        f'<svg class="calc-chart__key" viewBox="0 0 24 12" width="24" height="12" '
        f'aria-hidden="true" focusable="false"><g class="{kind}">{_KEYS[shape]}</g></svg> '
        f"{escape(text)}</li>"
        for shape, kind, text in entries
    )
    return f'<ul class="calc-chart__legend">{items}</ul>'


def svg_root(prefix: str, width: int, height: int, *, title: str, desc: str, body: str) -> str:
    """The drawing as an ``<svg role="img">`` named by its ``<title>`` and ``<desc>``."""
    return (
        f'<svg class="calc-chart__svg" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{prefix}-title {prefix}-desc">'
        + tag("title", {"id": f"{prefix}-title"}, title)
        + tag("desc", {"id": f"{prefix}-desc"}, desc)
        + body
        + "</svg>"
    )


def figure(
    prefix: str, title: str, *, legend: str, svg: str, notes: Iterable[str], table: str
) -> str:
    """The chart as one HTML fragment: title, legend, drawing, notes and table."""
    notes_html = "".join(tag("p", {"class": "calc-chart__note"}, note) for note in notes)
    return (
        tag("p", {"class": "calc-chart__title", "id": f"{prefix}-heading"}, title)
        + legend
        + svg
        + notes_html
        + table
    )


# ---------------------------------------------------------------- axes

FONT = 13
CHAR = Fraction(FONT * 6, 10)
"""Width of one character of a label, for spacing: 0.6 em."""


def _nice_step(raw: Fraction) -> Fraction:
    """The smallest of 1, 2 or 5 times a power of ten that is at least ``raw`` (> 0)."""
    power = Fraction(1)
    while power > raw:
        power /= 10
    while power * 10 <= raw:
        power *= 10
    return next(factor * power for factor in (1, 2, 5, 10) if factor * power >= raw)


@dataclass(frozen=True)
class Axis:
    """An axis from 0 to ``top``, with its ticks and the power of ten its labels use."""

    top: Fraction
    ticks: tuple[Fraction, ...]
    scale: int
    """Power of ten the tick labels are written in (``× 10⁶``); 0 for none."""

    def label(self, numbers: Numbers, tick: Fraction) -> str:
        """A tick's label, in the axis's power of ten."""
        return numbers.number(tick / Fraction(10) ** self.scale)

    def title(self, text: str) -> str:
        """The axis's title, with its power of ten (``× 10⁶``) when it has one."""
        if not self.scale:
            return text
        return f"{text} (× 10{str(self.scale).translate(_SUPERSCRIPTS)})"


def axis(top: Fraction, intervals: int, integer: bool) -> Axis:
    """Ticks from 0 to a round bound at least ``top``, about ``intervals`` apart."""
    step = _nice_step(top / intervals)
    if integer:
        step = max(step, Fraction(1))
    bound = step * math.ceil(top / step)
    scale = 0
    # Labels of at most four integer digits, in thousands, millions...: "× 10⁶".
    if bound >= 10**6 or bound < 1:
        while bound / Fraction(10) ** scale >= 10**4:
            scale += 3
        while bound / Fraction(10) ** scale < 1:
            scale -= 3
    count = int(bound / step)
    return Axis(bound, tuple(step * k for k in range(count + 1)), scale)


def fitting_axis(top: Fraction, width: Fraction, numbers: Numbers, *, integer: bool = True) -> Axis:
    """The x axis with the most ticks whose labels do not collide (whole ones by default)."""
    candidates = [axis(top, intervals, integer=integer) for intervals in (6, 5, 4, 3, 2, 1)]

    def fits(axis: Axis) -> bool:
        widest = max(len(axis.label(numbers, tick)) for tick in axis.ticks) * CHAR
        return width / (len(axis.ticks) - 1) >= widest + 8

    return next((axis for axis in candidates if fits(axis)), candidates[-1])
