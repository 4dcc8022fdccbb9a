"""A shared link fetches the engine's files while the head is parsed; the worker uses them.

The template lists, in an inert ``<template>``, a prefetch of each file the
worker will ask for; a script in the head moves them into the document when
the address carries a case. The worker's own requests must then be served by
the HTTP cache: each file asked for twice (the prefetch, the worker), sent by
the server once, and nothing said about it in the console. A visit without a
case fetches nothing early.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import urljoin, urlsplit

import pytest
from calcsite.engine import LOCK, SITE_STDLIB
from playwright.sync_api import ConsoleMessage, Page

from tests.support.server import Server

from .expected import page_path
from .test_faults import a_case, engine_urls
from .test_live import ALL_LIVE, BOOT_TIMEOUT_MS

pytestmark = pytest.mark.browser

PREFETCHED = "() => [...document.querySelectorAll('link[rel=prefetch]')].map((link) => link.href)"
LISTED = """() => [...document.getElementById('calc-prefetch').content.children]
  .map((link) => link.href)"""
UNUSED_WAIT_MS = 4000
"""chromium reports a preload left unused "within a few seconds from the window's load event"."""

SINCE_LOAD = """(ms) => {
  const [navigation] = performance.getEntriesByType("navigation");
  return navigation.loadEventEnd > 0 && performance.now() - navigation.loadEventEnd >= ms;
}"""
"""``ms`` have passed since the window's load event (the engine's boot took part of them)."""


def test_a_shared_link_prefetches_what_the_worker_then_finds_in_the_cache(
    page: Page, server: Server
) -> None:
    language, slug = "it", "pipeline-bubble"
    urls = engine_urls(server, language, slug)
    said: list[str] = []
    page.on("console", lambda message: said.append(f"{message.type}: {message.text}"))
    asked: list[str] = []
    page.context.on("request", lambda request: asked.append(request.url))
    server.hits.clear()
    page.goto(a_case(server, language, slug))
    page.wait_for_function(ALL_LIVE, timeout=BOOT_TIMEOUT_MS)
    prefetched = page.evaluate(PREFETCHED)
    page.wait_for_function(SINCE_LOAD, arg=UNUSED_WAIT_MS, polling=100)

    runtime = urljoin(urls["pyodide"], ".")
    engine = urljoin(urls["wheel"], ".")
    assert set(prefetched) == {
        urls["worker"],
        *(runtime + name for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")),
        *(engine + name for name in (SITE_STDLIB, LOCK)),
        urls["wheel"],
    }
    paths = {urlsplit(url).path for url in prefetched}
    requested = Counter(urlsplit(url).path for url in asked if urlsplit(url).path in paths)
    sent = Counter(hit.path for hit in server.hits if hit.path in paths)
    assert requested == dict.fromkeys(paths, 2), "each by the prefetch, then by the worker"
    assert sent == dict.fromkeys(paths, 1), "the worker's requests never reached the server"
    assert said == []


def test_a_visit_without_a_case_fetches_nothing_early(page: Page, server: Server) -> None:
    said: list[str] = []

    def hear(message: ConsoleMessage) -> None:  # Playwright needs a function it can tag
        said.append(f"{message.type}: {message.text}")

    page.on("console", hear)
    page.goto(server.url(page_path("fr", "data-parallel-scaling")) + "?utm_source=wiki")
    assert page.evaluate(PREFETCHED) == []
    assert len(page.evaluate(LISTED)) == 7, "the list stays in its template"
    assert said == []
