"""The browser boundary: a JSON string in, a JSON string out, and never an exception."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import CALCULATORS, Mode, Result, display_decimal, evaluate, get, run
from calculator.calculators import training_planner
from calculator.engine import display_rows
from calculator.notation import Notation
from tests import cases, strategies

SLUGS = list(CALCULATORS)
ESTIMATE = get("data-parallel-scaling").mode("estimate")


def _reply(slug: str, request: object) -> dict[str, object]:
    # The boundary takes whatever JavaScript sends, not only the str it declares.
    return cases.parse_reply(evaluate(slug, request))  # type: ignore[arg-type]


@pytest.mark.parametrize("case", cases.BOUNDARY, ids=lambda c: c.id)
def test_boundary_refusals(case: cases.Refused) -> None:
    cases.verify(case, evaluate(case.slug, case.text))


@pytest.mark.parametrize("case", cases.KNOWN + cases.REFUSED, ids=lambda c: c.id)
def test_every_known_case_through_evaluate(case: cases.Known | cases.Refused) -> None:
    cases.verify(case, evaluate(case.slug, case.text))


def test_every_case_holds_when_checked_as_pyodide_checks_them() -> None:
    assert cases.check() == {
        "known": len(cases.KNOWN),
        "refused": len(cases.REFUSED),
        "boundary": len(cases.BOUNDARY),
        "garbage": cases.GARBAGE_COUNT,
    }


def test_garbage_requests_are_the_same_for_the_same_seed() -> None:
    assert cases.garbage() == cases.garbage()
    assert cases.garbage(seed=1) != cases.garbage(seed=2)


def test_case_ids_are_unique() -> None:
    ids = [case.id for case in cases.all_requests()]
    assert len(ids) == len(set(ids))


def test_success_reply_holds_outputs_display_and_warnings() -> None:
    reply = _reply(
        "data-parallel-scaling",
        '{"mode": "measure", "devices": "64", "throughput": 2000, "measured": "130000"}',
    )
    assert reply == {
        "ok": True,
        "calculator": "data-parallel-scaling",
        "mode": "measure",
        "outputs": {"efficiency": 101.5625, "speedup": 65.0, "ideal": 128000.0},
        "display": {"efficiency": "1.0156", "speedup": "65", "ideal": "128000"},
        "warnings": ["super_linear"],
    }


def test_failure_reply_lists_every_bad_field_with_code_and_bound() -> None:
    reply = _reply("pipeline-bubble", '{"stages": "", "micro_batches": "0", "chunks": "x"}')
    assert reply == {
        "ok": False,
        "calculator": "pipeline-bubble",
        "mode": "bubble",
        "errors": [
            {"field": "stages", "code": "required", "bound": None},
            {"field": "micro_batches", "code": "below_minimum", "bound": 1},
            {"field": "chunks", "code": "not_a_number", "bound": None},
        ],
    }


@pytest.mark.parametrize("request_", [None, 42, 4.2, ["{}"], {"devices": 64}, object()], ids=repr)
def test_a_request_that_is_not_a_string_is_a_bad_request(request_: object) -> None:
    reply = _reply("data-parallel-scaling", request_)
    assert reply["errors"] == [{"field": None, "code": "bad_request", "bound": None}]


def test_a_bad_request_is_reported_before_an_unknown_calculator() -> None:
    reply = _reply("no-such-calculator", "[]")
    assert reply["errors"] == [{"field": None, "code": "bad_request", "bound": None}]


def test_null_mode_means_the_default_mode() -> None:
    reply = _reply(
        "data-parallel-scaling", '{"mode": null, "devices": 1, "throughput": 1, "efficiency": 50}'
    )
    assert reply["ok"] is True
    assert reply["mode"] == "predict"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_mode_is_reachable_by_name(slug: str) -> None:
    for mode in CALCULATORS[slug].modes:
        reply = _reply(slug, json.dumps({"mode": mode.name, **mode.defaults()}))
        assert reply["ok"] is True
        assert reply["mode"] == mode.name


def _display(mode: Mode, result: Result) -> dict[str, object]:
    """What ``display`` holds: each output rounded as declared, then each table's rows."""
    return {
        **{
            output.name: display_decimal(output, value)
            if (value := result.values[output.name]) is not None
            else None
            for output in mode.outputs
        },
        **{table.name: display_rows(table, result.tables[table.name]) for table in mode.tables},
    }


