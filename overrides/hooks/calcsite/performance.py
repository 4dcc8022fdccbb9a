"""The Performance page's tables, rendered from a benchmark run in the page's language.

The page places each table with ``<!-- md:bench NAME -->`` on a line of its own
(``NAME`` is one of :data:`TABLES`). At build time the MkDocs hook
``overrides/hooks/performance.py`` hands the page's Markdown to :func:`expand`,
which renders the tables from the published run, ``docs/assets/bench/results.json``.
Numbers go through the calculator pages' own formatter (:mod:`calcsite.formatting`:
CLDR data from Babel).

A run that lacks a table's measurements, or has fewer than :data:`MIN_VISITS`
visits per page (a ``--quick`` run), cannot be shown: :func:`load` refuses it, and
the build fails. The benchmark (``bench/``) writes runs and reads this module:
``python -m bench`` prints the same tables, in English, and ``python -m
bench.published`` (``./dev publish``) copies a run here once :func:`load` accepts
it. Nothing here imports the benchmark, so the site's build never does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from calculator import Output
from calculator.spec import Style

from .engine import SITE_STDLIB
from .formatting import format_bound, format_output
from .gzipped import SUFFIX
from .messages import LANGUAGES, translate
from .runtime import RUNTIME_FILES

DOCS = Path(__file__).resolve().parents[3] / "docs"
"""The site's pages, where the run is published."""
PUBLISHED = Path("assets") / "bench" / "results.json"
"""Where the run shown on the Performance page is published, relative to the docs."""
TABLES = ("targets", "bytes", "engine", "first-live", "phases", "recompute", "lighthouse", "build")
MIN_VISITS = 5
"""A first-live time on the page is a median of at least five visits (``--quick`` makes 3)."""
_REQUIRED = ("first_live", "recompute", "lighthouse", "scaling")
"""What a run made with ``--skip`` lacks. The search (``search``) is not required: runs
before it was measured are shown without its target."""

LIMITS = {
    "cold": 1.10,
    "warm": 1.10,
    "link": 0.90,
    "recompute_p95_ms": 16.0,
    "performance": 97,
    "page_gzip_bytes": 100_000,
    "visit_gzip_bytes": 4_600_000,
    "scaling_growth": 1.25,
    "search_p95_ms": 300.0,
}
"""The targets: the ratios to the floor (local cold and warm visits, cold ones on the emulated
link), one frame, Lighthouse's performance score, 100 kB and 4.6 MB (decimal units), how
much the build time per page may grow from the cheapest smaller build to the largest, and
the training planner's search for the largest published run (the benchmark's request), a
reply that reads as immediate, in CPython and in Pyodide alike."""
VISITS = ("cold", "warm", "link")
RUNTIMES = ("cpython", "pyodide")
"""Where the search is timed (the run's ``search`` part holds one entry for each)."""
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
"""Lighthouse's four categories, in the order of its report and of the page's table."""
OBSERVED_FCP = "observed-first-contentful-paint"
"""The first paint Lighthouse saw in its run (not simulated), kept with its metrics."""
_DIRECTIVE = re.compile(r"^<!-- md:bench (\S+) -->$", re.MULTILINE)
_NBSP = "\u00a0"

HEADERS = {
    "targets": "Target | Measured | Status",
    "bytes": "Page | HTML | CSS | JS | HTML + CSS + JS | Other",
    "engine": "File | Raw | gzip",
    "first-live": "Page | Cold | ÷ floor | Warm | ÷ floor | Cold, {megabits} Mbit/s | ÷ floor"
    " | First paint (cold)",
    "phases": "Page | Worker created | Downloaded | Compiled | Python started | Core imported"
    " | First result",
    "recompute": "Page | Input | Changes | p50 | p95 | Before the worker (p50 / p95)",
    "lighthouse": "Page | Perf. | Access. | Best pr. | SEO | FCP | LCP | SI | TBT"
    " | First paint seen | CPU | Perf. of each run",
    "build": "Pages × | Pages built | Build | Per page",
}
"""Each table's header row in English, its cells separated as Markdown separates them;
the site's catalogs translate them."""

