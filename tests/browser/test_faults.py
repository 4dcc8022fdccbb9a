"""Engine faults: whatever breaks, the page ends on its labelled example and stays usable.

Each test breaks one thing between the page and its engine with Playwright's
routing: the core's wheel arrives garbled, the WebAssembly binary comes with
the wrong MIME type, the network goes away once the page has loaded, the worker
never says a word, or says it is ready and then never replies. Each must end,
within a bounded time, in the failure notice with the pre-rendered example
restored (read-only), and the page must still scroll and follow its links, with
no error logged but those the fault itself causes.

The page's clock stands still until a test moves it (``stop_the_clock``): a fault
the engine reports must end the boot while the page's deadline cannot, and a
deadline is reached by moving the clock, not by waiting for it, so that neither
depends on how loaded the machine is.

(``test_live.py`` covers the others: a blocked ``.wasm`` and missing files.)
Each fault runs in one language; the languages take turns.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from urllib.parse import urljoin
from urllib.request import urlopen

import pytest
from playwright.sync_api import Page, Route

from tests.support.server import Server
from tests.support.site import ROOT

from .conftest import Recorder
from .expected import page_path, static_forms, ui
from .helpers import FAILED, stop_the_clock
from .test_live import assert_example_restored, selector, snapshot

pytestmark = pytest.mark.browser

SCRIPT = (ROOT / "overrides" / "assets" / "javascripts" / "calculator.mjs").read_text(
    encoding="utf-8"
)


def _constant(name: str) -> int:
    found = re.search(rf"\bconst {name} = (\d+);", SCRIPT)
    assert found, f"{name} is no longer a constant of calculator.mjs"
    return int(found.group(1))


BOOT_TIMEOUT_MS = _constant("BOOT_TIMEOUT_MS")
"""The page script's deadline for the engine to say it is ready."""
REPLY_TIMEOUT_MS = _constant("REPLY_TIMEOUT_MS")
"""The page script's deadline for a reply to a request."""
DETECTED_S = 60
"""A fault the engine reports (it fails fast) ends in the failed state, the page's clock
standing still, within this time: Pyodide's boot comes first, seconds long, longer on
a loaded machine."""

MIME_REFUSED = "Incorrect response MIME type"
"""How chromium refuses to compile a WebAssembly binary served as another type (Pyodide
logs it as a warning, then waits for ever)."""
FAILED_TO_LOAD = r"Failed to load resource: net::ERR_(FAILED|INTERNET_DISCONNECTED)"
"""How chromium logs a request that a route aborted."""
SEARCH_OFFLINE = r"Failed to execute 'importScripts' .*/assets/javascripts/lunr/"
"""The theme's search worker loads its language files after the page's load: with the
network gone, it cannot (the theme's fault to live with, not the engine's)."""

NEVER_POSTS = "// A worker that loads and then never says a word.\nexport {};\n"
LISTEN_TO_THE_WORKER = """(() => {
  // What the page hears from its worker, heard first: the page's own listener is added
  // after this one, in the same dispatch, so by the time this is read it has run too.
  const Native = window.Worker;
  window.__engineSaid = [];
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      // The engine's worker only, not the theme's search worker.
      const meta = document.querySelector('meta[name="calc:worker"]');
      const engine = meta && new URL(meta.content, document.baseURI).href;
      if (engine && String(args[0]).startsWith(engine)) {
        this.addEventListener("message", (event) => window.__engineSaid.push(event.data?.type));
      }
    }
  };
})()"""
READY_THEN_SILENT = (
    "// Says it is ready, then never replies to a request.\n"
    'self.postMessage({ type: "ready", seconds: 0 });\n'
)


def engine_urls(server: Server, language: str, slug: str) -> dict[str, str]:
    """The engine's files named in the page's head (worker, Pyodide module, wheel)."""
    url = server.url(page_path(language, slug))
    with urlopen(url) as response:
        html = response.read().decode("utf-8")
    metas = dict(re.findall(r'<meta name="calc:(worker|pyodide|wheel)" content="([^"]+)"', html))
    assert set(metas) == {"worker", "pyodide", "wheel"}, metas
    return {name: urljoin(url, content) for name, content in metas.items()}


def a_case(server: Server, language: str, slug: str) -> str:
    """A shared link: the page's URL with one value other than the example's."""
    form = static_forms(server.url(page_path(language, slug)))[0]
    first = next(iter(form.inputs))
    return f"{server.url(page_path(language, slug))}?{first}={form.inputs[first]}1"


def wait_failed(page: Page, within_s: float) -> None:
    """Wait until every form has failed; fail unless it did within ``within_s``."""
    page.wait_for_function(FAILED, timeout=within_s * 1000)


def assert_failed_cleanly(page: Page, server: Server, language: str, slug: str) -> None:
    """The failure notice, visible, over the pre-rendered example of every form."""
    forms = static_forms(server.url(page_path(language, slug)))
    assert_example_restored(page, forms, language)
    for form in forms:
        status = page.locator(f"{selector(form)} [data-status]")
        assert status.is_visible()
        assert status.text_content() == ui("failed", language)
        assert snapshot(page, form)["state"] == "failed"


