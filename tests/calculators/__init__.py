"""Tests of each calculator: known values, refusals and properties of its formulas."""

from __future__ import annotations

from collections.abc import Mapping

from calculator.spec import Value


def complete(values: Mapping[str, Value | None]) -> dict[str, Value]:
    """Return a result's values, asserting that every output is present.

    An output is ``None`` only where an optional input it depends on was left
    empty; a test that gives every input gets every output, as a number.
    """
    present = {name: value for name, value in values.items() if value is not None}
    assert present.keys() == values.keys(), f"outputs left empty: {values}"
    return present
