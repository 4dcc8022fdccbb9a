"""What readers meet first: the chrome, the 404 page, colour schemes, a phone's layout.

The chrome is in the reader's language, the 404 page too; both colour schemes
hold, and so does the layout on a phone.

Some checks read the built site's files (the words of the chrome, the 404 page,
the table of contents); the rest drive chromium at a phone's width (390 px) and a
laptop's (1280 px), with and without JavaScript, in the light and dark schemes.
The colour contrast of the calculators, in every state of their forms, is checked
on each walk's live page (tests/browser/test_axe.py, tests/browser/test_every_page.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import pytest
from calcsite.messages import translate
from chrome import WORDS
from playwright.sync_api import Browser, Locator, Page, Response, ViewportSize

from tests.support.server import Server
from tests.support.site import ROOT

from .conftest import PREFIX, Recorder, _check, _context
from .expected import CALCULATOR_PAGES, LANGUAGES, page_path
from .helpers import settle
from .test_live import ALL_LIVE, BOOT_TIMEOUT_MS

pytestmark = pytest.mark.browser

PAGES = tuple(
    "" if source.stem == "index" else f"{source.stem}/"
    for source in sorted((ROOT / "docs").glob("*.md"))
    if "." not in source.stem
)
"""Every page of each language's tree, from the default language's sources."""

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
Scheme = Literal["light", "dark"]
"""A colour scheme a system may prefer, as ``prefers-color-scheme`` names it."""
SCHEMES: dict[Scheme, str] = {"light": "default", "dark": "slate"}
"""The system's colour scheme, and Material's scheme the page must apply for it."""


EVERY_CALCULATOR_PAGE = [
    pytest.param(language, slug, id=f"{language}-{slug}")
    for language in LANGUAGES
    for slug in CALCULATOR_PAGES
]
EVERY_PAGE = [
    pytest.param(language, path, id=f"{language}-{path.strip('/') or 'home'}")
    for language in LANGUAGES
    for path in PAGES
]

THEME_MOUNTED = """() => "document$" in window
  && document.querySelector("[data-md-component=palette] label:not([hidden])") !== null"""
"""Material's bundle has run: its palette toggle shows the current scheme's button."""


# --------------------------------------------------------------- the built site


def read(site: Path, language: str, path: str) -> str:
    return (site / LANGUAGES[language] / path / "index.html").read_text(encoding="utf-8")


def site_path(site: Path) -> str:
    """The path of the ``site_url`` the site was built for, from its home's canonical link."""
    canonical = re.search(r'<link rel="canonical" href="([^"]+)"', read(site, "en", ""))
    assert canonical, "the home page has no canonical link"
    return urlsplit(canonical[1]).path


def article(html: str) -> str:
    found = re.search(r"<article\b.*?</article>", html, re.DOTALL)
    assert found, "no article"
    return found[0]


def chrome_strings(html: str) -> set[str]:
    """The chrome's words in a page: labels, titles, navigation and footer."""
    attributes = re.findall(r'(?:title|aria-label|placeholder)="([^"]+)"', html)
    navigation = re.findall(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', html, re.DOTALL)
    footer = re.findall(r'class="md-copyright__highlight">\s*(.*?)\s*</div>', html, re.DOTALL)
    return {text for text in [*attributes, *navigation, *footer] if text.strip()}


def test_the_404_page_is_english_and_links_each_home(site: Path) -> None:
    """GitHub Pages serves the root 404.html for every missing address.

    It must be the default language's, linking to every language's home from
    site_url's path.
    """
    assert not [
        lang for lang, tree in LANGUAGES.items() if tree and (site / tree / "404.html").exists()
    ]
    html = (site / "404.html").read_text(encoding="utf-8")
    assert re.search(r'<html lang="en"', html)
    root = site_path(site)
    homes = {language: root + tree for language, tree in LANGUAGES.items()}
    links = re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)"', article(html))
    assert {language: href for href, language in links} == homes
    selector = re.findall(r'<a href="([^"]+)" hreflang="([a-z]+)" class="md-select__link"', html)
    assert {language: href for href, language in selector} == homes
    # Nothing else in another language: no word of the French or Italian chrome
    # that the English chrome does not also have.
    english = chrome_strings(read(site, "en", ""))
    foreign = {
        text
        for language in LANGUAGES
        if language != "en"
        for text in chrome_strings(read(site, language, ""))
    } - english
    assert foreign, "the other languages' chrome was not found"
    assert sorted(text for text in foreign if text in html) == []


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.strip("/") or "home")
def test_the_chrome_speaks_the_page_language(site: Path, language: str, path: str) -> None:
    """The words mkdocs.yml and the extensions give the theme are in the page's language.

    These are the permalink titles, the footer's credit and the colour-scheme
    toggle.
    """
    html = read(site, language, path)
    assert sorted(english for english in WORDS if english in html) == []
    assert "Made with" not in html
    assert "Permanent link" not in html
    assert f"{translate(language, 'Made with')}\n" in html
    assert f'aria-label="{translate(language, "Switch to dark mode")}"' in html
    if 'class="headerlink"' in html:
        titles = set(re.findall(r'class="headerlink" href="#[^"]*" title="([^"]*)"', html))
        assert titles == {translate(language, "Permanent link")}


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.strip("/") or "home")
def test_the_english_chrome_names_the_toggles(site: Path, path: str) -> None:
    html = read(site, "en", path)
    for name in ("Switch to light mode", "Switch to dark mode", "Follow the system setting"):
        assert f'aria-label="{name}"' in html


