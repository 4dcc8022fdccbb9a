"""The training planner against the published runs: each row's error, each group's summary.

One place computes them: the tests hold the planner to each group's target with them, and
the site's ``md:checks`` directive shows them, so a page's figures are the tested ones.
Each run is computed by the ``check`` mode at the cluster of :data:`planner_runs.A100_CLUSTER`
and the default efficiency, and compared on its group's figure: TFLOP/s per GPU as
Narayanan et al. 2021 count them (eq. 3, the planner's HFU times the peak), or seconds per
iteration (the planner's step time).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..engine import run as compute
from ..spec import Result, Value
from .planner_runs import A100_CLUSTER, GROUPS, RUNS, Group, PublishedRun
from .training_planner import CALCULATOR, EFFICIENCY, Shape, hardware_flops, model_flops

__all__ = [
    "WITHIN",
    "Comparison",
    "Summary",
    "compare",
    "group",
    "measured_seconds",
    "predict",
    "request",
    "summarise",
]

CHECK = CALCULATOR.mode("check")

WITHIN = 0.10
"""The band a summary counts its rows within: ±10 %, whatever the group's target."""

PEAK = float(A100_CLUSTER["peak"])
"""A100's 16-bit peak, TFLOP/s: what the papers' utilisations are shares of."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Comparison:
    """One published row against the planner.

    Attributes:
        run: The published row.
        figure: What is compared, ``tflops`` or ``seconds``.
        predicted: The planner's figure.
        measured: The paper's figure, or the seconds its TFLOP/s or MFU imply.
        basis: The published figure ``measured`` comes from: ``tflops``, ``seconds``
            or ``mfu``.
        values: Every output of the ``check`` mode for the run.
    """

    run: PublishedRun
    figure: str
    predicted: float
    measured: float
    basis: str
    values: Mapping[str, Value | None]

    @property
    def error(self) -> float:
        """Signed relative error of the prediction: positive when it is above the paper's."""
        return self.predicted / self.measured - 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Summary:
    """A group's rows against the planner, and whether its target is met.

    Attributes:
        group: The group.
        comparisons: One per row of the group, in the order of :data:`RUNS`.
    """

    group: Group
    comparisons: tuple[Comparison, ...]

    @property
    def mean_error(self) -> float:
        """Mean absolute relative error over the rows."""
        return sum(abs(c.error) for c in self.comparisons) / len(self.comparisons)

    @property
    def within(self) -> int:
        """Rows whose absolute error is at most :data:`WITHIN`."""
        return sum(abs(c.error) <= WITHIN for c in self.comparisons)

    @property
    def met(self) -> bool | None:
        """Whether the group's target is met; ``None`` when it has none."""
        target = self.group.target
        if target is None:
            return None
        if target.each:
            return all(abs(c.error) <= target.bound for c in self.comparisons)
        return self.mean_error <= target.bound


def request(published: PublishedRun, efficiency: float = EFFICIENCY) -> dict[str, object]:
    """The ``check`` mode's request for a run: the A100 cluster, the run's inputs."""
    return {**A100_CLUSTER, **published.inputs, "efficiency": efficiency}


def predict(published: PublishedRun, efficiency: float = EFFICIENCY) -> Result:
    """What the ``check`` mode computes for a run."""
    return compute(CHECK, request(published, efficiency))


def _shape(published: PublishedRun) -> Shape:
    inputs = published.inputs
    hidden, heads = int(inputs["hidden"]), int(inputs["heads"])
    return Shape(
        layers=int(inputs["layers"]),
        hidden=hidden,
        heads=heads,
        kv_heads=int(inputs.get("kv_heads", heads)),
        ffn=int(inputs.get("ffn", 4 * hidden)),
        swiglu=inputs["mlp"] == "swiglu",
        vocabulary=int(inputs["vocabulary"]),
        sequence=int(inputs["sequence"]),
        untied=inputs["output_layer"] == "untied",
    )


def measured_seconds(published: PublishedRun) -> tuple[float, str]:
    """Seconds per iteration of a run, and the published figure they come from.

    Given (``seconds``); or from its TFLOP/s per GPU, which count the hardware FLOPs of
    full recomputation (Narayanan et al. 2021 eq. 3; ``tflops``); or from its MFU, the
    model's FLOPs against the peak (``mfu``).
    """
    if published.seconds is not None:
        return published.seconds, "seconds"
    batch, devices = int(published.inputs["global_batch"]), int(published.inputs["devices"])
    shape = _shape(published)
    if published.tflops is not None:
        flops = hardware_flops(shape, batch=batch, recompute="full")
        return flops / (devices * published.tflops * 1e12), "tflops"
    # PublishedRun refuses a row without any of the three.
    mfu = published.mfu or 0.0
    return model_flops(shape, batch=batch) / (devices * PEAK * 1e12 * mfu / 100), "mfu"


def compare(
    published: PublishedRun, efficiency: float = EFFICIENCY, *, seconds: bool = False
) -> Comparison:
    """A run against the planner on its group's figure, or on its seconds per iteration.

    The efficiency is fitted on the seconds of every run (``seconds=True``).
    """
    values = predict(published, efficiency).values
    if published.group.figure == "tflops" and not seconds:
        assert published.tflops is not None  # PublishedRun refuses a row without it
        # Table 1 counts hardware FLOPs with the recomputed forward pass: the planner's HFU.
        return Comparison(
            run=published,
            figure="tflops",
            predicted=float(values["hfu"] or 0) * PEAK / 100,
            measured=published.tflops,
            basis="tflops",
            values=values,
        )
    measured, basis = measured_seconds(published)
    return Comparison(
        run=published,
        figure="seconds",
        predicted=float(values["step_time"] or 0),
        measured=measured,
        basis=basis,
        values=values,
    )


def group(name: str) -> Group:
    """The group whose id is ``name``.

    Raises:
        ValueError: No group has that id; the message names those that do.
    """
    for known in GROUPS:
        if known.id == name:
            return known
    raise ValueError(f"{name!r}: known groups are {', '.join(g.id for g in GROUPS)}")


def summarise(checked: Group, efficiency: float = EFFICIENCY) -> Summary:
    """Every run of a group against the planner, on the group's figure."""
    return Summary(
        group=checked,
        comparisons=tuple(compare(r, efficiency) for r in RUNS if r.group == checked),
    )
