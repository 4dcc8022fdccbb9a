"""Published Megatron-LM runs on A100 that the training planner is checked against.

Each run is the ``check`` mode's inputs for one published row and the figure the row
reports, with where each comes from, written once. The planner's one global efficiency
is fitted on all of them (``training_planner.EFFICIENCY``); nothing here is tuned per row.
The papers were read in full-text conversions of their PDFs.

Each run belongs to a group, one per published table (:data:`GROUPS`, from the runs), which
says what its rows are compared on and the target the planner is held to there;
:mod:`calculator.calculators.planner_checks` computes the comparisons, for the tests and
for the site's tables.

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

__all__ = [
    "A100_CLUSTER",
    "DATA_PARALLEL_530B",
    "FIGURES",
    "GROUPS",
    "RUNS",
    "TABLE_1",
    "TABLE_5",
    "Group",
    "PublishedRun",
    "Target",
]

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

GPT: Inputs = MappingProxyType(
    {"vocabulary": 51200, "sequence": 2048, "mlp": "gelu", "output_layer": "tied"}
)
"""Both papers' GPT models: V = 51,200, s = 2,048, GeLU, f = 4h, a key and value per head,
the output layer tied to the input embeddings (Megatron-LM's default)."""


FIGURES = ("tflops", "seconds")
"""What a group compares: achieved TFLOP/s per GPU (hardware FLOPs as Narayanan et al.
2021 eq. 3 counts them) or seconds per iteration."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """What the planner is held to on a group of runs.

    Attributes:
        bound: Largest absolute relative error, as a fraction (0.1 for 10 %).
        each: Whether every row must be within ``bound``, or only their mean.
    """

    bound: float
    each: bool

    def __post_init__(self) -> None:
        if not 0 < self.bound < 1:
            raise ValueError(f"a target's bound is a fraction, got {self.bound}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Group:
    """Runs that one published table reports, compared with the planner as a whole.

    Attributes:
        id: Stable name; the site's ``md:checks`` directive names the group by it.
        title: Paper and table, in English; the site translates it.
        figure: What each row is compared on, one of :data:`FIGURES`.
        target: What the planner is held to on these rows; ``None`` when none was set.
    """

    id: str
    title: str
    figure: str
    target: Target | None

    def __post_init__(self) -> None:
        if self.figure not in FIGURES:
            raise ValueError(f"{self.id}: figure must be one of {FIGURES}, got {self.figure!r}")


TABLE_1 = Group(
    id="narayanan-2021-table-1",
    title="Narayanan et al. 2021, Table 1",
    figure="tflops",
    target=Target(bound=0.10, each=True),
)
"""Achieved TFLOP/s per GPU, each row within ±10 %."""

TABLE_5 = Group(
    id="korthikanti-2022-table-5",
    title="Korthikanti et al. 2022, Table 5",
    figure="seconds",
    target=Target(bound=0.15, each=False),
)
"""Seconds per iteration, a mean absolute error within 15 % over the rows."""

DATA_PARALLEL_530B = Group(
    id="korthikanti-2022-530b",
    title="Korthikanti et al. 2022, the 530B model with data parallelism (section 6.3, abstract)",
    figure="seconds",
    target=None,
)
"""Seconds per iteration of the 530B layout with eight replicas; no target was set."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PublishedRun:
    """One published row: the inputs that reproduce its layout and the figure it reports.

    Attributes:
        id: Stable name.
        group: The table the row belongs to, and what it is compared on.
        model: The model's name as the paper writes it (``1.7B``, ``1T``).
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
    group: Group
    model: str
    source: str
    layout: str
    inputs: Inputs
    parameters: float | None = None
    tflops: float | None = None
    seconds: float | None = None
    mfu: float | None = None
    hfu: float | None = None

    def __post_init__(self) -> None:
        # A row is compared on its group's figure: seconds may come from a published MFU.
        given = self.tflops if self.group.figure == "tflops" else self.seconds or self.mfu
        if given is None:
            raise ValueError(f"{self.id}: no published figure for {self.group.figure}")


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
        group=TABLE_1,
        model=size,
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
            group=TABLE_5,
            model=size,
            source=source.format(column="full recompute"),
            layout=layout,
            inputs=MappingProxyType({**common, "recompute": "full", "sequence_parallel": "off"}),
            seconds=full,
        ),
        PublishedRun(
            id=f"korthikanti-2022-{size.lower()}-selective",
            group=TABLE_5,
            model=size,
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
            group=DATA_PARALLEL_530B,
            model="530B",
            source="Korthikanti et al. 2022 (arXiv 2205.05198), abstract: MFU 42.1 % with "
            "(full) recomputation, 530B on 2,240 A100",
            layout=layout,
            inputs=MappingProxyType({**common, "recompute": "full", "sequence_parallel": "off"}),
            mfu=42.1,
        ),
        PublishedRun(
            id="korthikanti-2022-530b-2240-gpus-selective",
            group=DATA_PARALLEL_530B,
            model="530B",
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

GROUPS: tuple[Group, ...] = tuple(dict.fromkeys(published.group for published in RUNS))
"""Every group of :data:`RUNS`, in the order of their first row."""
