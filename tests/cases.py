"""Known values, refused requests and garbage requests, as plain data.

The standard library and the core only, free of pytest: the pytest suite imports
this file under CPython, and ``tests/pyodide/run_cases.mjs`` imports the very same
file inside Pyodide (after the core's wheel), so both runtimes are held to one table.
What follows the calculators (the slugs, field and mode names of the random
requests, the error codes) is read from the registry; what cannot be (known
values, refusals, plausible requests) is written per calculator, and
``tests/test_registry.py`` fails for a registered calculator that lacks it. :func:`check` asserts
every expectation through :func:`calculator.web.evaluate` in whichever runtime
runs it; :func:`verify` checks one reply string against one case.

A request is what the page's worker sends: a JSON object of raw field values
(strings as typed, or JSON numbers), with an optional ``mode``. Percent outputs
are in percent points (37.5 means 37.5 %); their ``display`` strings are
fractions (``"0.375"``), the form the number formatters expect. A mode's tables
(the training planner's plans) come after its outputs in ``outputs`` and
``display``, each a list of rows.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from calculator.calculators.training_planner import LAYOUT
from calculator.errors import ERRORS
from calculator.registry import CALCULATORS

__all__ = [
    "BOUNDARY",
    "CODES",
    "GARBAGE_COUNT",
    "GARBAGE_SEED",
    "KNOWN",
    "PLAUSIBLE",
    "REFUSED",
    "CaseFailure",
    "Garbage",
    "Known",
    "Refused",
    "all_requests",
    "check",
    "garbage",
    "parse_reply",
    "verify",
]

Number = int | float
Bound = int | float | None
Cell = Number | str
"""A cell of a table's row: a number, or a choice's option value."""
Error = tuple[str | None, str, Bound]
"""An expected error: ``(field, code, bound)``."""

CODES = frozenset(ERRORS) - {"internal"}
"""Every error code a reply may carry: the core's, but ``internal``, which is a bug."""

DP = "data-parallel-scaling"
EB = "effective-batch-size"
PB = "pipeline-bubble"
TP = "training-planner"

# The smallest positive double: a throughput this tiny must not overflow anything.
TINY = math.ldexp(1, -1074)


