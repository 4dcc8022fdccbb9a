"""``python -m bench`` (``./dev bench``): measure the site against the floor of its approach.

Times the training planner's search in CPython and in Pyodide (:mod:`bench.search`),
builds the site, serves it on 127.0.0.1 with gzip and GitHub Pages' caching
headers, drives Debian's chromium, runs Lighthouse, times the build as the
site grows, prints the Performance page's tables and writes
``.bench/results.json``. The exit status is 0 whether or not the targets hold
(each is printed met or not met); it is 1 only when the benchmark could not run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from calcsite.performance import targets
from playwright.sync_api import sync_playwright

from tests.support.chromium import CHROMIUM
from tests.support.server import Link, serve

from . import ROOT, lighthouse, report, search
from .floor import write_floor
from .pages import CalcPage, calculator_pages, recompute_steps, shared_link
from .scaling import build_site, scaled_build
from .sizes import engine_of, inventory
from .stats import CONFIDENCE, median, median_interval, percentile
from .timing import TIMELINE, Run, Target, Timer

OUTPUT = ROOT / ".bench"
LINK = Link(megabits=20, latency_ms=40)
"""A reader's network (an office line, a VPN), for the cold visits that go through it."""


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _version(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "?"


def _machine() -> dict[str, Any]:
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
    except OSError:
        info = []
    models = [line.split(":", 1)[1].strip() for line in info if line.startswith("model name")]
    return {
        "date": datetime.date.today().isoformat(),
        "cores": os.cpu_count(),
        "cpu": next(iter(models), platform.processor() or "?"),
        "load_average_before": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "chromium": _version([CHROMIUM, "--version"]),
        "node": _version(["node", "--version"]),
    }


def _calc_target(page: CalcPage) -> Target:
    query, texts = shared_link(page.main)
    ready = f'{page.main.selector}[data-state="ready"]'
    return Target(page.path, f"{page.path}?{query}", ready, "output[data-output]", texts)


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="fewer runs: 3 visits, 40 changes, 1 Lighthouse run (English), builds 1×, 5×, 10×",
    )
    parser.add_argument("--runs", type=int, help="visits per page, cold and warm (default 7)")
    parser.add_argument("--changes", type=int, help="input changes per page (default 120)")
    parser.add_argument(
        "--lighthouse-runs", type=int, help="Lighthouse runs per page, median kept (default 3)"
    )
    parser.add_argument(
        "--factors", help="build-scaling factors, comma-separated (default 1,10,50)"
    )
    parser.add_argument(
        "--render-document",
        action="store_true",
        help="run Lighthouse's chromium with RenderDocument on, as chromium ships it"
        " (Lighthouse's launcher turns it off; see the Performance page)",
    )
    parser.add_argument("--skip", default="", help="of search,timing,link,lighthouse,scaling")
    parser.add_argument("--output", type=Path, default=OUTPUT / "results.json")
    args = parser.parse_args(argv)
    for name in ("runs", "changes", "lighthouse_runs"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    args = _arguments(argv)
    runs = args.runs or (3 if args.quick else 7)
    changes = args.changes or (40 if args.quick else 120)
    factors = [int(f) for f in (args.factors or ("1,5,10" if args.quick else "1,10,50")).split(",")]
    skip = {part.strip() for part in args.skip.split(",") if part.strip()}
    started = time.perf_counter()
    results: dict[str, Any] = {
        "machine": _machine(),
        "settings": {
            "runs": runs,
            "changes": changes,
            "link": asdict(LINK),
            "lighthouse": {
                **lighthouse.versions(),
                # On when asked for, or when the installed launcher no longer turns it off.
                "render_document": args.render_document
                or not lighthouse.disables_render_document(lighthouse.launcher_flags()),
            },
        },
    }

    if "search" not in skip:
        # First, on a machine no browser or build has loaded yet; a few seconds.
        _log(f"training planner's search ×{search.CALLS}, in CPython and in Pyodide")
        results["search"] = search.measure()

    site = OUTPUT / "site"
    shutil.rmtree(site, ignore_errors=True)
    _log("building the site")
    results["build_seconds"] = build_site(site)
    pages = calculator_pages(site)
    if not pages:
        _log("no calculator page in the site")
        return 1
    english = [page for page in pages if page.language == "en"]
    first_html = (site / pages[0].path / "index.html").read_text(encoding="utf-8")
    engine = engine_of(first_html, "/" + pages[0].path)
    floor_path = write_floor(site, engine.folders[0].lstrip("/") + "pyodide.mjs")
    floor = Target("floor", floor_path, 'body[data-state="ready"]', "output", ("2",))
    results["pages"] = {page.path: {"prerendered": page.prerendered()} for page in pages}

    with (
        serve(site) as server,
        serve(site, link=LINK) as linked,
        sync_playwright() as playwright,
    ):
        timer = Timer(playwright, server)
        # A first visit of each page: what it downloads (which also warms the
        # server's gzip cache, as a CDN's would be).
        for page in pages:
            _log(f"inventory {page.path}")
            html = (site / page.path / "index.html").read_text(encoding="utf-8")
            run = timer.cold(_calc_target(page))
            found = inventory(site, "/", run.requests, engine_of(html, "/" + page.path))
            results["pages"][page.path]["bytes"] = {
                "before": {kind: asdict(size) for kind, size in found.before.items()},
                "page": asdict(found.page),
                "everything_before": asdict(found.everything_before),
                "engine": {name: asdict(size) for name, size in found.engine.items()},
                "engine_total": asdict(found.engine_total),
                "missing": found.missing,
                "requests": run.requests,
            }
        if "timing" not in skip:
            link = None if "link" in skip else Timer(playwright, linked)
            results["first_live"] = _first_live(timer, floor, english, runs, link)
            results["recompute"] = _recompute(timer, english, changes)

    if "lighthouse" not in skip:
        results["lighthouse"] = _lighthouse(
            site,
            english if args.quick else pages,
            floor.path,
            args.lighthouse_runs or (1 if args.quick else 3),
            args.render_document,
        )
    if "scaling" not in skip:
        results["scaling"] = []
        for factor in factors:
            _log(f"build with the calculator pages ×{factor}")
            results["scaling"].append(asdict(scaled_build(factor)))

    results["machine"]["load_average_after"] = round(os.getloadavg()[0], 2)
    results["seconds"] = round(time.perf_counter() - started, 1)
    results["targets"] = [
        {"target": target, "measured": measured, "pass": holds}
        for target, measured, holds in targets(results)
    ]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(results, indent=2, ensure_ascii=False), encoding="utf-8")
    print(report.table(results))
    shown = args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output
    print(f"\nJSON: {shown}")
    return 0


