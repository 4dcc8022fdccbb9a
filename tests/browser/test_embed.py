"""Embed pages in chromium, framed by a page of another origin, in every language.

A wiki is another site: the host page here is served by a second
``tests.support.server``, on another port, from a temporary folder, and the site
itself under ``/repo/``, as a project site. In each language the "Embed" control
of a calculator page copies a snippet for a case typed into a form; pasted as it
is into the host page, in a 320 px column, the snippet's frame goes live with
that case and the core's results, shows that form alone, never scrolls
sideways, follows the system's dark scheme, posts no message to the host, and
runs under its own policy without a violation or a console error; its link to
the full page opens the same case in the top window. Another test makes the
clipboard refuse and types markup into a field: the snippet, shown as text, is
one iframe whose query carries the markup as data.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from itertools import cycle
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from calcsite.embed import embed_path, page_path
from calcsite.messages import UI, translate
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Frame, Page

from calculator import CALCULATORS, get
from tests.support.server import Server, start

from .conftest import Recorder, _context, _same_origin
from .expected import (
    LANGUAGES,
    NEW_VALUES,
    StaticForm,
    expected_outputs,
    expected_warnings,
    field_text,
    static_forms,
    ui,
)
from .test_csp import LISTEN, VIOLATIONS
from .test_live import (
    ALL_LIVE,
    BOOT_TIMEOUT_MS,
    SETTLED,
    link_query,
    query_of,
    selector,
    type_values,
)

pytestmark = pytest.mark.browser

FRAME_WIDTH = 320
"""A narrow wiki column: the frame's width, from the host page's layout."""

CASES = [
    pytest.param(language, slug, id=f"{language}-{slug}")
    for language, slug in zip(LANGUAGES, cycle(CALCULATORS), strict=False)
]
"""One calculator per language, in turn, so that the languages cover every calculator."""

MESSAGES = """
if (window.top === window) {
  window.__messages = [];
  addEventListener("message", (event) => window.__messages.push(String(event.origin)), true);
}
"""
"""Records, in the host page, any message a frame posts to it."""

HOST = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A wiki page</title><link rel="icon" href="data:,"></head>
<body>
<h1>Our cluster's numbers</h1>
<div class="column">{snippet}</div>
</body>
</html>
"""
HOST_CSS = f"body {{ margin: 8px; }} .column {{ width: {FRAME_WIDTH}px; }}"

SNIPPET = re.compile(
    r'<iframe src="[^"<>]+" title="[^"<>]*" width="100%" height="(\d+)" loading="lazy"'
    r' style="border:0"></iframe>'
)

SHOWN = """() => [...document.querySelectorAll("form.calc")]
  .filter((form) => form.checkVisibility()).map((form) => form.dataset.mode)"""

FORM = """(selector) => {
  const form = document.querySelector(selector);
  const byName = (elements, key, value) =>
    Object.fromEntries([...elements].map((el) => [key(el), value(el)]));
  return {
    state: form.dataset.state,
    busy: form.hasAttribute("aria-busy"),
    inputs: byName(form.querySelectorAll("input[name], select[name]"),
                   (el) => el.name, (el) => el.value),
    outputs: byName(form.querySelectorAll("output[data-output]"),
                    (el) => el.dataset.output, (el) => el.textContent),
    warnings: [...form.querySelectorAll("[data-warnings] li")].map((el) => el.textContent.trim()),
    status: form.querySelector("[data-status]").textContent,
  };
}"""

OVERFLOW = "() => [document.documentElement.scrollWidth, innerWidth]"


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


def parse(snippet: str) -> dict[str, str]:
    """The one element of ``snippet``, an iframe: its attributes as a browser reads them."""
    parser = _Attributes()
    parser.feed(snippet)
    parser.close()
    ((tag, attrs),) = parser.found
    assert tag == "iframe"
    return {name: value or "" for name, value in attrs}


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    """A second server, on another port: the wiki's origin, serving the host pages."""
    folder = tmp_path_factory.mktemp("host")
    (folder / "host.css").write_text(HOST_CSS, encoding="utf-8")
    running = start(folder)
    yield running, folder
    running.stop()


def host_page(host: tuple[Server, Path], name: str, snippet: str) -> str:
    server, folder = host
    html = HOST.format(snippet=snippet).replace(
        "</title>", '</title><link rel="stylesheet" href="host.css">'
    )
    (folder / f"{name}.html").write_text(html, encoding="utf-8")
    return server.url(f"{name}.html")


@pytest.fixture
def complaints() -> list[str]:
    return []


