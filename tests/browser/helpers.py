"""What several browser tests wait for, written once."""

from __future__ import annotations

from playwright.sync_api import Page

SETTLE = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const ending = document.getAnimations()
    .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime));
  await Promise.allSettled(ending.map((animation) => animation.finished));
}"""
"""Two frames, then the end of every transition they started: what is read afterwards is
as shown, not mid-fade (a colour, a tooltip, an opening menu)."""


def settle(page: Page) -> None:
    """Wait until the transitions the last change started are over (:data:`SETTLE`)."""
    page.evaluate(SETTLE)
