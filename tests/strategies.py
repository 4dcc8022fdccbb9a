"""Hypothesis strategies shared by the suite: garbage of every JSON-able kind."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from calculator import CALCULATORS, Choice
from calculator.calculators import training_planner as planner

FIELD_NAMES = sorted(
    {
        spec.name
        for calculator in CALCULATORS.values()
        for m in calculator.modes
        for spec in m.inputs
    }
)
MODE_NAMES = sorted({m.name for calculator in CALCULATORS.values() for m in calculator.modes})
CHOICE_VALUES = sorted(
    {
        value
        for calculator in CALCULATORS.values()
        for m in calculator.modes
        for spec in m.inputs
        if isinstance(spec, Choice)
        for value in spec.values
    }
)
"""Every option's value: garbage hits a real choice (in the wrong field, too) now and then."""

# Text that looks like numbers as often as not, with the characters that trip parsers.
numberish = st.text(alphabet="0123456789.eE+-_ ,x\t١٢６\u00a0", max_size=14)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(),  # nan, ±inf, ±0.0, subnormals included
    numberish,
    st.text(max_size=12),
    st.sampled_from(["nan", "inf", "-inf", "1e309", "-1e309", "1_000", "١٢", "1" * 4400]),
    st.sampled_from(CHOICE_VALUES),
    st.sampled_from(CHOICE_VALUES).map(lambda value: f" {value.upper()} "),
)
garbage = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=6,
)
"""Any value a JSON request can carry, and then some (NaN, infinities, huge ints)."""

fields = st.dictionaries(
    st.sampled_from(FIELD_NAMES) | st.text(max_size=8), garbage, max_size=len(FIELD_NAMES) + 1
)
"""Raw field values by name: mostly real input names, some unknown."""

requests = st.one_of(
    fields.map(json.dumps),
    st.builds(
        lambda body, mode: json.dumps({**body, "mode": mode}),
        fields,
        st.sampled_from(MODE_NAMES) | garbage,
    ),
    garbage.map(json.dumps),
    st.text(max_size=40),
)
"""Request strings: JSON objects of garbage, other JSON, and text that is not JSON."""


_DEGREES = st.sampled_from([1, 2, 4, 8])


@st.composite
def planner_layouts(draw: st.DrawFn, *, split: int = 1, stages: int = 1) -> dict[str, Any]:
    """A training planner check request whose layout the check mode accepts.

    Heads, g and f also divide ``split``·t, and the layers ``stages``·p·v, so that t or p
    may be multiplied by those factors.
    """
    tensor = draw(_DEGREES)
    pipeline = draw(st.integers(min_value=1, max_value=6))
    interleave = 1 if pipeline == 1 else draw(st.integers(min_value=1, max_value=3))
    data = draw(st.integers(min_value=1, max_value=12))
    groups = split * tensor * draw(st.integers(min_value=1, max_value=3))
    heads = groups * draw(st.integers(min_value=1, max_value=3))
    grouped = draw(st.booleans())
    micro_batch = draw(st.integers(min_value=1, max_value=8))
    micro_batches = draw(st.integers(min_value=1, max_value=24))
    if interleave > 1:
        micro_batches *= pipeline
    return {
        "layers": stages * pipeline * interleave * draw(st.integers(min_value=1, max_value=6)),
        "hidden": heads * draw(st.integers(min_value=1, max_value=128)),
        "heads": heads,
        "kv_heads": groups if grouped else None,
        "ffn": draw(
            st.none() | st.integers(min_value=1, max_value=2048).map(lambda f: f * split * tensor)
        ),
        "mlp": draw(st.sampled_from(["gelu", "swiglu"])),
        "output_layer": draw(st.sampled_from(["tied", "untied"])),
        "vocabulary": draw(st.integers(min_value=1, max_value=300_000)),
        "sequence": draw(st.integers(min_value=1, max_value=16_384)),
        "devices": tensor * pipeline * data,
        "devices_per_node": draw(st.sampled_from([1, 2, 4, 8, 16, 72])),
        "peak": draw(st.floats(min_value=planner.MIN_PEAK, max_value=10_000)),
        "memory": draw(st.floats(min_value=planner.MIN_MEMORY, max_value=1_000)),
        "efficiency": draw(st.floats(min_value=planner.MIN_EFFICIENCY, max_value=100)),
        "intra_bandwidth": draw(st.floats(min_value=0.001, max_value=10_000)),
        "inter_bandwidth": draw(st.floats(min_value=0.001, max_value=10_000)),
        "latency": draw(st.floats(min_value=0, max_value=1_000)),
        "global_batch": micro_batch * data * micro_batches,
        "micro_batch": micro_batch,
        "tensor": tensor,
        "pipeline": pipeline,
        "interleave": interleave,
        "zero": draw(st.sampled_from(["0", "1", "2", "3"])),
        "recompute": draw(st.sampled_from(["none", "selective", "full"])),
        "sequence_parallel": draw(st.sampled_from(["on", "off"])),
    }
