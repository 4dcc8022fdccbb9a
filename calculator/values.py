"""Turning raw field values (text from a form, a URL or a shell) into numbers and choices.

Parsing is strict on purpose: Python's ``float`` accepts ``nan``, ``inf``,
``1_000`` and non-ASCII digits, none of which a reader means as a device count.
Every bad field is collected before anything is raised.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from .errors import InputError, InvalidInputs
from .spec import Choice, Field, Input, Mode, Value

__all__ = ["parse_choice", "parse_inputs", "parse_value"]

_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_INTEGER = re.compile(r"[+-]?[0-9]+\Z")


def parse_value(spec: Input, raw: object) -> Value | None:
    """Parse one raw value against its declaration.

    Args:
        spec: The input's declaration.
        raw: A string, an int or a float (JSON numbers arrive as such), or ``None``.

    Returns:
        The number, as ``int`` for integer inputs, or ``None`` for an empty optional input.

    Raises:
        InputError: With code ``required``, ``not_a_number``, ``not_an_integer``,
            ``below_minimum``, ``not_above_minimum`` or ``above_maximum``.
    """
    number = _to_number(spec, raw)
    if number is None:
        return None
    if spec.minimum is not None and spec.exclusive_minimum and number <= spec.minimum:
        raise InputError(spec.name, "not_above_minimum", spec.minimum)
    if spec.minimum is not None and number < spec.minimum:
        raise InputError(spec.name, "below_minimum", spec.minimum)
    if number > spec.maximum:
        raise InputError(spec.name, "above_maximum", spec.maximum)
    if spec.integer:
        if not float(number).is_integer():
            raise InputError(spec.name, "not_an_integer")
        return int(number)
    return float(number)


def _to_number(spec: Input, raw: object) -> Value | None:
    # bool is a subclass of int, but "true" devices is a mistake, not a 1.
    if isinstance(raw, bool):
        raise InputError(spec.name, "not_a_number")
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        if spec.optional:
            return None
        raise InputError(spec.name, "required")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float):
        if math.isnan(raw):
            raise InputError(spec.name, "not_a_number")
        return raw
    if not isinstance(raw, str):
        raise InputError(spec.name, "not_a_number")
    text = raw.strip()
    if _INTEGER.match(text):
        try:
            # Exact; ``float`` would round long digit strings.
            return int(text)
        except ValueError:
            # Past int's digit limit (4300): ±inf, or the value behind leading zeros.
            return float(text)
    if not _NUMBER.match(text):
        raise InputError(spec.name, "not_a_number")
    # Overflows such as 1e309 become ±inf here and fail the bounds check.
    return float(text)


def parse_choice(spec: Choice, raw: object) -> str:
    """Parse one raw value against a choice's declaration.

    The value must be one of the options' public values, exactly: a choice is
    picked from a list, so a near miss is a mistake to report, not to guess.

    Raises:
        InputError: With code ``required`` for an empty value, ``not_a_choice``
            for anything else that is not an option's value.
    """
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise InputError(spec.name, "required")
    if isinstance(raw, str) and raw.strip() in spec.values:
        return raw.strip()
    raise InputError(spec.name, "not_a_choice")


def _parse(spec: Field, raw: object) -> Value | str | None:
    return parse_choice(spec, raw) if isinstance(spec, Choice) else parse_value(spec, raw)


def parse_inputs(mode: Mode, raw: Mapping[str, object]) -> dict[str, Value | str | None]:
    """Parse every input of ``mode`` from ``raw``, reporting all bad fields at once.

    Missing keys count as empty fields. Keys that are not inputs of the mode are
    refused with code ``unknown_field``, so that a misspelt name in a script or
    a shared link is never silently replaced by a default.

    Raises:
        InvalidInputs: One :class:`InputError` per bad field.
    """
    values: dict[str, Value | str | None] = {}
    errors: list[InputError] = []
    for spec in mode.inputs:
        try:
            values[spec.name] = _parse(spec, raw.get(spec.name))
        except InputError as error:
            errors.append(error)
    known = {spec.name for spec in mode.inputs}
    errors.extend(InputError(str(name), "unknown_field") for name in raw if name not in known)
    if errors:
        raise InvalidInputs(errors)
    return values
