"""Running a calculator: parse, compute, check, and round for display."""

from __future__ import annotations

import math
from collections.abc import Mapping

from .decimals import exact, rounded
from .errors import CalculatorError
from .spec import Mode, Output, Result, Value
from .values import parse_inputs

__all__ = ["ComputeError", "display_decimal", "run"]


class ComputeError(CalculatorError):
    """A compute function broke its declaration's contract (a bug, not bad input)."""


def run(mode: Mode, raw: Mapping[str, object]) -> Result:
    """Parse ``raw``, compute ``mode`` and check the result against its declaration.

    Raises:
        InvalidInputs: For every bad field at once, including cross-field
            problems that the compute function reports.
        ComputeError: If the compute function returns other outputs than
            declared, or a value that is not a finite number.
    """
    values = parse_inputs(mode, raw)
    result = mode.compute(**values)
    declared = [output.name for output in mode.outputs]
    if sorted(result.values) != sorted(declared):
        raise ComputeError(f"{mode.name}: returned {sorted(result.values)}, declared {declared}")
    for name, value in result.values.items():
        if value is not None and (isinstance(value, bool) or not math.isfinite(value)):
            raise ComputeError(f"{mode.name}: {name} is {value!r}")
    return Result({name: result.values[name] for name in declared}, result.warnings)


def display_decimal(output: Output, value: Value) -> str:
    """Round ``value`` for display and return it as a plain decimal string.

    Rounding happens once, here, half away from zero; the site then only
    localises the digits (Babel at build time, ``Intl.NumberFormat`` in the
    browser, both of which read a decimal string exactly), so the two can never
    disagree on a last digit. Percent outputs are returned as fractions
    (``37.5`` becomes ``0.375``), the form both formatters expect.
    """
    if output.style == "percent":
        return rounded(exact(value) / 100, output.digits + 2)
    return rounded(value, output.digits)
