"""The live calculators in chromium, on every calculator page in every language.

Pyodide boots once per page load (several seconds), so each test that needs
the engine checks one whole scenario on one load rather than one assertion.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from calcsite.engine import HEAD_URLS
from calcsite.widgets import field_value
from playwright.sync_api import Page, Route

from calculator import Choice, Input
from tests.support.server import Server

from .conftest import Recorder
from .expected import (
    CALCULATOR_PAGES,
    CROSS_FIELD,
    LANGUAGES,
    NEW_VALUES,
    OTHER_PAGES,
    StaticForm,
    expected_errors,
    expected_outputs,
    expected_reply,
    expected_warnings,
    field_text,
    mode_of,
    page_path,
    read,
    static_forms,
    ui,
)
from .helpers import FAILED, stop_the_clock

pytestmark = pytest.mark.browser

BOOT_TIMEOUT_MS = 60_000
"""Pyodide's first boot: a few seconds, much more on a loaded machine."""

EVERY_PAGE = [
    pytest.param(language, slug, id=f"{language}-{slug}")
    for language in LANGUAGES
    for slug in CALCULATOR_PAGES
]

SNAPSHOT = """(selector) => {
  const form = document.querySelector(selector);
  const byName = (elements, key, value) =>
    Object.fromEntries([...elements].map((el) => [key(el), value(el)]));
  return {
    state: form.dataset.state,
    stale: form.classList.contains("calc--stale"),
    busy: form.hasAttribute("aria-busy"),
    inputs: byName(form.querySelectorAll("input[name], select[name]"),
                   (el) => el.name, (el) => el.value),
    invalid: [...form.querySelectorAll('[name][aria-invalid="true"]')].map((el) => el.name),
    // Fields the reader cannot change: a text field read-only, a list disabled.
    readonly: [...form.querySelectorAll("input[name], select[name]")]
      .filter((el) => (el.localName === "select" ? el.disabled : el.readOnly)).length,
    outputs: byName(form.querySelectorAll("output[data-output]"),
                    (el) => el.dataset.output, (el) => el.textContent),
    errors: byName(form.querySelectorAll("[data-error-for]"),
                   (el) => el.dataset.errorFor, (el) => el.textContent),
    warnings: [...form.querySelectorAll("[data-warnings] li")].map((el) => el.textContent.trim()),
    status: form.querySelector("[data-status]").textContent,
    // Seen or not, whatever the attribute says: a theme rule can override [hidden].
    copyHidden: !form.querySelector('[data-action="copy-link"]')
      .checkVisibility({ visibilityProperty: true }),
  };
}"""

SETTLED = """(selector) => {
  const form = document.querySelector(selector);
  return ["ready", "invalid", "failed"].includes(form.dataset.state)
    && !form.hasAttribute("aria-busy");
}"""

ALL_LIVE = """() => [...document.querySelectorAll("form.calc")]
  .every((form) => form.dataset.state === "ready" && !form.hasAttribute("aria-busy"))"""


def selector(form: StaticForm) -> str:
    return f'form.calc[data-calc="{form.slug}"][data-mode="{form.mode}"]'


def snapshot(page: Page, form: StaticForm) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(SNAPSHOT, selector(form))
    return result


def settle(page: Page, form: StaticForm) -> dict[str, Any]:
    page.wait_for_function(SETTLED, arg=selector(form))
    return snapshot(page, form)


def type_values(page: Page, form: StaticForm, values: dict[str, str]) -> None:
    """Type each value into its field; a choice's is picked from its list instead."""
    for name, value in values.items():
        field = page.locator(f'{selector(form)} [name="{name}"]')
        if name in form.choices:
            field.select_option(value)
        else:
            field.fill(value)


def go_live(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)


def assert_shows(
    shown: dict[str, Any], form: StaticForm, raw: dict[str, str], language: str
) -> None:
    """The form shows the core's results for ``raw``, formatted as the build does."""
    assert shown["state"] == "ready"
    assert shown["inputs"] == raw
    assert shown["outputs"] == expected_outputs(form.slug, form.mode, raw, language)
    assert shown["warnings"] == expected_warnings(form.slug, form.mode, raw, language)
    assert not shown["stale"]
    assert shown["invalid"] == []
    assert set(shown["errors"].values()) == {""}
    assert shown["status"] == ui("ready", language)
    assert not shown["copyHidden"]


