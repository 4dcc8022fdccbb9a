"""Data-parallel scaling: what d replicas deliver at a scaling efficiency E.

Ideal throughput I = d·v, actual throughput A = I·E, speedup S = d·E. The
measuring mode runs the model backwards: from a measured cluster throughput it
recovers E = A / (d·v). The estimating mode derives E from a first-order model
of the gradients' collectives (a ring or a tree, as NCCL prices them, with or
without ZeRO sharding), which sees nothing but communication: a ceiling on the
measured E as long as its inputs are not pessimistic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType

from ..chart_scaling import SCALING
from ..decimals import exact
from ..errors import InputError, InvalidInputs
from ..spec import Calculator, Choice, Input, Mode, Option, Output, Result

__all__ = ["CALCULATOR", "SHARDING_TRAFFIC", "estimate", "measure", "predict", "step_latencies"]

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


# Traffic of one step relative to plain data parallelism's all-reduce of the
# gradients: ZeRO-1 and ZeRO-2 replace it by a reduce-scatter and an all-gather
# of the same volume; ZeRO-3 all-gathers the parameters again for the backward
# pass, 1.5 times as much (Rajbhandari et al. 2020, section 7.2.2).
SHARDING_TRAFFIC: Mapping[str, Fraction] = MappingProxyType(
    {"none": Fraction(1), "zero-1-2": Fraction(1), "zero-3": Fraction(3, 2)}
)


def step_latencies(
    *, algorithm: str, devices: int, devices_per_node: int, latency: float, network_latency: float
) -> Fraction:
    """The latency one all-reduce call pays, in µs, as NCCL's tuner counts it.

    With N = ⌈d / n⌉ nodes, a ring of 2(d−1) steps crosses the network on
    2(N−1) of them and stays inside a node on the other 2(d−N); a tree pays
    2·((⌊d / N⌋ − 1)·α + ⌊log₂ N⌋·α_net), its depth inside a node and across
    nodes (``src/graph/tuning.cc``). On one node both are 2(d−1)·α.
    """
    nodes = -(-devices // devices_per_node)
    intra, inter = exact(latency), exact(network_latency)
    if algorithm == "tree":
        return 2 * ((devices // nodes - 1) * intra + (nodes.bit_length() - 1) * inter)
    return 2 * (nodes - 1) * inter + 2 * (devices - nodes) * intra


def estimate(
    *,
    parameters: int,
    bytes_per_value: int,
    bucket_size: float,
    sharding: str,
    devices: int,
    devices_per_node: int,
    bus_bandwidth: float,
    algorithm: str,
    latency: float,
    network_latency: float,
    compute_time: float,
    overlap: float,
) -> Result:
    """Estimate the scaling efficiency that the gradients' collectives allow.

    Args:
        parameters: Gradient values reduced each step P.
        bytes_per_value: Bytes per gradient value b, in the dtype gradients are
            reduced in (4 for fp32, 2 for bf16/fp16).
        bucket_size: Gradients per call s, in MB (10⁶ bytes); 0 for one call.
        sharding: ``none`` (DDP), ``zero-1-2`` (same traffic) or ``zero-3``
            (1.5 times the traffic: the parameters are all-gathered twice).
        devices: Data-parallel devices d.
        devices_per_node: Devices per node n; the d devices span N = ⌈d / n⌉ nodes.
        bus_bandwidth: Bus bandwidth B in GB/s (10⁹ bytes), as nccl-tests reports it.
        algorithm: ``ring`` or ``tree``, the all-reduce NCCL runs.
        latency: Latency α of one step inside a node, in microseconds.
        network_latency: Latency α_net of one step across nodes, in microseconds.
        compute_time: Time of one step on one device without communication C, in ms.
        overlap: Share of C during which the collectives can run o, in percent.

    Returns:
        ``calls`` k = ⌈P·b / s⌉ (1 when s is 0; at most P, a call carries at least
        one value), ``bandwidth_time`` f · 2(d−1)/d · P·b / B and ``latency_time``
        f · k · L, in ms, where f is the sharding's traffic factor and L the
        latency of one call (:func:`step_latencies`); ``allreduce_time`` T, their
        sum; ``exposed_time`` X = max(0, T − o·C); ``efficiency`` C / (C + X) in
        percent; ``speedup`` d · C / (C + X). The warning ``latency_bound`` when the
        latency time exceeds the bandwidth time. Every quotient is taken exactly
        on the inputs as written and rounded once, so round inputs give round
        results.

    Raises:
        InvalidInputs: ``tree_allreduce_only`` on ``algorithm`` for a tree with
            sharding: NCCL has no tree for reduce-scatter and all-gather.
    """
    if algorithm == "tree" and sharding != "none":
        raise InvalidInputs([InputError("algorithm", "tree_allreduce_only")])
    traffic = SHARDING_TRAFFIC[sharding]
    size = parameters * bytes_per_value
    bucket = exact(bucket_size) * BYTES_PER_MB
    # Exact ceiling of a rational: no float can put k one call off.
    calls = (
        1 if bucket == 0 else min(parameters, -((-size * bucket.denominator) // bucket.numerator))
    )
    steps = 2 * (devices - 1)
    bandwidth = (
        traffic * Fraction(steps * size, devices) / (exact(bus_bandwidth) * BYTES_PER_GB) * 1000
    )
    per_call = step_latencies(
        algorithm=algorithm,
        devices=devices,
        devices_per_node=devices_per_node,
        latency=latency,
        network_latency=network_latency,
    )
    latency_ms = traffic * calls * per_call / 1000
    bandwidth_time, latency_time = float(bandwidth), float(latency_ms)
    # T is the sum of the two parts as shown, so that they always add up to it.
    allreduce_time = bandwidth_time + latency_time
    compute = exact(compute_time)
    exposed = max(Fraction(0), Fraction(allreduce_time) - exact(overlap) * compute / 100)
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
            chart=SCALING,
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
            chart=SCALING,
        ),
        Mode(
            name="estimate",
            label="Estimated from the gradients' collectives",
            inputs=(
                Input(
                    name="parameters",
                    label="Gradient values (parameters)",
                    default=1_000_000_000,
                    minimum=1,
                    maximum=MAX_PARAMETERS,
                    integer=True,
                    help="P: values reduced each step, one per trainable parameter.",
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
                        "b: the bytes of the dtype gradients are reduced in, not of the "
                        "parameters: 4 for fp32 (DDP under autocast, Megatron-LM under --bf16 "
                        "by default), 2 for bf16 or fp16."
                    ),
                ),
                Input(
                    name="bucket_size",
                    label="Bucket size",
                    unit="MB",
                    default=25,
                    minimum=0,
                    maximum=MAX_BUCKET_SIZE,
                    help=(
                        "s: gradient bytes per call, 1 MB = 10^6 bytes (DDP's "
                        "bucket_cap_mb is 25 MiB, 26.2144 MB); 0 for one call per step."
                    ),
                ),
                Choice(
                    name="sharding",
                    label="Sharding",
                    options=(
                        Option(value="none", label="None (DDP)"),
                        Option(value="zero-1-2", label="ZeRO-1 or ZeRO-2"),
                        Option(value="zero-3", label="ZeRO-3 or full FSDP"),
                    ),
                    default="none",
                    help=(
                        "What each device shards: ZeRO-1 and -2 move the bytes of an all-reduce, "
                        "ZeRO-3 1.5 times as many."
                    ),
                ),
                DEVICES,
                Input(
                    name="devices_per_node",
                    label="Devices per node",
                    unit="devices",
                    default=8,
                    minimum=1,
                    maximum=MAX_DEVICES,
                    integer=True,
                    help="n: devices joined by the node's own links; d spans ⌈d / n⌉ nodes.",
                ),
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
                Choice(
                    name="algorithm",
                    label="All-reduce algorithm",
                    options=(
                        Option(value="ring", label="Ring"),
                        Option(value="tree", label="Tree"),
                    ),
                    default="ring",
                    help=(
                        "How NCCL runs the all-reduce: a ring, whose latency grows with d, "
                        "or a tree, whose latency grows with log2 of the nodes."
                    ),
                ),
                Input(
                    name="latency",
                    label="Latency per step inside a node",
                    unit="µs",
                    default=0,
                    minimum=0,
                    maximum=MAX_LATENCY,
                    help="α: time of one step of the collective between two devices of a node.",
                ),
                Input(
                    name="network_latency",
                    label="Latency per step across nodes",
                    unit="µs",
                    default=0,
                    minimum=0,
                    maximum=MAX_LATENCY,
                    help="α_net: time of one step of the collective between two nodes.",
                ),
                Input(
                    name="compute_time",
                    label="Compute time per step",
                    unit="ms",
                    default=1000,
                    minimum=MIN_COMPUTE_TIME,
                    maximum=MAX_COMPUTE_TIME,
                    help=(
                        "C: one optimizer step on one device with no communication "
                        "(forward, backward and update)."
                    ),
                ),
                Input(
                    name="overlap",
                    label="Overlap with compute",
                    unit="%",
                    default=0,
                    minimum=0,
                    maximum=100,
                    help=(
                        "o: share of the compute time during which the collectives can run; "
                        "0 when they start after the backward pass."
                    ),
                ),
            ),
            outputs=(
                Output(
                    name="calls",
                    label="Buckets per step",
                    help=(
                        "k = ⌈P·b / s⌉, 1 when s is 0, at most P: one all-reduce each, "
                        "or a reduce-scatter and all-gathers under sharding."
                    ),
                ),
                Output(
                    name="bandwidth_time",
                    label="Bandwidth time",
                    unit="ms",
                    digits=3,
                    help="f · 2(d−1)/d · P·b / B: moving the bytes, f = 1.5 under ZeRO-3, else 1.",
                ),
                Output(
                    name="latency_time",
                    label="Latency time",
                    unit="ms",
                    digits=3,
                    help="f · k · L: the fixed cost of every step of every call.",
                ),
                Output(
                    name="allreduce_time",
                    label="Communication time",
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
                    label="Estimated efficiency",
                    style="percent",
                    digits=2,
                    help=(
                        "E = C / (C + X), in percent: counting communication only, a ceiling "
                        "when the inputs are not pessimistic."
                    ),
                ),
                SPEEDUP,
            ),
            groups=(
                ("Gradients", ("parameters", "bytes_per_value", "bucket_size", "sharding")),
                (
                    "Interconnect",
                    (
                        "devices",
                        "devices_per_node",
                        "bus_bandwidth",
                        "algorithm",
                        "latency",
                        "network_latency",
                    ),
                ),
                ("Compute", ("compute_time", "overlap")),
            ),
            compute=estimate,
            chart=SCALING,
        ),
    ),
)
