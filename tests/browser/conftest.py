"""Fixtures of the browser suite: the built site, a local server, chromium.

The site is built once per session with ``mkdocs build --strict`` into a
temporary folder and served on 127.0.0.1 by the shared test server
(``tests/support/server.py``: the MIME types the engine needs, gzip and caching
as on GitHub Pages). A second server publishes the same folder under ``/repo/``
only, as a project site on GitHub Pages would be.

Every test gets a fresh browser context from one shared chromium; the
context records console errors, uncaught page errors and every request, and
the test fails if any request left the test server's origin or, unless the
test expects it, anything was logged as an error.
"""

from __future__ import annotations

import os
import subprocess
import sys
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

from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.server import Server, start

ROOT = Path(__file__).resolve().parents[2]

PREFIX = "/repo/"
"""Where the second server publishes the site, as a project site on GitHub Pages."""


def build_site(target: Path, **env: str) -> Path:
    """Build the working tree's site into ``target`` with ``mkdocs build --strict``.

    ``env`` adds environment variables to the build's (``PYODIDE_CDN``, say);
    a failed build fails the test with MkDocs's output.
    """
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(target)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(f"mkdocs build failed:\n{result.stdout}\n{result.stderr}")
    return target


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built from the working tree with ``mkdocs build --strict``."""
    return build_site(tmp_path_factory.mktemp("site"))


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
def browser() -> Iterator[Browser]:
    """One headless chromium for the whole session."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
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


def _watch(context: BrowserContext, recorder: Recorder) -> None:
    context.on("console", recorder.on_console)
    context.on("weberror", lambda error: recorder.errors.append(f"page error: {error.error}"))
    context.on("request", lambda request: recorder.requests.append(request.url))


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


@pytest.fixture
def static_page(browser: Browser, server: Server, recorder: Recorder) -> Iterator[Page]:
    """A page with JavaScript disabled: what a reader sees before any script runs."""
    created = _context(browser, recorder, java_script_enabled=False)
    yield created.new_page()
    created.close()
    _check(recorder, server.origin)