@pytest.mark.parametrize("slug", SLUGS)
def test_display_is_display_decimal_of_each_output(slug: str) -> None:
    for mode in CALCULATORS[slug].modes:
        result = run(mode, mode.defaults())
        reply = _reply(slug, json.dumps({"mode": mode.name, **mode.defaults()}))
        assert reply["display"] == _display(mode, result)


def test_the_reply_is_ascii_json_whatever_the_request_holds() -> None:
    text = evaluate("data-parallel-scaling", '{"devices": "١٢", "😀": "\\ud800"}')
    assert text.isascii()
    reply = cases.parse_reply(text)
    assert reply["errors"] == [
        {"field": "devices", "code": "not_a_number", "bound": None},
        {"field": "throughput", "code": "required", "bound": None},
        {"field": "efficiency", "code": "required", "bound": None},
        {"field": "😀", "code": "unknown_field", "bound": None},
    ]


@given(st.sampled_from([*SLUGS, "", "nope"]) | st.text(max_size=20), strategies.requests)
def test_evaluate_never_raises_and_always_replies_valid_json(slug: str, request: str) -> None:
    text = evaluate(slug, request)
    reply = cases.parse_reply(text)  # refuses NaN and Infinity: allow_nan is never needed
    cases.verify(cases.Garbage("hypothesis", slug, request), text)
    assert reply["calculator"] == slug
    if reply["ok"]:
        outputs = reply["outputs"]
        assert isinstance(outputs, dict)
        assert all(value is None or math.isfinite(value) for value in outputs.values())


@given(st.sampled_from(SLUGS), strategies.fields)
def test_evaluate_on_field_garbage_refuses_with_known_codes_or_computes(
    slug: str, raw: dict[str, object]
) -> None:
    reply = cases.parse_reply(evaluate(slug, json.dumps(raw)))
    if not reply["ok"]:
        errors = reply["errors"]
        assert isinstance(errors, list)
        assert {error["code"] for error in errors} <= cases.CODES


@pytest.mark.parametrize("slug", [None, 1, ["pipeline-bubble"], {"a": 1}])
def test_a_slug_that_is_not_text_is_an_unknown_calculator_not_an_exception(slug: object) -> None:
    reply = json.loads(evaluate(slug, "{}"))  # type: ignore[arg-type]  # a slug that is not text
    assert reply["ok"] is False
    assert reply["errors"] == [{"field": None, "code": "unknown_calculator", "bound": None}]