def _first_live(
    timer: Timer, floor: Target, pages: list[CalcPage], runs: int, link: Timer | None = None
) -> dict[str, Any]:
    """Cold, then warm, then cold through the emulated ``link``, visits round by round.

    A round visits every target back to back, in the reverse order every other
    round so that no page always follows the same one (a browser exiting, a file
    cache just filled). A page's ratio to the floor is the median of its
    per-round ratios: each compares the two under the same load, which is
    steadier on a shared machine than a ratio of medians.
    """
    targets = [floor, *(_calc_target(page) for page in pages)]
    visits: dict[str, dict[str, list[Run]]] = {"cold": {}, "warm": {}}
    visits |= {"link": {}} if link else {}
    profiles: dict[str, Path] = {}
    try:
        for visit, by_target in visits.items():
            for target in targets if visit == "warm" else ():
                _log(f"priming {target.name}")
                profiles[target.name] = timer.primed(target)
            for index in range(runs):
                for target in targets if index % 2 == 0 else targets[::-1]:
                    _log(f"{visit} {index + 1}/{runs} {target.name}")
                    if visit == "warm":
                        run = timer.visit(profiles[target.name], target)
                    else:
                        run = (link if visit == "link" and link else timer).cold(target)
                    by_target.setdefault(target.name, []).append(run)
    finally:
        for folder in profiles.values():
            shutil.rmtree(folder, ignore_errors=True)
    out: dict[str, Any] = {}
    for target in targets:
        entry = out[target.name] = {"url": target.path}
        for visit, by_target in visits.items():
            mine, base = by_target[target.name], by_target[floor.name]
            live = [v.live_ms for v in mine]
            entry[visit] = [round(ms, 1) for ms in live]
            entry[f"{visit}_median"] = round(median(live), 1)
            paints = [v.fcp_ms for v in mine if v.fcp_ms is not None]
            entry[f"{visit}_fcp_median"] = round(median(paints), 1)
            # Where the time goes: the median time of each milestone since navigation start.
            entry[f"{visit}_timeline"] = {
                key: round(median(times), 1)
                for key in TIMELINE
                if (times := [v.timeline[key] for v in mine if key in v.timeline])
            }
            if target is not floor:
                ratios = [v.live_ms / b.live_ms for v, b in zip(mine, base, strict=True)]
                entry[f"{visit}_ratios"] = [round(r, 3) for r in ratios]
                entry[f"{visit}_ratio"] = round(median(ratios), 3)
                # How far that median can be trusted, from the spread of the rounds.
                interval = median_interval(ratios, CONFIDENCE)
                entry[f"{visit}_ratio_interval"] = [round(end, 3) for end in interval]
                # Load only ever adds time: the fastest visit against the fastest
                # floor is the overhead with the least interference.
                fastest = min(live) / min(b.live_ms for b in base)
                entry[f"{visit}_ratio_fastest"] = round(fastest, 3)
        entry["warm_bytes_from_server"] = [v.bytes_sent for v in visits["warm"][target.name]]
        entry["warm_requests"] = sorted(
            {p for v in visits["warm"][target.name] for p in v.requests}
        )
    return out


