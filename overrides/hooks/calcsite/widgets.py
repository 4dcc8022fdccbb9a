"""The data behind a calculator's form, results and reference table.

Everything the fragments show comes from the core's declarations: names,
units, bounds, defaults and the pre-computed example. The fragments
(``overrides/fragments/calculator/*.html``) only lay it out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from babel import Locale
from babel.numbers import format_percent

from calculator import Calculator, Choice, Input, Mode, Output, display_decimal, run
from calculator.charts import CHARTS, WORDS, Labels, render
from calculator.errors import ERRORS, NOTES, WARNINGS
from calculator.spec import SIGNS, UNITS, Option, Presets, Value
from calculator.values import parse_inputs

from .contract import CONTRACT, STATES, Contract, chart_id, form_id, names
from .formatting import (
    format_bound,
    format_field,
    format_output,
    notation,
    plain,
    plural_category,
)
from .messages import CATALOGS, UI, translate
from .result_tables import TableView, table_views

__all__ = [
    "Field",
    "Widget",
    "chart_context",
    "chart_labels",
    "field_value",
    "hint",
    "notation_context",
    "option_label",
    "reference_context",
    "unit_text",
    "widget_context",
]

Example = Mapping[str, Value | str | None]
"""A form's example: a number, a choice's value or nothing, by input name."""


@dataclass(frozen=True)
class Field:
    """One input as the form shows it: a text field, or a list for a :class:`Choice`."""

    spec: Input | Choice
    id: str
    label: str
    unit: str
    value: str
    hint: str
    options: tuple[tuple[str, str], ...] = ()
    """A choice's options, (value, label in the page's language), in display order."""


@dataclass(frozen=True)
class PresetList:
    """A list of presets as the form shows it: a pick that fills some fields."""

    spec: Presets
    id: str
    label: str
    hint: str
    options: tuple[tuple[str, str], ...]
    """(value, label) of each preset, in display order; labels are names, not translated."""
    fills: str
    """JSON: by preset value, the texts it writes into each field (as the page writes
    numbers, unless ungrouped) and its source, ``{"fields": {...}, "source", "url"}``."""


@dataclass(frozen=True)
class Result:
    """One output as the results area shows it."""

    spec: Output
    label: str
    unit: str
    text: str


@dataclass(frozen=True)
class Widget:
    """Everything ``fragments/calculator/form.html`` needs."""

    calculator: Calculator
    mode: Mode
    id: str
    language: str
    title: str
    subtitle: str
    input_ids: str
    groups: tuple[tuple[str, tuple[Field, ...]], ...]
    results: tuple[Result, ...]
    warnings: tuple[str, ...]
    status: str
    results_title: str
    copy_label: str
    messages: str
    notation: str
    units: str
    noscript: str
    tables: tuple[TableView, ...] = ()
    """The mode's list outputs for the example (the planner's plans)."""
    many: bool = False
    """Whether the mode has more results than a column beside the fields holds
    (:data:`MANY_RESULTS`): they then sit above the fields, across the form."""
    presets: tuple[PresetList, ...] = ()
    """The mode's lists of presets, shown once the page script can apply them."""
    presets_words: tuple[str, str, str] = ("", "", "")
    """The presets' legend, the item that picks none, and the word before a source."""
    contract: Contract = CONTRACT
    """The names the page script reads, for the template to write (:mod:`calcsite.contract`)."""


MANY_RESULTS = 10
"""Most results a column beside the fields holds on a laptop's screen (1280 × 800) while
the last field is edited: the training planner's check, with 19, sets them above."""


