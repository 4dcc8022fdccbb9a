"""The browser tests' own waits end: on what is shown, and with a named failure otherwise."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error, Page

from .helpers import SETTLE, settle

pytestmark = pytest.mark.browser

CHANGING = """
<style>
  .fading { transition: color 30s linear; color: rgb(0, 0, 0); }
  .fading.changed { color: rgb(255, 255, 255); }
</style>
<details><summary>Closed</summary><p class="fading" id="hidden">inside</p></details>
<p class="fading" id="shown">outside</p>
"""
"""Text whose colour takes 30 s to change: in a closed ``<details>`` and on the page."""

CHANGE = """(id) => {
  const element = document.getElementById(id);
  getComputedStyle(element).color;  // the style a transition starts from, as axe reads it
  element.classList.add("changed");
  getComputedStyle(element).color;
}"""


def test_settling_ends_while_a_closed_details_holds_a_transition(page: Page) -> None:
    """Chromium never ticks what a closed ``<details>`` hides: settle must not wait for it."""
    page.set_content(CHANGING)
    page.evaluate(CHANGE, "hidden")
    running = page.evaluate("() => document.getAnimations().map((a) => a.playState)")
    assert running == ["running"]  # the case itself: a transition that is there, and hidden
    settle(page)


def test_settling_names_a_shown_transition_that_outlasts_its_limit(page: Page) -> None:
    page.set_content(CHANGING)
    page.evaluate(CHANGE, "shown")
    with pytest.raises(Error, match=r"still running after 200 ms: color on p\.fading changed"):
        page.evaluate(SETTLE, 200)
