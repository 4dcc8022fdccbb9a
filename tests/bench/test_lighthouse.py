"""Which of several Lighthouse runs of a page the benchmark reports."""

from __future__ import annotations

import pytest
from calcsite.performance import OBSERVED_FCP

from bench.lighthouse import (
    CHROME_FLAGS,
    HELD_PAINT_MS,
    RENDER_DOCUMENT,
    Report,
    chrome_flags,
    disables_render_document,
    launcher_flags,
    median_run,
    read_report,
    versions,
)
from bench.report import table

from .test_report import results


def report(performance: int | None, error: str | None = None) -> Report:
    scores = {} if performance is None else {"performance": performance, "seo": 100}
    return Report(url=f"u{performance}", scores=scores, error=error)


def report_row(
    page: str, role: str = "calculator", runs: int = 1, **more: object
) -> dict[str, object]:
    """One page's entry of ``results["lighthouse"]``, as the benchmark writes it."""
    return {
        "url": page,
        "scores": {"performance": 99},
        "metrics": {},
        "failing": {},
        "error": None,
        "benchmark_index": None,
        "runs": [99] * runs,
        "page": page,
        "role": role,
        **more,
    }


def test_the_run_with_the_median_performance_is_kept_with_every_score() -> None:
    runs = [report(97), report(92), report(99)]
    chosen = median_run(runs)
    assert chosen.url == "u97"
    assert chosen.runs == [97, 92, 99]


def test_with_an_even_count_the_lower_middle_run_is_kept_not_an_average() -> None:
    assert median_run([report(99), report(95), report(98), report(91)]).url == "u95"


def test_a_failed_run_is_not_the_median_while_another_succeeded() -> None:
    runs = [report(None, error="timed out"), report(90), report(None, error="exit 1")]
    chosen = median_run(runs)
    assert chosen.url == "u90"
    assert chosen.runs == [-1, 90, -1]


def test_when_every_run_failed_a_failure_is_reported() -> None:
    assert median_run([report(None, error="timed out")]).error == "timed out"


def test_no_run_is_an_error() -> None:
    with pytest.raises(ValueError, match="no Lighthouse run"):
        median_run([])


def lighthouse_json(observed_fcp: float | None) -> dict[str, object]:
    """The parts of a Lighthouse report that the benchmark reads."""
    items = [] if observed_fcp is None else [{"observedFirstContentfulPaint": observed_fcp}]
    audits = {
        "first-contentful-paint": {"score": 1, "numericValue": 1012.5},
        "total-blocking-time": {"score": 0.9, "numericValue": 120.0, "displayValue": "120 ms"},
        "metrics": {"details": {"items": items}},
    }
    refs = [
        {"id": "first-contentful-paint", "weight": 10},
        {"id": "total-blocking-time", "weight": 30},
    ]
    categories = {
        name: {
            "score": 0.97 if name == "performance" else 1.0,
            "auditRefs": refs if name == "performance" else [],
        }
        for name in ("performance", "accessibility", "best-practices", "seo")
    }
    return {"audits": audits, "categories": categories, "environment": {"benchmarkIndex": 1234.5}}


def test_a_report_keeps_scores_metrics_failing_audits_and_the_first_paint_seen() -> None:
    found = read_report("u", lighthouse_json(observed_fcp=1210.0))
    assert found.scores == {
        "performance": 97,
        "accessibility": 100,
        "best-practices": 100,
        "seo": 100,
    }
    assert found.metrics == {
        "first-contentful-paint": 1012.5,
        "total-blocking-time": 120.0,
        OBSERVED_FCP: 1210.0,
    }
    assert found.failing == {"performance": ["total-blocking-time (120 ms)"]}
    assert found.benchmark_index == 1234.5


def test_a_report_without_observed_metrics_has_no_first_paint_seen() -> None:
    assert OBSERVED_FCP not in read_report("u", lighthouse_json(observed_fcp=None)).metrics


