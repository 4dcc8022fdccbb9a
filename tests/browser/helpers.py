"""What several browser tests wait for, written once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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


FAILED = """() => [...document.querySelectorAll("form.calc")]
  .every((form) => form.dataset.state === "failed")"""
"""Every form of the page gave up on its engine (and shows its example)."""

INSTALLED_AT = datetime(2030, 1, 1, tzinfo=UTC)
"""Where the page's clock starts (:func:`stop_the_clock`), running until it is paused."""
STOPPED_AT = INSTALLED_AT + timedelta(hours=1)
"""Where it then stands still: later than it can have run to, however loaded the machine."""


def stop_the_clock(page: Page) -> None:
    """Stop the page's clock before it loads: none of its timers fires until the test moves it.

    Playwright's clock, installed and paused; the engine's worker keeps real time.
    An engine fault then ends in the failed state while the page's boot deadline
    cannot have ended it, whatever the machine's load: what failed it is the
    engine's own report, which is what failing fast means. A deadline is reached
    with ``page.clock.run_for``, exactly and without waiting for it;
    ``page.clock.resume()`` lets time flow again.
    """
    page.clock.install(time=INSTALLED_AT)
    page.clock.pause_at(STOPPED_AT)
