"""Declarations of calculators: their inputs, outputs and compute functions.

A calculator is data. The site's forms, the command-line options and the
browser boundary are all generated from these declarations, so a field's name,
unit, bounds and default are written exactly once, here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from .errors import WARNINGS, SpecError, UnknownCalculatorError

__all__ = [
    "SIGNS",
    "UNITS",
    "Calculator",
    "Cell",
    "Chart",
    "Choice",
    "Column",
    "Compute",
    "Field",
    "Input",
    "Mode",
    "Option",
    "Output",
    "Preset",
    "Presets",
    "Related",
    "Result",
    "Row",
    "Style",
    "Table",
    "Value",
    "unit_for",
]

Value = int | float
"""A number: a parsed numeric input or a computed output value."""

Style = Literal["number", "percent", "multiplier"]
"""How an output is displayed: a plain number, a percentage, or a factor (57.6×)."""

SIGNS: Mapping[str, str] = MappingProxyType({"percent": "%", "multiplier": "×"})
"""The sign an output of each non-number style carries instead of a unit.

The site places ``%`` as CLDR says for the language (``37,5 %`` in French) and
appends ``×``; the browser's worker holds the same ``×``, which a test checks.
"""

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
_SLUG = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*\Z")
# Names that already mean something at the browser boundary or in URLs.
_RESERVED = frozenset({"mode"})

UNITS: Mapping[str, str] = MappingProxyType(
    {
        "devices": "device",
        "samples/s": "sample/s",
        "sequences": "sequence",
        "tokens": "token",
        "replicas": "replica",
        "stages": "stage",
        "micro-batches": "micro-batch",
        "chunks": "chunk",
        "bytes": "byte",
        "GB/s": "GB/s",
        "GB": "GB",
        "MB": "MB",
        "TFLOP/s": "TFLOP/s",
        "tokens/s": "token/s",
        "s": "s",
        "ms": "ms",
        "µs": "µs",
        "%": "%",
    }
)
"""Every unit a declaration may use, in the plural form declared, with its singular.

