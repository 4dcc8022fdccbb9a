"""Time to the first live result, cold and warm, and recompute latency, in chromium.

A script injected before any of the page's own (Playwright's init script)
watches the DOM with a ``MutationObserver`` and stores ``performance.now()``
(milliseconds since navigation start) the moment the page shows the expected
texts in a ready state: for a calculator, its form in ``data-state=ready`` with
the outputs the core gives for the link's inputs; for the floor, ``2``. The
engine's worker marks its own milestones (``calc:*``: Pyodide imported,
compiled, Python started, the core imported), read from it with the end of its
last download and put on the page's clock: where the time went.

Cold: a new chromium profile for each run. Warm: one profile, primed by a
visit, then reopened in a new browser process for each run, so that only the
disk cache and the code cache carry over.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Playwright

from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.server import Server

from .pages import Step

TIMEOUT_MS = 90_000

_WATCH = """(() => {
  // When the page created its first worker (the engine's, on either page).
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(...args) {
      super(...args);
      window.__benchWorker ??= performance.now();
    }
  };
  const want = %s;
  const live = () => {
    const root = document.querySelector(want.ready);
    if (!root) return false;
    const texts = [...root.querySelectorAll(want.outputs)].map((o) => o.textContent);
    return texts.length === want.texts.length && texts.every((t, i) => t === want.texts[i]);
  };
  const observer = new MutationObserver(() => {
    if (window.__benchLive === undefined && live()) {
      window.__benchLive = performance.now();
      observer.disconnect();
    }
  });
  const all = { subtree: true, childList: true, attributes: true, characterData: true };
  observer.observe(document, all);
})();"""

_METRICS = """() => ({
  live: window.__benchLive,
  fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
  origin: performance.timeOrigin,
  worker: window.__benchWorker,
})"""

_MILESTONES = """() => ({
  origin: performance.timeOrigin,
  marks: Object.fromEntries(performance.getEntriesByType("mark").map((m) => [m.name, m.startTime])),
  downloaded: Math.max(0, ...performance.getEntriesByType("resource").map((r) => r.responseEnd)),
})"""
TIMELINE = ("worker", "downloaded", "compiled", "started", "core", "live")
"""A visit's milestones, in order: the page created the worker, which downloaded the
engine, compiled Pyodide's WebAssembly, started Python, imported the core; then the
first live result. The floor has no core."""

_POSTED = """(() => {
  // When the page last posted to a worker: splits a recompute into the wait
  // before the request leaves the page and the round trip to the engine.
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (...args) {
    window.__benchPosted = performance.now();
    return post.apply(this, args);
  };
})();"""

_RECOMPUTE = """async ({ selector, name, steps }) => {
  const form = document.querySelector(selector);
  const input = form.querySelector(`input[name="${name}"]`);
  const outputs = [...form.querySelectorAll("output[data-output]")];
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const latencies = [];
  for (const [index, step] of steps.entries()) {
    latencies.push(await new Promise((resolve, reject) => {
      let start = 0;
      const timer = setTimeout(() => {
        observer.disconnect();
        const shown = outputs.map((o) => o.textContent);
        reject(new Error(`no update for ${name}=${step.value}: ${shown}`));
      }, 5000);
      const observer = new MutationObserver(() => {
        if (outputs.every((o, i) => o.textContent === step.texts[i])) {
          const end = performance.now();
          observer.disconnect();
          clearTimeout(timer);
          const posted = window.__benchPosted >= start ? window.__benchPosted : NaN;
          resolve([end - start, posted - start]);
        }
      });
      observer.observe(form, { subtree: true, childList: true, characterData: true });
      input.value = step.value;
      start = performance.now();
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }));
    // Keystrokes are not back to back: 20 to 69 ms apart, spread over the frame.
    await pause(20 + ((index * 37) % 50));
  }
  return latencies;
}"""


@dataclass(frozen=True)
class Target:
    """A page to time: its URL path with query, and what its live result looks like."""

    name: str
    path: str
    ready: str
    """CSS selector of the element that is ready (``form...[data-state=ready]``)."""
    outputs: str
    """CSS selector, inside ``ready``, of the elements holding the result."""
    texts: tuple[str, ...]
    """Their texts once the live result is shown."""

    def script(self) -> str:
        """The watching script to inject before the page's own."""
        want = {"ready": self.ready, "outputs": self.outputs, "texts": list(self.texts)}
        return _WATCH % json.dumps(want)


