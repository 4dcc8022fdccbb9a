"""The Performance page's tables: rendered from the published run, in each language."""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from bench.published import (
    DOCS,
    LANGUAGES,
    MIN_VISITS,
    PUBLISHED,
    TABLES,
    PublishError,
    main,
    page_path,
    publish,
    render,
    rewrite,
)


def published() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DOCS / PUBLISHED).read_text(encoding="utf-8"))
    return data


def marked_tables(text: str) -> dict[str, str]:
    found = re.findall(r"<!-- bench:([\w-]+) -->\n\n(.*?)\n\n<!-- /bench:\1 -->", text, re.S)
    return dict(found)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_table_on_the_page_is_the_published_run_rendered(language: str) -> None:
    on_page = marked_tables(page_path(language).read_text(encoding="utf-8"))
    assert list(on_page) == list(TABLES)
    assert on_page == render(published(), language)


def test_the_page_links_the_published_run_in_every_language() -> None:
    for language in LANGUAGES:
        assert "](assets/bench/results.json)" in page_path(language).read_text(encoding="utf-8")


def test_numbers_follow_each_languages_conventions() -> None:
    run = published()
    engine = {language: render(run, language)["engine"] for language in LANGUAGES}
    wasm = {
        language: next(row for row in table.splitlines() if "wasm" in row)
        for language, table in engine.items()
    }
    assert wasm["en"] == "| `pyodide.asm.wasm` | 9,598.2 kB | 3,546.1 kB |"
    # CLDR: a narrow no-break space groups French digits; a no-break space holds the unit.
    assert wasm["fr"] == "| `pyodide.asm.wasm` | 9\u202f598,2\u00a0kB | 3\u202f546,1\u00a0kB |"
    assert wasm["it"] == "| `pyodide.asm.wasm` | 9.598,2 kB | 3.546,1 kB |"


def test_each_table_has_as_many_cells_per_row_as_headers() -> None:
    for language in LANGUAGES:
        for name, table in render(published(), language).items():
            widths = {row.count(" | ") for row in table.splitlines() if not row.startswith("|-")}
            assert len(widths) == 1, (language, name)


def test_the_floor_reads_one_and_a_page_its_ratio_with_interval() -> None:
    run = published()
    rows = render(run, "en")["first-live"].splitlines()
    assert rows[2].startswith("| floor (bare Pyodide) |")
    assert " | 1.00× | " in rows[2]
    page = next(iter(name for name in run["first_live"] if name != "floor"))
    entry = run["first_live"][page]
    low, high = entry["cold_ratio_interval"]
    assert f"{entry['cold_ratio']:.2f}× ({low:.2f}–{high:.2f})" in rows[3]


def test_a_run_without_lighthouse_cannot_be_published() -> None:
    run = published()
    del run["lighthouse"]
    with pytest.raises(PublishError, match="lighthouse"):
        render(run, "en")


def test_a_quick_run_cannot_be_published() -> None:
    run = copy.deepcopy(published())
    run["settings"]["runs"] = MIN_VISITS - 2
    with pytest.raises(PublishError, match="--quick"):
        render(run, "it")


def test_a_run_missing_a_measurement_names_it() -> None:
    run = copy.deepcopy(published())
    for entry in run["recompute"].values():
        del entry["p95"]
    with pytest.raises(PublishError, match="p95"):
        render(run, "fr")


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(PublishError, match="de"):
        render(published(), "de")


def test_rewrite_replaces_only_between_the_markers() -> None:
    text = "before\n\n<!-- bench:build -->\n\n| old |\n\n<!-- /bench:build -->\n\nafter"
    assert rewrite(text, {"build": "| new |"}) == text.replace("| old |", "| new |")


@pytest.mark.parametrize("count", [0, 2])
def test_rewrite_wants_each_table_marked_exactly_once(count: int) -> None:
    text = "<!-- bench:build -->\n\n| old |\n\n<!-- /bench:build -->\n\n" * count
    with pytest.raises(PublishError, match=f"found {count}"):
        rewrite(text, {"build": "| new |"})


def copy_pages(docs: Path) -> None:
    for language in LANGUAGES:
        shutil.copyfile(page_path(language), page_path(language, docs))


def test_publishing_copies_the_run_and_rewrites_the_three_pages(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    copy_pages(docs)
    run = published()
    run["recompute"][next(iter(run["recompute"]))]["p95"] = 12.34
    results = tmp_path / "results.json"
    results.write_text(json.dumps(run), encoding="utf-8")

    written = publish(results, docs)

    assert written[0] == docs / PUBLISHED
    assert json.loads((docs / PUBLISHED).read_text(encoding="utf-8")) == run
    for language in LANGUAGES:
        text = page_path(language, docs).read_text(encoding="utf-8")
        assert marked_tables(text) == render(run, language)
    assert "| 12.3 ms |" in page_path("en", docs).read_text(encoding="utf-8")
    assert "| 12,3\u00a0ms |" in page_path("fr", docs).read_text(encoding="utf-8")


def test_a_failed_publication_changes_no_file(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    copy_pages(docs)
    italian = page_path("it", docs)
    italian.write_text(italian.read_text(encoding="utf-8").replace("<!-- bench:build -->", ""))
    before = {language: page_path(language, docs).read_bytes() for language in LANGUAGES}
    results = tmp_path / "results.json"
    results.write_text(json.dumps(published()), encoding="utf-8")

    with pytest.raises(PublishError, match="bench:build"):
        publish(results, docs)

    assert {language: page_path(language, docs).read_bytes() for language in LANGUAGES} == before
    assert not (docs / PUBLISHED).exists()


def test_the_command_reports_an_unreadable_run_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "missing.json")]) == 1
    assert "missing.json" in capsys.readouterr().err
    skipped = tmp_path / "skipped.json"
    skipped.write_text(json.dumps({**published(), "scaling": []}), encoding="utf-8")
    assert main([str(skipped)]) == 1
    assert "scaling" in capsys.readouterr().err