The site translates both forms and picks one by the language's plural rules
(CLDR, through Babel at build time and ``Intl.PluralRules`` in the browser).
"""


def unit_for(unit: str, shown: str) -> str:
    """Return ``unit`` in English for a count shown as ``shown`` (``1 replica``, ``2 replicas``).

    English's CLDR rule: the singular for exactly 1 with no visible fraction digits.
    """
    return UNITS.get(unit, unit) if shown == "1" else unit


def _check_unit(name: str, unit: str) -> None:
    if unit and unit not in UNITS:
        raise SpecError(f"{name}: unit {unit!r} is not in spec.UNITS (add it with its singular)")


@dataclass(frozen=True, slots=True, kw_only=True)
class Input:
    """One field a reader fills in."""

    name: str
    """Stable public name, used in the form, the URL, the CLI and JSON."""
    label: str
    """Short English label; the site translates it."""
    unit: str = ""
    """Unit shown beside the field, such as ``samples/s``; empty for a count."""
    default: Value | None
    """Value of the pre-rendered example; ``None`` only for optional inputs."""
    minimum: Value | None = None
    """Lowest accepted value."""
    exclusive_minimum: bool = False
    """Whether the minimum itself is refused (``> 0`` rather than ``>= 0``)."""
    maximum: Value
    """Highest accepted value; also what keeps every result finite, so every input has one."""
    integer: bool = False
    """Whether only whole numbers are accepted."""
    optional: bool = False
    """Whether the field may be left empty."""
    help: str = ""
    """One English sentence for ``--help`` and the reference."""
    limit: str = ""
    """English words for an upper limit that depends on other inputs, shown
    instead of ``maximum`` (which then only keeps results finite)."""
    rule: str = ""
    """One English sentence for a condition that involves other inputs."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name) or self.name in _RESERVED:
            raise SpecError(f"input name {self.name!r} must be snake_case and not reserved")
        _check_unit(self.name, self.unit)
        for bound in (self.minimum, self.maximum):
            if bound is not None and not math.isfinite(bound):
                raise SpecError(f"{self.name}: bounds must be finite")
        if self.maximum is None:  # declared without a type checker: refused all the same
            raise SpecError(f"{self.name}: a maximum is required to keep results finite")
        if self.minimum is not None and self.minimum >= self.maximum:
            raise SpecError(f"{self.name}: minimum must be below maximum")
        if self.default is None:
            if not self.optional:
                raise SpecError(f"{self.name}: a required input needs a default")
            return
        if self.integer and not float(self.default).is_integer():
            raise SpecError(f"{self.name}: default of an integer input must be whole")
        if not self.accepts(self.default):
            raise SpecError(f"{self.name}: default {self.default} is out of bounds")

    def accepts(self, value: Value) -> bool:
        """Return whether ``value`` lies within this input's bounds."""
        if self.minimum is not None and (
            value < self.minimum or (self.exclusive_minimum and value == self.minimum)
        ):
            return False
        return value <= self.maximum

    @property
    def step(self) -> str:
        """The HTML ``step`` attribute: ``1`` for whole numbers, else ``any``."""
        return "1" if self.integer else "any"


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One value a :class:`Choice` offers."""

    value: str
    """Stable public value, used in the form, the URL, the CLI and JSON."""
    label: str
    """Short English label; the site translates it."""

    def __post_init__(self) -> None:
        if not _SLUG.match(self.value) and not _CHOICE_VALUE.match(self.value):
            raise SpecError(f"option value {self.value!r} must be kebab-case or a whole number")
        if not self.label:
            raise SpecError(f"option {self.value!r} needs a label")


_CHOICE_VALUE = re.compile(r"[0-9]+\Z")


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice:
    """One field whose value is one of a few named options (a ``<select>`` in the form)."""

    name: str
    """Stable public name, used in the form, the URL, the CLI and JSON."""
    label: str
    """Short English label; the site translates it."""
    options: tuple[Option, ...]
    """What the reader may pick, in display order."""
    default: str
    """The value of the pre-rendered example: one of the options' values."""
    help: str = ""
    """One English sentence for ``--help`` and the reference."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name) or self.name in _RESERVED:
            raise SpecError(f"input name {self.name!r} must be snake_case and not reserved")
        values = self.values
        if len(values) < 2 or len(set(values)) != len(values):
            raise SpecError(f"{self.name}: a choice needs two or more distinct options")
        if self.default not in values:
            raise SpecError(f"{self.name}: default {self.default!r} is not one of {values}")

    @property
    def values(self) -> tuple[str, ...]:
        """The options' public values, in display order."""
        return tuple(option.value for option in self.options)

    def option(self, value: str) -> Option:
        """Return the option whose value is ``value``."""
        for option in self.options:
            if option.value == value:
                return option
        raise KeyError(value)


