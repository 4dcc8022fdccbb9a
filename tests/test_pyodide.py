"""The same core computes identically under Pyodide 314 (Python 3.14) in Node, offline.

``tests/pyodide/run_cases.mjs`` loads Pyodide from ``node_modules/pyodide``,
copies ``calculator/`` and ``tests/cases.py`` into its file system, runs
``cases.check()`` there, and sends every case through ``calculator.web.evaluate``
as strings. Here each reply is held to CPython's, byte for byte. A missing
``node`` or ``node_modules/pyodide`` fails these tests: the proof is never skipped.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from calculator.web import evaluate
from tests import cases

pytestmark = pytest.mark.pyodide

REPO = Path(__file__).resolve().parents[1]
RUNNER = REPO / "tests" / "pyodide" / "run_cases.mjs"
PYODIDE = REPO / "node_modules" / "pyodide"
TIMEOUT = 120


@functools.cache
def _outcome() -> dict[str, object] | str:
    """Run the Node script once; return its document, or why it could not run."""
    node = shutil.which("node")
    if node is None:
        return "node is not on PATH: install Node.js 20 to run the Pyodide proof"
    if not (PYODIDE / "pyodide.mjs").is_file() or not (PYODIDE / "pyodide.asm.wasm").is_file():
        return f"{PYODIDE} is missing or incomplete: run `npm ci` to install Pyodide"
    try:
        completed = subprocess.run(
            [node, str(RUNNER)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"{RUNNER.name} did not finish within {TIMEOUT} s"
    if completed.returncode != 0:
        return f"{RUNNER.name} exited with {completed.returncode}:\n{completed.stderr}"
    document = json.loads(completed.stdout)
    assert isinstance(document, dict)
    return document


def run_in_pyodide() -> dict[str, object]:
    outcome = _outcome()
    if isinstance(outcome, str):
        pytest.fail(outcome, pytrace=False)
    return outcome


def test_pyodide_ran_python_3_14_under_emscripten() -> None:
    document = run_in_pyodide()
    assert str(document["python"]).startswith("3.14."), document["python"]
    assert document["platform"] == "emscripten"
    assert str(document["pyodide"]).startswith("314."), document["pyodide"]


def test_pyodide_passed_every_known_value_refusal_and_garbage_check() -> None:
    assert run_in_pyodide()["check"] == {
        "known": len(cases.KNOWN),
        "refused": len(cases.REFUSED),
        "boundary": len(cases.BOUNDARY),
        "garbage": cases.GARBAGE_COUNT,
    }


def test_pyodide_evaluated_exactly_the_requests_cpython_generates() -> None:
    requests = run_in_pyodide()["requests"]
    assert requests == {case.id: [case.slug, case.text] for case in cases.all_requests()}


def test_pyodide_replies_are_byte_identical_to_cpython() -> None:
    replies = run_in_pyodide()["replies"]
    assert isinstance(replies, dict)
    expected = {case.id: evaluate(case.slug, case.text) for case in cases.all_requests()}
    assert replies.keys() == expected.keys()
    different = [case_id for case_id, reply in expected.items() if replies[case_id] != reply]
    assert different == [], f"{len(different)} replies differ, first: {different[:5]}"


def test_pyodide_replies_meet_the_known_value_expectations() -> None:
    replies = run_in_pyodide()["replies"]
    assert isinstance(replies, dict)
    for case in cases.all_requests():
        cases.verify(case, replies[case.id])


def test_pyodide_computes_results_not_only_refusals() -> None:
    replies = run_in_pyodide()["replies"]
    assert isinstance(replies, dict)
    garbage = [json.loads(replies[case.id]) for case in cases.garbage()]
    assert any(reply["ok"] for reply in garbage)
    assert any(not reply["ok"] for reply in garbage)
