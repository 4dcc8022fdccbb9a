"""The Performance page's result tables, rendered from a benchmark run's ``results.json``.

``python -m bench.published [RESULTS]`` (``./dev publish``) copies a run's
results to ``docs/assets/bench/results.json``, where readers can download every
single measurement, and rewrites the seven result tables of
``docs/performance.md`` and its translations from them. Each table sits between
``<!-- bench:NAME -->`` and ``<!-- /bench:NAME -->``; the prose around the
tables, which comments on the numbers, stays the author's. A test renders the
tables again from the published JSON and compares them with the pages, so a
table cannot drift from the run it claims to show.

Numbers are formatted with Babel's CLDR data for each language, as the
calculators' pre-rendered results are.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal

__all__ = [
    "LANGUAGES",
    "MIN_VISITS",
    "PUBLISHED",
    "TABLES",
    "PublishError",
    "main",
    "page_path",
    "publish",
    "render",
    "rewrite",
]

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PUBLISHED = Path("assets") / "bench" / "results.json"
"""Where the run shown on the Performance page is published, relative to the docs."""

LANGUAGES = ("en", "fr", "it")
TABLES = ("bytes", "engine", "first-live", "phases", "recompute", "lighthouse", "build")
"""The tables' names, in the order in which the page shows them."""

_UNIT_SPACE = {"en": " ", "fr": "\u00a0", "it": " "}
"""French typography keeps a number and its unit together."""

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "floor": "floor (bare Pyodide)",
        "control floor": "floor",
        "control home": "home, no calculator",
        "cold": "cold",
        "warm": "warm",
        "total": "total",
    },
    "fr": {
        "floor": "plancher (Pyodide seul)",
        "control floor": "plancher",
        "control home": "accueil, sans calculateur",
        "cold": "à froid",
        "warm": "à chaud",
        "total": "total",
    },
    "it": {
        "floor": "limite (solo Pyodide)",
        "control floor": "limite",
        "control home": "home, senza calcolatore",
        "cold": "a freddo",
        "warm": "a caldo",
        "total": "totale",
    },
}

_HEADERS: dict[str, dict[str, str]] = {
    "en": {
        "bytes": "Page | HTML | CSS | JS | HTML + CSS + JS | Other",
        "engine": "File | Raw | gzip",
        "first-live": "Page | Cold | ÷ floor | Warm | ÷ floor | First paint (cold)",
        "phases": "Page | Worker created | Pyodide boot | Wheel, import, result",
        "recompute": "Page | Input | Changes | p50 | p95 | Before the worker (p50 / p95)",
        "lighthouse": "Page | Perf. | Access. | Best pr. | SEO | FCP | LCP | SI | TBT"
        " | First paint seen | CPU | Perf. of each run",
        "build": "Pages × | Pages built | Build | Per page",
    },
    "fr": {
        "bytes": "Page | HTML | CSS | JS | HTML + CSS + JS | Autres",
        "engine": "Fichier | Brut | gzip",
        "first-live": "Page | À froid | ÷ plancher | À chaud | ÷ plancher"
        " | Premier rendu (à froid)",
        "phases": "Page | Worker créé | Démarrage de Pyodide | Wheel, import, résultat",
        "recompute": "Page | Champ | Modifications | p50 | p95 | Avant le worker (p50 / p95)",
        "lighthouse": "Page | Perf. | Access. | Bonnes pr. | SEO | FCP | LCP | SI | TBT"
        " | Premier affichage observé | CPU | Perf. de chaque exécution",
        "build": "Pages × | Pages construites | Build | Par page",
    },
    "it": {
        "bytes": "Pagina | HTML | CSS | JS | HTML + CSS + JS | Altro",
        "engine": "File | Grezzo | gzip",
        "first-live": "Pagina | A freddo | ÷ limite | A caldo | ÷ limite"
        " | Primo rendering (a freddo)",
        "phases": "Pagina | Worker creato | Avvio di Pyodide | Wheel, import, risultato",
        "recompute": "Pagina | Campo | Modifiche | p50 | p95 | Prima del worker (p50 / p95)",
        "lighthouse": "Pagina | Prest. | Access. | Best pr. | SEO | FCP | LCP | SI | TBT"
        " | Primo rendering osservato | CPU | Prest. di ogni esecuzione",
        "build": "Pagine × | Pagine costruite | Build | Per pagina",
    },
}
"""Each table's header row, its cells separated as Markdown separates them."""


class PublishError(ValueError):
    """A results file or a page cannot be published: a table or a measurement is missing."""


