"""The training planner's presets: devices, nodes and models, each figure with its source.

A preset is a choice that fills fields, never a hidden number (:class:`calculator.spec.Preset`):
picking one writes its figures into the planner's fields, where the reader sees and may
change them. Three lists, in the order of the planner's form (:data:`PRESETS`):
:data:`MODELS`, :data:`DEVICES` and :data:`INTERCONNECTS`. Every preset of a list fills the
same fields, so that picking one after another leaves nothing of the first. Each preset's
``source`` names the document and its table or section, ``url`` its address; what follows
says how each figure is read from it.

**Devices** fill ``peak`` and ``memory``.

- ``peak`` is the dense bf16 Tensor Core rate in TFLOP/s, without 2:4 structured sparsity.
  NVIDIA's data sheets list bf16 with sparsity, marked so in a footnote; dense is half.
  A100: 312 (the data sheet's 312 | 624). H100 SXM: 989.4, half the data sheet's 1,979,
  unrounded as NVIDIA's H100 architecture whitepaper gives it
  (https://resources.nvidia.com/en-us-tensor-core/gtc22-whitepaper-hopper; 132 SMs of four
  Tensor Cores, 1,024 dense bf16 FLOPs each a clock, at 1.83 GHz). H200: the same GH100
  chip at the same clocks; its data sheet repeats the 1,979. B200: the HGX B200's
  36 PFLOP/s with sparsity for eight GPUs, 2,250 each dense, and 180 GB each of the DGX
  B200's 1,440 GB (https://resources.nvidia.com/en-us-dgx-systems/dgx-b200-datasheet).
  MI300X: AMD's data sheet gives the dense 1,307.4 itself (2,614.9 with sparsity).
- ``memory`` is in the planner's GB of 10^9 bytes, the unit of every memory it computes.
  The vendors' GB of HBM are binary: HBM stacks come in binary sizes (an A100 80GB has
  five stacks of 16 GiB, an MI300X eight of 24 GiB), and ``nvidia-smi`` shows an A100-SXM4-80GB as
  81,920 MiB, exactly 80 × 2^30 bytes. So a data sheet's N GB are read as N GiB and
  written N × 2^30 / 10^9 (:func:`gib`): 85.89934592 for the A100 80GB. A program can
  allocate somewhat less than the whole, which the driver and CUDA reserve in part.

**Nodes** fill ``devices_per_node``, ``intra_bandwidth``, ``inter_bandwidth`` and
``latency`` with the bus bandwidths (busbw, as nccl-tests reports it) and the latency that
the ``data-parallel-scaling`` page sources: 8 A100 on NVSwitch about 230 GB/s
(https://github.com/NVIDIA/nccl-tests/issues/149); a DGX A100 with eight 200 Gb/s HDR
InfiniBand cards 192 GB/s across nodes (https://github.com/NVIDIA/nccl/issues/812);
8 H100 on NVSwitch about 370 GB/s with a ring, the algorithm the planner prices
(https://github.com/NVIDIA/nccl-tests/issues/212); 46 to 48 GB/s per 400 Gb/s NDR card
(https://github.com/NVIDIA/nccl-tests/issues/290), of which the node's figure takes the
lower end, eight cards one per GPU as NVIDIA's HGX reference architecture builds the node
(2-8-9-400: 400 Gb/s per GPU,
https://docs.nvidia.com/reference-architectures/hgx-ai-factory-h100-h200-b200/abstract.md);
and 3.4 µs, NCCL's tuner's figure for a ring step over
NVLink with its Simple protocol (``src/graph/tuning.cc`` at commit
5067397c2676d5aed50042fc39e5c8ee96eb0027, lines 404–417). Selene, whose published runs
the planner is checked against (:mod:`calculator.calculators.planner_runs`), is made of
:data:`DGX_A100` nodes of :data:`A100_80GB_SXM`.

**Models** fill all eight model fields: ``kv_heads`` is the attention heads where every
head has its own keys and values, ``ffn`` is 4h for GPT-3 and BLOOM.

- GPT-3 175B: Brown et al. 2020 (arXiv 2005.14165), Table 2.1 (l, h, a) and section 2.1
  (a context of 2,048 tokens). V = 51,200: GPT-2's 50,257 tokens padded by Megatron-LM to
  a multiple of 1,024, as Narayanan et al. 2021 count it and the planner's runs use.
- Llama 2 7B and 70B: Touvron et al. 2023 (arXiv 2307.09288), section 2.2 (SwiGLU) and
  Table 1 (a 4k context, grouped-query attention for 70B), with the sizes of Meta's
  released configurations (``config.json`` of ``meta-llama/Llama-2-7b-hf`` and ``-70b-hf``).
- Llama 3 8B, 70B and 405B: Llama Team 2024, "The Llama 3 Herd of Models" (arXiv
  2407.21783), Table 3 (layers, model and FFN dimensions, attention and key/value heads)
  and section 3.4.1 (pre-training on 8,192-token sequences). V = 128,256: the 128,000
  tokens of its tokenizer and 256 reserved special tokens (``models/llama3/tokenizer.py``
  in meta-llama/llama-models at commit a9c89c471f793423afd4cc3ca8671d6e56fe64cb, line 53).
- BLOOM 176B: BigScience's training script, ``train/tr11-176B-ml/tr11-176B-ml.slurm`` in
  bigscience-workshop/bigscience at commit 9e64edec2ad1fb9263bf39ba616a84ff64b4d947
  (lines 72–75: l, h, a, s; line 125: ``--pad-vocab-size-to 250880``), with Megatron's
  default f = 4h and GeLU.

The planner counts a model's parameters as Megatron-LM's GPT (learned positions, biases,
two-parameter norms), with the output layer tied or untied as each preset says (the Llama
models untie it: for Llama 3 8B, 128,256 × 4,096 weights, 6.5 % of the model). The Llama
models have neither learned positions nor biases, so their counts differ a little from
the published ones; ``tests/calculators/test_planner_presets.py`` records each difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..spec import Preset, Presets, Value
from .data_parallel_scaling import BYTES_PER_GB

__all__ = [
    "A100_80GB_SXM",
    "BYTES_PER_GIB",
    "DEVICES",
    "DGX_A100",
    "INTERCONNECTS",
    "MODELS",
    "PRESETS",
    "gib",
]

BYTES_PER_GIB = 2**30
"""The binary gigabyte in which the data sheets give HBM capacities."""


def gib(capacity: int) -> float:
    """A data sheet's memory, ``capacity`` GB read as GiB, in the planner's GB of 10^9 bytes.

    The quotient of two integers, correctly rounded: its shortest ``repr`` is the exact
    decimal (85.89934592 for 80), which is how the site writes it into the field.
    """
    return capacity * BYTES_PER_GIB / BYTES_PER_GB


def _values(**values: Value | str) -> Mapping[str, Value | str]:
    return MappingProxyType(values)


# --------------------------------------------------------------------------- devices

_A100_DATA_SHEET = "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"
_A100_SOURCE = (
    "NVIDIA A100 Tensor Core GPU data sheet (June 2021), specifications, A100 {size} SXM: "
    "BFLOAT16 Tensor Core 312 TFLOPS (624 with sparsity); GPU memory {size} {hbm}, read as "
    "{capacity} GiB"
)

_H100_SXM_PEAK = 989.4
"""The H100 SXM's dense bf16 rate, which the H200 shares (same chip, same clocks)."""

