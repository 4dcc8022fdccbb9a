"""Reading numbers as each language writes them, and plain notation everywhere.

The symbols below are CLDR's for English, French and Italian; the site's tests
check that the pages carry exactly Babel's, and the browser tests that ``Intl``
agrees.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import evaluate
from calculator.errors import NOTES, SpecError
from calculator.notation import Notation, Note, localise

EN = Notation(decimal=".", group=",")
FR = Notation(decimal=",", group="\u202f")
IT = Notation(decimal=",", group=".")
BY_LANGUAGE = {"en": EN, "fr": FR, "it": IT}

# text typed: {language: (plain text taken, other reading or None), or None: unreadable}
READINGS: dict[str, dict[str, tuple[str, str | None] | None]] = {
    "96,59": {"en": None, "fr": ("96.59", None), "it": ("96.59", None)},
    "96.59": {"en": ("96.59", None), "fr": ("96.59", None), "it": ("96.59", None)},
    "1,5": {"en": None, "fr": ("1.5", None), "it": ("1.5", None)},
    "2.000": {"en": ("2.000", None), "fr": ("2.000", None), "it": ("2000", "2")},
    "1.500": {"en": ("1.500", None), "fr": ("1.500", None), "it": ("1500", "1.5")},
    "1,500": {"en": ("1500", None), "fr": ("1.500", None), "it": ("1.500", None)},
    "1.500,5": {"en": None, "fr": None, "it": ("1500.5", None)},
    "1,500.5": {"en": ("1500.5", None), "fr": None, "it": None},
    "1 500": {"en": None, "fr": ("1500", None), "it": None},
    "1\u00a0500,25": {"en": None, "fr": ("1500.25", None), "it": None},
    "1\u202f000\u202f000": {"en": None, "fr": ("1000000", None), "it": None},
    "2000": {"en": ("2000", None), "fr": ("2000", None), "it": ("2000", None)},
    "1e3": {"en": ("1e3", None), "fr": ("1e3", None), "it": ("1e3", None)},
    "1,5e3": {"en": None, "fr": ("1.5e3", None), "it": ("1.5e3", None)},
    "1.500e3": {"en": ("1.500e3", None), "fr": ("1.500e3", None), "it": ("1500e3", "1500")},
    "  64\t": {"en": ("64", None), "fr": ("64", None), "it": ("64", None)},
    "\u00a090,5\u202f": {"en": None, "fr": ("90.5", None), "it": ("90.5", None)},
    ",5": {"en": None, "fr": ("0.5", None), "it": ("0.5", None)},
    "-3,5": {"en": None, "fr": ("-3.5", None), "it": ("-3.5", None)},
    # Badly formed grouping is no grouping.
    "1,50": {"en": None, "fr": ("1.50", None), "it": ("1.50", None)},
    "12,34,567": {"en": None, "fr": None, "it": None},
    "0.500": {"en": ("0.500", None), "fr": ("0.500", None), "it": ("0.500", None)},
    "1.5.0": {"en": None, "fr": None, "it": None},
    "1 5": {"en": None, "fr": None, "it": None},
    "abc": {"en": None, "fr": None, "it": None},
    "": {"en": None, "fr": None, "it": None},
    ".": {"en": None, "fr": None, "it": None},
}


@pytest.mark.parametrize("text", READINGS)
@pytest.mark.parametrize("language", BY_LANGUAGE)
def test_each_text_reads_as_its_language_and_plain_notation_allow(text: str, language: str) -> None:
    assert BY_LANGUAGE[language].read(text) == READINGS[text][language]


def test_english_and_french_never_read_a_text_two_ways() -> None:
    for text in READINGS:
        for notation in (EN, FR):
            reading = notation.read(text)
            assert reading is None or reading[1] is None


@pytest.mark.parametrize(
    ("plain", "language", "written"),
    [
        ("1234.5", "en", "1234.5"),
        ("1234.5", "fr", "1234,5"),
        ("1234.5", "it", "1234,5"),
        ("-0.25", "fr", "-0,25"),
        ("15000", "it", "15000"),
    ],
)
def test_write_gives_the_ungrouped_text_a_field_shows(
    plain: str, language: str, written: str
) -> None:
    assert BY_LANGUAGE[language].write(plain) == written


def test_write_refuses_what_is_not_a_fixed_point_decimal() -> None:
    with pytest.raises(ValueError, match="fixed-point"):
        IT.write("1e3")


@given(
    number=st.decimals(
        min_value=Decimal("-1e15"), max_value=Decimal("1e15"), places=6, allow_nan=False
    ),
    language=st.sampled_from(sorted(BY_LANGUAGE)),
)
def test_a_number_written_for_a_language_reads_back_as_the_same_number(
    number: Decimal, language: str
) -> None:
    notation = BY_LANGUAGE[language]
    plain = format(number.normalize(), "f")
    reading = notation.read(notation.write(plain))
    assert reading is not None
    assert reading[1] is None, "a field's own text must never read two ways"
    assert Decimal(reading[0]) == number


@pytest.mark.parametrize(
    "bad",
    [
        {"decimal": ",", "group": ","},
        {"decimal": "1", "group": "."},
        {"decimal": ",", "group": "e"},
        {"decimal": ",,", "group": "."},
        {"decimal": ",", "group": ".", "group_size": 0},
    ],
)
def test_a_notation_with_unusable_symbols_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(SpecError):
        Notation.from_json(json.dumps(bad))


@pytest.mark.parametrize("text", ["", "[]", "{}", '{"decimal": ","}', "nope", '{"decimal": 1}'])
def test_a_notation_that_is_not_an_object_of_symbols_is_refused(text: str) -> None:
    with pytest.raises(SpecError):
        Notation.from_json(text)


def test_a_notation_survives_its_json_round_trip() -> None:
    for notation in BY_LANGUAGE.values():
        assert Notation.from_json(notation.as_json()) == notation


def test_localise_converts_text_fields_and_notes_the_ones_read_two_ways() -> None:
    raw = {"a": "1.500", "b": 7, "c": "zz", "d": "2,5", "x": "1.500"}
    plain, notes = localise(("a", "b", "c", "d"), raw, IT)
    assert plain == {"a": "1500", "b": 7, "c": "zz", "d": "2.5", "x": "1.500"}
    assert notes == (Note("a", "read_grouped", ("1500", "1.5")),)
    assert notes[0].code in NOTES


def _reply(slug: str, request: dict[str, object], notation: Notation) -> dict[str, object]:
    reply: dict[str, object] = json.loads(evaluate(slug, json.dumps(request), notation.as_json()))
    return reply


def test_evaluate_reads_the_page_language_and_returns_plain_values_for_links() -> None:
    reply = _reply(
        "data-parallel-scaling",
        {"devices": "64", "throughput": "1.500", "efficiency": "96,59"},
        IT,
    )
    assert reply["ok"] is True
    assert reply["plain"] == {"devices": "64", "throughput": "1500", "efficiency": "96.59"}
    assert reply["notes"] == [
        {"field": "throughput", "code": "read_grouped", "readings": ["1500", "1.5"]}
    ]
    assert (
        reply["display"]
        == json.loads(
            evaluate(
                "data-parallel-scaling",
                json.dumps({"devices": 64, "throughput": 1500, "efficiency": 96.59}),
            )
        )["display"]
    )


def test_evaluate_keeps_notes_and_plain_values_when_a_field_is_wrong() -> None:
    reply = _reply(
        "data-parallel-scaling",
        {"devices": "64", "throughput": "2.000", "efficiency": "1.500"},
        IT,
    )
    assert reply["ok"] is False
    assert reply["errors"] == [{"field": "efficiency", "code": "above_maximum", "bound": 100}]
    notes = reply["notes"]
    assert isinstance(notes, list)
    assert [note["field"] for note in notes] == ["throughput", "efficiency"]


def test_without_a_notation_the_boundary_reads_plain_notation_only() -> None:
    request = {"devices": "64", "throughput": "1,5", "efficiency": "90"}
    reply = json.loads(evaluate("data-parallel-scaling", json.dumps(request)))
    assert reply["errors"] == [{"field": "throughput", "code": "not_a_number", "bound": None}]
    assert "notes" not in reply
    assert "plain" not in reply


def test_a_bad_notation_is_a_bad_request() -> None:
    reply = json.loads(evaluate("pipeline-bubble", "{}", '{"decimal": ","}'))
    assert reply["errors"] == [{"field": None, "code": "bad_request", "bound": None}]


@pytest.mark.parametrize(
    ("notation", "min_grouping", "plain", "text"),
    [
        (EN, 1, "1234567.25", "1,234,567.25"),
        (EN, 1, "999", "999"),
        (EN, 1, "-1234", "-1,234"),
        (FR, 1, "1234.5", "1\u202f234,5"),
        (IT, 2, "1234", "1234"),
        (IT, 2, "12345.5", "12.345,5"),
        (Notation(decimal=",", group=".", minus="\u2212"), 1, "-1500", "\u22121.500"),
    ],
)
def test_grouped_writes_the_whole_part_in_groups_from_the_minimum(
    notation: Notation, min_grouping: int, plain: str, text: str
) -> None:
    assert notation.grouped(plain, min_grouping) == text
