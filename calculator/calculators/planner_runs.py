"""Published Megatron-LM runs on A100 that the training planner is checked against.

Each run is the ``check`` mode's inputs for one published row and the figure the row
reports, with where each comes from, written once. The planner's one global efficiency
is fitted on all of them (``training_planner.EFFICIENCY``); nothing here is tuned per row.
The papers were read in full-text conversions of their PDFs.

Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters
Using Megatron-LM" (arXiv 2104.04473v5), Table 1: the achieved TFLOP/s per GPU, counted
with eq. 3 (hardware FLOPs with full recomputation), section 5.1. Each row's micro-batch,
interleaving and recomputation come from the authors' own script,
``examples/sc21/run_table_1.sh`` in NVIDIA/Megatron-LM at commit
6985e58938d40ad91ac07b0fddcfad8132e1447e. The runs used fp16 and the scatter/gather
optimisation of section 4.1; the planner models bf16 and sends whole activations between
stages without sequence parallelism.

Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
(arXiv 2205.05198): Table 3 (layouts), section 6 (three interleaved stages for the 175B and
530B models, no data parallelism), Table 5 (seconds per iteration, full recomputation
without sequence parallelism against selective recomputation with it, and the MFU and HFU
of the latter, which Megatron-LM's README also publishes at commit
2e90a342f5006a3e4f8cacf44002dbae0e10aa17, lines 22–27), and the 530B model on 2,240 GPUs,
eight replicas: 39.15 s per iteration (section 6.3) and an MFU of 42.1 % with full
recomputation (abstract).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["A100_CLUSTER", "RUNS", "PublishedRun"]

Inputs = Mapping[str, int | float | str]

A100_CLUSTER: Inputs = MappingProxyType(
    {
        "devices_per_node": 8,
        "peak": 312,
        "memory": 80,
        "intra_bandwidth": 230,
        "inter_bandwidth": 192,
        "latency": 3.4,
    }
)
"""Selene's DGX A100 nodes: 8 A100 80GB on NVLink and NVSwitch, eight 200 Gb/s HDR
InfiniBand cards (Narayanan et al. 2021 section 5, Korthikanti et al. 2022 section 6), a
16-bit peak of 312 TFLOP/s (Narayanan et al. 2021 section 5); the bus bandwidths and latency
are the
``data-parallel-scaling`` page's sourced figures for that node (nccl-tests issue 149,
NCCL issue 812, NCCL's ``tuning.cc``)."""

