"""What a new reader meets in the first minutes: language links, no script, a local fault."""

from __future__ import annotations

import gzip
import io
import zipfile
from urllib.parse import urlencode, urlsplit

import pytest
from calcsite.engine import mark_names_utf8
from calcsite.gzipped import gzipped
from playwright.sync_api import Page, Route

from tests.support.server import Server

from .conftest import Recorder
from .expected import (
    LANGUAGES,
    NEW_VALUES,
    field_text,
    page_path,
    read,
    static_forms,
    ui,
)
from .test_live import (
    assert_shows,
    go_live,
    link_query,
    query_of,
    selector,
    settle,
    snapshot,
    type_values,
    wait_for_query,
)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language", LANGUAGES)
def test_switching_language_keeps_the_case(page: Page, server: Server, language: str) -> None:
    """The language menu's links follow the inputs; the other page opens the same case."""
    slug = "effective-batch-size"
    forms = static_forms(server.url(page_path(language, slug)))
    form = forms[-1]  # the second mode: the link names it
    values = NEW_VALUES[(form.slug, form.mode)]
    go_live(page, server.url(page_path(language, slug)))
    type_values(page, form, values)
    raw = {**form.inputs, **values}
    assert_shows(settle(page, form), form, raw, language)
    query = link_query(form, raw, language)
    wait_for_query(page, query)
    for other in LANGUAGES:
        link = page.locator(f'a[hreflang="{other}"]').first
        href = link.get_attribute("href") or ""
        assert urlsplit(href).path.endswith(f"/{page_path(other, slug)}")
        assert query_of(href) == query, other
    other = next(code for code in LANGUAGES if code != language)
    go_live(page, page.locator(f'a[hreflang="{other}"]').first.get_attribute("href") or "")
    target = next(
        f for f in static_forms(server.url(page_path(other, slug))) if f.mode == form.mode
    )
    shown = {name: field_text(value, other) for name, value in query.items() if name != "mode"}
    assert_shows(snapshot(page, target), target, shown, other)
    assert read(target.slug, target.mode, shown, other) == read(form.slug, form.mode, raw, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_javascript_a_link_shows_the_example_and_says_why(
    static_page: Page, server: Server, language: str
) -> None:
    slug = "pipeline-bubble"
    form = static_forms(server.url(page_path(language, slug)))[0]
    url = f"{server.url(page_path(language, slug))}?{urlencode({'stages': '7'})}"
    static_page.goto(url)
    shown = snapshot(static_page, form)
    assert shown["inputs"] == form.inputs
    assert shown["outputs"] == form.outputs
    notice = static_page.locator(f"{selector(form)} .calc__noscript")
    assert notice.is_visible()
    assert notice.text_content() == ui("noscript", language)


def _broken_wheel(wheel: bytes) -> bytes:
    """The served wheel, with a bug: the global-batch mode raises for micro_batch 13."""
    source = io.BytesIO(gzip.decompress(wheel))
    target = io.BytesIO()
    module = "calculator/calculators/effective_batch_size.py"
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w") as new:
        for item in old.infolist():
            data = old.read(item)
            if item.filename == module:
                text = data.decode()
                marker = "    dp = _replicas(world_size, tensor_parallel, pipeline_parallel"
                assert marker in text
                text = text.replace(
                    marker,
                    "    if micro_batch == 13:\n        raise ZeroDivisionError\n" + marker,
                    1,
                )
                data = text.encode()
            new.writestr(item, data)
    # As the build serves it: names flagged UTF-8 (no cp437 codec is needed), one gzip stream.
    return gzipped(mark_names_utf8(target.getvalue()))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_fault_in_one_form_stays_in_that_form(
    page: Page, server: Server, recorder: Recorder, language: str
) -> None:
    """An exception in a compute function is the ``internal`` reply: only its form says so."""
    slug = "effective-batch-size"
    forms = static_forms(server.url(page_path(language, slug)))
    broken, other = forms

    def serve(route: Route) -> None:
        # Only the body and its type: the server's Content-Encoding and length
        # describe the original bytes, not these.
        body = _broken_wheel(route.fetch().body())
        route.fulfill(status=200, body=body, content_type="application/gzip")

    page.route("**/*.whl.gz", serve)
    go_live(page, server.url(page_path(language, slug)))
    type_values(page, broken, {"micro_batch": "13"})
    shown = settle(page, broken)
    assert shown["state"] == "invalid"
    assert shown["status"] == ui("internal", language)
    assert shown["inputs"]["micro_batch"] == "13", "what the reader typed stays"
    assert shown["readonly"] == 0
    assert set(shown["outputs"].values()) == {"—"}
    # The other form, on the same engine, still computes.
    values = NEW_VALUES[(other.slug, other.mode)]
    type_values(page, other, values)
    assert_shows(settle(page, other), other, {**other.inputs, **values}, language)
    # And the faulty form recovers as soon as its inputs are fine again.
    type_values(page, broken, {"micro_batch": "12"})
    assert settle(page, broken)["state"] == "ready"
    assert recorder.errors == []
