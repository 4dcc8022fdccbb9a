"""Every word a widget shows exists in every language, and the catalogs hold nothing else."""

from __future__ import annotations

import pytest
from calcsite import planner_checks, runs
from calcsite.messages import CATALOGS, UI, translate

from calculator import CALCULATORS, Choice
from calculator.charts import WORDS
from calculator.spec import UNITS


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


def site_texts() -> set[str]:
    """Every English text the site translates: the declarations', the widget's, the charts'."""
    texts = declared_texts() | set(UI.values()) | set(UNITS) | set(UNITS.values())
    texts |= {*WORDS.values(), *runs.WORDS.values(), *runs.SAMPLES.values()}
    texts |= set(planner_checks.TEXTS)
    for published in runs.load():
        texts |= {published.precision, published.task}
    return texts - {""}


@pytest.mark.parametrize("language", sorted(set(CATALOGS) - {"en"}))
def test_every_declared_label_unit_option_and_legend_is_translated(language: str) -> None:
    missing = sorted(text for text in declared_texts() if text not in CATALOGS[language])
    assert missing == []


@pytest.mark.parametrize("language", sorted(set(CATALOGS) - {"en"}))
def test_no_catalog_entry_outlives_its_english(language: str) -> None:
    """A label reworded in the core leaves no translation of its old wording behind."""
    extra = sorted(set(CATALOGS[language]) - site_texts())
    assert extra == []


@pytest.mark.parametrize("language", sorted(set(CATALOGS) - {"en"}))
def test_every_widget_string_is_translated_and_keeps_its_placeholder(language: str) -> None:
    for english in UI.values():
        translated = translate(language, english)
        for placeholder in ("{bound}", "{value}", "{label}", "{other}"):
            assert (placeholder in translated) == (placeholder in english), english


def test_english_is_its_own_translation_and_unknown_text_is_an_error() -> None:
    assert translate("en", "Devices") == "Devices"
    with pytest.raises(KeyError):
        translate("fr", "No such text")