@pytest.fixture
def embed_context(
    browser: Browser,
    subpath_server: Server,
    host: tuple[Server, Path],
    recorder: Recorder,
    complaints: list[str],
) -> Iterator[BrowserContext]:
    """A context that watches every document's policy and the host's messages.

    The site and the host are the only origins it may reach.
    """
    context = _context(browser, recorder)
    context.add_init_script(LISTEN)
    context.add_init_script(MESSAGES)

    def on_console(message: ConsoleMessage) -> None:
        if re.search(r"Content.Security.Policy", message.text, re.IGNORECASE):
            complaints.append(f"{message.type}: {message.text}")

    context.on("console", on_console)
    yield context
    context.close()
    origins = (subpath_server.origin, host[0].origin)
    foreign = [url for url in recorder.requests if not any(_same_origin(url, o) for o in origins)]
    assert foreign == [], f"requests to another origin: {foreign}"
    if not recorder.expect_errors:
        assert recorder.errors == [], "\n".join(recorder.errors)
    assert complaints == []


def type_case(page: Page, form: StaticForm) -> dict[str, str]:
    """Types the form's other case; returns every field's text."""
    new = NEW_VALUES[(form.slug, form.mode)]
    type_values(page, form, new)
    page.wait_for_function(SETTLED, arg=selector(form))
    return {**form.inputs, **new}


def embed_frame(page: Page) -> Frame:
    page.wait_for_function("() => document.querySelector('iframe')?.contentWindow")
    frames = [frame for frame in page.frames if frame is not page.main_frame]
    assert len(frames) == 1
    # An iframe starts on about:blank, where "every form is live" holds at once:
    # wait for the embed page itself to have loaded (slow on a loaded machine).
    frames[0].wait_for_url(re.compile(r".*/embed/"), timeout=BOOT_TIMEOUT_MS)
    return frames[0]


def expected_title(slug: str, mode: str, language: str) -> str:
    calculator = get(slug)
    title = translate(language, calculator.title)
    if len(calculator.modes) > 1:
        title += " — " + translate(language, calculator.mode(mode).label)
    return title


def copy_snippet(page: Page, form: StaticForm, language: str) -> str:
    """Presses the form's "Embed" control: it says so on its own label, then goes back."""
    button = page.locator(f'{selector(form)} [data-action="copy-embed"]')
    label = button.text_content()
    assert label == translate(language, UI["embed.copy"])
    button.click()
    copied = translate(language, UI["embed.copied"])
    page.wait_for_function(
        "([s, text]) => document.querySelector(`${s} [data-status]`).textContent === text",
        arg=[selector(form), copied],
    )
    assert button.text_content() == copied
    page.wait_for_function(
        "([s, text]) => document.querySelector(`${s} [data-action=copy-embed]`).textContent"
        " === text",
        arg=[selector(form), label],
    )
    snippet: str = page.evaluate("navigator.clipboard.readText()")
    return snippet


def assert_frame_shows(
    frame: Frame, form: StaticForm, fields: dict[str, str], language: str
) -> None:
    """The case's form alone, live, with the core's results for ``fields``; no sideways scroll."""
    frame.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    assert frame.evaluate("document.documentElement.lang") == language
    assert frame.evaluate(SHOWN) == [form.mode]
    shown: dict[str, Any] = frame.evaluate(FORM, selector(form))
    assert shown["state"] == "ready"
    assert not shown["busy"]
    assert shown["inputs"] == fields
    assert shown["outputs"] == expected_outputs(form.slug, form.mode, fields, language)
    assert shown["warnings"] == expected_warnings(form.slug, form.mode, fields, language)
    assert shown["status"] == ui("ready", language)
    width, inner = frame.evaluate(OVERFLOW)
    assert inner == FRAME_WIDTH
    assert width <= inner


