"""The site's own engine files, beside the core's wheel: missing, they fail fast to the example.

The worker boots Pyodide with the site's standard library and package index
(``python_stdlib.zip.gz`` and ``pyodide-lock.json`` in the wheel's folder, see
``calcsite/engine.py``). Without either, Python cannot start (no ``encodings``
module) or Pyodide refuses to finish its boot: the page must not wait for its
30-second boot deadline, but show its labelled example at once. The page's clock
stands still meanwhile (``stop_the_clock``): its deadline cannot end the boot, so
only the engine's own report can, however long a loaded machine takes to boot.
"""

from __future__ import annotations

import gzip

import pytest
from calcsite.engine import LOCK, SITE_STDLIB
from playwright.sync_api import Page, Route

from tests.support.server import Server

from .conftest import Recorder
from .expected import StaticForm, page_path
from .helpers import FAILED, stop_the_clock
from .test_live import BOOT_TIMEOUT_MS, assert_example_restored, forms_of, go_live

pytestmark = pytest.mark.browser


def fails_fast_to_the_example(page: Page, url: str, forms: list[StaticForm], language: str) -> None:
    """Open ``url``: its engine fails before the page's deadline could, and the example is back."""
    stop_the_clock(page)
    page.goto(url)
    page.wait_for_function(FAILED, timeout=BOOT_TIMEOUT_MS)
    assert_example_restored(page, forms, language)


@pytest.mark.parametrize("missing", [SITE_STDLIB, LOCK])
def test_a_missing_site_engine_file_fails_fast_to_the_example(
    page: Page, server: Server, recorder: Recorder, missing: str
) -> None:
    recorder.expect_errors = True
    language, slug = "fr", "pipeline-bubble"
    forms = forms_of(server, language, slug)
    page.route(f"**/assets/engine/*/{missing}", lambda route: route.fulfill(status=404))
    url = server.url(page_path(language, slug)) + "?stages=6"
    fails_fast_to_the_example(page, url, forms, language)


@pytest.mark.parametrize("archive", ["*.whl.gz", SITE_STDLIB])
def test_a_damaged_archive_fails_fast_to_the_example(
    page: Page, server: Server, recorder: Recorder, archive: str
) -> None:
    """A gzip stream cut short (a broken proxy, a full disk) is an engine that failed."""
    recorder.expect_errors = True
    language, slug = "it", "effective-batch-size"
    forms = forms_of(server, language, slug)

    def cut(route: Route) -> None:  # Playwright needs a function it can tag
        body = route.fetch().body()
        route.fulfill(status=200, body=body[: len(body) // 2], content_type="application/gzip")

    page.route(f"**/assets/engine/*/{archive}", cut)
    url = server.url(page_path(language, slug)) + "?micro_batch=4"
    fails_fast_to_the_example(page, url, forms, language)


def test_archives_that_arrive_inflated_are_used_as_they_come(page: Page, server: Server) -> None:
    """A server that sends them with ``Content-Encoding: gzip`` has the browser inflate them.

    (Playwright hands a fulfilled body to the page as it is, so the test sends
    the inflated bytes that the browser would have made.)
    """
    sent: list[str] = []

    def inflated(route: Route) -> None:  # Playwright needs a function it can tag
        body = route.fetch().body()
        assert body[:2] == b"\x1f\x8b"
        sent.append(route.request.url.rsplit(".", 2)[-2])
        route.fulfill(status=200, body=gzip.decompress(body), content_type="application/zip")

    page.route("**/assets/engine/*/*.gz", inflated)
    go_live(page, server.url(page_path("fr", "pipeline-bubble")))
    assert sorted(sent) == ["whl", "zip"]