def test_the_table_lists_each_runs_performance_beside_the_median() -> None:
    chosen = median_run([report(97), report(92), report(99)])
    row = {
        "url": chosen.url,
        "scores": {"performance": 97, "accessibility": 100, "best-practices": 100, "seo": 100},
        "metrics": {"total-blocking-time": 120.0, OBSERVED_FCP: 1210.0},
        "failing": {},
        "error": None,
        "benchmark_index": 1200.0,
        "runs": chosen.runs,
        "page": "p/",
        "role": "calculator",
    }
    text = table(results(lighthouse=[row]))
    assert "median run" in text
    line = next(line for line in text.splitlines() if "| 97 / 92 / 99 " in line)
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    assert cells[1:5] == ["97", "100", "100", "100"]
    # No FCP, LCP or Speed Index in this report: a dash, not a zero.
    assert cells[5:] == ["—", "—", "—", "120\u00a0ms", "1,210\u00a0ms", "1,200", "97 / 92 / 99"]


def test_every_runs_first_paint_is_kept_beside_the_median() -> None:
    runs = [report(97), report(92), report(None, error="timed out")]
    runs[0].metrics[OBSERVED_FCP] = 1230.0
    runs[1].metrics[OBSERVED_FCP] = 210.0
    assert median_run(runs).paints == [1230.0, 210.0, None]


def test_the_report_counts_the_held_first_paints_of_calculator_pages_only() -> None:
    def row(page: str, role: str, paints: list[float | None]) -> dict[str, object]:
        return report_row(page, role, len(paints), paints=paints)

    rows = [
        row("a/", "calculator", [1230.0, 210.0, None]),
        row("b/", "calculator", [HELD_PAINT_MS + 1, HELD_PAINT_MS]),
        row("bench-floor/", "control: floor", [1250.0, 1250.0]),
    ]
    data = results(lighthouse=rows)
    assert f"seen after {HELD_PAINT_MS:.0f} ms) in 2 of 4 runs of calculator pages" in table(data)


LAUNCHER = [
    "--disable-features=Translate,RenderDocument,MediaRouter",
    "--disable-extensions",
    "--no-first-run",
]


def test_as_shipped_only_the_benchmarks_own_flags_are_passed_the_launcher_adds_its_own() -> None:
    assert chrome_flags(LAUNCHER, render_document=False) == CHROME_FLAGS.split()


def test_with_render_document_on_only_that_feature_leaves_the_launchers_flags() -> None:
    flags = chrome_flags(LAUNCHER, render_document=True)
    assert flags == [
        "--disable-features=Translate,MediaRouter",
        "--disable-extensions",
        "--no-first-run",
        "--disable-setuid-sandbox",
        *CHROME_FLAGS.split(),
    ]


def test_a_disabled_features_list_of_render_document_alone_is_dropped_not_left_empty() -> None:
    flags = chrome_flags(["--disable-features=RenderDocument", "--mute-audio"], True)
    assert not any(flag.startswith("--disable-features") for flag in flags)
    assert "--mute-audio" in flags


def test_the_launchers_flags_are_read_from_the_installed_chrome_launcher() -> None:
    flags = launcher_flags()
    assert "--no-first-run" in flags
    # What the Performance page says of the pinned launcher: it turns RenderDocument off.
    assert disables_render_document(flags)
    assert not disables_render_document(chrome_flags(flags, render_document=True))
    assert not any(RENDER_DOCUMENT in flag for flag in chrome_flags(flags, render_document=True))


def test_render_document_counts_as_disabled_only_as_a_whole_name_in_disable_features() -> None:
    assert disables_render_document(["--disable-features=A,RenderDocument"])
    assert not disables_render_document(["--disable-features=RenderDocumentLevel"])
    assert not disables_render_document(["--enable-features=RenderDocument"])


def test_the_versions_are_those_of_the_installed_packages() -> None:
    found = versions()
    assert found["lighthouse"] == "12.2.3"
    assert found["chrome-launcher"].count(".") == 2


@pytest.mark.parametrize(
    ("render_document", "said"),
    [(False, "RenderDocument off, as Lighthouse's launcher sets it"), (True, "RenderDocument on")],
)
def test_the_lighthouse_section_says_which_lighthouse_ran_and_how_it_launched_chromium(
    render_document: bool, said: str
) -> None:
    data = results(lighthouse=[report_row("p/")])
    data["settings"]["lighthouse"] = {
        "lighthouse": "12.2.3",
        "chrome-launcher": "1.2.1",
        "render_document": render_document,
    }
    assert f"Lighthouse 12.2.3 (chrome-launcher 1.2.1; {said}" in table(data)
