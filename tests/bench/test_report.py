"""The benchmark's pages, steps and targets, without a browser."""

from __future__ import annotations

import itertools
from typing import Any

from bench.pages import Form, recompute_steps, shared_link
from bench.report import table, targets

FORM = Form(
    slug="data-parallel-scaling",
    mode="predict",
    default_mode="predict",
    locale="fr",
    inputs={"devices": "64", "throughput": "2000", "efficiency": "90"},
    outputs=("128\u202f000", "115\u202f200", "57,6×", "12\u202f800"),
)


def test_the_example_form_is_what_the_core_computes() -> None:
    assert FORM.expected(FORM.inputs) == FORM.outputs
    assert FORM.expected({**FORM.inputs, "devices": "0"}) is None


def test_a_shared_link_differs_from_the_example_and_stays_in_bounds() -> None:
    query, texts = shared_link(FORM)
    assert query == "devices=128&throughput=4000&efficiency=45"
    assert texts == ("512\u202f000", "230\u202f400", "57,6×", "281\u202f600")


def test_recompute_steps_change_the_results_every_time() -> None:
    name, steps = recompute_steps(FORM, 150)
    assert name == "devices"
    assert [s.value for s in steps[:3]] == ["65", "66", "67"]
    assert len(steps) == 150
    assert all(a.texts != b.texts for a, b in itertools.pairwise(steps))


def results(**overrides: Any) -> dict[str, Any]:
    size = {"raw": 1, "gzip": 1}
    visits = {"cold_fcp_median": 200, "warm_requests": [], "warm_bytes_from_server": [0] * 5}
    base: dict[str, Any] = {
        "machine": {
            "date": "2026-11-30",
            "cores": 2,
            "cpu": "cpu",
            "chromium": "Chromium",
            "node": "v20",
            "load_average_before": 0.1,
        },
        "settings": {"runs": 5, "changes": 120},
        "build_seconds": 5.0,
        "pages": {
            "p/": {
                "prerendered": True,
                "bytes": {
                    "before": {"HTML": {"raw": 10, "gzip": 5}},
                    "page": {"raw": 90_000, "gzip": 90_000},
                    "engine": {"pyodide.asm.wasm": size, "core-0.1-py3-none-any.whl": size},
                    "engine_total": {"raw": 2, "gzip": 2},
                    "missing": [],
                },
            }
        },
        "first_live": {
            "floor": {"cold_median": 1000, "warm_median": 500, **visits},
            "p/": {
                "cold_median": 1100,
                "warm_median": 600,
                "cold_ratio": 1.1,
                "warm_ratio": 1.2,
                **visits,
            },
        },
        "recompute": {
            "p/": {
                "input": "x",
                "changes": 120,
                "p50": 5.0,
                "p95": 9.0,
                "max": 20.0,
                "to_worker_p50": 3.0,
                "to_worker_p95": 8.0,
            }
        },
        "scaling": [
            {"factor": 1, "pages": 10, "seconds": 5.0},
            {"factor": 10, "pages": 100, "seconds": 14.0},
            {"factor": 50, "pages": 500, "seconds": 60.0},
        ],
    }
    return {**base, **overrides}


def test_targets_say_which_hold() -> None:
    found = {t["target"]: t["pass"] for t in targets(results())}
    assert found == {
        "default results in the initial HTML": True,
        "first live result ≤ 1.15× the floor, cold": True,
        "first live result ≤ 1.15× the floor, warm": False,
        "warm visits from the HTTP cache, wasm included": True,
        "recompute p95 ≤ 16 ms": True,
        "before the engine ≤ 100.0 kB gzip (HTML + CSS + JS)": True,
        "engine ≤ 6.50 MB gzip": True,
        "nothing else downloaded (no micropip, no package, no 404)": True,
        "build time per page flat (largest build ≤ 1.25× the cheapest per page)": True,
    }


def test_an_extra_package_and_a_superlinear_build_are_misses() -> None:
    data = results()
    data["pages"]["p/"]["bytes"]["engine"]["micropip-0.9-py3-none-any.zip"] = {"raw": 1, "gzip": 1}
    data["scaling"][2]["seconds"] = 90.0
    missed = [t["target"] for t in targets(data) if not t["pass"]]
    assert "nothing else downloaded (no micropip, no package, no 404)" in missed
    assert "build time per page flat (largest build ≤ 1.25× the cheapest per page)" in missed


def test_the_table_has_every_section() -> None:
    data = results()
    data["targets"] = targets(data)
    text = table(data)
    for title in ("Bytes before the engine", "First live result", "Recompute", "Targets"):
        assert title in text
    assert "| PASS |" in text
    assert "| MISS |" in text


def test_each_ratio_comes_with_its_interval() -> None:
    data = results()
    data["first_live"]["p/"]["cold_ratio_interval"] = [0.94, 1.35]
    data["targets"] = targets(data)
    cold = next(t for t in data["targets"] if t["target"].endswith("cold"))
    assert cold["measured"] == "worst 1.10× (p/; 90 % interval 0.94–1.35×)"
    assert "| 1.10× (0.94–1.35) |" in table(data)
