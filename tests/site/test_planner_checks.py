"""The training planner against published runs, as the ``md:checks`` tables show it.

Each table is the core's comparison (``calculator.calculators.planner_checks``) worded
and formatted for the page: every run once, its error and its group's summary as the
core computes them, each link the run's case, each number in the page's notation.
"""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape
from typing import Any
from urllib.parse import parse_qsl

import pytest
from calcsite.directives import DirectiveError, Page, expand
from calcsite.formatting import notation
from calcsite.messages import CATALOGS, LANGUAGES, translate
from calcsite.planner_checks import (
    FIGURE_OUTPUTS,
    LAYOUT,
    TEXTS,
    WORDS,
    checks_context,
    signed,
)
from jinja2 import Environment, FileSystemLoader

from calculator import display_decimal, get
from calculator.calculators.planner_checks import WITHIN, compare, request, summarise
from calculator.calculators.planner_runs import GROUPS, RUNS
from calculator.calculators.training_planner import EFFICIENCY
from calculator.decimals import plain
from calculator.values import parse_inputs

from .conftest import ROOT

CHECK = get("training-planner").mode("check")
OUTPUTS = {output.name: output for output in CHECK.outputs}
FORM = "calc-training-planner-check"
BY_ID = {published.id: published for published in RUNS}


def page(language: str) -> Page:
    return Page(language=language, env=Environment(loader=FileSystemLoader(ROOT / "overrides")))


def context(group: str, language: str) -> dict[str, Any]:
    return checks_context(CHECK, FORM, group, language)


def number(text: str, language: str) -> Decimal:
    """A number as the page writes it (``+38,6 %``, ``1,208``), read back."""
    digits = re.sub(r"[%\s\u00a0\u202f+]", "", text)
    read = notation(language).read(digits)
    assert read is not None, text
    return Decimal(read[0])


# --------------------------------------------------------------------------- rows


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_published_run_appears_once_in_its_groups_table(language: str) -> None:
    shown = [row["id"] for group in GROUPS for row in context(group.id, language)["rows"]]
    assert sorted(shown) == sorted(BY_ID)
    for group in GROUPS:
        ids = [row["id"] for row in context(group.id, language)["rows"]]
        assert ids == [r.id for r in RUNS if r.group == group]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("group", [group.id for group in GROUPS])
def test_each_rows_figures_and_error_are_the_cores(group: str, language: str) -> None:
    for row in context(group, language)["rows"]:
        compared = compare(BY_ID[row["id"]])
        assert row["error"] == signed(compared.error, language)
        assert number(row["error"], language) == round(Decimal(100 * compared.error), 1)
        # Rounded once, by the core, as the output the figure is headed as.
        output = OUTPUTS[FIGURE_OUTPUTS[compared.figure]]
        predicted = Decimal(display_decimal(output, compared.predicted))
        assert number(row["predicted"], language) == predicted
        measured = row["measured"].split(" (")[0]
        if compared.basis == "mfu":
            assert number(measured, language) == Decimal(display_decimal(output, compared.measured))
        else:
            assert number(measured, language) == Decimal(repr(compared.measured))


# Known values: the row's published figure, the planner's and the error, as each language
# writes them.
KNOWN = [
    ("narayanan-2021-1.7b", "en", ("1.7B", "137", "189.9", "+38.6%")),
    ("narayanan-2021-530b", "fr", ("530B", "163", "154,1", "-5,5\u00a0%")),
    ("narayanan-2021-3.6b", "it", ("3,6B", "138", "174,8", "+26,6%")),
    ("korthikanti-2022-22b-full", "fr", ("22B", "1,42", "1,208", "-14,9\u00a0%")),
    ("korthikanti-2022-1t-selective", "it", ("1T", "71,49", "76,693", "+7,3%")),
    (
        "korthikanti-2022-530b-2240-gpus-full",
        "fr",
        ("530B", "50,362 (d’après une MFU de 42,1\u00a0%)", "57,213", "+13,6\u00a0%"),
    ),
    (
        "korthikanti-2022-530b-2240-gpus-full",
        "it",
        ("530B", "50,362 (da un MFU del 42,1%)", "57,213", "+13,6%"),
    ),
    # 0.04 % rounds to 0: no sign.
    ("korthikanti-2022-530b-2240-gpus-selective", "en", ("530B", "39.15", "39.165", "0%")),
]


@pytest.mark.parametrize(("run_id", "language", "cells"), KNOWN)
def test_known_rows_in_each_languages_notation(
    run_id: str, language: str, cells: tuple[str, str, str, str]
) -> None:
    group = BY_ID[run_id].group.id
    (row,) = [row for row in context(group, language)["rows"] if row["id"] == run_id]
    assert (row["model"], row["measured"], row["predicted"], row["error"]) == cells


def test_the_layout_is_the_runs_and_the_data_parallel_replicas_the_cores() -> None:
    (row,) = [
        row
        for row in context("korthikanti-2022-530b", "fr")["rows"]
        if row["id"] == "korthikanti-2022-530b-2240-gpus-selective"
    ]
    # t, p, d, v, b, then the choices' labels in French.
    assert row["layout"] == ["8", "35", "8", "3", "1", "Sélectif (scores d’attention)", "Activé"]
    assert len(LAYOUT) == len(row["layout"])