WORDS = {
    "floor": "floor (bare Pyodide)",
    "control: floor": "floor",
    "control: no calculator": "home, no calculator",
    "cold": "cold",
    "warm": "warm",
    "link": "cold, on a {megabits} Mbit/s link",
    "total": "total",
    "met": "met",
    "not met": "not met",
    "range": "{low} to {high}",
    "pages": "{count} of {total} pages",
    "lowest": "{pages}; the lowest: {scores}",
    "requests": "files requested from the server: {count}",
    "engine only": "the runtime, the wheel and the worker only",
    "prerendered": "Example results in the initial HTML, shown with the first paint",
    "first live": "First live result, {visit}: at most {limit} the floor",
    "cache": "Warm visits served by the HTTP cache, WebAssembly included",
    "recompute": "Recompute within a frame: p95 at most {limit}",
    "lighthouse": "Lighthouse on every calculator page: performance at least {limit},"
    " the other three categories 100",
    "page": "Before the engine: at most {limit} gzip per page",
    "visit": "A cold visit, up to its first live result: at most {limit} gzip",
    "nothing else": "Nothing else downloaded: no package, no micropip, no missing file",
    "scaling": "Build time per page flat: at most {limit} that of the cheapest smaller build",
    "search": "Training planner's search, {parameters} billion parameters on {devices}"
    " devices: p95 at most {limit}, in CPython and in Pyodide",
    "runtimes": "CPython {cpython}, Pyodide {pyodide}",
}
"""The tables' words in English; the site's catalogs translate them."""
UNITS = ("kB", "MB", "ms", "s")
"""The units the tables write, which a language may write its own way (French: ko, Mo)."""


class PublishError(ValueError):
    """A run cannot be published or shown: it lacks a measurement, or is a ``--quick`` run."""


def _output(digits: int, style: Style = "number") -> Output:
    return Output(name="bench", label="bench", style=style, digits=digits)


_NUMBER = {digits: _output(digits) for digits in range(3)}
_RATIO = _output(2, "multiplier")


class Numbers:
    """Numbers and units in ``language``, as the calculator pages write them.

    The formatter drops trailing zeros (``1.2×``, ``54 kB``), as a calculator's results do.
    """

    def __init__(self, language: str) -> None:
        if language not in LANGUAGES:
            raise PublishError(f"no tables in {language!r}; languages: {', '.join(LANGUAGES)}")
        self.language = language
        self.words = {key: translate(language, text) for key, text in WORDS.items()}

    def number(self, value: float, digits: int = 1) -> str:
        """A number with at most ``digits`` decimals."""
        return format_output(_NUMBER[digits], value, self.language)

    def count(self, value: float) -> str:
        """A whole number."""
        return format_bound(round(value), self.language)

    def unit(self, value: float, unit: str, digits: int = 1) -> str:
        """A number and its unit, kept together."""
        shown = translate(self.language, unit)
        return f"{self.number(value, digits)}{_NBSP}{shown}"

    def kb(self, size: float) -> str:
        """Bytes in kilobytes."""
        return self.unit(size / 1000, "kB")

    def mb(self, size: float) -> str:
        """Bytes in megabytes."""
        return self.unit(size / 1_000_000, "MB", 2)

    def ms(self, value: float) -> str:
        """Three significant figures or so: 1,218 ms, 213 ms, 94.3 ms, 0.2 ms."""
        return self.unit(value, "ms", 0 if value >= 100 else 1)

    def ratio(self, value: float) -> str:
        """A ratio, with its sign: ``1.15×``."""
        return format_output(_RATIO, value, self.language)

    def range(self, shown: list[str]) -> str:
        """The smallest and largest of values already shown in order, or the one value."""
        low, high = shown[0], shown[-1]
        return low if low == high else self.words["range"].format(low=low, high=high)


def _code(text: str) -> str:
    return f"`{text}`"


