"""Data-parallel scaling: I = d·v, A = I·E, S = d·E, and E = A / (d·v) when measured."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from calculator import InvalidInputs, evaluate, get, run
from calculator.calculators.data_parallel_scaling import MAX_DEVICES, MAX_THROUGHPUT
from tests import cases

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
    values = run(PREDICT, {"devices": d, "throughput": v, "efficiency": e}).values
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
