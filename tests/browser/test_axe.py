"""Accessibility: axe-core on the 404 page, and the keyboard alone uses a calculator.

axe-core is the pinned npm copy (``node_modules/axe-core``), run with its default
rules (every rule but the experimental ones; none is disabled): here on the 404
page, and on every page of each language's tree in ``test_every_page.py``, which
uses these helpers, at a laptop's width and a phone's, in the light and the dark
scheme, once the engine is live on the calculator pages; then the calculators
alone (their forms, tables of results and charts: what a form's state changes,
the rest of the page proved unchanged by it) again with every form in its error
state, showing every part a form has (results kept and marked stale, a warning,
a note), with a field's focus ring measured; then the forms' contrast alone in
their loading and failed states. In a form, text whose contrast
axe cannot decide fails as a violation does. The page keeps its Content-Security-Policy: axe is
evaluated from the test (``page.evaluate``), not added as an inline ``<script>``,
which the policy refuses.

The keyboard tests start from the top of a page and press Tab: a calculator's
fields are reached, typed into and their results announced once per pause in
typing (the results are an ``aria-live`` region, ``aria-busy`` while the numbers
follow the keys); a glossary term takes the focus and shows its definition.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from calcsite.contract import ATTRIBUTES
from playwright.sync_api import Browser, Page

from tests.support.server import Server, start
from tests.support.site import ROOT

from .conftest import Recorder, _check, _context
from .expected import (
    LANGUAGES,
    NEW_VALUES,
    expected_outputs,
    field_text,
    page_path,
    static_forms,
    ui,
)
from .helpers import INSTALLED_AT, STOPPED_AT, settle
from .test_csp import open_page
from .test_layout import LAPTOP, PHONE, SCHEMES, THEME_MOUNTED, set_scheme, site_path
from .test_live import ALL_LIVE, BOOT_TIMEOUT_MS, selector

pytestmark = pytest.mark.browser

AXE = (ROOT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")

RUN_AXE = """async (context) => {
  const result = await axe.run(context ?? document, { resultTypes: ["violations", "incomplete"] });
  const inForm = (node) => node.target.length === 1
    && document.querySelector(node.target[0])?.closest("form.calc") != null;
  const undecided = result.incomplete.filter((rule) => rule.id === "color-contrast")
    .flatMap((rule) => rule.nodes.filter(inForm).map((node) =>
      `color-contrast, undecided: ${node.target.join(" ")}: ${node.any.map((c) => c.message)}`));
  return [...result.violations.flatMap((rule) => rule.nodes.map((node) =>
    `${rule.id} (${rule.impact}): ${node.target.join(" ")}: ${node.failureSummary}`)),
    ...undecided];
}"""
"""axe's violations, and the text of a form whose contrast axe could not decide.

In the whole document, or in the elements a CSS selector given as the argument selects.

Undecided is a failure in a form: a calculator's every part must be proved
readable (axe cannot tell the background of text that something overlaps, which is
why each audit starts from the top of the page).
"""

CALCULATOR_PARTS = ", ".join(
    ["form.calc", f"[{ATTRIBUTES.table_for}]", f"[{ATTRIBUTES.chart_for}]"]
)
"""What a form's state changes (calculator.mjs): the form, its tables of results, its chart."""

OUTSIDE = """(parts) => {
  const skipped = new Set(document.querySelectorAll(parts));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT
    | NodeFilter.SHOW_TEXT, { acceptNode: (node) => skipped.has(node)
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT });
  const seen = [];
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    // The language menu's links carry the case (calculator.mjs): their address alone.
    const kept = (a) => a.name !== "href" || !node.hasAttribute("hreflang");
    seen.push(node.nodeType === Node.TEXT_NODE ? node.data : `<${node.tagName} ${
      [...node.attributes].filter(kept).map((a) => `${a.name}="${a.value}"`).sort().join(" ")}>`);
  }
  return seen.join("\\n");
}"""
"""The page without its calculators' parts, each element's attributes in one order.

What a form's state must leave as it is, but for the case that the language
menu's links carry (``a[hreflang]``'s address); read from the top of the page, where
what Material changes as the page scrolls (the header, the back-to-top button) is
as it was.
"""


def outside_the_calculators(page: Page) -> str:
    """:data:`OUTSIDE`, read from the top of the page once its transitions ended."""
    page.evaluate("() => window.scrollTo(0, 0)")
    settle(page)
    text: str = page.evaluate(OUTSIDE, CALCULATOR_PARTS)
    return text


