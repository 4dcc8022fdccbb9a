"""One search index per language, cut from mkdocs-static-i18n's merged index."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from calcsite.compile_hints import theme_bundle
from calcsite.messages import LANGUAGES, tree
from calcsite.search import (
    EAGER,
    EAGER_WORKER,
    INDEX,
    ON_FIRST_SEARCH,
    WORKER_ON_FIRST_SEARCH,
    SearchError,
    index_on_first_search,
    language_roots,
    split_index,
    worker_on_first_search,
    write_split_index,
)

from calculator import CALCULATORS

ROOTS = {"en": "", "fr": "fr/", "it": "it/"}
DOCS = [
    {"location": "", "title": "Home", "text": "a"},
    {"location": "pipeline-bubble/#bubble", "title": "Bubble", "text": "b"},
    {"location": "fr/", "title": "Accueil", "text": "c"},
    {"location": "fr/pipeline-bubble/", "title": "Bulle", "text": "d"},
    {"location": "it/pipeline-bubble/#bolla", "title": "Bolla", "text": "e"},
    {"location": "french-fries/", "title": "Not French", "text": "f"},
]
MERGED = {"config": {"lang": ["en", "fr", "it"], "separator": "[\\s\\-]+"}, "docs": DOCS}
"""mkdocs-static-i18n's merged index of a three-language site (``DOCS``, its pages)."""


def test_each_language_gets_its_pages_relative_to_its_root_and_its_stemmer_only() -> None:
    parts = split_index(MERGED, ROOTS)
    assert {lang: part["config"]["lang"] for lang, part in parts.items()} == {
        "en": ["en"],
        "fr": ["fr"],
        "it": ["it"],
    }
    assert all(part["config"]["separator"] == "[\\s\\-]+" for part in parts.values())
    locations = {lang: [doc["location"] for doc in part["docs"]] for lang, part in parts.items()}
    assert locations == {
        "en": ["", "pipeline-bubble/#bubble", "french-fries/"],
        "fr": ["", "pipeline-bubble/"],
        "it": ["pipeline-bubble/#bolla"],
    }
    assert DOCS[2]["location"] == "fr/"  # the input is left as it was


def test_language_roots_come_from_the_language_links_under_any_site_path() -> None:
    links = [
        {"name": "English", "link": "/repo/", "lang": "en"},
        {"name": "Français", "link": "/repo/fr/", "lang": "fr"},
        {"name": "Italiano", "link": "/repo/it/index.html", "lang": "it"},
        {"name": "Elsewhere", "link": "https://example.org/de/", "lang": "de"},
    ]
    assert language_roots(links, "/repo/") == ROOTS
    assert language_roots([{"link": "/", "lang": "en"}, {"link": "/fr/", "lang": "fr"}], "") == {
        "en": "",
        "fr": "fr/",
    }


def test_writing_the_split_twice_changes_nothing_the_second_time(tmp_path: Path) -> None:
    assert not write_split_index(tmp_path, ROOTS)  # no index yet
    (tmp_path / INDEX).parent.mkdir(parents=True)
    (tmp_path / INDEX).write_text(json.dumps(MERGED), encoding="utf-8")
    assert write_split_index(tmp_path, ROOTS)
    written = _indexes(tmp_path)
    assert not write_split_index(tmp_path, ROOTS)
    assert _indexes(tmp_path) == written
    assert json.loads(written["it"])["docs"][0]["title"] == "Bolla"


def _indexes(site: Path) -> dict[str, str]:
    return {lang: (site / root / INDEX).read_text(encoding="utf-8") for lang, root in ROOTS.items()}


def _pages_with(site: Path, language: str, word: str) -> set[str]:
    index = json.loads((site / tree(language) / "search" / "search_index.json").read_text())
    return {
        doc["location"].split("#")[0]
        for doc in index["docs"]
        if re.search(rf"\b{word}s?\b", doc["title"] + " " + doc["text"])
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_readers_call_their_hardware_is_found(site: Path, language: str) -> None:
    """The prose says accelerator or device; readers search for GPU (and TPU)."""
    assert {f"{slug}/" for slug in CALCULATORS} <= _pages_with(site, language, "GPU")
    assert "" in _pages_with(site, language, "TPU"), "the home page's glossary names TPUs"


@dataclass(frozen=True)
class Rewrite:
    """One of the bundle's rewrites, and a bundle to try it on."""

    rewrite: Callable[[Path], bool]
    around: str
    """Material's text around the string; ``@`` stands for it."""
    eager: str
    lazy: str
    other: str
    """A bundle of another theme, without the string."""


REWRITES = [
    pytest.param(
        Rewrite(index_on_first_search, "a(@,b);", EAGER, ON_FIRST_SEARCH, "a(b);"), id="index"
    ),
    pytest.param(
        Rewrite(
            worker_on_first_search,
            "function Mn(e,t=@){}",
            EAGER_WORKER,
            WORKER_ON_FIRST_SEARCH,
            "function Mn(e,t=new Worker(n)){}",
        ),
        id="worker",
    ),
]


@pytest.mark.parametrize("case", REWRITES)
def test_the_bundle_waits_for_the_first_search_once_and_refuses_another_theme(
    tmp_path: Path, case: Rewrite
) -> None:
    bundle = tmp_path / "bundle.min.js"
    bundle.write_text(case.around.replace("@", case.eager), encoding="utf-8")
    assert case.rewrite(bundle)
    assert bundle.read_text(encoding="utf-8") == case.around.replace("@", case.lazy)
    assert not case.rewrite(bundle)
    assert len(case.lazy) == len(case.eager)  # the source map's columns hold
    for text in (case.other, f"{case.eager};{case.eager}"):
        bundle.write_text(text, encoding="utf-8")
        with pytest.raises(SearchError, match="expected"):
            case.rewrite(bundle)
        assert bundle.read_text(encoding="utf-8") == text  # refused: left as it was


def test_the_built_bundle_fetches_the_index_on_the_first_search(site: Path) -> None:
    text = theme_bundle(site).read_text(encoding="utf-8")
    assert EAGER not in text
    assert text.count(ON_FIRST_SEARCH) == 1


def test_the_built_bundle_constructs_the_stand_in_that_theme_start_defines(site: Path) -> None:
    text = theme_bundle(site).read_text(encoding="utf-8")
    assert EAGER_WORKER not in text
    assert text.count(WORKER_ON_FIRST_SEARCH) == 1
    name = WORKER_ON_FIRST_SEARCH.removeprefix("new ").removesuffix("(e)")
    start = (site / "assets" / "javascripts" / "theme-start.js").read_text(encoding="utf-8")
    # Minified or not (calcsite.minify), the site's script defines it.
    assert re.search(rf"\bwindow\.{name}\s*=\s*class extends EventTarget\b", start)
