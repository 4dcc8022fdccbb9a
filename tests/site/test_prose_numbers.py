"""Numbers typed in a page's prose are grouped as the build writes the numbers it computes.

The figures the build computes go through one writer (``calcsite.formatting``):
CLDR's group sign for the page's language, and CLDR's minimum grouping, which
browsers apply too (Italian writes ``1024`` but ``16.621``; English ``1,024``;
French ``1 024`` with a narrow no-break space). The figures the authors typed
must read the same, or a page shows ``1.500`` in its text and ``1500`` in its
table. Checked here: every number of the built pages' text that is, or looks,
grouped: four digits or more before any decimal sign, or digits in groups of three
after the first. A number with a group of another size (a version, 21.11; an
address, 127.0.0.1) is not a grouped number. A plain space is no group sign; but
where the language groups with a space (French), two numbers a plain space apart
read as one, and are reported too.

Not prose, and not checked: code and what a reader types (``<code>``, ``<kbd>``,
``<pre>``; a field takes numbers ungrouped, by design), formulas (``<math>``),
link texts (paper and issue numbers), scripts and drawings; the embed pages, whose
every number is the build's (the pages checked are those of docs/); and a
four-digit year from 1990 to 2030, a date rather than a count, which no language
groups (but 2000).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from calcsite.formatting import format_bound, notation

from .html import Document
from .test_site import LANGUAGES, PAGES, page

NOT_PROSE = frozenset({"a", "code", "kbd", "math", "pre", "samp", "script", "style", "svg"})
"""Elements whose text is not the page's prose (see the module's docstring)."""

SIGNS = "[.,\u00a0\u202f]"
"""What groups digits or splits a number's whole part from its fraction, in any of the languages."""

NUMBER = re.compile(rf"(?<![\w.,])(?<![A-Za-z]-)\d+(?:{SIGNS}\d+)*(?!\w)")
"""Digits and the signs that group or split them, not part of a word (A100, GPT-3); a number
joined by a hyphen (4096-token, 1500-2000) is checked."""

RUN_TOGETHER = re.compile(r"(?<![\w.,])\d+ \d{3}(?!\w)")
"""Two numbers a plain space apart, the second of three digits: one grouped number to a
reader whose language groups digits with a space (French reads 92 100 as 92,100)."""

ONE_NUMBER = "one grouped number"

YEARS = frozenset(year for year in range(1990, 2031) if year % 100)
"""Years a page may cite, written as years are: 2000, likelier a count, is checked."""


def prose(document: Document) -> list[str]:
    """The prose of a page's ``<article>``, one string per text node."""
    return [
        text.data
        for text in document.texts
        if "article" in text.within and NOT_PROSE.isdisjoint(text.within)
    ]


def misgrouped(text: str, language: str) -> list[tuple[str, str]]:
    """Each number of ``text`` that ``language`` groups otherwise: (typed, as the build writes).

    Where the language groups with a space, numbers a plain space apart read as one:
    (typed, :data:`ONE_NUMBER`).
    """
    written = notation(language)
    found = []
    for match in NUMBER.finditer(text):
        token = match.group()
        whole = token.rsplit(written.decimal, 1)[0] if written.decimal in token else token
        groups = re.split(SIGNS, whole)
        if any(len(group) != 3 for group in groups[1:]):
            continue  # not written as a grouped number: a version (21.11), an address
        digits = "".join(groups)
        if len(digits) < 4 and len(groups) == 1:
            continue
        if whole == digits and int(digits) in YEARS:
            continue
        expected = format_bound(int(digits), language)
        if whole != expected:
            found.append((token, expected + token[len(whole) :]))
    if written.group.isspace():
        found += [(match.group(), ONE_NUMBER) for match in RUN_TOGETHER.finditer(text)]
    return found


@pytest.mark.parametrize(
    ("text", "language", "found"),
    [
        ("a batch of 8192 images", "en", [("8192", "8,192")]),
        ("a batch of 8,192 images", "en", []),
        ("un batch di 1024 sequenze, 16.621 immagini/s", "it", []),
        ("un indice di 1.500", "it", [("1.500", "1500")]),
        ("1765,52 ms", "it", []),
        ("1\u202f500 appels", "fr", []),
        ("1\u00a0500 appels", "fr", [("1\u00a0500", "1\u202f500")]),
        ("1,500 appels, 1.500 appels", "fr", [("1.500", "1\u202f500")]),
        ("le 3 décembre 2026, 80\u00a0Go, 92 / 100 / 92", "fr", []),
        ("92 100 92", "fr", [("92 100", ONE_NUMBER)]),
        ("92 100 92", "en", []),
        ("127.0.0.1, lighthouse 12.2.3, Megatron-Core 0.18.0, PyTorch 21.03", "it", []),
        ("12.809 s, version 21.11, 3.14", "en", []),
        ("in 2022, 2048 tokens", "en", [("2048", "2,048")]),
        ("between 1,500 and 2000", "en", [("2000", "2,000")]),
        (
            "a 4096-token context, 1500-2000 GPUs, GPT-3, ResNet-50",
            "en",
            [("4096", "4,096"), ("1500", "1,500"), ("2000", "2,000")],
        ),
        ("16621,5 ms", "it", [("16621,5", "16.621,5")]),
        (
            "un total de 1 500. De 1 500, puis 92 100,5 ms",
            "fr",
            [("1 500", ONE_NUMBER), ("1 500", ONE_NUMBER), ("92 100", ONE_NUMBER)],
        ),
    ],
)
def test_misgrouped_finds_what_the_build_would_write_otherwise(
    text: str, language: str, found: list[tuple[str, str]]
) -> None:
    assert misgrouped(text, language) == found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_number_in_the_prose_is_grouped_as_the_build_writes_it(
    site: Path, language: str
) -> None:
    texts = {path: prose(page(site, language, path)) for path in PAGES}
    assert all(texts.values()), [path for path, text in texts.items() if not text]
    wrong = [
        f"{path or 'home'}: {typed!r} "
        + ("reads as one number" if expected == ONE_NUMBER else f"(the build writes {expected!r})")
        for path, text in texts.items()
        for chunk in text
        for typed, expected in misgrouped(chunk, language)
    ]
    assert wrong == [], "\n".join(wrong)


def test_a_year_is_left_as_it_is_written() -> None:
    assert format_bound(2026, "en") == "2,026"  # what the exception is for
    assert misgrouped("the run of 3 December 2026", "en") == []