AXE_CONTRAST = """async () => {
  const result = await axe.run(document.querySelectorAll("form.calc"), {
    runOnly: ["color-contrast"],
    resultTypes: ["violations", "incomplete"],
  });
  return [...result.violations, ...result.incomplete].flatMap((rule) => rule.nodes.map(
    (node) => `${node.target.join(" ")}: ${node.any.map((check) => check.message).join(" ")}`));
}"""
"""The forms' contrast alone: violations and undecided nodes, as :data:`RUN_AXE` reads them."""

ALL_INVALID = """() => [...document.querySelectorAll("form.calc")].every((form) =>
  form.dataset.state === "invalid" && !form.hasAttribute("aria-busy")
  && form.querySelector("[data-error-for]:not(:empty)"))"""

SHOW_EVERY_STATE = """(texts) => {
  for (const form of document.querySelectorAll("form.calc")) {
    // A warning and a note where the values typed do not bring them.
    const warnings = form.querySelector("[data-warnings]");
    if (!warnings.children.length) {
      const warning = document.createElement("li");
      warning.className = "calc__warning";
      warning.textContent = texts.warning;
      warnings.append(warning);
    }
    const note = form.querySelector(".calc__note");
    if (note && !note.textContent) note.textContent = texts.note;
  }
}"""

FOCUS_RING = """() => {
  const luminance = (color) => {
    const [r, g, b] = color.match(/[\\d.]+/g).slice(0, 3).map((c) => {
      const v = Number(c) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const input = document.activeElement;
  const ring = luminance(getComputedStyle(input).outlineColor);
  const ground = luminance(getComputedStyle(document.body).backgroundColor);
  const ratio = (Math.max(ring, ground) + 0.05) / (Math.min(ring, ground) + 0.05);
  return {ratio, style: getComputedStyle(input).outlineStyle, name: input.name};
}"""

SET_STATE = """(state) => document.querySelectorAll("form.calc").forEach((form) => {
  form.dataset.state = state;
})"""


def violations(page: Page, where: str, parts: str | None = None) -> list[str]:
    """What :data:`RUN_AXE` finds from the top of the page, in the elements ``parts`` selects."""
    page.evaluate("() => window.scrollTo(0, 0)")
    settle(page)
    found: list[str] = page.evaluate(RUN_AXE, parts)
    return [f"{where}: {text}" for text in found]


def every_layout(page: Page, where: str) -> list[str]:
    """The violations axe finds at a laptop's width and a phone's, in both schemes."""
    found = []
    for viewport in (LAPTOP, PHONE):
        page.set_viewport_size(viewport)
        for system in SCHEMES:
            set_scheme(page, system)
            found += violations(page, f"{where}, {viewport['width']} px, {system}")
    page.set_viewport_size(LAPTOP)
    return found


def focus_ring(page: Page, where: str) -> list[str]:
    """A field reached with the keyboard (as ``:focus-visible`` wants) shows a ring of 3:1."""
    page.locator("form.calc input[name]").nth(1).focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    ring = page.evaluate(FOCUS_RING)
    visible = ring["style"] != "none" and ring["ratio"] >= 3
    return [] if visible else [f"{where}: focus ring {ring}"]


def in_error(page: Page, where: str) -> list[str]:
    """Every part of every form shown, in error, audited as :func:`every_layout`.

    A field that is not a number puts a form in error, its results kept and marked
    stale; a warning and a note are shown where the values do not bring them. The
    audit covers the calculators' parts (:data:`CALCULATOR_PARTS`), after proving
    that entering the error state changed nothing else on the page, which
    :func:`every_layout` audited whole. At each layout, a field's focus ring is
    measured too; then the forms' contrast is checked in their loading and failed
    states, in both schemes.
    """
    outside = outside_the_calculators(page)
    forms = page.locator("form.calc")
    for index in range(forms.count()):
        forms.nth(index).locator("input[name]").first.fill("abc")
    page.wait_for_function(ALL_INVALID, timeout=BOOT_TIMEOUT_MS)
    page.evaluate(SHOW_EVERY_STATE, {"warning": "A warning. " * 8, "note": "A note. " * 8})
    where = f"{where}, in error"
    stale = page.locator("form.calc.calc--stale").count()
    found = [] if stale == forms.count() else [f"{where}: {stale} stale of {forms.count()}"]
    if outside_the_calculators(page) != outside:
        found.append(f"{where}: the page changed outside {CALCULATOR_PARTS}")
    for viewport in (LAPTOP, PHONE):
        page.set_viewport_size(viewport)
        for system in SCHEMES:
            set_scheme(page, system)
            at = f"{where}, {viewport['width']} px, {system}"
            found += violations(page, at, CALCULATOR_PARTS) + focus_ring(page, at)
    page.set_viewport_size(LAPTOP)
    for state in ("loading", "failed"):
        page.evaluate(SET_STATE, state)
        for system in SCHEMES:
            set_scheme(page, system)
            page.evaluate("() => window.scrollTo(0, 0)")
            found += [f"{where}, {state}, {system}: {t}" for t in page.evaluate(AXE_CONTRAST)]
    page.evaluate(SET_STATE, "invalid")
    return found


