"""The training planner's search in the benchmark: its request, figures, target and report.

What is timed, not how long it takes: no assertion here depends on this machine's speed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from calcsite.performance import LIMITS, render, targets

from bench import search
from bench.report import table
from calculator.calculators import training_planner as planner
from calculator.calculators.planner_runs import A100_CLUSTER
from calculator.web import evaluate
from tests.bench.test_report import results

LIMIT = LIMITS["search_p95_ms"]


def part(cpython: float = 63.36, pyodide: float = 137.74) -> dict[str, Any]:
    """A run's ``search`` part with these p95s, shaped as :func:`bench.search.measure` makes it."""
    return {
        "calculator": search.SLUG,
        "run": search.RUN,
        "parameters_b": 1008.0,
        "devices": 3072,
        "request": search.request(),
        "warmups": 3,
        "calls": 30,
        "versions": {"cpython": "3.11.7", "pyodide": "314.0.7"},
        "cpython": {"p50": 48.08, "p95": cpython, "max": 66.61, "times": [48.08]},
        "pyodide": {"p50": 92.46, "p95": pyodide, "max": 149.94, "times": [92.46]},
    }


def test_the_request_is_the_1t_row_of_table_1_on_the_a100_cluster() -> None:
    fields = search.request()
    model = {"layers": 128, "hidden": 25600, "heads": 160, "vocabulary": 51200}
    run = {"sequence": 2048, "mlp": "gelu", "devices": 3072, "global_batch": 3072}
    assert fields.items() >= {**model, **run, **A100_CLUSTER, "mode": "search"}.items()
    assert fields["devices_per_node"] == 8
    assert not set(fields) & set(planner.LAYOUT)


def test_the_request_is_a_search_the_core_answers_with_its_402_layouts() -> None:
    reply = json.loads(evaluate(search.SLUG, json.dumps(search.request())))
    assert reply["ok"], reply
    assert reply["mode"] == "search"
    assert reply["outputs"]["candidates"] == 402
    assert len(reply["outputs"]["plans"]) == planner.PLANS


def test_the_summary_is_the_median_the_95th_percentile_and_the_slowest() -> None:
    found = search.summary([float(ms) for ms in range(20, 0, -1)])
    assert found == {
        "p50": 10.5,
        "p95": 19.05,
        "max": 20.0,
        "times": [float(ms) for ms in range(20, 0, -1)],
    }


@pytest.mark.parametrize(
    ("cpython", "pyodide", "holds"),
    [
        (63.36, 137.74, True),
        (LIMIT, LIMIT, True),
        (63.36, LIMIT + 0.01, False),
        (LIMIT + 0.01, 137.74, False),
    ],
)
def test_the_target_holds_when_both_runtimes_p95_are_within_300_ms(
    cpython: float, pyodide: float, holds: bool
) -> None:
    ((_, _, found),) = targets({"search": part(cpython, pyodide)})
    assert found is holds


@pytest.mark.parametrize(
    ("language", "label", "measured"),
    [
        (
            "en",
            "Training planner's search, 1,008 billion parameters on 3,072 devices: p95 at most"
            " 300\u00a0ms, in CPython and in Pyodide",
            "CPython 63.4\u00a0ms, Pyodide 138\u00a0ms",
        ),
        (
            "fr",
            "Recherche du planificateur d’entraînement, 1\u202f008 milliards de paramètres sur"
            " 3\u202f072 accélérateurs\u00a0: p95 d’au plus 300\u00a0ms, dans CPython et dans"
            " Pyodide",
            "CPython 63,4\u00a0ms, Pyodide 138\u00a0ms",
        ),
        (
            "it",
            "Ricerca del pianificatore dell’addestramento, 1008 miliardi di parametri su 3072"
            " dispositivi: p95 al massimo 300\u00a0ms, in CPython e in Pyodide",
            "CPython 63,4\u00a0ms, Pyodide 138\u00a0ms",
        ),
    ],
)
def test_the_target_is_worded_and_its_figures_written_in_each_language(
    language: str, label: str, measured: str
) -> None:
    assert targets({"search": part()}, language) == [(label, measured, True)]


def test_the_targets_table_ends_with_the_search_and_says_whether_it_is_met() -> None:
    rows = render(results(search=part(pyodide=412.0)), "targets", "it").splitlines()
    last = [cell.strip() for cell in rows[-1].strip("|").split("|")]
    assert last[0].startswith("Ricerca del pianificatore dell’addestramento")
    assert last[1:] == ["CPython 63,4\u00a0ms, Pyodide 412\u00a0ms", "non raggiunto"]


def test_a_run_without_the_search_has_no_such_target() -> None:
    assert not any("search" in label for label, _, _ in targets(results()))


def test_the_report_gives_each_runtimes_figures_under_the_targets() -> None:
    text = table(results(search=part()))
    assert (
        "  training planner's search, narayanan-2021-1t, 30 calls after 3 warm-ups,"
        " p50 / p95 / slowest: cpython 3.11.7 48.1\u00a0ms / 63.4\u00a0ms / 66.6\u00a0ms,"
        " pyodide 314.0.7 92.5\u00a0ms / 138\u00a0ms / 150\u00a0ms"
    ) in text.splitlines()
