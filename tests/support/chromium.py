"""Debian's chromium, as the browser tests and the benchmark launch it through Playwright."""

from __future__ import annotations

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "TEST_ARGS"]

CHROMIUM = "/usr/bin/chromium"
"""Debian's package: Playwright's own browser download is not used."""

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
"""The tests' chromium: V8 compiles WebAssembly once, with its baseline compiler, never again.

The tests boot the engine more than 140 times (the module was fetched 139 times in
one run, more boots found it in a context's cache), and each boot compiles Pyodide's
9.6 MB module; without the optimising tier, a boot costs about a third less
processor time (4.4 → 2.9 CPU-seconds measured here, side by side), and Python
then runs about 15 % slower (60 recomputations of the planner's search: 7.1 →
8.3 CPU-seconds), which no test, untimed, sees. What the page computes is the
same. The benchmark keeps :data:`CHROMIUM_ARGS`: it times what a reader waits for.
"""