def plain(html: str) -> str:
    """Text of an HTML fragment as the table of contents shows it: ASCII spaces collapse."""
    return re.sub(r"[ \t\n\r\f]+", " ", re.sub(r"<[^>]*>", "", html)).strip()


def test_french_contents_keep_the_no_break_spaces(site: Path) -> None:
    """A French heading's "?" and ":" follow a no-break space, kept by the table of contents.

    So the mark never wraps alone onto a line.
    """
    checked = 0
    for path in PAGES:
        html = read(site, "fr", path)
        headings = re.findall(
            r'<h[2-6] id="([^"]+)">(.*?)<a class="headerlink"', article(html), re.DOTALL
        )
        for anchor, inner in headings:
            text = plain(inner)
            if "\u202f" not in text and "\u00a0" not in text:
                continue
            entries = re.findall(
                rf'<a href="#{re.escape(anchor)}" class="md-nav__link">(.*?)</a>', html, re.DOTALL
            )
            assert entries, f"{path}#{anchor} is not in the table of contents"
            assert {plain(entry) for entry in entries} == {text}, f"{path}#{anchor}"
            checked += 1
    assert checked >= 5


# --------------------------------------------------------------- the 404 page, served


@pytest.fixture(scope="module")
def pages_server(site: Path, subpath_server: Server) -> Server:
    """The site as GitHub Pages publishes a project site: built for and served under ``/repo/``.

    The session's site is built for that path (tests/support/site.py), so it is
    the subpath server's.
    """
    assert site_path(site) == PREFIX
    return subpath_server


def test_a_missing_address_at_any_depth_gets_the_english_404(
    browser: Browser, pages_server: Server, recorder: Recorder
) -> None:
    context = _context(browser, recorder, viewport=PHONE)
    page = context.new_page()
    statuses: dict[str, int] = {}

    def seen(response: Response) -> None:
        statuses.setdefault(response.url, response.status)

    page.on("response", seen)
    missing = pages_server.url("fr/no/such/page/at/any/depth/")
    response = page.goto(missing)
    assert response is not None
    assert response.status == 404
    page.wait_for_function(THEME_MOUNTED)
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("article h1").inner_text() == "Page not found"
    # Its styles and scripts load from the sub-path, whatever the depth.
    assert {url: status for url, status in statuses.items() if status >= 400} == {missing: 404}
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    homes = page.locator("article a[hreflang]")
    links = {
        homes.nth(index).get_attribute("hreflang"): homes.nth(index).get_attribute("href")
        for index in range(homes.count())
    }
    assert links == {language: PREFIX + tree for language, tree in LANGUAGES.items()}
    for language, href in links.items():
        assert href is not None
        response = page.goto(pages_server.origin + href)
        assert response is not None
        assert response.status == 200
        assert page.locator("html").get_attribute("lang") == language
    context.close()
    # The browser reports the missing address itself; nothing else may fail.
    recorder.errors = [error for error in recorder.errors if "404" not in error]
    _check(recorder, pages_server.origin)


