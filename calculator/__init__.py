"""Calculators for data-parallel training: one core for the site, the browser and the shell.

The public API: the declarations (:class:`Calculator`, :class:`Mode`,
:class:`Input`, :class:`Choice` and its :class:`Option`, :class:`Output`, and
:class:`Table` for a list of rows), the
registry (:data:`CALCULATORS`, :func:`get`), :func:`run` to compute from raw
values, and :func:`evaluate`, the JSON boundary the browser uses. Standard
library only, so that it runs unchanged under Pyodide.
"""

from __future__ import annotations

__version__ = "0.1.0"

from .engine import ComputeError, display_decimal, run
from .errors import (
    CalculatorError,
    InputError,
    InvalidInputs,
    SpecError,
    UnknownCalculatorError,
)
from .registry import CALCULATORS, get
from .spec import Calculator, Choice, Input, Mode, Option, Output, Result, Table
from .web import evaluate

__all__ = [
    "CALCULATORS",
    "Calculator",
    "CalculatorError",
    "Choice",
    "ComputeError",
    "Input",
    "InputError",
    "InvalidInputs",
    "Mode",
    "Option",
    "Output",
    "Result",
    "SpecError",
    "Table",
    "UnknownCalculatorError",
    "__version__",
    "display_decimal",
    "evaluate",
    "get",
    "run",
]