SCROLLED = "() => window.scrollY > 0"
AT_ANCHOR = """(hash) => location.hash === hash
  && Math.abs(document.getElementById(decodeURIComponent(hash.slice(1)))
       .getBoundingClientRect().top) < window.innerHeight / 2"""


def assert_usable(page: Page, server: Server, language: str, *, online: bool = True) -> None:
    """The page scrolls and follows its links (and another page opens, when online).

    Its clock, stopped by the test, runs again first: a reader's time flows.
    """
    page.clock.resume()
    page.evaluate("window.scrollTo(0, 0)")
    page.mouse.move(400, 400)
    page.mouse.wheel(0, 900)
    page.wait_for_function(SCROLLED)
    # A link of the table of contents, in the page.
    toc = page.locator('.md-sidebar--secondary a.md-nav__link[href^="#"]').last
    href = toc.get_attribute("href")
    assert href
    toc.click()
    page.wait_for_function(AT_ANCHOR, arg=href)
    if online:
        # The logo leads home, a page without a calculator: it loads and is quiet.
        page.locator("a.md-header__button.md-logo").click()
        page.wait_for_url(server.url(page_path(language, "")))
        page.wait_for_load_state("load")
        assert page.locator("h1").first.is_visible()


def assert_only_errors(recorder: Recorder, *patterns: str) -> None:
    """Every error logged matches one of the patterns: those the fault causes."""
    unexpected = [
        error
        for error in recorder.errors
        if not any(re.search(pattern, error) for pattern in patterns)
    ]
    assert unexpected == [], "\n".join(unexpected)


# --------------------------------------------------------------- faults the engine reports


