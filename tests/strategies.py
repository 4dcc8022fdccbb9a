"""Hypothesis strategies shared by the suite: garbage of every JSON-able kind."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from calculator import CALCULATORS, Choice

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
