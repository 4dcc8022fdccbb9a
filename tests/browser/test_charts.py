"""The charts live in chromium: redrawn by the core as the inputs change, in every language.

The chart a page shows after a reply must be, node for node, the one CPython's
core draws for the same texts, notation and words (``calculator.web.evaluate``
with the labels the page carries): the worker's Pyodide and the build's Python
draw the same bytes. The published runs' links open the measuring form with
each run's numbers. A chart fits a phone's width and keeps its contrast in both
colour schemes.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from calcsite import runs
from calcsite.formatting import format_output, notation
from playwright.sync_api import Page

from calculator import Choice, evaluate, get, run
from tests.support.server import Server

from .conftest import Recorder
from .expected import LANGUAGES, field_text, page_path, ui
from .test_live import BOOT_TIMEOUT_MS, go_live

pytestmark = pytest.mark.browser

CASES: dict[tuple[str, str], list[dict[str, str]]] = {
    ("data-parallel-scaling", "predict"): [
        {"devices": "256", "throughput": "1234.5", "efficiency": "87.5"},
    ],
    ("data-parallel-scaling", "measure"): [
        {"devices": "8", "throughput": "1000", "measured": "8400"},
    ],
    ("data-parallel-scaling", "estimate"): [
        {"devices": "1024", "latency": "3.4"},
        # Across 128 nodes, the tree, picked from its list: each point of the curve with it.
        {"network_latency": "10", "algorithm": "tree"},
    ],
    ("training-planner", "check"): [
        {"efficiency": "50"},
        # Too little memory: the bar runs past the device's line.
        {"memory": "40"},
    ],
    ("pipeline-bubble", "bubble"): [
        {"stages": "7", "micro_batches": "30"},
        {"stages": "16", "micro_batches": "128", "chunks": "2"},
    ],
}
"""Values typed into each form with a chart, one case after another (plain notation)."""

SAME_CHART = """([selector, html]) => {
  const body = document.querySelector(`${selector} [data-chart-body]`);
  if (!body || body.hidden) return false;
  const template = document.createElement("template");
  template.innerHTML = html;
  // A table the reader opened stays open: that is the reader's, not the core's.
  const closed = (node) => {
    const copy = node.cloneNode(true);
    if (copy.nodeType === Node.ELEMENT_NODE) {
      for (const details of [copy, ...copy.querySelectorAll("details")]) {
        details.removeAttribute("open");
      }
    }
    return copy;
  };
  const expected = [...template.content.childNodes];
  const shown = [...body.childNodes].map(closed);
  return shown.length === expected.length
    && shown.every((node, i) => node.isEqualNode(expected[i]));
}"""

CHART_STATE = """(selector) => {
  const chart = document.querySelector(selector);
  const body = chart.querySelector("[data-chart-body]");
  const status = chart.querySelector("[data-chart-status]");
  return {
    hidden: body.hidden,
    status: status.hidden ? null : status.textContent,
    title: body.querySelector("svg.calc-chart__svg title")?.textContent ?? null,
  };
}"""


def chart_of(slug: str, mode: str) -> str:
    return f'[data-chart-for="calc-{slug}-{mode}"]'


def form_of(slug: str, mode: str) -> str:
    return f"#calc-{slug}-{mode}"


def fields(page: Page, slug: str, mode: str) -> dict[str, str]:
    result: dict[str, str] = page.evaluate(
        """(s) => Object.fromEntries([...document.querySelectorAll(
               `${s} input[name], ${s} select[name]`)].map((el) => [el.name, el.value]))""",
        form_of(slug, mode),
    )
    return result


def core_chart(page: Page, slug: str, mode: str, texts: dict[str, str], language: str) -> str:
    """What CPython's core draws for the texts on screen, with the labels the page carries."""
    labels = page.locator(chart_of(slug, mode)).get_attribute("data-labels")
    assert labels
    reply: dict[str, Any] = json.loads(
        evaluate(slug, json.dumps({**texts, "mode": mode}), notation(language).as_json(), labels)
    )
    assert reply["ok"], reply
    chart: str = reply["chart"]
    return chart


def assert_shows_core_chart(page: Page, slug: str, mode: str, language: str) -> None:
    expected = core_chart(page, slug, mode, fields(page, slug, mode), language)
    page.wait_for_function(SAME_CHART, arg=[chart_of(slug, mode), expected])


def type_plain(page: Page, slug: str, mode: str, values: dict[str, str], language: str) -> None:
    """Type each plain value as the page's language writes it; pick a choice's from its list."""
    for name, value in values.items():
        field = page.locator(f'{form_of(slug, mode)} [name="{name}"]')
        if isinstance(get(slug).mode(mode).input(name), Choice):
            field.select_option(value)
        else:
            field.fill(field_text(value, language))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", ["data-parallel-scaling", "pipeline-bubble"])
