"""Pipeline bubble: (p−1)/(v·m) against compute, (p−1)/(v·m + p−1) against the step."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import InvalidInputs, evaluate, get, run
from tests import cases
from tests.calculators import complete

SLUG = "pipeline-bubble"
CALCULATOR = get(SLUG)
BUBBLE = CALCULATOR.mode("bubble")
OUTPUTS = {output.name: output for output in BUBBLE.outputs}

stages = st.integers(min_value=1, max_value=100_000)
micro_batches = st.integers(min_value=1, max_value=1_000_000_000)
chunks = st.integers(min_value=1, max_value=1_000)


@pytest.mark.parametrize("case", [c for c in cases.KNOWN if c.slug == SLUG], ids=lambda c: c.id)
def test_known_values(case: cases.Known) -> None:
    result = run(BUBBLE, case.fields)
    assert dict(result.values) == pytest.approx(case.outputs, rel=1e-12, abs=0)
    cases.verify(case, evaluate(SLUG, case.text))


@pytest.mark.parametrize("case", [c for c in cases.REFUSED if c.slug == SLUG], ids=lambda c: c.id)
def test_refused_values(case: cases.Refused) -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(BUBBLE, case.fields)
    assert [(e.field, e.code, e.bound) for e in raised.value.errors] == list(case.errors)
    cases.verify(case, evaluate(SLUG, case.text))


def test_without_interleaving_any_micro_batch_count_is_accepted() -> None:
    values = run(BUBBLE, {"stages": 4, "micro_batches": 10, "chunks": 1}).values
    assert values["bubble_overhead"] == pytest.approx(30)


@given(stages, micro_batches, chunks)
def test_the_two_conventions_convert_into_each_other(p: int, m: int, v: int) -> None:
    try:
        values = complete(run(BUBBLE, {"stages": p, "micro_batches": m, "chunks": v}).values)
    except InvalidInputs:
        assert v > 1
        assert m % p
        return
    b = values["bubble_overhead"] / 100
    idle = values["idle_share"] / 100
    assert idle == pytest.approx(b / (1 + b), rel=1e-9, abs=1e-15)
    if idle < 1:
        assert b == pytest.approx(idle / (1 - idle), rel=1e-6, abs=1e-15)
    assert 0 <= values["idle_share"] < 100
    assert values["efficiency"] == pytest.approx(100 - values["idle_share"], abs=1e-9)


@given(st.integers(min_value=1, max_value=1_000), st.integers(min_value=1, max_value=1_000))
def test_more_micro_batches_never_grow_the_bubble(p: int, m: int) -> None:
    def overhead(micro: int) -> float:
        value = run(BUBBLE, {"stages": p, "micro_batches": micro, "chunks": 1}).values
        return float(value["bubble_overhead"] or 0)

    assert overhead(m + 1) <= overhead(m)


@given(st.integers(min_value=1, max_value=100), st.integers(min_value=1, max_value=100), chunks)
def test_v_chunks_divide_the_bubble_overhead_by_v(p: int, k: int, v: int) -> None:
    m = p * k
    one = run(BUBBLE, {"stages": p, "micro_batches": m, "chunks": 1}).values["bubble_overhead"]
    many = run(BUBBLE, {"stages": p, "micro_batches": m, "chunks": v}).values["bubble_overhead"]
    assert many == pytest.approx((one or 0) / v, rel=1e-12, abs=0)
