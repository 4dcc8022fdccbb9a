"""The page directives, expanded before Markdown sees the page.

Directives are HTML comments, so an unrendered one stays invisible:

- ``<!-- md:calculator SLUG[/MODE] -->`` on its own line: the calculator's form
  with its pre-computed example;
- ``<!-- md:value SLUG[/MODE] NAME [input=value ...] -->`` in a sentence: one
  input or result of the core, formatted for the page's language (a choice,
  ``algorithm=tree``, is given by its value and shown by its option's label);
- ``<!-- md:reference SLUG -->`` on its own line: the table of a calculator's
  inputs and outputs;
- ``<!-- md:notation TEXT ... -->`` on its own line: how each language's page
  reads each TEXT typed into a field, as the core reads it;
- ``<!-- md:chart SLUG[/MODE] -->`` on its own line, after the form of that
  mode: its chart, drawn by the core for the form's example
  (:mod:`calculator.charts`), which the page redraws as the inputs change;
- ``<!-- md:runs SLUG/MODE -->`` on its own line: the table of published
  runs (``docs/assets/data/published-runs.json``), each row's figures computed
  by that mode and each row a link that opens the form with its numbers;
- ``<!-- md:checks training-planner GROUP -->`` on its own line: the planner
  against one group of published runs (``planner_runs.GROUPS``), each row's
  figures and errors and the group's summary computed by the core, each row a
  link that opens the check form with the run's inputs.

Code (fenced blocks and inline spans) is left alone, so the directives can be documented.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from jinja2 import Environment

from calculator import CALCULATORS, Calculator, CalculatorError, Choice, Mode, get, run
from calculator.values import parse_inputs

from .contract import case_inputs, form_id
from .formatting import format_bound, format_output
from .mathml import render_math
from .planner_checks import checks_context
from .runs import RunsError, runs_context
from .widgets import (
    chart_context,
    notation_context,
    option_label,
    reference_context,
    widget_context,
)

__all__ = ["DirectiveError", "Page", "expand", "form_inputs"]

FORM_TEMPLATE = "fragments/calculator/form.html"
REFERENCE_TEMPLATE = "fragments/calculator/reference.html"
NOTATION_TEMPLATE = "fragments/calculator/notation.html"
CHART_TEMPLATE = "fragments/calculator/chart.html"
RUNS_TEMPLATE = "fragments/calculator/runs.html"
CHECKS_TEMPLATE = "fragments/calculator/checks.html"

_DIRECTIVE = re.compile(
    r"<!--\s*md:(?P<kind>calculator|value|reference|notation|chart|runs|checks)\s+(?P<args>.*?)\s*-->"
)
# Fenced blocks and inline code spans are shown verbatim.
_CODE = re.compile(
    r"^(?P<fence>`{3,}|~{3,}).*?^(?P=fence)[ \t]*$|(?P<ticks>`+)[^`\n].*?(?P=ticks)",
    re.MULTILINE | re.DOTALL,
)


class DirectiveError(ValueError):
    """A directive names something the core does not know, or the core refused it."""


@dataclass(frozen=True)
class Page:
    """What the directives need to know about the page being built."""

    language: str
    """Language of the page, a key of the message catalogs."""
    env: Environment
    """The theme's Jinja environment, so a site's ``custom_dir`` can override fragments."""
    url: str = ""
    """The page's address relative to the site root (``fr/training-planner/``)."""


def expand(markdown: str, page: Page) -> str:
    """Expand every directive and formula of ``markdown`` outside code."""
    return "".join(
        _expand_prose(text, page) if prose else text for prose, text in _segments(markdown)
    )


def form_inputs(markdown: str) -> tuple[str, ...]:
    """Names of the inputs of every calculator form ``markdown`` shows, sorted.

    Empty when the page shows no calculator: such a page needs no engine. The
    page script reads these names from the head, before the forms are parsed,
    to start the engine at once for a link that carries a case.
    """
    modes = [
        _target(args[0])[1]
        for prose, text in _segments(markdown)
        if prose
        for match in _DIRECTIVE.finditer(text)
        if match["kind"] == "calculator"
        for args in (shlex.split(match["args"]),)
        if len(args) == 1
    ]
    return case_inputs(modes)


def _segments(markdown: str) -> Iterator[tuple[bool, str]]:
    """``markdown`` cut into (is prose, text) pieces; code is not prose."""
    position = 0
    for fence in _CODE.finditer(markdown):
        yield True, markdown[position : fence.start()]
        yield False, fence.group(0)
        position = fence.end()
    yield True, markdown[position:]