GPT: Inputs = MappingProxyType({"vocabulary": 51200, "sequence": 2048, "mlp": "gelu"})
"""Both papers' GPT models: V = 51,200, s = 2,048, GeLU, f = 4h, a key and value per head."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PublishedRun:
    """One published row: the inputs that reproduce its layout and the figure it reports.

    Attributes:
        id: Stable name.
        source: Paper, table and row of the figure.
        layout: Where the layout's inputs come from.
        inputs: The ``check`` mode's inputs (the cluster's come from :data:`A100_CLUSTER`).
        parameters: Parameters in billions as the row gives them, if it does.
        tflops: Achieved TFLOP/s per GPU, hardware FLOPs as eq. 3 counts them.
        seconds: Seconds per iteration.
        mfu: Model FLOPs utilisation in percent: model FLOPs per second against 312 TFLOP/s.
        hfu: Hardware FLOPs utilisation in percent, as the paper counts hardware FLOPs.
    """

    id: str
    source: str
    layout: str
    inputs: Inputs
    parameters: float | None = None
    tflops: float | None = None
    seconds: float | None = None
    mfu: float | None = None
    hfu: float | None = None


_SC21 = (
    "examples/sc21/run_table_1.sh, NVIDIA/Megatron-LM@6985e58938d40ad91ac07b0fddcfad8132e1447e, "
    "MODEL_SIZE={size}: --activations-checkpoint-method uniform (full recomputation)"
)


def _table1(  # noqa: PLR0917 -- one positional per column of Table 1 and the script
    size: str,
    parameters: float,
    heads: int,
    hidden: int,
    layers: int,
    tensor: int,
    pipeline: int,
    devices: int,
    batch: int,
    tflops: float,
    micro_batch: int,
    interleave: int,
) -> PublishedRun:
    return PublishedRun(
        id=f"narayanan-2021-{size.lower()}",
        source=f"Narayanan et al. 2021 (arXiv 2104.04473v5), Table 1, row {parameters} B",
        layout=_SC21.format(size=size),
        inputs=MappingProxyType(
            {
                **GPT,
                "layers": layers,
                "hidden": hidden,
                "heads": heads,
                "devices": devices,
                "global_batch": batch,
                "micro_batch": micro_batch,
                "tensor": tensor,
                "pipeline": pipeline,
                "interleave": interleave,
                "zero": "0",
                "recompute": "full",
                "sequence_parallel": "off",
            }
        ),
        parameters=parameters,
        tflops=tflops,
    )


_KORTHIKANTI = (
    "Korthikanti et al. 2022 (arXiv 2205.05198), Table 3, row {size}{interleaving}; "
    "no data parallelism (section 6)"
)


def _table5(  # noqa: PLR0917 -- one positional per column of Tables 3 and 5
    size: str,
    heads: int,
    hidden: int,
    layers: int,
    pipeline: int,
    devices: int,
    batch: int,
    micro_batch: int,
    interleave: int,
    full: float,
    selective: float,
    mfu: float,
    hfu: float,
) -> tuple[PublishedRun, PublishedRun]:
    layout = _KORTHIKANTI.format(
        size=size, interleaving=", three interleaved stages (section 6)" if interleave > 1 else ""
    )
    common: dict[str, int | float | str] = {
        **GPT,
        "layers": layers,
        "hidden": hidden,
        "heads": heads,
        "devices": devices,
        "global_batch": batch,
        "micro_batch": micro_batch,
        "tensor": 8,
        "pipeline": pipeline,
        "interleave": interleave,
        "zero": "0",
    }
    source = f"Korthikanti et al. 2022 (arXiv 2205.05198), Table 5, row {size}, {{column}}"
    return (
        PublishedRun(
            id=f"korthikanti-2022-{size.lower()}-full",
            source=source.format(column="full recompute"),
            layout=layout,
            inputs=MappingProxyType({**common, "recompute": "full", "sequence_parallel": "off"}),
            seconds=full,
        ),
        PublishedRun(
            id=f"korthikanti-2022-{size.lower()}-selective",
            source=source.format(column="present work (selective recompute, sequence parallel)"),
            layout=layout,
            inputs=MappingProxyType(
                {**common, "recompute": "selective", "sequence_parallel": "on"}
            ),
            seconds=selective,
            mfu=mfu,
            hfu=hfu,
        ),
    )


def _data_parallel_530b() -> tuple[PublishedRun, PublishedRun]:
    layout = (
        "Korthikanti et al. 2022, section 6.3: the 530B layout of Table 3 on 2,240 GPUs, "
        "eight data-parallel replicas, the batch multiplied by eight; no overlap of the "
        "gradients' all-reduce"
    )
    common: dict[str, int | float | str] = {
        **GPT,
        "layers": 105,
        "hidden": 20480,
        "heads": 128,
        "devices": 2240,
        "global_batch": 2240,
        "micro_batch": 1,
        "tensor": 8,
        "pipeline": 35,
        "interleave": 3,
        "zero": "0",
    }
    return (
        PublishedRun(
            id="korthikanti-2022-530b-2240-gpus-full",
            source="Korthikanti et al. 2022 (arXiv 2205.05198), abstract: MFU 42.1 % with "
            "(full) recomputation, 530B on 2,240 A100",
            layout=layout,
            inputs=MappingProxyType({**common, "recompute": "full", "sequence_parallel": "off"}),
            mfu=42.1,
        ),
        PublishedRun(
            id="korthikanti-2022-530b-2240-gpus-selective",
            source="Korthikanti et al. 2022 (arXiv 2205.05198), section 6.3: 39.15 s per "
            "iteration, MFU 54.2 % (abstract)",
            layout=layout,
            inputs=MappingProxyType(
                {**common, "recompute": "selective", "sequence_parallel": "on"}
            ),
            seconds=39.15,
            mfu=54.2,
        ),
    )


RUNS: tuple[PublishedRun, ...] = (
    # size, parameters (B), heads, h, l, t, p, GPUs, batch, TFLOP/s; micro-batch, chunks
    _table1("1.7B", 1.7, 24, 2304, 24, 1, 1, 32, 512, 137, 16, 1),
    _table1("3.6B", 3.6, 32, 3072, 30, 2, 1, 64, 512, 138, 16, 1),
    _table1("7.5B", 7.5, 32, 4096, 36, 4, 1, 128, 512, 142, 16, 1),
    _table1("18B", 18.4, 48, 6144, 40, 8, 1, 256, 1024, 135, 8, 1),
    _table1("39B", 39.1, 64, 8192, 48, 8, 2, 512, 1536, 138, 4, 1),
    # --num-layers-per-virtual-pipeline-stage 5, 5, 3, 1: v = l / (p · that).
    _table1("76B", 76.1, 80, 10240, 60, 8, 4, 1024, 1792, 140, 2, 3),
    _table1("145B", 145.6, 96, 12288, 80, 8, 8, 1536, 2304, 148, 2, 2),
    _table1("310B", 310.1, 128, 16384, 96, 8, 16, 1920, 2160, 155, 1, 2),
    _table1("530B", 529.6, 128, 20480, 105, 8, 35, 2520, 2520, 163, 1, 3),
    _table1("1T", 1008.0, 160, 25600, 128, 8, 64, 3072, 3072, 163, 1, 1),
    # size, heads, h, l, p, GPUs, batch, micro-batch, chunks; seconds full and selective
    # (Table 5); MFU and HFU (README at 2e90a342). t = 8 in every row.
    *_table5("22B", 64, 6144, 48, 1, 8, 4, 4, 1, 1.42, 1.10, 41.5, 43.7),
    *_table5("175B", 96, 12288, 96, 8, 64, 64, 1, 3, 18.13, 13.75, 51.4, 52.8),
    *_table5("530B", 128, 20480, 105, 35, 280, 280, 1, 3, 49.05, 37.83, 56.0, 57.0),
    *_table5("1T", 160, 25600, 128, 64, 512, 512, 1, 1, 94.42, 71.49, 56.3, 57.0),
    *_data_parallel_530b(),
)
"""Every published run: Narayanan's Table 1 (10), Korthikanti's Table 5 (8) and the 530B
model with data parallelism (2)."""
