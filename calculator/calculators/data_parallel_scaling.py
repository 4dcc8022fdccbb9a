"""Data-parallel scaling: what d replicas deliver at a scaling efficiency E.

Ideal throughput I = d·v, actual throughput A = I·E, speedup S = d·E. The
measuring mode runs the model backwards: from a measured cluster throughput it
recovers E = A / (d·v).
"""

from __future__ import annotations

import math

from ..errors import InputError, InvalidInputs
from ..spec import Calculator, Input, Mode, Output, Result

__all__ = ["CALCULATOR", "measure", "predict"]

# Bounds are generous for any real cluster and keep every result finite.
MAX_DEVICES = 10_000_000
MAX_THROUGHPUT = 1e12
# A measured throughput above ten times the ideal is a typo, not a cache effect;
# the cap also keeps A / (d·v) finite however small v is.
MAX_SUPERLINEAR_FACTOR = 10

DEVICES = Input(
    name="devices",
    label="Devices",
    unit="devices",
    default=64,
    minimum=1,
    maximum=MAX_DEVICES,
    integer=True,
    help="Number of accelerators, each holding a full replica of the model.",
)
THROUGHPUT = Input(
    name="throughput",
    label="Throughput per device",
    unit="samples/s",
    default=2000,
    minimum=0,
    exclusive_minimum=True,
    maximum=MAX_THROUGHPUT,
    help="Training throughput of a single device on its own.",
)
IDEAL = Output(
    name="ideal",
    label="Ideal throughput",
    unit="samples/s",
    digits=1,
    help="d·v: what the cluster would deliver if scaling were perfect.",
)
SPEEDUP = Output(
    name="speedup",
    label="Speedup",
    style="multiplier",
    digits=2,
    help="How many perfectly scaling devices the cluster is worth.",
)


def predict(*, devices: int, throughput: float, efficiency: float) -> Result:
    """Compute throughput and speedup from a known scaling efficiency.

    Args:
        devices: Number of data-parallel devices d.
        throughput: Throughput of one device v, in samples per second.
        efficiency: Scaling efficiency E in percent (90 means 0.9).

    Returns:
        ``ideal`` (d·v), ``actual`` (d·v·E), ``speedup`` (d·E) and ``lost``
        (ideal minus actual), throughputs in samples per second.
    """
    ideal = devices * throughput
    # Multiplying before dividing by 100 keeps round inputs exact (115 200, not 115 200.000…01);
    # that rounding may still move A an ulp off I: A is I at 100 %, and never above it.
    actual = ideal if efficiency == 100 else min(ideal, ideal * efficiency / 100)
    return Result(
        {
            "ideal": ideal,
            "actual": actual,
            "speedup": devices * efficiency / 100,
            "lost": ideal - actual,
        }
    )


def measure(*, devices: int, throughput: float, measured: float) -> Result:
    """Recover scaling efficiency and speedup from a measured cluster throughput.

    Args:
        devices: Number of data-parallel devices d.
        throughput: Throughput of one device running alone v, in samples per second.
        measured: Throughput measured on the whole cluster A, in samples per second.

    Returns:
        ``efficiency`` (A / (d·v), in percent), ``speedup`` (A / v) and
        ``ideal`` (d·v). An efficiency above 100 % is returned with the
        warning ``super_linear``: it happens (data cached by each node, or a
        wrong baseline) and is worth a second look, but it is not an error.

    Raises:
        InvalidInputs: ``above_maximum`` on ``measured`` beyond ten times d·v.
    """
    ideal = devices * throughput
    if measured > ideal * MAX_SUPERLINEAR_FACTOR:
        raise InvalidInputs(
            [InputError("measured", "above_maximum", ideal * MAX_SUPERLINEAR_FACTOR)]
        )
    efficiency = measured * 100 / ideal
    # A measurement one float step above d·v is 100 % shown as 100 %, not super-linear.
    super_linear = measured > ideal and not math.isclose(measured, ideal, rel_tol=1e-12)
    warnings = ("super_linear",) if super_linear else ()
    return Result(
        {"efficiency": efficiency, "speedup": measured / throughput, "ideal": ideal},
        warnings,
    )


CALCULATOR = Calculator(
    slug="data-parallel-scaling",
    title="Data-parallel scaling",
    summary="Throughput and speedup of a model replicated on d devices at scaling efficiency E.",
    modes=(
        Mode(
            name="predict",
            label="From a scaling efficiency",
            inputs=(
                DEVICES,
                THROUGHPUT,
                Input(
                    name="efficiency",
                    label="Scaling efficiency",
                    unit="%",
                    default=90,
                    minimum=0,
                    exclusive_minimum=True,
                    maximum=100,
                    help="Share of ideal throughput actually achieved, in percent.",
                ),
            ),
            outputs=(
                IDEAL,
                Output(
                    name="actual",
                    label="Actual throughput",
                    unit="samples/s",
                    digits=1,
                    help="I·E: what the cluster delivers.",
                ),
                SPEEDUP,
                Output(
                    name="lost",
                    label="Throughput lost to synchronisation",
                    unit="samples/s",
                    digits=1,
                    help="I − A: what communication and waiting cost.",
                ),
            ),
            groups=(("Compute cluster", ("devices", "throughput", "efficiency")),),
            compute=predict,
        ),
        Mode(
            name="measure",
            label="From a measured cluster throughput",
            inputs=(
                DEVICES,
                Input(
                    name="throughput",
                    label="Throughput of one device alone",
                    unit="samples/s",
                    default=2000,
                    minimum=0,
                    exclusive_minimum=True,
                    maximum=MAX_THROUGHPUT,
                    help="Throughput measured on a single device, same model and per-device batch.",
                ),
                Input(
                    name="measured",
                    label="Measured cluster throughput",
                    unit="samples/s",
                    default=115200,
                    minimum=0,
                    exclusive_minimum=True,
                    maximum=MAX_THROUGHPUT * MAX_DEVICES,
                    help="Throughput measured on all d devices together.",
                    limit="ten times the ideal throughput d·v",
                ),
            ),
            outputs=(
                Output(
                    name="efficiency",
                    label="Scaling efficiency",
                    style="percent",
                    digits=2,
                    help="A / (d·v), in percent.",
                ),
                SPEEDUP,
                IDEAL,
            ),
            groups=(("Measurements", ("devices", "throughput", "measured")),),
            compute=measure,
        ),
    ),
)
