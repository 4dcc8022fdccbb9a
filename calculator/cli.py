"""The command line, generated from the declarations.

``python -m calculator SLUG [MODE] --input VALUE ... [--json]``; without MODE,
the calculator's first mode is used. ``--json`` prints exactly what the browser
boundary returns.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections.abc import Sequence

from . import __version__
from .decimals import exact, plain
from .engine import heading_unit
from .errors import WARNINGS, english
from .notation import ENGLISH
from .registry import CALCULATORS
from .spec import SIGNS, Calculator, Choice, Column, Input, Mode, Output, Table, unit_for
from .web import evaluate

__all__ = ["main"]

EXIT_BAD_INPUT = 2

_PIECES = re.compile(r"\s+|(?<=-)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit status.

    Returns:
        0 on success; 2 on bad input: the message is printed on stderr or, with
        ``--json``, the failure reply on stdout.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    # Without a mode word, the default mode is meant: insert it, so that options
    # and --help after the slug reach that mode's parser.
    if args and args[0] in CALCULATORS:
        modes = {mode.name for mode in CALCULATORS[args[0]].modes}
        if len(args) == 1 or args[1] not in modes:
            args.insert(1, CALCULATORS[args[0]].default_mode.name)
    namespace = parser.parse_args(args)
    calculator: Calculator = namespace.calculator
    mode: Mode = namespace.mode
    request: dict[str, object] = {"mode": mode.name}
    for spec in mode.inputs:
        given = getattr(namespace, spec.name)
        request[spec.name] = given if given is not None else spec.default
    reply_text = evaluate(calculator.slug, json.dumps(request))
    reply = json.loads(reply_text)
    if namespace.json:
        # The same reply the browser gets, failure included, for scripts to parse.
        print(reply_text)
        return 0 if reply["ok"] else EXIT_BAD_INPUT
    if not reply["ok"]:
        for error in reply["errors"]:
            field = error["field"]
            where = f"--{field.replace('_', '-')}: " if isinstance(field, str) else ""
            message = english(error["code"], error["bound"])
            print(f"{parser.prog} {calculator.slug}: error: {where}{message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(_human(calculator, mode, reply))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parallelism-calc",
        description="Parallel-training calculators: the same code as the website.",
    )
    parser.add_argument("--version", action="version", version=__version__)
    calculators = parser.add_subparsers(title="calculators", metavar="SLUG", required=True)
    for calculator in CALCULATORS.values():
        command = calculators.add_parser(
            calculator.slug, help=calculator.summary, description=calculator.summary
        )
        modes = command.add_subparsers(title="modes", metavar="MODE")
        for mode in calculator.modes:
            _mode_parser(modes, calculator, mode)
    return parser


def _mode_parser(
    modes: argparse._SubParsersAction[argparse.ArgumentParser], calculator: Calculator, mode: Mode
) -> None:
    others = [m.name for m in calculator.modes if m is not mode]
    note = f" Other modes: {', '.join(others)}." if others else ""
    default = " (default)" if mode is calculator.default_mode else ""
    parser = modes.add_parser(
        mode.name,
        help=mode.label + default,
        description=f"{calculator.title}: {mode.label.lower()}.{note}",
        epilog="Outputs: "
        + "; ".join(
            [f"{o.name} ({_output_unit(o)})" for o in mode.outputs]
            + [f"{table.name} (a table of up to {table.limit} rows)" for table in mode.tables]
        ),
    )
    parser.set_defaults(calculator=calculator, mode=mode)
    group = parser.add_argument_group("inputs")
    for spec in mode.inputs:
        flag = "--" + spec.name.replace("_", "-")
        if isinstance(spec, Choice):
            group.add_argument(flag, dest=spec.name, choices=spec.values, help=_choice_help(spec))
        else:
            group.add_argument(flag, dest=spec.name, metavar=_metavar(spec), help=_input_help(spec))
    parser.add_argument("--json", action="store_true", help="print the browser boundary's JSON")


def _metavar(spec: Input) -> str:
    return "N" if spec.integer else "X"


def _input_help(spec: Input) -> str:
    unit = f" [{spec.unit}]" if spec.unit else ""
    low = (
        ""
        if spec.minimum is None
        else ("> " if spec.exclusive_minimum else ">= ") + plain(spec.minimum)
    )
    high = "<= " + plain(spec.maximum)
    kind = "whole number" if spec.integer else "number"
    bounds = ", ".join(part for part in (kind, low, high) if part)
    default = "empty" if spec.default is None else plain(spec.default)
    optional = ", optional" if spec.optional else ""
    # argparse expands %-sequences in help; a literal percent sign must be doubled.
    text = f"{spec.label}{unit}: {spec.help} ({bounds}{optional}; default {default})"
    return text.replace("%", "%%")


def _choice_help(spec: Choice) -> str:
    options = "; ".join(f"{option.value}: {option.label}" for option in spec.options)
    text = f"{spec.label}: {spec.help} ({options}; default {spec.default})"
    return text.replace("%", "%%")


def _output_unit(output: Output) -> str:
    return SIGNS.get(output.style, output.unit or "count")


def _human(calculator: Calculator, mode: Mode, reply: dict[str, object]) -> str:
    display = reply["display"]
    assert isinstance(display, dict)
    lines = [f"{calculator.title}: {mode.label.lower()}"]
    width = max(len(output.label) for output in mode.outputs)
    for output in mode.outputs:
        text = display[output.name]
        lines.append(f"  {output.label:<{width}}  {_english(output, text)}")
    for table in mode.tables:
        lines.extend(_table(table, display[table.name]))
    warnings = reply["warnings"]
    assert isinstance(warnings, list)
    lines.extend(f"  warning: {WARNINGS.get(code, code)}" for code in warnings)
    return "\n".join(lines)


def _table(table: Table, rows: list[dict[str, str]]) -> list[str]:
    """``rows`` as a table of the compact columns: a numbered line per row.

    A column's heading is its label with its unit (``Step time (s)``), wrapped on
    words to the column's width, so that a dozen columns fit a terminal; cells are
    numbers in English with grouping, or a choice's value, right-aligned.
    """
    columns = table.compact
    cells = [[_cell(column, row[column.name]) for column in columns] for row in rows]
    # A column is as wide as its widest cell or the longest piece of its heading, broken
    # at spaces and after hyphens (``Tensor-`` ``parallel``), as textwrap breaks it.
    widths = [
        max([len(line[index]) for line in cells] + [len(p) for p in _PIECES.split(_heading(c))])
        for index, c in enumerate(columns)
    ]
    headings = [textwrap.wrap(_heading(c), w) for c, w in zip(columns, widths, strict=True)]
    height = max(len(heading) for heading in headings)
    number = len(str(len(rows)))
    lines = ["", f"  {table.label}"]
    if not rows:
        return [*lines, "  —"]
    for level in range(height):
        words = [heading[level] if level < len(heading) else "" for heading in headings]
        parts = (f"{word:<{width}}" for word, width in zip(words, widths, strict=True))
        lines.append(("  " + " " * (number + 2) + "  ".join(parts)).rstrip())
    for index, line in enumerate(cells, 1):
        parts = (f"{cell:>{width}}" for cell, width in zip(line, widths, strict=True))
        lines.append(f"  {index:>{number}}. " + "  ".join(parts))
    return lines


def _heading(column: Column) -> str:
    """A column's label, with its unit where :func:`calculator.engine.heading_unit` shows one."""
    unit = heading_unit(column)
    return f"{column.label} ({unit})" if unit else column.label


def _cell(column: Column, text: str) -> str:
    if isinstance(column, Choice):
        return text
    shown = (
        plain(exact(text) * 100)
        if isinstance(column, Output) and column.style == "percent"
        else text
    )
    return ENGLISH.grouped(shown)


def _english(output: Output, text: str | None) -> str:
    if text is None:
        return "—"
    shown = plain(exact(text) * 100) if output.style == "percent" else text
    suffix = SIGNS.get(output.style, f" {unit_for(output.unit, text)}" if output.unit else "")
    return ENGLISH.grouped(shown) + suffix
