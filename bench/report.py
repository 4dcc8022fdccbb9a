"""What ``python -m bench`` prints: the Performance page's tables, in English, and the rest.

The tables are the page's own (:mod:`calcsite.performance`); under them come the
figures that only the terminal shows: the fastest visit against the fastest
floor, what warm visits downloaded, the slowest recompute, the training
planner's search in each runtime, which Lighthouse ran and how, how many first
paints chromium held back, the audits under 1 and any failed run. A part
skipped with ``--skip`` is left out.
"""

from __future__ import annotations

from typing import Any

from calcsite.performance import RUNTIMES, TABLES, VISITS, Numbers, PublishError, render

from .lighthouse import HELD_PAINT_MS
from .stats import CONFIDENCE

_TITLES = {
    "bytes": "Bytes before the engine, gzip (raw in brackets; other: search index, icons)",
    "engine": "The engine: what the worker downloads",
    "first-live": "First live result for a shared link, median of {runs} visits (link: through"
    " {megabits} Mbit/s shared, {latency} ms a response); ÷ floor: median of the per-round"
    " ratios, with its {confidence}% bootstrap interval",
    "phases": "Where the time goes: when each milestone came, since navigation start (medians)",
    "recompute": "Recompute: input event to updated outputs",
    "lighthouse": "{lighthouse}, mobile: each page's median run by performance score",
    "build": "Build time as the calculator pages multiply",
    "targets": "Targets",
}
_PARTS = {"bytes": "pages", "engine": "pages", "targets": "pages", "build": "scaling"}
_PARTS |= {"first-live": "first_live", "phases": "first_live"}
"""The part of the results each table shows, where it is not the table's own name."""


def _lighthouse_setting(setting: dict[str, Any]) -> str:
    """Which Lighthouse ran, and how it launched chromium."""
    on = setting.get("render_document")
    how = "on, as chromium ships it" if on else "off, as Lighthouse's launcher sets it"
    lighthouse, launcher = setting.get("lighthouse", "?"), setting.get("chrome-launcher", "?")
    return f"Lighthouse {lighthouse} (chrome-launcher {launcher}; RenderDocument {how})"


def _first_live_extra(live: dict[str, Any], f: Numbers) -> list[str]:
    fastest = [
        f"{name} " + " / ".join(f.ratio(entry[f"{v}_ratio_fastest"]) for v in VISITS if v in entry)
        for name, entry in live.items()
        if "cold_ratio_fastest" in entry
    ]
    sent = [
        f"{name} {f.count(max(entry['warm_bytes_from_server'], default=0))} B"
        for name, entry in live.items()
    ]
    return [
        "  fastest ÷ fastest floor, cold / warm / link (the overhead with the least interference): "
        + ", ".join(fastest),
        "  most bytes a warm visit got from the server: " + ", ".join(sent),
    ]


def _lighthouse_extra(reports: list[dict[str, Any]]) -> list[str]:
    calculators = [r for r in reports if r["role"] == "calculator"]
    out = []
    if paints := [p for r in calculators for p in r.get("paints") or [] if p is not None]:
        held = sum(paint > HELD_PAINT_MS for paint in paints)
        out.append(
            f"  first paint held back (seen after {HELD_PAINT_MS:.0f} ms) in {held} of"
            f" {len(paints)} runs of calculator pages"
        )
    for r in reports:
        out += [f"  {r['page']} {c}: {', '.join(a)}" for c, a in r["failing"].items()]
        if r["error"]:
            out.append(f"  {r['page']}: {r['error']}")
    return out


def _search_extra(search: dict[str, Any], f: Numbers) -> list[str]:
    """Each runtime's figures for the training planner's search, side by side."""
    shown = (
        f"{name} {search['versions'][name]} "
        + " / ".join(f.ms(search[name][key]) for key in ("p50", "p95", "max"))
        for name in RUNTIMES
    )
    return [
        f"  training planner's search, {search['run']}, {search['calls']} calls after"
        f" {search['warmups']} warm-ups, p50 / p95 / slowest: " + ", ".join(shown)
    ]


def _extra(name: str, results: dict[str, Any], f: Numbers) -> list[str]:
    if name == "targets" and (search := results.get("search")):
        return _search_extra(search, f)
    if name == "first-live":
        return _first_live_extra(results["first_live"], f)
    if name == "recompute":
        slowest = (f"{path} {f.ms(v['max'])}" for path, v in results["recompute"].items())
        return ["  slowest change: " + ", ".join(slowest)]
    if name == "lighthouse":
        return _lighthouse_extra(results["lighthouse"])
    return []


def table(results: dict[str, Any]) -> str:
    """The whole run: a line on the machine, then every table it has, targets last."""
    machine, f = results["machine"], Numbers("en")
    out = [
        f"{machine['date']}, {machine['cores']} cores ({machine['cpu']}), {machine['chromium']},"
        f" Node {machine['node']}; load average {machine['load_average_before']} before,"
        f" {machine.get('load_average_after', '?')} after. Site build"
        f" {results['build_seconds']:.1f} s; benchmark {results.get('seconds', 0):.0f} s."
    ]
    for name in (*TABLES[1:], TABLES[0]):
        if not results.get(_PARTS.get(name, name)):
            continue
        link = results["settings"].get("link") or {}
        out += [
            "",
            _TITLES[name].format(
                megabits=f.number(link.get("megabits", 0)),
                latency=f.number(link.get("latency_ms", 0)),
                runs=results["settings"]["runs"],
                confidence=round(CONFIDENCE * 100),
                lighthouse=_lighthouse_setting(results["settings"].get("lighthouse", {})),
            ),
        ]
        try:
            out += [render(results, name, "en"), *_extra(name, results, f)]
        except (PublishError, KeyError) as error:
            out.append(f"  not shown: {error}")
    return "\n".join(out)
