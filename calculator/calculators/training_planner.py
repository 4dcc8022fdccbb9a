"""Training planner: whether a parallel layout fits, and how long its steps take.

Two modes. ``search``, the first, takes a model, a cluster and a global batch, enumerates
every layout the model and the devices allow, and ranks those that fit by the step time
``check`` gives them (:func:`search`). ``check`` takes a dense GPT-style transformer, a
cluster and a Megatron-LM layout (tensor t, pipeline p with v chunks, data d = N / (t·p),
ZeRO stage, activation recomputation, sequence parallelism) and returns what a device of
the most loaded pipeline stage, the first, holds, and a first-order step time. Every term
is sourced where it is computed:

- parameters: Narayanan et al. 2021 (arXiv 2104.04473v5) eq. 2, generalised to
  grouped-query attention and SwiGLU as Megatron-LM counts the matrices;
- model states: 2 + 4 + 12 bytes per parameter (bf16 weights, fp32 main gradients,
  fp32 master weights and Adam moments), Megatron-LM's 18, sharded over d by ZeRO's
  stages (Rajbhandari et al. 2020, arXiv 1910.02054, Figure 1 and section 5);
- activations: Korthikanti et al. 2022 (arXiv 2205.05198) Table 2 and section 4.3, times
  the micro-batches the first stage holds under 1F1B (section 4.2.3);
- FLOPs: Narayanan et al. 2021 eq. 3 and Korthikanti et al. 2022 Appendix A, generalised
  as Megatron-LM's ``num_floating_point_operations`` does, with the papers' convention of
  counting every attention score;
- time: the hardware FLOPs at a share of peak, the pipeline bubble (p−1)/(v·m) as the
  ``pipeline-bubble`` calculator counts it (Narayanan et al. 2021 section 2.2), and the
  tensor-, pipeline- and data-parallel traffic at the bus bandwidths given, priced like the
  ``data-parallel-scaling`` estimate, whose own functions price the data-parallel part.
  The parts are added: a first-order model in which nothing overlaps.

Megatron-LM files are cited at commit d98e8a64ddf34856e74b24714e3bedb2f5a39553
(22 August 2026) unless another commit is named.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from ..chart_planner import PLANNER
from ..decimals import exact
from ..errors import InputError, InvalidInputs
from ..spec import (
    Calculator,
    Cell,
    Choice,
    Input,
    Mode,
    Option,
    Output,
    Result,
    Row,
    Table,
)
from .data_parallel_scaling import (
    MAX_BUS_BANDWIDTH,
    MAX_LATENCY,
    MIN_BUS_BANDWIDTH,
    estimate,
    step_latencies,
)
from .planner_presets import PRESETS

__all__ = [
    "CALCULATOR",
    "EFFICIENCY",
    "LAYOUT",
    "MAX_LAYOUTS",
    "PLANS",
    "RECOMPUTE",
    "Shape",
    "activation_bytes_per_layer",
    "check",
    "hardware_flops",
    "model_flops",
    "model_state_bytes",
    "parameters",
    "search",
    "stage_parameters",
]

BYTES_PER_GB = 10**9
WEIGHT_BYTES = 2
"""bf16 weights (``--bf16``)."""
GRADIENT_BYTES = 4
"""fp32 main gradients: under ``--bf16`` Megatron-LM accumulates and reduces gradients in
fp32 unless told otherwise (``megatron/training/arguments.py`` lines 1204–1217)."""
OPTIMIZER_BYTES = 12
"""fp32 master weights and Adam's two fp32 moments: 4 + 4 + 4."""
ACTIVATION_BYTES = 2
"""bf16 activations: a tensor of s·b·h values takes 2·s·b·h bytes (Korthikanti et al.
2022, section 4.1)."""

EFFICIENCY = 62.5
"""Share of peak, in percent, that the matrix products reach: one value for every run,
fitted once on the 20 published runs of :mod:`calculator.calculators.planner_runs` (the
value, to 0.1 point, that minimises the mean absolute relative error of their step times);
``tests/calculators/test_training_planner.py`` refits it and fails if it moves."""

# Bounds: generous for any real model and cluster, and small enough that every result
# stays finite: the FLOPs of a step stay below 1e37, its time below 1e31 s (and above
# 1e-21 s) and the memory below 1e26 GB; a test runs the corners.
MAX_LAYERS = 100_000
MAX_HIDDEN = 1_000_000
MAX_HEADS = 100_000
MAX_FFN = 10_000_000
MAX_VOCABULARY = 10_000_000
MAX_SEQUENCE = 10_000_000
MAX_DEVICES = 10_000_000
MAX_BATCH = 1_000_000_000
MAX_DEGREE = 1_000_000
MAX_INTERLEAVE = 1_000
MIN_PEAK = 0.001
MAX_PEAK = 1_000_000_000
MIN_MEMORY = 0.001
MAX_MEMORY = 1_000_000_000
MIN_EFFICIENCY = 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Shape:
    """A dense decoder-only transformer, as Megatron-LM's GPT model builds it.

    Attributes:
        layers: Transformer layers l.
        hidden: Hidden size h; the head size is h / a.
        heads: Attention (query) heads a.
        kv_heads: Key and value heads g (``--num-query-groups``); g = a without GQA.
        ffn: Hidden size of the MLP f (``--ffn-hidden-size``).
        swiglu: Whether the MLP is SwiGLU (three matrices) rather than GeLU (two).
        vocabulary: Vocabulary V, as padded by Megatron-LM.
        sequence: Sequence length s.
        untied: Whether the output layer is a V × h matrix of its own rather than the
            input embeddings (``--untie-embeddings-and-output-weights``, as LLaMA has it).
    """

    layers: int
    hidden: int
    heads: int
    kv_heads: int
    ffn: int
    swiglu: bool
    vocabulary: int
    sequence: int
    untied: bool = False

    @property
    def kv_width(self) -> int:
        """h·g/a: the width of the keys, and of the values."""
        return self.hidden * self.kv_heads // self.heads

    @property
    def matrices(self) -> int:
        """Weights of one layer's matrix products.

        Attention 2h² + 2h·(h·g/a), Megatron-LM's ``2h²(1 + g/a)``, and the MLP's two
        (GeLU) or three (SwiGLU) h × f matrices: ``theoretical_memory_usage.py`` lines
        82–93 and 103 (``gated_linear_multiplier`` 3/2).
        """
        attention = 2 * self.hidden * self.hidden + 2 * self.hidden * self.kv_width
        return attention + (3 if self.swiglu else 2) * self.hidden * self.ffn


def _layer_parameters(shape: Shape) -> tuple[int, int]:
    """One layer's parameters: (split over the tensor-parallel ranks, held by each).

    Narayanan et al. 2021 eq. 2 counts 12h² + 13h per GeLU layer with f = 4h: the
    matrices, the biases (QKV 3h, projection h, first MLP matrix 4h, second h) and two
    LayerNorms (4h). Megatron-LM's defaults have them all (``--add-bias-linear``,
    LayerNorm). The column-parallel biases (QKV, first MLP matrix) are split with their
    matrices; the row-parallel ones (projection, second MLP matrix) and the LayerNorms
    are replicated, as ``RowParallelLinear`` and ``theoretical_memory_usage.py``
    (lines 214–229: ``replicated_params``) hold them.
    """
    h = shape.hidden
    column_biases = h + 2 * shape.kv_width + (2 if shape.swiglu else 1) * shape.ffn
    return shape.matrices + column_biases, 2 * h + 4 * h


def parameters(shape: Shape) -> int:
    """Every parameter of the model.

    Narayanan et al. 2021 eq. 2, P = 12lh²(1 + 13/(12h) + (V + s)/(12lh)), plus the final
    LayerNorm's 2h, which eq. 2 leaves out and ``theoretical_memory_usage.py`` (line 96)
    counts: the layers, the word embeddings V·h once (input and output tied, Megatron-LM's
    default: ``--untie-embeddings-and-output-weights`` is off, ``arguments.py`` line 2460)
    or twice when the output layer is untied (``theoretical_memory_usage.py`` counts
    ``embedding_size`` twice then), and learned position embeddings s·h.
    """
    split, replicated = _layer_parameters(shape)
    h = shape.hidden
    words = (2 if shape.untied else 1) * shape.vocabulary
    return shape.layers * (split + replicated) + (words + shape.sequence) * h + 2 * h


