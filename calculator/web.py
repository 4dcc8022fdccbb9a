"""The browser boundary: a JSON string in, a JSON string out.

The page's Web Worker calls :func:`evaluate` and nothing else. Only strings
cross between JavaScript and Python, so no proxy can leak, and the function
never raises: every problem comes back as data the page can word.
"""

from __future__ import annotations

import json
from typing import Any

from .engine import display_decimal, run
from .errors import InvalidInputs, UnknownCalculatorError
from .registry import get

__all__ = ["evaluate"]


def evaluate(slug: str, request: str) -> str:
    """Compute one calculator from raw field values.

    Args:
        slug: The calculator's slug, such as ``data-parallel-scaling``.
        request: A JSON object of raw values by input name (strings as typed,
            or numbers). The optional key ``mode`` picks a mode by name.

    Returns:
        A JSON object. On success: ``{"ok": true, "calculator", "mode",
        "outputs": {name: number | null}, "display": {name: decimal string |
        null}, "warnings": [code, ...]}``, where ``display`` holds each value
        rounded for display. On failure: ``{"ok": false, "calculator", "mode",
        "errors": [{"field", "code", "bound"}, ...]}`` with every bad field.
    """
    reply: dict[str, Any] = {"ok": False, "calculator": slug, "mode": None}
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
    try:
        result = run(mode, raw)
    except InvalidInputs as invalid:
        return _errors(reply, [error.as_dict() for error in invalid.errors])
    reply.update(
        ok=True,
        outputs=dict(result.values),
        display={
            output.name: None
            if (value := result.values[output.name]) is None
            else display_decimal(output, value)
            for output in mode.outputs
        },
        warnings=list(result.warnings),
    )
    return json.dumps(reply, allow_nan=False)


def _errors(reply: dict[str, Any], errors: list[dict[str, Any]]) -> str:
    reply["errors"] = errors
    return json.dumps(reply, allow_nan=False)
