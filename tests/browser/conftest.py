"""Fixtures of the browser suite: the built site, a local server, chromium.

The site is the session's one build (the ``site`` fixture of tests/conftest.py,
shared with the site tests, built for a project site under ``/repo/``), served on
127.0.0.1 by the shared test server (``tests/support/server.py``: the MIME types
the engine needs, gzip and caching as on GitHub Pages). A second server publishes
the same folder under ``/repo/`` only, where its site_url and its 404 page's
absolute links point, as GitHub Pages publishes a project site.

Every test gets a fresh browser context from one shared chromium (a page
without scripts, a new page of one shared context); the context, or the page,
records console errors, uncaught page errors and every request, and the test
fails if any request left the test server's origin or, unless the test expects
it, anything was logged as an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict, Unpack
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    ViewportSize,
    sync_playwright,
)

from tests.support.chromium import HEADLESS_SHELL, TEST_ARGS
from tests.support.server import Server, start
from tests.support.site import SITE_PATH

PREFIX = SITE_PATH
"""Where the second server publishes the site, as a project site on GitHub Pages."""


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[Server]:
    """The site served at the root of http://127.0.0.1:PORT/."""
    running = start(site)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def subpath_server(site: Path) -> Iterator[Server]:
    """The site served under http://127.0.0.1:PORT/repo/ and nowhere else."""
    running = start(site, PREFIX)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def cdn_site_server(cdn_site: Path) -> Iterator[Server]:
    """The CDN build (tests/conftest.py) served at the root of http://127.0.0.1:PORT/."""
    running = start(cdn_site)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One chromium headless shell for the whole session (:data:`HEADLESS_SHELL`)."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=HEADLESS_SHELL, headless=True, args=TEST_ARGS
        )
        yield launched
        launched.close()


@dataclass
class Recorder:
    """What a browser context saw: console errors, page errors and request URLs."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    expect_errors: bool = False
    """Set by a test that provokes errors on purpose (a missing engine file)."""

    def on_console(self, message: ConsoleMessage) -> None:
        """Record a console message if it is an error, with the script that logged it."""
        if message.type == "error":
            self.errors.append(f"console: {message.text} ({message.location.get('url')})")


def _watch(target: BrowserContext | Page, recorder: Recorder) -> None:
    """Have ``recorder`` record what ``target`` (a context's every page, or one page) sees."""
    target.on("console", recorder.on_console)
    target.on("request", lambda request: recorder.requests.append(request.url))
    if isinstance(target, Page):
        target.on("pageerror", lambda error: recorder.errors.append(f"page error: {error}"))
    else:
        target.on("weberror", lambda error: recorder.errors.append(f"page error: {error.error}"))


@pytest.fixture
def recorder() -> Recorder:
    """What the test's browser contexts see; the context fixtures check it afterwards."""
    return Recorder()


class ContextOptions(TypedDict, total=False):
    """The options of a new browser context that the tests set (Playwright's names)."""

    viewport: ViewportSize
    java_script_enabled: bool
    bypass_csp: bool


def _context(
    browser: Browser, recorder: Recorder, **options: Unpack[ContextOptions]
) -> BrowserContext:
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    _watch(context, recorder)
    return context


def _check(recorder: Recorder, origin: str) -> None:
    foreign = [url for url in recorder.requests if not _same_origin(url, origin)]
    assert foreign == [], f"requests to another origin: {foreign}"
    if not recorder.expect_errors:
        assert recorder.errors == [], "\n".join(recorder.errors)


def _same_origin(url: str, origin: str) -> bool:
    if url.startswith(("data:", "blob:")):
        return True
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" == origin


@pytest.fixture
def context(browser: Browser, server: Server, recorder: Recorder) -> Iterator[BrowserContext]:
    """A fresh browser context; fails the test on console errors or foreign requests."""
    created = _context(browser, recorder)
    yield created
    created.close()
    _check(recorder, server.origin)


@pytest.fixture
def page(context: BrowserContext) -> Page:
    """A new page in the test's browser context, served by the session's server."""
    return context.new_page()


@pytest.fixture
def subpath_page(browser: Browser, subpath_server: Server, recorder: Recorder) -> Iterator[Page]:
    """A page in a fresh context, for the site served under ``/repo/``."""
    created = _context(browser, recorder)
    yield created.new_page()
    created.close()
    _check(recorder, subpath_server.origin)


@pytest.fixture(scope="session")
def scriptless(browser: Browser) -> Iterator[BrowserContext]:
    """The session's one browser context with JavaScript disabled, for :func:`static_page`.

    Without scripts a page keeps nothing a later page could find: no storage, no
    worker, no timer; only the browser's cache, which a reader's second page has too.
    A page costs a third of the processor time in a context already made (0.36
    against 0.93 CPU-seconds for context, page and load, measured here).
    """
    created = browser.new_context(java_script_enabled=False)
    created.set_default_timeout(10_000)
    yield created
    created.close()


@pytest.fixture
def static_page(scriptless: BrowserContext, server: Server, recorder: Recorder) -> Iterator[Page]:
    """A page with JavaScript disabled: what a reader sees before any script runs.

    A new page of :func:`scriptless`, watched by the test's recorder and closed after it.
    """
    created = scriptless.new_page()
    _watch(created, recorder)
    yield created
    created.close()
    _check(recorder, server.origin)