# --------------------------------------------------------------- no sideways scroll

OVERFLOW = """() => {
  const width = innerWidth;
  const menu = document.querySelector(".md-select__inner");
  return {
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: width,
    menu: menu ? menu.getBoundingClientRect().right : 0,
  };
}"""


def sideways(page: Page, where: str, *, scripted: bool = True) -> list[str]:
    """Where the page, at a phone's width, scrolls sideways; the viewport is put back after.

    Args:
        page: The page, loaded.
        where: What to call the page in the result.
        scripted: Whether the page's scripts run; then its language menu, where it
            has one, is opened first (without them it cannot open).
    """
    page.set_viewport_size(PHONE)
    if scripted and page.locator(".md-select").count():
        page.hover(".md-select")
        settle(page)
    measured = page.evaluate(OVERFLOW)
    page.set_viewport_size(LAPTOP)
    wide = max(measured["scrollWidth"], measured["menu"]) > measured["innerWidth"]
    return [f"{where}: {measured}"] if wide else []


@pytest.mark.parametrize(("language", "path"), EVERY_PAGE)
def test_no_page_scrolls_sideways_on_a_phone_before_its_scripts_run(
    static_page: Page, server: Server, language: str, path: str
) -> None:
    """As the page arrives; with its scripts run, see tests/browser/test_every_page.py."""
    static_page.goto(server.url(page_path(language, path)))
    assert sideways(static_page, path or "home", scripted=False) == []


# --------------------------------------------------------------- results in view

