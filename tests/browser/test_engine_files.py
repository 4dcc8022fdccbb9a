"""The site's own engine files, beside the core's wheel: missing, they fail fast to the example.

The worker boots Pyodide with the site's standard library and package index
(``python_stdlib.zip`` and ``pyodide-lock.json`` in the wheel's folder, see
``calcsite/engine.py``). Without either, Python cannot start (no ``encodings``
module) or Pyodide refuses to finish its boot: the page must not wait for its
30-second boot deadline, but show its labelled example at once.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page

from tests.support.server import Server

from .conftest import Recorder
from .expected import page_path
from .test_live import BOOT_TIMEOUT_MS, FAILED, assert_example_restored, forms_of

pytestmark = pytest.mark.browser

FAST_S = 20
"""Well within the page's 30 s boot deadline, even on a loaded machine."""


@pytest.mark.parametrize("missing", ["python_stdlib.zip", "pyodide-lock.json"])
def test_a_missing_site_engine_file_fails_fast_to_the_example(
    page: Page, server: Server, recorder: Recorder, missing: str
) -> None:
    recorder.expect_errors = True
    language, slug = "fr", "pipeline-bubble"
    forms = forms_of(server, language, slug)
    page.route(f"**/assets/engine/*/{missing}", lambda route: route.fulfill(status=404))
    started = time.monotonic()
    page.goto(server.url(page_path(language, slug)) + "?stages=6")
    page.wait_for_function(FAILED, timeout=BOOT_TIMEOUT_MS)
    assert time.monotonic() - started < FAST_S
    assert_example_restored(page, forms, language)