def _visit(results: dict[str, Any], visit: str, f: Numbers) -> str:
    """A kind of visit in words: cold, warm, or cold on the run's emulated link."""
    link = results.get("settings", {}).get("link") or {}
    return f.words[visit].format(megabits=f.number(link.get("megabits", 0)))


def targets(results: dict[str, Any], language: str = "en") -> list[tuple[str, str, bool]]:
    """Each target a run's parts allow: what it is, what was measured, whether it holds."""
    f = Numbers(language)
    found: list[tuple[str, str, bool]] = []

    def add(key: str, measured: str, holds: bool, limit: object = "", visit: str = "") -> None:
        found.append((f.words[key].format(limit=limit, visit=visit), measured, holds))

    if pages := results.get("pages") or {}:
        static = [_code(path) for path, page in pages.items() if not page["prerendered"]]
        shown = f.words["pages"].format(count=len(pages) - len(static), total=len(pages))
        add("prerendered", ", ".join([shown, *static]), not static)
    if live := results.get("first_live"):
        for visit in VISITS:
            if not (
                ratios := sorted(
                    v[f"{visit}_ratio"] for v in live.values() if f"{visit}_ratio" in v
                )
            ):
                continue
            shown_ratios = f.range([f.ratio(r) for r in ratios])
            limit = LIMITS[visit]
            word = _visit(results, visit, f)
            add("first live", shown_ratios, ratios[-1] <= limit, f.ratio(limit), word)
        paths = sorted({path for v in live.values() for path in v["warm_requests"]})
        served = f.words["requests"].format(count=f.count(len(paths)))
        add("cache", ", ".join([served, *map(_code, paths)]), not paths)
    if recompute := results.get("recompute"):
        p95 = sorted(v["p95"] for v in recompute.values())
        limit = LIMITS["recompute_p95_ms"]
        add("recompute", f.range([f.ms(v) for v in p95]), p95[-1] <= limit, f.ms(limit))
    if reports := [r for r in results.get("lighthouse", []) if r["role"] == "calculator"]:
        limit, others = LIMITS["performance"], CATEGORIES[1:]
        good = [
            r
            for r in reports
            if r["scores"].get("performance", 0) >= limit
            and all(r["scores"].get(c) == 100 for c in others)
        ]
        lowest = min(reports, key=lambda r: [r["scores"].get(c, 0) for c in CATEGORIES])
        scores = _scores(lowest["scores"].get(c, "—") for c in CATEGORIES)
        of = f.words["pages"].format(count=len(good), total=len(reports))
        add("lighthouse", f.words["lowest"].format(pages=of, scores=scores), good == reports, limit)
    if sized := [page for page in pages.values() if "bytes" in page]:
        gzip = sorted(page["bytes"]["page"]["gzip"] for page in sized)
        limit = LIMITS["page_gzip_bytes"]
        add("page", f.range([f.kb(v) for v in gzip]), gzip[-1] <= limit, f.kb(limit))
        # Everything the cold visit of the inventory downloaded until its first live result.
        cold = sorted(
            page["bytes"]["everything_before"]["gzip"] + page["bytes"]["engine_total"]["gzip"]
            for page in sized
        )
        limit = LIMITS["visit_gzip_bytes"]
        add("visit", f.range([f.mb(v) for v in cold]), cold[-1] <= limit, f.mb(limit))
        # Beyond the runtime, its standard library and index, the core's wheel and the worker.
        fetched = {name for page in sized for name in page["bytes"]["engine"]}
        ours = (f"-py3-none-any.whl{SUFFIX}", "worker.mjs")
        known = {*RUNTIME_FILES, SITE_STDLIB}
        extra = sorted(n for n in fetched if n not in known and not n.endswith(ours))
        extra += sorted({path for page in sized for path in page["bytes"]["missing"]})
        add("nothing else", ", ".join(map(_code, extra)) or f.words["engine only"], not extra)
    if len(scaling := results.get("scaling") or []) >= 2:
        # Per page, the smallest build carries the fixed costs (the wheel, the theme's
        # assets) over few pages; what must not happen is a cost per page that rises as
        # pages are added. Compared with the cheapest smaller build, not with the
        # difference of two builds: a few seconds are within a shared machine's noise.
        per_page = [build["seconds"] / build["pages"] for build in scaling]
        growth = per_page[-1] / min(per_page[:-1])
        limit = LIMITS["scaling_growth"]
        add("scaling", f.ratio(growth), growth <= limit, f.ratio(limit))
    if search := results.get("search"):
        found.append(_search(search, f))
    return found


