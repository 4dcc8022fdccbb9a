"""One list of languages: the message catalogs', which the i18n plugin's must match."""

from __future__ import annotations

from calcsite.messages import CATALOGS, LANGUAGES, tree

from .test_parity import languages


def test_the_site_builds_exactly_the_languages_of_the_catalogs_default_first() -> None:
    default, others = languages()
    assert (default, *others) == LANGUAGES
    assert set(CATALOGS) == set(LANGUAGES)


def test_each_language_has_its_tree_the_default_at_the_root() -> None:
    assert tree(LANGUAGES[0]) == ""
    assert [tree(language) for language in LANGUAGES[1:]] == [f"{x}/" for x in LANGUAGES[1:]]