def audit(page: Page, url: str, where: str) -> list[str]:
    """A page's violations, live and, where it has forms, in error."""
    open_page(page, url)
    page.evaluate(AXE)
    found = every_layout(page, where)
    if page.locator("form.calc").count():
        found += in_error(page, where)
    return found


def audit_search(page: Page, url: str) -> list[str]:
    """The violations in the search, open, with results, in both schemes."""
    page.goto(url)
    page.wait_for_function(THEME_MOUNTED)
    page.evaluate(AXE)
    page.locator("input.md-search__input").click()
    page.keyboard.type("batch")
    page.wait_for_function("() => document.querySelectorAll('.md-search-result__item').length")
    found = []
    for system in SCHEMES:
        set_scheme(page, system)
        found += violations(page, f"search results, {system}")
    return found


@pytest.fixture(scope="module")
def published(site: Path) -> Iterator[Server]:
    """The site under its site_url's path, where the 404 page's absolute links point."""
    running = start(site, site_path(site))
    yield running
    running.stop()


def test_the_404_page_has_no_axe_violation(
    browser: Browser, published: Server, recorder: Recorder
) -> None:
    context = _context(browser, recorder, viewport=LAPTOP)
    try:
        page = context.new_page()
        found = audit(page, published.url("fr/no/such/page/"), "404")
    finally:
        context.close()
    recorder.errors = [error for error in recorder.errors if "404" not in error]
    _check(recorder, published.origin)
    assert found == [], "\n".join(found)


# --------------------------------------------------------------- the keyboard alone

ACTIVE = """() => {
  const active = document.activeElement;
  return { tag: active.tagName, name: active.name || "", action: active.dataset.action || "",
           form: active.form ? active.form.id : "" };
}"""

OBSERVE = """(s) => {
  const live = document.querySelector(`${s} [aria-live][aria-atomic]`);
  const status = document.querySelector(`${s} [data-status]`);
  const seen = { changes: 0, unbusyChanges: 0, announced: 0, statusChanges: 0 };
  window.__live = seen;
  // Records arrive once the task that made them is over, as the accessibility
  // tree sees them: a change made in the same task as aria-busy="true" is busy.
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") {
        if (record.oldValue === "true" && !live.hasAttribute("aria-busy")) seen.announced++;
      } else {
        seen.changes++;
        if (live.getAttribute("aria-busy") !== "true") seen.unbusyChanges++;
      }
    }
  }).observe(live, { subtree: true, childList: true, characterData: true, attributes: true,
                     attributeFilter: ["aria-busy"], attributeOldValue: true });
  new MutationObserver(() => { seen.statusChanges++; })
    .observe(status, { subtree: true, childList: true, characterData: true });
}"""

QUIET = """([s, announced]) => {
  const live = document.querySelector(`${s} [aria-live][aria-atomic]`);
  return window.__live.announced >= announced && !live.hasAttribute("aria-busy");
}"""

SHOWN = """([s, expected]) => {
  const form = document.querySelector(s);
  return !form.hasAttribute("aria-busy") && Object.entries(expected).every(
    ([name, text]) => form.querySelector(`output[data-output="${name}"]`).textContent === text);
}"""
"""The form shows ``expected``'s results, no request of it in flight: every key's reply is in."""

KEYSTROKE_MS = 120
"""Between two keys: well under the pause (500 ms) after which results are announced."""

QUIET_MS = 500


