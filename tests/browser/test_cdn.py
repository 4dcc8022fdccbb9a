"""``PYODIDE_CDN``: the site built to load Pyodide from another origin, as from jsDelivr.

No network is needed: a second local server plays the CDN (the ``cdn`` and
``cdn_site`` fixtures of tests/conftest.py, shared with the site tests), on
another port (so another origin), with the runtime files of the npm package under
``pyodide/v{version}/full/`` as jsDelivr lays them out, and with
``Access-Control-Allow-Origin: *`` as a CDN (and GitHub Pages) sends it.

Only the runtime comes from the CDN: the standard library and the package
index are the site's own (Pyodide takes their URLs apart from the runtime's),
as is the core's wheel.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from calcsite.engine import LOCK, PAGE_RUNTIME, SITE_STDLIB, pyodide_version
from playwright.sync_api import Browser

from tests.support.server import Server
from tests.support.site import CDN_TEMPLATE, ROOT

from .conftest import Recorder, _context
from .expected import NEW_VALUES, field_text, page_path, static_forms
from .test_live import assert_shows, go_live, link_query, snapshot

PACKAGE = ROOT / "node_modules" / "pyodide"
VERSION = pyodide_version(PACKAGE)
TEMPLATE = CDN_TEMPLATE


def test_a_cdn_build_carries_no_runtime_and_points_at_the_cdn(cdn_site: Path, cdn: Server) -> None:
    assert not (cdn_site / "assets" / "pyodide").exists()
    html = (cdn_site / "data-parallel-scaling" / "index.html").read_text(encoding="utf-8")
    runtime = cdn.url(TEMPLATE.format(version=VERSION) + "pyodide.mjs")
    assert f'<meta name="calc:pyodide" content="{runtime}">' in html
    # The core's wheel, the standard library and the package index are the site's own.
    (folder,) = (cdn_site / "assets" / "engine").iterdir()
    assert sorted("".join(path.suffixes[-2:]) for path in folder.iterdir()) == [
        ".json",
        ".whl.gz",
        ".zip.gz",
    ]


def test_the_engine_boots_from_the_cdn_and_computes_a_shared_link(
    browser: Browser, cdn_site_server: Server, cdn: Server, recorder: Recorder
) -> None:
    context = _context(browser, recorder)
    cdn.hits.clear()
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
    assert from_cdn == set(PAGE_RUNTIME)
    # A shared link prefetches them from the page, and the worker finds them in the HTTP
    # cache: asked for twice, sent once (a prefetch of another origin's file is no less
    # usable than one of the page's own).
    asked = Counter(urlsplit(url).path for url in recorder.requests if url.startswith(cdn.origin))
    sent = Counter(hit.path for hit in cdn.hits)
    assert asked == dict.fromkeys(sent, 2), (asked, sent)
    assert sent == dict.fromkeys(asked, 1)
    site_files = {
        urlsplit(url).path.rsplit("/", 1)[-1]
        for url in recorder.requests
        if url.startswith(cdn_site_server.origin) and "/assets/engine/" in url
    }
    assert {SITE_STDLIB, LOCK} < site_files
    assert any(name.endswith(".whl.gz") for name in site_files)
    assert not any("/assets/pyodide/" in url for url in recorder.requests)
