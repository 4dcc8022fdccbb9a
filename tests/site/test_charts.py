"""Charts and published runs in the build: the directives' output, in every language.

The charts are the core's (``calculator.charts``), drawn for each form's example
with the words of the page's catalog; the published runs come from one data
file, each efficiency computed by the measuring mode.
"""

from __future__ import annotations

import html as html_module
import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from babel.numbers import format_decimal
from calcsite import runs
from calcsite.directives import DirectiveError, Page, expand
from calcsite.formatting import format_bound, format_output, notation
from calcsite.messages import CATALOGS, LANGUAGES, translate, tree
from calcsite.widgets import chart_context, chart_labels
from jinja2 import Environment, FileSystemLoader

from calculator import Output, get, run
from calculator.charts import CHARTS, WORDS, Labels, render
from calculator.drawing import Numbers
from calculator.values import parse_inputs

from .conftest import ROOT
from .html import Document

CHARTED = {
    "data-parallel-scaling": ("predict", "measure", "estimate"),
    "pipeline-bubble": ("bubble",),
    "training-planner": ("check",),
}
"""The forms that have a chart after them, by page."""

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
PERCENT = Output(name="p", label="P", style="percent", digits=2)
TIMES = Output(name="t", label="T", style="multiplier", digits=2)


def page(language: str) -> Page:
    return Page(language=language, env=Environment(loader=FileSystemLoader(ROOT / "overrides")))


