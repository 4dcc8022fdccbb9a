"""The Performance page's tables, rendered at build time from the published run in each language.

They are rendered by :mod:`calcsite.performance`, which the MkDocs hook
``overrides/hooks/performance.py`` calls; the build imports nothing of the
benchmark (``bench/``), which only writes and publishes runs.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from calcsite.messages import LANGUAGES
from calcsite.performance import (
    DOCS,
    MIN_VISITS,
    PUBLISHED,
    TABLES,
    PublishError,
    expand,
    load,
    render,
    targets,
)
from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parents[2]
HOOK = ROOT / "overrides" / "hooks" / "performance.py"

PAGES = {"en": "performance.md", "fr": "performance.fr.md", "it": "performance.it.md"}


def published() -> dict[str, Any]:
    return load(DOCS / PUBLISHED)


def cells(table: str, first: str) -> list[str]:
    """The cells of the row of ``table`` whose first cell is ``first``."""
    for row in table.splitlines():
        found = [cell.strip() for cell in row.strip("|").split("|")]
        if found[0] == first:
            return found
    raise AssertionError(f"no row {first!r} in\n{table}")


def write_run(folder: Path, run: dict[str, Any]) -> Path:
    path = folder / "results.json"
    path.write_text(json.dumps(run), encoding="utf-8")
    return path


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_page_places_every_table_once_in_order_and_links_the_run(language: str) -> None:
    text = (DOCS / PAGES[language]).read_text(encoding="utf-8")
    assert re.findall(r"^<!-- md:bench (\S+) -->$", text, re.MULTILINE) == list(TABLES)
    assert "](assets/bench/results.json)" in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_table_shows_pass_or_miss_and_every_row_is_as_wide_as_its_header(
    language: str,
) -> None:
    for name in TABLES:
        table = render(published(), name, language)
        assert "PASS" not in table
        assert "MISS" not in table
        widths = {row.count(" | ") for row in table.splitlines()}
        assert len(widths) == 1, (language, name)


def test_numbers_are_written_by_the_calculator_pages_formatter() -> None:
    run = published()
    engine = {language: render(run, "engine", language) for language in LANGUAGES}
    wasm = {language: cells(table, "`pyodide.asm.wasm`") for language, table in engine.items()}
    assert wasm["en"][1:] == ["9,598.2\u00a0kB", "3,546.1\u00a0kB"]
    # CLDR: a narrow no-break space groups French digits, and French writes ko.
    assert wasm["fr"][1:] == ["9\u202f598,2\u00a0ko", "3\u202f546,1\u00a0ko"]
    # Italian groups digits from five on, as the calculators' results do.
    assert wasm["it"][1:] == ["9598,2\u00a0kB", "3546,1\u00a0kB"]
    # A four-digit figure, whatever the published run measured.
    report = next(r for r in run["lighthouse"] if r["page"] == "effective-batch-size/")
    report["benchmark_index"] = 2687.0
    lighthouse = {language: render(run, "lighthouse", language) for language in LANGUAGES}
    index = {
        language: cells(table, "`effective-batch-size/`")[10]
        for language, table in lighthouse.items()
    }
    assert index == {"en": "2,687", "fr": "2\u202f687", "it": "2687"}
    # Each run's score apart: "92 100" would read as one number in French.
    report["runs"] = [92, 100, 98]
    runs = {
        language: cells(render(run, "lighthouse", language), "`effective-batch-size/`")[11]
        for language in LANGUAGES
    }
    assert runs == dict.fromkeys(LANGUAGES, "92 / 100 / 98")


def test_the_floor_reads_one_and_a_page_its_ratio_with_its_interval() -> None:
    run = published()
    table = render(run, "first-live", "en")
    assert cells(table, "floor (bare Pyodide)")[2] == "1×"
    page = next(name for name in run["first_live"] if name != "floor")
    entry = run["first_live"][page]
    entry.update(cold_ratio=1.201, cold_ratio_interval=[1.04, 1.225])
    ratio = cells(render(run, "first-live", "fr"), f"`{page}`")[2]
    assert ratio == "1,2× (1,04–1,23)"  # rounded half up, trailing zeros dropped


@pytest.mark.parametrize(
    ("language", "met", "not_met"),
    [
        ("en", "met", "not met"),
        ("fr", "atteint", "non atteint"),
        ("it", "raggiunto", "non raggiunto"),
    ],
)
def test_targets_say_in_words_where_each_figure_stands(
    language: str, met: str, not_met: str
) -> None:
    run = published()
    rows = render(run, "targets", language).splitlines()[2:]
    statuses = [row.strip("|").split("|")[-1].strip() for row in rows]
    found = targets(run)
    assert len(statuses) == len(found) >= 10
    assert set(statuses) <= {met, not_met}
    assert statuses.count(not_met) == sum(not holds for _, _, holds in found)


def test_a_run_without_lighthouse_cannot_be_shown(tmp_path: Path) -> None:
    run = published()
    del run["lighthouse"]
    with pytest.raises(PublishError, match="lighthouse"):
        load(write_run(tmp_path, run))


def test_a_quick_run_cannot_be_shown(tmp_path: Path) -> None:
    run = published()
    run["settings"]["runs"] = MIN_VISITS - 2
    with pytest.raises(PublishError, match="--quick"):
        load(write_run(tmp_path, run))


def test_a_run_missing_a_measurement_names_it(tmp_path: Path) -> None:
    run = copy.deepcopy(published())
    for entry in run["recompute"].values():
        del entry["p95"]
    with pytest.raises(PublishError, match="p95"):
        load(write_run(tmp_path, run))


@pytest.mark.parametrize(("name", "language"), [("bytes", "de"), ("speed", "en")])
def test_an_unknown_language_or_table_is_refused(name: str, language: str) -> None:
    with pytest.raises(PublishError, match=f"{language if name == 'bytes' else name}"):
        render(published(), name, language)


def test_the_directive_becomes_the_table_and_nothing_else_changes() -> None:
    text = "Before.\n\n<!-- md:bench build -->\n\nAfter: `<!-- md:bench build -->` stays.\n"
    expanded = expand(text, "it")
    assert expanded == text.replace(
        "<!-- md:bench build -->\n", render(published(), "build", "it") + "\n", 1
    )


def test_a_page_without_the_directive_does_not_read_the_run(tmp_path: Path) -> None:
    assert expand("No table here.\n", "en", tmp_path / "nowhere") == "No table here.\n"


def test_the_build_refuses_a_partial_run(tmp_path: Path) -> None:
    (tmp_path / PUBLISHED).parent.mkdir(parents=True)
    write_run((tmp_path / PUBLISHED).parent, {**published(), "scaling": []})
    with pytest.raises(PublishError, match="scaling"):
        expand("<!-- md:bench targets -->\n", "fr", tmp_path)


def load_hook() -> Any:
    spec = importlib.util.spec_from_file_location("performance_hook", HOOK)
    assert spec is not None
    assert spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    return hook


def test_the_hook_renders_in_the_builds_language_and_fails_the_build_with_the_page(
    tmp_path: Path,
) -> None:
    hook = load_hook()
    page = SimpleNamespace(file=SimpleNamespace(src_uri="performance.fr.md"))
    config = SimpleNamespace(theme={"language": "fr"}, docs_dir=str(DOCS))
    shown = hook.on_page_markdown("<!-- md:bench engine -->", page=page, config=config)
    assert shown == render(published(), "engine", "fr")
    config.docs_dir = str(tmp_path)
    with pytest.raises(PluginError, match=r"performance\.fr\.md: .*results\.json"):
        hook.on_page_markdown("<!-- md:bench engine -->", page=page, config=config)


def test_the_build_does_not_import_the_benchmark() -> None:
    """The hook, loaded as MkDocs loads it (by path, its folder on the path), imports no ``bench``.

    A fresh interpreter, so that nothing the tests imported stands in for the hook's
    own imports; ``bench`` is importable there (the project's root is on the path), as
    it is when ``./dev build`` runs MkDocs, so only the hook's imports keep it out.
    """
    script = (
        "import importlib.util, sys\n"
        f"sys.path.insert(0, {str(HOOK.parent)!r})\n"
        f"spec = importlib.util.spec_from_file_location('performance', {str(HOOK)!r})\n"
        "hook = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(hook)\n"
        "assert 'calcsite.performance' in sys.modules\n"
        "found = sorted(m for m in sys.modules if m == 'bench' or m.startswith('bench.'))\n"
        "assert not found, found\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT / "overrides",
        env={**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_every_language_of_the_site_has_the_tables_words() -> None:
    """The site's one list of languages; a language without its words fails here."""
    for language in LANGUAGES:
        assert render(published(), "targets", language)
