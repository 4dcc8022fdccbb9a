"""A mode's list outputs (:class:`calculator.spec.Table`) as the form shows them.

The build renders the example's rows with the page's words and CLDR's formats; the
page script redraws them from the worker's reply by the same description, which the
form carries as JSON (``data-table``): each shown column's kind and style, a choice's
option labels, and the address of every calculator a row opens, relative to the page.
The script formats numbers with ``Intl`` for the page's language, as it does the
outputs, so the words and the meaning of each cell are fixed here, not in the browser.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from calculator import CALCULATORS, Choice, Output, get
from calculator.engine import heading_unit, related_rows
from calculator.spec import Column, Mode, Row, Table, Value

from .contract import QUERY, form_id
from .formatting import format_bound, format_output
from .messages import UI, translate
from .paths import page_path, relative_url

__all__ = ["TableView", "link", "table_views", "targets"]


@dataclass(frozen=True)
class TableView:
    """One table of a form, as ``fragments/calculator/form.html`` lays it out."""

    name: str
    caption: str
    headings: tuple[str, ...]
    rows: tuple[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], ...]
    """Each row: its cells' texts, then its links as (address, words)."""
    links_heading: str
    target: str
    """Where the rows' links open: ``_top`` in an embed's frame, or the page itself (``""``)."""
    contract: str
    """The JSON the page script redraws the rows with."""


def targets(language: str, page: str) -> dict[str, str]:
    """Every calculator's full page in ``language``, relative to ``page`` (site-root relative)."""
    return {slug: relative_url(page_path(language, slug), page) for slug in CALCULATORS}


def _heading(column: Column, language: str) -> str:
    """A column's label, with its unit where the core's :func:`heading_unit` shows one."""
    label, unit = translate(language, column.label), heading_unit(column)
    return f"{label} ({translate(language, unit)})" if unit else label


def _cell(column: Column, value: Value | str, language: str) -> str:
    if isinstance(column, Choice):
        return translate(language, column.option(str(value)).label)
    assert not isinstance(value, str)  # run() checked every number column's cells
    if isinstance(column, Output):
        return format_output(column, value, language)
    return format_bound(value, language)


def _kind(column: Column) -> dict[str, Any]:
    if isinstance(column, Choice):
        return {"name": column.name, "kind": "choice"}
    if isinstance(column, Output):
        return {"name": column.name, "kind": "output", "style": column.style}
    return {"name": column.name, "kind": "input"}


def _target(target: str, own: str, language: str, addresses: Mapping[str, str]) -> dict[str, str]:
    """How a row opens ``target`` (``slug/mode``): the page, the mode to name, the form, the words.

    The mode is named only when it is not the calculator's default, as the page script
    writes its own links; the anchor scrolls to that form. Another calculator is named
    by its title, another mode of the ``own`` calculator by the mode's label.
    """
    slug, _, mode = target.partition("/")
    calculator = get(slug)
    label = calculator.mode(mode).label if slug == own else calculator.title
    return {
        "href": addresses[slug],
        "mode": "" if mode == calculator.default_mode.name else mode,
        "anchor": form_id(slug, mode),
        "words": translate(language, label),
    }


def link(target: Mapping[str, str], case: Mapping[str, str]) -> str:
    """The address of ``case`` in a target described by :func:`_target`."""
    query = {QUERY.mode: target["mode"], **case} if target["mode"] else dict(case)
    return f"{target['href']}?{urlencode(query)}#{target['anchor']}"


def table_views(
    slug: str,
    mode: Mode,
    inputs: Mapping[str, Value | str | None],
    tables: Mapping[str, Sequence[Row]],
    *,
    language: str,
    page: str,
    embedded: bool = False,
) -> tuple[TableView, ...]:
    """Every table of ``mode``'s result, in ``language``, for the page at ``page``.

    Args:
        slug: The calculator the mode belongs to.
        mode: The mode whose result it is.
        inputs: The request's parsed inputs (what a row's links start from).
        tables: The result's rows, by table name.
        language: The page's language.
        page: The page's address relative to the site root (``fr/training-planner/``).
        embedded: Whether the page is an embed, shown in another site's frame: a row's
            links then open in the top window, as its link to the full page does.
    """
    addresses = targets(language, page)
    return tuple(
        _view(
            slug,
            table,
            inputs,
            tables[table.name],
            language=language,
            addresses=addresses,
            target="_top" if embedded else "",
        )
        for table in mode.tables
    )


def _view(
    slug: str,
    table: Table,
    inputs: Mapping[str, Value | str | None],
    rows: Sequence[Row],
    *,
    language: str,
    addresses: Mapping[str, str],
    target: str,
) -> TableView:
    shown = table.compact
    listed = rows[: table.page_rows or len(rows)]
    related = related_rows(table, inputs, listed)
    opened = {target: _target(target, slug, language, addresses) for target in table.opens}
    contract = {
        "name": table.name,
        "rows": table.page_rows,
        "columns": [_kind(column) for column in shown],
        "options": {
            column.name: {
                option.value: translate(language, option.label) for option in column.options
            }
            for column in shown
            if isinstance(column, Choice)
        },
        "targets": opened,
        "target": target,
    }
    return TableView(
        name=table.name,
        caption=translate(language, table.label),
        headings=tuple(_heading(column, language) for column in shown),
        rows=tuple(
            (
                tuple(_cell(column, row[column.name], language) for column in shown),
                tuple(
                    (link(opened[target], case), opened[target]["words"])
                    for target, case in cases.items()
                ),
            )
            for row, cases in zip(listed, related, strict=True)
        ),
        links_heading=translate(language, UI["table.open"]),
        target=target,
        contract=json.dumps(contract, ensure_ascii=False, sort_keys=True),
    )
