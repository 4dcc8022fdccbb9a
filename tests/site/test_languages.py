"""One list of languages: the message catalogs', which the i18n plugin's must match.

The plugin's entry of each language repeats the catalog's translations of the site's
name, description, copyright and navigation titles (MkDocs reads them from ``mkdocs.yml``
before any hook runs): a test keeps the two equal.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from calcsite.catalogs import SITE_KEYS, mkdocs_config, nav_titles
from calcsite.messages import CATALOGS, LANGUAGES, translate, tree

from calculator import CALCULATORS

from .conftest import ROOT
from .test_parity import languages


def test_the_site_builds_exactly_the_languages_of_the_catalogs_default_first() -> None:
    default, others = languages()
    assert (default, *others) == LANGUAGES
    assert set(CATALOGS) == set(LANGUAGES)


def test_each_language_has_its_tree_the_default_at_the_root() -> None:
    assert tree(LANGUAGES[0]) == ""
    assert [tree(language) for language in LANGUAGES[1:]] == [f"{x}/" for x in LANGUAGES[1:]]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", CALCULATORS)
def test_a_calculators_page_title_is_its_title_in_the_catalog(slug: str, language: str) -> None:
    """One title per language: nav and page take it from the page, the form from the catalog."""
    suffix = "" if language == LANGUAGES[0] else f".{language}"
    text = (ROOT / "docs" / f"{slug}{suffix}.md").read_text(encoding="utf-8")
    front = re.search(r"^title: *\"?(.*?)\"?$", text, re.MULTILINE)
    heading = re.search(r"^# (.*?)(?: \{.*\})?$", text, re.MULTILINE)
    expected = translate(language, CALCULATORS[slug].title)
    assert front is not None
    assert heading is not None
    assert (front[1], heading[1]) == (expected, expected)


def nav_pages(items: list[Any]) -> list[str]:
    """The pages ``mkdocs.yml``'s ``nav`` lists, titled or not, at any depth."""
    found: list[str] = []
    for item in items:
        values = item.values() if isinstance(item, dict) else [item]
        for value in values:
            found += nav_pages(value) if isinstance(value, list) else [value]
    return found


@pytest.mark.parametrize("slug", CALCULATORS)
def test_every_calculator_is_in_the_navigation(slug: str) -> None:
    """A page left out of ``nav`` is built all the same, unlinked: no build warns of it."""
    assert f"{slug}.md" in nav_pages(mkdocs_config()["nav"])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", CALCULATORS)
def test_every_calculator_has_a_card_on_each_home_page(slug: str, language: str) -> None:
    """The home page's grid of cards introduces every calculator, in every language."""
    suffix = "" if language == LANGUAGES[0] else f".{language}"
    home = (ROOT / "docs" / f"index{suffix}.md").read_text(encoding="utf-8")
    grid = home[home.index('<div class="grid cards"') :]
    grid = grid[: grid.index("</div>")]
    title = re.escape(translate(language, CALCULATORS[slug].title))
    assert re.search(rf"^-   \*\*\[{title}\]\({slug}\.md\)\*\*$", grid, re.MULTILINE), (
        f"docs/index{suffix}.md: no card for {slug}"
    )


def i18n_entries() -> dict[str, dict[str, Any]]:
    """The i18n plugin's entry of each language in ``mkdocs.yml``, by locale."""
    config = mkdocs_config()
    plugin = next(p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p)
    return {entry["locale"]: entry for entry in plugin["languages"]}


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_the_i18n_plugin_names_the_site_and_its_navigation_as_the_catalog_does(
    language: str,
) -> None:
    config, entry = mkdocs_config(), i18n_entries()[language]
    assert {key: entry.get(key) for key in SITE_KEYS} == {
        key: translate(language, config[key]) for key in SITE_KEYS
    }
    assert entry["nav_translations"] == {
        title: translate(language, title) for title in nav_titles(config["nav"])
    }