def _expand_prose(text: str, page: Page) -> str:
    handlers: dict[str, Callable[[list[str], Page], str]] = {
        "calculator": _calculator,
        "value": _value,
        "reference": _reference,
        "notation": _notation,
        "chart": _chart,
        "runs": _runs,
        "checks": _checks,
    }

    def replace(match: re.Match[str]) -> str:
        args = shlex.split(match["args"])
        if not args:
            raise DirectiveError(f"{match.group(0)}: a calculator slug is required")
        return handlers[match["kind"]](args, page)

    return render_math(_DIRECTIVE.sub(replace, text))


def _target(name: str) -> tuple[Calculator, Mode]:
    slug, _, mode_name = name.partition("/")
    try:
        calculator = get(slug)
        return calculator, calculator.mode(mode_name or None)
    except CalculatorError as error:
        raise DirectiveError(f"{name}: {error}; known: {', '.join(CALCULATORS)}") from None


def _block(html: str) -> str:
    # Markdown passes a raw HTML block through only if it has no blank line
    # inside and blank lines around it.
    lines = [line for line in html.splitlines() if line.strip()]
    return "\n\n" + "\n".join(lines) + "\n\n"


def _calculator(args: list[str], page: Page) -> str:
    if len(args) != 1:
        raise DirectiveError(f"md:calculator takes one SLUG[/MODE], got {args}")
    calculator, mode = _target(args[0])
    widget = widget_context(calculator, mode, page.language, page=page.url)
    return _block(page.env.get_template(FORM_TEMPLATE).render(widget=widget))


def _reference(args: list[str], page: Page) -> str:
    if len(args) != 1 or "/" in args[0]:
        raise DirectiveError(f"md:reference takes one SLUG, got {args}")
    calculator, _ = _target(args[0])
    context = reference_context(calculator, page.language)
    return _block(page.env.get_template(REFERENCE_TEMPLATE).render(**context))


def _chart(args: list[str], page: Page) -> str:
    if len(args) != 1:
        raise DirectiveError(f"md:chart takes one SLUG[/MODE], got {args}")
    calculator, mode = _target(args[0])
    context = chart_context(calculator, mode, page.language)
    if context is None:
        raise DirectiveError(f"md:chart {args[0]}: {calculator.slug} has no chart")
    return _block(page.env.get_template(CHART_TEMPLATE).render(**context))


def _runs(args: list[str], page: Page) -> str:
    if args != ["data-parallel-scaling/measure"]:
        raise DirectiveError(f"md:runs takes data-parallel-scaling/measure, got {args}")
    calculator, mode = _target(args[0])
    try:
        context = runs_context(mode, form_id(calculator.slug, mode.name), page.language)
    except (RunsError, CalculatorError) as error:
        raise DirectiveError(f"md:runs: {error}") from None
    return _block(page.env.get_template(RUNS_TEMPLATE).render(**context))


def _checks(args: list[str], page: Page) -> str:
    if len(args) != 2 or args[0] != "training-planner":
        raise DirectiveError(f"md:checks takes training-planner GROUP, got {args}")
    calculator, mode = _target(f"{args[0]}/check")
    try:
        context = checks_context(mode, form_id(calculator.slug, mode.name), args[1], page.language)
    except ValueError as error:
        raise DirectiveError(f"md:checks: {error}") from None
    return _block(page.env.get_template(CHECKS_TEMPLATE).render(**context))


def _notation(args: list[str], page: Page) -> str:
    context = notation_context(tuple(args), page.language)
    return _block(page.env.get_template(NOTATION_TEMPLATE).render(**context))


def _value(args: list[str], page: Page) -> str:
    if len(args) < 2:
        raise DirectiveError(f"md:value takes SLUG[/MODE] NAME [input=value ...], got {args}")
    _, mode = _target(args[0])
    name, overrides = args[1], args[2:]
    raw: dict[str, object] = {k: v for k, v in mode.defaults().items() if v is not None}
    for item in overrides:
        key, equals, value = item.partition("=")
        if not equals:
            raise DirectiveError(f"md:value {args[0]}: {item!r} is not input=value")
        raw[key] = value
    try:
        values = parse_inputs(mode, raw)
        result = run(mode, raw)
    except CalculatorError as error:
        raise DirectiveError(f"md:value {' '.join(args)}: {error}") from None
    for output in mode.outputs:
        if output.name == name:
            return format_output(output, result.values[name], page.language)
    if name in values:
        given = values[name]
        if isinstance(given, str):
            # A choice, named as its list names it (algorithm=tree: "Tree", "Arbre").
            spec = mode.input(name)
            assert isinstance(spec, Choice)
            return option_label(spec.option(given), page.language)
        return "—" if given is None else format_bound(given, page.language)
    raise DirectiveError(f"md:value {args[0]}: no input or output named {name!r}")
