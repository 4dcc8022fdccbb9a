"""Lighthouse (npm, pinned in package-lock.json) on Debian's chromium, mobile.

Each run is a fresh chromium profile launched by Lighthouse itself, with its
default mobile emulation and simulated throttling: the four category scores,
the metrics behind the performance score, and the audits that cost points.
A score moves by several points between runs on a shared machine, so a page
is run several times and the median run is kept, as Lighthouse advises.

Lighthouse starts chromium through chrome-launcher, whose default flags turn
off chromium's RenderDocument, a workaround for automation bugs that
Puppeteer dropped from Chrome 147 and that the Playwright pinned here does
not apply. A reader's browser keeps it on. ``run(..., render_document=True)``
launches chromium with the same flags less that one, so that the two can be
compared; the benchmark's default is Lighthouse as it ships.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calcsite.performance import CATEGORIES, OBSERVED_FCP

from tests.support.chromium import CHROMIUM

from . import ROOT

CLI = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
# CATEGORIES and OBSERVED_FCP are read back by the Performance page's tables
# (calcsite.performance), which the site's build renders without importing bench.
METRICS: tuple[str, ...] = ("first-contentful-paint", "largest-contentful-paint", "speed-index")
METRICS += ("total-blocking-time", "cumulative-layout-shift", "total-byte-weight")
# A first paint seen later than this was held back by chromium: held ones come at
# about 1.2 s, the others at 0.1 to 0.4 s (Lighthouse's launcher turns off
# RenderDocument, which a reader's browser keeps on; see the Performance page).
HELD_PAINT_MS = 800.0
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
RENDER_DOCUMENT = "RenderDocument"
DISABLE_FEATURES = "--disable-features="
# chrome-launcher adds this one itself on Linux, but not when its defaults are
# ignored; kept so that the two ways of launching differ by RenderDocument only.
LINUX_LAUNCHER_FLAG = "--disable-setuid-sandbox"


@dataclass
class Report:
    """What one Lighthouse run found."""

    url: str
    scores: dict[str, int]
    metrics: dict[str, float] = field(default_factory=dict)
    failing: dict[str, list[str]] = field(default_factory=dict)
    """By category: ``audit-id (display value)`` of every weighted audit under 1."""
    error: str | None = None
    benchmark_index: float | None = None
    """Lighthouse's measure of the host CPU during the run (its mobile preset assumes 1500–2000)."""
    runs: list[int] = field(default_factory=list)
    """Performance scores of every run of the page, in order."""
    paints: list[float | None] = field(default_factory=list)
    """The first paint seen (``OBSERVED_FCP``) in every run of the page, in order."""


def _timings(audits: dict[str, Any]) -> dict[str, Any]:
    """The ``metrics`` audit's timings: of the simulated load, and of the one observed."""
    return dict((audits.get("metrics", {}).get("details", {}).get("items") or [{}])[0])


