"""The browser boundary: a JSON string in, a JSON string out.

The page's Web Worker calls :func:`evaluate` and nothing else. Only strings
cross between JavaScript and Python, so no proxy can leak, and the function
never raises: every problem comes back as data the page can word.
"""

from __future__ import annotations

import json
from typing import Any

from .charts import Labels, render
from .engine import display_decimal, display_rows, related_rows, run
from .errors import CalculatorError, InvalidInputs, UnknownCalculatorError
from .notation import Notation, localise
from .registry import get
from .spec import Choice, Field, Input, Mode
from .values import parse_inputs

__all__ = ["evaluate"]


def evaluate(
    slug: str, request: str, notation: str | None = None, labels: str | None = None
) -> str:
    """Compute one calculator from raw field values.

    Args:
        slug: The calculator's slug, such as ``data-parallel-scaling``.
        request: A JSON object of raw values by input name (strings as typed,
            or numbers). The optional key ``mode`` picks a mode by name.
        notation: How the page's language writes numbers, as the JSON object of
            :meth:`calculator.notation.Notation.as_json`. Without it, text is
            read in plain notation only, as the command line and scripts write it.
        labels: The words and number conventions of the page's chart, as the
            JSON object :meth:`calculator.charts.Labels.from_json` reads. With
            them, a success reply also holds the mode's chart (see below).

    Returns:
        A JSON object. On success: ``{"ok": true, "calculator", "mode",
        "outputs": {name: number | null}, "display": {name: decimal string |
        null}, "warnings": [code, ...]}``, where ``display`` holds each value
        rounded for display. A mode with tables (:class:`calculator.spec.Table`,
        such as the training planner's ``plans``) also has, after its outputs and
        under each table's name, a list of at most the table's ``limit`` rows in
        ``outputs``, ``[{column: number | option value}, ...]``, and the same rows
        in ``display``, ``[{column: text}, ...]``: each cell of an output column
        rounded as that output is, an input's written exactly in plain notation,
        a choice's as its option's value (so that a row's input cells, with the
        request's own fields, make a link to another mode's case). Every row has
        every column, in declared order; a table may be an empty list. Such a reply
        also holds ``"related": {table: [{"slug/mode": {input: text}}, ...]}``, each
        row's cases in other calculators (:attr:`calculator.spec.Table.related`), in
        plain notation, one mapping per row (empty for a table that links nowhere).
        On failure:
        ``{"ok": false, "calculator", "mode", "errors": [{"field", "code",
        "bound"}, ...]}`` with every bad field; an unexpected fault in a compute
        function is the error code ``internal``.
        With a notation, either reply also holds ``"plain": {name: text}``, each
        field in plain notation (for links), and ``"notes": [{"field", "code",
        "readings"}, ...]`` for fields whose text read two ways.
        With ``labels``, a success reply also holds
        ``"chart"``: the mode's chart as an HTML fragment drawn by
        :func:`calculator.charts.render`, or ``null`` where the calculator has
        none (or, should drawing fail, where it could not be drawn: the results
        stand).
    """
    reply: dict[str, Any] = {"ok": False, "calculator": slug, "mode": None}
    try:
        return _evaluate(reply, slug, request, notation, labels)
    except Exception:  # documented never to raise: a fault in a compute function is a reply
        reply.pop("plain", None)
        reply.pop("notes", None)
        return _errors(reply, [{"field": None, "code": "internal", "bound": None}])


def _evaluate(  # noqa: PLR0911 -- one early reply per kind of bad request
    reply: dict[str, Any], slug: str, request: str, notation: str | None, labels: str | None
) -> str:
    try:
        raw = json.loads(request)
    except (TypeError, ValueError):
        raw = None
    if not isinstance(raw, dict):
        return _errors(reply, [{"field": None, "code": "bad_request", "bound": None}])
    mode_name = raw.pop("mode", None)
    try:
        # A slug that is not text (a script's mistake) is unknown, not a TypeError.
        calculator = get(slug if isinstance(slug, str) else repr(slug))
    except UnknownCalculatorError:
        return _errors(reply, [{"field": None, "code": "unknown_calculator", "bound": None}])
    try:
        mode = calculator.mode(mode_name if isinstance(mode_name, str) else None)
    except UnknownCalculatorError:
        return _errors(reply, [{"field": "mode", "code": "unknown_mode", "bound": None}])
    reply["mode"] = mode.name
    if mode_name is not None and not isinstance(mode_name, str):
        return _errors(reply, [{"field": "mode", "code": "unknown_mode", "bound": None}])
    language: Notation | None = None
    if notation is not None:
        try:
            language = Notation.from_json(notation)
        except CalculatorError:
            return _errors(reply, [{"field": None, "code": "bad_request", "bound": None}])
        numbers = tuple(spec.name for spec in mode.inputs if isinstance(spec, Input))
        raw, notes = localise(numbers, raw, language)
        # A choice's value is already plain, the same word in every language; like a
        # number, it is passed on as the core reads it, without surrounding spaces.
        reply["plain"] = {
            spec.name: _plain(spec, value) if isinstance(value := raw.get(spec.name), str) else None
            for spec in mode.inputs
        }
        reply["notes"] = [note.as_dict() for note in notes]
    try:
        result = run(mode, raw)
    except InvalidInputs as invalid:
        return _errors(reply, [error.as_dict() for error in invalid.errors])
    reply.update(
        ok=True,
        outputs={
            **result.values,
            **{
                table.name: [dict(row) for row in result.tables[table.name]]
                for table in mode.tables
            },
        },
        display={
            **{
                output.name: None
                if (value := result.values[output.name]) is None
                else display_decimal(output, value)
                for output in mode.outputs
            },
            **{table.name: display_rows(table, result.tables[table.name]) for table in mode.tables},
        },
        warnings=list(result.warnings),
    )
    if mode.tables:
        parsed = parse_inputs(mode, raw)
        reply["related"] = {
            table.name: related_rows(table, parsed, result.tables[table.name])
            for table in mode.tables
        }
    if labels is not None:
        reply["chart"] = _chart(calculator.slug, mode, raw, labels, language)
    return json.dumps(reply, allow_nan=False)


def _chart(
    slug: str, mode: Mode, raw: dict[str, Any], labels: str, notation: Notation | None
) -> str | None:
    """The mode's chart for inputs :func:`run` accepted; ``None`` if it cannot be drawn."""
    try:
        return render(slug, mode.name, parse_inputs(mode, raw), Labels.from_json(labels), notation)
    except Exception:  # a chart that fails to draw leaves the results standing
        return None


def _plain(spec: Field, text: str) -> str:
    """A field's text as a link carries it: a choice without surrounding spaces."""
    return text.strip() if isinstance(spec, Choice) else text


def _errors(reply: dict[str, Any], errors: list[dict[str, Any]]) -> str:
    reply["errors"] = errors
    return json.dumps(reply, allow_nan=False)
