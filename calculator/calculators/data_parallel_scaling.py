"""Data-parallel scaling: what d replicas deliver at a scaling efficiency E.

Ideal throughput I = d·v, actual throughput A = I·E, speedup S = d·E. The
measuring mode runs the model backwards: from a measured cluster throughput it
recovers E = A / (d·v). The estimating mode derives a ceiling on E from a
first-order model of a ring all-reduce of the gradients, which sees nothing but
communication.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..errors import InputError, InvalidInputs
from ..spec import Calculator, Input, Mode, Output, Result, Value

__all__ = ["CALCULATOR", "estimate", "measure", "predict"]

# Bounds are generous for any real cluster and keep every result finite.
MAX_DEVICES = 10_000_000
MAX_THROUGHPUT = 1e12
# A measured throughput above ten times the ideal is a typo, not a cache effect;
# the cap also keeps A / (d·v) finite however small v is.
MAX_SUPERLINEAR_FACTOR = 10
# The estimate's bounds. With the smallest bandwidth and compute time and the
# largest of everything else, every time stays below 1e26 ms and the efficiency
# above 1e-27 %: finite, and never rounded to zero.
MAX_PARAMETERS = 10**15
MAX_BYTES_PER_VALUE = 8
MIN_BUS_BANDWIDTH = 0.001
MAX_BUS_BANDWIDTH = 1_000_000
MAX_LATENCY = 1_000_000
MAX_BUCKET_SIZE = 1_000_000_000
MIN_COMPUTE_TIME = 0.001
MAX_COMPUTE_TIME = 1_000_000_000
BYTES_PER_GB = 10**9
BYTES_PER_MB = 10**6

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


def _exact(value: Value) -> Fraction:
    """``value`` as the decimal it was written as: ``0.3`` is 3/10, not the binary double.

    Parsing made a float of what the reader typed; its shortest ``repr`` is that
    text again (for anything typed with up to 17 significant digits), so the
    arithmetic below works on the reader's numbers, not on their binary neighbours.
    """
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def estimate(
    *,
    parameters: int,
    bytes_per_value: int,
    devices: int,
    bus_bandwidth: float,
    latency: float,
    bucket_size: float,
    compute_time: float,
    overlap: float,
) -> Result:
    """Estimate the scaling efficiency that a ring all-reduce of the gradients allows.

    Args:
        parameters: Gradient values all-reduced each step P.
        bytes_per_value: Bytes per gradient value b (4 for fp32, 2 for bf16/fp16).
        devices: Data-parallel devices d.
        bus_bandwidth: Bus bandwidth B in GB/s (10⁹ bytes), as nccl-tests reports it.
        latency: Latency of one ring step α, in microseconds.
        bucket_size: Gradients per all-reduce call s, in MB (10⁶ bytes); 0 for one call.
        compute_time: Forward and backward time of one step on one device C, in ms.
        overlap: Share of C during which the all-reduce can run o, in percent.

    Returns:
        ``calls`` k = ⌈P·b / s⌉ (1 when s is 0; at most P, a call carries at least
        one value), ``bandwidth_time`` 2(d−1)/d · P·b / B and ``latency_time``
        k · 2(d−1) · α, in ms; ``allreduce_time`` T, their sum; ``exposed_time``
        X = max(0, T − o·C); ``efficiency`` C / (C + X) in percent; ``speedup``
        d · C / (C + X). The warning ``latency_bound`` when the latency time exceeds
        the bandwidth time. Every quotient is taken exactly on the inputs as
        written and rounded once, so round inputs give round results.
    """
    size = parameters * bytes_per_value
    bucket = _exact(bucket_size) * BYTES_PER_MB
    # Exact ceiling of a rational: no float can put k one call off.
    calls = (
        1 if bucket == 0 else min(parameters, -((-size * bucket.denominator) // bucket.numerator))
    )
    steps = 2 * (devices - 1)
    bandwidth = Fraction(steps * size, devices) / (_exact(bus_bandwidth) * BYTES_PER_GB) * 1000
    latency_ms = calls * steps * _exact(latency) / 1000
    bandwidth_time, latency_time = float(bandwidth), float(latency_ms)
    # T is the sum of the two parts as shown, so that they always add up to it.
    allreduce_time = bandwidth_time + latency_time
    compute = _exact(compute_time)
    exposed = max(Fraction(0), Fraction(allreduce_time) - _exact(overlap) * compute / 100)
    share = compute / (compute + exposed)
    return Result(
        {
            "calls": calls,
            "bandwidth_time": bandwidth_time,
            "latency_time": latency_time,
            "allreduce_time": allreduce_time,
            "exposed_time": float(exposed),
            "efficiency": float(share * 100),
            "speedup": float(share * devices),
        },
        ("latency_bound",) if latency_ms > bandwidth else (),
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
        Mode(
            name="estimate",
            label="Estimated from a ring all-reduce",
            inputs=(
                Input(
                    name="parameters",
                    label="Gradient values (parameters)",
                    default=1_000_000_000,
                    minimum=1,
                    maximum=MAX_PARAMETERS,
                    integer=True,
                    help="P: values all-reduced each step, one per trainable parameter.",
                ),
                Input(
                    name="bytes_per_value",
                    label="Bytes per gradient value",
                    unit="bytes",
                    default=2,
                    minimum=1,
                    maximum=MAX_BYTES_PER_VALUE,
                    integer=True,
                    help=(
                        "b: 4 for fp32 gradients, what DDP reduces under ordinary mixed "
                        "precision; 2 when gradients are reduced in bf16 or fp16."
                    ),
                ),
                DEVICES,
                Input(
                    name="bus_bandwidth",
                    label="Bus bandwidth",
                    unit="GB/s",
                    default=50,
                    minimum=MIN_BUS_BANDWIDTH,
                    maximum=MAX_BUS_BANDWIDTH,
                    help=(
                        "B: all-reduce bus bandwidth (busbw) as nccl-tests reports it, "
                        "1 GB = 10^9 bytes; across nodes, the inter-node figure."
                    ),
                ),
                Input(
                    name="latency",
                    label="Latency per ring step",
                    unit="µs",
                    default=0,
                    minimum=0,
                    maximum=MAX_LATENCY,
                    help="α: time of one of the 2(d−1) ring steps of each all-reduce call.",
                ),
                Input(
                    name="bucket_size",
                    label="Bucket size",
                    unit="MB",
                    default=25,
                    minimum=0,
                    maximum=MAX_BUCKET_SIZE,
                    help=(
                        "s: gradient bytes per all-reduce call, 1 MB = 10^6 bytes (DDP's "
                        "bucket_cap_mb is 25); 0 for one all-reduce per step."
                    ),
                ),
                Input(
                    name="compute_time",
                    label="Compute time per step",
                    unit="ms",
                    default=1000,
                    minimum=MIN_COMPUTE_TIME,
                    maximum=MAX_COMPUTE_TIME,
                    help="C: forward and backward time of one step on one device.",
                ),
                Input(
                    name="overlap",
                    label="Overlap with compute",
                    unit="%",
                    default=0,
                    minimum=0,
                    maximum=100,
                    help=(
                        "o: share of the compute time during which the all-reduce can run; "
                        "0 when it starts after the backward pass."
                    ),
                ),
            ),
            outputs=(
                Output(
                    name="calls",
                    label="All-reduce calls per step",
                    help="k = ⌈P·b / s⌉, 1 when s is 0, at most P.",
                ),
                Output(
                    name="bandwidth_time",
                    label="Bandwidth time",
                    unit="ms",
                    digits=3,
                    help="2(d−1)/d · P·b / B: moving the gradients.",
                ),
                Output(
                    name="latency_time",
                    label="Latency time",
                    unit="ms",
                    digits=3,
                    help="k · 2(d−1) · α: the fixed cost of every ring step.",
                ),
                Output(
                    name="allreduce_time",
                    label="All-reduce time",
                    unit="ms",
                    digits=3,
                    help="T: bandwidth time plus latency time.",
                ),
                Output(
                    name="exposed_time",
                    label="Exposed communication",
                    unit="ms",
                    digits=3,
                    help="X = max(0, T − o·C): what the step waits for.",
                ),
                Output(
                    name="efficiency",
                    label="Estimated efficiency (upper bound)",
                    style="percent",
                    digits=2,
                    help="E = C / (C + X), in percent: a ceiling, counting communication only.",
                ),
                SPEEDUP,
            ),
            groups=(
                ("Gradients", ("parameters", "bytes_per_value", "bucket_size")),
                ("Interconnect", ("devices", "bus_bandwidth", "latency")),
                ("Compute", ("compute_time", "overlap")),
            ),
            compute=estimate,
        ),
    ),
)
