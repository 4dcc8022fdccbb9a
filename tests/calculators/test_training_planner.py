"""Training planner (check mode): parameters, memory, FLOPs and a first-order step time.

Known values worked by hand, the papers' closed forms, every refusal and warning,
properties of the model, and the published runs of ``planner_runs`` with each row's error.
The planner is not registered yet, so its declaration is taken from its module.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import InvalidInputs, run
from calculator.calculators import planner_checks
from calculator.calculators import training_planner as planner
from calculator.calculators.data_parallel_scaling import estimate
from calculator.calculators.pipeline_bubble import bubble
from calculator.calculators.planner_runs import (
    A100_CLUSTER,
    DATA_PARALLEL_530B,
    RUNS,
    TABLE_1,
    TABLE_5,
    PublishedRun,
)
from calculator.spec import Value
from tests.calculators import complete
from tests.strategies import planner_layouts as layouts

CHECK = planner.CALCULATOR.mode("check")
DEFAULTS = {name: value for name, value in CHECK.defaults().items() if value is not None}
GB = 10**9


def _check(request: dict[str, Any]) -> dict[str, Value]:
    """Run the check mode on ``request``: every output, as a number."""
    return complete(run(CHECK, request).values)


def _gpt(layers: int, hidden: int, heads: int) -> planner.Shape:
    """A GPT model of the papers: V = 51,200, s = 2,048, GeLU, f = 4h, MHA."""
    return planner.Shape(
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=heads,
        ffn=4 * hidden,
        swiglu=False,
        vocabulary=51200,
        sequence=2048,
    )


# A tiny model worked by hand: l = 2, h = 4, a = 2, f = 16, V = 10, s = 3.
TINY = {
    **DEFAULTS,
    "layers": 2,
    "hidden": 4,
    "heads": 2,
    "vocabulary": 10,
    "sequence": 3,
    "devices": 1,
    "global_batch": 1,
    "micro_batch": 1,
    "tensor": 1,
    "pipeline": 1,
    "interleave": 1,
    "zero": "0",
    "recompute": "none",
    "sequence_parallel": "off",
}


# --------------------------------------------------------------------------- parameters


def test_parameters_of_a_tiny_model_by_hand() -> None:
    # A layer: QKV 4·12 + projection 4·4 + MLP 4·16 + 16·4 = 192 weights; biases
    # 12 + 4 + 16 + 4 = 36; two LayerNorms 16: 244. Two layers 488, word embeddings
    # 10·4 = 40, positions 3·4 = 12, final LayerNorm 8: 548.
    assert _check(TINY)["parameters"] == 548


def test_parameters_with_grouped_query_attention_and_swiglu_by_hand() -> None:
    # h = 8, a = 4, g = 2 (K and V 4 wide), f = 12, SwiGLU. QKV 8·16 = 128, projection 64,
    # MLP 3·8·12 = 288; biases QKV 16, projection 8, gate and up 24, down 8; LayerNorms 32:
    # 568 a layer. Word embeddings 16·8, positions 4·8, final LayerNorm 16: 176.
    request = {**TINY, "layers": 1, "hidden": 8, "heads": 4, "kv_heads": 2, "ffn": 12}
    request |= {"mlp": "swiglu", "vocabulary": 16, "sequence": 4, "output_layer": "tied"}
    assert _check(request)["parameters"] == 744


@pytest.mark.parametrize("published", [r for r in RUNS if r.parameters], ids=lambda r: r.id)
def test_parameters_are_narayanan_eq_2_and_round_to_table_1(published: PublishedRun) -> None:
    inputs = published.inputs
    shape = _gpt(int(inputs["layers"]), int(inputs["hidden"]), int(inputs["heads"]))
    n, h, v, s = shape.layers, shape.hidden, shape.vocabulary, shape.sequence
    eq_2 = 12 * n * h * h * (1 + Fraction(13, 12 * h) + Fraction(v + s, 12 * n * h))
    # Eq. 2 leaves out the final LayerNorm's 2h.
    assert planner.parameters(shape) == eq_2 + 2 * h
    assert planner.parameters(shape) / 1e9 == pytest.approx(published.parameters, abs=0.05)


def test_the_first_stage_holds_its_layers_split_and_the_embeddings() -> None:
    shape = _gpt(96, 12288, 96)
    split = 12 * 12288**2 + 3 * 12288 + 4 * 12288  # matrices, QKV and first MLP biases
    replicated = 6 * 12288  # projection and second MLP biases, two LayerNorms
    held = planner.stage_parameters(shape, tensor=8, pipeline=8)
    assert held == Fraction(12 * split + 51200 * 12288, 8) + 12 * replicated + 2048 * 12288
    # One stage holds every layer and the final LayerNorm.
    assert planner.stage_parameters(shape, tensor=1, pipeline=1) == planner.parameters(shape)


# --------------------------------------------------------------------------- FLOPs

gpt_shapes = st.builds(
    _gpt,
    st.integers(min_value=1, max_value=200),
    st.integers(min_value=1, max_value=200).map(lambda k: 64 * k),
    st.just(1),
)


@given(gpt_shapes, st.integers(min_value=1, max_value=4096))
def test_flops_are_narayanan_eq_3_for_the_gpt_shape(shape: planner.Shape, batch: int) -> None:
    b, s, n, h, v = batch, shape.sequence, shape.layers, shape.hidden, shape.vocabulary
    base = 72 * b * s * n * h * h
    model = base * (1 + Fraction(s, 6 * h) + Fraction(v, 12 * n * h))
    assert planner.model_flops(shape, batch=b) == model
    full = Fraction(96 * b * s * n * h * h) * (1 + Fraction(s, 6 * h) + Fraction(v, 16 * n * h))
    assert planner.hardware_flops(shape, batch=b, recompute="full") == full
    # Selective: one more forward of QKᵀ and A·V, 4·B·s²·l·h; none: the model's.
    selective = planner.hardware_flops(shape, batch=b, recompute="selective")
    assert selective == model + 4 * b * s * s * n * h
    assert planner.hardware_flops(shape, batch=b, recompute="none") == model


@given(
    st.integers(min_value=1, max_value=100),
    st.integers(min_value=1, max_value=64),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=1, max_value=50_000),
    st.booleans(),
    st.integers(min_value=1, max_value=300_000),
    st.integers(min_value=1, max_value=32_768),
    st.integers(min_value=1, max_value=1024),
)
def test_model_flops_are_megatron_lm_core_r0_11_num_floating_point_operations(  # noqa: PLR0917
    layers: int,
    head_size: int,
    groups: int,
    group_size: int,
    ffn: int,
    swiglu: bool,
    vocabulary: int,
    sequence: int,
    batch: int,
) -> None:
    heads = groups * group_size
    shape = planner.Shape(
        layers=layers,
        hidden=heads * head_size,
        heads=heads,
        kv_heads=groups,
        ffn=ffn,
        swiglu=swiglu,
        vocabulary=vocabulary,
        sequence=sequence,
    )
    h, s = shape.hidden, sequence
    # training.py lines 118–171 at 7c00175e (core_r0.11.0), kv_channels = h / a.
    attention = 1 + Fraction(groups, heads) + Fraction(s, h)
    mlp = Fraction(ffn, h) * (Fraction(3, 2) if swiglu else 1)
    logit = Fraction(vocabulary, 2 * layers * h)
    megatron = 12 * batch * s * layers * h * h * (attention + mlp + logit)
    assert planner.model_flops(shape, batch=batch) == megatron


# --------------------------------------------------------------------------- memory


def test_model_states_are_megatron_lms_18_and_6_plus_12_over_d() -> None:
    # docs/user-guide/features/dist_optimizer.md line 19: bf16 parameters, fp32 gradients.
    for d in (1, 2, 8, 64, 1000):
        assert sum(planner.model_state_bytes(Fraction(1), data_parallel=d, zero=0)) == 18
        zero_1 = planner.model_state_bytes(Fraction(1), data_parallel=d, zero=1)
        assert sum(zero_1) == 6 + Fraction(12, d)


@pytest.mark.parametrize(
    ("zero", "gigabytes"),
    [(0, 120), (1, 31.4), (2, 16.6), (3, 1.9)],
)
def test_zero_sharding_gives_the_zero_papers_figure_1(zero: int, gigabytes: float) -> None:
    # Rajbhandari et al. 2020, Figure 1: Ψ = 7.5B, N_d = 64, K = 12, fp16 gradients.
    states = planner.model_state_bytes(
        Fraction(7_500_000_000), data_parallel=64, zero=zero, gradient_bytes=2
    )
    assert round(float(sum(states)) / GB, 1) == gigabytes


@pytest.mark.parametrize(
    ("recompute", "parallel", "expected"),
    [
        # Korthikanti et al. 2022, Table 2, in units of s·b·h; 5as/h = 80 for GPT-3, t = 8.
        ("none", False, 10 + Fraction(24, 8) + Fraction(80, 8)),
        ("none", True, Fraction(34 + 80, 8)),
        ("selective", False, 10 + Fraction(24, 8)),
        ("selective", True, Fraction(34, 8)),
        ("full", False, 2),
        ("full", True, Fraction(2, 8)),
    ],
)
def test_activations_per_layer_are_korthikanti_table_2(
    recompute: str, parallel: bool, expected: Fraction
) -> None:
    shape = _gpt(96, 12288, 96)
    sbh = 2048 * 1 * 12288
    kept = planner.activation_bytes_per_layer(
        shape, micro_batch=1, tensor=8, recompute=recompute, sequence_parallel=parallel
    )
    assert kept == expected * sbh


def test_swiglu_keeps_its_gate_its_other_half_and_their_product() -> None:
    # f = 8h/3 with SwiGLU keeps 6f/h = 16 in the MLP, as GeLU does with f = 4h.
    llama = planner.Shape(
        layers=1,
        hidden=3 * 512,
        heads=12,
        kv_heads=12,
        ffn=8 * 512,
        swiglu=True,
        vocabulary=1,
        sequence=2,
    )
    gpt = planner.Shape(**{**_fields(llama), "ffn": 4 * 3 * 512, "swiglu": False})
    for shape in (llama, gpt):
        kept = planner.activation_bytes_per_layer(
            shape, micro_batch=1, tensor=1, recompute="selective", sequence_parallel=False
        )
        assert kept == 34 * 2 * 3 * 512


def _fields(shape: planner.Shape) -> dict[str, Any]:
    return {name: getattr(shape, name) for name in planner.Shape.__slots__}


def test_memory_of_the_tiny_model_by_hand() -> None:
    values = _check(TINY)
    # 548 parameters at 2, 4 and 12 bytes.
    assert values["weights_memory"] == 1096 / GB
    assert values["gradients_memory"] == 2192 / GB
    assert values["optimizer_memory"] == 6576 / GB
    # A layer keeps 34·s·b·h + 5·a·s²·b = 408 + 90 bytes; two layers 996; the embedding's
    # dropout mask s·b·h = 12; the output layer (p = 1) 4·s·b·h·(1 + V/h) = 168.
    assert values["activation_memory"] == 1176 / GB
    assert values["memory"] == 11040 / GB


def test_whole_model_activations_are_korthikanti_section_4_with_the_interleaving_factor() -> None:
    # GPT-3, t = 8, p = 8, selective with sequence parallelism: 34·s·b·h·l/t for the layers
    # (p micro-batches of l/p layers) and s·b·h·p/t for the embedding's dropout (4.3).
    request = {**DEFAULTS, "interleave": 1}
    sbh = 2048 * 12288
    plain = Fraction(34 * sbh * 96, 8) + Fraction(sbh * 8, 8)
    assert _check(request)["activation_memory"] == float(plain / GB)
    # With v = 3 chunks, 1 + (p−1)/(p·v) times as much (section 4.2.3).
    interleaved = _check({**request, "interleave": 3})["activation_memory"]
    assert interleaved == float(plain * (1 + Fraction(7, 24)) / GB)


def test_fewer_micro_batches_than_stages_keep_only_those_in_flight() -> None:
    # m = 2 < p = 8: the first stage holds 2 micro-batches, not 8.
    request = {**DEFAULTS, "interleave": 1, "global_batch": 2}
    sbh = 2048 * 12288
    expected = 2 * (Fraction(34 * sbh * 12, 8) + Fraction(sbh, 8))
    assert _check(request)["activation_memory"] == float(expected / GB)


# --------------------------------------------------------------------------- time


def test_compute_and_bubble_of_the_defaults() -> None:
    values = _check(DEFAULTS)
    shape = _gpt(96, 12288, 96)
    hardware = planner.hardware_flops(shape, batch=64, recompute="selective")
    rate = Fraction(312 * 10**12) * Fraction(repr(planner.EFFICIENCY)) / 100
    compute = Fraction(hardware, 64) / rate
    assert values["compute_time"] == float(compute)
    # The pipeline-bubble calculator's (p−1)/(v·m) of the compute: 7 / (3 · 64).
    overhead = bubble(stages=8, micro_batches=64, chunks=3).values["bubble_overhead"] or 0
    assert values["bubble_time"] == pytest.approx(values["compute_time"] * overhead / 100)
    assert values["bubble_time"] == float(compute * Fraction(7, 192))


# s·b·h·2 = 2·10⁶ bytes a collective, 100 GB/s, no latency: a ring of 2 moves
# 2(t−1)/t · 2·10⁶ bytes in 2·10⁻⁵ s.
LINKS = {
    **TINY,
    "hidden": 1000,
    "heads": 8,
    "sequence": 1000,
    "intra_bandwidth": 100,
    "inter_bandwidth": 100,
    "latency": 0,
}


def test_tensor_traffic_by_hand() -> None:
    # 4 all-reduces a layer, 2 layers, 1 micro-batch; 6 with full recomputation.
    request = {**LINKS, "devices": 2, "tensor": 2}
    assert _check(request)["tensor_time"] == pytest.approx(8 * 2e-5, rel=1e-12)
    full = _check({**request, "recompute": "full"})
    assert full["tensor_time"] == pytest.approx(12 * 2e-5, rel=1e-12)
    # Sequence parallelism moves the same bytes in as many steps.
    assert _check({**request, "sequence_parallel": "on"})["tensor_time"] == pytest.approx(8 * 2e-5)
    # α = 1 µs: a ring of 2 pays 2 steps a call.
    slow = _check({**request, "latency": 1})["tensor_time"]
    assert slow == pytest.approx(8 * (2e-5 + 2e-6), rel=1e-12)


def test_tensor_parallelism_beyond_a_node_runs_at_the_network_bandwidth_and_warns() -> None:
    request = {**LINKS, "devices": 4, "tensor": 4, "devices_per_node": 2}
    result = run(CHECK, {**request, "inter_bandwidth": 50})
    # 2·3/4 · 2·10⁶ bytes at 50 GB/s, 8 times.
    assert result.values["tensor_time"] == pytest.approx(8 * 6e-5, rel=1e-12)
    assert result.warnings == ("tensor_across_nodes",)


def test_pipeline_traffic_by_hand() -> None:
    # p = 2 on one node: v·m + p − 1 = 2 slots, forward and backward, 2·10⁶ bytes each.
    request = {**LINKS, "devices": 2, "pipeline": 2}
    assert _check(request)["pipeline_time"] == pytest.approx(4 * 2e-5, rel=1e-12)
    # Across nodes a device gets its share of the node's bandwidth: 100 / 1 GB/s here,
    # and sequence parallelism (t = 2) halves what a send carries.
    across = {**request, "devices": 4, "tensor": 2, "devices_per_node": 2}
    across |= {"sequence_parallel": "on", "inter_bandwidth": 100}
    assert _check(across)["pipeline_time"] == pytest.approx(4 * 2e-5 / 2 * 2, rel=1e-12)
    assert _check({**request, "latency": 1})["pipeline_time"] == pytest.approx(4 * (2e-5 + 1e-6))


def test_data_traffic_is_the_data_parallel_estimate_of_the_stage_gradients() -> None:
    request = {**LINKS, "devices": 16, "devices_per_node": 8, "latency": 2, "global_batch": 16}
    values = _check(request)
    held = planner.stage_parameters(
        planner.Shape(
            layers=2,
            hidden=1000,
            heads=8,
            kv_heads=8,
            ffn=4000,
            swiglu=False,
            vocabulary=10,
            sequence=1000,
        ),
        tensor=1,
        pipeline=1,
    )
    # d = 16 spans 2 nodes of 8: each node's ring members get all of its bandwidth.
    expected = estimate(
        parameters=math.ceil(held),
        bytes_per_value=4,
        bucket_size=0,
        sharding="none",
        devices=16,
        devices_per_node=8,
        bus_bandwidth=100,
        algorithm="ring",
        latency=2,
        network_latency=2,
        compute_time=1,
        overlap=0,
    ).values["allreduce_time"]
    assert values["data_time"] == pytest.approx((expected or 0) / 1000, rel=1e-12)
    by_hand = 2 * 15 / 16 * held * 4 / 100e9 + 30 * 2e-6
    assert values["data_time"] == pytest.approx(float(by_hand), rel=1e-12)
    # ZeRO-3 moves 1.5 times as much; ZeRO-1 and -2 as much as plain data parallelism.
    assert _check({**request, "zero": "3"})["data_time"] == pytest.approx(1.5 * values["data_time"])
    assert _check({**request, "zero": "2"})["data_time"] == values["data_time"]


def test_data_parallel_replicas_t_apart_share_the_nodes_bandwidth() -> None:
    # t = 2, d = 8 on nodes of 8: 4 replicas a node, each ring gets 4/8 of 100 GB/s.
    request = {**LINKS, "devices": 16, "tensor": 2, "devices_per_node": 8, "global_batch": 8}
    shared = _check(request)["data_time"]
    held = planner.stage_parameters(
        planner.Shape(
            layers=2,
            hidden=1000,
            heads=8,
            kv_heads=8,
            ffn=4000,
            swiglu=False,
            vocabulary=10,
            sequence=1000,
        ),
        tensor=2,
        pipeline=1,
    )
    assert shared == pytest.approx(float(2 * Fraction(7, 8) * math.ceil(held) * 4 / 50e9))
    # Within one node (t·d ≤ n) the ring runs at the node's own bandwidth.
    inside = _check({**request, "devices": 8, "global_batch": 4, "intra_bandwidth": 50})
    assert inside["data_time"] == pytest.approx(
        float(2 * Fraction(3, 4) * math.ceil(held) * 4 / 50e9)
    )


def test_rates_and_utilisations_of_the_defaults() -> None:
    values = _check(DEFAULTS)
    parts = ("compute_time", "bubble_time", "tensor_time", "pipeline_time", "data_time")
    assert values["step_time"] == pytest.approx(sum(values[part] for part in parts), rel=1e-12)
    assert values["data_time"] == 0  # d = 1
    assert values["tokens_per_second"] == pytest.approx(64 * 2048 / values["step_time"])
    shape = _gpt(96, 12288, 96)
    model = planner.model_flops(shape, batch=64) / 64 / values["step_time"]
    assert values["model_tflops"] == pytest.approx(model / 1e12, rel=1e-12)
    assert values["mfu"] == pytest.approx(values["model_tflops"] / 312 * 100, rel=1e-12)
    assert values["mfu"] < values["hfu"] < planner.EFFICIENCY


# --------------------------------------------------------------------------- refusals


def test_every_bad_layout_is_reported_at_once_in_the_order_of_the_fields() -> None:
    request = {**DEFAULTS, "hidden": 1000, "heads": 12, "kv_heads": 5, "ffn": 1001}
    request |= {"layers": 95, "devices": 60}
    with pytest.raises(InvalidInputs) as raised:
        run(CHECK, request)
    assert [error.as_dict() for error in raised.value.errors] == [
        {"field": "hidden", "code": "not_divisible", "bound": 12},
        {"field": "heads", "code": "not_divisible", "bound": 5},
        {"field": "heads", "code": "not_divisible", "bound": 8},
        {"field": "kv_heads", "code": "not_divisible", "bound": 8},
        {"field": "ffn", "code": "not_divisible", "bound": 8},
        {"field": "layers", "code": "not_divisible", "bound": 24},
        {"field": "devices", "code": "not_divisible", "bound": 64},
    ]


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"heads": 12}, ("heads", "not_divisible", 8)),
        ({"layers": 100, "interleave": 1}, ("layers", "not_divisible", 8)),
        ({"devices": 128, "global_batch": 62}, ("global_batch", "not_divisible", 16)),
        ({"devices": 128, "global_batch": 63}, ("global_batch", "not_divisible", 2)),
        # m = 4 micro-batches for p = 8 stages: interleaving needs a multiple of 8.
        ({"global_batch": 4}, ("global_batch", "not_divisible", 8)),
        ({"pipeline": 1, "interleave": 2}, ("interleave", "above_maximum", 1)),
    ],
)
def test_each_refusal_names_its_field_and_bound(
    changes: dict[str, Any], error: tuple[str, str, int]
) -> None:
    with pytest.raises(InvalidInputs) as raised:
        run(CHECK, {**DEFAULTS, **changes})
    assert [(e.field, e.code, e.bound) for e in raised.value.errors] == [error]


def test_without_interleaving_any_number_of_micro_batches_is_accepted() -> None:
    assert _check({**DEFAULTS, "interleave": 1, "global_batch": 3})["micro_batches"] == 3


def test_a_layout_that_does_not_fit_is_computed_with_a_warning() -> None:
    result = run(CHECK, {**DEFAULTS, "memory": 40})
    assert result.warnings == ("out_of_memory",)
    assert result.values == run(CHECK, DEFAULTS).values


# --------------------------------------------------------------------------- properties


@given(layouts())
def test_every_output_is_finite_and_the_parts_add_up(request: dict[str, Any]) -> None:
    values = _check(request)
    assert all(math.isfinite(value) and value >= 0 for value in values.values())
    memory = ("weights_memory", "gradients_memory", "optimizer_memory", "activation_memory")
    assert values["memory"] == pytest.approx(sum(values[part] for part in memory), rel=1e-12)
    parts = ("compute_time", "bubble_time", "tensor_time", "pipeline_time", "data_time")
    assert values["step_time"] == pytest.approx(sum(values[part] for part in parts), rel=1e-12)
    assert values["step_time"] > 0
    tokens = request["global_batch"] * request["sequence"]
    assert values["tokens_per_second"] * values["step_time"] == pytest.approx(tokens, rel=1e-12)
    d = request["devices"] // (request["tensor"] * request["pipeline"])
    assert values["data_parallel"] == d
    assert values["micro_batches"] * request["micro_batch"] * d == request["global_batch"]


@given(layouts())
def test_mfu_never_exceeds_hfu_and_hfu_never_exceeds_the_efficiency(
    request: dict[str, Any],
) -> None:
    values = _check(request)
    assert values["mfu"] <= values["hfu"] * (1 + 1e-12)
    assert values["hfu"] <= request["efficiency"] * (1 + 1e-12)
    if request["recompute"] == "none":
        assert values["mfu"] == pytest.approx(values["hfu"], rel=1e-12)


@given(layouts())
def test_each_traffic_is_zero_without_its_parallelism(request: dict[str, Any]) -> None:
    alone = {**request, "tensor": 1, "pipeline": 1, "interleave": 1, "devices": 1}
    alone["global_batch"] = request["micro_batch"]
    values = _check(alone)
    assert values["bubble_time"] == values["tensor_time"] == 0
    assert values["pipeline_time"] == values["data_time"] == 0
    assert values["step_time"] == values["compute_time"]
    replicas = request["devices"] // (request["tensor"] * request["pipeline"])
    one_stage = {**alone, "tensor": request["tensor"], "devices": request["tensor"] * replicas}
    one_stage["global_batch"] = request["micro_batch"] * replicas
    values = _check(one_stage)
    assert values["bubble_time"] == values["pipeline_time"] == 0


@given(layouts())
def test_memory_never_grows_with_the_zero_stage(request: dict[str, Any]) -> None:
    memory = [_check({**request, "zero": stage})["memory"] for stage in "0123"]
    assert memory == sorted(memory, reverse=True)


@given(layouts())
def test_recomputing_more_keeps_fewer_activations(request: dict[str, Any]) -> None:
    kept = [
        _check({**request, "recompute": r})["activation_memory"]
        for r in ("none", "selective", "full")
    ]
    assert kept == sorted(kept, reverse=True)
    # The FLOPs executed, and so the compute time, grow the other way.
    compute = [
        _check({**request, "recompute": r})["compute_time"] for r in ("none", "selective", "full")
    ]
    assert compute == sorted(compute)


@given(layouts(split=2))
def test_memory_never_grows_with_twice_the_tensor_parallelism(request: dict[str, Any]) -> None:
    # Twice the devices keep d and m: each device holds half the split weights and activations.
    wider = {**request, "tensor": 2 * request["tensor"], "devices": 2 * request["devices"]}
    assert _check(wider)["memory"] <= _check(request)["memory"] * (1 + 1e-12)


@given(layouts(stages=2))
def test_model_states_never_grow_with_twice_the_stages(request: dict[str, Any]) -> None:
    deeper = {**request, "pipeline": 2 * request["pipeline"], "devices": 2 * request["devices"]}
    if request["interleave"] > 1:
        deeper["global_batch"] *= 2  # m stays a multiple of p
    states = ("weights_memory", "gradients_memory", "optimizer_memory")
    before, after = _check(request), _check(deeper)
    for state in states:
        assert after[state] <= before[state] * (1 + 1e-12)
    # With no more micro-batches than stages and no interleaving, the activations fall too
    # (in flight, the embedding's dropout mask grows with p: Korthikanti et al. 4.3).
    if request["interleave"] == 1 and before["micro_batches"] <= request["pipeline"]:
        assert after["memory"] <= before["memory"] * (1 + 1e-12)


@given(layouts(), st.floats(min_value=planner.MIN_EFFICIENCY, max_value=100))
def test_a_higher_efficiency_never_slows_the_step(request: dict[str, Any], other: float) -> None:
    low, high = sorted((request["efficiency"], other))
    slow = _check({**request, "efficiency": low})
    fast = _check({**request, "efficiency": high})
    assert fast["step_time"] <= slow["step_time"] * (1 + 1e-12)


def test_the_corners_of_the_bounds_stay_finite() -> None:
    largest = {
        "layers": planner.MAX_LAYERS,
        "hidden": planner.MAX_HIDDEN,
        "heads": planner.MAX_HEADS,
        "ffn": planner.MAX_FFN,
        "mlp": "swiglu",
        "output_layer": "untied",
        "vocabulary": planner.MAX_VOCABULARY,
        "sequence": planner.MAX_SEQUENCE,
        "devices_per_node": 1,
        "peak": planner.MIN_PEAK,
        "memory": planner.MIN_MEMORY,
        "efficiency": planner.MIN_EFFICIENCY,
        "intra_bandwidth": 0.001,
        "inter_bandwidth": 0.001,
        "latency": 1_000_000,
        "global_batch": planner.MAX_BATCH,
        "zero": "0",
        "recompute": "full",
        "sequence_parallel": "off",
        "interleave": 1,
    }
    wide = {**largest, "devices": planner.MAX_DEVICES, "tensor": 100_000, "pipeline": 100}
    deep = {**largest, "devices": 1, "tensor": 1, "pipeline": 1, "micro_batch": 1}
    for request in ({**wide, "micro_batch": planner.MAX_BATCH}, deep):
        values = _check(request)
        assert all(math.isfinite(value) for value in values.values())
        assert values["step_time"] < 1e31
        assert values["memory"] < 1e26
    smallest = {**TINY, "hidden": 1, "heads": 1, "layers": 1, "vocabulary": 1, "sequence": 1}
    smallest |= {"devices": planner.MAX_DEVICES, "devices_per_node": planner.MAX_DEVICES}
    smallest |= {"global_batch": planner.MAX_DEVICES, "peak": planner.MAX_PEAK, "latency": 0}
    smallest |= {"intra_bandwidth": 1_000_000, "efficiency": 100}
    values = _check(smallest)
    assert values["step_time"] > 1e-21
    assert math.isfinite(values["tokens_per_second"])


# --------------------------------------------------------------------------- published runs


def _predicted(published: PublishedRun, efficiency: float = planner.EFFICIENCY) -> dict[str, Value]:
    return complete(planner_checks.predict(published, efficiency).values)


def _mean_error(efficiency: float) -> float:
    errors = [planner_checks.compare(r, efficiency, seconds=True).error for r in RUNS]
    return sum(abs(error) for error in errors) / len(errors)


def test_the_default_efficiency_is_the_one_fitted_on_every_published_run() -> None:
    # Every 0.1 point from 30 % to 100 %: the one value, for all 20 runs, that minimises the
    # mean absolute relative error of the step time.
    grid = [tenths / 10 for tenths in range(300, 1001)]
    assert min(grid, key=_mean_error) == planner.EFFICIENCY
    assert DEFAULTS["efficiency"] == planner.EFFICIENCY


# Narayanan et al. 2021, Table 1: predicted against published TFLOP/s per GPU, eq. 3.
# Target ±10 %. The two smallest models miss it: one efficiency for every model cannot see
# that matrix products of h = 2,304 and 3,072 (t = 1 and 2) run further from peak than
# those of the large models, nor the memory-bound LayerNorms, softmax and dropouts, whose
# share of the work grows as h shrinks; they are asserted at their measured error.
TABLE_1_ERRORS = {
    "narayanan-2021-1.7b": 0.3859,  # missed
    "narayanan-2021-3.6b": 0.2664,  # missed
    "narayanan-2021-7.5b": 0.0946,
    "narayanan-2021-18b": 0.0715,
    "narayanan-2021-39b": 0.0416,
    "narayanan-2021-76b": 0.0657,
    "narayanan-2021-145b": 0.0266,
    "narayanan-2021-310b": 0.0210,
    "narayanan-2021-530b": -0.0548,
    "narayanan-2021-1t": -0.0424,
}
TABLE_1_MISSED = {"narayanan-2021-1.7b", "narayanan-2021-3.6b"}


@pytest.mark.parametrize("published", [r for r in RUNS if r.group == TABLE_1], ids=lambda r: r.id)
def test_table_1_tflops_per_gpu(published: PublishedRun) -> None:
    values = _predicted(published)
    assert values["micro_batches"] * int(published.inputs["micro_batch"]) * values[
        "data_parallel"
    ] == int(published.inputs["global_batch"])
    # Table 1 counts hardware FLOPs with full recomputation, eq. 3: the planner's HFU.
    compared = planner_checks.compare(published)
    assert compared.figure == "tflops"
    assert compared.predicted == pytest.approx(values["hfu"] * 312 / 100, rel=1e-12)
    assert compared.error == pytest.approx(TABLE_1_ERRORS[published.id], abs=5e-4)
    if published.id not in TABLE_1_MISSED:
        assert abs(compared.error) <= 0.10
    # For the efficiency's fit, its seconds: the hardware FLOPs of eq. 3 at its TFLOP/s.
    inputs = published.inputs
    shape = _gpt(int(inputs["layers"]), int(inputs["hidden"]), int(inputs["heads"]))
    flops = planner.hardware_flops(shape, batch=int(inputs["global_batch"]), recompute="full")
    timed = planner_checks.compare(published, seconds=True)
    assert (timed.basis, timed.predicted) == ("tflops", values["step_time"])
    assert timed.measured == flops / (int(inputs["devices"]) * compared.measured * 1e12)
    assert run(CHECK, {**DEFAULTS, **A100_CLUSTER, **published.inputs}).warnings == ()


def test_table_1_misses_its_target_on_two_rows() -> None:
    summary = planner_checks.summarise(TABLE_1)
    assert summary.within == len(TABLE_1_ERRORS) - len(TABLE_1_MISSED)
    assert summary.met is False


# Korthikanti et al. 2022, Table 5: predicted against published seconds per iteration.
# Target: a mean absolute error within 15 % over its eight rows. Full recomputation runs
# faster than the model says for the largest models: Korthikanti et al. (section 6.2)
# overlap the backward pass's all-reduces with the weights' gradients, which the model
# does not, and full recomputation has 6 of them a layer against 4.
TABLE_5_ERRORS = {
    "korthikanti-2022-22b-full": -0.1490,
    "korthikanti-2022-22b-selective": -0.1801,
    "korthikanti-2022-175b-full": 0.0165,
    "korthikanti-2022-175b-selective": -0.0363,
    "korthikanti-2022-530b-full": 0.1542,
    "korthikanti-2022-530b-selective": 0.0194,
    "korthikanti-2022-1t-full": 0.1286,
    "korthikanti-2022-1t-selective": 0.0728,
}
# The 530B model on 2,240 GPUs, 8 replicas (section 6.3 and the abstract): the same model
# with the data-parallel reduction; no target was set for these two.
DATA_PARALLEL_ERRORS = {
    "korthikanti-2022-530b-2240-gpus-full": 0.1360,
    "korthikanti-2022-530b-2240-gpus-selective": 0.0004,
}


def test_table_5_seconds_per_iteration() -> None:
    summary = planner_checks.summarise(TABLE_5)
    errors = {c.run.id: c.error for c in summary.comparisons}
    assert errors == pytest.approx(TABLE_5_ERRORS, abs=5e-4)
    assert summary.mean_error <= 0.15
    assert summary.met is True
    for compared in summary.comparisons:
        assert compared.predicted == _predicted(compared.run)["step_time"]
        assert compared.measured == compared.run.seconds
    for published in (c.run for c in summary.comparisons):
        assert run(CHECK, {**DEFAULTS, **A100_CLUSTER, **published.inputs}).warnings == ()


def test_the_530b_model_with_eight_replicas() -> None:
    summary = planner_checks.summarise(DATA_PARALLEL_530B)
    errors = {c.run.id: c.error for c in summary.comparisons}
    assert errors == pytest.approx(DATA_PARALLEL_ERRORS, abs=5e-4)
    assert summary.met is None
    # The full-recomputation row publishes an MFU only: its seconds come from it.
    assert [c.basis for c in summary.comparisons] == ["mfu", "seconds"]
    model = planner.model_flops(_gpt(105, 20480, 128), batch=2240)
    assert summary.comparisons[0].measured == pytest.approx(model / (2240 * 312e12 * 0.421))
    rows = [c.run for c in summary.comparisons]
    for published in rows:
        values = _predicted(published)
        assert values["data_parallel"] == 8
        # One replica per node in each ring (t = 8): 192 / 8 GB/s for the stage's gradients.
        assert 0.5 < values["data_time"] < 0.7
    # The paper measures 39.15 − 37.83 = 1.32 s for the reduction, with no overlap.
    (alone,) = [r for r in RUNS if r.id == "korthikanti-2022-530b-selective"]
    added = _predicted(rows[1])["step_time"] - _predicted(alone)["step_time"]
    assert added == pytest.approx(_predicted(rows[1])["data_time"], rel=1e-9)


def test_the_defaults_are_korthikantis_gpt_3_run_with_selective_recomputation() -> None:
    (published,) = [r for r in RUNS if r.id == "korthikanti-2022-175b-selective"]
    assert {**DEFAULTS, **A100_CLUSTER, **published.inputs} == DEFAULTS


@pytest.mark.parametrize("published", [r for r in RUNS if r.mfu and r.seconds], ids=lambda r: r.id)
def test_published_seconds_agree_with_the_published_mfu(
    published: PublishedRun,
) -> None:
    # Table 5's MFU, which Megatron-LM's README (2e90a342) also publishes, and the 2,240-GPU
    # run's, against their seconds: both are rounded, seconds to 2 decimals, MFU to 1.
    inputs = published.inputs
    shape = _gpt(int(inputs["layers"]), int(inputs["hidden"]), int(inputs["heads"]))
    per_second = planner.model_flops(shape, batch=int(inputs["global_batch"])) / (
        int(inputs["devices"]) * 312e12
    )
    seconds = published.seconds or 0
    low, high = 100 * per_second / (seconds + 0.005), 100 * per_second / (seconds - 0.005)
    assert low <= (published.mfu or 0) + 0.05
    assert high >= (published.mfu or 0) - 0.05


@pytest.mark.parametrize("published", [r for r in RUNS if r.hfu], ids=lambda r: r.id)
def test_published_hfu_counts_the_attention_scores_three_times(published: PublishedRun) -> None:
    # The README's HFU / MFU is Appendix A's (1 + s/(3h) + V/(12lh)) / (1 + s/(6h) + V/(12lh));
    # the planner counts one forward of the scores, and so a smaller ratio.
    h, n = int(published.inputs["hidden"]), int(published.inputs["layers"])
    s, v = 2048, 51200
    logit = Fraction(v, 12 * n * h)
    appendix = (1 + Fraction(s, 3 * h) + logit) / (1 + Fraction(s, 6 * h) + logit)
    mfu, hfu = published.mfu or 0, published.hfu or 0
    assert hfu == pytest.approx(mfu * float(appendix), abs=0.1)
    values = _predicted(published)
    assert 1 < values["hfu"] / values["mfu"] < appendix


@pytest.mark.parametrize(
    ("zero", "micro_batches", "expected"),
    [(0, 8, 1), (1, 8, 1), (2, 8, Fraction(9, 2)), (3, 8, 8), (2, 1, 1), (3, 1, 1)],
)
def test_sharded_gradients_are_reduced_after_every_micro_batch(
    zero: int, micro_batches: int, expected: Fraction
) -> None:
    assert planner.reductions(zero, micro_batches) == expected


def test_zero_2_and_3_pay_their_traffic_per_micro_batch_in_check() -> None:
    base = {name: value for name, value in CHECK.defaults().items() if value is not None}
    # Four replicas of a two-stage pipeline, eight micro-batches each.
    case = {**base, "devices": 64, "tensor": 8, "pipeline": 2, "interleave": 1, "global_batch": 32}

    def data_time(**changes: Any) -> float:
        value = run(CHECK, {**case, **changes}).values["data_time"]
        assert value is not None
        return value

    times = {zero: data_time(zero=str(zero)) for zero in range(4)}
    assert times[1] == pytest.approx(times[0])
    assert times[2] == pytest.approx(times[0] * 9 / 2)
    assert times[3] == pytest.approx(data_time(zero="3", global_batch=4) * 8)