@dataclass
class Run:
    """One timed visit."""

    live_ms: float
    fcp_ms: float | None
    timeline: dict[str, float] = field(default_factory=dict)
    """Milliseconds since navigation start of each milestone of ``TIMELINE`` seen."""
    requests: list[str] = field(default_factory=list)
    """URL paths the server answered during the visit."""
    bytes_sent: int = 0
    """Body bytes the server sent during the visit (0 when all came from the cache)."""


class Timer:
    """Drives Debian's chromium against one server."""

    def __init__(self, playwright: Playwright, server: Server) -> None:
        self.playwright = playwright
        self.server = server

    @contextmanager
    def _profile(self, folder: Path) -> Iterator[BrowserContext]:
        context = self.playwright.chromium.launch_persistent_context(
            str(folder), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context
        finally:
            context.close()

    def visit(self, folder: Path, target: Target) -> Run:
        """Open ``target`` in the profile in ``folder`` and wait for its live result."""
        with self._profile(folder) as context:
            context.add_init_script(target.script())
            page = context.pages[0] if context.pages else context.new_page()
            self.server.hits.clear()
            page.goto(self.server.url(target.path), wait_until="commit")
            page.wait_for_function("() => window.__benchLive !== undefined", polling=50)
            metrics: dict[str, Any] = page.evaluate(_METRICS)
            hits = list(self.server.hits)
            timeline = {"worker": metrics["worker"], "live": metrics["live"]}
            for worker in page.workers:  # the engine's: the one that marks its milestones
                found: dict[str, Any] = worker.evaluate(_MILESTONES)
                marks = {k.removeprefix("calc:"): v for k, v in found["marks"].items()}
                if "started" in marks:
                    marks["downloaded"] = found["downloaded"]
                    shift = found["origin"] - metrics["origin"]
                    timeline |= {k: v + shift for k, v in marks.items() if k in TIMELINE}
        return Run(
            live_ms=metrics["live"],
            fcp_ms=metrics["fcp"],
            timeline={k: timeline[k] for k in TIMELINE if timeline.get(k) is not None},
            requests=[hit.path for hit in hits],
            bytes_sent=sum(hit.sent for hit in hits),
        )

    def cold(self, target: Target) -> Run:
        """One visit in a new profile."""
        with tempfile.TemporaryDirectory(prefix="bench-cold-") as folder:
            return self.visit(Path(folder), target)

    def primed(self, target: Target) -> Path:
        """A new profile that has visited ``target`` once; the caller removes it."""
        folder = Path(tempfile.mkdtemp(prefix="bench-warm-"))
        self.visit(folder, target)
        return folder

    def recompute(
        self, path: str, selector: str, name: str, steps: list[Step]
    ) -> list[tuple[float, float]]:
        """Time each step in a page whose engine is ready, in milliseconds.

        For each step: from its ``input`` event to the outputs showing its results,
        and to the request leaving the page for the worker (NaN if none was seen).
        """
        with (
            tempfile.TemporaryDirectory(prefix="bench-recompute-") as folder,
            self._profile(Path(folder)) as context,
        ):
            context.add_init_script(_POSTED)
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(self.server.url(path))
            page.wait_for_selector(f'{selector}[data-state="ready"]', state="attached")
            latencies: list[tuple[float, float]] = page.evaluate(
                _RECOMPUTE,
                {
                    "selector": selector,
                    "name": name,
                    "steps": [{"value": s.value, "texts": list(s.texts)} for s in steps],
                },
            )
        return latencies
