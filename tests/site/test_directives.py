"""The directives and formulas, expanded without MkDocs."""

from __future__ import annotations

import re

import pytest
from calcsite.directives import DirectiveError, Page, expand, form_inputs
from calcsite.mathml import mathml
from jinja2 import Environment, FileSystemLoader

from calculator import CALCULATORS

from .conftest import ROOT


def page(language: str) -> Page:
    return Page(language=language, env=Environment(loader=FileSystemLoader(ROOT / "overrides")))


@pytest.mark.parametrize(
    ("directive", "language", "text"),
    [
        ("data-parallel-scaling actual", "en", "115,200"),
        ("data-parallel-scaling lost", "fr", "12\u202f800"),
        ("data-parallel-scaling throughput", "it", "2000"),
        ("data-parallel-scaling/measure efficiency measured=100000", "en", "78.13%"),
        ("pipeline-bubble bubble_overhead chunks=2", "en", "18.75%"),
        ("pipeline-bubble bubble_overhead stages=16 micro_batches=128", "fr", "11,72\u00a0%"),
        ("pipeline-bubble idle_share stages=16 micro_batches=128", "it", "10,49%"),
        ("effective-batch-size/accumulation accumulation_steps", "en", "128"),
        ("effective-batch-size tokens_per_step sequence_length=", "en", "—"),
        ("effective-batch-size sequence_length sequence_length=", "en", "—"),
        # A choice is set by its value, the same in every language, and shown by its label.
        ("data-parallel-scaling/estimate latency_time latency=2 network_latency=10", "en", "29.12"),
        (
            "data-parallel-scaling/estimate latency_time latency=2 network_latency=10 "
            "algorithm=tree",
            "en",
            "7.04",
        ),
        ("data-parallel-scaling/estimate algorithm algorithm=tree", "fr", "Arbre"),
        ("data-parallel-scaling/estimate sharding", "it", "Nessuno (DDP)"),
    ],
)
def test_value_directive_prints_the_core_result_in_the_page_language(
    directive: str, language: str, text: str
) -> None:
    assert expand(f"x <!-- md:value {directive} --> y", page(language)) == f"x {text} y"


def test_fenced_code_keeps_directives_and_dollars_verbatim() -> None:
    markdown = "```\n<!-- md:value pipeline-bubble idle_share -->\n$$\nx\n$$\n```\n"
    assert expand(markdown, page("en")) == markdown


def test_math_becomes_mathml() -> None:
    html = expand("Inline \\( d \\cdot v \\).\n\n$$\nI = d \\cdot v\n$$\n", page("en"))
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in html
    assert 'display="block"' in html
    assert "\\cdot" not in html


def test_formulas_have_no_row_that_changes_nothing() -> None:
    math = '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">'
    assert mathml("d") == f"{math}<mi>d</mi></math>"
    assert mathml("\\frac{A}{d v}") == (
        f"{math}<mfrac><mi>A</mi><mrow><mi>d</mi><mi>v</mi></mrow></mfrac></math>"
    )
    # An operator keeps its row: its form depends on its place in it.
    assert mathml("x_{-}") == f"{math}<msub><mi>x</mi><mrow><mo>&#x02212;</mo></mrow></msub></math>"


def test_reference_table_lists_every_input_with_bounds_and_default() -> None:
    html = expand("<!-- md:reference data-parallel-scaling -->", page("fr"))
    modes = CALCULATORS["data-parallel-scaling"].modes
    assert html.count("<table") == 2 * len(modes)  # inputs and outputs of every mode
    assert "<code>efficiency</code>" in html
    assert "Un nombre supérieur à 0, jusqu’à 100." in html
    # A limit that depends on other inputs is named, not quoted as a number.
    assert "dix fois le débit idéal d·v" in html
    # A choice: each option's value, as a link writes it, with its label; the default's value.
    assert "<code>ring</code>\u00a0: Anneau<br><code>tree</code>\u00a0: Arbre</td>" in html
    assert "<td><code>ring</code></td>" in html


def test_notation_table_shows_each_language_reading_of_each_text() -> None:
    html = expand('<!-- md:notation 96,59 1.500 "1 500" -->', page("en"))
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    assert "English page" in rows[0]
    assert "Italian page" in rows[0]
    cells = [re.findall(r"<td>(.*?)</td>", row) for row in rows[1:]]
    assert cells == [
        ["not a number", "96.59", "96.59"],
        ["1.5", "1.5", "1,500, with a note (not 1.5)"],
        ["not a number", "1,500", "not a number"],
    ]


@pytest.mark.parametrize(
    "directive",
    [
        "<!-- md:calculator -->",
        "<!-- md:calculator a b -->",
        "<!-- md:reference pipeline-bubble/bubble -->",
        "<!-- md:value pipeline-bubble -->",
        "<!-- md:value pipeline-bubble idle_share stages -->",
        "<!-- md:value pipeline-bubble idle_share stages=abc -->",
        "<!-- md:value data-parallel-scaling/estimate efficiency algorithm=Tree -->",
        "<!-- md:value data-parallel-scaling/estimate speedup algorithm=tree sharding=zero-3 -->",
    ],
)
def test_malformed_directives_raise(directive: str) -> None:
    with pytest.raises(DirectiveError):
        expand(directive, page("en"))


def test_inline_code_keeps_directives_verbatim() -> None:
    markdown = "Write `<!-- md:value pipeline-bubble idle_share -->` in a page."
    assert expand(markdown, page("en")) == markdown


def test_inline_math_opening_a_paragraph_stays_inline() -> None:
    html = expand("\\( p \\) stages.", page("en"))
    assert html.startswith('<span class="calc-math-inline"><math')


def test_form_inputs_lists_the_inputs_of_shown_forms_only() -> None:
    markdown = (
        "<!-- md:calculator pipeline-bubble -->\n\n"
        "<!-- md:value effective-batch-size global_batch -->\n\n"
        "```\n<!-- md:calculator data-parallel-scaling -->\n```\n"
    )
    mode = CALCULATORS["pipeline-bubble"].mode(None)
    assert form_inputs(markdown) == tuple(sorted(spec.name for spec in mode.inputs))
    assert form_inputs("No form, only `<!-- md:calculator pipeline-bubble -->`.") == ()
