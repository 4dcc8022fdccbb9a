"""The benchmark's table and its targets, from the results dictionary."""

from __future__ import annotations

from typing import Any

from .lighthouse import CATEGORIES, HELD_PAINT_MS, OBSERVED_FCP
from .stats import CONFIDENCE

__all__ = ["LIMITS", "table", "targets"]

LIMITS = {
    "first_live_ratio": 1.15,
    "recompute_p95_ms": 16.0,
    "page_gzip_bytes": 100_000,
    "engine_gzip_bytes": 6_500_000,
    "scaling_growth": 1.25,
}
"""Targets: the ratio to the floor, one frame, 100 kB and 6.5 MB (decimal units), and
how much the build time per page may grow from the cheapest smaller build to the largest."""

ENGINE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The runtime files a page may fetch; with the worker and the core's wheel, nothing else."""


def _kb(size: float) -> str:
    return f"{size / 1000:,.1f} kB"


def _mb(size: float) -> str:
    return f"{size / 1_000_000:,.2f} MB"


def _ms(value: float) -> str:
    return f"{value:,.0f} ms" if value >= 100 else f"{value:.1f} ms"


def _ends(ends: list[float]) -> str:
    return f"{ends[0]:.2f}–{ends[1]:.2f}"


def _interval(ends: list[float]) -> str:
    return f"{round(CONFIDENCE * 100)} % interval {_ends(ends)}×"


def _ratio(entry: dict[str, Any], label: str) -> str:
    shown = f"{entry.get(f'{label}_ratio', 1):.2f}×"
    if ends := entry.get(f"{label}_ratio_interval"):
        shown += f" ({_ends(ends)})"
    return shown