def test_a_garbled_wheel_fails_fast_to_the_example(
    page: Page, server: Server, recorder: Recorder
) -> None:
    """The core's wheel arrives with its bytes garbled: the worker cannot unpack it."""
    recorder.expect_errors = True
    language, slug = "fr", "pipeline-bubble"
    wheel = engine_urls(server, language, slug)["wheel"]

    def garble(route: Route) -> None:
        body = bytearray(gzip.decompress(route.fetch().body()))
        assert body[:2] == b"PK", "the wheel is a zip archive, sent as one gzip stream"
        for index in range(len(body) // 4, len(body)):
            body[index] ^= 0x5A
        sent = gzip.compress(bytes(body), mtime=0)
        route.fulfill(status=200, body=sent, content_type="application/gzip")

    page.route(wheel, garble)
    stop_the_clock(page)
    with page.expect_response(wheel):
        page.goto(a_case(server, language, slug))
    wait_failed(page, DETECTED_S)
    assert_failed_cleanly(page, server, language, slug)
    assert_usable(page, server, language)
    assert_only_errors(recorder)


def test_a_network_cut_after_load_fails_fast_when_a_field_is_focused(
    page: Page, server: Server, recorder: Recorder
) -> None:
    """The page loaded, then the network went.

    Focusing a field starts an engine that cannot download anything.
    """
    recorder.expect_errors = True
    language, slug = "en", "data-parallel-scaling"
    urls = engine_urls(server, language, slug)
    runtime = urljoin(urls["pyodide"], ".")
    # The engine may also start on its own once the page is idle, a moment after
    # "load": whatever it asks for before the cut waits, and is cut with the rest.
    cut = NetworkCut(
        page,
        hold=lambda url: url.startswith((urls["worker"], runtime)) or url == urls["wheel"],
    )
    stop_the_clock(page)
    page.goto(server.url(page_path(language, slug)))  # returns at "load"
    cut.now()
    form = static_forms(server.url(page_path(language, slug)))[0]
    page.locator(f"{selector(form)} input").first.focus()
    wait_failed(page, DETECTED_S)
    assert cut.aborted, "the engine never asked the network for anything"
    assert_failed_cleanly(page, server, language, slug)
    assert_usable(page, server, language, online=False)
    assert_only_errors(recorder, FAILED_TO_LOAD, SEARCH_OFFLINE)


def test_a_network_cut_after_load_fails_fast_for_a_shared_link(
    page: Page, server: Server, recorder: Recorder
) -> None:
    """A shared link starts the engine before the page has loaded.

    Its runtime and wheel were still on their way when the network went.
    """
    recorder.expect_errors = True
    language, slug = "fr", "effective-batch-size"
    urls = engine_urls(server, language, slug)
    runtime = urljoin(urls["pyodide"], ".")
    cut = NetworkCut(page, hold=lambda url: url.startswith(runtime) or url == urls["wheel"])
    stop_the_clock(page)
    page.goto(a_case(server, language, slug))
    cut.now()
    wait_failed(page, DETECTED_S)
    assert [url for url in cut.aborted if url.startswith(runtime) or url == urls["wheel"]]
    assert_failed_cleanly(page, server, language, slug)
    assert_usable(page, server, language, online=False)
    assert_only_errors(recorder, FAILED_TO_LOAD, SEARCH_OFFLINE)


class NetworkCut:
    """Every request of the page (and its worker) goes through, until :meth:`now`.

    ``hold`` names requests kept waiting until then (a slow network), which
    the cut then aborts with the rest.
    """

    def __init__(self, page: Page, hold: Callable[[str], bool]) -> None:
        self.hold = hold
        self.cut = False
        self.held: list[Route] = []
        self.aborted: list[str] = []
        page.route("**/*", self.handle)

    def handle(self, route: Route) -> None:
        """Route a request: aborted once cut, held if ``hold`` names it, else let through."""
        if self.cut:
            self.abort(route)
        elif self.hold(route.request.url):
            self.held.append(route)
        else:
            route.continue_()

    def abort(self, route: Route) -> None:
        """Fail a request as a lost connection does, and record its URL."""
        self.aborted.append(route.request.url)
        route.abort("internetdisconnected")

    def now(self) -> None:
        """Cut the network: the held requests and every later one are aborted."""
        self.cut = True
        for route in self.held:
            self.abort(route)
        self.held.clear()


# --------------------------------------------------------------- faults only a timer ends


def test_a_wasm_with_the_wrong_mime_type_ends_at_the_boot_timeout(
    page: Page, server: Server, recorder: Recorder
) -> None:
    """Served as application/octet-stream, the WebAssembly binary leaves Pyodide hanging.

    Pyodide reports no error once chromium refused the binary: the form is still
    loading just before the page's boot deadline, failed just after it (on the
    page's clock, moved once the binary was refused).
    """
    recorder.expect_errors = True
    language, slug = "it", "effective-batch-size"
    served: list[str] = []

    def wrong_type(route: Route) -> None:
        body = route.fetch().body()
        served.append(route.request.url)
        route.fulfill(status=200, body=body, content_type="application/octet-stream")

    page.route("**/*.wasm", wrong_type)
    stop_the_clock(page)
    with page.expect_console_message(
        lambda message: MIME_REFUSED in message.text, timeout=DETECTED_S * 1000
    ):
        page.goto(a_case(server, language, slug))
    assert served, "the WebAssembly binary was never requested"
    form = static_forms(server.url(page_path(language, slug)))[0]
    page.clock.run_for(BOOT_TIMEOUT_MS - 1000)
    shown = snapshot(page, form)
    assert shown["state"] == "loading", shown
    assert shown["busy"]
    page.clock.run_for(2000)
    page.wait_for_function(FAILED, timeout=5000)
    assert_failed_cleanly(page, server, language, slug)
    assert_usable(page, server, language)
    # chromium says why streaming compilation refused the binary; nothing else.
    assert_only_errors(recorder, r"MIME type|wasm streaming compile failed")


SILENT_WORKERS = {
    # What the worker does: its script, where it runs, and the deadline that ends it.
    "never-posts": (NEVER_POSTS, "it", "pipeline-bubble", BOOT_TIMEOUT_MS),
    "never-replies": (READY_THEN_SILENT, "en", "effective-batch-size", REPLY_TIMEOUT_MS),
}


@pytest.mark.parametrize("silent", SILENT_WORKERS)
def test_a_worker_that_never_answers_ends_at_its_deadline(
    page: Page, server: Server, recorder: Recorder, silent: str
) -> None:
    """A worker that never posts (boot deadline) or never replies (reply deadline).

    The form is still loading just before the deadline, failed just after it (on
    the page's clock).
    """
    worker, language, slug, deadline = SILENT_WORKERS[silent]
    recorder.expect_errors = True
    worker_url = engine_urls(server, language, slug)["worker"]
    page.route(
        f"{worker_url}*",
        lambda route: route.fulfill(status=200, body=worker, content_type="text/javascript"),
    )
    page.add_init_script(LISTEN_TO_THE_WORKER)
    stop_the_clock(page)
    with page.expect_request(lambda request: request.url.startswith(worker_url)):
        page.goto(a_case(server, language, slug))
    form = static_forms(server.url(page_path(language, slug)))[0]
    page.wait_for_function("(s) => document.querySelector(s).dataset.state", arg=selector(form))
    if worker is READY_THEN_SILENT:
        # The page heard "ready" and sent its requests: the reply deadline runs from there.
        page.wait_for_function("() => window.__engineSaid.includes('ready')")
    page.clock.run_for(deadline - 1000)
    assert page.evaluate("window.__engineSaid") == ([] if worker is NEVER_POSTS else ["ready"])
    shown = snapshot(page, form)
    assert shown["state"] in {"loading", "ready"}, shown
    assert shown["busy"]
    page.clock.run_for(2000)
    page.wait_for_function(FAILED, timeout=5000)
    assert_failed_cleanly(page, server, language, slug)
    assert_usable(page, server, language)
    assert_only_errors(recorder)
