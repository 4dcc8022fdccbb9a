"""What several browser tests wait for, written once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from playwright.sync_api import Page

SETTLE_MS = 10_000
"""How long the transitions of one change may take before :func:`settle` gives up."""

SETTLE = """async (limit) => {
  let timer;
  let ending = [];
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const running = ending
        .filter((animation) => !["finished", "idle"].includes(animation.playState))
        .map((animation) => `${animation.transitionProperty ?? animation.animationName} on `
          + `${animation.effect.target.tagName.toLowerCase()}.${
            animation.effect.target.getAttribute("class")}`);
      reject(new Error(`still running after ${limit} ms: ${
        ending.length ? running.join(", ") : "no frame came"}`));
    }, limit);
  });
  const settled = (async () => {
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    // Only what is rendered: chromium skips the content of a closed <details>, so a
    // transition that a change of scheme starts there never ticks, and never ends.
    ending = document.getAnimations().filter((animation) =>
      Number.isFinite(animation.effect?.getComputedTiming().endTime)
      && animation.effect.target?.checkVisibility());
    await Promise.allSettled(ending.map((animation) => animation.finished));
  })();
  try {
    await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}"""
"""Two frames, then the end of every transition they started on what is rendered: what is read
afterwards is as shown, not mid-fade (a colour, a tooltip, an opening menu). Frames that do not
come, or a transition still running, after the argument's milliseconds fail, named, rather than
waiting forever."""


def settle(page: Page) -> None:
    """Wait until the transitions the last change started are over (:data:`SETTLE`)."""
    page.evaluate(SETTLE, SETTLE_MS)


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