@pytest.mark.parametrize("group", [group.id for group in GROUPS])
def test_each_link_opens_the_check_form_with_the_runs_inputs(group: str) -> None:
    for row in context(group, "fr")["rows"]:
        query, _, anchor = row["href"].partition("#")
        assert query.startswith("?mode=check&")
        assert anchor == FORM
        pairs = dict(parse_qsl(query[1:]))
        assert pairs.pop("mode") == "check"
        # Plain notation, the same in every language, read back to the run's inputs.
        assert parse_inputs(CHECK, pairs) == parse_inputs(CHECK, request(BY_ID[row["id"]]))
        assert pairs["efficiency"] == plain(EFFICIENCY)


def test_links_are_the_same_in_every_language() -> None:
    for group in GROUPS:
        links = {
            language: [row["href"] for row in context(group.id, language)["rows"]]
            for language in LANGUAGES
        }
        assert all(found == links["en"] for found in links.values())


# --------------------------------------------------------------------------- captions


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("group", GROUPS, ids=lambda group: group.id)
def test_the_caption_states_the_target_and_the_computed_summary(group: Any, language: str) -> None:
    caption = context(group.id, language)["caption"]
    summary = summarise(group)
    assert caption.startswith(translate(language, group.title))
    assert signed(summary.mean_error, language).lstrip("+") in caption
    verdicts = {translate(language, WORDS[key]) for key in ("met", "missed")}
    if group.target is None:
        assert not any(verdict in caption for verdict in verdicts)
        assert translate(language, WORDS["target.none"]) in caption
    else:
        verdict = WORDS["met" if summary.met else "missed"]
        assert translate(language, verdict) in caption


@pytest.mark.parametrize(
    ("group", "language", "words"),
    [
        (
            "narayanan-2021-table-1",
            "en",
            (
                "Target: every row within ±10%. Mean absolute error: 10.7%; rows within ±10%: "
                "8 of 10. Target not met."
            ),
        ),
        (
            "korthikanti-2022-table-5",
            "fr",
            (
                "Objectif\u00a0: une erreur absolue moyenne d’au plus 15\u00a0%. Erreur absolue "
                "moyenne\u00a0: 9,5\u00a0%\u202f; lignes à ±10\u00a0% près\u00a0: 4 sur 8. "
                "Objectif atteint."
            ),
        ),
        (
            "korthikanti-2022-530b",
            "it",
            (
                "Nessun obiettivo è stato fissato. Errore assoluto medio: 6,8%; righe entro "
                "±10%: 1 su 2."
            ),
        ),
    ],
)
def test_known_summaries(group: str, language: str, words: str) -> None:
    assert words in context(group, language)["caption"]


def test_the_band_is_ten_percent_and_the_targets_are_tables_1_and_5s() -> None:
    assert WITHIN == 0.10
    targets = {group.id: group.target for group in GROUPS}
    assert [(t.bound, t.each) if t else None for t in targets.values()] == [
        (0.10, True),
        (0.15, False),
        None,
    ]


@pytest.mark.parametrize("language", sorted(set(LANGUAGES) - {"en"}))
def test_every_word_of_the_tables_is_translated(language: str) -> None:
    assert sorted(text for text in TEXTS if text not in CATALOGS[language]) == []
    for key, english in WORDS.items():
        for placeholder in re.findall(r"\{[a-z]+\}", english):
            assert placeholder in translate(language, english), key


# --------------------------------------------------------------------------- directive


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_checks_directive_renders_one_table_per_group(language: str) -> None:
    for group in GROUPS:
        html = expand(f"Text.\n\n<!-- md:checks training-planner {group.id} -->\n", page(language))
        assert html.count("<table>") == 1
        caption = re.search(r"<caption>(.*?)</caption>", html, re.DOTALL)
        assert caption is not None
        assert unescape(caption[1]) == context(group.id, language)["caption"]
        rows = re.findall(r'<tr id="check-([^"]+)">', html)
        assert rows == [r.id for r in RUNS if r.group == group]
        links = re.findall(r'<a class="calc-checks__open" href="([^"]+)"', html)
        assert [unescape(link) for link in links] == [
            row["href"] for row in context(group.id, language)["rows"]
        ]
        # A raw HTML block: blank lines around it, none inside.
        block = html[html.index("<!--") : html.index("</table>")]
        assert "\n\n" not in block
        assert "</table>\n\n" in html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ("training-planner", "takes training-planner GROUP"),
        ("pipeline-bubble narayanan-2021-table-1", "takes training-planner GROUP"),
        ("training-planner table-9", "narayanan-2021-table-1"),
        ("training-planner narayanan-2021-table-1 extra", "takes training-planner GROUP"),
    ],
)
def test_a_wrong_checks_directive_fails_the_build(args: str, message: str) -> None:
    with pytest.raises(DirectiveError, match=message):
        expand(f"<!-- md:checks {args} -->", page("en"))


def test_a_checks_directive_in_code_is_left_alone() -> None:
    markdown = "`<!-- md:checks training-planner korthikanti-2022-530b -->`\n"
    assert expand(markdown, page("en")) == markdown
