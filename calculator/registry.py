"""The one explicit list of calculators. A new calculator is added here."""

from __future__ import annotations

from types import MappingProxyType

from .calculators import (
    data_parallel_scaling,
    effective_batch_size,
    pipeline_bubble,
    training_planner,
)
from .errors import UnknownCalculatorError
from .spec import Calculator

__all__ = ["CALCULATORS", "get"]

CALCULATORS: MappingProxyType[str, Calculator] = MappingProxyType(
    {
        calculator.slug: calculator
        for calculator in (
            data_parallel_scaling.CALCULATOR,
            effective_batch_size.CALCULATOR,
            pipeline_bubble.CALCULATOR,
            training_planner.CALCULATOR,
        )
    }
)
"""Every calculator, by slug, in the order the site presents them."""


def get(slug: str) -> Calculator:
    """Return the calculator registered under ``slug``.

    Raises:
        UnknownCalculatorError: If there is none.
    """
    try:
        return CALCULATORS[slug]
    except KeyError:
        raise UnknownCalculatorError(slug, CALCULATORS) from None