def stage_parameters(shape: Shape, *, tensor: int, pipeline: int) -> Fraction:
    """Parameters on one device of the most loaded stage, the first.

    It holds l/p layers (all its v chunks together), the word embeddings split over the t
    ranks (``VocabParallelEmbedding``) and the position embeddings, replicated; the last
    stage holds the same layers, its copy of the tied word embeddings and the final
    LayerNorm, 2h against s·h, so never more (``theoretical_memory_usage.py`` lines
    247–267 count the embedding once on the most loaded shard), untied or not: an untied
    output layer is the same V·h on the last stage. With p = 1 the one stage holds
    everything, both of an untied model's V × h matrices.
    """
    split, replicated = _layer_parameters(shape)
    layers = shape.layers // pipeline
    h = shape.hidden
    words = 2 if shape.untied and pipeline == 1 else 1
    held = Fraction(layers * split + words * shape.vocabulary * h, tensor)
    held += layers * replicated + shape.sequence * h
    return held + (2 * h if pipeline == 1 else 0)


def model_state_bytes(
    stage: Fraction, *, data_parallel: int, zero: int, gradient_bytes: int = GRADIENT_BYTES
) -> tuple[Fraction, Fraction, Fraction]:
    """Bytes of weights, gradients and optimizer states on one device.

    Without sharding, 2 + 4 + 12 = 18 bytes a parameter; ZeRO-1 shards the optimizer
    states over the d replicas, ZeRO-2 the gradients too, ZeRO-3 the weights too
    (Rajbhandari et al. 2020, Figure 1: (2 + 2 + K)Ψ, 2Ψ + 2Ψ + KΨ/N_d, 2Ψ + (2 + K)Ψ/N_d,
    (2 + 2 + K)Ψ/N_d with fp16 gradients). ZeRO-1 is Megatron-LM's distributed
    optimizer, 6 + 12/d with fp32 gradients (``docs/user-guide/features/dist_optimizer.md``
    line 19; 18 without it, ``theoretical_memory_usage.py`` line 296).

    Args:
        stage: Parameters on the device before sharding.
        data_parallel: Replicas d that shard them.
        zero: ZeRO stage, 0 to 3.
        gradient_bytes: Bytes of a gradient: 4 (fp32, Megatron-LM), 2 in ZeRO's paper.
    """

    def share(nbytes: int, sharded: bool) -> Fraction:
        return stage * nbytes / (data_parallel if sharded else 1)

    return (
        share(WEIGHT_BYTES, zero >= 3),
        share(gradient_bytes, zero >= 2),
        share(OPTIMIZER_BYTES, zero >= 1),
    )


def activation_bytes_per_layer(
    shape: Shape, *, micro_batch: int, tensor: int, recompute: str, sequence_parallel: bool
) -> Fraction:
    """Bytes one layer keeps for one micro-batch until its backward pass.

    Korthikanti et al. 2022, Table 2: s·b·h·(34 + 5as/h) without parallelism, of which
    10·s·b·h stay whole on every tensor-parallel rank (the LayerNorms' inputs 4, the two
    dropout masks 2, the inputs of the QKV and first MLP products 2 + 2) and 24·s·b·h and
    the 5as²b of the attention scores are split: s·b·h·(10 + 24/t + 5as/(ht)); sequence
    parallelism splits the 10 too, s·b·h/t·(34 + 5as/h); selective recomputation keeps no
    attention scores; full recomputation keeps each layer's input, 2·s·b·h (section 5),
    which sequence parallelism leaves split over t (without it, section 5 notes, the split
    would cost an extra all-gather). The 24 is generalised from section 4.1's
    accounting: Q 2, K and V 2·g/a each, the projection's input 2, and the MLP's
    4f/h (GeLU's input and the second product's input) or 6f/h (SwiGLU's gate, its other
    half and their product), 24 for MHA with f = 4h. Megatron-LM's estimate counts 4f/h
    for SwiGLU too (``theoretical_memory_usage.py`` lines 317–319).
    """
    s, b, h = shape.sequence, micro_batch, shape.hidden
    sbh = s * b * h
    if recompute == "full":
        return Fraction(ACTIVATION_BYTES * sbh, tensor if sequence_parallel else 1)
    whole = 10 * sbh
    mlp = (6 if shape.swiglu else 4) * s * b * shape.ffn
    split = 2 * sbh + 4 * s * b * shape.kv_width + 2 * sbh + mlp
    scores = 0 if recompute == "selective" else 5 * shape.heads * s * s * b
    if sequence_parallel:
        return Fraction(whole + split + scores, tensor)
    return whole + Fraction(split + scores, tensor)


def _first_stage_activations(
    shape: Shape,
    *,
    micro_batch: int,
    micro_batches: int,
    tensor: int,
    pipeline: int,
    interleave: int,
    recompute: str,
    sequence_parallel: bool,
) -> Fraction:
    """Activation bytes on a device of the first stage, the most loaded.

    Under 1F1B the first stage holds min(m, p) micro-batches of its l/p layers, l layers'
    worth when m ≥ p (Korthikanti et al. 2022, section 4.2.3); interleaving multiplies that
    by 1 + (p−1)/(p·v) (same section; ``theoretical_memory_usage.py`` lines 341–361, which
    also discounts m < p). Section 4.3 adds the embedding's dropout mask, s·b·h a
    micro-batch (split over t under sequence parallelism), and with p = 1 the output
    layer's 4·s·b·h/t·(1 + V/h) (final LayerNorm, the output product's input and the fp32
    logits).
    """
    per_layer = activation_bytes_per_layer(
        shape,
        micro_batch=micro_batch,
        tensor=tensor,
        recompute=recompute,
        sequence_parallel=sequence_parallel,
    )
    sbh = shape.sequence * micro_batch * shape.hidden
    if interleave > 1:
        in_flight = pipeline * (1 + Fraction(pipeline - 1, pipeline * interleave))
    else:
        in_flight = Fraction(min(micro_batches, pipeline))
    layers = shape.layers // pipeline
    embedding = Fraction(sbh, tensor if sequence_parallel else 1)
    total = in_flight * (layers * per_layer + embedding)
    if pipeline == 1:
        total += Fraction(4 * sbh, tensor) * (1 + Fraction(shape.vocabulary, shape.hidden))
    return total


def model_flops(shape: Shape, *, batch: int) -> int:
    """FLOPs of one optimizer step over ``batch`` sequences, recomputation excluded.

    Each product of an m × n by an n × k matrix costs 2mnk, and the backward pass twice the
    forward: 6·B·s·(l·(W + 2·s·h) + h·V), with W a layer's matrix weights and 2·s·h per
    token for QKᵀ and the attention over V. Megatron-LM's ``num_floating_point_operations``
    at core_r0.11.0 (commit 7c00175e6b24b3cd835d21a9d287c35a07e275b3,
    ``megatron/training/training.py`` lines 118–171) is the same sum, 12·B·s·l·h²·((1 + g/a
    + s/h) + (f/h)·(1 or 3/2) + V/(2lh)); for GPT-3's shape both reduce to Narayanan et al.
    2021's 72·B·s·l·h²·(1 + s/(6h) + V/(12lh)) (eq. 3 without recomputation; Korthikanti et
    al. 2022 Appendix A). Megatron-LM since commit 8873b55d (March 2025) halves the scores
    for the causal mask; this model keeps the papers' convention, which their published
    utilisations use.
    """
    s, h = shape.sequence, shape.hidden
    return 6 * batch * s * (shape.layers * (shape.matrices + 2 * s * h) + h * shape.vocabulary)


def hardware_flops(shape: Shape, *, batch: int, recompute: str) -> int:
    """FLOPs the devices execute in one step: the model's and what is recomputed.

    Full recomputation runs every layer's forward pass again, a third of its FLOPs:
    Narayanan et al. 2021 eq. 3, 96·B·s·l·h²·(1 + s/(6h) + V/(16lh)) for GPT-3's shape.
    Selective recomputation runs the attention scores' forward again, QKᵀ and the attention
    over V, 4·B·s²·l·h (Korthikanti et al. 2022, section 5 and Appendix A). Appendix A
    writes the hardware FLOPs as 72·B·s·l·h²·(1 + s/(3h) + V/(12lh)), three times that
    term, and the HFUs it publishes follow it; this model counts what runs, one forward,
    so that selective never counts more than full recomputation.
    """
    model = model_flops(shape, batch=batch)
    s, h = shape.sequence, shape.hidden
    scores = 2 * s * h
    if recompute == "full":
        return model + 2 * batch * s * shape.layers * (shape.matrices + scores)
    if recompute == "selective":
        return model + 2 * batch * s * shape.layers * scores
    return model


SHARDING = MappingProxyType({0: "none", 1: "zero-1-2", 2: "zero-1-2", 3: "zero-3"})
"""The data-parallel estimate's sharding for each ZeRO stage: its traffic."""