Field = Input | Choice
"""Anything a reader fills in: a number (:class:`Input`) or a pick (:class:`Choice`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Output:
    """One result a calculator shows."""

    name: str
    """Stable public name, used in the page's DOM and in JSON."""
    label: str
    """Short English label; the site translates it."""
    unit: str = ""
    """Unit shown after the value, such as ``samples/s``."""
    style: Style = "number"
    """Display style. ``percent`` values are in percent points (90 means 90 %)."""
    digits: int = 0
    """Most fraction digits shown (trailing zeros are dropped)."""
    help: str = ""
    """One English sentence for the reference."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise SpecError(f"output name {self.name!r} must be snake_case")
        _check_unit(self.name, self.unit)
        if self.style not in ("number", "percent", "multiplier"):
            raise SpecError(f"{self.name}: unknown style {self.style!r}")
        if not 0 <= self.digits <= 6:
            raise SpecError(f"{self.name}: digits must be between 0 and 6")
        if self.style != "number" and self.unit:
            raise SpecError(f"{self.name}: a {self.style} output carries its own sign, no unit")


Column = Input | Choice | Output
"""A column of a :class:`Table`: a field (a row's value of it) or an output."""

Cell = Value | str
"""One cell of a table's row: a number, or a :class:`Choice` column's option value."""

Row = Mapping[str, Cell]
"""One row of a table: a cell for every column, by column name."""

Related = Callable[[Mapping[str, "Value | str | None"], Row], Mapping[str, Mapping[str, Cell]]]
"""What :attr:`Table.related` is: a row's cases in other calculators, by ``slug/mode``."""

MAX_ROWS = 1000
"""Most rows a table may declare: a reply is a page's worth of rows, not a data set."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Table:
    """A list output: up to ``limit`` rows, each holding a cell for every column.

    The columns are existing declarations, reused rather than retyped: a row of a
    search holds the inputs that define one candidate and the outputs another mode
    computes for it, so each cell is labelled, rounded and linked as that field or
    output is everywhere else.
    """

    name: str
    """Stable public name, used in JSON beside the mode's outputs (one namespace)."""
    label: str
    """Short English title; the site translates it."""
    columns: tuple[Column, ...]
    """The columns, in display order: inputs first by convention, then outputs."""
    limit: int
    """Most rows a result holds; the compute function keeps the first ``limit``."""
    shown: tuple[str, ...] = ()
    """Names of the columns a compact view shows, in order (the command line, a page's
    table); empty for every column. The reply always holds every column."""
    help: str = ""
    """One English sentence for the reference: what a row is and how rows are ordered."""
    page_rows: int = 0
    """Most rows a page shows, the first ones; 0 for all of them. Scripts and the
    command line get every row."""
    related: Related | None = None
    """The cases a row opens in other calculators: ``related(inputs, row)`` gives, by
    ``slug/mode``, that mode's inputs (numbers, or option values) for the row, from the
    request's parsed inputs and the row. The site links each row to them."""
    opens: tuple[str, ...] = ()
    """The ``slug/mode`` of every case :attr:`related` gives, in the order it gives them."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise SpecError(f"table name {self.name!r} must be snake_case")
        names = [column.name for column in self.columns]
        if not names or len(set(names)) != len(names):
            raise SpecError(f"{self.name}: column names must be present and unique")
        # bool is an int: a limit of True is a mistake, not one row.
        if isinstance(self.limit, bool) or not 1 <= self.limit <= MAX_ROWS:
            raise SpecError(f"{self.name}: limit must be a whole number from 1 to {MAX_ROWS}")
        if (self.related is None) != (not self.opens) or len(set(self.opens)) != len(self.opens):
            raise SpecError(f"{self.name}: related and opens go together, opens without repeats")
        if isinstance(self.page_rows, bool) or not 0 <= self.page_rows <= self.limit:
            raise SpecError(f"{self.name}: page_rows must be a whole number from 0 to the limit")
        if len(set(self.shown)) != len(self.shown) or not set(self.shown) <= set(names):
            raise SpecError(f"{self.name}: shown must name distinct columns of the table")

    def column(self, name: str) -> Column:
        """Return the column called ``name``."""
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(name)

    @property
    def compact(self) -> tuple[Column, ...]:
        """The columns a compact view shows, in order: ``shown``, or every column."""
        return tuple(self.column(name) for name in self.shown) if self.shown else self.columns


@dataclass(frozen=True, slots=True, kw_only=True)
class Preset:
    """One named set of values that fills some of a mode's fields, with its source.

    A preset is not an input: picking one writes its values into the fields, where the
    reader sees and may change them, and the compute function never learns a preset
    was used. So no figure is hidden behind a name.
    """

    value: str
    """Stable public name (kebab-case), as the command line and links write it."""
    label: str
    """Short English label; the site translates it."""
    values: Mapping[str, Value | str]
    """The fields it fills, by input name: numbers for inputs, option values for choices."""
    source: str
    """Where the figures come from: the data sheet, paper or configuration, in English."""
    url: str = ""
    """The source's address, when it has one."""

    def __post_init__(self) -> None:
        if not _SLUG.match(self.value):
            raise SpecError(f"preset value {self.value!r} must be kebab-case")
        if not self.label or not self.values or not self.source:
            raise SpecError(f"preset {self.value!r} needs a label, values and a source")
        if self.url and not self.url.startswith("https://"):
            raise SpecError(f"preset {self.value!r}: url must be https")


@dataclass(frozen=True, slots=True, kw_only=True)
class Presets:
    """A list of presets shown as one pick above a mode's form (devices, models...)."""

    name: str
    """Stable public name (snake_case), distinct from the mode's inputs."""
    label: str
    """Short English label; the site translates it."""
    options: tuple[Preset, ...]
    """The presets, in display order."""
    help: str = ""
    """One English sentence: what picking one fills in."""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name) or self.name in _RESERVED:
            raise SpecError(f"presets name {self.name!r} must be snake_case and not reserved")
        values = [option.value for option in self.options]
        if not values or len(set(values)) != len(values):
            raise SpecError(f"{self.name}: presets need distinct values")

    @property
    def fields(self) -> tuple[str, ...]:
        """Every input name some preset fills, in first-seen order."""
        return tuple(dict.fromkeys(name for option in self.options for name in option.values))

    def option(self, value: str) -> Preset:
        """Return the preset whose value is ``value``."""
        for option in self.options:
            if option.value == value:
                return option
        raise KeyError(value)