class _Format:
    """Numbers and units in one language, with Babel's CLDR patterns."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.space = _UNIT_SPACE[language]

    def number(self, value: float, digits: int = 1) -> str:
        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        return str(format_decimal(round(value, digits), format=pattern, locale=self.language))

    def kb(self, size: float) -> str:
        return f"{self.number(size / 1000)}{self.space}kB"

    def mb(self, size: float) -> str:
        return f"{self.number(size / 1_000_000, 2)}{self.space}MB"

    def ms(self, value: float) -> str:
        # Three significant figures or so: 1,218 ms, 213 ms, 94.3 ms, 0.2 ms.
        return f"{self.number(value, 0 if value >= 100 else 1)}{self.space}ms"

    def seconds(self, value_ms: float) -> str:
        return f"{self.number(value_ms / 1000)}{self.space}s"

    def ratio(self, value: float) -> str:
        return f"{self.number(value, 2)}×"


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: str, rows: list[list[str]]) -> str:
    cells = header.split(" | ")
    lines = [_row(cells), "|" + "---|" * len(cells)]
    return "\n".join(lines + [_row(cells) for cells in rows])


def _code(text: str) -> str:
    return f"`{text}`"


def _bytes_rows(results: dict[str, Any], f: _Format) -> list[list[str]]:
    rows = []
    for path in sorted(results["pages"]):
        sizes = results["pages"][path]["bytes"]
        before, page = sizes["before"], sizes["page"]
        rows.append(
            [
                _code(path),
                f.kb(before["HTML"]["gzip"]),
                f.kb(before["CSS"]["gzip"]),
                f.kb(before["JS"]["gzip"]),
                f"**{f.kb(page['gzip'])}** ({f.kb(page['raw'])})",
                f.kb(before["other"]["gzip"]),
            ]
        )
    return rows


def _engine_rows(results: dict[str, Any], f: _Format) -> list[list[str]]:
    # Every page loads the same engine; the first page's inventory stands for all.
    sizes = results["pages"][sorted(results["pages"])[0]]["bytes"]
    rows = [
        [_code(name), f.kb(size["raw"]), f.kb(size["gzip"])]
        for name, size in sizes["engine"].items()
    ]
    total = sizes["engine_total"]
    word = _WORDS[f.language]["total"]
    rows.append([f"**{word}**", f"**{f.mb(total['raw'])}**", f"**{f.mb(total['gzip'])}**"])
    return rows


def _target_label(name: str, f: _Format) -> str:
    return _WORDS[f.language]["floor"] if name == "floor" else _code(name)


def _with_interval(entry: dict[str, Any], visit: str, f: _Format) -> str:
    if f"{visit}_ratio" not in entry:  # the floor, 1.00× by definition
        return f.ratio(1)
    low, high = entry[f"{visit}_ratio_interval"]
    return f"{f.ratio(entry[f'{visit}_ratio'])} ({f.number(low, 2)}–{f.number(high, 2)})"


def _first_live_rows(results: dict[str, Any], f: _Format) -> list[list[str]]:
    return [
        [
            _target_label(name, f),
            f.ms(entry["cold_median"]),
            _with_interval(entry, "cold", f),
            f.ms(entry["warm_median"]),
            _with_interval(entry, "warm", f),
            f.ms(entry["cold_fcp_median"]),
        ]
        for name, entry in results["first_live"].items()
    ]


def _phase_rows(results: dict[str, Any], f: _Format) -> list[list[str]]:
    rows = []
    for name, entry in results["first_live"].items():
        for visit in ("cold", "warm"):
            phases = entry[f"{visit}_phases"]
            rows.append(
                [
                    f"{_target_label(name, f)}, {_WORDS[f.language][visit]}",
                    f.ms(phases["worker_start"]),
                    f.ms(phases["runtime_boot"]),
                    f.ms(phases["after_boot"]),
                ]
            )
    return rows


def _recompute_rows(results: dict[str, Any], f: _Format) -> list[list[str]]:
    return [
        [
            _code(name),
            _code(entry["input"]),
            str(entry["changes"]),
            f.ms(entry["p50"]),
            f.ms(entry["p95"]),
            f"{f.ms(entry['to_worker_p50'])} / {f.ms(entry['to_worker_p95'])}",
        ]
        for name, entry in results["recompute"].items()
    ]


def _lighthouse_label(entry: dict[str, Any], f: _Format) -> str:
    role = entry["role"]
    if role == "calculator":
        return _code(entry["page"])
    if role == "control: floor":
        return f"{_code(entry['page'])} ({_WORDS[f.language]['control floor']})"
    return f"{_code('/')} ({_WORDS[f.language]['control home']})"


_SCORES = ("performance", "accessibility", "best-practices", "seo")
_REQUIRED = ("first_live", "recompute", "lighthouse", "scaling")
MIN_VISITS = 5
"""The issue's measure: each first-live time is a median of at least five visits."""
"""What a run skipped with ``--skip`` lacks; each of these has a table."""


