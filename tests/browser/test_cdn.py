"""``PYODIDE_CDN``: the site built to load Pyodide from another origin, as from jsDelivr.

No network is needed: a second local server plays the CDN, on another port
(so another origin), with the runtime files of the npm package under
``pyodide/v{version}/full/`` as jsDelivr lays them out, and with
``Access-Control-Allow-Origin: *`` as a CDN (and GitHub Pages) sends it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from calcsite.engine import RUNTIME_FILES, copy_runtime, pyodide_version
from playwright.sync_api import Browser

from tests.support.server import Server, start

from .conftest import ROOT, Recorder, _context, build_site
from .expected import field_text, page_path, static_forms
from .test_live import NEW_VALUES, assert_shows, go_live, link_query, snapshot

PACKAGE = ROOT / "node_modules" / "pyodide"
VERSION = pyodide_version(PACKAGE)
TEMPLATE = "pyodide/v{version}/full/"


@pytest.fixture(scope="module")
def cdn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Another origin that serves the runtime where the template says."""
    folder = tmp_path_factory.mktemp("cdn")
    copy_runtime(PACKAGE, folder / TEMPLATE.format(version=VERSION))
    running = start(folder)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def cdn_site(tmp_path_factory: pytest.TempPathFactory, cdn: Server) -> Path:
    return build_site(tmp_path_factory.mktemp("cdn-site"), PYODIDE_CDN=cdn.url(TEMPLATE))


@pytest.fixture(scope="module")
def cdn_site_server(cdn_site: Path) -> Iterator[Server]:
    running = start(cdn_site)
    yield running
    running.stop()


def test_a_cdn_build_carries_no_runtime_and_points_at_the_cdn(cdn_site: Path, cdn: Server) -> None:
    assert not (cdn_site / "assets" / "pyodide").exists()
    html = (cdn_site / "data-parallel-scaling" / "index.html").read_text(encoding="utf-8")
    runtime = cdn.url(TEMPLATE.format(version=VERSION) + "pyodide.mjs")
    assert f'<meta name="calc:pyodide" content="{runtime}">' in html
    # The core's wheel is the site's own either way.
    assert list((cdn_site / "assets" / "engine").glob("*/*.whl"))


def test_the_engine_boots_from_the_cdn_and_computes_a_shared_link(
    browser: Browser, cdn_site_server: Server, cdn: Server, recorder: Recorder
) -> None:
    context = _context(browser, recorder)
    try:
        page = context.new_page()
        url = cdn_site_server.url(page_path("fr", "data-parallel-scaling"))
        target = static_forms(url)[0]
        raw = {**target.inputs, **NEW_VALUES[(target.slug, target.mode)]}
        query = link_query(target, raw, "fr")
        go_live(page, f"{url}?{urlencode(query)}")
        shown_raw = {name: field_text(value, "fr") for name, value in query.items()}
        assert_shows(snapshot(page, target), target, shown_raw, "fr")
    finally:
        context.close()

    assert recorder.errors == []
    origins = {
        f"{parts.scheme}://{parts.netloc}"
        for parts in map(urlsplit, recorder.requests)
        if parts.scheme in ("http", "https")
    }
    assert origins == {cdn_site_server.origin, cdn.origin}
    from_cdn = {
        urlsplit(url).path.rsplit("/", 1)[-1]
        for url in recorder.requests
        if url.startswith(cdn.origin)
    }
    assert from_cdn == set(RUNTIME_FILES)
    site_files = [url for url in recorder.requests if url.startswith(cdn_site_server.origin)]
    assert any(url.endswith(".whl") for url in site_files)
    assert not any("/assets/pyodide/" in url for url in site_files)
