"""Debian's chromium, as the browser tests and the benchmark launch it through Playwright."""

from __future__ import annotations

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "HEADLESS_SHELL", "TEST_ARGS"]

CHROMIUM = "/usr/bin/chromium"
"""Debian's package ``chromium``, the browser a reader runs: the benchmark times it.

Playwright's own browser download is not used.
"""

HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
"""Debian's package ``chromium-headless-shell``, which the browser tests drive.

The same chromium (one source package, one version), built without the browser
around the page: no window, tab strip or profile services, and no renderer of the
browser's own interface started with each context, as ``--headless`` starts with
the full browser. It is what Playwright itself runs for headless tests
(microsoft/playwright#33566): the page, its layout, V8 and the accessibility tree
are chromium's. Measured here, side by side: six visits that boot the engine and
type five values took 14.5–14.9 CPU-seconds against 23.8–23.9 in the full
browser, and the whole suite 647 s and 1,271 CPU-seconds against 897 s and 1,755,
every test passing in both.
"""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
]
"""Nothing in the background: no updates, sync or network chatter during a test or a timed visit."""

TEST_ARGS = [*CHROMIUM_ARGS, "--js-flags=--liftoff-only"]
"""The tests' flags: V8 compiles WebAssembly once, with its baseline compiler, never again.

The tests boot the engine more than 140 times (the module was fetched 139 times in
one run, more boots found it in a context's cache), and each boot compiles Pyodide's
9.6 MB module; without the optimising tier, a boot costs about a third less
processor time (4.4 → 2.9 CPU-seconds measured here, side by side), and Python
then runs about 15 % slower (60 recomputations of the planner's search: 7.1 →
8.3 CPU-seconds), which no test, untimed, sees. What the page computes is the
same. The benchmark keeps :data:`CHROMIUM_ARGS`: it times what a reader waits for.
"""
