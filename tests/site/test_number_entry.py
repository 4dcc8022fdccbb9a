"""Fields as each language's reader fills them: CLDR's symbols, hints in words, units in number.

The core reads a field with the symbols the build writes into the form
(Babel's CLDR data); the browser tests check that ``Intl`` agrees with them.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from babel.numbers import format_decimal
from calcsite.formatting import format_field, notation, plain, plural_category
from calcsite.messages import CATALOGS, UI, translate
from calcsite.widgets import (
    MESSAGE_KEYS,
    field_value,
    hint,
    option_label,
    unit_text,
    widget_context,
)
from hypothesis import given
from hypothesis import strategies as st

from calculator import CALCULATORS, Calculator, Choice, Input, Mode
from calculator.errors import ERRORS, NOTES, WARNINGS
from calculator.spec import UNITS

from .html import Document

LANGUAGES = tuple(CATALOGS)
EVERY_MODE = [
    pytest.param(calculator, mode, id=f"{calculator.slug}-{mode.name}")
    for calculator in CALCULATORS.values()
    for mode in calculator.modes
]
EVERY_CHOICE = [
    pytest.param(calculator, mode, spec, id=f"{calculator.slug}-{mode.name}-{spec.name}")
    for calculator in CALCULATORS.values()
    for mode in calculator.modes
    for spec in mode.inputs
    if isinstance(spec, Choice)
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_of_the_core_is_worded_in_every_language(language: str) -> None:
    codes = {*ERRORS, *WARNINGS, *NOTES}
    assert codes <= set(MESSAGE_KEYS)
    assert codes <= set(UI)
    for code in codes:
        assert translate(language, UI[code])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_unit_has_both_forms_in_every_language(language: str) -> None:
    for unit, singular in UNITS.items():
        assert translate(language, unit)
        assert translate(language, singular)


@pytest.mark.parametrize(
    ("language", "decimal", "group"),
    [("en", ".", ","), ("fr", ",", "\u202f"), ("it", ",", ".")],
)
def test_the_notation_is_cldrs(language: str, decimal: str, group: str) -> None:
    assert (notation(language).decimal, notation(language).group) == (decimal, group)
    assert format_decimal(Decimal("1234.5"), locale=language) == f"1{group}234{decimal}5"


@given(
    value=st.one_of(
        st.integers(min_value=-(10**15), max_value=10**15),
        st.floats(min_value=-1e15, max_value=1e15, allow_nan=False),
    ),
    language=st.sampled_from(LANGUAGES),
)
def test_a_field_value_reads_back_as_itself_and_never_two_ways(value: float, language: str) -> None:
    text = format_field(value, language)
    reading = notation(language).read(text)
    assert reading is not None
    assert reading[1] is None
    assert Decimal(reading[0]) == Decimal(plain(value))


@given(
    value=st.decimals(min_value=Decimal(-(10**12)), max_value=Decimal(10**12), places=3),
    language=st.sampled_from(LANGUAGES),
)
def test_a_number_formatted_for_a_language_reads_back_as_the_same_number(
    value: Decimal, language: str
) -> None:
    """What a reader copies from a result (grouped, CLDR) reads back as that number."""
    text = format_decimal(value, locale=language, decimal_quantization=False)
    reading = notation(language).read(text)
    assert reading is not None
    assert Decimal(reading[0]) == value


@pytest.mark.parametrize(("calculator", "mode"), EVERY_MODE)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_form_holds_text_fields_with_the_languages_symbols(
    calculator: Calculator, mode: Mode, language: str
) -> None:
    widget = widget_context(calculator, mode, language)
    assert json.loads(widget.notation) == json.loads(notation(language).as_json())
    for _, fields in widget.groups:
        for field in fields:
            assert field.value == field_value(field.spec, field.spec.default, language)
            assert field.hint == hint(field.spec, language)
            assert "≤" not in field.hint
            assert ">" not in field.hint


@pytest.mark.parametrize(
    ("language", "texts"),
    [
        ("en", ("A whole number from 1 to 10,000,000.", "A number greater than 0, up to 100.")),
        ("fr", ("Un nombre entier de 1 à 10\u202f000\u202f000.", "Un nombre supérieur à 0,")),
        ("it", ("Un numero intero da 1 a 10.000.000.", "Un numero maggiore di 0, fino a 100.")),
    ],
)
def test_hints_say_in_words_what_a_field_accepts(language: str, texts: tuple[str, ...]) -> None:
    calculator = CALCULATORS["data-parallel-scaling"]
    predict = calculator.mode("predict")
    assert hint(predict.input("devices"), language) == texts[0]
    assert hint(predict.input("efficiency"), language).startswith(texts[1])
    measured = calculator.mode("measure").input("measured")
    assert isinstance(measured, Input)
    assert translate(language, measured.limit) in hint(measured, language)
    sequence = CALCULATORS["effective-batch-size"].default_mode.input("sequence_length")
    assert hint(sequence, language).startswith(translate(language, UI["hint.optional"])[:5])


@pytest.mark.parametrize(
    ("shown", "language", "form"),
    [
        ("1", "en", "replica"),
        ("2", "en", "replicas"),
        ("0", "en", "replicas"),
        ("1", "fr", "réplique"),
        ("0", "fr", "réplique"),
        ("1.5", "fr", "réplique"),
        ("2", "fr", "répliques"),
        ("1000000", "fr", "répliques"),
        ("1", "it", "replica"),
        ("2", "it", "repliche"),
        ("1000000", "it", "repliche"),
        (None, "fr", "répliques"),
    ],
)
def test_units_follow_cldr_plural_rules(shown: str | None, language: str, form: str) -> None:
    assert unit_text("replicas", shown, language) == form


@pytest.mark.parametrize("language", LANGUAGES)
def test_only_one_and_other_forms_are_needed(language: str) -> None:
    samples = ["0", "1", "1.5", "2", "3", "11", "21", "100", "1000000", "0.5"]
    assert {plural_category(shown, language) for shown in samples} <= {"one", "other"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_built_forms_are_text_fields_with_notes_and_a_visible_copy_button(
    site: Path, language: str
) -> None:
    prefix = "" if language == "en" else f"{language}/"
    document = Document(
        (site / prefix / "effective-batch-size" / "index.html").read_text(encoding="utf-8")
    )
    forms = document.find_all("form", data_calc=True)
    assert forms
    fields = document.find_all("input", class_="calc__input")
    assert len(fields) == sum(
        isinstance(spec, Input)
        for mode in CALCULATORS["effective-batch-size"].modes
        for spec in mode.inputs
    )
    for field in fields:
        assert field.attrs["type"] == "text"
        assert field.attrs["inputmode"] in ("numeric", "decimal")
        assert not {"min", "max", "step"} & set(field.attrs)
        note_id = f"{field.attrs['id']}-note"
        assert note_id in field.attrs["aria-describedby"].split()
        assert document.find("p", id=note_id).attrs["data-note-for"] == field.attrs["name"]
    for form in forms:
        assert json.loads(form.attrs["data-notation"]) == json.loads(notation(language).as_json())
    buttons = document.find_all("button", data_action="copy-link")
    assert len(buttons) == len(forms)
    assert all("hidden" not in button.attrs for button in buttons)


@pytest.mark.parametrize(("calculator", "mode", "spec"), EVERY_CHOICE)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_built_choice_is_a_list_of_its_options_in_the_pages_language(
    site: Path, language: str, calculator: Calculator, mode: Mode, spec: Choice
) -> None:
    """Option values are the same words on every page; their labels are the page's language.

    The default is selected; like a text field, the list has a label, its hint
    (the choice's help) and its error line; unlike one, no unit and no note.
    """
    prefix = "" if language == "en" else f"{language}/"
    html = (site / prefix / calculator.slug / "index.html").read_text(encoding="utf-8")
    # The form's start tag up to its id, whatever modifier classes it carries.
    ident = f' id="calc-{calculator.slug}-{mode.name}"'
    end = html.index(ident) + len(ident)
    form = _part(html, html[html.rindex("<form", 0, end) : end], "</form>")
    document = Document(form)
    select = document.find("select", name=spec.name)
    assert select.attrs["class"] == "calc__select"
    options = Document(_part(form, f'name="{spec.name}"', "</select>")).find_all("option")
    assert [option.attrs["value"] for option in options] == list(spec.values)
    assert [option.text for option in options] == [
        option_label(option, language) for option in spec.options
    ]
    assert [option.attrs["value"] for option in options if "selected" in option.attrs] == [
        spec.default
    ]
    ident = select.attrs["id"]
    assert document.find("label", for_=ident).text == translate(language, spec.label)
    described = select.attrs["aria-describedby"].split()
    assert described == [f"{ident}-hint", f"{ident}-error"]
    assert document.find("p", id=f"{ident}-hint").text == hint(spec, language)
    assert document.find("p", id=f"{ident}-error").attrs["data-error-for"] == spec.name
    assert document.find_all(data_note_for=spec.name) == []
    assert document.find_all(data_input_unit=spec.name) == []


def _part(html: str, start: str, end: str) -> str:
    """The part of ``html`` from ``start`` up to the first ``end`` after it, both included."""
    first = html.index(start)
    return html[first : html.index(end, first) + len(end)]
