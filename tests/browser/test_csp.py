"""Pages under their Content-Security-Policy, in chromium: nothing is refused.

The policy is the page's own meta element (hooks/csp.py); nothing here bypasses
it. An init script listens for ``securitypolicyviolation`` in every document, and
each console message is read for a CSP complaint. Every page of each language's
tree is loaded and used under its policy in ``test_every_page.py``, with these
helpers: the calculators go live and recompute what is typed, the copy-link
button copies, search finds, the palette toggles, a code block's copy button
copies, a glossary tooltip opens. Here, the language menu leads to the next
language; the 404 page is served as GitHub Pages serves it; and the site built
for a CDN (``PYODIDE_CDN``, emulated as in ``test_cdn.py``) boots its engine
from the CDN, its policy naming that origin alone.

Playwright's string predicates (``wait_for_function("x !== undefined")``) are
evaluated by the page with ``eval``, which the policy refuses: every predicate
here is a function.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

from tests.support.server import Server, start

from .conftest import Recorder, _check, _context
from .expected import LANGUAGES, NEW_VALUES, StaticForm, static_forms, ui
from .test_cdn import TEMPLATE, VERSION
from .test_layout import THEME_MOUNTED, site_path
from .test_live import ALL_LIVE, BOOT_TIMEOUT_MS, SETTLED, link_query, selector

pytestmark = pytest.mark.browser

LISTEN = """
window.__cspViolations = [];
addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.effectiveDirective} refused ${event.blockedURI || "(inline)"}`
    + ` at ${event.sourceFile}:${event.lineNumber}: ${event.sample}`);
}, true);
"""
"""Records, in each new document before its own scripts run, what its policy refused."""

VIOLATIONS = "() => window.__cspViolations"

SEARCH_TERM = "pipeline"
"""A word of every language's pages."""


def built_pages(site: Path, language: str) -> list[str]:
    """The address of every page of ``language``'s tree in the built site."""
    tree = LANGUAGES[language]
    others = [prefix for prefix in LANGUAGES.values() if prefix and prefix != tree]
    found = []
    for path in sorted((site / tree).rglob("index.html")):
        address = path.parent.relative_to(site).as_posix() + "/"
        address = "" if address == "./" else address
        if address.split("/")[0] in {"assets", "search"} or address.startswith(tuple(others)):
            continue
        found.append(address)
    assert len(found) >= 6, found
    return found


@pytest.fixture
def complaints() -> list[str]:
    return []


def watched(
    browser: Browser, recorder: Recorder, complaints: list[str], origin: str
) -> BrowserContext:
    """A context that records violations in every document and CSP words in the console."""
    context = _context(browser, recorder)
    context.add_init_script(LISTEN)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)

    def on_console(message: ConsoleMessage) -> None:
        if re.search(r"Content.Security.Policy", message.text, re.IGNORECASE):
            complaints.append(f"{message.type}: {message.text}")

    context.on("console", on_console)
    return context


def assert_nothing_refused(page: Page, complaints: list[str], where: str) -> None:
    violations: list[str] = page.evaluate(VIOLATIONS)
    assert violations == [], where
    assert complaints == [], where


def open_page(page: Page, url: str) -> None:
    """Load ``url`` and wait for what it runs.

    Material's bundle where the page starts it (theme-start.js names it; an embed page
    has none), the engine where the page has a form.
    """
    page.goto(url)
    if page.locator("script[data-bundle]").count():
        page.wait_for_function(THEME_MOUNTED)
    if page.locator("form.calc").count():
        page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)


def use_calculators(page: Page, url: str, language: str) -> None:
    """Every form goes live; the first recomputes what is typed and copies its link."""
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    form: StaticForm = static_forms(url)[0]
    name, value = next(iter(NEW_VALUES[(form.slug, form.mode)].items()))
    field = page.locator(f'{selector(form)} input[name="{name}"]')
    field.click()
    page.keyboard.press("Control+a")
    page.keyboard.type(value)
    page.wait_for_function(SETTLED, arg=selector(form))
    assert page.locator(f"{selector(form)}").get_attribute("data-state") == "ready"
    copy = page.locator(f'{selector(form)} [data-action="copy-link"]')
    if not copy.count() or not copy.is_visible():  # an embed page shows none
        return
    copy.click()
    page.wait_for_function(
        "([s, text]) => document.querySelector(`${s} [data-status]`).textContent === text",
        arg=[selector(form), ui("copied", language)],
    )


def use_the_chrome(page: Page) -> None:
    """Search, the palette toggle, a code block's copy button, a glossary tooltip.

    Those of them the page has: an embed page has no header.
    """
    if not page.locator("input.md-search__input").count():
        return
    page.locator("input.md-search__input").click()
    page.keyboard.type(SEARCH_TERM)
    page.wait_for_function("() => document.querySelectorAll('.md-search-result__item').length")
    page.keyboard.press("Escape")
    closed = "() => !document.getElementById('__search').checked"
    if not page.evaluate(closed):  # the key came before Material listened: its close button
        page.locator("label.md-search__icon[for=__search]").first.click()
    page.wait_for_function(closed)
    # The toggle shows the button of its next step (system, light, dark).
    chosen = (
        "() => document.querySelector('[data-md-component=palette] label:not([hidden])').htmlFor"
    )
    before = page.evaluate(chosen)
    page.locator("[data-md-component=palette] label:not([hidden])").click()
    page.wait_for_function(f"(before) => ({chosen})() !== before", arg=before)
    copy = page.locator(".md-code__button[data-md-type=copy]")
    if copy.count():
        copy.first.click()
        page.wait_for_function("() => document.querySelector('.md-dialog--active')")
    abbreviation = page.locator("article abbr")
    if abbreviation.count():
        abbreviation.first.focus()
        page.wait_for_function("() => document.querySelector('.md-tooltip2--active')")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_language_menu_leads_to_the_next_language_under_its_policy(
    browser: Browser,
    server: Server,
    *,
    site: Path,
    recorder: Recorder,
    complaints: list[str],
    language: str,
) -> None:
    """From a page with the menu, to the next language's version of it.

    Not the home page: its language links are absolute, for site_url's path. A page
    without a calculator: what is proved here is the menu, not the engine.
    """
    languages = list(LANGUAGES)
    following = languages[(languages.index(language) + 1) % len(languages)]
    address = next(
        address
        for address in built_pages(site, language)
        if address
        and 'class="md-select' in (text := (site / address / "index.html").read_text("utf-8"))
        and "calc__" not in text
    )
    context = watched(browser, recorder, complaints, server.origin)
    try:
        page = context.new_page()
        open_page(page, server.url(address))
        page.hover(".md-select")
        page.locator(f'.md-select__link[hreflang="{following}"]').click()
        # Polled while the next document replaces this one, which has no root element yet.
        page.wait_for_function("(lang) => document.documentElement?.lang === lang", arg=following)
        page.wait_for_function(THEME_MOUNTED)
        assert_nothing_refused(page, complaints, f"{address} to {following}: {page.url}")
    finally:
        context.close()
    _check(recorder, server.origin)


@pytest.fixture(scope="module")
def published(site: Path) -> Iterator[Server]:
    """The site under its site_url's path, where the 404 page's absolute links point."""
    running = start(site, site_path(site))
    yield running
    running.stop()


def test_the_404_page_works_under_its_policy(
    browser: Browser, published: Server, recorder: Recorder, complaints: list[str]
) -> None:
    context = watched(browser, recorder, complaints, published.origin)
    try:
        page = context.new_page()
        response = page.goto(published.url("it/no/such/page/"))
        assert response is not None
        assert response.status == 404
        page.wait_for_function(THEME_MOUNTED)
        assert page.locator("meta[http-equiv=Content-Security-Policy]").count() == 1
        use_the_chrome(page)
        assert_nothing_refused(page, complaints, "404")
    finally:
        context.close()
    recorder.errors = [error for error in recorder.errors if "404" not in error]
    _check(recorder, published.origin)


def policy_of(page: Page) -> dict[str, list[str]]:
    content: str = (
        page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content") or ""
    )
    return {name: sources for name, *sources in (part.split() for part in content.split(";"))}


@pytest.mark.parametrize("shared", [False, True], ids=["visit", "shared-link"])
def test_the_cdn_build_boots_under_a_policy_that_names_only_the_cdn(
    browser: Browser,
    cdn_site_server: Server,
    cdn: Server,
    *,
    recorder: Recorder,
    complaints: list[str],
    shared: bool,
) -> None:
    context = watched(browser, recorder, complaints, cdn_site_server.origin)
    try:
        page = context.new_page()
        url = cdn_site_server.url("it/pipeline-bubble/")
        if shared:
            form = static_forms(url)[0]
            raw = {**form.inputs, **NEW_VALUES[(form.slug, form.mode)]}
            url += "?" + urlencode(link_query(form, raw, "it"))
        open_page(page, url)
        use_calculators(page, url, "it")
        assert_nothing_refused(page, complaints, url)
        policy: dict[str, Any] = policy_of(page)
    finally:
        context.close()
    folder = cdn.url(TEMPLATE.format(version=VERSION))
    named = {source for sources in policy.values() for source in sources if "://" in source}
    assert named == {folder}
    assert {f"{urlsplit(s).scheme}://{urlsplit(s).netloc}" for s in named} == {cdn.origin}
    assert recorder.errors == []
    origins = {
        f"{parts.scheme}://{parts.netloc}"
        for parts in map(urlsplit, recorder.requests)
        if parts.scheme in ("http", "https")
    }
    assert origins == {cdn_site_server.origin, cdn.origin}