def test_typing_redraws_each_chart_as_the_core_draws_it(
    page: Page, server: Server, language: str, slug: str
) -> None:
    go_live(page, server.url(page_path(language, slug)))
    modes = [mode for (page_slug, mode) in CASES if page_slug == slug]
    for mode in modes:
        # Live, the example's chart is the one the build drew: the same bytes.
        assert_shows_core_chart(page, slug, mode, language)
        before = page.locator(f"{chart_of(slug, mode)} desc").text_content()
        for values in CASES[(slug, mode)]:
            type_plain(page, slug, mode, values, language)
            assert_shows_core_chart(page, slug, mode, language)
        assert page.locator(f"{chart_of(slug, mode)} desc").text_content() != before

    # A refused value: no chart for inputs the core did not accept, and a line says why.
    mode = modes[0]
    first = next(iter(CASES[(slug, mode)][0]))
    field = page.locator(f'{form_of(slug, mode)} input[name="{first}"]')
    kept = field.input_value()
    field.fill("abc")
    page.wait_for_function(
        "(s) => document.querySelector(s).dataset.state === 'invalid'", arg=form_of(slug, mode)
    )
    state = page.evaluate(CHART_STATE, chart_of(slug, mode))
    assert state["hidden"]
    assert state["status"] == ui("invalid", language)
    field.fill(kept)
    assert_shows_core_chart(page, slug, mode, language)
    assert page.evaluate(CHART_STATE, chart_of(slug, mode))["status"] is None


def test_the_numbers_table_stays_open_across_a_redraw(page: Page, server: Server) -> None:
    slug, mode = "pipeline-bubble", "bubble"
    go_live(page, server.url(page_path("en", slug)))
    page.locator(f"{chart_of(slug, mode)} summary").click()
    type_plain(page, slug, mode, {"stages": "5"}, "en")
    assert_shows_core_chart(page, slug, mode, "en")
    assert page.locator(f"{chart_of(slug, mode)} details").evaluate("(d) => d.open")
    rows = page.locator(f"{chart_of(slug, mode)} tbody tr")
    assert rows.count() == 5


def test_without_the_engine_the_example_chart_stays(static_page: Page, server: Server) -> None:
    static_page.goto(server.url(page_path("fr", "pipeline-bubble")))
    state = static_page.evaluate(CHART_STATE, chart_of("pipeline-bubble", "bubble"))
    assert state == {
        "hidden": False,
        "status": None,
        "title": "Ordonnancement du pipeline\u00a0: p = 4, m = 8, v = 1",
    }


# ---------------------------------------------------------------- published runs


def run_links(page: Page) -> list[dict[str, str]]:
    links: list[dict[str, str]] = page.evaluate(
        """() => [...document.querySelectorAll("a[data-run]")].map((a) => {
             const row = a.closest("tr");
             const cells = [...row.children].map((cell) => cell.textContent.trim());
             return { id: a.dataset.run, href: a.href, efficiency: cells[4], speedup: cells[5] };
           })"""
    )
    return links


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_published_run_opens_the_measuring_form_with_its_numbers(
    page: Page, server: Server, language: str
) -> None:
    slug, mode = "data-parallel-scaling", "measure"
    page.goto(server.url(page_path(language, slug)))
    links = run_links(page)
    assert [link["id"] for link in links] == [run_.id for run_ in runs.load()]
    # The last run is measured against one node: its throughput per device is 569.125.
    chosen = links[-2]
    page.locator(f'a[data-run="{chosen["id"]}"]').click()
    page.wait_for_url(chosen["href"])
    page.wait_for_function(
        "(s) => document.querySelector(s).dataset.state === 'ready'",
        arg=form_of(slug, mode),
        timeout=BOOT_TIMEOUT_MS,
    )
    query = dict(parse_qsl(urlsplit(chosen["href"]).query))
    plain = {name: query[name] for name in ("devices", "throughput", "measured")}
    assert fields(page, slug, mode) == {
        name: field_text(value, language) for name, value in plain.items()
    }
    shown = page.evaluate(
        """(s) => Object.fromEntries([...document.querySelectorAll(`${s} output[data-output]`)]
             .map((el) => [el.dataset.output, el.textContent]))""",
        form_of(slug, mode),
    )
    assert shown["efficiency"] == chosen["efficiency"]
    assert shown["speedup"] == chosen["speedup"]
    spec = get(slug).mode(mode)
    result = run(spec, plain)
    efficiency = next(output for output in spec.outputs if output.name == "efficiency")
    assert shown["efficiency"] == format_output(efficiency, result.values["efficiency"], language)
    # The form's chart shows that run, as the core draws it.
    assert_shows_core_chart(page, slug, mode, language)