IN_VIEW = """([index, block]) => {
  const form = document.querySelectorAll("form.calc")[index];
  const fields = form.querySelectorAll("input[name], select[name]");
  const last = fields[fields.length - 1];
  last.blur();
  window.scrollTo(0, 0);
  if (block === "focus") last.focus();
  else { last.focus({preventScroll: true}); last.scrollIntoView({block}); }
  const rect = (element) => {
    const r = element.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  const field = rect(last);
  const x = (field.left + field.right) / 2, y = (field.top + field.bottom) / 2;
  return {
    results: rect(form.querySelector(".calc__results")),
    header: document.querySelector(".md-header").getBoundingClientRect().bottom,
    height: innerHeight,
    field,
    uncovered: document.elementFromPoint(x, y) === last,
    focused: document.activeElement === last,
  };
}"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
@pytest.mark.parametrize(("language", "slug"), EVERY_CALCULATOR_PAGE)
def test_the_results_stay_in_view_while_the_last_field_is_edited(
    static_page: Page, server: Server, language: str, slug: str, viewport: ViewportSize
) -> None:
    """Beside the fields on a wide screen, above them on a narrow one, the results stay in view.

    They stay in view however the last field is brought into view, and do not
    cover it.
    """
    page = static_page
    page.set_viewport_size(viewport)
    page.goto(server.url(page_path(language, slug)))
    forms = page.locator("form.calc").count()
    assert forms
    for index in range(forms):
        for block in ("start", "center", "end", "focus"):
            seen = page.evaluate(IN_VIEW, [index, block])
            where = f"form {index}, {block}: {seen}"
            assert seen["focused"], where
            assert seen["results"]["top"] >= seen["header"] - 1, where
            assert seen["results"]["bottom"] <= seen["height"] + 1, where
            assert seen["field"]["top"] >= seen["header"] - 1, where
            assert seen["field"]["bottom"] <= seen["height"] + 1, where
            assert seen["uncovered"], where


# --------------------------------------------------------------- formulas

FORMULAS = """() => [...document.querySelectorAll("math[display=block]")].map((math) => {
  const box = math.parentElement;
  const style = getComputedStyle(box);
  const parts = () => [...math.querySelectorAll("*")].map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0);
  box.scrollLeft = 0;
  const start = parts();
  const boxRect = box.getBoundingClientRect();
  const first = Math.min(...start.map((r) => r.left));
  box.scrollLeft = box.scrollWidth;
  const last = Math.max(...parts().map((r) => r.right));
  box.scrollLeft = 0;
  return {
    wrapper: box.className, overflowX: style.overflowX,
    boxLeft: boxRect.left, boxRight: boxRect.right, first, last,
    scrolls: box.scrollWidth > box.clientWidth,
  };
})"""


@pytest.mark.parametrize(("language", "slug"), EVERY_CALCULATOR_PAGE)
def test_formulas_scroll_within_their_own_box_on_a_phone(
    static_page: Page, server: Server, language: str, slug: str
) -> None:
    page = static_page
    page.set_viewport_size(PHONE)
    page.goto(server.url(page_path(language, slug)))
    formulas = page.evaluate(FORMULAS)
    assert formulas
    for formula in formulas:
        assert formula["wrapper"] == "calc-math", formula
        assert formula["overflowX"] in {"auto", "scroll"}, formula
        assert formula["boxRight"] <= PHONE["width"], formula
        # Nothing cut off: the start shows at first, the end once scrolled to.
        assert formula["first"] >= formula["boxLeft"] - 1, formula
        assert formula["last"] <= formula["boxRight"] + 1, formula
    assert any(formula["scrolls"] for formula in formulas) or slug != "effective-batch-size"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


# --------------------------------------------------------------- reference tables

TABLE_STYLE = """(selector) => {
  const table = document.querySelector(selector);
  const pick = (element, names) => {
    const style = getComputedStyle(element);
    return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
  };
  return {
    table: pick(table, ["font-size", "border-top-width", "border-top-style", "border-top-color",
                        "border-radius", "background-color"]),
    th: pick(table.querySelector("th"), ["padding-top", "padding-left", "font-weight",
                                         "text-align", "vertical-align", "min-width"]),
    td: pick(table.querySelector("td"), ["padding-top", "padding-left", "border-top-width",
                                         "border-top-color", "text-align", "vertical-align"]),
  };
}"""

REFERENCE_SCROLL = """() => [...document.querySelectorAll(".calc-reference__table")]
.map((table) => {
  const r = table.getBoundingClientRect();
  return {right: r.right, overflowX: getComputedStyle(table).overflowX,
          scrollWidth: table.scrollWidth, clientWidth: table.clientWidth};
})"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_reference_tables_look_and_scroll_like_the_theme_tables(
    page: Page, server: Server, language: str
) -> None:
    page.goto(server.url(page_path(language, "performance/")))
    # Material wraps a page's tables as it mounts its content, in no set order
    # with the palette that THEME_MOUNTED waits for: both.
    theme_table = ".md-typeset__table table"
    page.wait_for_function(THEME_MOUNTED)
    page.wait_for_selector(theme_table, state="attached")
    theme = page.evaluate(TABLE_STYLE, theme_table)
    page.goto(server.url(page_path(language, "automation/")))
    page.wait_for_function(THEME_MOUNTED)
    assert page.evaluate(TABLE_STYLE, ".calc-reference__table") == theme
    page.set_viewport_size(PHONE)
    tables = page.evaluate(REFERENCE_SCROLL)
    assert tables
    assert any(table["scrollWidth"] > table["clientWidth"] for table in tables)
    for table in tables:
        assert table["overflowX"] in {"auto", "scroll"}, table
        assert table["right"] <= PHONE["width"], table


# --------------------------------------------------------------- home cards