def test_a_fault_in_a_compute_function_is_an_internal_error_reply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Documented never to raise: a bug in a compute function becomes data for one form."""

    def broken(*_: object, **__: object) -> None:
        raise ZeroDivisionError

    monkeypatch.setattr("calculator.web.run", broken)
    reply = json.loads(evaluate("pipeline-bubble", "{}", '{"decimal": ",", "group": "."}'))
    assert reply == {
        "ok": False,
        "calculator": "pipeline-bubble",
        "mode": "bubble",
        "errors": [{"field": None, "code": "internal", "bound": None}],
    }


def test_a_request_nested_past_the_parsers_limit_is_an_internal_error_not_a_crash() -> None:
    reply = json.loads(evaluate("pipeline-bubble", "[" * 100_000))
    assert reply["ok"] is False
    assert reply["errors"][0]["code"] in ("bad_request", "internal")


def test_a_choice_is_never_read_as_a_number_and_goes_to_the_link_without_its_spaces() -> None:
    italian = Notation(decimal=",", group=".").as_json()
    request = {"mode": "estimate", **ESTIMATE.defaults(), "algorithm": " tree ", "devices": "1.024"}
    reply = cases.parse_reply(evaluate("data-parallel-scaling", json.dumps(request), italian))
    assert reply["ok"] is True
    assert reply["plain"] == {
        **{name: v if isinstance(v, str) else None for name, v in ESTIMATE.defaults().items()},
        "algorithm": "tree",
        "devices": "1024",
    }
    assert reply["notes"] == [
        {"field": "devices", "code": "read_grouped", "readings": ["1024", "1.024"]}
    ]


# --------------------------------------------------------------------------- tables

PLANNER = get("training-planner")


# A small search: 8 devices, 28 layouts, of which 20 fit in 2 MB.
SEARCH = {
    **PLANNER.mode("search").defaults(),
    "layers": 4,
    "hidden": 64,
    "heads": 4,
    "vocabulary": 10,
    "sequence": 1024,
    "devices": 8,
    "devices_per_node": 8,
    "memory": 0.002,
    "global_batch": 8,
}


def test_a_table_comes_after_the_outputs_in_outputs_and_display() -> None:
    search = PLANNER.mode("search")
    reply = _reply(PLANNER.slug, json.dumps(SEARCH))
    result = run(search, {**search.defaults(), **SEARCH})
    assert reply["ok"] is True
    assert reply["mode"] == "search"
    outputs, display = reply["outputs"], reply["display"]
    assert isinstance(outputs, dict)
    assert isinstance(display, dict)
    assert (
        list(outputs)
        == list(display)
        == [
            "candidates",
            "fitting",
            "best_step_time",
            "best_mfu",
            "plans",
        ]
    )
    assert outputs["plans"] == [dict(row) for row in result.tables["plans"]]
    assert display == _display(search, result)
    (table,) = search.tables
    for row in display["plans"]:
        assert list(row) == [column.name for column in table.columns]
        assert all(isinstance(text, str) for text in row.values())
    assert reply["warnings"] == []
    assert (outputs["candidates"], outputs["fitting"], len(outputs["plans"])) == (28, 20, 20)


def test_each_plan_links_to_its_check_case_with_the_same_results() -> None:
    # A plan's link: the search's fields and the plan's input cells, as display writes
    # them (plain text); the check case it opens shows the plan's very numbers.
    search, check = PLANNER.mode("search"), PLANNER.mode("check")
    reply = _reply(PLANNER.slug, json.dumps(SEARCH))
    display = reply["display"]
    assert isinstance(display, dict)
    layout = [
        spec.name for spec in check.inputs if spec.name not in {s.name for s in search.inputs}
    ]
    assert display["plans"]
    for row in display["plans"]:
        request = {"mode": "check", **SEARCH, **{name: row[name] for name in layout}}
        linked = _reply(PLANNER.slug, json.dumps(request))
        assert linked["ok"] is True
        assert linked["warnings"] == []
        assert linked["display"] == {output.name: row[output.name] for output in check.outputs}


def test_an_empty_table_is_an_empty_list() -> None:
    request = {**SEARCH, "devices": 3, "global_batch": 2, "heads": 2, "layers": 2}
    reply = _reply(PLANNER.slug, json.dumps(request))
    assert reply["outputs"] == {
        "candidates": 0,
        "fitting": 0,
        "best_step_time": None,
        "best_mfu": None,
        "plans": [],
    }
    assert reply["display"] == {
        "candidates": "0",
        "fitting": "0",
        "best_step_time": None,
        "best_mfu": None,
        "plans": [],
    }
    assert reply["warnings"] == ["no_layout"]


def test_a_search_past_its_bound_is_a_refusal_of_the_devices() -> None:
    request = {**SEARCH, "devices": 2520, "devices_per_node": 720, "layers": 240}
    request |= {"heads": 720, "hidden": 5760, "global_batch": 40320 * 81}
    reply = _reply(PLANNER.slug, json.dumps(request))
    assert reply["errors"] == [
        {"field": "devices", "code": "too_many_layouts", "bound": training_planner.MAX_LAYOUTS}
    ]