def _search(search: dict[str, Any], f: Numbers) -> tuple[str, str, bool]:
    """The search's target: its p95 in each runtime, met when the slower is within the limit."""
    limit = LIMITS["search_p95_ms"]
    p95 = {runtime: search[runtime]["p95"] for runtime in RUNTIMES}
    label = f.words["search"].format(
        parameters=f.count(search["parameters_b"]),
        devices=f.count(search["devices"]),
        limit=f.ms(limit),
    )
    measured = f.words["runtimes"].format(**{name: f.ms(ms) for name, ms in p95.items()})
    return label, measured, max(p95.values()) <= limit


def _targets(results: dict[str, Any], f: Numbers) -> list[list[str]]:
    return [
        [label, measured, f.words["met" if holds else "not met"]]
        for label, measured, holds in targets(results, f.language)
    ]


def _bytes(results: dict[str, Any], f: Numbers) -> list[list[str]]:
    rows = []
    for path in sorted(results["pages"]):
        sizes = results["pages"][path]["bytes"]
        before, page = sizes["before"], sizes["page"]
        rows.append(
            [
                _code(path),
                *(f.kb(before[kind]["gzip"]) for kind in ("HTML", "CSS", "JS")),
                f"**{f.kb(page['gzip'])}** ({f.kb(page['raw'])})",
                f.kb(before["other"]["gzip"]),
            ]
        )
    return rows


def _engine(results: dict[str, Any], f: Numbers) -> list[list[str]]:
    # Every page loads the same engine; the first page's inventory stands for all.
    sizes = results["pages"][min(results["pages"])]["bytes"]
    rows = [
        [_code(name), f.kb(size["raw"]), f.kb(size["gzip"])]
        for name, size in sizes["engine"].items()
    ]
    total = sizes["engine_total"]
    rows.append(
        [f"**{f.words['total']}**", f"**{f.mb(total['raw'])}**", f"**{f.mb(total['gzip'])}**"]
    )
    return rows


def _label(name: str, f: Numbers) -> str:
    return f.words["floor"] if name == "floor" else _code(name)


def _ratio(entry: dict[str, Any], visit: str, f: Numbers) -> str:
    if not entry.get(visit):  # a run without this kind of visit
        return "—"
    if f"{visit}_ratio" not in entry:  # the floor, 1× by definition
        return f.ratio(1)
    low, high = entry[f"{visit}_ratio_interval"]
    return f"{f.ratio(entry[f'{visit}_ratio'])} ({f.number(low, 2)}–{f.number(high, 2)})"


def _first_live(results: dict[str, Any], f: Numbers) -> list[list[str]]:
    return [
        [
            _label(name, f),
            *(
                cell
                for visit in VISITS
                for cell in (
                    f.ms(entry[f"{visit}_median"]) if entry.get(visit) else "—",
                    _ratio(entry, visit, f),
                )
            ),
            f.ms(entry["cold_fcp_median"]),
        ]
        for name, entry in results["first_live"].items()
    ]


def _phases(results: dict[str, Any], f: Numbers) -> list[list[str]]:
    milestones = ("worker", "downloaded", "compiled", "started", "core", "live")
    rows = []
    for name, entry in results["first_live"].items():
        for visit in (visit for visit in VISITS if entry.get(visit)):
            times = entry.get(f"{visit}_timeline") or {}  # none in runs before 2026-12
            shown = [f.ms(times[key]) if key in times else "—" for key in milestones]
            rows.append([f"{_label(name, f)}, {_visit(results, visit, f)}", *shown])
    return rows


