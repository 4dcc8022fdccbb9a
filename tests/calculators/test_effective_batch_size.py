"""Effective batch size: B = b·g·dp with dp = N / (tp·pp·cp), and g = B / (b·dp) in reverse."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import InvalidInputs, evaluate, get, run
from tests import cases

SLUG = "effective-batch-size"
CALCULATOR = get(SLUG)
GLOBAL = CALCULATOR.mode("global-batch")
ACCUMULATION = CALCULATOR.mode("accumulation")

small = st.integers(min_value=1, max_value=16)
sequences = st.none() | st.integers(min_value=1, max_value=1_000_000)


@pytest.mark.parametrize("case", [c for c in cases.KNOWN if c.slug == SLUG], ids=lambda c: c.id)
def test_known_values(case: cases.Known) -> None:
    result = run(CALCULATOR.mode(case.mode), case.fields)
    assert dict(result.values) == case.outputs
    assert result.warnings == case.warnings
    cases.verify(case, evaluate(SLUG, case.text))


@pytest.mark.parametrize("case", [c for c in cases.REFUSED if c.slug == SLUG], ids=lambda c: c.id)
def test_refused_values(case: cases.Refused) -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(CALCULATOR.mode(case.mode), case.fields)
    assert [(e.field, e.code, e.bound) for e in raised.value.errors] == list(case.errors)
    cases.verify(case, evaluate(SLUG, case.text))


def test_global_batch_of_micro_2_accumulation_4_on_128_devices() -> None:
    values = run(
        GLOBAL,
        {
            "micro_batch": 2,
            "accumulation_steps": 4,
            "world_size": 128,
            "tensor_parallel": 1,
            "pipeline_parallel": 1,
            "context_parallel": 1,
            "sequence_length": 4096,
        },
    ).values
    assert values == {"data_parallel": 128, "global_batch": 1024, "tokens_per_step": 4194304}


def test_accumulation_for_1536_on_1536_devices_with_tp_8_pp_16() -> None:
    values = run(
        ACCUMULATION,
        {
            "global_batch": 1536,
            "micro_batch": 1,
            "world_size": 1536,
            "tensor_parallel": 8,
            "pipeline_parallel": 16,
            "context_parallel": 1,
            "sequence_length": 4096,
        },
    ).values
    assert values["data_parallel"] == 12
    assert values["accumulation_steps"] == 128


@pytest.mark.parametrize("mode_name", ["global-batch", "accumulation"])
@pytest.mark.parametrize("empty", ["", "   ", None])
def test_empty_sequence_length_gives_no_token_count(mode_name: str, empty: str | None) -> None:
    mode = CALCULATOR.mode(mode_name)
    result = run(mode, {**mode.defaults(), "sequence_length": empty})
    assert result.values["tokens_per_step"] is None


def test_world_size_not_divisible_by_tp_pp_cp_names_the_split_as_bound() -> None:
    raw = {**GLOBAL.defaults(), "world_size": 100, "tensor_parallel": 4, "pipeline_parallel": 4}
    with pytest.raises(InvalidInputs) as raised:
        run(GLOBAL, raw)
    assert [e.as_dict() for e in raised.value.errors] == [
        {"field": "world_size", "code": "not_divisible", "bound": 16}
    ]


def test_global_batch_not_divisible_by_micro_times_dp_names_that_as_bound() -> None:
    raw = {**ACCUMULATION.defaults(), "global_batch": 1540, "micro_batch": 2}
    with pytest.raises(InvalidInputs) as raised:
        run(ACCUMULATION, raw)
    assert [e.as_dict() for e in raised.value.errors] == [
        {"field": "global_batch", "code": "not_divisible", "bound": 24}
    ]


@dataclass(frozen=True)
class Layout:
    """A job laid out on dp·tp·pp·cp devices, with a micro-batch per replica."""

    micro: int
    dp: int
    tp: int
    pp: int
    cp: int

    def fields(self, sequence_length: int | None = None) -> dict[str, object]:
        return {
            "micro_batch": self.micro,
            "world_size": self.dp * self.tp * self.pp * self.cp,
            "tensor_parallel": self.tp,
            "pipeline_parallel": self.pp,
            "context_parallel": self.cp,
            "sequence_length": sequence_length,
        }


layouts = st.builds(Layout, small, small, small, small, small)


@given(layouts, small, sequences)
def test_global_batch_is_divisible_by_its_factors(
    layout: Layout, steps: int, seq: int | None
) -> None:
    values = run(GLOBAL, {**layout.fields(seq), "accumulation_steps": steps}).values
    batch = values["global_batch"]
    assert isinstance(batch, int)
    assert values["data_parallel"] == layout.dp
    assert batch == layout.micro * steps * layout.dp
    assert batch % layout.micro == 0
    assert batch % steps == 0
    assert batch % layout.dp == 0
    assert values["tokens_per_step"] == (None if seq is None else batch * seq)


@given(layouts, small)
def test_pipeline_degree_never_multiplies_the_global_batch(layout: Layout, steps: int) -> None:
    # The same devices with pp stages instead of pp times more replicas.
    flat = replace(layout, dp=layout.dp * layout.pp, pp=1)
    staged = run(GLOBAL, {**layout.fields(), "accumulation_steps": steps}).values
    unstaged = run(GLOBAL, {**flat.fields(), "accumulation_steps": steps}).values
    assert staged["global_batch"] == layout.micro * steps * layout.dp
    assert staged["global_batch"] * layout.pp == unstaged["global_batch"]


@given(layouts, small, sequences)
def test_accumulation_mode_inverts_global_batch_mode(
    layout: Layout, steps: int, seq: int | None
) -> None:
    forward = run(GLOBAL, {**layout.fields(seq), "accumulation_steps": steps}).values
    reverse = run(
        ACCUMULATION, {**layout.fields(seq), "global_batch": forward["global_batch"]}
    ).values
    assert reverse["accumulation_steps"] == steps
    assert reverse["data_parallel"] == forward["data_parallel"]
    assert reverse["tokens_per_step"] == forward["tokens_per_step"]


@given(layouts, st.integers(min_value=1, max_value=10_000))
def test_accumulation_refuses_exactly_the_targets_micro_times_dp_does_not_divide(
    layout: Layout, target: int
) -> None:
    raw = {**layout.fields(), "global_batch": target}
    per_step = layout.micro * layout.dp
    if target % per_step == 0:
        assert run(ACCUMULATION, raw).values["accumulation_steps"] == target // per_step
    else:
        with pytest.raises(InvalidInputs) as raised:
            run(ACCUMULATION, raw)
        assert [e.as_dict() for e in raised.value.errors] == [
            {"field": "global_batch", "code": "not_divisible", "bound": per_step}
        ]