def _lighthouse_rows(results: dict[str, Any], f: _Format) -> list[list[str]]:
    rows = []
    for entry in results["lighthouse"]:
        scores, metrics = entry["scores"], entry["metrics"]
        rows.append(
            [
                _lighthouse_label(entry, f),
                *(str(scores[category]) for category in _SCORES),
                f.seconds(metrics["first-contentful-paint"]),
                f.seconds(metrics["largest-contentful-paint"]),
                f.seconds(metrics["speed-index"]),
                f"{f.number(metrics['total-blocking-time'], 0)}{f.space}ms",
                f"{f.number(metrics['observed-first-contentful-paint'], 0)}{f.space}ms",
                f.number(entry["benchmark_index"], 0),
                " ".join(str(score) for score in entry.get("runs") or []),
            ]
        )
    return rows


def _build_rows(results: dict[str, Any], f: _Format) -> list[list[str]]:
    return [
        [
            f"{build['factor']}×",
            str(build["pages"]),
            f"{f.number(build['seconds'])}{f.space}s",
            f.ms(build["seconds"] * 1000 / build["pages"]),
        ]
        for build in results["scaling"]
    ]


_ROWS: dict[str, Callable[[dict[str, Any], _Format], list[list[str]]]] = {
    "bytes": _bytes_rows,
    "engine": _engine_rows,
    "first-live": _first_live_rows,
    "phases": _phase_rows,
    "recompute": _recompute_rows,
    "lighthouse": _lighthouse_rows,
    "build": _build_rows,
}


def render(results: dict[str, Any], language: str) -> dict[str, str]:
    """Return each result table of the Performance page as Markdown, by name.

    Args:
        results: A benchmark run, as ``python -m bench`` writes it.
        language: ``en``, ``fr`` or ``it``.

    Raises:
        PublishError: If the run lacks a part that a table shows (a run with
            ``--skip`` cannot be published), or has fewer than ``MIN_VISITS``
            visits per page (a ``--quick`` run).
    """
    if language not in LANGUAGES:
        raise PublishError(f"no tables in {language!r}; languages: {', '.join(LANGUAGES)}")
    missing = [part for part in _REQUIRED if not results.get(part)]
    if missing:
        raise PublishError(f"the run has no {', '.join(missing)}: publish a full run")
    visits = results.get("settings", {}).get("runs", 0)
    if visits < MIN_VISITS:
        raise PublishError(
            f"{visits} visits per page (a --quick run?); the page shows medians of "
            f"at least {MIN_VISITS}: publish a full run"
        )
    f = _Format(language)
    try:
        return {
            name: _table(_HEADERS[language][name], rows(results, f)) for name, rows in _ROWS.items()
        }
    except (KeyError, TypeError, ValueError) as error:
        raise PublishError(f"the results lack a measurement the tables show: {error!r}") from error


def _marked(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"(<!-- bench:{re.escape(name)} -->\n\n).*?(\n\n<!-- /bench:{re.escape(name)} -->)", re.S
    )


def _between(table: str) -> Callable[[re.Match[str]], str]:
    return lambda match: match[1] + table + match[2]


def rewrite(text: str, tables: dict[str, str]) -> str:
    """Return a page's Markdown ``text`` with each marked table replaced by ``tables``.

    Raises:
        PublishError: If a table's markers are missing or appear more than once.
    """
    for name, table in tables.items():
        # A function, not a replacement string: a table's backslashes stay as they are.
        text, count = _marked(name).subn(_between(table), text)
        if count != 1:
            raise PublishError(f"expected one <!-- bench:{name} --> table, found {count}")
    return text


def page_path(language: str, docs: Path = DOCS) -> Path:
    """Return the Markdown file of the Performance page in ``language``."""
    return docs / ("performance.md" if language == "en" else f"performance.{language}.md")


def publish(results_file: Path, docs: Path = DOCS) -> list[Path]:
    """Publish ``results_file``: copy it under ``docs`` and rewrite every page's tables.

    Every page is rendered before any file is written, so a failure leaves the
    docs as they were. Returns the files written.

    Raises:
        PublishError: If the run or a page cannot be published.
    """
    results = json.loads(results_file.read_text(encoding="utf-8"))
    pages = {}
    for language in LANGUAGES:
        path = page_path(language, docs)
        pages[path] = rewrite(path.read_text(encoding="utf-8"), render(results, language))
    published = docs / PUBLISHED
    if results_file.resolve() != published.resolve():
        published.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(results_file, published)
    for path, text in pages.items():
        path.write_text(text, encoding="utf-8")
    return [published, *pages]


def main(argv: list[str] | None = None) -> int:
    """Publish a run (default ``.bench/results.json``); print what was written."""
    args = sys.argv[1:] if argv is None else argv
    results_file = Path(args[0]) if args else ROOT / ".bench" / "results.json"
    try:
        written = publish(results_file)
    except (OSError, json.JSONDecodeError, PublishError) as error:
        print(f"bench.published: {error}", file=sys.stderr)
        return 1
    for path in written:
        print(path.relative_to(ROOT))
    print("Update the prose around the tables (dates, ranges, verdicts) by hand.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