def _recompute(timer: Timer, pages: list[CalcPage], changes: int) -> dict[str, Any]:
    out = {}
    for page in pages:
        _log(f"recompute ×{changes} {page.path}")
        name, steps = recompute_steps(page.main, changes)
        measured = timer.recompute(page.path, page.main.selector, name, steps)
        latencies = [total for total, _ in measured]
        waits = [wait for _, wait in measured if not math.isnan(wait)]  # NaN: no post seen
        out[page.path] = {
            "input": name,
            "changes": len(latencies),
            "p50": round(percentile(latencies, 50), 2),
            "p95": round(percentile(latencies, 95), 2),
            "max": round(max(latencies), 2),
            "to_worker_p50": round(percentile(waits, 50), 2),
            "to_worker_p95": round(percentile(waits, 95), 2),
            "latencies": [round(v, 2) for v in latencies],
        }
    return out


def _lighthouse(
    site: Path, pages: list[CalcPage], floor: str, repeats: int, render_document: bool
) -> list[dict[str, Any]]:
    """Lighthouse ``repeats`` times on each calculator page, then on two controls.

    The controls are the floor and a page with the same theme and no
    calculator (the home page): what the engine alone, and the theme alone, score.
    Each page's median run is reported (every run's JSON is kept).
    """
    runs = [(page.path, "calculator") for page in pages]
    runs += [(floor, "control: floor"), ("", "control: no calculator")]
    found = []
    shutil.rmtree(OUTPUT / "lighthouse", ignore_errors=True)  # no report of an older run stays
    with serve(site) as server:
        for path, role in runs:
            _log(f"lighthouse /{path}")
            folder = OUTPUT / "lighthouse" / (path.strip("/").replace("/", "_") or "home")
            reports = [
                lighthouse.run(
                    server.url(path), folder / f"run-{i + 1}.json", render_document=render_document
                )
                for i in range(repeats)
            ]
            found.append(
                {**asdict(lighthouse.median_run(reports)), "page": path or "/", "role": role}
            )
    return found


if __name__ == "__main__":
    sys.exit(main())
