"""Data-parallel scaling: I = d·v, A = I·E, S = d·E, and E = A / (d·v) when measured.

The all-reduce estimate: E = C / (C + X).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from calculator import InvalidInputs, evaluate, get, run
from calculator.calculators.data_parallel_scaling import (
    MAX_BUCKET_SIZE,
    MAX_BUS_BANDWIDTH,
    MAX_BYTES_PER_VALUE,
    MAX_COMPUTE_TIME,
    MAX_DEVICES,
    MAX_LATENCY,
    MAX_PARAMETERS,
    MAX_THROUGHPUT,
    MIN_BUS_BANDWIDTH,
    MIN_COMPUTE_TIME,
    SHARDING_TRAFFIC,
)
from calculator.spec import Value
from tests import cases
from tests.calculators import complete

SLUG = "data-parallel-scaling"
CALCULATOR = get(SLUG)
PREDICT = CALCULATOR.mode("predict")
MEASURE = CALCULATOR.mode("measure")

devices = st.integers(min_value=1, max_value=MAX_DEVICES)
throughputs = st.floats(min_value=0, max_value=MAX_THROUGHPUT, exclude_min=True)
efficiencies = st.floats(min_value=0, max_value=100, exclude_min=True)


@pytest.mark.parametrize("case", [c for c in cases.KNOWN if c.slug == SLUG], ids=lambda c: c.id)
def test_known_values(case: cases.Known) -> None:
    result = run(CALCULATOR.mode(case.mode), case.fields)
    assert dict(result.values) == pytest.approx(case.outputs, rel=1e-12, abs=0)
    assert result.warnings == case.warnings
    cases.verify(case, evaluate(SLUG, case.text))


@pytest.mark.parametrize("case", [c for c in cases.REFUSED if c.slug == SLUG], ids=lambda c: c.id)
def test_refused_values(case: cases.Refused) -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(CALCULATOR.mode(case.mode), case.fields)
    got = [(error.field, error.code, error.bound) for error in raised.value.errors]
    assert got == [
        (f, c, b if b is None else pytest.approx(b, rel=1e-12)) for f, c, b in case.errors
    ]
    cases.verify(case, evaluate(SLUG, case.text))


def test_predict_64_devices_at_90_percent() -> None:
    result = run(PREDICT, {"devices": "64", "throughput": "2000", "efficiency": "90"})
    assert dict(result.values) == {
        "ideal": 128000,
        "actual": 115200,
        "speedup": pytest.approx(57.6),
        "lost": 12800,
    }


def test_measure_recovers_90_percent_points_not_a_fraction() -> None:
    result = run(MEASURE, {"devices": 64, "throughput": 2000, "measured": 115200})
    assert result.values["efficiency"] == 90
    assert result.values["speedup"] == pytest.approx(57.6)
    assert result.warnings == ()


def test_super_linear_measurement_is_a_warning_not_an_error() -> None:
    result = run(MEASURE, {"devices": 64, "throughput": 2000, "measured": 130000})
    assert result.values["efficiency"] == pytest.approx(101.5625)
    assert result.warnings == ("super_linear",)


def test_measured_beyond_ten_times_ideal_is_refused_with_the_cap_as_bound() -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(MEASURE, {"devices": 64, "throughput": "1e-9", "measured": "1e19"})
    (error,) = raised.value.errors
    assert (error.field, error.code) == ("measured", "above_maximum")
    assert error.bound == pytest.approx(64 * 1e-9 * 10)


@given(devices, throughputs, efficiencies)
def test_actual_never_exceeds_ideal_and_speedup_never_exceeds_devices(
    d: int, v: float, e: float
) -> None:
    values = complete(run(PREDICT, {"devices": d, "throughput": v, "efficiency": e}).values)
    assert values["actual"] <= values["ideal"]
    assert values["speedup"] <= d
    assert values["lost"] >= 0
    assert all(math.isfinite(value) for value in values.values())


@given(devices, throughputs)
def test_full_efficiency_delivers_the_ideal_and_loses_nothing(d: int, v: float) -> None:
    values = run(PREDICT, {"devices": d, "throughput": v, "efficiency": 100}).values
    assert values["actual"] == values["ideal"]
    assert values["speedup"] == d
    assert values["lost"] == 0


@given(devices, st.floats(min_value=1e-6, max_value=1e6), st.floats(min_value=0.01, max_value=100))
def test_measuring_what_predict_gives_recovers_the_efficiency(d: int, v: float, e: float) -> None:
    actual = run(PREDICT, {"devices": d, "throughput": v, "efficiency": e}).values["actual"]
    measured = run(MEASURE, {"devices": d, "throughput": v, "measured": actual})
    assert measured.values["efficiency"] == pytest.approx(e, rel=1e-9)
    assert measured.values["speedup"] == pytest.approx(d * e / 100, rel=1e-9)


@given(devices, throughputs, st.floats(min_value=0.001, max_value=10))
def test_super_linear_warning_exactly_when_efficiency_exceeds_100(
    d: int, v: float, ratio: float
) -> None:
    measured = d * v * ratio
    assume(0 < measured <= 1e19)
    reply = json.loads(
        evaluate(
            SLUG,
            json.dumps({"mode": "measure", "devices": d, "throughput": v, "measured": measured}),
        )
    )
    if not reply["ok"]:
        # Only rounding at the ten-fold cap may refuse, and then as above_maximum.
        assert [e["code"] for e in reply["errors"]] == ["above_maximum"]
        return
    efficiency = reply["outputs"]["efficiency"]
    warned = reply["warnings"] == ["super_linear"]
    # Within float noise of 100 % either answer is acceptable; beyond it, exact.
    if warned:
        assert efficiency > 100
    if efficiency > 100 * (1 + 1e-9):
        assert warned


def test_float_noise_at_exactly_100_percent_is_not_super_linear() -> None:
    # 3 x 0.7 is 2.0999999999999996 in binary: a measured 2.1 is 100 %, not more.
    request = {"mode": "measure", "devices": 3, "throughput": 0.7, "measured": 2.1}
    reply = json.loads(evaluate(SLUG, json.dumps(request)))
    assert reply["display"]["efficiency"] == "1"
    assert reply["warnings"] == []


# --------------------------------------------------------------------------- estimate

ESTIMATE = CALCULATOR.mode("estimate")

parameters = st.integers(min_value=1, max_value=MAX_PARAMETERS)
value_bytes = st.integers(min_value=1, max_value=MAX_BYTES_PER_VALUE)
bandwidths = st.floats(min_value=MIN_BUS_BANDWIDTH, max_value=MAX_BUS_BANDWIDTH)
latencies = st.floats(min_value=0, max_value=MAX_LATENCY)
buckets = st.floats(min_value=0, max_value=MAX_BUCKET_SIZE) | st.sampled_from([0, 1, 25, 4.1])
compute_times = st.floats(min_value=MIN_COMPUTE_TIME, max_value=MAX_COMPUTE_TIME)
overlaps = st.floats(min_value=0, max_value=100)
per_node = st.sampled_from([1, 2, 4, 8, 72]) | devices
algorithms = st.sampled_from(["ring", "tree"])
shardings = st.sampled_from(sorted(SHARDING_TRAFFIC))


@st.composite
def estimates(draw: st.DrawFn, algorithm: st.SearchStrategy[str] = algorithms) -> dict[str, Any]:
    """Any request the estimate's bounds accept (a tree only without sharding)."""
    chosen = draw(algorithm)
    return {
        "parameters": draw(parameters),
        "bytes_per_value": draw(value_bytes),
        "bucket_size": draw(buckets),
        "sharding": "none" if chosen == "tree" else draw(shardings),
        "devices": draw(devices),
        "devices_per_node": draw(per_node),
        "bus_bandwidth": draw(bandwidths),
        "algorithm": chosen,
        "latency": draw(latencies),
        "network_latency": draw(latencies),
        "compute_time": draw(compute_times),
        "overlap": draw(overlaps),
    }