A100_80GB_SXM = Preset(
    value="a100-80gb-sxm",
    label="A100 80GB SXM",
    values=_values(peak=312, memory=gib(80)),
    source=_A100_SOURCE.format(size="80GB", hbm="HBM2e", capacity=80),
    url=_A100_DATA_SHEET,
)
"""Selene's device (Narayanan et al. 2021, section 5), of the planner's published runs."""

DEVICES = Presets(
    name="device",
    label="Device",
    options=(
        Preset(
            value="a100-40gb-sxm",
            label="A100 40GB SXM",
            values=_values(peak=312, memory=gib(40)),
            source=_A100_SOURCE.format(size="40GB", hbm="HBM2", capacity=40),
            url=_A100_DATA_SHEET,
        ),
        A100_80GB_SXM,
        Preset(
            value="h100-sxm",
            label="H100 SXM",
            values=_values(peak=_H100_SXM_PEAK, memory=gib(80)),
            source=(
                "NVIDIA H100 Tensor Core GPU data sheet, H100 SXM: BFLOAT16 Tensor Core "
                "1,979 TFLOPS with sparsity, 989.4 dense as NVIDIA's H100 Tensor Core GPU "
                "Architecture whitepaper gives it; GPU memory 80GB, read as 80 GiB"
            ),
            url="https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet",
        ),
        Preset(
            value="h200-sxm",
            label="H200 SXM",
            values=_values(peak=_H100_SXM_PEAK, memory=gib(141)),
            source=(
                "NVIDIA H200 Tensor Core GPU data sheet, H200 SXM: BFLOAT16 Tensor Core "
                "1,979 TFLOPS with sparsity, as the H100 SXM's (989.4 dense); GPU memory "
                "141GB, read as 141 GiB"
            ),
            url="https://nvdam.widen.net/s/nb5zzzsjdf/hpc-datasheet-sc23-h200-datasheet-3002446",
        ),
        Preset(
            value="b200",
            label="B200",
            # 36 PFLOP/s with sparsity for the eight GPUs of an HGX B200: half of an eighth.
            values=_values(peak=36_000 // 8 // 2, memory=gib(1440 // 8)),
            source=(
                "NVIDIA HGX B200 specifications: FP16/BF16 Tensor Core 36 PFLOPS with "
                "sparsity for eight GPUs, 2,250 TFLOP/s each dense; NVIDIA DGX B200 data "
                "sheet: 1,440GB of GPU memory for eight, 180 GB each, read as 180 GiB"
            ),
            url="https://www.nvidia.com/en-us/data-center/hgx/",
        ),
        Preset(
            value="mi300x",
            label="MI300X",
            values=_values(peak=1307.4, memory=gib(192)),
            source=(
                "AMD Instinct MI300X data sheet: peak BF16 1,307.4 TFLOPs (2,614.9 with "
                "sparsity); 192 GB HBM3, read as 192 GiB"
            ),
            url="https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf",
        ),
    ),
    help="Fills the peak and the memory per device from the vendor's data sheet.",
)
"""Six accelerators: dense bf16 peak and memory in 10^9 bytes."""

# --------------------------------------------------------------------------- nodes

_RING_STEP_NVLINK = 3.4
"""NCCL's tuner's latency of a ring step over NVLink with Simple, in µs (``tuning.cc``)."""

_NDR_CARD = 46
"""Bus bandwidth of one 400 Gb/s NDR card, GB/s: the lower end of nccl-tests issue 290's
46 to 48."""

DGX_A100 = Preset(
    value="dgx-a100",
    label="DGX A100",
    values=_values(
        devices_per_node=8,
        intra_bandwidth=230,
        inter_bandwidth=192,
        latency=_RING_STEP_NVLINK,
    ),
    source=(
        "8 A100 on NVLink and NVSwitch: about 230 GB/s busbw (nccl-tests issue 149); eight "
        "200 Gb/s HDR InfiniBand cards: 192 GB/s (NCCL issue 812); 3.4 µs a ring step over "
        "NVLink (NCCL's src/graph/tuning.cc)"
    ),
    url="https://github.com/NVIDIA/nccl-tests/issues/149",
)
"""Selene's nodes (Narayanan et al. 2021, section 5), of the planner's published runs."""

INTERCONNECTS = Presets(
    name="interconnect",
    label="Node and network",
    options=(
        DGX_A100,
        Preset(
            value="hgx-h100",
            label="HGX H100",
            values=_values(
                devices_per_node=8,
                intra_bandwidth=370,
                inter_bandwidth=8 * _NDR_CARD,
                latency=_RING_STEP_NVLINK,
            ),
            source=(
                "8 H100 on NVLink and NVSwitch: about 370 GB/s busbw with a ring (nccl-tests "
                "issue 212); eight 400 Gb/s NDR cards, one a GPU (NVIDIA's HGX reference "
                "architecture): 46 to 48 GB/s each (nccl-tests issue 290), 8 × 46; 3.4 µs a "
                "ring step over NVLink (NCCL's src/graph/tuning.cc)"
            ),
            url="https://github.com/NVIDIA/nccl-tests/issues/212",
        ),
    ),
    help=(
        "Fills the devices per node, both bus bandwidths and the latency with figures "
        "measured and published by NCCL's developers."
    ),
)
"""Two node types, as bus bandwidths: what the ``data-parallel-scaling`` page sources."""

# --------------------------------------------------------------------------- models

_LLAMA_3_VOCABULARY = 128_000 + 256
"""Llama 3's tokenizer: 128,000 tokens and 256 reserved special tokens."""
_LLAMA_2 = "https://arxiv.org/abs/2307.09288"
_LLAMA_3 = "https://arxiv.org/abs/2407.21783"
_LLAMA_2_SOURCE = (
    "Touvron et al. 2023, Llama 2 (arXiv 2307.09288), section 2.2 and Table 1; sizes of "
    "Meta's released configuration, meta-llama/Llama-2-{size}-hf config.json"
)
_LLAMA_3_SOURCE = (
    "Llama Team 2024, The Llama 3 Herd of Models (arXiv 2407.21783), Table 3, {size} "
    "column; 8,192-token sequences (section 3.4.1); V = 128,000 tokens and 256 special "
    "tokens (llama-models, models/llama3/tokenizer.py)"
)


def _model(  # noqa: PLR0917 -- one positional per model field, in the form's order
    layers: int,
    hidden: int,
    heads: int,
    kv_heads: int,
    ffn: int,
    mlp: str,
    vocabulary: int,
    output_layer: str,
    sequence: int,
) -> Mapping[str, Value | str]:
    """Every model field, so that a model picked after another leaves nothing of it."""
    return _values(
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        ffn=ffn,
        mlp=mlp,
        vocabulary=vocabulary,
        output_layer=output_layer,
        sequence=sequence,
    )


MODELS = Presets(
    name="model",
    label="Model",
    options=(
        Preset(
            value="gpt-3-175b",
            label="GPT-3 175B",
            # l, h, a, g = a, f = 4h, GeLU, V, output layer tied, s
            values=_model(96, 12288, 96, 96, 4 * 12288, "gelu", 51200, "tied", 2048),
            source=(
                "Brown et al. 2020, Language Models are Few-Shot Learners (arXiv "
                "2005.14165), Table 2.1, GPT-3 175B row, and section 2.1 (2,048-token "
                "context); V = 50,257 padded by Megatron-LM to 51,200 (Narayanan et al. "
                "2021, arXiv 2104.04473)"
            ),
            url="https://arxiv.org/abs/2005.14165",
        ),
        Preset(
            value="llama-2-7b",
            label="Llama 2 7B",
            values=_model(32, 4096, 32, 32, 11008, "swiglu", 32000, "untied", 4096),
            source=_LLAMA_2_SOURCE.format(size="7b"),
            url=_LLAMA_2,
        ),
        Preset(
            value="llama-2-70b",
            label="Llama 2 70B",
            values=_model(80, 8192, 64, 8, 28672, "swiglu", 32000, "untied", 4096),
            source=_LLAMA_2_SOURCE.format(size="70b"),
            url=_LLAMA_2,
        ),
        Preset(
            value="llama-3-8b",
            label="Llama 3 8B",
            values=_model(32, 4096, 32, 8, 14336, "swiglu", _LLAMA_3_VOCABULARY, "untied", 8192),
            source=_LLAMA_3_SOURCE.format(size="8B"),
            url=_LLAMA_3,
        ),
        Preset(
            value="llama-3-70b",
            label="Llama 3 70B",
            values=_model(80, 8192, 64, 8, 28672, "swiglu", _LLAMA_3_VOCABULARY, "untied", 8192),
            source=_LLAMA_3_SOURCE.format(size="70B"),
            url=_LLAMA_3,
        ),
        Preset(
            value="llama-3-405b",
            label="Llama 3 405B",
            values=_model(126, 16384, 128, 8, 53248, "swiglu", _LLAMA_3_VOCABULARY, "untied", 8192),
            source=_LLAMA_3_SOURCE.format(size="405B"),
            url=_LLAMA_3,
        ),
        Preset(
            value="bloom-176b",
            label="BLOOM 176B",
            # l, h, a, g = a, f = 4h, GeLU, V as padded, output layer tied, s
            values=_model(70, 14336, 112, 112, 4 * 14336, "gelu", 250880, "tied", 2048),
            source=(
                "BigScience, BLOOM's training script train/tr11-176B-ml/tr11-176B-ml.slurm "
                "(NLAYERS, NHIDDEN, NHEADS, SEQ_LEN, --pad-vocab-size-to 250880), with "
                "Megatron's f = 4h and GeLU"
            ),
            url="https://github.com/bigscience-workshop/bigscience/blob/9e64edec2ad1fb9263bf39ba616a84ff64b4d947/train/tr11-176B-ml/tr11-176B-ml.slurm",
        ),
    ),
    help="Fills every model field from the model's paper or released configuration.",
)
"""Seven dense decoder-only models, every field filled."""

PRESETS = (MODELS, DEVICES, INTERCONNECTS)
"""The planner's presets in the order of its form: the model, then the cluster."""