def _recompute(results: dict[str, Any], f: Numbers) -> list[list[str]]:
    return [
        [
            _code(name),
            _code(entry["input"]),
            f.count(entry["changes"]),
            f.ms(entry["p50"]),
            f.ms(entry["p95"]),
            f"{f.ms(entry['to_worker_p50'])} / {f.ms(entry['to_worker_p95'])}",
        ]
        for name, entry in results["recompute"].items()
    ]


_SIMULATED = ("first-contentful-paint", "largest-contentful-paint", "speed-index")
_WHOLE_MS = ("total-blocking-time", OBSERVED_FCP)
"""What the Lighthouse table shows of each run: three times in seconds, two in milliseconds."""


def _scores(scores: Iterable[object]) -> str:
    """Lighthouse scores side by side, apart: in French, "92 100" would read as one number."""
    return " / ".join(map(str, scores))


def _lighthouse(results: dict[str, Any], f: Numbers) -> list[list[str]]:
    rows = []
    for entry in results["lighthouse"]:
        role, index = entry["role"], entry.get("benchmark_index")
        label = _code(entry["page"]) + ("" if role == "calculator" else f" ({f.words[role]})")
        metrics = [entry["metrics"].get(key) for key in (*_SIMULATED, *_WHOLE_MS)]
        rows.append(
            [
                label,
                *(str(entry["scores"].get(category, "—")) for category in CATEGORIES),
                *(f.unit(v / 1000, "s") if v is not None else "—" for v in metrics[:3]),
                *(f.unit(v, "ms", 0) if v is not None else "—" for v in metrics[3:]),
                "—" if index is None else f.count(index),
                _scores(entry.get("runs") or []) or "—",
            ]
        )
    return rows


def _build(results: dict[str, Any], f: Numbers) -> list[list[str]]:
    return [
        [
            f.ratio(build["factor"]),
            f.count(build["pages"]),
            f.unit(build["seconds"], "s"),
            f.ms(build["seconds"] * 1000 / build["pages"]),
        ]
        for build in results["scaling"]
    ]


_ROWS: dict[str, Callable[[dict[str, Any], Numbers], list[list[str]]]] = {
    "targets": _targets,
    "bytes": _bytes,
    "engine": _engine,
    "first-live": _first_live,
    "phases": _phases,
    "recompute": _recompute,
    "lighthouse": _lighthouse,
    "build": _build,
}


def _markdown(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table, its columns padded so that it also reads in a terminal."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, rows)])


def render(results: dict[str, Any], name: str, language: str) -> str:
    """The table ``name`` of a run, as Markdown in ``language``; else a :class:`PublishError`."""
    if name not in _ROWS:
        raise PublishError(f"no table {name!r}; tables: {', '.join(TABLES)}")
    f = Numbers(language)
    link = results.get("settings", {}).get("link") or {}
    header = translate(language, HEADERS[name]).format(megabits=f.number(link.get("megabits", 0)))
    try:
        return _markdown(header.split(" | "), _ROWS[name](results, f))
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise PublishError(f"the run lacks a measurement of the {name} table: {error!r}") from error


def load(path: Path) -> dict[str, Any]:
    """Read a run that can be published: a :class:`PublishError` says why another cannot."""
    try:
        results: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PublishError(f"{path}: {error}") from error
    if missing := [part for part in _REQUIRED if not results.get(part)]:
        raise PublishError(f"the run has no {', '.join(missing)}: publish a full run")
    visits = results.get("settings", {}).get("runs", 0)
    if visits < MIN_VISITS:
        raise PublishError(
            f"{visits} visits per page (a --quick run?); the page shows medians of "
            f"at least {MIN_VISITS}: publish a full run"
        )
    for name in TABLES:
        render(results, name, "en")
    return results


def expand(markdown: str, language: str, docs: Path = DOCS) -> str:
    """Replace each ``<!-- md:bench NAME -->`` line with that table of the published run."""
    if not _DIRECTIVE.search(markdown):
        return markdown
    results = load(docs / PUBLISHED)
    return _DIRECTIVE.sub(lambda match: render(results, match[1], language), markdown)