def hint(spec: Input | Choice, language: str) -> str:
    """What a field accepts, in words (``A whole number from 1 to 10,000,000.``).

    An upper limit that depends on other inputs is named instead of the
    declared maximum, which only keeps results finite. A choice's options are
    in its list for all to see: its hint says what they mean instead (its help).
    """

    def t(key: str) -> str:
        return translate(language, UI[key])

    if isinstance(spec, Choice):
        return translate(language, spec.help)
    if spec.minimum is None:
        kind = "hint.up_to"
    elif spec.integer:
        kind = "hint.whole"
    else:
        kind = "hint.above" if spec.exclusive_minimum else "hint.from"
    low = spec.minimum
    if spec.integer and spec.exclusive_minimum and low is not None:
        low = int(low) + 1
    high = translate(language, spec.limit) if spec.limit else format_bound(spec.maximum, language)
    text = t(kind).format(min="" if low is None else format_bound(low, language), max=high)
    if spec.optional:
        text = t("hint.optional").format(hint=text)
    if spec.rule:
        text += " " + translate(language, spec.rule)
    return text


def option_label(option: Option, language: str) -> str:
    """An option's label in ``language``; its value stays the same word in every language."""
    return translate(language, option.label)


def field_value(spec: Input | Choice, value: Value | str | None, language: str) -> str:
    """What a field holds for ``value``: a number as ``language`` writes it, a choice's value.

    Raises:
        TypeError: For a value of the other kind than the field's.
    """
    if isinstance(spec, Choice):
        if not isinstance(value, str):
            raise TypeError(f"{spec.name} is a choice: {value!r} is not one of its values")
        return value
    if isinstance(value, str):
        raise TypeError(f"{spec.name} is a number, not the choice {value!r}")
    return format_field(value, language)


def unit_text(unit: str, shown: str | None, language: str) -> str:
    """``unit`` in ``language`` for a number shown as the plain decimal ``shown``.

    Without a number (an empty field), the plural form, as a label would say it.
    """
    if not unit:
        return ""
    one = shown is not None and plural_category(shown, language) == "one"
    return translate(language, UNITS[unit] if one else unit)


def _unit_forms(
    specs: tuple[Input | Choice, ...] | tuple[Output, ...], language: str
) -> dict[str, Any]:
    """Singular and plural of each unit that has two forms in ``language``, by field name."""
    forms = {}
    for spec in specs:
        if isinstance(spec, Choice):
            continue  # a choice has no unit
        if spec.unit and translate(language, UNITS[spec.unit]) != translate(language, spec.unit):
            forms[spec.name] = {
                "one": translate(language, UNITS[spec.unit]),
                "other": translate(language, spec.unit),
            }
    return forms


MESSAGE_KEYS: tuple[str, ...] = (
    *ERRORS,
    *WARNINGS,
    *NOTES,
    *names(STATES).values(),
    "copied",
    "copy_failed",
    "copy_link",
)
"""The strings the page script words itself: every code of the core, and its states."""


def _messages(language: str) -> str:
    """The strings the page script needs, as a JSON object, in the page's language."""
    return json.dumps(
        {key: translate(language, UI[key]) for key in MESSAGE_KEYS}, ensure_ascii=False
    )


