"""Running a calculator: parse, compute, check, and round for display."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .decimals import exact, plain, rounded
from .errors import CalculatorError
from .spec import SIGNS, Cell, Choice, Column, Input, Mode, Output, Result, Row, Table, Value
from .values import parse_inputs

__all__ = ["ComputeError", "display_cell", "display_decimal", "display_rows", "run"]


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
        if value is not None and not _finite(value):
            raise ComputeError(f"{mode.name}: {name} is {value!r}")
    tables = [table.name for table in mode.tables]
    if sorted(result.tables) != sorted(tables):
        raise ComputeError(
            f"{mode.name}: returned tables {sorted(result.tables)}, declared {tables}"
        )
    return Result(
        {name: result.values[name] for name in declared},
        result.warnings,
        {table.name: _rows(mode, table, result.tables[table.name]) for table in mode.tables},
    )


def _finite(value: object) -> bool:
    """Whether ``value`` is a finite number (``True`` is a mistake, not a 1)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _rows(mode: Mode, table: Table, rows: Sequence[Row]) -> tuple[Row, ...]:
    """``rows`` held to ``table``'s declaration, each row's cells in column order."""
    if len(rows) > table.limit:
        raise ComputeError(f"{mode.name}: {table.name} has {len(rows)} rows, limit {table.limit}")
    columns = [column.name for column in table.columns]
    checked = []
    for index, row in enumerate(rows):
        where = f"{mode.name}: {table.name}[{index}]"
        if sorted(row) != sorted(columns):
            raise ComputeError(f"{where} has {sorted(row)}, declared {columns}")
        for column in table.columns:
            if not _valid_cell(column, row[column.name]):
                raise ComputeError(f"{where}.{column.name} is {row[column.name]!r}")
        checked.append({name: row[name] for name in columns})
    return tuple(checked)


def _valid_cell(column: Column, value: object) -> bool:
    """Whether ``value`` is a cell ``column`` may hold.

    An option of a choice; a finite number otherwise, within an input's bounds and whole
    for a whole-number input, as the input itself would be parsed.
    """
    if isinstance(column, Choice):
        return isinstance(value, str) and value in column.values
    if not _finite(value):
        return False
    if isinstance(column, Input):
        assert isinstance(value, int | float)  # _finite said so; for the type checker
        return column.accepts(value) and (isinstance(value, int) or not column.integer)
    return True


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


def display_cell(column: Column, value: Cell) -> str:
    """A table's cell as the site and the command line show it, as plain text.

    An output's cell is rounded as that output is (:func:`display_decimal`); an input's
    is written exactly (:func:`calculator.decimals.plain`), as a link carries it; a
    choice's is its option's value, which the site words in the page's language.
    """
    if isinstance(column, Choice):
        return str(value)
    assert not isinstance(value, str)  # run() checked every number column's cells
    if isinstance(column, Output):
        return display_decimal(column, value)
    return plain(value)


def display_rows(table: Table, rows: Sequence[Row]) -> list[dict[str, str]]:
    """Every cell of ``rows`` through :func:`display_cell`, in column order."""
    return [
        {column.name: display_cell(column, row[column.name]) for column in table.columns}
        for row in rows
    ]


def related_rows(
    table: Table, inputs: Mapping[str, Value | str | None], rows: Sequence[Row]
) -> list[dict[str, dict[str, str]]]:
    """Each row's cases in other calculators (:attr:`Table.related`), as links write them.

    Numbers are written exactly in plain notation, choices as their option's value; a
    table without ``related`` gives an empty mapping per row.
    """
    if table.related is None:
        return [{} for _ in rows]
    return [
        {
            target: {
                name: value if isinstance(value, str) else plain(value)
                for name, value in case.items()
            }
            for target, case in table.related(inputs, row).items()
        }
        for row in rows
    ]


def heading_unit(column: Column) -> str:
    """The unit a table's heading shows beside a column's label, or ``""``.

    An output of another style than a number shows its sign (``%``); a column whose
    label already names its unit (``Pipeline stages``) shows none, nor does a choice.
    """
    if isinstance(column, Choice):
        return ""
    unit = (
        SIGNS[column.style]
        if isinstance(column, Output) and column.style != "number"
        else column.unit
    )
    return "" if unit in column.label.lower() else unit
