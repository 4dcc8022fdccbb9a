"""The training planner against published runs: one table per group, in the page's language.

Every figure comes from the core (:mod:`calculator.calculators.planner_checks`), the
same comparisons the core's tests hold the planner to: each row's published figure, the
planner's and the signed error between them, and the group's summary, its mean absolute
error, its rows within ±10 % and whether its target is met. This module only words and
formats them. Each row's model opens the page's check form with the run's inputs, in
plain notation, so the link opens the same case in every language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from babel.numbers import get_plus_sign_symbol

from calculator import Choice, Mode, Output, display_decimal
from calculator.calculators.planner_checks import WITHIN, Comparison, request, summarise
from calculator.calculators.planner_checks import group as find
from calculator.calculators.planner_runs import GROUPS
from calculator.engine import heading_unit
from calculator.spec import Column, Value

from .formatting import format_bound, format_output, plain
from .messages import translate

__all__ = [
    "ERROR",
    "FIGURE_OUTPUTS",
    "LAYOUT",
    "TEXTS",
    "WORDS",
    "checks_context",
    "query",
    "signed",
]

WORDS: dict[str, str] = {
    "caption": "{title}: {figure}.",
    "figure.tflops": (
        "achieved TFLOP/s per GPU, counted as hardware FLOPs with full recomputation "
        "(eq. 3), against the planner's HFU times the peak"
    ),
    "figure.seconds": "seconds per iteration, against the planner's step time",
    "target.each": "Target: every row within ±{bound}.",
    "target.mean": "Target: a mean absolute error within {bound}.",
    "target.none": "No target was set.",
    "summary": "Mean absolute error: {mean}; rows within ±{band}: {within} of {rows}.",
    "met": "Target met.",
    "missed": "Target not met.",
    "open": "Each model's name opens the check form with the run's layout.",
    "model": "Model",
    "published": "Published",
    "planner": "Planner",
    "error": "Error",
    "from_mfu": "{seconds} (from an MFU of {mfu})",
}
"""The tables' words in English; the catalogs translate them (keyed by the English)."""

TEXTS: tuple[str, ...] = (*WORDS.values(), *(group.title for group in GROUPS))
"""Every English text the tables show: their words and the groups' titles."""

LAYOUT = (
    "tensor",
    "pipeline",
    "data_parallel",
    "interleave",
    "micro_batch",
    "recompute",
    "sequence_parallel",
)
"""The layout's columns, fields and outputs of the check mode, in the plans table's order
(every published run keeps ZeRO at 0, so its column is left out)."""

FIGURE_OUTPUTS = {"tflops": "model_tflops", "seconds": "step_time"}
"""The check mode's output each figure is rounded and headed as."""

ERROR = Output(name="error", label=WORDS["error"], style="percent", digits=1)
"""A relative error as the tables round it, in percent."""

_NUMBER = re.compile(r"(?P<number>[0-9]+(?:\.[0-9]+)?)(?P<rest>\D.*)")


def query(mode: Mode, request: Mapping[str, object]) -> str:
    """The link's query: the check mode with a run's request, in plain notation.

    The request holds every input the row was computed with, the efficiency included, so
    the link opens the row's case whatever the form's defaults.
    """
    pairs = [("mode", mode.name)]
    for spec in mode.inputs:
        if spec.name in request:
            value = request[spec.name]
            assert isinstance(value, (str, int, float))
            pairs.append((spec.name, value if isinstance(value, str) else plain(value)))
    return urlencode(pairs)


def _model(name: str, language: str) -> str:
    """A model's name as the paper writes it, its number written the page's way (``1,7B``)."""
    match = _NUMBER.fullmatch(name)
    if match is None:
        return name
    number = float(match["number"]) if "." in match["number"] else int(match["number"])
    return format_bound(number, language) + match["rest"]


