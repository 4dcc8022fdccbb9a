"""Effective batch size: how many sequences one optimizer step consumes.

Global batch B = b·g·dp, with b the micro-batch per replica, g the gradient
accumulation steps and dp the data-parallel replicas, dp = N / (tp·pp·cp) for N
devices. Tensor, pipeline and context parallelism split one replica over several
devices; they change dp, never multiply B. The reverse mode gives g for a target
B, refusing targets that do not divide as Megatron-LM does.
"""

from __future__ import annotations

from ..errors import InputError, InvalidInputs
from ..spec import Calculator, Input, Mode, Output, Result

__all__ = ["CALCULATOR", "accumulation", "global_batch"]

MAX_COUNT = 10_000_000
MAX_SEQUENCE = 100_000_000


def _count(  # noqa: PLR0917 -- one positional per column of the declarations below
    name: str, label: str, default: int, help: str, unit: str = "", rule: str = ""
) -> Input:
    return Input(
        name=name,
        label=label,
        unit=unit,
        default=default,
        minimum=1,
        maximum=MAX_COUNT,
        integer=True,
        help=help,
        rule=rule,
    )


def _degrees(world: int, tp: int, pp: int) -> tuple[Input, ...]:
    return (
        _count(
            "world_size",
            "Devices (world size)",
            world,
            "Accelerators in the job.",
            "devices",
            "Must be a multiple of tp × pp × cp.",
        ),
        _count("tensor_parallel", "Tensor-parallel degree", tp, "Devices sharing each layer."),
        _count("pipeline_parallel", "Pipeline-parallel degree", pp, "Pipeline stages per replica."),
        _count("context_parallel", "Context-parallel degree", 1, "Devices sharing each sequence."),
    )


SEQUENCE_LENGTH = Input(
    name="sequence_length",
    label="Sequence length",
    unit="tokens",
    default=4096,
    minimum=1,
    maximum=MAX_SEQUENCE,
    integer=True,
    optional=True,
    help="Tokens per sequence; leave empty if samples are not token sequences.",
)
DATA_PARALLEL = Output(
    name="data_parallel",
    label="Data-parallel replicas",
    unit="replicas",
    help="dp = N / (tp·pp·cp).",
)
TOKENS = Output(
    name="tokens_per_step",
    label="Tokens per optimizer step",
    unit="tokens",
    help="B × sequence length.",
)
_GROUPS_PARALLEL = ("world_size", "tensor_parallel", "pipeline_parallel", "context_parallel")


def _replicas(
    world_size: int, tensor_parallel: int, pipeline_parallel: int, context_parallel: int
) -> int:
    split = tensor_parallel * pipeline_parallel * context_parallel
    if world_size % split:
        raise InvalidInputs([InputError("world_size", "not_divisible", split)])
    return world_size // split


def _tokens(batch: int, sequence_length: int | None) -> int | None:
    return None if sequence_length is None else batch * sequence_length


def global_batch(
    *,
    micro_batch: int,
    accumulation_steps: int,
    world_size: int,
    tensor_parallel: int,
    pipeline_parallel: int,
    context_parallel: int,
    sequence_length: int | None,
) -> Result:
    """Compute the global batch from its three factors.

    Raises:
        InvalidInputs: ``not_divisible`` on ``world_size`` when tp·pp·cp does not divide it.
    """
    dp = _replicas(world_size, tensor_parallel, pipeline_parallel, context_parallel)
    batch = micro_batch * accumulation_steps * dp
    return Result(
        {
            "data_parallel": dp,
            "global_batch": batch,
            "tokens_per_step": _tokens(batch, sequence_length),
        }
    )


def accumulation(
    *,
    global_batch: int,
    micro_batch: int,
    world_size: int,
    tensor_parallel: int,
    pipeline_parallel: int,
    context_parallel: int,
    sequence_length: int | None,
) -> Result:
    """Compute the accumulation steps a target global batch needs.

    Raises:
        InvalidInputs: ``not_divisible`` on ``world_size`` (by tp·pp·cp) or on
            ``global_batch`` (by micro-batch × dp), the checks Megatron-LM makes.
    """
    dp = _replicas(world_size, tensor_parallel, pipeline_parallel, context_parallel)
    per_step = micro_batch * dp
    if global_batch % per_step:
        raise InvalidInputs([InputError("global_batch", "not_divisible", per_step)])
    return Result(
        {
            "data_parallel": dp,
            "accumulation_steps": global_batch // per_step,
            "tokens_per_step": _tokens(global_batch, sequence_length),
        }
    )


_MICRO_HELP = "Sequences each replica processes in one forward and backward pass."

CALCULATOR = Calculator(
    slug="effective-batch-size",
    title="Effective batch size",
    summary="Sequences and tokens per optimizer step, or the accumulation a target batch needs.",
    modes=(
        Mode(
            name="global-batch",
            label="Global batch from its factors",
            inputs=(
                _count("micro_batch", "Micro-batch per replica", 2, _MICRO_HELP, "sequences"),
                _count(
                    "accumulation_steps",
                    "Gradient-accumulation steps",
                    4,
                    "Micro-batches each replica accumulates before one optimizer step.",
                ),
                *_degrees(128, 1, 1),
                SEQUENCE_LENGTH,
            ),
            outputs=(
                DATA_PARALLEL,
                Output(
                    name="global_batch",
                    label="Global batch",
                    unit="sequences",
                    help="B = b·g·dp, sequences per optimizer step.",
                ),
                TOKENS,
            ),
            groups=(
                ("Batch", ("micro_batch", "accumulation_steps", "sequence_length")),
                ("Parallelism", _GROUPS_PARALLEL),
            ),
            compute=global_batch,
        ),
        Mode(
            name="accumulation",
            label="Accumulation steps for a target batch",
            inputs=(
                _count(
                    "global_batch",
                    "Target global batch",
                    1536,
                    "Sequences per optimizer step.",
                    "sequences",
                    "Must be a multiple of the micro-batch × dp.",
                ),
                _count("micro_batch", "Micro-batch per replica", 1, _MICRO_HELP, "sequences"),
                *_degrees(1536, 8, 16),
                SEQUENCE_LENGTH,
            ),
            outputs=(
                DATA_PARALLEL,
                Output(
                    name="accumulation_steps",
                    label="Micro-batches per replica per step",
                    help="g = B / (b·dp): gradient-accumulation steps.",
                ),
                TOKENS,
            ),
            groups=(
                ("Batch", ("global_batch", "micro_batch", "sequence_length")),
                ("Parallelism", _GROUPS_PARALLEL),
            ),
            compute=accumulation,
        ),
    ),
)
