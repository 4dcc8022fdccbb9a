"""Training planner presets: valid in both modes, their figures sourced and checked.

Every preset is declared against the planner's own fields and runs in both modes; each
list fills the same fields in every preset, as the form needs; the devices' figures are
known values from the data sheets, in the planner's GB of 10^9 bytes; each model's
published parameter count is checked against an independent count of its architecture
(a check of the eight figures typed), and the planner's own count against it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction

import pytest

from calculator import run
from calculator.calculators import planner_presets as presets
from calculator.calculators import training_planner as planner
from calculator.decimals import exact, plain
from calculator.spec import Input, Mode, Preset, Presets, Value
from calculator.values import parse_value
from tests.calculators import complete

CHECK = planner.CALCULATOR.mode("check")
SEARCH = planner.CALCULATOR.mode("search")
DEFAULTS = {name: value for name, value in CHECK.defaults().items() if value is not None}
SEARCH_DEFAULTS = {name: value for name, value in SEARCH.defaults().items() if value is not None}
EVERY = [(group, option) for group in presets.PRESETS for option in group.options]
MODEL_FIELDS = dict(planner.GROUPS)["Model"]


def _id(case: tuple[Presets, Preset]) -> str:
    return case[1].value


def _option(value: str) -> Preset:
    (option,) = [option for _, option in EVERY if option.value == value]
    return option


def _whole(values: Mapping[str, Value | str], name: str) -> int:
    value = values[name]
    assert isinstance(value, int)
    return value


# --------------------------------------------------------------------------- declarations


@pytest.mark.parametrize("mode", [CHECK, SEARCH], ids=lambda mode: mode.name)
def test_every_preset_is_valid_for_both_modes(mode: Mode) -> None:
    # A mode checks each preset's values against its fields when it is declared.
    assert replace(mode, presets=presets.PRESETS).presets == presets.PRESETS


def test_the_lists_in_the_forms_order_fill_its_groups() -> None:
    assert [group.name for group in presets.PRESETS] == ["model", "device", "interconnect"]
    assert presets.MODELS.fields == MODEL_FIELDS
    assert presets.DEVICES.fields == ("peak", "memory")
    assert presets.INTERCONNECTS.fields == (
        "devices_per_node",
        "intra_bandwidth",
        "inter_bandwidth",
        "latency",
    )


@pytest.mark.parametrize("group", presets.PRESETS, ids=lambda group: group.name)
def test_every_preset_of_a_list_fills_the_same_fields_with_distinct_figures(
    group: Presets,
) -> None:
    # Picking one after another then leaves nothing of the first in the form.
    assert all(tuple(option.values) == group.fields for option in group.options)
    figures = [tuple(option.values.values()) for option in group.options]
    assert len(set(figures)) == len(figures)
    labels = [option.label for option in group.options]
    assert len(set(labels)) == len(labels)


@pytest.mark.parametrize("case", EVERY, ids=_id)
def test_every_figure_reads_back_from_the_text_the_form_is_given(
    case: tuple[Presets, Preset],
) -> None:
    _, option = case
    for name, value in option.values.items():
        spec = CHECK.input(name)
        if isinstance(spec, Input):
            assert not isinstance(value, str)
            assert parse_value(spec, plain(value)) == value


# --------------------------------------------------------------------------- devices

# Value: (dense bf16 TFLOP/s, the data sheet's GB, read as GiB).
DEVICE_FIGURES = {
    "a100-40gb-sxm": (312, 40),
    "a100-80gb-sxm": (312, 80),
    "h100-sxm": (989.4, 80),
    "h200-sxm": (989.4, 141),
    "b200": (2250, 180),
    "mi300x": (1307.4, 192),
}


@pytest.mark.parametrize("value", DEVICE_FIGURES)
def test_device_figures(value: str) -> None:
    peak, capacity = DEVICE_FIGURES[value]
    figures = _option(value).values
    assert figures["peak"] == peak
    # Exactly capacity × 2^30 bytes, in GB of 10^9 bytes, and written so.
    memory = figures["memory"]
    assert not isinstance(memory, str)
    assert exact(memory) == Fraction(capacity * 2**30, 10**9)


def test_every_device_is_listed_with_its_figures() -> None:
    assert [option.value for option in presets.DEVICES.options] == list(DEVICE_FIGURES)


def test_the_a100_80gb_memory_is_written_exactly() -> None:
    assert plain(presets.gib(80)) == "85.89934592"


# --------------------------------------------------------------------------- nodes

NODE_FIGURES = {
    # n, busbw inside a node, busbw of a node across nodes, latency
    "dgx-a100": (8, 230, 192, 3.4),
    "hgx-h100": (8, 370, 368, 3.4),
}


@pytest.mark.parametrize("value", NODE_FIGURES)
def test_node_figures(value: str) -> None:
    figures = _option(value).values
    assert tuple(figures.values()) == NODE_FIGURES[value]


@pytest.mark.parametrize(
    ("device", "node"),
    list(itertools.product(presets.DEVICES.options, presets.INTERCONNECTS.options)),
    ids=lambda option: option.value,
)
def test_every_device_on_every_node_runs_the_default_layout(device: Preset, node: Preset) -> None:
    result = run(CHECK, {**DEFAULTS, **device.values, **node.values})
    values = complete(result.values)
    # Korthikanti's GPT-3 layout needs 64.1 GB a device: all but the A100 40GB hold it.
    assert values["memory"] == pytest.approx(64.1, abs=0.05)
    assert result.warnings == (("out_of_memory",) if device.value == "a100-40gb-sxm" else ())


@pytest.mark.parametrize("device", presets.DEVICES.options, ids=lambda option: option.value)
def test_the_h100_nodes_links_shorten_every_devices_step(device: Preset) -> None:
    dgx_a100, hgx_h100 = (
        complete(run(CHECK, {**DEFAULTS, **device.values, **node.values}).values)
        for node in presets.INTERCONNECTS.options
    )
    assert hgx_h100["compute_time"] == dgx_a100["compute_time"]
    assert hgx_h100["step_time"] < dgx_a100["step_time"]


# --------------------------------------------------------------------------- models


def test_the_gpt_3_preset_is_the_planners_default_model() -> None:
    # kv_heads = a and ffn = 4h written out are what the empty fields mean.
    gpt_3 = _option("gpt-3-175b").values
    assert run(CHECK, {**DEFAULTS, **gpt_3}).values == run(CHECK, DEFAULTS).values


@pytest.mark.parametrize("model", presets.MODELS.options, ids=lambda option: option.value)
def test_every_model_runs_in_both_modes(model: Preset) -> None:
    # The default layout's 24 stages and chunks divide GPT-3's 96 layers only: one stage.
    complete(run(CHECK, {**DEFAULTS, **model.values, "pipeline": 1, "interleave": 1}).values)
    searched = run(SEARCH, {**SEARCH_DEFAULTS, **model.values})
    assert searched.values["candidates"]


def _llama(values: Mapping[str, Value | str]) -> int:
    """A Llama model's parameters as Meta's ``model.py`` builds it.

    Untied input and output embeddings 2·V·h; per layer Q and the output projection h²
    each, K and V h·(h·g/a) each, three SwiGLU matrices h·f, two RMSNorm weights h; a
    final RMSNorm h. No biases, rotary positions.
    """
    layers, hidden, heads, kv_heads, ffn, vocabulary = (
        _whole(values, name)
        for name in ("layers", "hidden", "heads", "kv_heads", "ffn", "vocabulary")
    )
    kv_width = hidden * kv_heads // heads
    layer = 2 * hidden * hidden + 2 * hidden * kv_width + 3 * hidden * ffn + 2 * hidden
    return 2 * vocabulary * hidden + layers * layer + hidden


def _bloom(values: Mapping[str, Value | str]) -> int:
    """BLOOM's parameters as BigScience's README counts them: l·(12h² + 13h) + V·h + 4h.

    ``train/tr11-176B-ml/README.md`` (line 149): the layers with their biases and two
    LayerNorms, tied embeddings, the embedding's and the final LayerNorm; ALiBi, no
    learned positions.
    """
    layers, hidden, vocabulary = (
        _whole(values, name) for name in ("layers", "hidden", "vocabulary")
    )
    return layers * (12 * hidden**2 + 13 * hidden) + vocabulary * hidden + 4 * hidden


# Published parameter counts: GPT-3's in Brown et al. 2020 Table 2.1 (175.0B, rounded);
# the others exact, the safetensors totals of Meta's and BigScience's released weights
# (BLOOM's also in its model card).
PUBLISHED = {
    "gpt-3-175b": 175.0e9,
    "llama-2-7b": 6_738_415_616,
    "llama-2-70b": 68_976_648_192,
    "llama-3-8b": 8_030_261_248,
    "llama-3-70b": 70_553_706_496,
    "llama-3-405b": 405_853_388_800,
    "bloom-176b": 176_247_271_424,
}


def test_every_model_has_its_published_count() -> None:
    assert [option.value for option in presets.MODELS.options] == list(PUBLISHED)


@pytest.mark.parametrize(
    ("value", "count"),
    [
        *((value, _llama) for value in PUBLISHED if value.startswith("llama")),
        ("bloom-176b", _bloom),
    ],
)
def test_the_architecture_of_each_released_model_counts_its_published_parameters(
    value: str, count: Callable[[Mapping[str, Value | str]], int]
) -> None:
    # Exactly: a wrong layer count, width, head count, MLP size or vocabulary would show.
    assert count(_option(value).values) == PUBLISHED[value]


def _shape(values: Mapping[str, Value | str]) -> planner.Shape:
    return planner.Shape(
        layers=_whole(values, "layers"),
        hidden=_whole(values, "hidden"),
        heads=_whole(values, "heads"),
        kv_heads=_whole(values, "kv_heads"),
        ffn=_whole(values, "ffn"),
        swiglu=values["mlp"] == "swiglu",
        vocabulary=_whole(values, "vocabulary"),
        sequence=_whole(values, "sequence"),
        untied=values["output_layer"] == "untied",
    )


# The planner's count against the published one: it counts every model as Megatron-LM's
# GPT, with learned positions, biases and two-parameter norms, and the output layer tied
# or untied as the preset says (LLaMA's is untied: for Llama 3 8B, 128,256 × 4,096 = 525M
# parameters, 6.5 % of the model, which a tied count missed). Target: within 2 %; what
# remains is LLaMA's rotary positions, absent biases and one-parameter RMSNorm.
PLANNER_ERRORS = {
    "gpt-3-175b": -0.0022,
    "llama-2-7b": 0.0027,
    "llama-2-70b": 0.0006,
    "llama-3-8b": 0.0044,
    "llama-3-70b": 0.0011,
    "llama-3-405b": 0.0004,
    "bloom-176b": 0.0002,
}
PLANNER_MISSED: set[str] = set()


@pytest.mark.parametrize("value", PLANNER_ERRORS)
def test_the_planners_parameters_against_the_published_count(value: str) -> None:
    error = planner.parameters(_shape(_option(value).values)) / PUBLISHED[value] - 1
    assert error == pytest.approx(PLANNER_ERRORS[value], abs=5e-5)
    assert (abs(error) <= 0.02) == (value not in PLANNER_MISSED)