def forms_of(server: Server, language: str, page: str) -> list[StaticForm]:
    forms = static_forms(server.url(page_path(language, page)))
    assert forms, "no calculator on the page"
    return forms


# --------------------------------------------------------------- before any script


@pytest.mark.parametrize(("language", "slug"), EVERY_PAGE)
def test_prerendered_results_need_no_script(
    static_page: Page, server: Server, language: str, slug: str
) -> None:
    """The HTML holds the example, formatted for the language; with no script it stays."""
    forms = forms_of(server, language, slug)
    assert {form.slug for form in forms} == {slug}
    static_page.goto(server.url(page_path(language, slug)))
    for form in forms:
        raw = form.inputs
        assert raw == {
            spec.name: field_value(spec, spec.default, language)
            for spec in mode_of(form.slug, form.mode).inputs
        }
        assert form.state == "static"
        assert form.locale == language
        assert form.outputs == expected_outputs(form.slug, form.mode, raw, language)
        assert form.warnings == expected_warnings(form.slug, form.mode, raw, language)
        assert form.status == ui("static", language)
        shown = snapshot(static_page, form)
        assert shown["state"] == "static"
        assert shown["outputs"] == form.outputs
        # Without JavaScript the button would do nothing: hidden, its place kept.
        assert shown["copyHidden"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("other", OTHER_PAGES, ids=lambda path: path.strip("/") or "home")
def test_pages_without_calculator_stay_quiet(
    page: Page, server: Server, recorder: Recorder, language: str, other: str
) -> None:
    """No engine is started where there is no calculator (and no error is logged)."""
    page.goto(server.url(page_path(language, other)))
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    assert not [url for url in recorder.requests if "pyodide" in url or "/engine/" in url]


AT_DOMCONTENTLOADED = """() => {
  document.addEventListener("DOMContentLoaded", () => {
    window.__themeAtDcl = "document$" in window;
  });
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_theme_bundle_starts_after_domcontentloaded_and_mounts_once(
    page: Page, server: Server, language: str
) -> None:
    """Material's bundle evaluates after DOMContentLoaded (theme-start.js).

    Its components mount once, its features work, and search finds pages in the
    reader's language only.
    """
    page.add_init_script(f"({AT_DOMCONTENTLOADED})()")
    page.goto(server.url(page_path(language, "automation/")))
    copy = page.locator(".md-code__button, .md-clipboard")
    copy.first.wait_for(state="attached")
    assert page.evaluate("window.__themeAtDcl") is False
    # Mounted exactly once: one copy button per code block.
    assert page.locator("pre").count() > 0
    assert copy.count() == page.locator("pre").count()
    page.keyboard.press("/")
    page.keyboard.type("pipeline")
    results = page.locator(".md-search-result__item > a")
    results.first.wait_for()
    hrefs = results.evaluate_all("links => links.map((a) => a.href)")
    assert hrefs
    home = server.url(page_path(language, ""))
    # The other languages' trees (the default language's is the site root).
    foreign = [server.url(page_path(o, "")) for o in LANGUAGES if LANGUAGES[o] and o != language]
    assert [h for h in hrefs if not h.startswith(home) or h.startswith(tuple(foreign))] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_search_index_is_fetched_when_the_reader_first_searches(
    page: Page, server: Server, language: str
) -> None:
    """Not as the page loads: a reader who never searches never downloads it."""
    requested: list[str] = []

    def note(request: Any) -> None:
        requested.append(urlsplit(request.url).path)

    page.on("request", note)
    page.goto(server.url(page_path(language, "pipeline-bubble/")))
    page.wait_for_function("() => window.document$ !== undefined")  # the theme's bundle ran
    # Everything the page fetches on its own, its engine's files (once it is idle) included.
    page.wait_for_load_state("networkidle", timeout=BOOT_TIMEOUT_MS)
    index = urlsplit(server.url(page_path(language, ""))).path + "search/search_index.json"
    assert index not in requested
    page.locator("input.md-search__input").click()
    page.keyboard.type("pipeline")
    page.locator(".md-search-result__item > a").first.wait_for()
    assert requested.count(index) == 1


SEARCH_WORKER = "/assets/javascripts/workers/search."
"""The start of the path of Material's search worker script (its name carries a hash)."""


def test_the_search_worker_starts_when_the_reader_first_searches(
    page: Page, server: Server
) -> None:
    """Not as the page loads: its script is requested, and the worker started, once, then."""
    requested: list[str] = []

    def note(request: Any) -> None:
        requested.append(urlsplit(request.url).path)

    def search_workers() -> list[str]:
        return [w.url for w in page.workers if urlsplit(w.url).path.startswith(SEARCH_WORKER)]

    page.on("request", note)
    page.goto(server.url(page_path("en", "data-parallel-scaling/")))
    page.wait_for_function("() => window.document$ !== undefined")  # the theme's bundle ran
    # Everything the page fetches on its own, its engine's files (once it is idle) included.
    page.wait_for_load_state("networkidle", timeout=BOOT_TIMEOUT_MS)
    assert [path for path in requested if path.startswith(SEARCH_WORKER)] == []
    assert search_workers() == []
    page.locator("input.md-search__input").click()
    page.keyboard.type("pipeline")
    page.locator(".md-search-result__item > a").first.wait_for()
    # Closed and opened again, with the keyboard: the same worker answers.
    page.keyboard.press("Escape")
    page.keyboard.press("/")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("qzxqzx")  # Material reads the query on keyup
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')")
    assert len([path for path in requested if path.startswith(SEARCH_WORKER)]) == 1
    assert len(search_workers()) == 1


BOTH_ASKED_S = BOOT_TIMEOUT_MS / 1000
"""Seconds for opening search to ask for the index and the worker's script: what is checked is
that both are asked for while the index is held, not how soon, so the limit is the one a loaded
machine gets for an engine's boot (four test workers share 2 cores)."""


def test_the_search_worker_is_requested_with_the_index_not_after_it(
    page: Page, server: Server
) -> None:
    """Opening search starts the worker: its script does not wait for the index to arrive."""
    held: list[Route] = []
    requested: list[str] = []

    def hold(route: Route) -> None:  # Playwright needs a function it can tag
        held.append(route)

    def note(request: Any) -> None:
        requested.append(urlsplit(request.url).path)

    page.route("**/search/search_index.json", hold)
    page.on("request", note)
    page.goto(server.url(page_path("en", "pipeline-bubble/")))
    page.wait_for_function("() => window.document$ !== undefined")  # the theme's bundle ran
    page.locator("input.md-search__input").click()
    # Opening search asks for both; the index is held here until both were asked for.
    deadline = time.monotonic() + BOTH_ASKED_S
    while not (held and any(path.startswith(SEARCH_WORKER) for path in requested)):
        assert time.monotonic() < deadline, f"index held: {len(held)}; asked: {requested}"
        page.wait_for_timeout(50)
    assert len([path for path in requested if path.startswith(SEARCH_WORKER)]) == 1
    held[0].continue_()
    page.keyboard.type("bubble")
    page.locator(".md-search-result__item > a").first.wait_for()


def test_a_page_opened_from_a_search_result_still_searches(page: Page, server: Server) -> None:
    """There search.highlight has the index as the page starts; the worker takes it later."""
    page.goto(server.url(page_path("en", "pipeline-bubble/")) + "?h=bubble")
    page.locator("article mark[data-md-highlight]").first.wait_for()
    page.keyboard.press("/")
    page.keyboard.type("batch")
    page.locator(".md-search-result__item > a").first.wait_for()


def test_a_search_result_still_marks_the_words_searched_on_its_page(
    page: Page, server: Server
) -> None:
    """Material's search.highlight, for a page opened from a search result (?h=)."""
    page.goto(server.url(page_path("en", "pipeline-bubble/")) + "?h=bubble")
    page.locator("article mark[data-md-highlight]").first.wait_for()


# --------------------------------------------------------------- live

OBSERVE = """() => {
  window.__calcRecords = [];
  for (const form of document.querySelectorAll("form.calc")) {
    new MutationObserver(() => {
      window.__calcRecords.push({
        mode: form.dataset.mode,
        state: form.dataset.state,
        stale: form.classList.contains("calc--stale"),
        inputs: Object.fromEntries([...form.querySelectorAll("input[name], select[name]")]
          .map((el) => [el.name, el.validity.badInput ? "1e" : el.value])),
        outputs: Object.fromEntries([...form.querySelectorAll("output[data-output]")]
          .map((el) => [el.dataset.output, el.textContent])),
      });
    }).observe(form, { subtree: true, childList: true, characterData: true,
                       attributes: true, attributeFilter: ["data-state"] });
  }
}"""

QUERY_IS = """(expected) => {
  const sorted = (o) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
  return sorted(Object.fromEntries(new URLSearchParams(location.search))) === sorted(expected);
}"""


def assert_refuses(
    shown: dict[str, Any], form: StaticForm, raw: dict[str, str], language: str
) -> None:
    """The form words the core's refusal of ``raw`` and shows no result."""
    errors = expected_errors(form.slug, form.mode, raw, language)
    assert shown["state"] == "invalid"
    assert shown["errors"] == {name: errors.get(name, "") for name in form.inputs}
    assert sorted(shown["invalid"]) == sorted(errors)
    # Results not matching the inputs are not shown: no stale number remains.
    assert set(shown["outputs"].values()) == {"—"}
    assert shown["stale"]
    assert shown["warnings"] == []
    assert shown["status"] == ui("invalid", language)


def query_of(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def link_query(form: StaticForm, raw: dict[str, str], language: str) -> dict[str, str]:
    """The query a link to ``raw`` (as typed on a ``language`` page) carries: plain notation."""
    mode = {"mode": form.mode} if form.mode != form.default_mode else {}
    return {**mode, **read(form.slug, form.mode, raw, language)}


def wait_for_query(page: Page, expected: dict[str, str]) -> None:
    """The address bar mirrors the inputs (shortly after the last keystroke)."""
    page.wait_for_function(QUERY_IS, arg=expected)


def started_before_load(page: Page) -> bool:
    started, loaded = page.evaluate(
        """() => [performance.getEntriesByName("calc:start")[0].startTime,
                  performance.getEntriesByType("navigation")[0].loadEventEnd]"""
    )
    return bool(started < loaded)


def refusals(form: StaticForm) -> list[dict[str, str]]:
    """Bad values for this form, derived from its declaration."""
    numbers = [item for item in mode_of(form.slug, form.mode).inputs if isinstance(item, Input)]
    first = numbers[0]
    whole = next(item for item in numbers if item.integer)
    maximum = str(int(first.maximum)) if float(first.maximum).is_integer() else str(first.maximum)
    cases = [
        {first.name: maximum + "0"},
        {first.name: ""},
        {whole.name: "2.5"},
    ]
    cross = CROSS_FIELD[form.slug]
    if cross and set(cross) <= set(form.inputs):
        cases.append(cross)
    return cases


def assert_records_match_inputs(page: Page, forms: list[StaticForm], language: str) -> None:
    """Every result ever written matched the inputs on screen at that moment."""
    records = page.evaluate("window.__calcRecords")
    assert records, "no result was ever written"
    by_mode = {form.mode: form for form in forms}
    for record in records:
        form = by_mode[record["mode"]]
        if record["state"] == "invalid":
            assert set(record["outputs"].values()) == {"—"}
        elif record["state"] == "ready" and not record["stale"]:
            expected = expected_outputs(form.slug, form.mode, record["inputs"], language)
            assert record["outputs"] == expected, record


def choose_every_option(page: Page, form: StaticForm, raw: dict[str, str], language: str) -> None:
    """Each other option of each of the form's lists, in turn, then ``raw``'s again.

    Each is computed at once: the core's results, and the link carries the
    option's value (the same word on every page), or the core's refusal worded
    on the field it names, in the page's language.
    """
    mode = mode_of(form.slug, form.mode)
    for spec in mode.inputs:
        if not isinstance(spec, Choice):
            continue
        for value in spec.values:
            if value == raw[spec.name]:
                continue
            case = {**raw, spec.name: value}
            type_values(page, form, {spec.name: value})
            if expected_reply(form.slug, form.mode, case, language)["ok"]:
                assert_shows(settle(page, form), form, case, language)
                wait_for_query(page, link_query(form, case, language))
            else:
                assert_refuses(settle(page, form), form, case, language)
        type_values(page, form, {spec.name: raw[spec.name]})
        assert_shows(settle(page, form), form, raw, language)


@pytest.mark.parametrize(("language", "slug"), EVERY_PAGE)
def test_live_results_follow_the_inputs(
    page: Page, server: Server, language: str, slug: str
) -> None:
    """Goes live after load with the pre-rendered text; recomputes; words bad input.

    Then keys typed faster than the replies come: the last result is right,
    and no result ever shown belonged to other inputs than those on screen.
    """
    forms = forms_of(server, language, slug)
    go_live(page, server.url(page_path(language, slug)))
    assert not started_before_load(page), "the engine must wait for the page to load"
    for form in forms:
        shown = snapshot(page, form)
        # Character for character what the build pre-rendered.
        assert shown["outputs"] == form.outputs
        assert shown["warnings"] == form.warnings
        assert_shows(shown, form, form.inputs, language)
    assert query_of(page.url) == {}
    page.evaluate(OBSERVE)

    for form in forms:
        raw = {**form.inputs, **NEW_VALUES[(form.slug, form.mode)]}
        type_values(page, form, NEW_VALUES[(form.slug, form.mode)])
        assert_shows(settle(page, form), form, raw, language)
        wait_for_query(page, link_query(form, raw, language))

        for bad in refusals(form):
            type_values(page, form, bad)
            assert_refuses(settle(page, form), form, {**raw, **bad}, language)
            type_values(page, form, {name: raw[name] for name in bad})
            assert_shows(settle(page, form), form, raw, language)

        choose_every_option(page, form, raw, language)

        # Text a number input rejects ("1e") reaches the core as text, not as nothing.
        first = next(name for name in form.inputs if name not in form.choices)
        field = page.locator(f'{selector(form)} input[name="{first}"]')
        field.fill("")
        field.press_sequentially("1e")
        shown = settle(page, form)
        assert_refuses(shown, form, {**raw, first: "1e"}, language)
        assert shown["errors"][first] == ui("not_a_number", language)
        type_values(page, form, {first: raw[first]})
        assert_shows(settle(page, form), form, raw, language)

    # Fast typing: one key per event, then whole values, with no waiting.
    form = forms[0]
    new = NEW_VALUES[(form.slug, form.mode)]
    first = next(iter(form.inputs))
    field = page.locator(f'{selector(form)} input[name="{first}"]')
    field.fill("")
    field.press_sequentially("987654")
    for _ in range(3):
        type_values(page, form, form.inputs)
        type_values(page, form, new)
    final = {**form.inputs, **new}
    assert_shows(settle(page, form), form, final, language)
    wait_for_query(page, link_query(form, final, language))
    assert_records_match_inputs(page, forms, language)


@pytest.mark.parametrize(("language", "slug"), EVERY_PAGE)
def test_a_shared_link_reproduces_its_case_under_a_sub_path(
    subpath_page: Page, subpath_server: Server, language: str, slug: str
) -> None:
    """A link with the inputs (and a mode) fills that mode's form and computes it at once.

    The site is published under /repo/, as a project site: every engine file
    must be found relative to the page, and the links keep the sub-path.
    """
    page = subpath_page
    forms = forms_of(subpath_server, language, slug)
    target = forms[-1]  # the second mode where there is one: the link must name it
    raw = {**target.inputs, **NEW_VALUES[(target.slug, target.mode)]}
    query = link_query(target, raw, language)
    url = f"{subpath_server.url(page_path(language, slug))}?{urlencode(query)}"
    assert urlsplit(url).path.startswith("/repo/")
    go_live(page, url)
    assert started_before_load(page), "a link's case is computed without waiting for idle time"
    for form in forms:
        shown = snapshot(page, form)
        if form is target:
            # The link's plain values, shown as the page's language writes them.
            shown_raw = {name: field_text(value, language) for name, value in query.items()}
            shown_raw.pop("mode", None)
            assert_shows(shown, form, shown_raw, language)
        else:
            assert shown["outputs"] == form.outputs
            assert_shows(shown, form, form.inputs, language)

    page.context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=subpath_server.origin
    )
    button = page.locator(f'{selector(target)} [data-action="copy-link"]')
    label = button.text_content()
    place = "(el) => [el.offsetLeft, el.offsetTop, el.offsetWidth, el.offsetHeight]"
    box = button.evaluate(place)
    button.click()
    page.wait_for_function(
        "([s, text]) => document.querySelector(`${s} [data-status]`).textContent === text",
        arg=[selector(target), ui("copied", language)],
    )
    # The button itself says so, then goes back to its label.
    assert button.text_content() == ui("copied", language)
    assert button.evaluate(place) == box
    page.wait_for_function(
        "([s, text]) => document.querySelector(`${s} [data-action]`).textContent === text",
        arg=[selector(target), label],
    )
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.url
    assert urlsplit(copied).path == urlsplit(url).path
    assert query_of(copied) == query

    # Editing another form rewrites the link for that form, sub-path kept.
    form = forms[0]
    edited = {**form.inputs, **NEW_VALUES[(form.slug, form.mode)]}
    type_values(page, form, NEW_VALUES[(form.slug, form.mode)])
    assert_shows(settle(page, form), form, edited, language)
    wait_for_query(page, link_query(form, edited, language))
    assert urlsplit(page.url).path == urlsplit(url).path


def test_values_from_a_link_are_data(page: Page, server: Server) -> None:
    """Markup in a link is a bad number; a name no form has (utm_source) is ignored."""
    language = "fr"
    form = forms_of(server, language, "pipeline-bubble")[0]
    first = next(iter(form.inputs))
    payload = '<img src="x" onerror="window.__pwned = 1">'
    page.add_init_script(
        """Object.defineProperty(navigator, "clipboard", {
             value: { writeText: () => Promise.reject(new DOMException("denied")) },
           });"""
    )
    url = server.url(page_path(language, "pipeline-bubble"))
    page.goto(f"{url}?{urlencode({first: payload, 'utm_source': 'wiki'})}")
    page.wait_for_function(
        "(s) => document.querySelector(s).dataset.state === 'invalid'",
        arg=selector(form),
        timeout=BOOT_TIMEOUT_MS,
    )
    shown = snapshot(page, form)
    assert shown["errors"][first] == ui("not_a_number", language)
    assert shown["invalid"] == [first]
    assert shown["status"] == ui("invalid", language)
    assert set(shown["outputs"].values()) == {"—"}
    assert page.evaluate("document.querySelectorAll('form.calc img').length") == 0
    assert page.evaluate("window.__pwned") is None
    # Correcting the field rewrites the link from the form's inputs alone.
    type_values(page, form, {first: form.inputs[first]})
    assert_shows(settle(page, form), form, form.inputs, language)
    wait_for_query(page, form.inputs)
    # A clipboard that refuses: the status says where the link is instead.
    page.locator(f'{selector(form)} [data-action="copy-link"]').click()
    page.wait_for_function(
        "([s, text]) => document.querySelector(`${s} [data-status]`).textContent === text",
        arg=[selector(form), ui("copy_failed", language)],
    )
    assert query_of(page.url) == form.inputs


def test_a_links_value_that_no_option_has_is_worded_on_its_list(page: Page, server: Server) -> None:
    """The list shows no option, the core words the value, and choosing one puts it right."""
    language = "it"
    form = next(
        form for form in forms_of(server, language, "data-parallel-scaling") if form.choices
    )
    name = sorted(form.choices)[0]
    query = {"mode": form.mode, name: "Ring"}
    page.goto(f"{server.url(page_path(language, form.slug))}?{urlencode(query)}")
    page.wait_for_function(
        "(s) => document.querySelector(s).dataset.state === 'invalid'",
        arg=selector(form),
        timeout=BOOT_TIMEOUT_MS,
    )
    shown = snapshot(page, form)
    raw = {**form.inputs, name: "Ring"}
    assert_refuses(shown, form, raw, language)
    assert shown["errors"][name] == ui("not_a_choice", language)
    assert shown["inputs"][name] == "", "no option is shown as chosen"
    # The link keeps the value as it came, for the reader to see what was wrong.
    wait_for_query(page, link_query(form, raw, language))
    type_values(page, form, {name: form.inputs[name]})
    assert_shows(settle(page, form), form, form.inputs, language)


# --------------------------------------------------------------- engine failure


def assert_example_restored(page: Page, forms: list[StaticForm], language: str) -> None:
    for form in forms:
        shown = snapshot(page, form)
        assert shown["state"] == "failed"
        assert shown["status"] == ui("failed", language)
        assert shown["inputs"] == form.inputs
        assert shown["outputs"] == form.outputs
        assert shown["warnings"] == form.warnings
        assert not shown["stale"]
        assert shown["invalid"] == []
        assert not shown["copyHidden"], "its place in the layout never changes"
        assert not shown["busy"]
        # Read-only: the example keeps matching what is shown.
        assert shown["readonly"] == len(form.inputs)


@pytest.mark.parametrize(("language", "slug"), EVERY_PAGE)
def test_engine_that_never_boots_falls_back_to_the_example(
    page: Page, server: Server, recorder: Recorder, language: str, slug: str
) -> None:
    """No WebAssembly binary: loadPyodide hangs; after 30 s the example comes back, labelled."""
    recorder.expect_errors = True
    forms = forms_of(server, language, slug)
    form = forms[0]

    def block(route: Route) -> None:
        route.abort()

    page.route("**/*.wasm", block)
    page.clock.install()
    first = next(iter(form.inputs))
    # A link's values: they must give way to the example they are not.
    url = f"{server.url(page_path(language, slug))}?{first}={form.inputs[first]}1"
    with page.expect_event("requestfailed", lambda request: request.url.endswith(".wasm")):
        page.goto(url)
    shown = snapshot(page, form)
    assert shown["state"] == "loading"
    assert shown["inputs"][first] == form.inputs[first] + "1"
    assert set(shown["outputs"].values()) == {"—"}
    assert shown["busy"]
    page.clock.run_for(31_000)
    page.wait_for_function(FAILED)
    assert_example_restored(page, forms, language)


LOADING_MOTION = """() => {
  const form = document.querySelector("form.calc");
  const moving = document
    .getAnimations()
    .filter((animation) => animation.effect && form.contains(animation.effect.target));
  return {
    state: form.dataset.state,
    moving: moving.length,
    progress: form.querySelector("[data-status]").style.getPropertyValue("--calc-progress"),
    // Set anywhere else, the property would restyle every element under it at each step.
    ring: getComputedStyle(form.querySelector("[data-status]"), "::before").backgroundImage,
    elsewhere: [...form.querySelectorAll("*"), form].filter(
      (el) => el.style.getPropertyValue("--calc-progress") && !el.matches("[data-status]"),
    ).length,
    status: form.querySelector("[data-status]").textContent,
    copyShown: form.querySelector('[data-action="copy-link"]').checkVisibility(),
  };
}"""


def test_the_loading_ring_fills_by_steps_and_never_spins(
    page: Page, server: Server, recorder: Recorder
) -> None:
    """While the engine boots, nothing in a form animates: the ring only moves with a step.

    An endless spinner made chromium draw sixty frames a second for the whole
    boot, which cost the boot itself about a tenth on a machine without GPU.
    """
    recorder.expect_errors = True
    page.route("**/*.wasm", lambda route: route.abort())
    page.goto(server.url(page_path("en", "pipeline-bubble")) + "?stages=6")
    # Step 1 of 3: Pyodide's module is loaded; its WebAssembly never arrives.
    page.wait_for_function(
        "() => document.querySelector('form.calc [data-status]')"
        ".style.getPropertyValue('--calc-progress') > 0"
    )
    shown = page.evaluate(LOADING_MOTION)
    assert shown["state"] == "loading"
    assert shown["moving"] == 0
    assert shown["progress"] == "0.25"
    assert shown["elsewhere"] == 0
    assert "90deg" in shown["ring"], "a quarter of the ring drawn"
    assert shown["status"].endswith("(1/4)")
    assert shown["copyShown"], "part of the layout from the first paint: nothing moves"


@pytest.mark.parametrize("missing", ["calculator-worker.mjs*", "pyodide.mjs", "*.whl.gz"])
def test_missing_engine_file_fails_fast(
    page: Page, server: Server, recorder: Recorder, missing: str
) -> None:
    """A worker or runtime file that does not load ends in the failed state, not a spinner.

    The page's clock stands still: the engine's report ends the boot, not the deadline.
    """
    recorder.expect_errors = True
    language, slug = "it", "data-parallel-scaling"
    forms = forms_of(server, language, slug)
    page.route(f"**/{missing}", lambda route: route.fulfill(status=404, body="missing"))
    stop_the_clock(page)
    page.goto(server.url(page_path(language, slug)) + "?devices=8")
    page.wait_for_function(FAILED, timeout=BOOT_TIMEOUT_MS)
    assert_example_restored(page, forms, language)


# --------------------------------------------------------------- the worker's contract

BARE_WORKER = """async ({ fragment, request, names, timeout }) => {
  // The worker as any page (or an embed) would start it: the settings in its
  // URL fragment, and no message until it says it is ready.
  const meta = (name) =>
    new URL(document.querySelector(`meta[name="${name}"]`).content, document.baseURI).href;
  const settings = { locales: ["fr"] };
  for (const name of names) settings[name] = meta(`calc:${name}`);
  const hash = fragment ? "#" + encodeURIComponent(JSON.stringify(settings)) : "";
  const worker = new Worker(meta("calc:worker") + hash, { type: "module" });
  const seen = [];
  let timer;
  try {
    const reply = await new Promise((resolve, reject) => {
      const late = () => reject(new Error(`no reply in ${timeout} ms, after ${seen}`));
      timer = setTimeout(late, timeout);
      worker.addEventListener("error", (event) => reject(new Error(`worker: ${event.message}`)));
      worker.addEventListener("message", ({ data }) => {
        if (data.type) seen.push(data.type);
        if (data.type === "failed") resolve(data);
        else if (data.type === "ready") worker.postMessage({ id: 7, ...request });
        else if (data.id === 7) resolve(data);
      });
    });
    return { seen, reply };
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}"""


def bare_page(page: Page, server: Server) -> None:
    """A calculator page whose own script does not run: only its head metas are used."""
    empty = "export {};"
    page.route(
        "**/calculator.mjs*",
        lambda route: route.fulfill(body=empty, content_type="text/javascript"),
    )
    page.goto(server.url(page_path("en", "pipeline-bubble")))


def test_the_worker_boots_from_its_url_alone(page: Page, server: Server) -> None:
    """Settings in the fragment, no boot message: progress, ready, then replies formatted."""
    bare_page(page, server)
    raw = {"stages": "4", "micro_batches": "8", "chunks": "1"}
    request = {
        "slug": "pipeline-bubble",
        "request": raw,
        "locale": "fr",
        "styles": {"bubble_overhead": "percent", "idle_share": "percent"},
    }
    found = page.evaluate(
        BARE_WORKER,
        {"fragment": True, "request": request, "names": HEAD_URLS, "timeout": BOOT_TIMEOUT_MS},
    )
    assert found["seen"] == ["progress", "progress", "progress", "ready"]
    reply = found["reply"]
    assert reply["reply"]["ok"] is True
    expected = expected_outputs("pipeline-bubble", "bubble", raw, "fr")
    shown = reply["texts"]["outputs"]
    assert shown == {name: expected[name] for name in ("bubble_overhead", "idle_share")}


def test_a_worker_without_settings_fails_at_once(
    page: Page, server: Server, recorder: Recorder
) -> None:
    """No fragment: one "failed" message, not a boot that never ends."""
    bare_page(page, server)
    found = page.evaluate(
        BARE_WORKER,
        {"fragment": False, "request": {}, "names": HEAD_URLS, "timeout": BOOT_TIMEOUT_MS},
    )
    assert found["seen"] == ["failed"]
    assert "settings" in found["reply"]["error"]