def widget_context(
    calculator: Calculator,
    mode: Mode,
    language: str,
    values: Example | None = None,
    *,
    page: str = "",
    embedded: bool = False,
) -> Widget:
    """Compute the example with the core and describe the form for ``language``.

    Args:
        calculator: The calculator to show.
        mode: Which of its modes.
        language: The page's language, a key of the message catalogs.
        values: Inputs of the example; the declared defaults if omitted.
        page: The address of the page showing the form, relative to the site root,
            from which a table's links to other calculators are written.
        embedded: Whether that page is an embed (a table's links open in the top window).
    """
    example = dict(mode.defaults() if values is None else values)
    raw = {name: value for name, value in example.items() if value is not None}
    result = run(mode, raw)
    widget_id = form_id(calculator.slug, mode.name)
    groups = tuple(
        (
            translate(language, legend),
            tuple(
                _field(spec, f"{widget_id}-{spec.name}", example[spec.name], language)
                for spec in specs
            ),
        )
        for legend, specs in mode.input_groups()
    )
    results = tuple(
        Result(
            spec=output,
            label=translate(language, output.label),
            unit=unit_text(
                output.unit,
                None if value is None else display_decimal(output, value),
                language,
            ),
            text=format_output(output, value, language),
        )
        for output in mode.outputs
        for value in (result.values[output.name],)
    )
    return Widget(
        calculator=calculator,
        mode=mode,
        id=widget_id,
        language=language,
        title=translate(language, calculator.title),
        subtitle=translate(language, mode.label) if len(calculator.modes) > 1 else "",
        input_ids=" ".join(field.id for _, fields in groups for field in fields),
        groups=groups,
        results=results,
        warnings=tuple(translate(language, UI[code]) for code in result.warnings),
        status=translate(language, UI[STATES.static]),
        results_title=translate(language, UI["results"]),
        copy_label=translate(language, UI["copy_link"]),
        messages=_messages(language),
        notation=notation(language).as_json(),
        units=json.dumps(
            {
                "inputs": _unit_forms(mode.inputs, language),
                "outputs": _unit_forms(mode.outputs, language),
            },
            ensure_ascii=False,
        ),
        noscript=translate(language, UI["noscript"]),
        many=len(mode.outputs) > MANY_RESULTS,
        presets=tuple(_presets(group, widget_id, mode, language) for group in mode.presets),
        presets_words=(
            translate(language, UI["presets.legend"]),
            translate(language, UI["presets.none"]),
            translate(language, UI["presets.source"]),
        ),
        tables=table_views(
            calculator.slug,
            mode,
            parse_inputs(mode, raw),
            result.tables,
            language=language,
            page=page,
            embedded=embedded,
        )
        if mode.tables
        else (),
    )


def _field(spec: Input | Choice, ident: str, value: Value | str | None, language: str) -> Field:
    """One field of the form, holding ``value``."""
    label, shown = translate(language, spec.label), field_value(spec, value, language)
    if isinstance(spec, Choice):
        options = tuple((option.value, option_label(option, language)) for option in spec.options)
        return Field(spec, ident, label, "", shown, hint(spec, language), options)
    number = None if value is None or isinstance(value, str) else plain(value)
    unit = unit_text(spec.unit, number, language)
    return Field(spec, ident, label, unit, shown, hint(spec, language))


def _presets(group: Presets, widget_id: str, mode: Mode, language: str) -> PresetList:
    """One list of presets, each preset's values written as the fields show them."""
    fills = {
        option.value: {
            "fields": {
                name: field_value(mode.input(name), value, language)
                for name, value in option.values.items()
            },
            "source": option.source,
            "url": option.url,
        }
        for option in group.options
    }
    return PresetList(
        spec=group,
        id=f"{widget_id}-{group.name}",
        label=translate(language, group.label),
        hint=translate(language, group.help),
        options=tuple((option.value, option.label) for option in group.options),
        fills=json.dumps(fills, ensure_ascii=False, sort_keys=True),
    )


def reference_context(calculator: Calculator, language: str) -> dict[str, Any]:
    """Describe every mode's inputs and outputs for the reference table."""

    def t(key: str) -> str:
        return translate(language, UI[key])

    return {
        "calculator": calculator,
        "title": translate(language, calculator.title),
        "headings": {key.split(".")[1]: t(key) for key in UI if key.startswith("reference.")},
        "modes": [
            {
                "mode": mode,
                "label": translate(language, mode.label),
                "heading": t(
                    "reference.default_mode"
                    if mode is calculator.default_mode
                    else "reference.other_mode"
                ),
                "inputs": [_reference_input(spec, language) for spec in mode.inputs],
                "outputs": [
                    {
                        "spec": output,
                        "label": translate(language, output.label),
                        "unit": SIGNS.get(output.style, translate(language, output.unit)),
                    }
                    for output in mode.outputs
                ],
            }
            for mode in calculator.modes
        ],
    }