def _check_presets(mode: str, presets: tuple[Presets, ...], fields: Sequence[Field]) -> None:
    by_name = {item.name: item for item in fields}
    names = [item.name for item in presets]
    if len(set(names)) != len(names) or set(names) & set(by_name):
        raise SpecError(f"mode {mode}: presets names must be distinct from each other and inputs")
    for group in presets:
        for option in group.options:
            for name, value in option.values.items():
                spec = by_name.get(name)
                if spec is None:
                    raise SpecError(f"{group.name}/{option.value}: {name!r} is not an input")
                if isinstance(spec, Choice):
                    accepted = value in spec.values
                else:
                    accepted = (
                        isinstance(value, int | float)
                        and not isinstance(value, bool)
                        and math.isfinite(value)
                        and (not spec.integer or float(value).is_integer())
                        and spec.accepts(value)
                    )
                if not accepted:
                    raise SpecError(f"{group.name}/{option.value}: {value!r} is not a valid {name}")


@dataclass(frozen=True, slots=True)
class Result:
    """What a compute function returns: every declared output, and warnings.

    Attributes:
        values: One value per declared output; ``None`` where an optional input
            the output depends on was left empty.
        warnings: Stable codes of conditions worth telling the reader about
            that are not errors, such as ``super_linear``.
        tables: One sequence of rows per declared :class:`Table`, by name; empty
            for a mode that declares none.
    """

    values: Mapping[str, Value | None]
    warnings: tuple[str, ...] = ()
    tables: Mapping[str, Sequence[Row]] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        unknown = [code for code in self.warnings if code not in WARNINGS]
        if unknown:
            raise SpecError(f"warning codes {unknown} are not in errors.WARNINGS")


Compute = Callable[..., Result]


@dataclass(frozen=True, slots=True, kw_only=True)
class Chart:
    """A chart a mode draws beside its results (see :mod:`calculator.charts`)."""

    draw: Callable[..., str]
    """``draw(mode, values, labels, notation)``: the chart of the mode's parsed
    inputs as an HTML fragment, in the words of :class:`calculator.drawing.Labels`
    and the page's :class:`calculator.notation.Notation`."""
    words: Mapping[str, str]
    """Every word the chart shows, in English, by key (``{name}`` marks a
    number): what the site translates."""

    def __post_init__(self) -> None:
        if not self.words:
            raise SpecError("a chart needs its words")