def _markdown(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table, its columns padded to line up in a terminal."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def _scores(report: dict[str, Any]) -> str:
    return "/".join(str(report["scores"].get(c, "?")) for c in CATEGORIES)


def _perfect(report: dict[str, Any]) -> bool:
    return not report["error"] and all(report["scores"].get(c) == 100 for c in CATEGORIES)


def _engine_extra(page: dict[str, Any]) -> list[str]:
    """Engine files a page fetched beyond the runtime, its wheel and the worker."""
    return [
        name
        for name in page["bytes"]["engine"]
        if name not in ENGINE_FILES and not name.endswith(("-py3-none-any.whl", "worker.mjs"))
    ]


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Every target with what was measured and whether it holds."""
    found: list[dict[str, Any]] = []

    def add(name: str, measured: str, holds: bool) -> None:
        found.append({"target": name, "measured": measured, "pass": holds})

    pages = results["pages"]
    static = [path for path, page in pages.items() if not page["prerendered"]]
    add(
        "default results in the initial HTML",
        f"{len(pages) - len(static)}/{len(pages)} pages" + (f", not {static}" if static else ""),
        not static,
    )
    live = results.get("first_live")
    if live:
        limit = LIMITS["first_live_ratio"]
        for label in ("cold", "warm"):
            ratios = {k: v[f"{label}_ratio"] for k, v in live.items() if k != "floor"}
            worst = max(ratios, key=ratios.__getitem__)
            interval = live[worst].get(f"{label}_ratio_interval")
            spread = f"; {_interval(interval)}" if interval else ""
            add(
                f"first live result ≤ {limit}× the floor, {label}",
                f"worst {ratios[worst]:.2f}× ({worst}{spread})",
                ratios[worst] <= limit,
            )
        fetched = {k: v["warm_requests"] for k, v in live.items() if v["warm_requests"]}
        add(
            "warm visits from the HTTP cache, wasm included",
            "no request reached the server" if not fetched else str(fetched),
            not fetched,
        )
    recompute = results.get("recompute")
    if recompute:
        worst = max(recompute, key=lambda k: recompute[k]["p95"])
        add(
            f"recompute p95 ≤ {LIMITS['recompute_p95_ms']:.0f} ms",
            f"worst {recompute[worst]['p95']:.1f} ms ({worst})",
            recompute[worst]["p95"] <= LIMITS["recompute_p95_ms"],
        )
    reports = [r for r in results.get("lighthouse", []) if r.get("role") == "calculator"]
    if reports:
        under = [r for r in reports if not _perfect(r)]
        lowest = min(reports, key=lambda r: sum(r["scores"].get(c, 0) for c in CATEGORIES))
        add(
            "Lighthouse 100/100/100/100 on every calculator page",
            f"{len(reports) - len(under)}/{len(reports)} pages; lowest {_scores(lowest)}"
            f" ({lowest['page']})",
            not under,
        )
    sized = {k: v["bytes"] for k, v in pages.items() if "bytes" in v}
    if sized:
        heaviest = max(sized, key=lambda k: sized[k]["page"]["gzip"])
        size = sized[heaviest]["page"]["gzip"]
        add(
            f"before the engine ≤ {_kb(LIMITS['page_gzip_bytes'])} gzip (HTML + CSS + JS)",
            f"largest {_kb(size)} ({heaviest})",
            size <= LIMITS["page_gzip_bytes"],
        )
        engine = max(v["engine_total"]["gzip"] for v in sized.values())
        add(
            f"engine ≤ {_mb(LIMITS['engine_gzip_bytes'])} gzip",
            _mb(engine),
            engine <= LIMITS["engine_gzip_bytes"],
        )
        extra = sorted({name for v in pages.values() if "bytes" in v for name in _engine_extra(v)})
        missing = sorted({path for v in sized.values() for path in v["missing"]})
        add(
            "nothing else downloaded (no micropip, no package, no 404)",
            "runtime, wheel and worker only" if not extra and not missing else f"{extra} {missing}",
            not extra and not missing,
        )
    scaling = results.get("scaling")
    if scaling and len(scaling) >= 2:
        # Per page, the smallest build carries the fixed costs (the wheel, the
        # theme's assets) over few pages; what must not happen is a cost per
        # page that rises as pages are added. Compared with the cheapest
        # smaller build, not with the difference of two builds: a difference
        # of a few seconds is within the noise of a shared machine.
        per_page = [b["seconds"] / b["pages"] for b in scaling]
        growth = per_page[-1] / min(per_page[:-1])
        steps = zip(scaling, per_page, strict=True)
        add(
            f"build time per page flat (largest build ≤ {LIMITS['scaling_growth']}× the"
            " cheapest per page)",
            " → ".join(f"{b['factor']}× {_ms(p * 1000)}" for b, p in steps)
            + f" per page ({growth:.2f}×)",
            growth <= LIMITS["scaling_growth"],
        )
    return found


def _bytes_section(pages: dict[str, Any]) -> list[str]:
    sized = {k: v["bytes"] for k, v in pages.items() if "bytes" in v}
    if not sized:
        return []
    rows = []
    for path, found in sized.items():
        before = found["before"]
        rows.append(
            [
                path,
                *(_kb(before.get(kind, {}).get("gzip", 0)) for kind in ("HTML", "CSS", "JS")),
                f"{_kb(found['page']['raw'])} / {_kb(found['page']['gzip'])}",
                _kb(before.get("other", {}).get("gzip", 0)),
            ]
        )
    engine = next(iter(sized.values()))
    files = [[name, _kb(s["raw"]), _kb(s["gzip"])] for name, s in engine["engine"].items()]
    total = engine["engine_total"]
    files.append(["total", _mb(total["raw"]), _mb(total["gzip"])])
    return [
        "",
        "Bytes before the engine, gzip as served (HTML + CSS + JS raw / gzip; other: "
        "search index, icons)",
        _markdown(["page", "HTML", "CSS", "JS", "HTML + CSS + JS", "other"], rows),
        "",
        "The engine: what the worker downloads",
        _markdown(["file", "raw", "gzip"], files),
    ]


def _live_section(live: dict[str, Any], runs: int) -> list[str]:
    rows = []
    for name, entry in live.items():
        sent = entry["warm_bytes_from_server"]
        rows.append(
            [
                name,
                _ms(entry["cold_median"]),
                _ratio(entry, "cold"),
                f"{entry.get('cold_ratio_fastest', 1):.2f}×",
                _ms(entry["warm_median"]),
                _ratio(entry, "warm"),
                f"{entry.get('warm_ratio_fastest', 1):.2f}×",
                _ms(entry["cold_fcp_median"]),
                f"{max(sent, default=0):,} B",
            ]
        )
    header = [
        "page",
        "cold",
        "÷ floor",
        "fastest ÷ fastest",
        "warm",
        "÷ floor",
        "fastest ÷ fastest",
        "first paint",
        "warm download",
    ]
    phases = []
    for name, entry in live.items():
        for label in ("cold", "warm"):
            if split := entry.get(f"{label}_phases"):
                phases.append(
                    [
                        name,
                        label,
                        _ms(split["worker_start"]),
                        _ms(split["runtime_boot"]),
                        _ms(split["after_boot"]),
                    ]
                )
    out = [
        "",
        f"First live result for a shared link, median of {runs}, from navigation start;"
        " ÷ floor: median of the ratios of visits made back to back, with the"
        f" {round(CONFIDENCE * 100)} % bootstrap interval of that median; fastest ÷ fastest:"
        " the overhead with the least interference from the machine",
        _markdown(header, rows),
    ]
    if phases:
        out += [
            "",
            "Where the time goes (medians): worker created, Pyodide booted in it, then wheel,"
            " core import, first result",
            _markdown(["page", "", "worker created", "runtime boot", "after boot"], phases),
        ]
    return out


def _calculator_runs(reports: list[dict[str, Any]], key: str) -> list[Any]:
    """``key`` of every run of every calculator page (controls left out)."""
    return [
        run
        for r in reports
        if r.get("role", "calculator") == "calculator"
        for run in r.get(key) or []
    ]


def _blocking_shares(reports: list[dict[str, Any]]) -> list[tuple[str, float]]:
    """Mean blocking ms per run of calculator pages by source, largest first."""
    runs = _calculator_runs(reports, "blockings")
    totals: dict[str, float] = {}
    for run in runs:
        for source, ms in run.items():
            totals[source] = totals.get(source, 0.0) + ms
    return sorted(((s, ms / len(runs)) for s, ms in totals.items()), key=lambda x: -x[1])


def _lighthouse_setting(setting: dict[str, Any]) -> str:
    """Which Lighthouse ran, and how it launched chromium."""
    launched = (
        "RenderDocument on, as chromium ships it"
        if setting.get("render_document")
        else "RenderDocument off, as Lighthouse's launcher sets it"
    )
    return (
        f"Lighthouse {setting.get('lighthouse', '?')} (chrome-launcher"
        f" {setting.get('chrome-launcher', '?')}; {launched})"
    )


def _lighthouse_section(reports: list[dict[str, Any]], setting: dict[str, Any]) -> list[str]:
    rows = []
    for r in reports:
        metric = r["metrics"].get
        control = r.get("role", "calculator") != "calculator"
        rows.append(
            [
                f"{r['page']} ({r['role'].removeprefix('control: ')})" if control else r["page"],
                *(str(r["scores"].get(c, "—")) for c in CATEGORIES),
                f"{metric('first-contentful-paint', 0) / 1000:.1f} s",
                f"{metric('largest-contentful-paint', 0) / 1000:.1f} s",
                f"{metric('speed-index', 0) / 1000:.1f} s",
                f"{metric('total-blocking-time', 0):.0f} ms",
                f"{metric(OBSERVED_FCP, 0):.0f} ms" if metric(OBSERVED_FCP) else "—",
                f"{r['benchmark_index']:.0f}" if r.get("benchmark_index") else "—",
                " ".join(str(score) for score in r.get("runs") or []) or "—",
            ]
        )
    header = ["page", "perf.", "access.", "best pr.", "SEO", "FCP", "LCP", "SI", "TBT"]
    header += ["first paint seen", "CPU", "perf. of each run"]
    out = [
        "",
        f"{_lighthouse_setting(setting)}, mobile: each page's median run by performance score"
        " (first paint seen: in the unthrottled load the metrics are simulated from;"
        " CPU: Lighthouse's benchmark index of the host during that run)",
        _markdown(header, rows),
    ]
    paints = [paint for paint in _calculator_runs(reports, "paints") if paint is not None]
    if paints:
        held = sum(paint > HELD_PAINT_MS for paint in paints)
        out.append(
            f"  first paint held back (seen after {HELD_PAINT_MS:.0f} ms) in {held} of"
            f" {len(paints)} runs of calculator pages"
        )
    if shares := _blocking_shares(reports):
        out.append(
            "  Total Blocking Time by source, mean per run of calculator pages (Lighthouse's"
            " simulated long tasks): " + ", ".join(f"{s} {ms:.0f} ms" for s, ms in shares)
        )
    for r in reports:
        out += [f"  {r['page']} {c}: {', '.join(a)}" for c, a in r["failing"].items()]
        if r["error"]:
            out.append(f"  {r['page']}: {r['error']}")
    return out


def table(results: dict[str, Any]) -> str:
    """The whole result as Markdown tables, one section per measurement."""
    machine = results["machine"]
    out = [
        f"{machine['date']}, {machine['cores']} cores ({machine['cpu']}), {machine['chromium']}, "
        f"Node {machine['node']}; load average {machine['load_average_before']} before, "
        f"{machine.get('load_average_after', '?')} after. Site build {results['build_seconds']:.1f}"
        f" s; benchmark {results.get('seconds', 0):.0f} s.",
    ]
    out += _bytes_section(results["pages"])
    if live := results.get("first_live"):
        out += _live_section(live, results["settings"]["runs"])
    if recompute := results.get("recompute"):
        rows = [
            [
                path,
                v["input"],
                str(v["changes"]),
                _ms(v["p50"]),
                _ms(v["p95"]),
                _ms(v["max"]),
                f"{_ms(v['to_worker_p50'])} / {_ms(v['to_worker_p95'])}",
            ]
            for path, v in recompute.items()
        ]
        header = ["page", "input", "changes", "p50", "p95", "max", "of which before the worker"]
        out += [
            "",
            "Recompute: input event to updated outputs (before the worker: p50 / p95 of the"
            " wait until the page posts the request)",
            _markdown(header, rows),
        ]
    if reports := results.get("lighthouse"):
        out += _lighthouse_section(reports, results["settings"].get("lighthouse", {}))
    if scaling := results.get("scaling"):
        rows = [
            [
                f"{b['factor']}×",
                str(b["pages"]),
                f"{b['seconds']:.1f} s",
                _ms(b["seconds"] / b["pages"] * 1000),
            ]
            for b in scaling
        ]
        out += [
            "",
            "Build time as the calculator pages multiply",
            _markdown(["factor", "pages", "build", "per page"], rows),
        ]
    rows = [
        [t["target"], t["measured"], "PASS" if t["pass"] else "MISS"] for t in results["targets"]
    ]
    out += ["", "Targets", _markdown(["target", "measured", ""], rows)]
    return "\n".join(out)
