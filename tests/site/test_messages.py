"""Every word the site shows is in every language's catalog, and the catalogs hold nothing else.

The catalogs are ``overrides/locales/<lang>/LC_MESSAGES/messages.po``, merged from the
template ``overrides/locales/messages.pot`` that ``python -m calcsite.catalogs extract``
writes from the declarations and word lists.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from calcsite import catalogs
from calcsite.messages import (
    CATALOGS,
    LANGUAGES,
    SOURCE,
    UI,
    CatalogError,
    catalog_path,
    placeholders,
    read_catalog,
    translate,
)

from calculator import CALCULATORS, Choice

TRANSLATED = LANGUAGES[1:]
"""Every language but the source, English."""


def declared_texts() -> set[str]:
    """The English of the declarations that the site shows.

    Titles, modes, legends, labels and units; what a number field names in its
    hint (a limit, a rule); a choice's options and its help, which is its hint; the
    titles of tables, and the label and help of lists of presets.
    """
    texts: set[str] = set()
    for calculator in CALCULATORS.values():
        texts.add(calculator.title)
        for mode in calculator.modes:
            texts.add(mode.label)
            texts.update(legend for legend, _ in mode.groups)
            for field in mode.inputs:
                if isinstance(field, Choice):
                    texts.update({field.label, field.help} | {o.label for o in field.options})
                else:
                    texts.update({field.label, field.unit, field.limit, field.rule})
            for output in mode.outputs:
                texts.update({output.label, output.unit})
            # A table's columns are fields and outputs, counted above or in the other mode.
            texts.update(table.label for table in mode.tables)
            # A preset's own label is a product's or a model's name, the same in every
            # language; the list's label and help are words.
            for presets in mode.presets:
                texts.update({presets.label, presets.help})
    return texts - {""}


def read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, abort_invalid=True)


def test_the_template_is_up_to_date_with_the_declarations_and_word_lists() -> None:
    """``python -m calcsite.catalogs extract`` would write the template as it is."""
    assert catalogs.entries(read(catalogs.TEMPLATE)) == catalogs.entries(catalogs.template())


def test_the_template_holds_every_declared_text_and_every_widget_word() -> None:
    english = set(catalogs.english())
    assert sorted(declared_texts() - english) == []
    assert sorted(set(UI.values()) - english) == []


def test_the_languages_are_english_then_each_catalog_alphabetically() -> None:
    assert LANGUAGES[0] == SOURCE == "en"
    assert list(TRANSLATED) == sorted(TRANSLATED)
    assert all(catalog_path(language).is_file() for language in TRANSLATED)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_declared_label_unit_option_and_legend_is_translated(language: str) -> None:
    missing = sorted(text for text in declared_texts() if text not in CATALOGS[language])
    assert missing == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_text_of_the_template_is_translated(language: str) -> None:
    """An empty entry, or a fuzzy one (``update`` guessed it from an old text), is missing."""
    missing = sorted(text for text in catalogs.english() if text not in CATALOGS[language])
    assert missing == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalog_entry_outlives_its_english(language: str) -> None:
    """A text reworded at its source leaves no translation of its old wording behind."""
    catalog = read(catalog_path(language))
    extra = sorted({m.id for m in catalog if m.id} - set(catalogs.english()))
    assert extra == []
    assert list(catalog.obsolete) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_keeps_the_placeholders_of_its_english(language: str) -> None:
    for english, translated in CATALOGS[language].items():
        assert placeholders(translated) == placeholders(english), english


def test_a_catalog_leaves_out_empty_and_fuzzy_entries_and_refuses_other_placeholders(
    tmp_path: Path,
) -> None:
    path = tmp_path / "messages.po"
    path.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Results"\nmsgstr "Résultats"\n\n'
        'msgid "Devices"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Device"\nmsgstr "Accélérateurs"\n',
        encoding="utf-8",
    )
    assert dict(read_catalog(path)) == {"Results": "Résultats"}
    path.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Enter {bound} or more."\nmsgstr "Saisissez au moins {borne}."\n',
        encoding="utf-8",
    )
    with pytest.raises(CatalogError, match=r"messages\.po:4: .*\['borne'\], not \['bound'\]"):
        read_catalog(path)


def test_english_is_its_own_translation_and_unknown_text_is_an_error() -> None:
    assert translate("en", "Devices") == "Devices"
    with pytest.raises(KeyError):
        translate("fr", "No such text")
