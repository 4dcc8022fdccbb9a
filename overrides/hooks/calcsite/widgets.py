"""The data behind a calculator's form, results and reference table.

Everything the fragments show comes from the core's declarations: names,
units, bounds, defaults and the pre-computed example. The fragments
(``overrides/fragments/calculator/*.html``) only lay it out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from calculator import Calculator, Input, Mode, Output, run
from calculator.spec import Value

from .formatting import format_bound, format_output
from .messages import UI, translate

__all__ = ["Field", "Widget", "reference_context", "widget_context"]


@dataclass(frozen=True)
class Field:
    """One input as the form shows it."""

    spec: Input
    id: str
    label: str
    unit: str
    value: str
    min: str
    max: str
    bounds_text: str


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


def _bounds_text(spec: Input, language: str) -> str:
    low = ""
    if spec.minimum is not None:
        low = ("> " if spec.exclusive_minimum else "≥ ") + format_bound(spec.minimum, language)
    high = "≤ " + format_bound(spec.maximum, language) if spec.maximum is not None else ""
    parts = [part for part in (low, high) if part]
    if spec.integer:
        parts.insert(0, translate(language, UI["reference.whole"]))
    if spec.optional:
        parts.append(translate(language, UI["reference.optional"]))
    return ", ".join(parts)


def _messages(language: str) -> str:
    """The strings the page script needs, as a JSON object, in the page's language."""
    keys = (
        "required",
        "not_a_number",
        "not_an_integer",
        "below_minimum",
        "not_above_minimum",
        "above_maximum",
        "not_divisible",
        "unknown_field",
        "super_linear",
        "static",
        "loading",
        "ready",
        "invalid",
        "failed",
        "copied",
        "copy_failed",
    )
    return json.dumps({key: translate(language, UI[key]) for key in keys}, ensure_ascii=False)


def widget_context(
    calculator: Calculator,
    mode: Mode,
    language: str,
    values: Mapping[str, Value | None] | None = None,
) -> Widget:
    """Compute the example with the core and describe the form for ``language``.

    Args:
        calculator: The calculator to show.
        mode: Which of its modes.
        language: The page's language, a key of the message catalogs.
        values: Inputs of the example; the declared defaults if omitted.
    """
    example = dict(mode.defaults() if values is None else values)
    result = run(mode, {name: value for name, value in example.items() if value is not None})
    widget_id = f"calc-{calculator.slug}-{mode.name}"
    groups = tuple(
        (
            translate(language, legend),
            tuple(
                Field(
                    spec=spec,
                    id=f"{widget_id}-{spec.name}",
                    label=translate(language, spec.label),
                    unit=translate(language, spec.unit),
                    value=_plain(example[spec.name]),
                    min=_plain(spec.minimum),
                    max=_plain(spec.maximum),
                    bounds_text=_bounds_text(spec, language),
                )
                for spec in specs
            ),
        )
        for legend, specs in mode.input_groups()
    )
    results = tuple(
        Result(
            spec=output,
            label=translate(language, output.label),
            unit=translate(language, output.unit),
            text=format_output(output, result.values[output.name], language),
        )
        for output in mode.outputs
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
        status=translate(language, UI["static"]),
        results_title=translate(language, UI["results"]),
        copy_label=translate(language, UI["copy_link"]),
        messages=_messages(language),
    )


def _plain(value: Value | None) -> str:
    """A value as an HTML number input expects it: digits and a dot, no grouping."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


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
                "inputs": [
                    {
                        "spec": spec,
                        "label": translate(language, spec.label),
                        "unit": translate(language, spec.unit),
                        "accepted": _bounds_text(spec, language),
                        "default": "—"
                        if spec.default is None
                        else format_bound(spec.default, language),
                    }
                    for spec in mode.inputs
                ],
                "outputs": [
                    {
                        "spec": output,
                        "label": translate(language, output.label),
                        "unit": {"percent": "%", "multiplier": "×"}.get(
                            output.style, translate(language, output.unit)
                        ),
                    }
                    for output in mode.outputs
                ],
            }
            for mode in calculator.modes
        ],
    }