def test_every_published_run_fills_the_measuring_form(page: Page, server: Server) -> None:
    """Each link's numbers land in the form's fields before the engine even starts."""
    slug, mode = "data-parallel-scaling", "measure"
    page.goto(server.url(page_path("it", slug)))
    for link in run_links(page):
        page.goto(link["href"])
        query = dict(parse_qsl(urlsplit(link["href"]).query))
        assert query.pop("mode") == "measure"
        assert fields(page, slug, mode) == {
            name: field_text(value, "it") for name, value in query.items()
        }
        assert urlsplit(page.url).fragment == f"calc-{slug}-{mode}"


# ---------------------------------------------------------------- layout and colours


def luminance(rgb: str) -> float:
    values = [int(part) / 255 for part in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    linear = [v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in values]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


COLOURS = """(selector) => {
  const chart = document.querySelector(selector);
  const colour = (sel, prop) => getComputedStyle(chart.querySelector(sel))[prop];
  return {
    background: getComputedStyle(document.body).backgroundColor,
    text: colour("svg.calc-chart__svg text", "fill"),
    lines: [...chart.querySelectorAll("svg.calc-chart__svg .calc-chart__line")]
      .map((line) => getComputedStyle(line).stroke),
    forward: colour("svg.calc-chart__svg .calc-chart__forward", "fill"),
    backward: colour("svg.calc-chart__svg .calc-chart__backward", "fill"),
    idleEdge: colour("svg.calc-chart__svg .calc-chart__idle", "stroke"),
    label: colour("svg.calc-chart__svg .calc-chart__cell-label", "fill"),
  };
}"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_charts_keep_their_contrast_in_both_schemes(
    page: Page, server: Server, scheme: str
) -> None:
    page.goto(server.url(page_path("en", "pipeline-bubble")))
    page.evaluate("(s) => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    found = page.evaluate(COLOURS, chart_of("pipeline-bubble", "bubble"))
    assert contrast(found["text"], found["background"]) >= 4.5
    for box in ("forward", "backward", "idleEdge"):
        assert contrast(found[box], found["background"]) >= 3, box
    assert contrast(found["label"], found["forward"]) >= 4.5
    page.goto(server.url(page_path("en", "data-parallel-scaling")))
    page.evaluate("(s) => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    for mode in ("predict", "estimate"):
        script = COLOURS.replace(
            'colour("svg.calc-chart__svg .calc-chart__forward", "fill")', "null"
        ).replace('colour("svg.calc-chart__svg .calc-chart__backward", "fill")', "null")
        script = script.replace(
            'colour("svg.calc-chart__svg .calc-chart__idle", "stroke")', "null"
        ).replace('colour("svg.calc-chart__svg .calc-chart__cell-label", "fill")', "null")
        found = page.evaluate(script, chart_of("data-parallel-scaling", mode))
        assert found["lines"]
        for stroke in found["lines"]:
            assert contrast(stroke, found["background"]) >= 3, (mode, stroke)


@pytest.mark.parametrize("slug", ["data-parallel-scaling", "pipeline-bubble"])
def test_charts_fit_a_phone_and_stay_legible(static_page: Page, server: Server, slug: str) -> None:
    static_page.set_viewport_size({"width": 390, "height": 844})
    static_page.goto(server.url(page_path("fr", slug)))
    found = static_page.evaluate(
        """() => [...document.querySelectorAll("svg.calc-chart__svg")].map((svg) => ({
             right: svg.getBoundingClientRect().right,
             height: Math.min(...[...svg.querySelectorAll("text")]
               .map((text) => text.getBoundingClientRect().height)),
           }))"""
    )
    assert found
    for chart in found:
        assert chart["right"] <= 390
        assert chart["height"] >= 9, "a chart's smallest text, in CSS pixels"
    assert static_page.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_engine_that_fails_brings_back_the_example_chart(
    page: Page, server: Server, recorder: Recorder
) -> None:
    """A link's values are the example's again when the engine fails, and so is the chart."""
    recorder.expect_errors = True
    slug, mode = "pipeline-bubble", "bubble"
    page.route("**/pyodide.mjs", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(server.url(page_path("it", slug)) + "?stages=6")
    page.wait_for_function(
        "(s) => document.querySelector(s).dataset.state === 'failed'",
        arg=form_of(slug, mode),
        timeout=BOOT_TIMEOUT_MS,
    )
    state = page.evaluate(CHART_STATE, chart_of(slug, mode))
    assert state == {
        "hidden": False,
        "status": None,
        "title": "Schedule della pipeline: p = 4, m = 8, v = 1",
    }