CARDS = """() => {
  const cards = [...document.querySelectorAll(".grid.cards > ul > li")];
  const rows = new Map();
  for (const card of cards) {
    const top = Math.round(card.getBoundingClientRect().top);
    rows.set(top, (rows.get(top) || 0) + 1);
  }
  return {cards: cards.length, rows: [...rows.values()]};
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_cards_fill_their_grid(static_page: Page, server: Server, language: str) -> None:
    """Every row of cards is full: one column, or all of them side by side."""
    page = static_page
    page.goto(server.url(page_path(language, "")))
    for width in (390, 600, 768, 1024, 1280, 1440, 1920):
        page.set_viewport_size(ViewportSize(width=width, height=900))
        cards = page.evaluate(CARDS)
        assert cards["cards"] >= 3
        assert len(set(cards["rows"])) == 1, f"{width} px: {cards}"


# --------------------------------------------------------------- the engine takes over

POSITIONS = """() => {
  const at = (element) => {
    const r = element.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top + scrollY), Math.round(r.width),
            Math.round(r.height)];
  };
  return [...document.querySelectorAll("form.calc")].map((form) => ({
    form: at(form),
    fields: [...form.querySelectorAll(".calc__field")].map(at),
    results: at(form.querySelector(".calc__results")),
    share: at(form.querySelector(".calc__share")),
    shareShown: form.querySelector(".calc__share").checkVisibility({visibilityProperty: true}),
  }));
}"""

AT_DOMCONTENTLOADED = f"""document.addEventListener("DOMContentLoaded", () => {{
  window.__calcFirst = ({POSITIONS})();
}});"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_nothing_moves_when_the_engine_takes_over(
    page: Page, server: Server, viewport: ViewportSize
) -> None:
    """The copy-link button and the results are in place in the page as built.

    Going live moves no field, no result and no button.
    """
    page.set_viewport_size(viewport)
    page.add_init_script(AT_DOMCONTENTLOADED)
    page.goto(server.url(page_path("en", "effective-batch-size/")))
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    page.wait_for_function(THEME_MOUNTED)
    first = page.evaluate("window.__calcFirst")
    live = page.evaluate(POSITIONS)
    assert all(form["share"][3] > 0 for form in first)
    assert all(form["shareShown"] for form in live)
    for form in (*first, *live):
        del form["shareShown"]
    assert live == first


# --------------------------------------------------------------- colour schemes

FIRST_PAINT = """document.addEventListener("DOMContentLoaded", () => {
  window.__schemeAtDcl = document.body.getAttribute("data-md-color-scheme");
  window.__themeAtDcl = "document$" in window;
});"""


@pytest.mark.parametrize("system", SCHEMES)
def test_the_system_scheme_applies_before_the_theme_starts(
    page: Page, server: Server, system: Scheme
) -> None:
    """With no choice stored, the page is in the system's scheme from its first paint.

    Not only once Material's bundle (started after DOMContentLoaded) has run.
    """
    page.emulate_media(color_scheme=system)
    page.add_init_script(FIRST_PAINT)
    page.goto(server.url(page_path("fr", "pipeline-bubble/")))
    page.wait_for_function(THEME_MOUNTED)
    assert page.evaluate("window.__themeAtDcl") is False
    assert page.evaluate("window.__schemeAtDcl") == SCHEMES[system]
    assert page.evaluate("document.body.dataset.mdColorScheme") == SCHEMES[system]


def named(toggle: Locator) -> str:
    """The name of the toggle's current step: its option's label.

    The option's title is not used: it is moved into a tooltip while hovered.
    """
    name: str = toggle.evaluate("(label) => label.previousElementSibling.ariaLabel")
    return name


def test_the_toggle_cycles_system_light_dark_and_is_remembered(page: Page, server: Server) -> None:
    """The toggle goes from the system's scheme to light, dark, and back.

    Each step is named, in the page's language, by what the next click does.
    """
    page.emulate_media(color_scheme="dark")
    page.goto(server.url(page_path("it", "")))
    page.wait_for_function(THEME_MOUNTED)
    scheme = "document.body.dataset.mdColorScheme"
    toggle = page.locator("[data-md-component=palette] label:not([hidden])")
    assert page.evaluate(scheme) == "slate"
    assert named(toggle) == translate("it", "Switch to light mode")
    toggle.click()
    assert page.evaluate(scheme) == "default"
    assert named(toggle) == translate("it", "Switch to dark mode")
    toggle.click()
    assert page.evaluate(scheme) == "slate"
    assert named(toggle) == translate("it", "Follow the system setting")
    page.reload()
    page.wait_for_function(THEME_MOUNTED)
    assert page.evaluate(scheme) == "slate"
    assert named(toggle) == translate("it", "Follow the system setting")
    page.emulate_media(color_scheme="light")
    assert page.evaluate(scheme) == "slate"
    toggle.click()
    assert named(toggle) == translate("it", "Switch to light mode")
    assert page.evaluate(scheme) == "default"


def set_scheme(page: Page, system: Scheme) -> None:
    """Have the system prefer ``system``; the page, following it, applies its scheme."""
    page.emulate_media(color_scheme=system)
    page.wait_for_function(
        "(scheme) => document.body.dataset.mdColorScheme === scheme", arg=SCHEMES[system]
    )
