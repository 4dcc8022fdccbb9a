"""Every word a widget shows exists in every language."""

from __future__ import annotations

import pytest
from calcsite.messages import CATALOGS, UI, translate

from calculator import CALCULATORS, Input, Output


def declared_texts() -> set[str]:
    texts: set[str] = set()
    for calculator in CALCULATORS.values():
        texts.add(calculator.title)
        for mode in calculator.modes:
            texts.add(mode.label)
            texts.update(legend for legend, _ in mode.groups)
            items: tuple[Input | Output, ...] = (*mode.inputs, *mode.outputs)
            for item in items:
                texts.update({item.label, item.unit} - {""})
    return texts


@pytest.mark.parametrize("language", sorted(set(CATALOGS) - {"en"}))
def test_every_declared_label_unit_and_legend_is_translated(language: str) -> None:
    missing = sorted(text for text in declared_texts() if text not in CATALOGS[language])
    assert missing == []


@pytest.mark.parametrize("language", sorted(set(CATALOGS) - {"en"}))
def test_every_widget_string_is_translated_and_keeps_its_placeholder(language: str) -> None:
    for english in UI.values():
        translated = translate(language, english)
        assert ("{bound}" in translated) == ("{bound}" in english)


def test_english_is_its_own_translation_and_unknown_text_is_an_error() -> None:
    assert translate("en", "Devices") == "Devices"
    with pytest.raises(KeyError):
        translate("fr", "No such text")