def _estimate(request: Mapping[str, object]) -> dict[str, Value]:
    """Run the estimate mode on ``request``: its outputs, those left empty dropped."""
    values = run(ESTIMATE, request).values
    return {name: value for name, value in values.items() if value is not None}


def test_estimate_reference_64_devices_bf16_50_gbps() -> None:
    values = _estimate(
        {
            "parameters": "1e9",
            "bytes_per_value": 2,
            "bucket_size": 25,
            "sharding": "none",
            "devices": 64,
            "devices_per_node": 8,
            "bus_bandwidth": 50,
            "algorithm": "ring",
            "latency": 0,
            "network_latency": 0,
            "compute_time": 1000,
            "overlap": 0,
        }
    )
    assert values["allreduce_time"] == 78.75
    assert values["exposed_time"] == 78.75
    assert round(values["efficiency"], 2) == 92.70


@given(estimates())
def test_estimated_efficiency_is_in_0_100_and_every_result_finite(
    request: dict[str, Any],
) -> None:
    values = _estimate(request)
    assert all(math.isfinite(value) for value in values.values())
    assert 0 < values["efficiency"] <= 100
    assert 0 < values["speedup"] <= request["devices"]
    assert values["speedup"] == pytest.approx(request["devices"] * values["efficiency"] / 100)


