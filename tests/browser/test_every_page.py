"""Every page of each language's tree, visited once: used under its policy, audited by axe.

One walk per language loads each page of the built site (and opens its search)
and, on that one load, proves three things, each its own test:

- **Accessibility** (``test_no_page_has_an_axe_violation``): axe-core, the pinned
  npm copy, with its default rules, finds nothing at a laptop's width and a
  phone's, in the light and the dark scheme, once the engine is live; its
  calculators again with every form in its error state and every part shown,
  the rest of the page proved unchanged (then the forms' contrast in their
  loading and failed states, and a focus ring); and in the search, open, with
  results.
  axe is evaluated from the test (``page.evaluate``), not added as an inline
  ``<script>``, which the policy refuses.
- **A phone's width** (``test_no_page_scrolls_sideways_on_a_phone``): at 390 px,
  with the language menu open, nothing reaches past the screen's right edge
  (without scripts: tests/browser/test_layout.py).
- **The Content-Security-Policy** (``test_every_page_works_under_its_policy``):
  the page's own meta element, never bypassed, refuses nothing while the page
  is used: the calculators go live, recompute what is typed and copy their link,
  then search finds, the palette toggles, a code block's copy button copies and
  a glossary tooltip opens. An init script records ``securitypolicyviolation``
  in every document, and every console message is read for a CSP complaint.

Booting the engine is most of what a visit costs: one load serves both checks.
A language's tests share one pytest-xdist group, so its walk is made once,
by the worker that runs them, one page after another in that worker's chromium:
pytest-xdist already keeps both cores busy, and a chromium of the walk's own per
core made them fight (the whole suite, side by side in one checkout: 919 s and
1,818 CPU-s with two per walk, 836 s and 1,649 with one).
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.support.server import Server

from .conftest import Recorder, _check
from .expected import LANGUAGES
from .test_axe import AXE, audit_search, every_layout, in_error
from .test_csp import (
    VIOLATIONS,
    built_pages,
    open_page,
    use_calculators,
    use_the_chrome,
    watched,
)
from .test_layout import LAPTOP, sideways

pytestmark = pytest.mark.browser

SEARCH = None
"""The task that audits a language's search, open, with results (instead of a page)."""

BY_LANGUAGE = [
    pytest.param(language, marks=pytest.mark.xdist_group(f"walk-{language}"))
    for language in LANGUAGES
]
"""Each language in the group of its walk: its tests run in the worker that made it."""


@dataclass
class Walk:
    """What visiting one language's pages found, and what its browser contexts saw."""

    violations: list[str] = field(default_factory=list)
    """What axe found, where."""
    refused: list[str] = field(default_factory=list)
    """What a page's policy refused, where, and each console complaint about a policy."""
    overflows: list[str] = field(default_factory=list)
    """Where a page scrolled sideways on a phone, and by how much."""
    recorder: Recorder = field(default_factory=Recorder)
    failures: list[str] = field(default_factory=list)
    """A task that raised (a page that never booted, say): its page and the error."""


def visit(page: Page, url: str, where: str, language: str, walk: Walk) -> None:
    """Audit a page live, use its calculators, audit it in error, use its chrome, then narrow it."""
    open_page(page, url)
    page.evaluate(AXE)
    walk.violations += every_layout(page, where)
    if page.locator("form.calc").count():
        use_calculators(page, url, language)
        walk.violations += in_error(page, where)
    use_the_chrome(page)
    walk.refused += [f"{where}: {text}" for text in page.evaluate(VIOLATIONS)]
    walk.overflows += sideways(page, where)


def walk_one(
    browser: Browser, server: Server, language: str, address: str | None, walk: Walk
) -> None:
    """Visit ``address`` (or the search) in a context of its own, into ``walk``.

    Each visit has a context of its own, watched by its language's recorder: the
    palette toggle stores the reader's choice, which the next page must not inherit.
    """
    context = watched(browser, walk.recorder, walk.refused, server.origin)
    page = context.new_page()
    page.set_viewport_size(LAPTOP)
    try:
        if address is SEARCH:
            walk.violations += audit_search(page, server.url(LANGUAGES[language]))
            walk.refused += [f"search: {t}" for t in page.evaluate(VIOLATIONS)]
        else:
            visit(page, server.url(address), address or "home", language, walk)
    except Exception as error:
        walk.failures.append(f"{address}: {error} ({_where(error)})")
    finally:
        context.close()


def _where(error: Exception) -> str:
    """The last line of the tests that ``error`` went through: the step that failed."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/tests/" in f.filename]
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"


@pytest.fixture(scope="module")
def walked(site: Path, server: Server, browser: Browser) -> Callable[[str], Walk]:
    """A language's pages and search, visited once, in the session's chromium."""

    @functools.cache
    def walk(language: str) -> Walk:
        found = Walk()
        for address in [*built_pages(site, language), SEARCH]:
            walk_one(browser, server, language, address, found)
        return found

    return walk


def walked_cleanly(walked: Callable[[str], Walk], server: Server, language: str) -> Walk:
    """``language``'s walk, once every page was visited and nothing foreign or logged."""
    walk = walked(language)
    assert walk.failures == [], "\n".join(walk.failures)
    _check(walk.recorder, server.origin)
    return walk


@pytest.mark.parametrize("language", BY_LANGUAGE)
def test_no_page_has_an_axe_violation(
    walked: Callable[[str], Walk], server: Server, language: str
) -> None:
    walk = walked_cleanly(walked, server, language)
    assert walk.violations == [], "\n".join(walk.violations)


@pytest.mark.parametrize("language", BY_LANGUAGE)
def test_every_page_works_under_its_policy(
    walked: Callable[[str], Walk], server: Server, language: str
) -> None:
    walk = walked_cleanly(walked, server, language)
    assert walk.refused == [], "\n".join(walk.refused)


@pytest.mark.parametrize("language", BY_LANGUAGE)
def test_no_page_scrolls_sideways_on_a_phone(
    walked: Callable[[str], Walk], server: Server, language: str
) -> None:
    walk = walked_cleanly(walked, server, language)
    assert walk.overflows == [], "\n".join(walk.overflows)