def _heading(column: Column, language: str) -> str:
    """A column's label, with its unit where the core's :func:`heading_unit` shows one."""
    label, unit = translate(language, column.label), heading_unit(column)
    return f"{label} ({translate(language, unit)})" if unit else label


def _cell(column: Column, value: Value | str | None, language: str) -> str:
    if isinstance(column, Choice):
        return translate(language, column.option(str(value)).label)
    assert value is not None
    assert not isinstance(value, str)  # run() checked every number
    if isinstance(column, Output):
        return format_output(column, value, language)
    return format_bound(value, language)


def signed(error: float, language: str) -> str:
    """A relative error in percent, signed as the page writes signs (``+38,6 %``, ``-5,5 %``)."""
    shown = format_output(ERROR, 100 * error, language)
    rounded = Decimal(display_decimal(ERROR, 100 * error))
    return get_plus_sign_symbol(language) + shown if rounded > 0 else shown


def _measured(compared: Comparison, outputs: Mapping[str, Output], language: str) -> str:
    if compared.basis == compared.figure:
        return format_bound(compared.measured, language)
    # Seconds the row does not publish, from the MFU it does.
    seconds = format_output(outputs[FIGURE_OUTPUTS["seconds"]], compared.measured, language)
    mfu = format_output(outputs["mfu"], compared.run.mfu, language)
    text = translate(language, WORDS["from_mfu"])
    return text.replace("{seconds}", seconds).replace("{mfu}", mfu)


def checks_context(mode: Mode, form_id: str, name: str, language: str) -> dict[str, Any]:
    """The table of the group ``name``'s runs against the planner, for a page in ``language``.

    ``mode`` is the training planner's check mode; each row's link opens the page's form
    ``form_id`` with the row's inputs.

    Raises:
        ValueError: No group is named ``name``; the message names those that are.
    """
    group = find(name)

    def t(key: str, **values: str) -> str:
        text = translate(language, WORDS[key])
        for placeholder, value in values.items():
            text = text.replace("{" + placeholder + "}", value)
        return text

    summary = summarise(group)
    columns: dict[str, Column] = {
        **{spec.name: spec for spec in mode.inputs},
        **{output.name: output for output in mode.outputs},
    }
    outputs = {output.name: output for output in mode.outputs}
    figure = outputs[FIGURE_OUTPUTS[group.figure]]
    unit = translate(language, figure.unit)
    rows = []
    for compared in summary.comparisons:
        published = compared.run
        values = {**published.inputs, **compared.values}
        rows.append(
            {
                "id": published.id,
                "model": _model(published.model, language),
                "layout": [_cell(columns[name], values[name], language) for name in LAYOUT],
                "measured": _measured(compared, outputs, language),
                "predicted": format_output(figure, compared.predicted, language),
                "error": signed(compared.error, language),
                "href": f"?{query(mode, request(published))}#{form_id}",
            }
        )
    target = group.target
    if target is None:
        aim = t("target.none")
    else:
        bound = format_output(ERROR, 100 * target.bound, language)
        aim = t("target.each" if target.each else "target.mean", bound=bound)
    parts = [
        t("caption", title=translate(language, group.title), figure=t(f"figure.{group.figure}")),
        aim,
        t(
            "summary",
            mean=format_output(ERROR, 100 * summary.mean_error, language),
            band=format_output(ERROR, 100 * WITHIN, language),
            within=format_bound(summary.within, language),
            rows=format_bound(len(summary.comparisons), language),
        ),
    ]
    if summary.met is not None:
        parts.append(t("met" if summary.met else "missed"))
    parts.append(t("open"))
    return {
        "id": group.id,
        "caption": " ".join(parts),
        "headings": {
            "model": t("model"),
            "layout": [_heading(columns[name], language) for name in LAYOUT],
            "measured": f"{t('published')} ({unit})",
            "predicted": f"{t('planner')} ({unit})",
            "error": _heading(ERROR, language),
        },
        "rows": rows,
    }
