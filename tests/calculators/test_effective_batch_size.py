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


@pytest.mark.parametrize("mode_name", ["global-batch", "accumulation"])
@pytest.mark.parametrize("empty", ["", "   ", None])
def test_empty_sequence_length_gives_no_token_count(mode_name: str, empty: str | None) -> None:
    mode = CALCULATOR.mode(mode_name)
    result = run(mode, {**mode.defaults(), "sequence_length": empty})
    assert result.values["tokens_per_step"] is None


@dataclass(frozen=True)
class Layout:
    """A job laid out on dp·tp·pp·cp devices, with a micro-batch per replica."""

    micro: int
    dp: int
    tp: int
    pp: int
    cp: int

    def fields(self, sequence_length: int | None = None) -> dict[str, object]:
        """The layout's raw inputs, shared by both modes, with an optional sequence length."""
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