@pytest.mark.parametrize(("language", "slug"), CASES)
def test_a_copied_embed_snippet_opens_its_case_in_a_frame_of_another_origin(
    embed_context: BrowserContext,
    subpath_server: Server,
    host: tuple[Server, Path],
    *,
    complaints: list[str],
    language: str,
    slug: str,
) -> None:
    site = subpath_server
    embed_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.origin)
    page = embed_context.new_page()
    full = site.url(page_path(language, slug))
    # The last mode with a case to type: another mode than the default where there is one.
    target = [form for form in static_forms(full) if (slug, form.mode) in NEW_VALUES][-1]
    page.goto(full)
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    query = link_query(target, type_case(page, target), language)

    snippet = copy_snippet(page, target, language)
    assert SNIPPET.fullmatch(snippet), snippet
    attributes = parse(snippet)
    src = urlsplit(attributes["src"])
    # From the page's own address: the sub-path kept, whatever site_url says.
    assert f"{src.scheme}://{src.netloc}" == site.origin
    assert src.path == urlsplit(site.url(embed_path(language, slug))).path
    assert src.path.startswith("/repo/")
    assert query_of(attributes["src"]) == query
    assert attributes["title"] == expected_title(slug, target.mode, language)
    assert 200 <= int(attributes["height"]) <= 3000

    # Pasted as it is into a page of another origin, in a narrow column.
    page.goto(host_page(host, f"{language}-{slug}", snippet))
    frame = embed_frame(page)
    plain = {name: value for name, value in query.items() if name != "mode"}
    fields = {name: field_text(value, language) for name, value in plain.items()}
    assert_frame_shows(frame, target, fields, language)
    # The system's dark scheme, followed without Material's JavaScript.
    page.emulate_media(color_scheme="dark")
    frame.wait_for_function("() => document.body.dataset.mdColorScheme === 'slate'")
    page.emulate_media(color_scheme="light")
    frame.wait_for_function("() => document.body.dataset.mdColorScheme === 'default'")
    # Nothing told to the host, nothing refused by the policy.
    assert page.evaluate("window.__messages") == []
    assert frame.evaluate(VIOLATIONS) == []
    assert complaints == []

    # The link to the full page carries the case and opens in the top window.
    link = frame.locator("a[target=_top]")
    assert query_of(link.evaluate("(a) => a.href")) == query
    link.click()
    page.wait_for_url(lambda url: urlsplit(url).path == urlsplit(full).path)
    assert query_of(page.url) == query
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate(FORM, selector(target))["inputs"] == fields


def test_the_snippet_is_one_iframe_whatever_is_typed(
    embed_context: BrowserContext, subpath_server: Server, host: tuple[Server, Path]
) -> None:
    """Markup typed into a field is a value of the snippet's query, URL-encoded.

    A clipboard that refuses leaves the snippet as text under the button.
    """
    language, slug = "fr", "pipeline-bubble"
    page = embed_context.new_page()
    page.add_init_script(
        """Object.defineProperty(navigator, "clipboard", {
             value: { writeText: () => Promise.reject(new DOMException("denied")) },
           });"""
    )
    form = static_forms(subpath_server.url(page_path(language, slug)))[0]
    first = next(iter(form.inputs))
    payload = '1" onload="window.__pwned=1" x="<img src=x>&micro_batches=9'
    page.goto(subpath_server.url(page_path(language, slug)))
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    page.locator(f'{selector(form)} input[name="{first}"]').fill(payload)
    page.wait_for_function(SETTLED, arg=selector(form))
    page.locator(f'{selector(form)} [data-action="copy-embed"]').click()
    failed = translate(language, UI["embed.copy_failed"])
    page.wait_for_function(
        "([s, text]) => document.querySelector(`${s} [data-status]`).textContent === text",
        arg=[selector(form), failed],
    )
    code = page.locator(f"{selector(form)} [data-embed-code]")
    assert code.is_visible()
    assert code.evaluate("(el) => el.children.length") == 0, "text, not markup"
    snippet = code.text_content() or ""
    assert SNIPPET.fullmatch(snippet), snippet
    assert page.evaluate("window.__pwned") is None
    # Typing again: the snippet shown was for the case it was made for, and goes.
    page.locator(f'{selector(form)} input[name="{first}"]').fill(form.inputs[first])
    page.wait_for_function(SETTLED, arg=selector(form))
    assert not code.is_visible()

    # As the HTML parser of a wiki's page reads it (one without a policy of its own):
    # one iframe, these attributes alone, each value whole.
    page.goto(host_page(host, "blank", ""))
    parsed = page.evaluate(
        """(html) => {
          const body = new DOMParser().parseFromString(html, "text/html").body;
          const frame = body.firstElementChild;
          return { count: body.children.length, tag: frame.tagName,
                   names: frame.getAttributeNames(), src: frame.src };
        }""",
        snippet,
    )
    assert parsed["count"] == 1
    assert parsed["tag"] == "IFRAME"
    assert parsed["names"] == ["src", "title", "width", "height", "loading", "style"]
    # Each value once, the typed one whole: "&micro_batches=9" did not become a key.
    assert query_of(parsed["src"]) == {**form.inputs, first: payload}


def test_an_embed_page_without_a_case_shows_every_form_at_300_px(
    embed_context: BrowserContext, subpath_server: Server
) -> None:
    """Visited alone (no query), every mode's form, each fitting a 300 px frame."""
    page = embed_context.new_page()
    page.set_viewport_size({"width": 300, "height": 700})
    slug = max(CALCULATORS, key=lambda name: len(get(name).modes))
    page.goto(subpath_server.url(embed_path("it", slug)))
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate(SHOWN) == [mode.name for mode in get(slug).modes]
    width, inner = page.evaluate(OVERFLOW)
    assert width <= inner == 300
    assert page.evaluate(VIOLATIONS) == []