@dataclass(frozen=True)
class Known:
    """A request that computes, with every output it must give.

    Attributes:
        id: Stable case name.
        slug: The calculator.
        request: The JSON object sent to ``evaluate``.
        mode: The mode the reply must name.
        outputs: Every declared output: ``None``, an exact ``int`` (compared
            exactly), or a ``float`` (compared to 1e-12 relative).
        display: Every output's display string, or ``None``.
        warnings: The warning codes, in order.
        tables: Every declared table's rows, in order, each with the cells worth
            pinning (some of its columns; numbers compared as outputs are, option
            values exactly): the number of rows is exact.
    """

    id: str
    slug: str
    request: dict[str, object]
    mode: str
    outputs: dict[str, Number | None]
    display: dict[str, str | None]
    warnings: tuple[str, ...] = ()
    tables: dict[str, tuple[dict[str, Cell], ...]] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The request as the JSON string that crosses the boundary."""
        return json.dumps(self.request)

    @property
    def fields(self) -> dict[str, object]:
        """The raw field values, without ``mode``: what :func:`calculator.run` takes."""
        return {name: value for name, value in self.request.items() if name != "mode"}


@dataclass(frozen=True)
class Refused:
    """A request that is refused, with every error it must report, in order.

    ``request`` is a JSON object, or a string sent as is (malformed JSON).
    """

    id: str
    slug: str
    request: dict[str, object] | str
    mode: str | None
    errors: tuple[Error, ...]

    @property
    def text(self) -> str:
        """The request as the JSON string that crosses the boundary."""
        return self.request if isinstance(self.request, str) else json.dumps(self.request)

    @property
    def fields(self) -> dict[str, object]:
        """The raw field values, without ``mode``: what :func:`calculator.run` takes."""
        assert isinstance(self.request, dict)
        return {name: value for name, value in self.request.items() if name != "mode"}


@dataclass(frozen=True)
class Garbage:
    """A random request: it must come back as a well-formed reply, never raise."""

    id: str
    slug: str
    text: str


# --------------------------------------------------------------------------- known values

_DP_BASE: dict[str, object] = {"devices": "64", "throughput": "2000", "efficiency": "90"}
_DP_BASE_OUT: dict[str, Number | None] = {
    "ideal": 128000,
    "actual": 115200,
    "speedup": 57.6,
    "lost": 12800,
}
_DP_BASE_SHOW: dict[str, str | None] = {
    "ideal": "128000",
    "actual": "115200",
    "speedup": "57.6",
    "lost": "12800",
}
_EB_ACC: dict[str, object] = {
    "mode": "accumulation",
    "global_batch": 1536,
    "micro_batch": 1,
    "world_size": 1536,
    "tensor_parallel": 8,
    "pipeline_parallel": 16,
    "context_parallel": 1,
    "sequence_length": 4096,
}
_EB_GLOBAL: dict[str, object] = {
    "micro_batch": 2,
    "accumulation_steps": 4,
    "world_size": 128,
    "tensor_parallel": 1,
    "pipeline_parallel": 1,
    "context_parallel": 1,
    "sequence_length": 4096,
}


# The estimate's reference: 1e9 values in bf16 (2 GB of gradients) over 64 devices at
# 50 GB/s, no latency, 1 000 ms of compute, no overlap: T = 2·63/64 · 2e9 B / 50e9 B/s.
_DP_EST: dict[str, object] = {
    "mode": "estimate",
    "parameters": "1e9",
    "bytes_per_value": "2",
    "bucket_size": "25",
    "sharding": "none",
    "devices": "64",
    "devices_per_node": "8",
    "bus_bandwidth": "50",
    "algorithm": "ring",
    "latency": "0",
    "network_latency": "0",
    "compute_time": "1000",
    "overlap": "0",
}
_DP_EST_NAMES = (
    "calls",
    "bandwidth_time",
    "latency_time",
    "allreduce_time",
    "exposed_time",
    "efficiency",
    "speedup",
)


def _estimate(
    case_id: str,
    changes: dict[str, object],
    outputs: tuple[Number, ...],
    show: tuple[str, ...],
    warnings: tuple[str, ...] = (),
) -> Known:
    return Known(
        f"dp-estimate-{case_id}",
        DP,
        {**_DP_EST, **changes},
        "estimate",
        dict(zip(_DP_EST_NAMES, outputs, strict=True)),
        dict(zip(_DP_EST_NAMES, show, strict=True)),
        warnings,
    )


def _pipeline(
    schedule: tuple[int, int, int], overhead: float, idle: float, show: list[str]
) -> Known:
    stages, micro_batches, chunks = schedule
    return Known(
        f"pb-p{stages}-m{micro_batches}-v{chunks}",
        PB,
        {"stages": stages, "micro_batches": micro_batches, "chunks": chunks},
        "bubble",
        {"bubble_overhead": overhead, "idle_share": idle, "efficiency": 100 - idle},
        dict(zip(("bubble_overhead", "idle_share", "efficiency"), show, strict=True)),
    )


# Training planner. Each expectation is worked here from the papers' formulas, in exact
# fractions, not from the core's code: parameters, Narayanan et al. 2021 (arXiv
# 2104.04473) eq. 2, P = 12·l·h²·(1 + 13/(12h) + (V + s)/(12·l·h)), plus the final
# LayerNorm's 2h that eq. 2 leaves out; model states, 2 + 4 + 12 = 18 bytes a parameter
# (bf16 weights, fp32 gradients, fp32 master weights and Adam's two moments), sharded
# over the d replicas by ZeRO's stage (Rajbhandari et al. 2020, Figure 1); activations,
# Korthikanti et al. 2022 (arXiv 2205.05198) Table 2 and section 4.3; FLOPs, Narayanan
# et al. 2021 eq. 3 (72 without recomputation, 96 with full recomputation); times, the
# FLOPs at the efficiency's share of peak, the bubble (p − 1)/(v·m) of the compute, and
# ring collectives of 2(k − 1)/k of their bytes at the bus bandwidth, with no latency.

GB = 10**9

# GPT-3 175B on 64 A100 as Korthikanti et al. 2022 ran it, as a page sends it: the
# check mode's example.
_TP_GPT3: dict[str, object] = {
    "mode": "check",
    "layers": "96",
    "hidden": "12288",
    "heads": "96",
    "kv_heads": "",
    "ffn": "",
    "mlp": "gelu",
    "output_layer": "tied",
    "vocabulary": "51200",
    "sequence": "2048",
    "devices": "64",
    "devices_per_node": "8",
    "peak": "312",
    "memory": "80",
    "efficiency": "62.5",
    "intra_bandwidth": "230",
    "inter_bandwidth": "192",
    "latency": "3.4",
    "global_batch": "64",
    "micro_batch": "1",
    "tensor": "8",
    "pipeline": "8",
    "interleave": "3",
    "zero": "0",
    "recompute": "selective",
    "sequence_parallel": "on",
}
_TP_SEARCH: dict[str, object] = {
    **{name: value for name, value in _TP_GPT3.items() if name not in LAYOUT},
    "mode": "search",
}


def _planner_check(
    case_id: str,
    request: dict[str, object],
    outputs: dict[str, Fraction | int],
    display: tuple[str, ...],
    warnings: tuple[str, ...] = (),
) -> Known:
    """A check case: exact fractions become the floats a reply carries, whole numbers stay."""
    return Known(
        f"tp-check-{case_id}",
        TP,
        request,
        "check",
        {name: v if isinstance(v, int) else float(v) for name, v in outputs.items()},
        dict(zip(outputs, display, strict=True)),
        warnings,
    )


def _gpt3_full_recomputation() -> Known:
    """GPT-3 175B, t = 8, p = 8, d = 1, no interleaving, full recomputation, no latency.

    The first stage's device holds l/p = 12 layers: their matrices 12h² and column-parallel
    biases 7h (QKV 3h, the first MLP product 4h) split over t, their row-parallel biases
    and LayerNorms 6h whole (eq. 2's 13h), the word embeddings V·h split over t and the
    position embeddings s·h whole. Under 1F1B it keeps min(m, p) = 8 micro-batches: with
    full recomputation and sequence parallelism each layer keeps its input, 2·s·b·h/t
    (Korthikanti et al. 2022 section 5), and the embedding its dropout mask, s·b·h/t
    (section 4.3). Tensor parallelism runs 6 all-reduces of 2·s·b·h bytes a layer and
    micro-batch (2 forward, 2 backward, 2 recomputed) inside a node; the pipeline sends
    2·s·b·h/t bytes each way in each of the m + p − 1 slots, across nodes, where a node's
    8 devices share its 192 GB/s.
    """
    request = {**_TP_GPT3, "latency": "0", "interleave": "1", "recompute": "full"}
    layers, h, v, s = 96, 12288, 51200, 2048
    devices, per_node, intra, inter = 64, 8, 230, 192
    batch, micro, t, p = 64, 1, 8, 8
    rate = Fraction(312 * 10**12) * Fraction(625, 1000)
    m = batch // micro  # d = N / (t·p) = 1
    sbh = s * micro * h
    held = Fraction(12 * (12 * h * h + 7 * h) + v * h, t) + 12 * 6 * h + s * h
    activations = min(m, p) * (12 * Fraction(2 * sbh, t) + Fraction(sbh, t))
    model = (
        72 * batch * s * layers * h * h * (1 + Fraction(s, 6 * h) + Fraction(v, 12 * layers * h))
    )
    hardware = (
        96 * batch * s * layers * h * h * (1 + Fraction(s, 6 * h) + Fraction(v, 16 * layers * h))
    )
    compute = hardware / devices / rate
    bubble = compute * Fraction(p - 1, m)
    tensor = 6 * 12 * m * Fraction(2 * (t - 1), t) * 2 * sbh / (intra * GB)
    pipeline = 2 * (m + p - 1) * Fraction(2 * sbh, t) / (Fraction(inter, per_node) * GB)
    step = compute + bubble + tensor + pipeline
    parameters = 12 * layers * h * h * (1 + Fraction(13, 12 * h) + Fraction(v + s, 12 * layers * h))
    assert parameters.denominator == 1
    return _planner_check(
        "gpt3-175b-full-recomputation",
        request,
        {
            "parameters": int(parameters) + 2 * h,
            "data_parallel": 1,
            "micro_batches": m,
            "weights_memory": 2 * held / GB,
            "gradients_memory": 4 * held / GB,
            "optimizer_memory": 12 * held / GB,
            "activation_memory": activations / GB,
            "memory": (18 * held + activations) / GB,
            "compute_time": compute,
            "bubble_time": bubble,
            "tensor_time": tensor,
            "pipeline_time": pipeline,
            "data_time": Fraction(0),  # d = 1: nothing to reduce
            "step_time": step,
            "tokens_per_second": batch * s / step,
            "model_tflops": model / devices / step / 10**12,
            "mfu": model / devices / step / Fraction(312 * 10**12) * 100,
            "hfu": hardware / devices / step / Fraction(312 * 10**12) * 100,
        },
        (
            "174615846912",
            "1",
            "64",
            "5.65",
            "11.29",
            "33.87",
            "0.63",
            "51.44",
            "15.061",
            "1.647",
            "1.765",
            "0.037",
            "0",
            "18.51",
            "7081",
            "119.1",
            "0.382",
            "0.509",
        ),
    )


def _zero_3_over_four_replicas() -> Known:
    """A 0.47B GPT on 4 devices of one node, data parallel only, ZeRO-3, nothing recomputed.

    Without tensor or pipeline parallelism the device holds every parameter, sharded
    four ways: 18·P/4 bytes. Each layer keeps Table 2's s·b·h·(34 + 5·a·s/h) bytes for
    the one micro-batch in flight, the embedding its dropout mask s·b·h, and the output
    layer (p = 1) 4·s·b·h·(1 + V/h): the final LayerNorm's input, the output product's
    and the fp32 logits (section 4.3). The gradients' reduction moves ZeRO-3's 1.5 times
    an all-reduce's bytes, 1.5 · 2(d − 1)/d · 4·P, at 100 GB/s.
    """
    layers, h, a, v, s = 8, 2048, 16, 32000, 2048
    devices, batch, micro = 4, 8, 2
    rate = Fraction(100 * 10**12) * Fraction(50, 100)
    d = devices
    sbh = s * micro * h
    parameters = 12 * layers * h * h + 13 * layers * h + (v + s) * h + 2 * h
    activations = (
        layers * sbh * (34 + Fraction(5 * a * s, h)) + sbh + 4 * sbh * (1 + Fraction(v, h))
    )
    model = (
        72 * batch * s * layers * h * h * (1 + Fraction(s, 6 * h) + Fraction(v, 12 * layers * h))
    )
    compute = model / devices / rate
    data = Fraction(3, 2) * Fraction(2 * (d - 1), d) * 4 * parameters / (100 * GB)
    step = compute + data
    utilisation = model / devices / step / Fraction(100 * 10**12) * 100
    return _planner_check(
        "zero-3-over-four-replicas",
        {
            "mode": "check",
            "layers": layers,
            "hidden": h,
            "heads": a,
            "kv_heads": None,
            "mlp": "gelu",
            "output_layer": "tied",
            "vocabulary": v,
            "sequence": s,
            "devices": devices,
            "devices_per_node": 8,
            "peak": 100,
            "memory": 80,
            "efficiency": 50,
            "intra_bandwidth": 100,
            "inter_bandwidth": 100,
            "latency": 0,
            "global_batch": batch,
            "micro_batch": micro,
            "tensor": 1,
            "pipeline": 1,
            "interleave": 1,
            "zero": "3",
            "recompute": "none",
            "sequence_parallel": "off",
        },
        {
            "parameters": parameters,
            "data_parallel": d,
            "micro_batches": batch // (micro * d),
            "weights_memory": Fraction(2 * parameters, d) / GB,
            "gradients_memory": Fraction(4 * parameters, d) / GB,
            "optimizer_memory": Fraction(12 * parameters, d) / GB,
            "activation_memory": activations / GB,
            "memory": (Fraction(18 * parameters, d) + activations) / GB,
            "compute_time": compute,
            "bubble_time": Fraction(0),
            "tensor_time": Fraction(0),
            "pipeline_time": Fraction(0),
            "data_time": data,
            "step_time": step,
            "tokens_per_second": batch * s / step,
            "model_tflops": model / devices / step / 10**12,
            "mfu": utilisation,
            "hfu": utilisation,  # nothing recomputed
        },
        (
            "472600576",
            "4",
            "1",
            "0.24",
            "0.47",
            "1.42",
            "8.22",
            "10.34",
            "0.263",
            "0",
            "0",
            "0",
            "0.043",
            "0.306",
            "53605",
            "43",
            "0.43",
            "0.43",
        ),
    )


def _search_on_one_device() -> Known:
    """A tiny GPT on one device of 1 GFLOP/s with 1 MB: every micro-batch, one plan each.

    l = 2, h = 4, a = 2, f = 4h, V = 10, s = 3, B = 1,024. One device allows one layout
    per micro-batch b, a divisor of 1,024: 11. A layer has W = 12h² = 192 weights; a step
    is 6·B·s·(l·(W + 2·s·h) + h·V) = 8,699,904 FLOPs (eq. 3), 8.7 ms, at 100 % of peak for
    every b without recomputation (no bubble, nothing to send), and the ties go to the
    smaller b. That fits up to b = 512: states 18·548 bytes (P by eq. 2 + 2h), Table 2's
    2·s·b·h·(34 + 5as/h) = 509,952 bytes for both layers, s·b·h = 6,144 for the
    embedding's dropout mask and 4·s·b·h·(1 + V/h) = 86,016 for the output layer:
    611,976 bytes. At b = 1,024 the layers' 1,019,904 bytes do not fit, nor, with the rest,
    selective recomputation's 34·s·b·h a layer; full recomputation's 2·s·b·h a layer
    does, 243,336 bytes in all, and runs every layer's forward again: a third more FLOPs
    over the layers, 11,354,112.
    """
    model = 6 * 1024 * 3 * (2 * (192 + 2 * 3 * 4) + 4 * 10)
    full = model + 2 * 1024 * 3 * 2 * (192 + 2 * 3 * 4)
    assert (model, full) == (8_699_904, 11_354_112)
    plain: dict[str, Cell] = {"tensor": 1, "pipeline": 1, "interleave": 1, "zero": "0"}
    plans = tuple(
        {
            "micro_batch": 2**k,
            **plain,
            "recompute": "none",
            "sequence_parallel": "off",
            "step_time": model / 10**9,
            "mfu": 100,
        }
        for k in range(10)
    )
    return Known(
        "tp-search-one-device-every-micro-batch",
        TP,
        {
            "layers": 2,
            "hidden": 4,
            "heads": 2,
            "kv_heads": "",
            "ffn": "",
            "mlp": "gelu",
            "output_layer": "tied",
            "vocabulary": 10,
            "sequence": 3,
            "devices": 1,
            "devices_per_node": 1,
            "peak": "0.001",
            "memory": "0.001",
            "efficiency": 100,
            "intra_bandwidth": 230,
            "inter_bandwidth": 192,
            "latency": 0,
            "global_batch": 1024,
        },
        "search",
        {"candidates": 11, "fitting": 11, "best_step_time": model / 10**9, "best_mfu": 100},
        {"candidates": "11", "fitting": "11", "best_step_time": "0.009", "best_mfu": "1"},
        (),
        {
            "plans": (
                *plans[:-1],
                {**plans[-1], "memory": 611_976 / GB},
                {
                    "micro_batch": 1024,
                    **plain,
                    "recompute": "full",
                    "step_time": full / 10**9,
                    "mfu": model / full * 100,
                    "memory": 243_336 / GB,
                },
            )
        },
    )


# Four layers, four heads, 8 devices in one node and a batch of 8: t in {1, 2, 4} (it
# divides the heads and f = 4h), p dividing 8/t and l = 4, b dividing B/d = t·p, and with
# p > 1, v = 2 chunks (dividing l/p > 1) with b dividing t: 1 + (2 + 1) + 3 for t = 1,
# 2 + (3 + 2) + 4 for t = 2, 3 + (4 + 3) for t = 4: 28 layouts.
_TP_EIGHT: dict[str, object] = {
    **_TP_SEARCH,
    "layers": "4",
    "hidden": "256",
    "heads": "4",
    "vocabulary": "10",
    "sequence": "8192",
    "devices": "8",
    "global_batch": "8",
}

_PLANNER_KNOWN = (
    _gpt3_full_recomputation(),
    _zero_3_over_four_replicas(),
    _search_on_one_device(),
    Known(
        # 1 MB: nothing fits, not even ZeRO-3 with full recomputation, whose device keeps
        # at least the embedding's dropout mask and one layer's input, 3·s·b·h/t bytes,
        # 1.5 MB for b = 1 and t at most 4.
        "tp-search-28-layouts-none-fits-in-1-mb",
        TP,
        {**_TP_EIGHT, "memory": "0.001"},
        "search",
        {"candidates": 28, "fitting": 0, "best_step_time": None, "best_mfu": None},
        {"candidates": "28", "fitting": "0", "best_step_time": None, "best_mfu": None},
        ("nothing_fits",),
        {"plans": ()},
    ),
)


KNOWN: tuple[Known, ...] = (
    # Data-parallel scaling: I = d·v, A = I·E, S = d·E.
    Known("dp-predict-64-2000-90", DP, _DP_BASE, "predict", _DP_BASE_OUT, _DP_BASE_SHOW),
    Known(
        "dp-predict-json-numbers-and-mode",
        DP,
        {"mode": "predict", "devices": 64, "throughput": 2000, "efficiency": 90},
        "predict",
        _DP_BASE_OUT,
        _DP_BASE_SHOW,
    ),
    Known(
        "dp-predict-devices-written-64.0",
        DP,
        {**_DP_BASE, "devices": " 64.0 "},
        "predict",
        _DP_BASE_OUT,
        _DP_BASE_SHOW,
    ),
    Known(
        "dp-predict-devices-written-6.4e1",
        DP,
        {**_DP_BASE, "devices": "6.4e1"},
        "predict",
        _DP_BASE_OUT,
        _DP_BASE_SHOW,
    ),
    Known(
        "dp-predict-devices-with-5000-leading-zeros",
        DP,
        {**_DP_BASE, "devices": "0" * 5000 + "64"},
        "predict",
        _DP_BASE_OUT,
        _DP_BASE_SHOW,
    ),
    Known(
        # 3 × 2.3 rounds down and 3 × 2.3 × 100 / 100 rounds up: no negative loss.
        "dp-predict-full-efficiency-loses-nothing",
        DP,
        {"devices": 3, "throughput": "2.3", "efficiency": "100"},
        "predict",
        {"ideal": 3 * 2.3, "actual": 3 * 2.3, "speedup": 3, "lost": 0},
        {"ideal": "6.9", "actual": "6.9", "speedup": "3", "lost": "0"},
    ),
    Known(
        "dp-predict-largest-cluster",
        DP,
        {"devices": "10000000", "throughput": "1e12", "efficiency": "100"},
        "predict",
        {"ideal": 1e19, "actual": 1e19, "speedup": 10000000, "lost": 0},
        {
            "ideal": "10000000000000000000",
            "actual": "10000000000000000000",
            "speedup": "10000000",
            "lost": "0",
        },
    ),
    Known(
        "dp-measure-64-2000-115200",
        DP,
        {"mode": "measure", "devices": "64", "throughput": "2000", "measured": "115200"},
        "measure",
        {"efficiency": 90, "speedup": 57.6, "ideal": 128000},
        {"efficiency": "0.9", "speedup": "57.6", "ideal": "128000"},
    ),
    Known(
        "dp-measure-super-linear-warns",
        DP,
        {"mode": "measure", "devices": 64, "throughput": 2000, "measured": 130000},
        "measure",
        {"efficiency": 101.5625, "speedup": 65, "ideal": 128000},
        {"efficiency": "1.0156", "speedup": "65", "ideal": "128000"},
        ("super_linear",),
    ),
    Known(
        "dp-measure-tiniest-throughput-at-the-cap",
        DP,
        {"mode": "measure", "devices": 1, "throughput": "5e-324", "measured": "5e-323"},
        "measure",
        {"efficiency": 1000, "speedup": 10, "ideal": TINY},
        {"efficiency": "10", "speedup": "10", "ideal": "0"},
        ("super_linear",),
    ),
    # Effective batch size: B = b·g·dp, dp = N / (tp·pp·cp).
    Known(
        "eb-global-2x4x128",
        EB,
        _EB_GLOBAL,
        "global-batch",
        {"data_parallel": 128, "global_batch": 1024, "tokens_per_step": 4194304},
        {"data_parallel": "128", "global_batch": "1024", "tokens_per_step": "4194304"},
    ),
    Known(
        "eb-global-empty-sequence-length",
        EB,
        {**_EB_GLOBAL, "sequence_length": ""},
        "global-batch",
        {"data_parallel": 128, "global_batch": 1024, "tokens_per_step": None},
        {"data_parallel": "128", "global_batch": "1024", "tokens_per_step": None},
    ),
    Known(
        "eb-global-sequence-length-left-out",
        EB,
        {name: value for name, value in _EB_GLOBAL.items() if name != "sequence_length"},
        "global-batch",
        {"data_parallel": 128, "global_batch": 1024, "tokens_per_step": None},
        {"data_parallel": "128", "global_batch": "1024", "tokens_per_step": None},
    ),
    Known(
        "eb-global-pipeline-divides-replicas-not-multiplies-batch",
        EB,
        {**_EB_GLOBAL, "pipeline_parallel": 4},
        "global-batch",
        {"data_parallel": 32, "global_batch": 256, "tokens_per_step": 1048576},
        {"data_parallel": "32", "global_batch": "256", "tokens_per_step": "1048576"},
    ),
    Known(
        "eb-global-largest-integers-exact",
        EB,
        {
            "micro_batch": 10_000_000,
            "accumulation_steps": 10_000_000,
            "world_size": 10_000_000,
            "tensor_parallel": 1,
            "pipeline_parallel": 1,
            "context_parallel": 1,
            "sequence_length": 100_000_000,
        },
        "global-batch",
        {"data_parallel": 10**7, "global_batch": 10**21, "tokens_per_step": 10**29},
        {
            "data_parallel": "10000000",
            "global_batch": "1" + "0" * 21,
            "tokens_per_step": "1" + "0" * 29,
        },
    ),
    Known(
        "eb-accumulation-1536-tp8-pp16",
        EB,
        _EB_ACC,
        "accumulation",
        {"data_parallel": 12, "accumulation_steps": 128, "tokens_per_step": 6291456},
        {"data_parallel": "12", "accumulation_steps": "128", "tokens_per_step": "6291456"},
    ),
    # Pipeline bubble: (p−1)/(v·m) and (p−1)/(v·m + p−1), in percent points.
    _pipeline((4, 8, 1), 37.5, 300 / 11, ["0.375", "0.2727", "0.7273"]),
    _pipeline((4, 8, 2), 18.75, 300 / 19, ["0.1875", "0.1579", "0.8421"]),
    _pipeline((4, 16, 1), 18.75, 300 / 19, ["0.1875", "0.1579", "0.8421"]),
    _pipeline((16, 128, 1), 11.71875, 1500 / 143, ["0.1172", "0.1049", "0.8951"]),
    _pipeline((1, 1, 1), 0, 0, ["0", "0", "1"]),
    _pipeline((8, 1, 1), 700, 87.5, ["7", "0.875", "0.125"]),
    _pipeline((4, 6, 1), 50, 300 / 9, ["0.5", "0.3333", "0.6667"]),
    # Data-parallel scaling, estimated: T = f · 2(d−1)/d · P·b / B + f · k · L,
    # X = max(0, T − o·C), E = C / (C + X); L = 2(d−1)·α on one node, and the same
    # whenever α_net = α (the cases below that set both say so).
    _estimate(
        "reference-1e9-bf16-64-devices-50-gbps",
        {},
        (80, 78.75, 0.0, 78.75, 78.75, 100_000 / 1078.75, 64_000 / 1078.75),
        ("80", "78.75", "0", "78.75", "78.75", "0.927", "59.33"),
    ),
    _estimate(
        "json-numbers",
        {
            "parameters": 1_000_000_000,
            "bytes_per_value": 2,
            "bucket_size": 25,
            "sharding": "none",
            "devices": 64,
            "devices_per_node": 8,
            "bus_bandwidth": 50.0,
            "algorithm": "ring",
            "latency": 0,
            "network_latency": 0,
            "compute_time": 1000,
            "overlap": 0,
        },
        (80, 78.75, 0.0, 78.75, 78.75, 100_000 / 1078.75, 64_000 / 1078.75),
        ("80", "78.75", "0", "78.75", "78.75", "0.927", "59.33"),
    ),
    _estimate(
        # However slow the link and long the latency, one device sends nothing.
        "one-device-communicates-nothing",
        {"devices": "1", "bus_bandwidth": "0.001", "latency": "1000", "bucket_size": "1"},
        (2000, 0.0, 0.0, 0.0, 0.0, 100.0, 1.0),
        ("2000", "0", "0", "0", "0", "1", "1"),
    ),
    _estimate(
        # 400 calls of 1 MB, each 2·511 steps of 5 µs: 2 044 ms of latency for 8 ms of data.
        "latency-dominated-many-small-buckets",
        {
            "parameters": "1e8",
            "bytes_per_value": "4",
            "devices": "512",
            "bus_bandwidth": "100",
            "latency": "5",
            "network_latency": "5",
            "bucket_size": "1",
            "compute_time": "500",
        },
        (
            400,
            7.984375,
            2044.0,
            2051.984375,
            2051.984375,
            50_000 / 2551.984375,
            256_000 / 2551.984375,
        ),
        ("400", "7.984", "2044", "2051.984", "2051.984", "0.1959", "100.31"),
        ("latency_bound",),
    ),
    _estimate(
        # The same gradients in one call (bucket size 0): latency no longer dominates.
        "latency-cut-by-one-call",
        {
            "parameters": "1e8",
            "bytes_per_value": "4",
            "devices": "512",
            "bus_bandwidth": "100",
            "latency": "5",
            "network_latency": "5",
            "bucket_size": "0",
            "compute_time": "500",
        },
        (1, 7.984375, 5.11, 13.094375, 13.094375, 50_000 / 513.094375, 256_000 / 513.094375),
        ("1", "7.984", "5.11", "13.094", "13.094", "0.9745", "498.93"),
    ),
    _estimate(
        "full-overlap-hides-everything",
        {"overlap": "100"},
        (80, 78.75, 0.0, 78.75, 0.0, 100.0, 64.0),
        ("80", "78.75", "0", "78.75", "0", "1", "64"),
    ),
    _estimate(
        "partial-overlap-hides-50-ms",
        {"overlap": "5"},
        (80, 78.75, 0.0, 78.75, 28.75, 100_000 / 1028.75, 64_000 / 1028.75),
        ("80", "78.75", "0", "78.75", "28.75", "0.9721", "62.21"),
    ),
    _estimate(
        # Bucket size 0: the whole 2 GB in one call, 2·63 steps of 10 µs.
        "bucket-size-0-one-call",
        {"latency": "10", "network_latency": "10", "bucket_size": "0"},
        (1, 78.75, 1.26, 80.01, 80.01, 100_000 / 1080.01, 64_000 / 1080.01),
        ("1", "78.75", "1.26", "80.01", "80.01", "0.9259", "59.26"),
    ),
    _estimate(
        # 4.1 MB of gradients in 4.1 MB buckets is one call; 4.1 × 1e6 in binary is 2.
        "calls-exact-for-decimal-bucket",
        {
            "parameters": "4100000",
            "bytes_per_value": "1",
            "devices": "2",
            "bus_bandwidth": "1",
            "latency": "1",
            "bucket_size": "4.1",
        },
        (1, 4.1, 0.002, 4.1 + 0.002, 4.1 + 0.002, 100_000 / 1004.102, 2000 / 1004.102),
        ("1", "4.1", "0.002", "4.102", "4.102", "0.9959", "1.99"),
    ),
    _estimate(
        # A call carries at least one value: buckets smaller than a value give P calls.
        "calls-at-most-one-per-value",
        {
            "parameters": "10",
            "bytes_per_value": "4",
            "devices": "2",
            "bus_bandwidth": "1",
            "latency": "1",
            "bucket_size": "1e-9",
            "compute_time": "1",
        },
        (10, 0.00004, 0.02, 0.02004, 0.02004, 100 / 1.02004, 2 / 1.02004),
        ("10", "0", "0.02", "0.02", "0.02", "0.9804", "1.96"),
        ("latency_bound",),
    ),
    _estimate(
        # Every bound at its worst: finite times, and an efficiency still above zero.
        "worst-case-stays-finite-and-positive",
        {
            "parameters": "1e15",
            "bytes_per_value": "8",
            "devices": "10000000",
            "bus_bandwidth": "0.001",
            "latency": "1000000",
            "network_latency": "1000000",
            "bucket_size": "1e-300",
            "compute_time": "0.001",
        },
        (
            10**15,
            15_999_998_400_000.0,
            1.9999998e25,
            1.9999998e25 + 15_999_998_400_000.0,
            1.9999998e25 + 15_999_998_400_000.0,
            0.1 / (1.9999998e25 + 15_999_998_400_000.0),
            10_000 / (1.9999998e25 + 15_999_998_400_000.0),
        ),
        (
            "1000000000000000",
            "15999998400000",
            "19999998000000000000000000",
            "19999998000015998000000000",
            "19999998000015998000000000",
            "0",
            "0",
        ),
        ("latency_bound",),
    ),
    _estimate(
        # 1,024 devices as 128 nodes of 8, 80 calls of 25 MB. A ring pays 2·127 network steps
        # of 14 µs and 2·896 NVLink steps of 3.4 µs per call: 3 556 + 6 092.8 = 9 648.8 µs.
        "ring-across-128-nodes",
        {"devices": "1024", "latency": "3.4", "network_latency": "14"},
        (
            80,
            79.921875,
            771.904,
            851.825875,
            851.825875,
            100_000 / 1851.825875,
            1_024_000 / 1851.825875,
        ),
        ("80", "79.922", "771.904", "851.826", "851.826", "0.54", "552.97"),
        ("latency_bound",),
    ),
    _estimate(
        # The same as a tree: 2·((8 − 1)·3.4 + log2(128)·14) = 243.6 µs per call.
        "tree-across-128-nodes",
        {"devices": "1024", "latency": "3.4", "network_latency": "14", "algorithm": "tree"},
        (
            80,
            79.921875,
            19.488,
            99.409875,
            99.409875,
            100_000 / 1099.409875,
            1_024_000 / 1099.409875,
        ),
        ("80", "79.922", "19.488", "99.41", "99.41", "0.9096", "931.41"),
    ),
    _estimate(
        # On one node the tree and the ring both pay 2(d−1) steps: 2·7·3.4 = 47.6 µs per call.
        "tree-on-one-node-is-the-ring",
        {"devices": "8", "latency": "3.4", "network_latency": "14", "algorithm": "tree"},
        (80, 70.0, 3.808, 73.808, 73.808, 100_000 / 1073.808, 8000 / 1073.808),
        ("80", "70", "3.808", "73.808", "73.808", "0.9313", "7.45"),
    ),
    _estimate(
        # 12 devices over nodes of 8 are 2 nodes; NCCL's tree counts 12 // 2 = 6 per node:
        # 2·(5·1 + 1·10) = 30 µs, against the ring's 2·1·10 + 2·10·1 = 40 µs.
        "tree-with-a-partial-node",
        {
            "devices": "12",
            "latency": "1",
            "network_latency": "10",
            "algorithm": "tree",
            "bucket_size": "0",
        },
        (
            1,
            2e9 * 22 / 12 / 50e6,
            0.03,
            2e9 * 22 / 12 / 50e6 + 0.03,
            2e9 * 22 / 12 / 50e6 + 0.03,
            100_000 / (1000 + 2e9 * 22 / 12 / 50e6 + 0.03),
            12_000 / (1000 + 2e9 * 22 / 12 / 50e6 + 0.03),
        ),
        ("1", "73.333", "0.03", "73.363", "73.363", "0.9317", "11.18"),
    ),
    _estimate(
        "ring-with-a-partial-node",
        {"devices": "12", "latency": "1", "network_latency": "10", "bucket_size": "0"},
        (
            1,
            2e9 * 22 / 12 / 50e6,
            0.04,
            2e9 * 22 / 12 / 50e6 + 0.04,
            2e9 * 22 / 12 / 50e6 + 0.04,
            100_000 / (1000 + 2e9 * 22 / 12 / 50e6 + 0.04),
            12_000 / (1000 + 2e9 * 22 / 12 / 50e6 + 0.04),
        ),
        ("1", "73.333", "0.04", "73.373", "73.373", "0.9316", "11.18"),
    ),
    _estimate(
        # ZeRO-1 and ZeRO-2 move what an all-reduce moves: the reference, unchanged.
        "zero-1-2-moves-the-all-reduce-bytes",
        {"sharding": "zero-1-2"},
        (80, 78.75, 0.0, 78.75, 78.75, 100_000 / 1078.75, 64_000 / 1078.75),
        ("80", "78.75", "0", "78.75", "78.75", "0.927", "59.33"),
    ),
    _estimate(
        # ZeRO-3 moves 1.5 times the bytes, and pays 1.5 times the steps: 80 buckets of
        # 2·63 steps of 10 µs are 100.8 ms as a ring, 151.2 ms under ZeRO-3.
        "zero-3-moves-one-and-a-half-times",
        {"sharding": "zero-3", "latency": "10", "network_latency": "10"},
        (80, 118.125, 151.2, 269.325, 269.325, 100_000 / 1269.325, 64_000 / 1269.325),
        ("80", "118.125", "151.2", "269.325", "269.325", "0.7878", "50.42"),
        ("latency_bound",),
    ),
    *_PLANNER_KNOWN,
)

# --------------------------------------------------------------------------- refused requests

# (case name, raw devices value, code, bound): every kind of bad text or JSON value.
_BAD_DEVICES: tuple[tuple[str, object, str, Bound], ...] = (
    ("empty", "", "required", None),
    ("whitespace", " \t ", "required", None),
    ("null", None, "required", None),
    ("letters", "abc", "not_a_number", None),
    ("nan-text", "nan", "not_a_number", None),
    ("nan-json", math.nan, "not_a_number", None),
    ("inf-text", "inf", "not_a_number", None),
    ("infinity-text", "-Infinity", "not_a_number", None),
    ("inf-json", math.inf, "above_maximum", 10_000_000),
    ("minus-inf-json", -math.inf, "below_minimum", 1),
    ("1e309", "1e309", "above_maximum", 10_000_000),
    ("minus-1e309", "-1e309", "below_minimum", 1),
    ("negative", "-3", "below_minimum", 1),
    ("zero", "0", "below_minimum", 1),
    ("fraction", "64.5", "not_an_integer", None),
    ("fraction-json", 64.5, "not_an_integer", None),
    ("true", True, "not_a_number", None),
    ("false", False, "not_a_number", None),
    ("list", [64], "not_a_number", None),
    ("object", {"value": 64}, "not_a_number", None),
    ("underscore", "1_000", "not_a_number", None),
    ("thousands-comma", "1,000", "not_a_number", None),
    ("thousands-space", "1 000", "not_a_number", None),
    ("hex", "0x40", "not_a_number", None),
    ("arabic-indic-digits", "١٢", "not_a_number", None),
    ("fullwidth-digits", "６４", "not_a_number", None),
    ("unit-suffix", "64 GPUs", "not_a_number", None),
    ("above-maximum", "10000001", "above_maximum", 10_000_000),
    ("huge-json-int", 10**30, "above_maximum", 10_000_000),
    ("5000-digits", "1" * 5000, "above_maximum", 10_000_000),
    ("minus-5000-digits", "-" + "1" * 5000, "below_minimum", 1),
)


def _error(
    case_id: str, slug: str, request: dict[str, object], mode: str, *errors: Error
) -> Refused:
    return Refused(case_id, slug, request, mode, errors)


REFUSED: tuple[Refused, ...] = (
    *(
        _error(f"dp-devices-{name}", DP, {**_DP_BASE, "devices": raw}, "predict", ("devices", c, b))
        for name, raw, c, b in _BAD_DEVICES
    ),
    _error(
        "dp-three-bad-fields-three-errors",
        DP,
        {"devices": "", "throughput": "abc", "efficiency": "0"},
        "predict",
        ("devices", "required", None),
        ("throughput", "not_a_number", None),
        ("efficiency", "not_above_minimum", 0),
    ),
    _error(
        "dp-empty-request-every-field-required",
        DP,
        {},
        "predict",
        ("devices", "required", None),
        ("throughput", "required", None),
        ("efficiency", "required", None),
    ),
    _error(
        "dp-throughput-zero",
        DP,
        {**_DP_BASE, "throughput": "0"},
        "predict",
        ("throughput", "not_above_minimum", 0),
    ),
    _error(
        "dp-throughput-minus-zero",
        DP,
        {**_DP_BASE, "throughput": "-0.0"},
        "predict",
        ("throughput", "not_above_minimum", 0),
    ),
    _error(
        "dp-throughput-underflows-to-zero",
        DP,
        {**_DP_BASE, "throughput": "1e-400"},
        "predict",
        ("throughput", "not_above_minimum", 0),
    ),
    _error(
        "dp-efficiency-above-100",
        DP,
        {**_DP_BASE, "efficiency": "100.0001"},
        "predict",
        ("efficiency", "above_maximum", 100),
    ),
    _error(
        "dp-efficiency-percent-sign",
        DP,
        {**_DP_BASE, "efficiency": "90%"},
        "predict",
        ("efficiency", "not_a_number", None),
    ),
    _error(
        "dp-unknown-field-after-declared-errors",
        DP,
        {**_DP_BASE, "devices": "x", "device": "64", "gpus": 8},
        "predict",
        ("devices", "not_a_number", None),
        ("device", "unknown_field", None),
        ("gpus", "unknown_field", None),
    ),
    _error(
        "dp-measure-field-in-predict-mode",
        DP,
        {**_DP_BASE, "measured": "115200"},
        "predict",
        ("measured", "unknown_field", None),
    ),
    _error(
        "dp-measure-tiniest-throughput-huge-measured",
        DP,
        {"mode": "measure", "devices": 64, "throughput": "5e-324", "measured": "1e19"},
        "measure",
        ("measured", "above_maximum", 64 * 10 * TINY),
    ),
    _error(
        "dp-measure-small-throughput-huge-measured",
        DP,
        {"mode": "measure", "devices": 64, "throughput": "0.5", "measured": "1e19"},
        "measure",
        ("measured", "above_maximum", 320),
    ),
    _error(
        "dp-measure-above-declared-maximum",
        DP,
        {"mode": "measure", "devices": 64, "throughput": 2000, "measured": "1e20"},
        "measure",
        ("measured", "above_maximum", 1e19),
    ),
    _error(
        "dp-estimate-zero-bandwidth",
        DP,
        {**_DP_EST, "bus_bandwidth": "0"},
        "estimate",
        ("bus_bandwidth", "below_minimum", 0.001),
    ),
    _error(
        "dp-estimate-negative-bandwidth-and-latency",
        DP,
        {**_DP_EST, "bus_bandwidth": "-50", "latency": "-1"},
        "estimate",
        ("bus_bandwidth", "below_minimum", 0.001),
        ("latency", "below_minimum", 0),
    ),
    _error(
        # NCCL has no tree for reduce-scatter and all-gather.
        "dp-estimate-tree-with-sharding",
        DP,
        {**_DP_EST, "algorithm": "tree", "sharding": "zero-3"},
        "estimate",
        ("algorithm", "tree_allreduce_only", None),
    ),
    _error(
        # A choice is one of its values as written: not a number, not another case.
        "dp-estimate-not-a-choice",
        DP,
        {**_DP_EST, "algorithm": "Ring", "sharding": 3, "devices_per_node": "0"},
        "estimate",
        ("sharding", "not_a_choice", None),
        ("devices_per_node", "below_minimum", 1),
        ("algorithm", "not_a_choice", None),
    ),
    _error(
        "dp-estimate-empty-choice",
        DP,
        {**_DP_EST, "algorithm": " ", "sharding": None},
        "estimate",
        ("sharding", "required", None),
        ("algorithm", "required", None),
    ),
    _error(
        "dp-estimate-bad-values",
        DP,
        {
            **_DP_EST,
            "parameters": "0",
            "bytes_per_value": "2.5",
            "bucket_size": "-25",
            "compute_time": "0",
            "overlap": "100.5",
        },
        "estimate",
        ("parameters", "below_minimum", 1),
        ("bytes_per_value", "not_an_integer", None),
        ("bucket_size", "below_minimum", 0),
        ("compute_time", "below_minimum", 0.001),
        ("overlap", "above_maximum", 100),
    ),
    _error(
        "dp-estimate-above-maximum",
        DP,
        {**_DP_EST, "parameters": "1e16", "bytes_per_value": "16", "devices": "1e8"},
        "estimate",
        ("parameters", "above_maximum", 10**15),
        ("bytes_per_value", "above_maximum", 8),
        ("devices", "above_maximum", 10_000_000),
    ),
    _error(
        "dp-estimate-efficiency-is-not-an-input",
        DP,
        {**_DP_EST, "efficiency": "90"},
        "estimate",
        ("efficiency", "unknown_field", None),
    ),
    _error(
        "eb-global-world-not-divisible",
        EB,
        {**_EB_GLOBAL, "world_size": 100, "tensor_parallel": 8},
        "global-batch",
        ("world_size", "not_divisible", 8),
    ),
    _error(
        "eb-global-context-parallel-counts-in-the-split",
        EB,
        {**_EB_GLOBAL, "tensor_parallel": 2, "pipeline_parallel": 2, "context_parallel": 3},
        "global-batch",
        ("world_size", "not_divisible", 12),
    ),
    _error(
        "eb-accumulation-world-not-divisible",
        EB,
        {**_EB_ACC, "world_size": 1000},
        "accumulation",
        ("world_size", "not_divisible", 128),
    ),
    _error(
        "eb-accumulation-global-not-divisible",
        EB,
        {**_EB_ACC, "global_batch": 1000},
        "accumulation",
        ("global_batch", "not_divisible", 12),
    ),
    _error(
        "eb-sequence-length-bad",
        EB,
        {**_EB_GLOBAL, "micro_batch": "0", "sequence_length": "4096.5"},
        "global-batch",
        ("micro_batch", "below_minimum", 1),
        ("sequence_length", "not_an_integer", None),
    ),
    _error(
        "eb-accumulation-steps-is-not-an-input-of-accumulation",
        EB,
        {**_EB_ACC, "accumulation_steps": 4},
        "accumulation",
        ("accumulation_steps", "unknown_field", None),
    ),
    _error(
        "pb-interleaved-micro-batches-not-multiple-of-stages",
        PB,
        {"stages": 4, "micro_batches": 6, "chunks": 2},
        "bubble",
        ("micro_batches", "not_divisible", 4),
    ),
    _error(
        "pb-out-of-bounds",
        PB,
        {"stages": 0, "micro_batches": "1e10", "chunks": 1001},
        "bubble",
        ("stages", "below_minimum", 1),
        ("micro_batches", "above_maximum", 1_000_000_000),
        ("chunks", "above_maximum", 1000),
    ),
    # Training planner: Megatron-LM's refusals of a layout (check), each with its bound.
    _error(
        "tp-check-devices-not-a-multiple-of-t-p",
        TP,
        {**_TP_GPT3, "devices": "60"},
        "check",
        ("devices", "not_divisible", 64),
    ),
    _error(
        "tp-check-heads-not-a-multiple-of-t",
        TP,
        {**_TP_GPT3, "heads": "12"},
        "check",
        ("heads", "not_divisible", 8),
    ),
    _error(
        # l = 96 over p = 8 stages of v = 5 chunks each.
        "tp-check-layers-not-a-multiple-of-p-v",
        TP,
        {**_TP_GPT3, "interleave": "5"},
        "check",
        ("layers", "not_divisible", 40),
    ),
    _error(
        # Interleaving needs m = B / (b·d) = 60 micro-batches to be a multiple of p = 8.
        "tp-check-interleaved-micro-batches-not-a-multiple-of-p",
        TP,
        {**_TP_GPT3, "global_batch": "60"},
        "check",
        ("global_batch", "not_divisible", 8),
    ),
    _error(
        # d = 128 / 64 = 2 replicas of micro-batches of 2: B a multiple of 4.
        "tp-check-global-batch-not-a-multiple-of-b-d",
        TP,
        {**_TP_GPT3, "devices": "128", "micro_batch": "2", "global_batch": "66"},
        "check",
        ("global_batch", "not_divisible", 4),
    ),
    _error(
        "tp-check-chunks-need-stages",
        TP,
        {**_TP_GPT3, "pipeline": "1", "interleave": "2"},
        "check",
        ("interleave", "above_maximum", 1),
    ),
    _error(
        "tp-check-hidden-not-a-multiple-of-heads",
        TP,
        {**_TP_GPT3, "hidden": "1000"},
        "check",
        ("hidden", "not_divisible", 96),
    ),
    _error(
        # Five key-value heads divide neither the 96 heads nor split over t = 8.
        "tp-check-key-value-heads-divide-heads-and-split-over-t",
        TP,
        {**_TP_GPT3, "kv_heads": "5"},
        "check",
        ("heads", "not_divisible", 5),
        ("kv_heads", "not_divisible", 8),
    ),
    _error(
        "tp-check-ffn-not-a-multiple-of-t",
        TP,
        {**_TP_GPT3, "ffn": "1001"},
        "check",
        ("ffn", "not_divisible", 8),
    ),
    _error(
        # Every rule broken at once: each reported, in the order of the fields.
        "tp-check-every-layout-rule-at-once",
        TP,
        {**_TP_GPT3, "heads": "12", "ffn": "1001", "interleave": "5", "devices": "60"},
        "check",
        ("heads", "not_divisible", 8),
        ("ffn", "not_divisible", 8),
        ("layers", "not_divisible", 40),
        ("devices", "not_divisible", 64),
    ),
    _error(
        # A ZeRO stage is a word of its list, "1", not the number 1.
        "tp-check-not-a-choice",
        TP,
        {**_TP_GPT3, "zero": 1, "recompute": "Full", "sequence_parallel": " "},
        "check",
        ("zero", "not_a_choice", None),
        ("recompute", "not_a_choice", None),
        ("sequence_parallel", "required", None),
    ),
    _error(
        "tp-check-out-of-bounds",
        TP,
        {
            **_TP_GPT3,
            "kv_heads": "1.5",
            "efficiency": "0.5",
            "tensor": "0",
            "interleave": "1001",
        },
        "check",
        ("kv_heads", "not_an_integer", None),
        ("efficiency", "below_minimum", 1),
        ("tensor", "below_minimum", 1),
        ("interleave", "above_maximum", 1000),
    ),
    _error(
        "tp-search-layout-is-not-an-input",
        TP,
        {**_TP_SEARCH, "tensor": "8"},
        "search",
        ("tensor", "unknown_field", None),
    ),
    _error(
        # The model's own rules stand whatever the layout.
        "tp-search-hidden-and-heads-not-divisible",
        TP,
        {**_TP_SEARCH, "hidden": "1000", "kv_heads": "5"},
        "search",
        ("hidden", "not_divisible", 96),
        ("heads", "not_divisible", 5),
    ),
    _error(
        # Highly composite numbers everywhere: 18,523 layouts, past the search's bound.
        "tp-search-too-many-layouts",
        TP,
        {
            **_TP_SEARCH,
            "layers": "240",
            "hidden": "5760",
            "heads": "720",
            "devices": "2520",
            "devices_per_node": "720",
            "global_batch": str(40320 * 81),
        },
        "search",
        ("devices", "too_many_layouts", 20_000),
    ),
)

# What the browser boundary refuses before any field is read.
BOUNDARY: tuple[Refused, ...] = (
    *(
        Refused(f"web-bad-request-{name}", DP, text, None, ((None, "bad_request", None),))
        for name, text in (
            ("empty-string", ""),
            ("malformed-json", '{"devices": 64'),
            ("json-array", "[64, 2000, 90]"),
            ("json-null", "null"),
            ("json-number", "42"),
            ("json-string", '"devices=64"'),
            ("json-nan", "NaN"),
            ("query-string", "devices=64&throughput=2000"),
        )
    ),
    Refused(
        "web-unknown-calculator", "tensor-parallel", {}, None, ((None, "unknown_calculator", None),)
    ),
    Refused("web-empty-slug", "", _DP_BASE, None, ((None, "unknown_calculator", None),)),
    Refused(
        "web-unknown-mode",
        DP,
        {**_DP_BASE, "mode": "simulate"},
        None,
        (("mode", "unknown_mode", None),),
    ),
    Refused(
        "web-mode-is-not-a-string",
        DP,
        {**_DP_BASE, "mode": 1},
        "predict",
        (("mode", "unknown_mode", None),),
    ),
    Refused(
        "web-mode-is-a-list",
        PB,
        {"stages": 4, "mode": ["bubble"]},
        "bubble",
        (("mode", "unknown_mode", None),),
    ),
)

# --------------------------------------------------------------------------- garbage

GARBAGE_SEED = 20240917
GARBAGE_COUNT = 400

_SLUGS = tuple(CALCULATORS)
"""Every registered calculator: the random requests name each in turn."""
_FIELDS = tuple(
    dict.fromkeys(
        spec.name
        for calculator in CALCULATORS.values()
        for mode in calculator.modes
        for spec in mode.inputs
    )
)
"""Every input name of every mode, in the registry's order: garbage uses real names."""
_MODES = (
    *dict.fromkeys(mode.name for calculator in CALCULATORS.values() for mode in calculator.modes),
    "nope",
    "",
)
"""Every mode name, and two that no calculator has."""
_CHARS = "0123456789" * 4 + ".eE+-_ ,x%\t١٢６\u00a0\u2212"
_ATOMS: tuple[object, ...] = (
    None,
    True,
    False,
    0,
    -0.0,
    1,
    -1,
    0.5,
    TINY,
    1e308,
    -1e308,
    math.nan,
    math.inf,
    -math.inf,
    10**400,
    "",
    " ",
    "nan",
    "inf",
    "1e309",
    "1" * 4400,
    [],
    {},
)


def _value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(8 if depth < 2 else 6)
    if kind == 0:
        return rng.choice(_ATOMS)
    if kind == 1:
        return rng.randrange(-(10**12), 10**12) if rng.randrange(2) else rng.randrange(1, 200)
    if kind == 2:
        return rng.uniform(-1e3, 1e3) * 10.0 ** rng.randrange(-320, 300)
    if kind in (3, 4, 5):
        return "".join(rng.choice(_CHARS) for _ in range(rng.randrange(12)))
    if kind == 6:
        return [_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice(_FIELDS): _value(rng, depth + 1) for _ in range(rng.randrange(3))}


def _typed(rng: random.Random, value: Number) -> object:
    """A plausible value as a page or a script would send it: a number or its text."""
    return value if rng.randrange(2) else repr(value)


def _plausible_dp(rng: random.Random) -> dict[str, object]:
    """Data-parallel scaling: a prediction, a measurement or an estimate."""
    devices, throughput = rng.randrange(1, 5000), round(rng.uniform(0.1, 5000), 2)
    if rng.randrange(3) == 0:
        tree = rng.randrange(3) == 0
        return {
            "mode": "estimate",
            "parameters": rng.choice((10**6, 10**8, 10**9, 7 * 10**9, 70 * 10**9)),
            "bytes_per_value": rng.choice((2, 4)),
            "sharding": "none" if tree else rng.choice(("none", "zero-1-2", "zero-3")),
            "devices": devices,
            "devices_per_node": rng.choice((1, 4, 8, 8, 72)),
            "bus_bandwidth": round(rng.uniform(1, 500), rng.randrange(3)),
            "algorithm": "tree" if tree else "ring",
            "latency": rng.choice((0, 3.4, 4, round(rng.uniform(0, 50), 1))),
            "network_latency": rng.choice((0, 14, round(rng.uniform(0, 50), 1))),
            "bucket_size": rng.choice((0, 1, 25, 26.2144, 100, round(rng.uniform(0, 500), 2))),
            "compute_time": round(rng.uniform(1, 5000), 1),
            "overlap": rng.choice((0, 50, 100, round(rng.uniform(0, 100), 1))),
        }
    if rng.randrange(2):
        return {
            "devices": devices,
            "throughput": throughput,
            "efficiency": round(rng.uniform(0.5, 100), rng.randrange(4)),
        }
    measured = devices * throughput * rng.uniform(0.2, 1.3)
    return {
        "mode": "measure",
        "devices": devices,
        "throughput": throughput,
        "measured": measured,
    }


def _plausible_eb(rng: random.Random) -> dict[str, object]:
    """Effective batch size: either mode, sometimes with a world size that does not split."""
    micro, dp = rng.randrange(1, 9), rng.randrange(1, 65)
    degrees = {
        "tensor_parallel": rng.choice((1, 2, 4, 8)),
        "pipeline_parallel": rng.choice((1, 2, 4, 16)),
        "context_parallel": rng.choice((1, 1, 2)),
    }
    world = dp * math.prod(degrees.values()) + rng.choice((0, 0, 0, 0, 1))
    common: dict[str, object] = {"micro_batch": micro, "world_size": world, **degrees}
    common["sequence_length"] = rng.choice(("", None, 2048, 4096, 8192, 131072))
    if rng.randrange(2):
        return {**common, "accumulation_steps": rng.randrange(1, 129)}
    batch = micro * dp * rng.randrange(1, 129) + rng.choice((0, 0, 0, 1))
    return {"mode": "accumulation", "global_batch": batch, **common}


def _plausible_pb(rng: random.Random) -> dict[str, object]:
    """Pipeline bubble: micro-batches a multiple of the stages two times in three."""
    stages, chunks = rng.randrange(1, 65), rng.choice((1, 1, 2, 3, 4))
    batches = stages * rng.randrange(1, 50) if rng.randrange(3) else rng.randrange(1, 500)
    return {"stages": stages, "micro_batches": batches, "chunks": chunks}


def _plausible_tp(rng: random.Random) -> dict[str, object]:
    """A small model on a small cluster: a search of a few hundred layouts at most."""
    heads = rng.choice((1, 2, 4, 8, 16))
    hidden = heads * rng.choice((8, 16, 64, 128))
    per_node = rng.choice((1, 2, 4, 8))
    devices = per_node * rng.choice((1, 1, 2, 4)) + rng.choice((0, 0, 0, 0, 1))
    fields: dict[str, object] = {
        "layers": rng.choice((1, 2, 4, 6, 12, 24)),
        "hidden": hidden,
        "heads": heads,
        "kv_heads": rng.choice(("", None, heads, rng.choice((1, 2, 4)))),
        "ffn": rng.choice(("", None, 4 * hidden, 8 * hidden // 3, rng.randrange(1, 9) * 64)),
        "mlp": rng.choice(("gelu", "swiglu")),
        "output_layer": rng.choice(("tied", "untied")),
        "vocabulary": rng.choice((10, 1000, 32000, 51200)),
        "sequence": rng.choice((16, 128, 1024, 2048)),
        "devices": devices,
        "devices_per_node": per_node,
        "peak": rng.choice((312, 989, round(rng.uniform(1, 1000), 1))),
        "memory": rng.choice((0.001, 1, 16, 80, round(rng.uniform(0.01, 200), 2))),
        "efficiency": rng.choice((62.5, 50, 100, round(rng.uniform(1, 100), 1))),
        "intra_bandwidth": rng.choice((230, round(rng.uniform(1, 500), 1))),
        "inter_bandwidth": rng.choice((192, round(rng.uniform(1, 500), 1))),
        "latency": rng.choice((0, 3.4, round(rng.uniform(0, 20), 1))),
    }
    if rng.randrange(2):
        # The search, the first mode: named or not.
        batch = devices * rng.choice((1, 2, 4, 8)) + rng.choice((0, 0, 0, 1))
        return {**({"mode": "search"} if rng.randrange(2) else {}), **fields, "global_batch": batch}
    tensor = rng.choice([t for t in (1, 2, 4, 8) if t <= per_node and devices % t == 0])
    pipeline = rng.choice([p for p in (1, 2, 4) if devices % (tensor * p) == 0])
    micro = rng.choice((1, 2, 4))
    interleave = rng.choice((1, 1, 2, 3)) if pipeline > 1 else 1
    batch = devices // (tensor * pipeline) * micro * pipeline * rng.choice((1, 2, 4))
    return {
        "mode": "check",
        **fields,
        "global_batch": batch,
        "micro_batch": micro,
        "tensor": tensor,
        "pipeline": pipeline,
        "interleave": interleave,
        "zero": rng.choice(("0", "1", "2", "3")),
        "recompute": rng.choice(("none", "selective", "full")),
        "sequence_parallel": rng.choice(("on", "off")),
    }


PLAUSIBLE: dict[str, Callable[[random.Random], dict[str, object]]] = {
    DP: _plausible_dp,
    EB: _plausible_eb,
    PB: _plausible_pb,
    TP: _plausible_tp,
}
"""Each calculator's plausible requests: mostly valid, of every mode, cheap to compute.

Written per calculator (a valid request follows rules across fields that no declaration
states); ``tests/test_registry.py`` fails for a registered calculator without them."""


def _plausible(rng: random.Random, slug: str) -> dict[str, object]:
    """A request that mostly computes, so that both runtimes also agree on results."""
    if slug not in PLAUSIBLE:
        raise LookupError(f"tests/cases.py: no plausible requests for {slug!r} in PLAUSIBLE")
    return PLAUSIBLE[slug](rng)


def _request(rng: random.Random, slug: str) -> str:
    shape = rng.randrange(10)
    if shape == 0:
        # Not a JSON object at all.
        return rng.choice(("", "{", "[]", "null", "3", '"x"', "{'devices': 64}", "NaN"))
    if shape == 1:
        return json.dumps(_value(rng))
    if shape < 7:
        request = {
            name: _typed(rng, value) if isinstance(value, int | float) else value
            for name, value in _plausible(rng, slug if slug in _SLUGS else PB).items()
        }
        if rng.randrange(4) == 0:
            request[rng.choice(sorted(request))] = _value(rng)
        return json.dumps(request)
    request = {name: _value(rng) for name in rng.sample(_FIELDS, rng.randrange(len(_FIELDS)))}
    if rng.randrange(3) == 0:
        request["mode"] = rng.choice((*_MODES, 0, None, ["bubble"]))
    if rng.randrange(6) == 0:
        request["".join(rng.choice("abc_") for _ in range(5))] = _value(rng)
    return json.dumps(request)


def garbage(count: int = GARBAGE_COUNT, seed: int = GARBAGE_SEED) -> tuple[Garbage, ...]:
    """Return ``count`` random requests, the same for a seed in every runtime."""
    rng = random.Random(seed)
    slugs = (*_SLUGS, *_SLUGS, *_SLUGS, "", "Pipeline-Bubble", "pipeline_bubble")
    cases = []
    for index in range(count):
        slug = rng.choice(slugs)
        cases.append(Garbage(f"garbage-{index:03d}", slug, _request(rng, slug)))
    return tuple(cases)


def all_requests() -> tuple[Known | Refused | Garbage, ...]:
    """Every case, known values first: what the Pyodide runner sends to ``evaluate``."""
    return (*KNOWN, *REFUSED, *BOUNDARY, *garbage())


# --------------------------------------------------------------------------- checking


class CaseFailure(AssertionError):
    """A reply does not match its case."""


def _same(got: object, expected: Bound) -> bool:
    """Whether a reply number matches: ints exactly, floats to 1e-12 relative."""
    if expected is None or got is None:
        return got is expected
    if isinstance(got, bool) or not isinstance(got, int | float):
        return False
    if isinstance(expected, int):
        return got == expected
    return math.isclose(got, expected, rel_tol=1e-12, abs_tol=0.0)


def _refuse_constant(name: str) -> object:
    raise CaseFailure(f"reply contains {name}, which is not JSON")


def parse_reply(text: object) -> dict[str, object]:
    """Parse a reply strictly: a JSON object, without NaN or Infinity."""
    if not isinstance(text, str):
        raise CaseFailure(f"reply is a {type(text).__name__}, not a string")
    reply = json.loads(text, parse_constant=_refuse_constant)
    if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
        raise CaseFailure(f"reply is not an object with a boolean ok: {text[:200]}")
    return reply


def _shape(reply: dict[str, object]) -> None:
    if reply["ok"]:
        keys = {"ok", "calculator", "mode", "outputs", "display", "warnings"}
        # A mode with tables may also link each row to other calculators' cases.
        if "related" in reply and _tables(reply):
            keys.add("related")
    else:
        keys = {"ok", "calculator", "mode", "errors"}
    if set(reply) != keys:
        raise CaseFailure(f"reply keys {sorted(reply)}, expected {sorted(keys)}")
    if reply["ok"]:
        _shape_success(reply)
    else:
        _shape_failure(reply)


def _finite_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _tables(reply: dict[str, object]) -> list[str]:
    """The names of a success reply's tables: its outputs that are lists of rows."""
    outputs = reply["outputs"]
    if not isinstance(outputs, dict):
        return []
    return [name for name, value in outputs.items() if isinstance(value, list)]


def _shape_success(reply: dict[str, object]) -> None:
    outputs, display = reply["outputs"], reply["display"]
    if not isinstance(outputs, dict) or not isinstance(display, dict):
        raise CaseFailure("outputs and display must be objects")
    if list(outputs) != list(display):
        raise CaseFailure("display must hold exactly the outputs, in order")
    tables = _tables(reply)
    if list(outputs)[len(outputs) - len(tables) :] != tables:
        raise CaseFailure(f"tables {tables} must come after the outputs")
    for name, value in outputs.items():
        if name in tables:
            _shape_table(name, value, display[name])
            continue
        if value is None:
            ok = display[name] is None
        else:
            ok = _finite_number(value) and isinstance(display[name], str)
        if not ok:
            raise CaseFailure(f"{name}: output {value!r} shown as {display[name]!r}")
    if "related" in reply:
        _shape_related(reply["related"], {name: outputs[name] for name in tables})
    warnings = reply["warnings"]
    if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
        raise CaseFailure(f"warnings must be a list of codes: {warnings!r}")


def _shape_table(name: str, rows: object, shown: object) -> None:
    """A table: rows of finite numbers and words, shown as rows of text, cell for cell."""
    if not isinstance(rows, list) or not isinstance(shown, list) or len(rows) != len(shown):
        raise CaseFailure(f"{name}: rows {rows!r} shown as {shown!r}")
    for row, text in zip(rows, shown, strict=True):
        if not isinstance(row, dict) or not isinstance(text, dict) or list(row) != list(text):
            raise CaseFailure(f"{name}: row {row!r} shown as {text!r}")
        for column, cell in row.items():
            if not (_finite_number(cell) or isinstance(cell, str)) or not isinstance(
                text[column], str
            ):
                raise CaseFailure(f"{name}: {column} {cell!r} shown as {text[column]!r}")


def _shape_related(related: object, tables: dict[str, list[object]]) -> None:
    """Each table's links to other calculators' cases: one object per row."""
    if not isinstance(related, dict) or list(related) != list(tables):
        raise CaseFailure(f"related must hold one list per table: {related!r}")
    for name, rows in tables.items():
        links = related[name]
        if not isinstance(links, list) or len(links) != len(rows):
            raise CaseFailure(f"related: {name} must hold one entry per row")
        if not all(isinstance(link, dict) for link in links):
            raise CaseFailure(f"related: {name}'s entries must be objects")


def _shape_failure(reply: dict[str, object]) -> None:
    errors = reply["errors"]
    if not isinstance(errors, list) or not errors:
        raise CaseFailure("a refusal must carry at least one error")
    for error in errors:
        if not isinstance(error, dict) or set(error) != {"field", "code", "bound"}:
            raise CaseFailure(f"error {error!r} must be exactly field, code and bound")
        if error["code"] not in CODES:
            raise CaseFailure(f"unknown error code {error['code']!r}")
        if error["bound"] is not None and not _finite_number(error["bound"]):
            raise CaseFailure(f"bound {error['bound']!r} must be a finite number or null")


def verify(case: Known | Refused | Garbage, text: object) -> dict[str, object]:
    """Check one reply string against its case; raise :class:`CaseFailure` if it differs."""
    reply = parse_reply(text)
    _shape(reply)
    if isinstance(case, Garbage):
        if reply["calculator"] != case.slug:
            raise CaseFailure(f"{case.id}: reply names calculator {reply['calculator']!r}")
        return reply
    where = f"{case.id}: "
    if reply["calculator"] != case.slug or reply["mode"] != case.mode:
        raise CaseFailure(f"{where}reply is for {reply['calculator']}/{reply['mode']}")
    if isinstance(case, Known):
        _verify_known(case, reply)
        return reply
    if reply["ok"]:
        raise CaseFailure(f"{where}computed {reply['outputs']} instead of refusing")
    errors = reply["errors"]
    assert isinstance(errors, list)
    got = [(error["field"], error["code"], error["bound"]) for error in errors]
    matches = len(got) == len(case.errors) and all(
        g[:2] == e[:2] and _same(g[2], e[2]) for g, e in zip(got, case.errors, strict=False)
    )
    if not matches:
        raise CaseFailure(f"{where}errors {got}, expected {list(case.errors)}")
    return reply


def _verify_known(case: Known, reply: dict[str, object]) -> None:
    """A success reply against its known values: every output, display, warning and row."""
    where = f"{case.id}: "
    if not reply["ok"]:
        raise CaseFailure(f"{where}refused: {reply['errors']}")
    outputs, display = reply["outputs"], reply["display"]
    assert isinstance(outputs, dict)
    assert isinstance(display, dict)
    if list(outputs) != [*case.outputs, *case.tables]:
        raise CaseFailure(
            f"{where}outputs {list(outputs)}, expected {[*case.outputs, *case.tables]}"
        )
    for name, expected in case.outputs.items():
        if not _same(outputs[name], expected):
            raise CaseFailure(f"{where}{name} is {outputs[name]!r}, expected {expected!r}")
    shown = {name: text for name, text in display.items() if name in case.outputs}
    if shown != case.display:
        raise CaseFailure(f"{where}display {shown}, expected {case.display}")
    for name, rows in case.tables.items():
        _verify_rows(f"{where}{name}", outputs[name], rows)
    if reply["warnings"] != list(case.warnings):
        raise CaseFailure(f"{where}warnings {reply['warnings']}, expected {case.warnings}")


def _verify_rows(where: str, got: object, rows: tuple[dict[str, Cell], ...]) -> None:
    """A table's rows: as many as expected, each with the expected cells."""
    if not isinstance(got, list) or len(got) != len(rows):
        raise CaseFailure(f"{where}: {got!r}, expected {len(rows)} rows")
    for index, (row, expected) in enumerate(zip(got, rows, strict=True)):
        for column, cell in expected.items():
            value = row.get(column)
            same = value == cell if isinstance(cell, str) else _same(value, cell)
            if not same:
                raise CaseFailure(f"{where}[{index}].{column} is {value!r}, expected {cell!r}")


def check() -> dict[str, int]:
    """Evaluate and verify every case in this runtime; return how many of each kind passed."""
    from calculator.web import evaluate  # noqa: PLC0415 - after sys.path is set up in Pyodide

    counts = {"known": 0, "refused": 0, "boundary": 0, "garbage": 0}
    for kind, group in (
        ("known", KNOWN),
        ("refused", REFUSED),
        ("boundary", BOUNDARY),
        ("garbage", garbage()),
    ):
        for case in group:
            verify(case, evaluate(case.slug, case.text))
            counts[kind] += 1
    ids = [case.id for case in all_requests()]
    if len(set(ids)) != len(ids):
        raise CaseFailure("case ids must be unique")
    return counts