def tab_until(page: Page, wanted: dict[str, str], limit: int = 300) -> int:
    """Press Tab until the focused element has ``wanted``'s properties; the presses."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        active: dict[str, str] = page.evaluate(ACTIVE)
        if all(active[key] == value for key, value in wanted.items()):
            return presses
    pytest.fail(f"{wanted} not reached in {limit} presses of Tab")


def type_burst(page: Page, text: str) -> None:
    page.keyboard.press("Control+a")
    page.keyboard.type(text, delay=KEYSTROKE_MS)


KEYBOARD_PAGES = [
    pytest.param(language, slug, id=f"{language}-{slug}")
    for language, slug in zip(
        LANGUAGES, ("data-parallel-scaling", "effective-batch-size", "pipeline-bubble"), strict=True
    )
]


@pytest.mark.parametrize(("language", "slug"), KEYBOARD_PAGES)
def test_a_calculator_is_used_with_the_keyboard_alone(
    page: Page, server: Server, language: str, slug: str
) -> None:
    url = server.url(page_path(language, slug))
    form = static_forms(url)[0]
    s = selector(form)
    page.clock.install(time=INSTALLED_AT)  # real time, until the keys are typed
    page.goto(url)
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    page.wait_for_function(THEME_MOUNTED)
    # The example's results, announced once the engine took over: over before Tab.
    page.wait_for_function(
        "(s) => !document.querySelector(`${s} [aria-live][aria-atomic]`).hasAttribute('aria-busy')",
        arg=s,
    )
    page.evaluate(OBSERVE, s)
    form_id = page.locator(s).get_attribute("id") or ""
    names = list(form.inputs)
    raw = dict(form.inputs)
    typed = list(NEW_VALUES[(form.slug, form.mode)].items())[:2]

    # From the top of the page to the form's first field, by Tab alone.
    page.evaluate("() => document.activeElement.blur()")
    tab_until(page, {"tag": "INPUT", "name": names[0], "form": form_id})
    # The page's clock stands still while keys are typed and their results come: a
    # reply slowed by a loaded machine is no pause in typing. The pause is then made
    # on that clock, and nothing is pending when it stops (no request in flight).
    page.clock.pause_at(STOPPED_AT)
    for burst, (name, plain) in enumerate(typed, start=1):
        if burst > 1:
            tab_until(page, {"tag": "INPUT", "name": name, "form": form_id}, limit=len(names))
        text = field_text(plain, language)
        raw[name] = text
        expected = expected_outputs(form.slug, form.mode, raw, language)
        type_burst(page, text)
        page.wait_for_function(SHOWN, arg=[s, expected])
        page.clock.run_for(QUIET_MS)
        page.wait_for_function(QUIET, arg=[s, burst])
        page.clock.run_for(QUIET_MS + 300)  # nothing more is announced afterwards
        seen: dict[str, Any] = page.evaluate("() => window.__live")
        assert seen["announced"] == burst, seen  # once per pause, not per key
        assert seen["unbusyChanges"] == 0, seen  # no number changed outside a busy spell
        assert seen["changes"] > 0, seen
        assert seen["statusChanges"] == 0, seen  # the status line stays "ready"
        # What the live region says, once typing paused: the core's results.
        announced = page.locator(f"{s} [aria-live][aria-atomic]").inner_text()
        for value in expected.values():
            assert value in announced, (value, announced)
        shown = page.evaluate(
            "(s) => Object.fromEntries([...document.querySelectorAll(`${s} output`)]"
            ".map((o) => [o.dataset.output, o.textContent]))",
            s,
        )
        assert shown == expected

    # On to the copy-link button, and Enter.
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.origin)
    tab_until(page, {"tag": "BUTTON", "action": "copy-link", "form": form_id}, limit=len(names))
    page.keyboard.press("Enter")
    page.wait_for_function(
        "([s, text]) => document.querySelector(`${s} [data-status]`).textContent === text",
        arg=[s, ui("copied", language)],
    )


TOOLTIP = """() => {
  const active = document.activeElement;
  const id = active.getAttribute("aria-describedby");
  const tip = id && document.getElementById(id);
  return { tag: active.tagName, text: active.textContent,
           tip: tip ? tip.textContent.trim() : null,
           shown: !!tip && tip.classList.contains("md-tooltip2--active")
                  && tip.checkVisibility({ opacityProperty: true, visibilityProperty: true }) };
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_glossary_term_shows_its_definition_on_keyboard_focus(
    page: Page, server: Server, language: str
) -> None:
    url = server.url(page_path(language, "pipeline-bubble"))
    with urlopen(url) as response:
        html = response.read().decode("utf-8")
    article = html[html.index("<article") :]
    first = re.search(r'<abbr tabindex="0" title="([^"]+)">([^<]+)</abbr>', article)
    assert first, "no glossary term in the article"
    page.goto(url)
    page.wait_for_function(THEME_MOUNTED)
    tab_until(page, {"tag": "ABBR"})
    page.wait_for_function("() => document.querySelector('.md-tooltip2--active')")
    settle(page)  # the tooltip's transition, over
    focused = page.evaluate(TOOLTIP)
    assert focused["text"] == first[2]
    assert focused["tip"] == unescape(first[1])
    assert focused["shown"], focused
    page.keyboard.press("Shift+Tab")
    page.wait_for_function("() => !document.querySelector('.md-tooltip2--active')")
