"""The planner's ranked plans and presets live in chromium, in every language.

After a reply, the plans a page lists must be, cell for cell and link for link, what the
build writes for the same inputs (``Intl`` in the worker against Babel in the build);
each row's first link opens its case in the check form, which computes the row's step
time; a preset fills its fields, which the form then computes, and names its source;
an edit of a filled field leaves the preset.
"""

from __future__ import annotations

from typing import Any

import pytest
from calcsite.messages import tree
from calcsite.widgets import widget_context
from playwright.sync_api import Page

from calculator import Choice, get, run
from calculator.engine import related_rows
from calculator.spec import Mode, Value
from calculator.values import parse_inputs
from tests.support.server import Server

from .expected import LANGUAGES, field_text, page_path
from .test_live import BOOT_TIMEOUT_MS

pytestmark = pytest.mark.browser

SLUG = "training-planner"
SEARCH = f"form#calc-{SLUG}-search"
PLANS = f'[data-table-for="calc-{SLUG}-search"]'
"""The box of the search's plans, after its form."""
CHECK = f"form#calc-{SLUG}-check"

ROWS = """(selector) => [...document.querySelectorAll(`${selector} tbody[data-rows] tr`)].map(
  (tr) => ({
    cells: [...tr.children].slice(0, -1).map((td) => td.textContent),
    links: [...tr.querySelectorAll("a")].map((a) => [a.getAttribute("href"), a.textContent]),
  }),
)"""


def _expected(mode: Mode, values: dict[str, Value | str | None], language: str) -> list[Any]:
    widget = widget_context(get(SLUG), mode, language, values, page=f"{tree(language)}{SLUG}/")
    (table,) = widget.tables
    return [
        {"cells": list(cells), "links": [list(link) for link in links]}
        for cells, links in table.rows
    ]


def _wait_ready(page: Page, selector: str) -> None:
    """Until the form shows the reply to its newest inputs (no request of it pending)."""
    page.locator(f"{selector}[data-state=ready]:not(.calc--stale):not([aria-busy])").wait_for(
        timeout=BOOT_TIMEOUT_MS
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_live_plans_match_the_builds_and_open_their_check_case(
    page: Page, server: Server, language: str
) -> None:
    search = get(SLUG).mode("search")
    page.goto(server.url(page_path(language, f"{SLUG}/")))
    example = page.evaluate(ROWS, PLANS)
    assert example == _expected(search, search.defaults(), language)
    page.focus(f"{SEARCH} input[name=layers]")
    _wait_ready(page, SEARCH)

    values = {**search.defaults(), "devices": 128}
    page.fill(f"{SEARCH} input[name=devices]", field_text("128", language))
    _wait_ready(page, SEARCH)
    expected = _expected(search, values, language)
    assert page.evaluate(ROWS, PLANS) == expected
    assert expected != example

    first = expected[0]
    page.locator(f"{PLANS} tbody[data-rows] tr").first.locator("a").first.click()
    _wait_ready(page, CHECK)
    check = get(SLUG).mode("check")
    step = page.locator(f"{CHECK} output[data-output=step_time]").text_content()
    headings = [spec.name for spec in search.tables[0].compact]
    assert step == first["cells"][headings.index("step_time")]
    (case,) = related_rows(
        search.tables[0],
        parse_inputs(search, {k: v for k, v in values.items() if v is not None}),
        run(search, {k: v for k, v in values.items() if v is not None}).tables["plans"][:1],
    )
    filled = case["training-planner/check"]
    for spec in check.inputs:
        shown = page.locator(f"{CHECK} [name={spec.name}]").input_value()
        text = filled.get(spec.name, "")
        assert shown == (text if isinstance(spec, Choice) else field_text(text, language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_preset_fills_its_fields_names_its_source_and_yields_to_an_edit(
    page: Page, server: Server, language: str
) -> None:
    search = get(SLUG).mode("search")
    assert search.presets, "the search offers presets"
    page.goto(server.url(page_path(language, f"{SLUG}/")))
    page.focus(f"{SEARCH} input[name=layers]")
    _wait_ready(page, SEARCH)
    for group in search.presets:
        preset = group.options[-1]
        select = page.locator(f"select#calc-{SLUG}-search-{group.name}")
        select.select_option(preset.value)
        for name, value in preset.values.items():
            spec = search.input(name)
            text = value if isinstance(spec, Choice) else field_text(str(value), language)
            assert page.locator(f"{SEARCH} [name={name}]").input_value() == text
        source = page.locator(f"#calc-{SLUG}-search-{group.name}-source a")
        assert source.text_content() == preset.source
        if preset.url:
            assert source.get_attribute("href") == preset.url
        _wait_ready(page, SEARCH)
    group = search.presets[0]
    name = next(
        name for name in group.options[-1].values if not isinstance(search.input(name), Choice)
    )
    page.fill(f"{SEARCH} input[name={name}]", field_text("7", language))
    assert page.locator(f"select#calc-{SLUG}-search-{group.name}").input_value() == ""
    assert page.locator(f"#calc-{SLUG}-search-{group.name}-source").text_content() == ""
