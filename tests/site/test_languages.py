"""One list of languages: the message catalogs', which the i18n plugin's must match."""

from __future__ import annotations

import re

import pytest
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