@given(estimates())
def test_the_all_reduce_time_is_exactly_its_two_parts(request: dict[str, Any]) -> None:
    values = _estimate(request)
    assert values["allreduce_time"] == values["bandwidth_time"] + values["latency_time"]
    assert 0 <= values["exposed_time"] <= values["allreduce_time"]
    hidden = request["overlap"] * request["compute_time"] / 100
    if hidden >= values["allreduce_time"] * (1 + 1e-9):
        assert values["exposed_time"] == 0
        assert values["efficiency"] == 100


@given(estimates())
def test_calls_are_the_exact_ceiling_one_for_bucket_0_and_at_most_one_per_value(
    request: dict[str, Any],
) -> None:
    calls = _estimate(request)["calls"]
    size = request["parameters"] * request["bytes_per_value"]
    bucket = Fraction(repr(float(request["bucket_size"]))) * 10**6
    assert isinstance(calls, int)
    if bucket == 0:
        assert calls == 1
    else:
        assert calls == min(request["parameters"], math.ceil(size / bucket))
    assert 1 <= calls <= request["parameters"]


@given(estimates())
def test_estimate_agrees_with_the_formula_in_floating_point(request: dict[str, Any]) -> None:
    values = _estimate(request)
    d, calls = request["devices"], values["calls"]
    nodes = math.ceil(d / request["devices_per_node"])
    alpha, alpha_net = request["latency"], request["network_latency"]
    if request["algorithm"] == "tree":
        per_call = 2 * ((d // nodes - 1) * alpha + math.floor(math.log2(nodes)) * alpha_net)
    else:
        per_call = 2 * (nodes - 1) * alpha_net + 2 * (d - nodes) * alpha
    traffic = 1.5 if request["sharding"] == "zero-3" else 1
    size = request["parameters"] * request["bytes_per_value"]
    bandwidth = traffic * 2 * (d - 1) / d * size / (request["bus_bandwidth"] * 1e9) * 1e3
    latency = traffic * calls * per_call / 1e3
    total = bandwidth + latency
    exposed = max(0.0, total - request["overlap"] / 100 * request["compute_time"])
    assert values["bandwidth_time"] == pytest.approx(bandwidth, rel=1e-12)
    assert values["latency_time"] == pytest.approx(latency, rel=1e-12)
    # Where T and the hidden part nearly cancel, X is an absolute difference.
    assert values["exposed_time"] == pytest.approx(exposed, rel=1e-9, abs=total * 1e-12)
    compute = request["compute_time"]
    assert values["efficiency"] == pytest.approx(
        100 * compute / (compute + values["exposed_time"]), rel=1e-12
    )


@given(estimates(algorithm=st.just("ring")), devices)
def test_estimated_efficiency_never_rises_with_more_devices_on_a_ring(
    request: dict[str, Any], other: int
) -> None:
    fewer, more = sorted((request["devices"], other))
    low = _estimate({**request, "devices": fewer})
    high = _estimate({**request, "devices": more})
    assert high["efficiency"] <= low["efficiency"]
    assert high["allreduce_time"] >= low["allreduce_time"]


def test_a_tree_may_pay_less_latency_on_more_devices_as_nccl_counts_a_partial_node() -> None:
    # 8 devices on one node: 2·7 steps of α. 9 devices are 2 nodes, which NCCL's tree
    # counts as ⌊9 / 2⌋ = 4 devices each: 2·(3·α + 1·α_net), less when α_net < 4·α.
    one_node = {**cases._DP_EST, "algorithm": "tree", "latency": "10", "network_latency": "1"}
    one_node.pop("mode")
    assert _estimate({**one_node, "devices": 8})["latency_time"] == 11.2  # 80 · 140 µs
    assert _estimate({**one_node, "devices": 9})["latency_time"] == 4.96  # 80 · 62 µs


@given(estimates(), latencies, latencies, bandwidths, overlaps)
def test_estimated_efficiency_moves_the_right_way_with_each_input(
    request: dict[str, Any], latency: float, network: float, bandwidth: float, overlap: float
) -> None:
    base = _estimate(request)["efficiency"]
    slower = _estimate({**request, "latency": max(latency, request["latency"])})
    farther = _estimate({**request, "network_latency": max(network, request["network_latency"])})
    narrower = _estimate({**request, "bus_bandwidth": min(bandwidth, request["bus_bandwidth"])})
    hidden = _estimate({**request, "overlap": max(overlap, request["overlap"])})
    assert slower["efficiency"] <= base
    assert farther["efficiency"] <= base
    assert narrower["efficiency"] <= base
    assert hidden["efficiency"] >= base


@given(estimates(algorithm=st.just("ring")))
def test_zero_3_moves_one_and_a_half_times_the_bytes_and_steps_of_zero_1_2_and_ddp(
    request: dict[str, Any],
) -> None:
    plain = _estimate({**request, "sharding": "none"})
    assert _estimate({**request, "sharding": "zero-1-2"}) == plain
    full = _estimate({**request, "sharding": "zero-3"})
    assert full["calls"] == plain["calls"]
    assert full["bandwidth_time"] == pytest.approx(1.5 * plain["bandwidth_time"], rel=1e-12)
    assert full["latency_time"] == pytest.approx(1.5 * plain["latency_time"], rel=1e-12)
    assert full["efficiency"] <= plain["efficiency"]


@given(estimates(algorithm=st.just("ring")))
def test_on_one_node_the_tree_is_the_ring(request: dict[str, Any]) -> None:
    request = {**request, "sharding": "none", "devices_per_node": request["devices"]}
    assert _estimate({**request, "algorithm": "tree"}) == _estimate(request)


@pytest.mark.parametrize("sharding", ["zero-1-2", "zero-3"])
def test_a_tree_with_sharding_is_refused_on_the_algorithm(sharding: str) -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(ESTIMATE, {**ESTIMATE.defaults(), "algorithm": "tree", "sharding": sharding})
    assert [error.as_dict() for error in raised.value.errors] == [
        {"field": "algorithm", "code": "tree_allreduce_only", "bound": None}
    ]


@given(estimates())
def test_one_device_communicates_nothing(request: dict[str, Any]) -> None:
    values = _estimate({**request, "devices": 1})
    assert values["allreduce_time"] == values["exposed_time"] == 0
    assert values["efficiency"] == 100
    assert values["speedup"] == 1


@given(estimates())
def test_latency_warning_exactly_when_latency_outweighs_bandwidth(
    request: dict[str, Any],
) -> None:
    result = run(ESTIMATE, request)
    bandwidth, latency = result.values["bandwidth_time"], result.values["latency_time"]
    assert bandwidth is not None
    assert latency is not None
    warned = result.warnings == ("latency_bound",)
    assert warned or result.warnings == ()
    # Rounding to float keeps order: a strict float inequality is a strict exact one.
    if latency > bandwidth:
        assert warned
    if warned:
        assert latency >= bandwidth


def test_bucket_size_is_read_as_the_decimal_typed() -> None:
    # 4.1 MB of gradients in buckets of 4.1 MB: one call, though 4.1 * 1e6 < 4_100_000.
    request = {**cases._DP_EST, "parameters": "4100000", "bytes_per_value": "1"}
    request.pop("mode")
    assert _estimate({**request, "bucket_size": "4.1"})["calls"] == 1
    assert _estimate({**request, "bucket_size": "4.0999999"})["calls"] == 2
