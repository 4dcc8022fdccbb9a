"""Lighthouse (npm, pinned in package-lock.json) on Debian's chromium, mobile.

Each run is a fresh chromium profile launched by Lighthouse itself, with its
default mobile emulation and simulated throttling. What comes back: the four
category scores (0–100), the metrics behind the performance score, and for
any category under 100 the audits that cost it points.

One run's performance score moves by several points from run to run on a
shared machine, so a page is run several times and the median run is kept,
as Lighthouse's own guidance on variability recommends.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .timing import CHROMIUM

__all__ = [
    "CATEGORIES",
    "HELD_PAINT_MS",
    "OBSERVED_FCP",
    "Report",
    "median_run",
    "read_report",
    "run",
]

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "speed-index",
    "total-blocking-time",
    "cumulative-layout-shift",
    "total-byte-weight",
)
OBSERVED_FCP = "observed-first-contentful-paint"
# A first paint seen later than this was held back by chromium: held ones come at
# about 1.2 s, the others at 0.1 to 0.4 s (Lighthouse's launcher turns off
# RenderDocument, which a reader's browser keeps on; see the Performance page).
HELD_PAINT_MS = 800.0
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"


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
    """Lighthouse's measure of the host CPU at the time of the run (``environment.benchmarkIndex``).

    Its mobile preset slows the CPU 4× in simulation assuming a desktop of
    1500–2000; on a shared machine this varies from run to run, and the
    performance score with it."""
    runs: list[int] = field(default_factory=list)
    """Performance scores of every run of the page, in order, when several were made."""
    paints: list[float | None] = field(default_factory=list)
    """The first paint seen (``OBSERVED_FCP``) in every run of the page, in order."""


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
    observed = (audits.get("metrics", {}).get("details", {}).get("items") or [{}])[0]
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
    """Return the run with the median performance score, listing every run's score.

    Failed runs are never the median unless every run failed. With an even
    number of runs, the lower of the two middle ones is kept: no run is
    averaged, so every number shown comes from one real run.

    Raises:
        ValueError: If ``reports`` is empty.
    """
    if not reports:
        raise ValueError("no Lighthouse run to choose from")
    usable = [r for r in reports if not r.error and "performance" in r.scores] or reports
    ordered = sorted(usable, key=lambda r: r.scores.get("performance", -1))
    chosen = ordered[(len(ordered) - 1) // 2]
    chosen.runs = [r.scores.get("performance", -1) for r in reports]
    chosen.paints = [r.metrics.get(OBSERVED_FCP) for r in reports]
    return chosen


def run(url: str, keep: Path | None = None, timeout: float = 240) -> Report:
    """Run Lighthouse once on ``url``; keep its JSON report at ``keep`` if given."""
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as folder:
        output = Path(folder) / "report.json"
        command = [
            "node",
            str(CLI),
            url,
            "--output=json",
            f"--output-path={output}",
            "--quiet",
            f"--chrome-flags={CHROME_FLAGS}",
        ]
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