def read_report(url: str, data: dict[str, Any]) -> Report:
    """Return what matters of one Lighthouse JSON report (``data``) of ``url``."""
    audits = data["audits"]
    scores: dict[str, int] = {}
    failing: dict[str, list[str]] = {}
    for name in CATEGORIES:
        category = data["categories"][name]
        score = category["score"]
        scores[name] = -1 if score is None else round(score * 100)
        for ref in category["auditRefs"]:
            audit = audits[ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                shown = audit.get("displayValue") or f"score {audit['score']:.2f}"
                failing.setdefault(name, []).append(f"{ref['id']} ({shown})")
    metrics = {
        key: float(audits[key]["numericValue"])
        for key in METRICS
        if audits.get(key, {}).get("numericValue") is not None
    }
    # The first paint as it happened in the unthrottled load that the metrics
    # above are simulated from: when chromium holds it back, LCP grows.
    observed = _timings(audits)
    if observed.get("observedFirstContentfulPaint") is not None:
        metrics[OBSERVED_FCP] = float(observed["observedFirstContentfulPaint"])
    index = data.get("environment", {}).get("benchmarkIndex")
    return Report(
        url=url,
        scores=scores,
        metrics=metrics,
        failing=failing,
        benchmark_index=None if index is None else float(index),
    )


def median_run(reports: list[Report]) -> Report:
    """The run with the median performance score, with every run's score and first paint.

    A failed run is the median only if every run failed. Of two middle runs the
    lower is kept: no run is averaged, so every number shown is one real run's.
    """
    if not reports:
        raise ValueError("no Lighthouse run to choose from")
    usable = [r for r in reports if not r.error and "performance" in r.scores] or reports
    ordered = sorted(usable, key=lambda r: r.scores.get("performance", -1))
    chosen = ordered[(len(ordered) - 1) // 2]
    chosen.runs = [r.scores.get("performance", -1) for r in reports]
    chosen.paints = [r.metrics.get(OBSERVED_FCP) for r in reports]
    return chosen


@functools.cache
def _launcher() -> tuple[str, list[str]]:
    """Version and default chromium flags of the chrome-launcher that Lighthouse loads.

    Asked of chrome-launcher itself (``Launcher.defaultFlags()``), resolved from
    Lighthouse's CLI as Lighthouse resolves it, so that an update of the lock
    file cannot leave a stale copy here. A RuntimeError if node cannot load it.
    """
    script = (
        "import {createRequire} from 'node:module';"
        "import {pathToFileURL} from 'node:url';"
        "const require = createRequire(process.argv[1]);"
        "const {version} = require('chrome-launcher/package.json');"
        "const {Launcher} = await import(pathToFileURL(require.resolve('chrome-launcher')).href);"
        "console.log(JSON.stringify([version, Launcher.defaultFlags()]));"
    )
    command = ["node", "--input-type=module", "-e", script, str(CLI)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"chrome-launcher could not be read: {done.stderr.strip()}")
    version, flags = json.loads(done.stdout)
    return str(version), [str(flag) for flag in flags]


def launcher_flags() -> list[str]:
    """The default chromium flags of the chrome-launcher that Lighthouse loads."""
    return _launcher()[1]


def disables_render_document(flags: list[str]) -> bool:
    """Whether ``flags`` (chrome-launcher's defaults, say) turn RenderDocument off."""
    return any(
        RENDER_DOCUMENT in flag.removeprefix(DISABLE_FEATURES).split(",")
        for flag in flags
        if flag.startswith(DISABLE_FEATURES)
    )


def chrome_flags(defaults: list[str], render_document: bool) -> list[str]:
    """The chromium flags of one Lighthouse run, given chrome-launcher's ``defaults``.

    Without ``render_document``, the benchmark's own: the launcher adds its
    defaults. With it, the defaults less ``RenderDocument``, and nothing else changes.
    """
    own = CHROME_FLAGS.split()
    if not render_document:
        return own
    flags = []
    for flag in defaults:
        if not flag.startswith(DISABLE_FEATURES):
            flags.append(flag)
            continue
        features = flag.removeprefix(DISABLE_FEATURES).split(",")
        if kept := [feature for feature in features if feature != RENDER_DOCUMENT]:
            flags.append(DISABLE_FEATURES + ",".join(kept))
    return [*flags, LINUX_LAUNCHER_FLAG, *own]


def versions() -> dict[str, str]:
    """The versions of Lighthouse and of the chrome-launcher it runs chromium with."""
    try:
        manifest = json.loads((CLI.parents[1] / "package.json").read_text(encoding="utf-8"))
        lighthouse = str(manifest["version"])
    except (OSError, ValueError, KeyError):
        lighthouse = "?"
    return {"lighthouse": lighthouse, "chrome-launcher": _launcher()[0]}


def run(
    url: str, keep: Path | None = None, timeout: float = 240, render_document: bool = False
) -> Report:
    """Run Lighthouse once on ``url``; keep its JSON report at ``keep`` if given.

    With ``render_document``, chromium keeps RenderDocument on (see
    ``chrome_flags``); by default Lighthouse launches it as it ships.
    """
    defaults = launcher_flags() if render_document else []
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as folder:
        output = Path(folder) / "report.json"
        flags = " ".join(chrome_flags(defaults, render_document))
        command = ["node", str(CLI), url, "--output=json", f"--output-path={output}", "--quiet"]
        command.append(f"--chrome-flags={flags}")
        if render_document:
            command.append("--chrome-ignore-default-flags")
        env = {**os.environ, "CHROME_PATH": CHROMIUM}
        try:
            done = subprocess.run(
                command, env=env, capture_output=True, text=True, timeout=timeout, check=False
            )
        except subprocess.TimeoutExpired:
            return Report(url=url, scores={}, error=f"timed out after {timeout:.0f} s")
        if done.returncode != 0 or not output.is_file():
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            return Report(url=url, scores={}, error=" / ".join(tail) or f"exit {done.returncode}")
        data = json.loads(output.read_text(encoding="utf-8"))
        if keep is not None:
            keep.parent.mkdir(parents=True, exist_ok=True)
            keep.write_text(json.dumps(data), encoding="utf-8")
    report = read_report(url, data)
    if data.get("runtimeError"):
        report.error = str(data["runtimeError"].get("message"))
    return report
