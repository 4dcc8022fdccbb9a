"""Pipeline bubble: the idle time of a synchronous pipeline schedule.

With p stages, m micro-batches per step and v model chunks per device
(interleaving), the fill and drain of the pipeline cost p−1 micro-batch slots.
Sources measure that against two different denominators: the ideal compute
time, (p−1)/(v·m), as Megatron-LM does (it can exceed 100 %), or the whole step,
(p−1)/(v·m + p−1), GPipe's (p−1)/(m + p−1) extended to v chunks (always below
100 %). Both are given.
"""

from __future__ import annotations

from ..chart_schedule import SCHEDULE
from ..errors import InputError, InvalidInputs
from ..spec import Calculator, Input, Mode, Output, Result

__all__ = ["CALCULATOR", "bubble"]


def bubble(*, stages: int, micro_batches: int, chunks: int) -> Result:
    """Compute both bubble conventions and the pipeline efficiency, in percent.

    Raises:
        InvalidInputs: ``not_divisible`` on ``micro_batches`` when interleaving
            (``chunks`` > 1) and m is not a multiple of p, which the interleaved
            schedule requires.
    """
    if chunks > 1 and micro_batches % stages:
        raise InvalidInputs([InputError("micro_batches", "not_divisible", stages)])
    idle = stages - 1
    work = chunks * micro_batches
    idle_share = idle * 100 / (work + idle)
    return Result(
        {
            "bubble_overhead": idle * 100 / work,
            "idle_share": idle_share,
            "efficiency": 100 - idle_share,
        }
    )


CALCULATOR = Calculator(
    slug="pipeline-bubble",
    title="Pipeline bubble",
    summary="Idle time of a pipeline-parallel schedule, in both conventions sources use.",
    modes=(
        Mode(
            name="bubble",
            label="Bubble of a pipeline schedule",
            inputs=(
                Input(
                    name="stages",
                    label="Pipeline stages",
                    unit="stages",
                    default=4,
                    minimum=1,
                    maximum=100_000,
                    integer=True,
                    help="Pipeline-parallel degree p: devices the layers are split over.",
                ),
                Input(
                    name="micro_batches",
                    label="Micro-batches per step",
                    unit="micro-batches",
                    default=8,
                    minimum=1,
                    maximum=1_000_000_000,
                    integer=True,
                    help="m: micro-batches each pipeline runs per optimizer step.",
                    rule="With more than one chunk per device, must be a multiple of the stages.",
                ),
                Input(
                    name="chunks",
                    label="Model chunks per device",
                    unit="chunks",
                    default=1,
                    minimum=1,
                    maximum=1_000,
                    integer=True,
                    help="v: interleaved virtual stages per device; 1 means no interleaving.",
                ),
            ),
            outputs=(
                Output(
                    name="bubble_overhead",
                    label="Bubble relative to ideal compute time",
                    style="percent",
                    digits=2,
                    help="(p−1)/(v·m), the Megatron-LM convention; can exceed 100 %.",
                ),
                Output(
                    name="idle_share",
                    label="Idle share of the step",
                    style="percent",
                    digits=2,
                    help=(
                        "(p−1)/(v·m + p−1): GPipe's (p−1)/(m + p−1), extended to v chunks; "
                        "always below 100 %."
                    ),
                ),
                Output(
                    name="efficiency",
                    label="Pipeline efficiency",
                    style="percent",
                    digits=2,
                    help="1 − idle share: the share of the step spent computing.",
                ),
            ),
            groups=(("Pipeline schedule", ("stages", "micro_batches", "chunks")),),
            compute=bubble,
            chart=SCHEDULE,
        ),
    ),
)
