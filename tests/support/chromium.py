"""Debian's chromium, as the browser tests and the benchmark launch it through Playwright."""

from __future__ import annotations

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]

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