@dataclass(frozen=True, slots=True, kw_only=True)
class Mode:
    """One question a calculator answers, with its own inputs and outputs."""

    name: str
    """Stable public name (``predict``, ``measure``...), used with ``mode=``."""
    label: str
    """Short English title; the site translates it."""
    inputs: tuple[Field, ...]
    """The fields, in form order."""
    outputs: tuple[Output, ...]
    """The results, in display order."""
    compute: Compute
    """Pure keyword-only function of the inputs returning a :class:`Result`."""
    groups: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Optional grouping of inputs for the form: ``(English legend, input_names)``."""
    chart: Chart | None = None
    """The chart drawn beside the results, if the mode has one."""
    tables: tuple[Table, ...] = ()
    """List outputs, shown after the outputs; their names share the outputs' namespace."""
    presets: tuple[Presets, ...] = ()
    """Named sets of values the form offers to fill some inputs (never inputs themselves)."""

    def __post_init__(self) -> None:
        if not _SLUG.match(self.name):
            raise SpecError(f"mode name {self.name!r} must be kebab-case")
        names = [item.name for item in self.inputs]
        if not names or len(set(names)) != len(names):
            raise SpecError(f"mode {self.name}: input names must be present and unique")
        outputs = [item.name for item in self.outputs]
        if not outputs or len(set(outputs)) != len(outputs):
            raise SpecError(f"mode {self.name}: output names must be present and unique")
        # A reply holds outputs and tables in one map: a name may mean one thing only.
        listed = outputs + [table.name for table in self.tables]
        if len(set(listed)) != len(listed):
            raise SpecError(
                f"mode {self.name}: table names must differ from each other and the outputs'"
            )
        _check_presets(self.name, self.presets, self.inputs)
        grouped = [name for _, members in self.groups for name in members]
        if self.groups and sorted(grouped) != sorted(names):
            raise SpecError(f"mode {self.name}: groups must list every input exactly once")

    def input(self, name: str) -> Field:
        """Return the input called ``name``."""
        for item in self.inputs:
            if item.name == name:
                return item
        raise KeyError(name)

    def defaults(self) -> dict[str, Value | str | None]:
        """Return the pre-rendered example's values, by input name."""
        return {item.name: item.default for item in self.inputs}

    def input_groups(self) -> tuple[tuple[str, tuple[Field, ...]], ...]:
        """Return the inputs grouped for display; one unnamed group if none declared."""
        if not self.groups:
            return (("", self.inputs),)
        return tuple(
            (group, tuple(self.input(name) for name in members)) for group, members in self.groups
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Calculator:
    """A topic's calculator: one or more modes under a stable slug."""

    slug: str
    """Stable public name, used in URLs, the CLI and ``form[data-calc]``."""
    title: str
    """English title."""
    summary: str
    """One English sentence saying what it answers."""
    modes: tuple[Mode, ...] = field(default=())
    """The questions it answers; the first is the default."""

    def __post_init__(self) -> None:
        if not _SLUG.match(self.slug):
            raise SpecError(f"slug {self.slug!r} must be kebab-case")
        names = [mode.name for mode in self.modes]
        if not names or len(set(names)) != len(names):
            raise SpecError(f"{self.slug}: modes must be present and uniquely named")

    @property
    def default_mode(self) -> Mode:
        """The mode used when none is named."""
        return self.modes[0]

    def mode(self, name: str | None = None) -> Mode:
        """Return the mode called ``name``, or the default mode for ``None``."""
        if name is None:
            return self.default_mode
        for mode in self.modes:
            if mode.name == name:
                return mode
        raise UnknownCalculatorError(f"{self.slug}/{name}", (m.name for m in self.modes))