def _reference_input(spec: Input | Choice, language: str) -> dict[str, Any]:
    """One input's row of the reference; a choice lists its options' values, as links write them."""
    if isinstance(spec, Choice):
        return {
            "spec": spec,
            "label": translate(language, spec.label),
            "unit": "",
            "options": [
                {"value": option.value, "label": option_label(option, language)}
                for option in spec.options
            ],
            "default": spec.default,
        }
    return {
        "spec": spec,
        "label": translate(language, spec.label),
        "unit": translate(language, spec.unit),
        "accepted": hint(spec, language),
        "options": [],
        "default": "—" if spec.default is None else format_bound(spec.default, language),
    }


def notation_context(texts: tuple[str, ...], language: str) -> dict[str, Any]:
    """How each language's page reads each of ``texts``, worded for ``language``.

    One column per language of the site, one row per text; each cell is the
    number the core takes (formatted for ``language``), with the other reading
    when the text reads two ways, or "not a number".
    """
    languages = tuple(CATALOGS)
    rows = []
    for text in texts:
        cells = []
        for reader in languages:
            reading = notation(reader).read(text)
            if reading is None:
                cells.append(translate(language, UI["notation.unreadable"]))
                continue
            taken = format_bound(_number(reading[0]), language)
            if reading[1] is None:
                cells.append(taken)
            else:
                other = format_bound(_number(reading[1]), language)
                cells.append(
                    translate(language, UI["notation.two_ways"]).format(value=taken, other=other)
                )
        rows.append({"text": text, "cells": cells})
    return {
        "typed": translate(language, UI["notation.typed"]),
        "languages": [
            translate(language, UI["notation.page"]).format(
                language=Locale.parse(reader).get_display_name(language)
            )
            for reader in languages
        ],
        "rows": rows,
    }


def _number(text: str) -> Value:
    number = Decimal(text)
    return int(number) if number == number.to_integral_value() else float(number)


def _min_grouping(language: str) -> int:
    """CLDR's minimum grouping digits, as the site's formatting applies them (1 in English)."""
    return next((k for k in range(1, 4) if not format_bound(10 ** (2 + k), language).isdigit()), 4)


def _percent_template(language: str) -> str:
    """Where a language puts the number in a percentage: ``{value}%``, ``{value}\u00a0%``."""
    return format_percent(Decimal("0.07"), locale=language).replace("7", "{value}")


def chart_labels(language: str, ident: str) -> str:
    """The words and number conventions of a chart on a ``language`` page, as JSON.

    What :meth:`calculator.charts.Labels.from_json` reads: the chart's words
    from the catalogs (keyed by the core's English, as labels are), CLDR's
    minimum grouping and percent pattern, and the id of the chart's element.
    The page carries it (``data-labels``) for the worker to redraw with.
    """
    return json.dumps(
        {
            "id": ident,
            "words": {key: translate(language, english) for key, english in WORDS.items()},
            "min_grouping": _min_grouping(language),
            "percent": _percent_template(language),
        },
        ensure_ascii=False,
        sort_keys=True,
    )


def chart_context(
    calculator: Calculator,
    mode: Mode,
    language: str,
    values: Example | None = None,
) -> dict[str, Any] | None:
    """The chart of a form, drawn by the core for the form's example; ``None`` if it has none.

    Args:
        calculator: The calculator of the form the chart belongs to.
        mode: Which of its modes.
        language: The page's language, a key of the message catalogs.
        values: Inputs of the example; the declared defaults if omitted.
    """
    if calculator.slug not in CHARTS:
        return None
    example = dict(mode.defaults() if values is None else values)
    raw = {name: value for name, value in example.items() if value is not None}
    run(mode, raw)  # refuses what the form would refuse
    ident = chart_id(calculator.slug, mode.name)
    labels = chart_labels(language, ident)
    html = render(
        calculator.slug,
        mode.name,
        parse_inputs(mode, raw),
        Labels.from_json(labels),
        notation(language),
    )
    return {
        "id": ident,
        "form_id": form_id(calculator.slug, mode.name),
        "slug": calculator.slug,
        "mode": mode.name,
        "labels": labels,
        "html": html,
        "contract": CONTRACT,
    }