def built(site: Path, language: str, slug: str) -> str:
    return (site / tree(language) / slug / "index.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- words


@pytest.mark.parametrize("language", sorted(set(CATALOGS) - {"en"}))
def test_every_chart_and_runs_word_is_translated_with_its_placeholders(language: str) -> None:
    english = [*WORDS.values(), *runs.WORDS.values(), *runs.SAMPLES.values()]
    english += [run_.precision for run_ in runs.load()]
    english += [run_.task for run_ in runs.load() if run_.task]
    missing = sorted(text for text in english if text not in CATALOGS[language])
    assert missing == []
    for text in english:
        translated = translate(language, text)
        assert sorted(PLACEHOLDER.findall(translated)) == sorted(PLACEHOLDER.findall(text))


def test_french_words_keep_their_no_break_spaces() -> None:
    for text in [*WORDS.values(), *runs.WORDS.values()]:
        french = translate("fr", text)
        assert not re.search(r"[^\u00a0\u202f][:;?!]", french.replace("://", "")), french
        assert " :" not in french
        assert " ;" not in french


# ---------------------------------------------------------------- numbers


VALUES = ["0", "7", "999", "1234", "12345", "123456.5", "1234567.25", "0.5", "1500", "10000000"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_core_writes_numbers_as_babel_does(language: str) -> None:
    """The chart's numbers, written by the core with the page's conventions, are CLDR's."""
    labels = Labels.from_json(chart_labels(language, "x"))
    numbers = Numbers(notation(language), labels)
    for value in VALUES:
        number = Decimal(value)
        whole = number == number.to_integral()
        assert numbers.number(Fraction(value)) == format_bound(
            int(number) if whole else float(number), language
        )
        assert numbers.percent(Fraction(value)) == format_output(PERCENT, float(value), language)
        assert numbers.times(Fraction(value)) == format_output(TIMES, float(value), language)
    assert format_decimal(Decimal("1"), locale=language) == numbers.number(1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_chart_labels_carry_the_catalog_and_cldr_conventions(language: str) -> None:
    data = json.loads(chart_labels(language, "calc-a-chart"))
    assert data["id"] == "calc-a-chart"
    assert data["words"] == {key: translate(language, text) for key, text in WORDS.items()}
    assert data["min_grouping"] == {"en": 1, "fr": 1, "it": 2}[language]
    assert data["percent"] == {"en": "{value}%", "fr": "{value}\u00a0%", "it": "{value}%"}[language]


# ---------------------------------------------------------------- the directive


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("slug", "mode"), [(slug, mode) for slug, modes in CHARTED.items() for mode in modes]
)
def test_the_chart_directive_prints_the_core_chart_for_the_example(
    language: str, slug: str, mode: str
) -> None:
    target = slug if mode == get(slug).default_mode.name else f"{slug}/{mode}"
    html = expand(f"<!-- md:chart {target} -->", page(language))
    ident = f"calc-{slug}-{mode}-chart"
    spec = get(slug).mode(mode)
    values = parse_inputs(spec, {k: v for k, v in spec.defaults().items() if v is not None})
    drawn = render(
        slug, mode, values, Labels.from_json(chart_labels(language, ident)), notation(language)
    )
    assert drawn is not None
    assert f'<div class="calc-chart__body" data-chart-body>{drawn}</div>' in html
    document = Document(html)
    container = document.find("div", id=ident)
    assert container.attrs["data-chart-for"] == f"calc-{slug}-{mode}"
    assert container.attrs["aria-labelledby"] == f"{ident}-heading"
    assert json.loads(container.attrs["data-labels"]) == json.loads(chart_labels(language, ident))
    status = document.find("p", data_chart_status=True)
    assert "hidden" in status.attrs


def test_the_chart_speaks_the_page_language() -> None:
    html = expand("<!-- md:chart data-parallel-scaling -->", page("fr"))
    assert "Débit selon le nombre d’accélérateurs" in html
    assert "115\u202f200" in html
    assert "À E = 90\u00a0%" in html
    html = expand("<!-- md:chart pipeline-bubble -->", page("it"))
    assert "Schedule della pipeline: p = 4, m = 8, v = 1" in html
    assert "β = 37,5% · σ = 27,27%" in html


@pytest.mark.parametrize(
    "directive",
    [
        "<!-- md:chart -->",
        "<!-- md:chart a b -->",
        "<!-- md:chart effective-batch-size -->",
        "<!-- md:chart pipeline-bubble/none -->",
        "<!-- md:runs pipeline-bubble -->",
        "<!-- md:runs data-parallel-scaling -->",
    ],
)
def test_malformed_chart_and_runs_directives_raise(directive: str) -> None:
    with pytest.raises(DirectiveError):
        expand(directive, page("en"))


def test_a_chart_context_for_other_values_draws_them() -> None:
    calculator = get("pipeline-bubble")
    context = chart_context(
        calculator, calculator.default_mode, "en", {"stages": 7, "micro_batches": 30, "chunks": 1}
    )
    assert context is not None
    assert "Pipeline schedule: p = 7, m = 30, v = 1" in context["html"]
    other = get("effective-batch-size")
    assert chart_context(other, other.default_mode, "en") is None


# ---------------------------------------------------------------- the build


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", CHARTED)
def test_each_charted_form_is_followed_by_its_chart_in_the_build(
    site: Path, language: str, slug: str
) -> None:
    text = built(site, language, slug)
    document = Document(text)
    charts = document.find_all("div", data_chart_for=True)
    assert [chart.attrs["data-chart-for"] for chart in charts] == [
        f"calc-{slug}-{mode}" for mode in CHARTED[slug]
    ]
    for mode in CHARTED[slug]:
        form = text.rindex("<form", 0, text.index(f' id="calc-{slug}-{mode}"'))
        chart = text.index(f'data-chart-for="calc-{slug}-{mode}"')
        following = text.find("<form", form + 1)
        assert form < chart
        assert following == -1 or chart < following
    titles = [element.text for element in document.find_all("title") if element.attrs.get("id")]
    assert titles
    assert all(titles)
    # Pre-rendered exactly as the core draws it for the example, in the page's language.
    drawings = 0
    for mode in CHARTED[slug]:
        ident = f"calc-{slug}-{mode}-chart"
        spec = get(slug).mode(mode)
        values = parse_inputs(spec, {k: v for k, v in spec.defaults().items() if v is not None})
        drawn = render(
            slug, mode, values, Labels.from_json(chart_labels(language, ident)), notation(language)
        )
        assert drawn is not None
        assert drawn in text
        drawings += drawn.count('role="img"')  # the planner's chart is two panels
    assert len(document.find_all("svg", role="img")) == drawings


def test_no_other_page_has_a_chart(site: Path) -> None:
    for path in site.rglob("*.html"):
        if any(f"/{slug}/" in f"/{path.relative_to(site).as_posix()}" for slug in CHARTED):
            continue
        assert "calc-chart__svg" not in path.read_text(encoding="utf-8"), path


def test_every_chart_slug_has_a_page_with_its_charts() -> None:
    assert set(CHARTS) == set(CHARTED)


# ---------------------------------------------------------------- published runs

VERIFIED = {
    # id: (baseline devices, baseline throughput, devices, throughput), as the READMEs give them.
    "resnet50-dgxa100-tf32": (1, 938, 8, 7248),
    "resnet50-dgxa100-amp": (1, 2470, 8, 16621),
    "resnet50-dgx1-16gb-fp32": (1, 367, 8, 2855),
    "resnet50-dgx1-16gb-amp": (1, 1200, 8, 8322),
    "resnet50-dgx1-32gb-fp32": (1, 356, 8, 2766),
    "resnet50-dgx1-32gb-amp": (1, 1156, 8, 8056),
    "bert-large-phase1-1node": (1, 580, 8, 4591),
    "bert-large-phase1-32nodes-device": (1, 580, 256, 138294),
    "bert-large-phase1-32nodes-node": (8, 4553, 256, 138294),
    "bert-large-phase2-32nodes-node": (8, 1648, 256, 49663),
}


def test_the_published_runs_are_the_verified_figures() -> None:
    loaded = {
        run_.id: (run_.baseline_devices, run_.baseline_throughput, run_.devices, run_.throughput)
        for run_ in runs.load()
    }
    assert loaded == VERIFIED
    for run_ in runs.load():
        assert run_.source.startswith("https://github.com/NVIDIA/DeepLearningExamples/blob/")
        # A commit, not a branch: the lines quoted stay what they were.
        assert re.search(r"/blob/[0-9a-f]{40}/", run_.source)
        assert run_.system
        assert run_.software
        assert run_.published.year >= 2021


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_row_is_computed_by_the_measuring_mode_and_links_to_it(
    site: Path, language: str
) -> None:
    text = built(site, language, "data-parallel-scaling")
    document = Document(text)
    mode = get("data-parallel-scaling").mode("measure")
    links = document.find_all("a", data_run=True)
    assert [link.attrs["data-run"] for link in links] == list(VERIFIED)
    for run_, link in zip(runs.load(), links, strict=True):
        href = html_module.unescape(link.attrs["href"])
        parts = urlsplit(href)
        assert parts.path == ""
        assert parts.fragment == "calc-data-parallel-scaling-measure"
        query = dict(parse_qsl(parts.query))
        base_devices, base, devices, measured = VERIFIED[run_.id]
        # Plain notation, whatever the page's language: the same case everywhere.
        assert query["mode"] == "measure"
        assert query["devices"] == str(devices)
        assert Fraction(query["throughput"]) == Fraction(base, base_devices)
        assert query["measured"] == str(measured)
        result = run(mode, {k: v for k, v in query.items() if k != "mode"})
        start = text.index(f'id="run-{run_.id}"')
        row = text[start : text.index("</tr>", start)]
        for output in ("efficiency", "speedup"):
            spec = next(item for item in mode.outputs if item.name == output)
            assert f"<td>{format_output(spec, result.values[output], language)}</td>" in row
    assert 'href="../assets/data/published-runs.json"' in text or (
        'href="../../assets/data/published-runs.json"' in text
    )


def test_a_node_baseline_is_entered_per_device() -> None:
    node = next(run_ for run_ in runs.load() if run_.id == "bert-large-phase1-32nodes-node")
    assert node.per_device == "569.125"
    assert dict(parse_qsl(node.query()))["throughput"] == "569.125"


GOOD = json.loads((ROOT / "docs" / "assets" / "data" / "published-runs.json").read_text())["runs"][
    0
]


@pytest.mark.parametrize(
    "document",
    [
        "not json",
        {"runs": []},
        {"runs": ["x"]},
        {"runs": [{**GOOD, "devices": "8"}]},
        {"runs": [{**GOOD, "devices": True}]},
        {"runs": [{**GOOD, "samples": "tokens"}]},
        {"runs": [{**GOOD, "devices": 1}]},
        {"runs": [{**GOOD, "devices": 12, "baseline": {**GOOD["baseline"], "devices": 8}}]},
        {"runs": [{**GOOD, "throughput": 7249}]},
        {"runs": [{**GOOD, "source": "http://example.org/"}]},
        {"runs": [{**GOOD, "baseline": {**GOOD["baseline"], "devices": 3}, "devices": 9}]},
    ],
)
def test_a_run_that_does_not_hold_together_fails_the_build(
    tmp_path: Path, document: object
) -> None:
    path = tmp_path / "runs.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document), "utf-8")
    with pytest.raises(runs.RunsError):
        runs.load(path)


def test_a_missing_data_file_fails_the_build(tmp_path: Path) -> None:
    with pytest.raises(runs.RunsError):
        runs.load(tmp_path / "nowhere.json")