def _ring(
    nbytes: int, *, devices: int, devices_per_node: int, bandwidth: Fraction, latency: float
) -> Fraction:
    """Seconds of one ring all-reduce: 2(k−1)/k · bytes / B plus its steps' latency.

    The bandwidth part is the definition of bus bandwidth (nccl-tests'
    ``doc/PERFORMANCE.md``); the latency part is :func:`step_latencies`, 2(k−1) steps.
    """
    move = Fraction(2 * (devices - 1) * nbytes, devices) / (bandwidth * BYTES_PER_GB)
    steps = step_latencies(
        algorithm="ring",
        devices=devices,
        devices_per_node=devices_per_node,
        latency=latency,
        network_latency=latency,
    )
    return move + steps / 10**6


def data_request(
    held: Fraction,
    *,
    tensor: int,
    data_parallel: int,
    devices_per_node: int,
    zero: int,
    intra_bandwidth: float,
    inter_bandwidth: float,
    latency: float,
    compute_time: float = 1,
) -> dict[str, Any]:
    """The data-parallel estimate's inputs for the reduction of the ``held`` parameters' gradients.

    The data-parallel estimate's own model of the stage's fp32 gradients, one call after
    the backward pass (``--overlap-grad-reduce`` is off by default, ``arguments.py`` lines
    3121–3122; Korthikanti et al. 2022 section 6.3 did not overlap either). The d replicas
    of a rank sit t ranks apart (the same rank order): inside a node while t·d ≤ n;
    beyond, n / t of them share each node, whose n devices all reduce at once, and each
    ring gets that share of the node's bandwidth. ZeRO-3's second gather of the weights is
    priced as the estimate prices it, half the traffic again at the gradients' bytes;
    ZeRO-1 and -2 move what an all-reduce moves, so stages 0 to 2 take the same time.
    """
    if tensor * data_parallel <= devices_per_node:
        per_node, bandwidth = devices_per_node, exact(intra_bandwidth)
    else:
        per_node = max(1, devices_per_node // tensor)
        bandwidth = exact(inter_bandwidth) * per_node / devices_per_node
    return {
        "parameters": math.ceil(held),
        "bytes_per_value": GRADIENT_BYTES,
        "bucket_size": 0,
        "sharding": SHARDING[zero],
        "devices": data_parallel,
        "devices_per_node": per_node,
        "bus_bandwidth": float(bandwidth),
        "algorithm": "ring",
        "latency": latency,
        "network_latency": latency,
        "compute_time": compute_time,
        "overlap": 0,
    }


def reductions(zero: int, micro_batches: int) -> Fraction:
    """How many of :func:`data_request`'s reductions a step makes under ZeRO stage ``zero``.

    Stages 0 and 1 reduce the gradients once a step, after the last micro-batch (an
    all-reduce, or Megatron-LM's distributed optimizer's reduce-scatter and all-gather,
    the same bytes). A device that keeps only its shard of the gradients (stage 2) must
    reduce-scatter them after every micro-batch's backward pass, and gathers the weights
    once: m + 1 halves of an all-reduce. Stage 3 also gathers the weights for every
    micro-batch's forward and backward pass: the estimate's 1.5 all-reduces, m times
    (DeepSpeed's maintainers in deepspeedai/DeepSpeed#2252; DeepSpeed's pipeline engine
    refuses stages 2 and 3 for this reason, ``deepspeed/runtime/pipe/engine.py``).
    """
    if zero == 2:
        return Fraction(micro_batches + 1, 2)
    return Fraction(micro_batches if zero == 3 else 1)


def _data_time(held: Fraction, **layout: Any) -> Fraction:
    """Seconds of the data-parallel reduction priced by the estimate (:func:`data_request`)."""
    reduction = estimate(**data_request(held, **layout))
    return Fraction(reduction.values["allreduce_time"] or 0) / 1000


def _shape(fields: dict[str, Any]) -> Shape:
    """The model of the inputs: g = a without grouped-query attention, f = 4h by default."""
    return Shape(
        layers=fields["layers"],
        hidden=fields["hidden"],
        heads=fields["heads"],
        kv_heads=fields["heads"] if fields["kv_heads"] is None else fields["kv_heads"],
        ffn=4 * fields["hidden"] if fields["ffn"] is None else fields["ffn"],
        swiglu=fields["mlp"] == "swiglu",
        vocabulary=fields["vocabulary"],
        sequence=fields["sequence"],
        untied=fields["output_layer"] == "untied",
    )


def _model_errors(*, hidden: int, heads: int, kv_heads: int | None) -> list[InputError]:
    """What Megatron-LM refuses in the model itself, whatever the layout.

    ``arguments.py`` line 1332 (h a multiple of a) and ``transformer_config.py`` line 1446
    (a a multiple of g).
    """
    errors: list[InputError] = []
    groups = heads if kv_heads is None else kv_heads
    if hidden % heads:
        errors.append(InputError("hidden", "not_divisible", heads))
    if heads % groups:
        errors.append(InputError("heads", "not_divisible", groups))
    return errors


def _errors(
    *,
    layers: int,
    hidden: int,
    heads: int,
    kv_heads: int | None,
    ffn: int,
    devices: int,
    global_batch: int,
    micro_batch: int,
    tensor: int,
    pipeline: int,
    interleave: int,
) -> list[InputError]:
    """Every layout Megatron-LM refuses, in the order of the fields.

    ``arguments.py`` line 1332 (h a multiple of a), ``transformer_config.py`` lines 1446
    and 1461–1467 (a and g multiples of t; Megatron-LM also accepts g dividing t, with K
    and V replicated, which this model does not cover), the column-parallel split of f,
    ``arguments.py`` line 968 (l a multiple of p; of p·v with v chunks), ``arguments.py``
    lines 432–434 (N a multiple of t·p), ``num_microbatches_calculator.py`` lines 380–386 (B a
    multiple of b·d) and Narayanan et al. 2021 section 2.2.2 (m a multiple of p when
    interleaving, as the ``pipeline-bubble`` calculator requires).
    """
    errors = _model_errors(hidden=hidden, heads=heads, kv_heads=kv_heads)
    if heads % tensor:
        errors.append(InputError("heads", "not_divisible", tensor))
    if kv_heads is not None and kv_heads % tensor:
        errors.append(InputError("kv_heads", "not_divisible", tensor))
    if ffn % tensor:
        errors.append(InputError("ffn", "not_divisible", tensor))
    if pipeline > 1 and layers % (pipeline * interleave):
        errors.append(InputError("layers", "not_divisible", pipeline * interleave))
    if devices % (tensor * pipeline):
        errors.append(InputError("devices", "not_divisible", tensor * pipeline))
    else:
        per_step = micro_batch * devices // (tensor * pipeline)
        if global_batch % per_step:
            errors.append(InputError("global_batch", "not_divisible", per_step))
        elif interleave > 1 and (global_batch // per_step) % pipeline:
            errors.append(InputError("global_batch", "not_divisible", per_step * pipeline))
    if interleave > 1 and pipeline == 1:
        errors.append(InputError("interleave", "above_maximum", 1))
    return errors


def check(
    *,
    layers: int,
    hidden: int,
    heads: int,
    kv_heads: int | None,
    ffn: int | None,
    mlp: str,
    vocabulary: int,
    output_layer: str,
    sequence: int,
    devices: int,
    devices_per_node: int,
    peak: float,
    memory: float,
    efficiency: float,
    intra_bandwidth: float,
    inter_bandwidth: float,
    latency: float,
    global_batch: int,
    micro_batch: int,
    tensor: int,
    pipeline: int,
    interleave: int,
    zero: str,
    recompute: str,
    sequence_parallel: str,
) -> Result:
    """Check a parallel layout: memory of the most loaded device and a first-order step.

    Args:
        layers: Transformer layers l.
        hidden: Hidden size h.
        heads: Attention heads a.
        kv_heads: Key and value heads g; ``None`` for a (no grouped-query attention).
        ffn: MLP hidden size f; ``None`` for 4h.
        mlp: ``gelu`` (two matrices) or ``swiglu`` (three).
        vocabulary: Vocabulary V (padded).
        output_layer: ``tied`` (the input embeddings) or ``untied`` (a matrix of its own).
        sequence: Sequence length s, in tokens.
        devices: Devices N.
        devices_per_node: Devices n of a node.
        peak: Dense bf16 peak of a device, in TFLOP/s.
        memory: Memory of a device, in GB (10⁹ bytes).
        efficiency: Share of the peak the matrix products reach, in percent.
        intra_bandwidth: Bus bandwidth of a collective inside a node, GB/s.
        inter_bandwidth: A node's bus bandwidth across nodes, all its devices together, GB/s.
        latency: α, latency of one step of a collective or of one send, in µs.
        global_batch: Sequences per optimizer step B.
        micro_batch: Sequences per micro-batch b.
        tensor: Tensor-parallel degree t.
        pipeline: Pipeline stages p.
        interleave: Model chunks per device v.
        zero: ZeRO stage, ``0`` to ``3`` (``1`` is Megatron-LM's distributed optimizer).
        recompute: ``none``, ``selective`` or ``full``.
        sequence_parallel: ``on`` or ``off``.

    Returns:
        ``parameters``; ``data_parallel`` d = N / (t·p); ``micro_batches`` m = B / (b·d);
        the memory of a device of the first stage, in GB: ``weights_memory``,
        ``gradients_memory``, ``optimizer_memory``, ``activation_memory`` and their sum
        ``memory``; the step, in seconds: ``compute_time`` (hardware FLOPs per device at
        the efficiency's share of peak), ``bubble_time`` (compute·(p−1)/(v·m)),
        ``tensor_time``, ``pipeline_time``, ``data_time`` and their sum ``step_time``;
        ``tokens_per_second`` B·s / step; ``model_tflops`` model FLOPs per device and
        second; ``mfu`` and ``hfu``, model and hardware FLOPs against peak, in percent.
        Warnings: ``tensor_across_nodes`` when t > n, ``out_of_memory`` when the memory
        exceeds the device's.

    Raises:
        InvalidInputs: ``not_divisible`` on ``hidden`` (by a), ``heads`` (by g, by t),
            ``kv_heads`` and ``ffn`` (by t), ``layers`` (by p, or p·v), ``devices`` (by
            t·p), ``global_batch`` (by b·d, or b·d·p when interleaving);
            ``above_maximum`` on ``interleave`` (1) when p = 1.
    """
    errors = _errors(
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        ffn=4 * hidden if ffn is None else ffn,
        devices=devices,
        global_batch=global_batch,
        micro_batch=micro_batch,
        tensor=tensor,
        pipeline=pipeline,
        interleave=interleave,
    )
    if errors:
        raise InvalidInputs(errors)
    shape = _shape(
        {
            "layers": layers,
            "hidden": hidden,
            "heads": heads,
            "kv_heads": kv_heads,
            "ffn": ffn,
            "mlp": mlp,
            "vocabulary": vocabulary,
            "output_layer": output_layer,
            "sequence": sequence,
        }
    )
    parallel = sequence_parallel == "on"
    zero_stage = int(zero)
    data_parallel = devices // (tensor * pipeline)
    micro_batches = global_batch // (micro_batch * data_parallel)

    # Memory of a device of the first stage.
    held = stage_parameters(shape, tensor=tensor, pipeline=pipeline)
    weights, gradients, optimizer = model_state_bytes(
        held, data_parallel=data_parallel, zero=zero_stage
    )
    activations = _first_stage_activations(
        shape,
        micro_batch=micro_batch,
        micro_batches=micro_batches,
        tensor=tensor,
        pipeline=pipeline,
        interleave=interleave,
        recompute=recompute,
        sequence_parallel=parallel,
    )
    total = weights + gradients + optimizer + activations

    # Compute and the bubble (the pipeline-bubble calculator's (p−1)/(v·m)).
    model = model_flops(shape, batch=global_batch)
    hardware = hardware_flops(shape, batch=global_batch, recompute=recompute)
    rate = exact(peak) * 10**12 * exact(efficiency) / 100
    compute = Fraction(hardware, devices) / rate
    bubble = compute * Fraction(pipeline - 1, interleave * micro_batches)

    # Tensor parallelism: 4 all-reduces of s·b·h activations per layer and micro-batch,
    # 2 forward (g) and 2 backward (f) (Narayanan et al. 2021 sections 2.3 and 3.2), 6 when
    # full recomputation runs the forward again; sequence parallelism replaces each by a
    # reduce-scatter and an all-gather of the same bytes and steps (Korthikanti et al.
    # 2022 section 4.2.2; section 6.2 measures the pair a little slower, which this model
    # leaves out). Inside a node unless t > n.
    nbytes = ACTIVATION_BYTES * sequence * micro_batch * hidden
    across = tensor > devices_per_node
    tensor_time = Fraction(0)
    if tensor > 1:
        calls = 6 if recompute == "full" else 4
        one = _ring(
            nbytes,
            devices=tensor,
            devices_per_node=devices_per_node,
            bandwidth=exact(inter_bandwidth if across else intra_bandwidth),
            latency=latency,
        )
        tensor_time = calls * (layers // pipeline) * micro_batches * one

    # Pipeline parallelism: consecutive stages exchange s·b·h activations per micro-batch,
    # forward and backward (Narayanan et al. 2021 section 3.2), v times as often with v
    # chunks (section 2.2.2); s·b·h/t under sequence parallelism. Each of the schedule's
    # v·m + p − 1 slots (m + p − 1 in section 3.4's eq. 1) waits for one send each way.
    # Pipeline parallelism is the outermost dimension of Megatron-LM's rank order
    # tp-cp-ep-dp-pp (``megatron/core/parallel_state.py`` line 617), so once the job spans
    # nodes a stage boundary crosses the network, where a node's n devices share its
    # bandwidth.
    pipeline_time = Fraction(0)
    if pipeline > 1:
        link = (
            exact(inter_bandwidth) / devices_per_node
            if devices > devices_per_node
            else exact(intra_bandwidth)
        )
        send = Fraction(nbytes, tensor if parallel else 1) / (link * BYTES_PER_GB)
        slots = interleave * micro_batches + pipeline - 1
        pipeline_time = 2 * slots * (send + exact(latency) / 10**6)

    data_time = _data_time(
        held,
        tensor=tensor,
        data_parallel=data_parallel,
        devices_per_node=devices_per_node,
        zero=zero_stage,
        intra_bandwidth=intra_bandwidth,
        inter_bandwidth=inter_bandwidth,
        latency=latency,
    ) * reductions(zero_stage, micro_batches)

    step = compute + bubble + tensor_time + pipeline_time + data_time
    model_rate = Fraction(model, devices) / step
    peak_rate = exact(peak) * 10**12
    warnings = []
    if across:
        warnings.append("tensor_across_nodes")
    if total > exact(memory) * BYTES_PER_GB:
        warnings.append("out_of_memory")
    return Result(
        {
            "parameters": parameters(shape),
            "data_parallel": data_parallel,
            "micro_batches": micro_batches,
            "weights_memory": float(weights / BYTES_PER_GB),
            "gradients_memory": float(gradients / BYTES_PER_GB),
            "optimizer_memory": float(optimizer / BYTES_PER_GB),
            "activation_memory": float(activations / BYTES_PER_GB),
            "memory": float(total / BYTES_PER_GB),
            "compute_time": float(compute),
            "bubble_time": float(bubble),
            "tensor_time": float(tensor_time),
            "pipeline_time": float(pipeline_time),
            "data_time": float(data_time),
            "step_time": float(step),
            "tokens_per_second": float(global_batch * sequence / step),
            "model_tflops": float(model_rate / 10**12),
            "mfu": float(model_rate * 100 / peak_rate),
            "hfu": float(Fraction(hardware, devices) / step * 100 / peak_rate),
        },
        tuple(warnings),
    )


# --------------------------------------------------------------------------- search

PLANS = 20
"""Most plans a search returns: each costs one exact check (about 0.2 ms) and two
kilobytes of reply, so twenty keep both small."""

PAGE_PLANS = 10
"""The plans a page lists: the first ten; scripts and the command line get all of them."""

MAX_LAYOUTS = 20_000
"""Most (t, p, b, v) layouts a search considers; more is refused (``too_many_layouts``).

Real jobs stay far below: the 1T model of Narayanan et al. 2021 on 3,072 devices has 402,
GPT-3 on 4,096 devices with a batch of 24,576 about a thousand. Only inputs whose numbers
are all highly composite (2,520 devices in nodes of 720, 240 layers, 720 heads, a batch
of 40,320: 18,523 layouts) come near it, and the bounds allow millions, which would hold
a reader's page for minutes. A search at the bound takes 0.1 to 0.15 s, in CPython as in
Pyodide under Node; the refusal is counted before any layout is timed."""

MARGIN = 1e-9
"""Relative margin of the search's float screening.

The screening evaluates each layout in floats, hoisted out of the loops, with at most a
few dozen roundings, each within 2⁻⁵³ of the exact value: its relative error stays below
10⁻¹³ (a test checks it against :func:`check` on random layouts). A memory within this
margin of the device's, or a time within it of a rival's or of the last plan kept, is
decided by :func:`check` itself, exactly, so that the answer is the exact one."""

RECOMPUTE = ("none", "selective", "full")
"""Recomputation, from the least to the most: its order in ties."""

LAYOUT = (
    "micro_batch",
    "tensor",
    "pipeline",
    "interleave",
    "zero",
    "recompute",
    "sequence_parallel",
)
"""The check mode's inputs that a plan sets; the search takes the others."""

_Option = tuple[float, int, int]
"""A variant of a layout: (screened step time, recomputation's index, ZeRO stage)."""
_Screened = tuple[float, int, int, int, int, list[_Option]]
"""A layout that fits: (its best screened time, t, p, v, b, its variants to compare)."""


def _factor(number: int) -> dict[int, int]:
    """The prime factorisation of ``number`` by trial division (10⁹: 16,000 divisions)."""
    factors: dict[int, int] = {}
    divisor = 2
    while divisor * divisor <= number:
        while number % divisor == 0:
            factors[divisor] = factors.get(divisor, 0) + 1
            number //= divisor
        divisor += 1 if divisor == 2 else 2
    if number > 1:
        factors[number] = factors.get(number, 0) + 1
    return factors


def _divisors(number: int, primes: Iterable[int]) -> list[int]:
    """The divisors of ``number``, ascending, given every prime that may divide it."""
    divisors = [1]
    for prime in primes:
        power = 0
        while number % prime == 0:
            number //= prime
            power += 1
        divisors = [divisor * prime**k for divisor in divisors for k in range(power + 1)]
    return sorted(divisors)


def _families(
    shape: Shape, *, devices: int, devices_per_node: int, global_batch: int
) -> list[tuple[int, int, int, list[int]]]:
    """Every valid (t, p, v) with its valid micro-batches b, ascending.

    t divides the devices, the heads, the key-value heads and the MLP size and is at most
    the devices of a node; p divides the layers and N / t; d = N / (t·p) divides the
    global batch and b divides B / d. Without interleaving (v = 1) that is all; v > 1
    also needs p > 1, v dividing l / p and m = B / (b·d) a multiple of p, so b divides
    B / (d·p): check's own rules (:func:`_errors`), enumerated rather than tried.

    Raises:
        InvalidInputs: ``too_many_layouts`` on ``devices`` past :data:`MAX_LAYOUTS`,
            counted before any is evaluated.
    """
    primes = {
        "devices": tuple(_factor(devices)),
        "layers": tuple(_factor(shape.layers)),
        "batch": tuple(_factor(global_batch)),
    }
    families: list[tuple[int, int, int, list[int]]] = []
    count = 0
    for tensor in _divisors(devices, primes["devices"]):
        if tensor > devices_per_node or math.gcd(shape.kv_heads, shape.ffn) % tensor:
            # kv_heads divides heads (refused otherwise), so that covers the heads too.
            continue
        for pipeline in _divisors(math.gcd(devices // tensor, shape.layers), primes["devices"]):
            data = devices // (tensor * pipeline)
            if global_batch % data:
                continue
            micro = _divisors(global_batch // data, primes["batch"])
            families.append((tensor, pipeline, 1, micro))
            count += len(micro)
            if pipeline > 1 and (global_batch // data) % pipeline == 0:
                # As many chunks as check accepts: v divides l / p, up to MAX_INTERLEAVE.
                chunks = [
                    v
                    for v in _divisors(shape.layers // pipeline, primes["layers"])[1:]
                    if v <= MAX_INTERLEAVE
                ]
                interleaved = _divisors(global_batch // (data * pipeline), primes["batch"])
                families.extend((tensor, pipeline, v, interleaved) for v in chunks)
                count += len(chunks) * len(interleaved)
            if count > MAX_LAYOUTS:
                raise InvalidInputs([InputError("devices", "too_many_layouts", MAX_LAYOUTS)])
    return families


Variant = tuple[int, int, int, int, int, int]
"""A layout and its variant: (t, p, v, b, recomputation's index in :data:`RECOMPUTE`, ZeRO
stage); sequence parallelism follows t (:func:`_layout`)."""


class _Exact:
    """The check mode itself, for every plan returned and what the screening cannot decide.

    Results are kept by variant: a plan's row and the decision of a close call are the
    same computation.
    """

    def __init__(self, fields: dict[str, Any]) -> None:
        self.fields = fields
        self.results: dict[Variant, Result] = {}

    def __call__(self, variant: Variant) -> Result:
        if variant not in self.results:
            self.results[variant] = check(**{**self.fields, **_layout(variant)})
        return self.results[variant]

    def fits(self, variant: Variant) -> bool:
        """Whether the variant fits in a device's memory, as check decides it."""
        return "out_of_memory" not in self(variant).warnings

    def step(self, variant: Variant) -> float:
        """The step time check reports for the variant: what plans are ranked by.

        With one stage, one tensor rank or no latency, and the gradients reduced once a
        step (ZeRO stage 0 or 1), the step does not depend on the micro-batch: there is
        no bubble and no send, and the tensor-parallel traffic is m·b = B / d sequences'
        bytes in 4 or 6·l·m calls, whose latency is 0. Such layouts tie, and can be many
        (each divisor of B / d); the step of b = 1 is theirs, checked once. Stages 2 and
        3 reduce once per micro-batch (:func:`reductions`): their b changes the step.
        """
        tensor, pipeline, interleave, _, r, zero = variant
        if pipeline == 1 and (tensor == 1 or self.fields["latency"] == 0) and zero < 2:
            variant = (tensor, pipeline, interleave, 1, r, zero)
        step = self(variant).values["step_time"]
        assert isinstance(step, float)  # check always computes it
        return step


def _layout(variant: Variant) -> dict[str, int | str]:
    """A variant's check inputs: sequence parallelism on wherever it does something (t > 1)."""
    tensor, pipeline, interleave, micro_batch, r, zero = variant
    return {
        "micro_batch": micro_batch,
        "tensor": tensor,
        "pipeline": pipeline,
        "interleave": interleave,
        "zero": str(zero),
        "recompute": RECOMPUTE[r],
        "sequence_parallel": "on" if tensor > 1 else "off",
    }


def _screen(  # noqa: PLR0915 -- one loop, its hoisted terms kept local for speed
    shape: Shape,
    families: list[tuple[int, int, int, list[int]]],
    exact_check: _Exact,
    fields: dict[str, Any],
) -> tuple[int, list[_Screened]]:
    """Every layout that fits, with its fastest variants, in floats: (fitting, screened).

    The terms of :func:`check` are hoisted to where they change: the compute time to the
    recomputation, the activations of a layer and the tensor-parallel call to t, the model
    states and the data-parallel reduction to (t, p), leaving a few products per micro-batch.
    For each layout, the variants are pruned by the model's own order (see :func:`search`).
    """
    devices, per_node = fields["devices"], fields["devices_per_node"]
    batch, layers = fields["global_batch"], shape.layers
    limit = float(exact(fields["memory"]) * BYTES_PER_GB)
    high, low = limit * (1 + MARGIN), limit * (1 - MARGIN)
    rate = exact(fields["peak"]) * 10**12 * exact(fields["efficiency"]) / 100
    computes = [
        float(Fraction(hardware_flops(shape, batch=batch, recompute=r), devices) / rate)
        for r in RECOMPUTE
    ]
    calls = (4, 4, 6)  # all-reduces a layer and micro-batch, as check counts them
    sh = shape.sequence * shape.hidden  # s·h: check's s·b·h for one sequence
    nbytes = ACTIVATION_BYTES * sh  # what a collective or a send moves, per sequence
    latency = float(fields["latency"]) / 10**6
    link = fields["inter_bandwidth"] / per_node if devices > per_node else fields["intra_bandwidth"]
    fitting = 0
    screened: list[_Screened] = []
    terms: dict[int, tuple[list[float], float, float, float, float]] = {}
    stages: dict[tuple[int, int], tuple[Fraction, list[float], list[float]]] = {}
    for tensor, pipeline, interleave, micro_batches in families:
        if tensor not in terms:
            parallel = tensor > 1
            units = [
                float(
                    activation_bytes_per_layer(
                        shape,
                        micro_batch=1,
                        tensor=tensor,
                        recompute=r,
                        sequence_parallel=parallel,
                    )
                )
                for r in RECOMPUTE
            ]
            steps = step_latencies(
                algorithm="ring",
                devices=tensor,
                devices_per_node=per_node,
                latency=fields["latency"],
                network_latency=fields["latency"],
            )
            terms[tensor] = (
                units,
                # The embedding's dropout mask (split under sequence parallelism, which is
                # on for t > 1), and the output layer's activations when p = 1.
                sh / tensor,
                float(Fraction(4 * sh, tensor) * (1 + Fraction(shape.vocabulary, shape.hidden))),
                # One ring all-reduce inside a node (t ≤ n): bytes, then its latency.
                2 * (tensor - 1) / tensor * nbytes / (fields["intra_bandwidth"] * BYTES_PER_GB),
                float(steps) / 10**6,
            )
        units, embedding, output, move, call_latency = terms[tensor]
        data = devices // (tensor * pipeline)
        if (tensor, pipeline) not in stages:
            held = stage_parameters(shape, tensor=tensor, pipeline=pipeline)
            states = [
                float(sum(model_state_bytes(held, data_parallel=data, zero=zero)))
                for zero in range(4)
            ]
            stages[tensor, pipeline] = (held, states, [])
        held, states, data_times = stages[tensor, pipeline]
        per_stage = layers // pipeline
        units_stage = [per_stage * unit + embedding for unit in units]
        send = nbytes / tensor / (link * BYTES_PER_GB)  # split by t under sequence parallelism
        for micro_batch in micro_batches:
            m = batch // (micro_batch * data)
            in_flight = (
                pipeline + (pipeline - 1) / interleave if interleave > 1 else min(m, pipeline)
            )
            scale = in_flight * micro_batch
            extra = output * micro_batch if pipeline == 1 else 0.0
            kept = [scale * unit + extra for unit in units_stage]
            # The least memory: ZeRO-3, full recomputation. It grows with b (in flight
            # min(m, p)·b = min(B/d, p·b), or (p + (p−1)/v)·b), so once it does not fit,
            # no larger micro-batch of this family fits either.
            least = states[3] + kept[2]
            if least > high or (
                least > low
                and not exact_check.fits((tensor, pipeline, interleave, micro_batch, 2, 3))
            ):
                break
            fitting += 1
            if not data_times:  # once a (t, p), and only for those with a layout that fits
                data_times.extend(
                    float(
                        _data_time(
                            held,
                            tensor=tensor,
                            data_parallel=data,
                            devices_per_node=per_node,
                            zero=zero,
                            intra_bandwidth=fields["intra_bandwidth"],
                            inter_bandwidth=fields["inter_bandwidth"],
                            latency=fields["latency"],
                        )
                    )
                    for zero in (0, 3)
                )
            bubble = 1 + (pipeline - 1) / (interleave * m)
            tensor_call = per_stage * m * (move * micro_batch + call_latency) if tensor > 1 else 0.0
            sends = (
                2 * (interleave * m + pipeline - 1) * (send * micro_batch + latency)
                if pipeline > 1
                else 0.0
            )
            options: list[_Option] = []
            for r in range(3):
                for zero in range(4):
                    total = states[zero] + kept[r]
                    if total <= low or (
                        total <= high
                        and exact_check.fits((tensor, pipeline, interleave, micro_batch, r, zero))
                    ):
                        break
                else:
                    continue  # nothing fits with this recomputation: try more of it
                # For one recomputation the lowest stage that fits is the fastest: the
                # traffic grows with the stage (reductions()), nothing else changes.
                time = computes[r] * bubble + calls[r] * tensor_call + sends
                traffic = float(reductions(zero, m)) * data_times[zero == 3]
                options.append((time + traffic, r, zero))
                if zero < 2:
                    break  # the least traffic: more recomputation is only slower
            screened.append((min(options)[0], tensor, pipeline, interleave, micro_batch, options))
    return fitting, screened


def search(
    *,
    layers: int,
    hidden: int,
    heads: int,
    kv_heads: int | None,
    ffn: int | None,
    mlp: str,
    vocabulary: int,
    output_layer: str,
    sequence: int,
    devices: int,
    devices_per_node: int,
    peak: float,
    memory: float,
    efficiency: float,
    intra_bandwidth: float,
    inter_bandwidth: float,
    latency: float,
    global_batch: int,
) -> Result:
    """Search every layout of a model on a cluster and rank those that fit by step time.

    The inputs are :func:`check`'s without the layout. A layout is (t, p, b, v): tensor
    degree t, pipeline stages p, micro-batch b and model chunks v, with d = N / (t·p)
    replicas. The search enumerates every layout :func:`check` accepts with t at most the
    devices of a node (t across nodes is never faster in this model's terms and check
    warns of it): t over the divisors of N that divide g, a and f; p over the divisors of
    N / t that divide l; b over the divisors of B / d; v over the divisors of l / p when
    p > 1 and m = B / (b·d) is a multiple of p (:func:`_families`). For each layout it
    picks the variant — ZeRO stage 0 to 3, recomputation none, selective or full, and
    sequence parallelism — that fits in a device's memory and runs fastest, and returns
    the :data:`PLANS` fastest layouts with their variants, each with :func:`check`'s own
    outputs for it.

    Every variant is in the space: the answer is the one a brute force over all of them
    gives (a test compares the two on small models). It is found without evaluating most
    of them, by the model's own order, for one layout:

    - memory: the model states fall with the ZeRO stage (:func:`model_state_bytes`), the
      activations with more recomputation and with sequence parallelism
      (:func:`activation_bytes_per_layer`, every term divided by t or kept), so the
      variant (ZeRO-3, full, on) needs the least: a layout fits when it does. It grows
      with b (in flight: min(m, p)·b = min(B / d, p·b), or (p + (p−1)/v)·b), so a
      family's larger micro-batches are skipped once one does not fit;
    - time: the compute, and with it the bubble, grows strictly from none to selective
      to full recomputation (:func:`hardware_flops`) and the tensor-parallel traffic does
      not fall (4, 4, 6 calls); the data-parallel traffic is the same for ZeRO 0, 1 and 2
      and more for 3 (:func:`_data_time`); sequence parallelism moves the same tensor
      traffic and divides the pipeline's sends by t. With t = 1 it changes nothing, so
      t = 1 is listed once, with it off.

    Hence, by the order of ties below: for each recomputation, the lowest ZeRO stage that
    fits is its best; a recomputation whose best stage is 0 to 2 beats every heavier one,
    and one at ZeRO-3 beats a heavier one at ZeRO-3; sequence parallelism on beats off,
    which fits only where it fits. At most three variants a layout are timed.

    The screening runs in floats, hoisted (:func:`_screen`); anything within
    :data:`MARGIN` of a bound or a rival is decided by :func:`check` exactly, and so is
    every plan returned. Plans are ranked by the step time check reports, then, in ties,
    by fewer tensor ranks, fewer stages, fewer chunks, smaller micro-batches, less
    recomputation, a lower ZeRO stage: the smallest layout, with the least machinery.

    Args:
        layers: Transformer layers l.
        hidden: Hidden size h.
        heads: Attention heads a.
        kv_heads: Key and value heads g; ``None`` for a.
        ffn: MLP hidden size f; ``None`` for 4h.
        mlp: ``gelu`` or ``swiglu``.
        vocabulary: Vocabulary V (padded).
        output_layer: ``tied`` (the input embeddings) or ``untied`` (a matrix of its own).
        sequence: Sequence length s, in tokens.
        devices: Devices N.
        devices_per_node: Devices n of a node.
        peak: Dense bf16 peak of a device, in TFLOP/s.
        memory: Memory of a device, in GB.
        efficiency: Share of the peak the matrix products reach, in percent.
        intra_bandwidth: Bus bandwidth inside a node, GB/s.
        inter_bandwidth: A node's bus bandwidth across nodes, GB/s.
        latency: α, in µs.
        global_batch: Sequences per optimizer step B.

    Returns:
        ``candidates``, the layouts considered; ``fitting``, those with a variant that
        fits; ``best_step_time`` and ``best_mfu``, the first plan's (``None`` when none
        fits); the table ``plans``: up to :data:`PLANS` rows, fastest first, each the
        plan's check inputs (:data:`LAYOUT`) and its check outputs. Warnings:
        ``no_layout`` when no layout divides the devices and the batch, ``nothing_fits``
        when layouts exist but none fits.

    Raises:
        InvalidInputs: ``not_divisible`` on ``hidden`` (by a) and ``heads`` (by g), as
            check; ``too_many_layouts`` on ``devices`` past :data:`MAX_LAYOUTS` layouts.
    """
    errors = _model_errors(hidden=hidden, heads=heads, kv_heads=kv_heads)
    if errors:
        raise InvalidInputs(errors)
    fields: dict[str, Any] = {
        "layers": layers,
        "hidden": hidden,
        "heads": heads,
        "kv_heads": kv_heads,
        "ffn": ffn,
        "mlp": mlp,
        "vocabulary": vocabulary,
        "output_layer": output_layer,
        "sequence": sequence,
        "devices": devices,
        "devices_per_node": devices_per_node,
        "peak": peak,
        "memory": memory,
        "efficiency": efficiency,
        "intra_bandwidth": intra_bandwidth,
        "inter_bandwidth": inter_bandwidth,
        "latency": latency,
        "global_batch": global_batch,
    }
    shape = _shape(fields)
    families = _families(
        shape, devices=devices, devices_per_node=devices_per_node, global_batch=global_batch
    )
    exact_check = _Exact(fields)
    fitting, screened = _screen(shape, families, exact_check, fields)
    screened.sort(key=lambda layout: layout[0])
    ranked: list[tuple[float, Variant]] = []
    if screened:
        # Every layout that may be among the PLANS fastest once timed exactly, with the
        # variants that may be its fastest; ties go to the smaller variant (t, p, v, b,
        # recomputation, ZeRO stage).
        bound = screened[min(PLANS, len(screened)) - 1][0] * (1 + 4 * MARGIN)
        for time, tensor, pipeline, interleave, micro_batch, options in screened:
            if time > bound:
                break
            ranked.append(
                min(
                    (exact_check.step(variant), variant)
                    for option, r, zero in options
                    if option <= time * (1 + 4 * MARGIN)
                    for variant in [(tensor, pipeline, interleave, micro_batch, r, zero)]
                )
            )
        ranked.sort()
    plans: list[Row] = []
    for _, variant in ranked[:PLANS]:
        values = exact_check(variant).values
        plans.append(
            {**_layout(variant), **{name: v for name, v in values.items() if v is not None}}
        )
    first = exact_check(ranked[0][1]).values if ranked else {}
    warnings: tuple[str, ...] = ()
    if not families:
        warnings = ("no_layout",)
    elif not fitting:
        warnings = ("nothing_fits",)
    return Result(
        {
            "candidates": sum(len(micro) for *_, micro in families),
            "fitting": fitting,
            "best_step_time": first.get("step_time"),
            "best_mfu": first.get("mfu"),
        },
        warnings,
        {"plans": plans},
    )


def _count(  # noqa: PLR0917 -- one positional per column of the declarations below
    name: str, label: str, default: int | None, maximum: int, help: str, rule: str = ""
) -> Input:
    """A whole number of at least 1; optional, and empty by default, when ``default`` is None."""
    return Input(
        name=name,
        label=label,
        default=default,
        minimum=1,
        maximum=maximum,
        integer=True,
        optional=default is None,
        help=help,
        rule=rule,
    )


INPUTS = (
    _count("layers", "Layers", 96, MAX_LAYERS, "l: transformer layers (GPT-3: 96)."),
    _count("hidden", "Hidden size", 12288, MAX_HIDDEN, "h: model width (GPT-3: 12,288)."),
    _count("heads", "Attention heads", 96, MAX_HEADS, "a: query heads; h / a is the head size."),
    _count(
        "kv_heads",
        "Key-value heads",
        None,
        MAX_HEADS,
        "g: key and value heads under grouped-query attention; empty for a (none).",
        rule="Must divide the attention heads; a multiple of the tensor-parallel degree.",
    ),
    _count(
        "ffn",
        "MLP hidden size",
        None,
        MAX_FFN,
        "f: width of the MLP; empty for 4h (LLaMA-style SwiGLU models use about 8h/3).",
    ),
    Choice(
        name="mlp",
        label="MLP",
        options=(
            Option(value="gelu", label="GeLU (two matrices)"),
            Option(value="swiglu", label="SwiGLU (three matrices)"),
        ),
        default="gelu",
        help="GeLU, as GPT-3, or SwiGLU, as LLaMA: a third more MLP weights at the same f.",
    ),
    Input(
        name="vocabulary",
        label="Vocabulary",
        unit="tokens",
        default=51200,
        minimum=1,
        maximum=MAX_VOCABULARY,
        integer=True,
        help="V: vocabulary as Megatron-LM pads it (51,200 in the GPT-3 runs).",
    ),
    Choice(
        name="output_layer",
        label="Output layer",
        options=(
            Option(value="tied", label="Tied to the input embeddings"),
            Option(value="untied", label="A matrix of its own"),
        ),
        default="tied",
        help=(
            "Tied, as GPT-3 and BLOOM, or untied, as LLaMA: another V × h matrix of weights, "
            "on the last pipeline stage."
        ),
    ),
    Input(
        name="sequence",
        label="Sequence length",
        unit="tokens",
        default=2048,
        minimum=1,
        maximum=MAX_SEQUENCE,
        integer=True,
        help="s: tokens per sequence.",
    ),
    Input(
        name="devices",
        label="Devices",
        unit="devices",
        default=64,
        minimum=1,
        maximum=MAX_DEVICES,
        integer=True,
        help="N: accelerators in the job.",
        rule="Must be a multiple of the tensor-parallel degree times the pipeline stages.",
    ),
    Input(
        name="devices_per_node",
        label="Devices per node",
        unit="devices",
        default=8,
        minimum=1,
        maximum=MAX_DEVICES,
        integer=True,
        help="n: devices joined by the node's own links (8 in a DGX A100).",
    ),
    Input(
        name="peak",
        label="Peak per device",
        unit="TFLOP/s",
        default=312,
        minimum=MIN_PEAK,
        maximum=MAX_PEAK,
        help="Dense bf16 peak of one device, without sparsity (A100: 312).",
    ),
    Input(
        name="memory",
        label="Memory per device",
        unit="GB",
        default=80,
        minimum=MIN_MEMORY,
        maximum=MAX_MEMORY,
        help="Memory of one device, 1 GB = 10^9 bytes (A100 80GB: 80).",
    ),
    Input(
        name="efficiency",
        label="Matrix-product efficiency",
        unit="%",
        default=EFFICIENCY,
        minimum=MIN_EFFICIENCY,
        maximum=100,
        help=(
            "Share of peak the matrix products reach; the default is one value fitted on "
            "20 published Megatron-LM runs on A100 (Narayanan et al. 2021 Table 1, "
            "Korthikanti et al. 2022), not per run."
        ),
    ),
    Input(
        name="intra_bandwidth",
        label="Bus bandwidth inside a node",
        unit="GB/s",
        default=230,
        minimum=MIN_BUS_BANDWIDTH,
        maximum=MAX_BUS_BANDWIDTH,
        help=(
            "All-reduce busbw among a node's devices, as nccl-tests reports it "
            "(8 A100 on NVSwitch: about 230, nccl-tests issue 149)."
        ),
    ),
    Input(
        name="inter_bandwidth",
        label="Bus bandwidth of a node across nodes",
        unit="GB/s",
        default=192,
        minimum=MIN_BUS_BANDWIDTH,
        maximum=MAX_BUS_BANDWIDTH,
        help=(
            "All-reduce busbw across nodes for all of a node's devices together (a DGX "
            "A100 with eight 200 Gb/s cards: 192, NCCL issue 812); its devices share it."
        ),
    ),
    Input(
        name="latency",
        label="Latency per step",
        unit="µs",
        default=3.4,
        minimum=0,
        maximum=MAX_LATENCY,
        help=(
            "α: one step of a collective, or one send; a ring over k devices takes "
            "2(k−1) steps (NCCL's tuner: 3.4 for a ring step over NVLink)."
        ),
    ),
    Input(
        name="global_batch",
        label="Global batch",
        unit="sequences",
        default=64,
        minimum=1,
        maximum=MAX_BATCH,
        integer=True,
        help="B: sequences per optimizer step.",
        rule=(
            "Must be a multiple of the micro-batch times the data-parallel replicas, and "
            "of that times the stages when interleaving."
        ),
    ),
    Input(
        name="micro_batch",
        label="Micro-batch",
        unit="sequences",
        default=1,
        minimum=1,
        maximum=MAX_BATCH,
        integer=True,
        help="b: sequences each pipeline runs at once.",
    ),
    _count(
        "tensor",
        "Tensor-parallel degree",
        8,
        MAX_DEGREE,
        "t: devices that split every layer; keep it within a node.",
        rule="Must divide the attention heads, the key-value heads and the MLP size.",
    ),
    Input(
        name="pipeline",
        label="Pipeline stages",
        unit="stages",
        default=8,
        minimum=1,
        maximum=MAX_DEGREE,
        integer=True,
        help="p: consecutive groups of layers, one per stage.",
        rule="Must divide the layers (times the chunks when interleaving).",
    ),
    Input(
        name="interleave",
        label="Model chunks per device",
        unit="chunks",
        default=3,
        minimum=1,
        maximum=MAX_INTERLEAVE,
        integer=True,
        help="v: interleaved virtual stages per device; 1 means no interleaving.",
        rule="More than 1 only with more than one pipeline stage.",
    ),
    Choice(
        name="zero",
        label="ZeRO stage",
        options=(
            Option(value="0", label="0: nothing sharded"),
            Option(value="1", label="1: optimizer states (distributed optimizer)"),
            Option(value="2", label="2: and gradients"),
            Option(value="3", label="3: and weights"),
        ),
        default="0",
        help="What the data-parallel replicas shard; 1 is Megatron-LM's distributed optimizer.",
    ),
    Choice(
        name="recompute",
        label="Activation recomputation",
        options=(
            Option(value="none", label="None"),
            Option(value="selective", label="Selective (attention scores)"),
            Option(value="full", label="Full (every layer)"),
        ),
        default="selective",
        help="What the backward pass recomputes instead of keeping.",
    ),
    Choice(
        name="sequence_parallel",
        label="Sequence parallelism",
        options=(Option(value="on", label="On"), Option(value="off", label="Off")),
        default="on",
        help="Splits the LayerNorms and dropouts over the tensor-parallel ranks too.",
    ),
)
"""The check mode's inputs; the defaults are GPT-3 175B on 64 A100 as Korthikanti et al.
2022 ran it with selective recomputation and sequence parallelism (Tables 3 and 5)."""


def _gigabytes(name: str, label: str, help: str) -> Output:
    return Output(name=name, label=label, unit="GB", digits=2, help=help)


def _seconds(name: str, label: str, help: str) -> Output:
    return Output(name=name, label=label, unit="s", digits=3, help=help)


OUTPUTS = (
    Output(name="parameters", label="Parameters", help="P: every weight of the model."),
    Output(
        name="data_parallel",
        label="Data-parallel replicas",
        unit="replicas",
        help="d = N / (t·p).",
    ),
    Output(
        name="micro_batches",
        label="Micro-batches per step",
        unit="micro-batches",
        help="m = B / (b·d): what each pipeline runs per optimizer step.",
    ),
    _gigabytes("weights_memory", "Weights", "bf16 weights of the first stage's device."),
    _gigabytes("gradients_memory", "Gradients", "Its fp32 gradients."),
    _gigabytes("optimizer_memory", "Optimizer states", "Its fp32 master weights and Adam moments."),
    _gigabytes(
        "activation_memory",
        "Activations",
        "What its layers keep for the backward pass, for every micro-batch in flight.",
    ),
    _gigabytes("memory", "Memory per device", "The sum: the most loaded device's need."),
    _seconds(
        "compute_time", "Compute", "Hardware FLOPs per device at the efficiency's share of peak."
    ),
    _seconds("bubble_time", "Pipeline bubble", "Compute · (p−1)/(v·m): fill and drain."),
    _seconds("tensor_time", "Tensor-parallel traffic", "The layers' all-reduces or their halves."),
    _seconds("pipeline_time", "Pipeline traffic", "Sends between stages, forward and backward."),
    _seconds("data_time", "Data-parallel traffic", "The gradients' reduction, not overlapped."),
    _seconds("step_time", "Step time", "The sum: one optimizer step."),
    Output(
        name="tokens_per_second",
        label="Throughput",
        unit="tokens/s",
        help="B·s per step time, the whole job.",
    ),
    Output(
        name="model_tflops",
        label="Model FLOP/s per device",
        unit="TFLOP/s",
        digits=1,
        help="Model FLOPs (no recomputation) per device and second.",
    ),
    Output(
        name="mfu",
        label="Model FLOPs utilisation",
        style="percent",
        digits=1,
        help="Model FLOP/s against peak.",
    ),
    Output(
        name="hfu",
        label="Hardware FLOPs utilisation",
        style="percent",
        digits=1,
        help="With the recomputed FLOPs: at most the efficiency.",
    ),
)

GROUPS = (
    (
        "Model",
        (
            "layers",
            "hidden",
            "heads",
            "kv_heads",
            "ffn",
            "mlp",
            "vocabulary",
            "output_layer",
            "sequence",
        ),
    ),
    (
        "Cluster",
        (
            "devices",
            "devices_per_node",
            "peak",
            "memory",
            "efficiency",
            "intra_bandwidth",
            "inter_bandwidth",
            "latency",
        ),
    ),
    ("Run", ("global_batch", *LAYOUT)),
)
"""The check mode's form: the model, the cluster, and the run with its layout."""

SEARCH_RULES = {
    "kv_heads": "Must divide the attention heads.",
    "devices": "",
    "global_batch": "",
}
"""The rules that involve the layout, as the search words them: it only keeps the
layouts that satisfy check's."""

SEARCH_INPUTS = tuple(
    replace(spec, rule=SEARCH_RULES[spec.name])
    if isinstance(spec, Input) and spec.name in SEARCH_RULES
    else spec
    for spec in INPUTS
    if spec.name not in LAYOUT
)
"""The search's inputs: check's, without the layout, with its defaults."""

_CHECK_OUTPUTS = {output.name: output for output in OUTPUTS}

SEARCH_OUTPUTS = (
    Output(
        name="candidates",
        label="Layouts considered",
        help=(
            "Every tensor degree within a node, pipeline depth, micro-batch and interleaving "
            "that the devices, the model and the global batch allow."
        ),
    ),
    Output(
        name="fitting",
        label="Layouts that fit",
        help="Those for which some ZeRO stage and recomputation fit in a device's memory.",
    ),
    replace(
        _CHECK_OUTPUTS["step_time"],
        name="best_step_time",
        label="Fastest step time",
        help="The first plan's step time; empty when nothing fits.",
    ),
    replace(
        _CHECK_OUTPUTS["mfu"],
        name="best_mfu",
        label="Its model FLOPs utilisation",
        help="The first plan's MFU, the highest of all; empty when nothing fits.",
    ),
)


def related(inputs: Mapping[str, Any], row: Row) -> dict[str, dict[str, Cell]]:
    """The cases a plan opens: its ``check``, and the three calculators it is made of.

    Args:
        inputs: The search's parsed inputs.
        row: One plan of :func:`search`.

    Returns:
        By ``slug/mode``: the check mode's inputs (the search's with the plan's layout);
        the pipeline bubble of its p, m and v; the global batch its micro-batch makes
        through its layout; and the data-parallel estimate of its gradient reduction,
        exactly as the check mode priced it (:func:`data_request`), against its compute
        time, so that the estimate's efficiency is the share of compute the exposed
        reduction leaves.
    """
    layout = {name: row[name] for name in LAYOUT}
    fields = {**inputs, **layout}
    tensor, pipeline = int(row["tensor"]), int(row["pipeline"])
    micro_batches = int(row["micro_batches"])
    held = stage_parameters(_shape(fields), tensor=tensor, pipeline=pipeline)
    request = data_request(
        held,
        tensor=tensor,
        data_parallel=int(row["data_parallel"]),
        devices_per_node=int(fields["devices_per_node"]),
        zero=int(row["zero"]),
        intra_bandwidth=float(fields["intra_bandwidth"]),
        inter_bandwidth=float(fields["inter_bandwidth"]),
        latency=float(fields["latency"]),
        compute_time=float(exact(row["compute_time"]) * 1000),
    )
    return {
        "training-planner/check": {
            name: value for name, value in fields.items() if value is not None
        },
        "pipeline-bubble/bubble": {
            "stages": pipeline,
            "micro_batches": micro_batches,
            "chunks": int(row["interleave"]),
        },
        "effective-batch-size/global-batch": {
            "micro_batch": int(row["micro_batch"]),
            "accumulation_steps": micro_batches,
            "world_size": int(fields["devices"]),
            "tensor_parallel": tensor,
            "pipeline_parallel": pipeline,
            "context_parallel": 1,
            "sequence_length": int(fields["sequence"]),
        },
        "data-parallel-scaling/estimate": dict(request),
    }


PLANS_TABLE = Table(
    name="plans",
    label="Fastest plans",
    columns=(*(spec for spec in INPUTS if spec.name in LAYOUT), *OUTPUTS),
    limit=PLANS,
    page_rows=PAGE_PLANS,
    shown=(
        "tensor",
        "pipeline",
        "data_parallel",
        "interleave",
        "micro_batch",
        "zero",
        "recompute",
        "sequence_parallel",
        "memory",
        "step_time",
        "mfu",
    ),
    help=(
        "For each layout that fits, its fastest ZeRO stage and recomputation, with sequence "
        "parallelism wherever t > 1; fastest first. Each row is a check case: the search's "
        "inputs with the row's layout."
    ),
    related=related,
    opens=(
        "training-planner/check",
        "pipeline-bubble/bubble",
        "effective-batch-size/global-batch",
        "data-parallel-scaling/estimate",
    ),
)
"""The plans: the check mode's layout inputs and its outputs, declared there once."""

CALCULATOR = Calculator(
    slug="training-planner",
    title="Training planner",
    summary=(
        "Memory per device and a first-order step time for a transformer on a cluster "
        "under tensor, pipeline and data parallelism."
    ),
    # Search first: the page opens on the question a reader brings (how should I lay out
    # this model on these devices?); check answers the next one, for one plan.
    modes=(
        Mode(
            name="search",
            label="Search the layouts",
            inputs=SEARCH_INPUTS,
            outputs=SEARCH_OUTPUTS,
            groups=tuple(
                (legend, tuple(name for name in names if name not in LAYOUT))
                for legend, names in GROUPS
            ),
            compute=search,
            tables=(PLANS_TABLE,),
            presets=PRESETS,
        ),
        Mode(
            name="check",
            label="Check a parallel layout",
            inputs=INPUTS,
            outputs=OUTPUTS,
            groups=GROUPS,
            compute=check,
            chart=PLANNER,
            presets=PRESETS,
        ),
    ),
)
