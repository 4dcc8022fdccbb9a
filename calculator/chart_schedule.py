"""The chart of the pipeline bubble: the schedule itself, stages × time.

Every idle stretch is drawn, with both conventions' figures on it: the bubble
as a share of the ideal compute time (Megatron-LM) and of the step (GPipe).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

from .drawing import (
    FONT,
    SHARED_WORDS,
    WIDTH,
    Labels,
    Numbers,
    coordinate,
    data_table,
    figure,
    legend_box,
    svg_root,
    tag,
)
from .notation import Notation
from .spec import Chart, Mode, Value

__all__ = ["SCHEDULE", "schedule"]

WORDS: Mapping[str, str] = MappingProxyType(
    {
        "schedule.title": "Pipeline schedule: p = {stages}, m = {micro_batches}, v = {chunks}",
        "schedule.x": "Time",
        "schedule.y": "Stage",
        "schedule.forward": "Forward pass",
        "schedule.backward": "Backward pass",
        "schedule.idle": "Idle: the bubble",
        "schedule.conventions": (
            "β = {beta} of the ideal compute time (Megatron-LM); σ = {sigma} of the step (GPipe)"
        ),
        "schedule.order": (
            "Drawn in GPipe's order, every forward pass then every backward pass, each pass "
            "half a slot long; 1F1B orders them differently and idles as long."
        ),
        "schedule.chunks": (
            "Each device holds {chunks} chunks of the model; the darker boxes are its "
            "even-numbered chunks."
        ),
        "schedule.cut.time": (
            "Shortened where every stage is busy: {hidden} of the {total} forward passes of each "
            "stage are not drawn, and as many backward passes."
        ),
        "schedule.cut.stages": (
            "Stages {first} to {last} are not drawn; each idles as long as the stages shown."
        ),
        "schedule.thin": "At this scale a stage's work is drawn wider than it lasts.",
        "schedule.desc": (
            "Each of the {stages} stages computes for {busy} slots and is idle for {idle} of the "
            "{step} slots of a step, a slot being the forward and backward pass of one "
            "micro-batch on one chunk: the bubble is {beta} of the ideal compute time, "
            "{sigma} of the step."
        ),
        "schedule.col.stage": "Stage",
        "schedule.col.before": "Idle before its first forward pass, slots",
        "schedule.col.middle": "Idle between its forward and backward passes, slots",
        "schedule.col.after": "Idle after its last backward pass, slots",
        "schedule.col.total": "Idle in all, slots",
        "schedule.skipped": "Stages {first} to {last}",
    }
)
"""The chart's words in English, by key; ``{name}`` marks a number."""

_MAX_ROWS = 12
"""Stages drawn at most; beyond, the first and last few, and a row that says so."""
_HEAD_ROWS, _TAIL_ROWS = 6, 5
_MAX_UNITS = 48
"""Passes drawn across at most before the busy middle of each phase is cut short."""
_KEEP = 3
"""Passes kept on each side of a cut."""
_GAP = 2
"""Width of a cut, in passes."""
_S_LEFT, _S_RIGHT, _S_TOP = 40, 392, 34
_ROW, _BAR = 24, 18
_LABELLED = 14
"""Width of a pass, in the drawing's units, from which boxes carry their micro-batch."""


@dataclass(frozen=True)
class _Timeline:
    """Where each instant of the step is drawn, with the busy middles cut short."""

    cuts: tuple[tuple[int, int], ...]
    drawn: Fraction
    """Width of the drawing, in passes, gaps included."""

    def position(self, time: int) -> Fraction:
        shift = Fraction(0)
        for start, end in self.cuts:
            if time >= end:
                shift += end - start - _GAP
        return time - shift

    def pieces(self, start: int, end: int) -> list[tuple[int, int]]:
        """The parts of [start, end) that are drawn."""
        parts = [(start, end)] if start < end else []
        for cut_start, cut_end in self.cuts:
            parts = [
                piece
                for low, high in parts
                for piece in ((low, min(high, cut_start)), (max(low, cut_end), high))
                if piece[0] < piece[1]
            ]
        return parts


def _timeline(stages: int, work: int) -> _Timeline:
    """The timeline of a step of ``work`` forward passes per stage on ``stages`` stages."""
    units = 2 * (work + stages - 1)
    # Every stage is busy from p−1 to v·m (forward) and from v·m + 2(p−1) to 2v·m + p−1.
    length = work - stages + 1
    if units <= _MAX_UNITS or length <= 2 * _KEEP + _GAP:
        return _Timeline((), Fraction(units))
    hidden = length - 2 * _KEEP
    first = stages - 1 + _KEEP
    second = work + 2 * (stages - 1) + _KEEP
    cuts = ((first, first + hidden), (second, second + hidden))
    return _Timeline(cuts, Fraction(units - 2 * (hidden - _GAP)))


def _drawn_stages(stages: int) -> list[int | None]:
    """0-based stages drawn, top to bottom; ``None`` for the row that stands for the rest."""
    if stages <= _MAX_ROWS:
        return list(range(stages))
    return [*range(_HEAD_ROWS), None, *range(stages - _TAIL_ROWS, stages)]


@dataclass
class _Schedule:
    """One pipeline schedule as drawn: p, m, v, where each instant goes, and the rows."""

    stages: int
    micro: int
    chunks: int
    numbers: Numbers
    timeline: _Timeline = field(init=False)
    rows: list[int | None] = field(init=False)
    scale: Fraction = field(init=False)
    """Width of one pass in the drawing's units."""
    thin: bool = field(default=False, init=False)
    """Whether some stage's work was drawn wider than it lasts (a huge p)."""

    def __post_init__(self) -> None:
        self.timeline = _timeline(self.stages, self.work)
        self.rows = _drawn_stages(self.stages)
        self.scale = Fraction(_S_RIGHT - _S_LEFT) / self.timeline.drawn

    @property
    def work(self) -> int:
        """Forward passes of each stage per step, v·m; as many backward passes."""
        return self.chunks * self.micro

    def x(self, time: int) -> Fraction:
        return _S_LEFT + self.scale * self.timeline.position(time)

    def boxes(self, row_y: int, start: int, end: int, kind: str) -> str:
        out = []
        for low, high in self.timeline.pieces(start, end):
            width = self.x(high) - self.x(low)
            if width < 1 and kind != "calc-chart__idle":
                self.thin = True
                width = Fraction(1)
            out.append(
                f'<rect class="{kind}" x="{coordinate(self.x(low))}" y="{row_y}" '
                f'width="{coordinate(width)}" '
                f'height="{_BAR}" stroke="currentColor" stroke-width="0.5"/>'
            )
        return "".join(out)

    def numbered(self, row_y: int, start: int, tone: str) -> str:
        """The micro-batch numbers of one chunk's drawn passes, where a box is wide enough."""
        if self.scale < _LABELLED:
            return ""
        texts = "".join(
            tag(
                "text",
                {"x": coordinate(self.x(time) + self.scale / 2), "y": str(row_y + 13)},
                self.numbers.number(time - start + 1),
            )
            for low, high in self.timeline.pieces(start, start + self.micro)
            for time in range(low, high)
        )
        return (
            f'<g class="calc-chart__cell-label{tone}" font-size="11" text-anchor="middle">'
            f"{texts}</g>"
        )

    def drawn_chunks(self, start: int) -> list[int]:
        """The chunks, in time order, of a phase from ``start`` that are drawn at all."""
        seen: set[int] = set()
        for low, high in self.timeline.pieces(start, start + self.work):
            seen.update(range((low - start) // self.micro, (high - 1 - start) // self.micro + 1))
        return sorted(seen)

    def row(self, position: int, stage: int | None) -> str:
        """One stage's row: its number, its passes and its idle stretches."""
        row_y = _S_TOP + position * _ROW
        middle = str(row_y + _BAR // 2 + 4)
        if stage is None:
            return tag(
                "text", {"x": str(_S_LEFT - 8), "y": middle, "text-anchor": "end"}, "⋮"
            ) + tag(
                "text",
                {"x": str((_S_LEFT + _S_RIGHT) // 2), "y": middle, "text-anchor": "middle"},
                "⋮",
            )
        work, stages, micro = self.work, self.stages, self.micro
        backward = work + 2 * (stages - 1) - stage
        parts = [
            tag(
                "text",
                {"x": str(_S_LEFT - 8), "y": middle, "text-anchor": "end"},
                self.numbers.number(stage + 1),
            ),
            self.boxes(row_y, 0, stage, "calc-chart__idle"),
            self.boxes(row_y, stage + work, backward, "calc-chart__idle"),
            self.boxes(row_y, backward + work, backward + work + stage, "calc-chart__idle"),
        ]
        # Forward passes chunk by chunk, then backward passes in reverse order of chunks;
        # chunks counted from 1, as the note says: the even ones darker.
        for phase, kind, first in ((stage, "forward", 0), (backward, "backward", self.chunks - 1)):
            for order in self.drawn_chunks(phase):
                chunk = abs(first - order)
                tone = " calc-chart__even" if chunk % 2 == 1 else ""
                start = phase + order * micro
                parts.append(self.boxes(row_y, start, start + micro, f"calc-chart__{kind}{tone}"))
                parts.append(self.numbered(row_y, start, tone))
        return "".join(parts)

    def drawing(self, figures: str, labels: Labels) -> tuple[int, str]:
        """The SVG's height and content: the figures, the axes, the rows and the cuts."""
        span = len(self.rows) * _ROW
        axis_y = _S_TOP + span + 2
        cuts = "".join(
            f'<path class="calc-chart__cut" d="M{coordinate(self.x(start) + 3)} {_S_TOP - 4}'
            f"l-3 {span + 4}M{coordinate(self.x(start) + 7)} {_S_TOP - 4}"
            f'l-3 {span + 4}" fill="none" stroke="currentColor"/>'
            for start, _ in self.timeline.cuts
        )
        centre = str((_S_LEFT + _S_RIGHT) // 2)
        content = (
            f'<g class="calc-chart__axes" fill="currentColor" font-size="{FONT}">'
            + tag(
                "text",
                {"class": "calc-chart__figures", "x": str(_S_RIGHT), "y": "16"}
                | {"text-anchor": "end"},
                figures,
            )
            + f'<path d="M{_S_LEFT} {axis_y}H{_S_RIGHT}m-6 -4l6 4l-6 4" fill="none" '
            'stroke="currentColor"/>'
            + tag(
                "text",
                {"x": centre, "y": str(axis_y + 18), "text-anchor": "middle"},
                labels.word("schedule.x"),
            )
            + tag("text", {"x": "4", "y": "16"}, labels.word("schedule.y"))
            + "".join(self.row(position, stage) for position, stage in enumerate(self.rows))
            + "</g>"
            + cuts
        )
        return _S_TOP + span + 30, content

    def notes(self, labels: Labels, beta: str, sigma: str) -> list[str]:
        """The conventions' figures in words, how the schedule is drawn, and what is not."""
        number = self.numbers.number
        notes = [
            labels.word("schedule.conventions", beta=beta, sigma=sigma),
            labels.word("schedule.order"),
        ]
        if self.chunks > 1:
            notes.append(labels.word("schedule.chunks", chunks=number(self.chunks)))
        for start, end in self.timeline.cuts[:1]:
            notes.append(
                labels.word(
                    "schedule.cut.time", hidden=number(end - start), total=number(self.work)
                )
            )
        if None in self.rows:
            notes.append(self.skipped(labels, "schedule.cut.stages"))
        if self.thin:
            notes.append(labels.word("schedule.thin"))
        return notes

    def skipped(self, labels: Labels, key: str) -> str:
        number = self.numbers.number
        return labels.word(key, first=number(_HEAD_ROWS + 1), last=number(self.stages - _TAIL_ROWS))

    def table(self, labels: Labels) -> str:
        """Each drawn stage's idle time, in slots: before, between and after its passes."""
        number, idle = self.numbers.number, self.numbers.number(self.stages - 1)
        rows = [
            (self.skipped(labels, "schedule.skipped"), "…", "…", "…", idle)
            if stage is None
            else (
                number(stage + 1),
                number(Fraction(stage, 2)),
                number(self.stages - 1 - stage),
                number(Fraction(stage, 2)),
                idle,
            )
            for stage in self.rows
        ]
        headers = [
            labels.word(f"schedule.col.{name}")
            for name in ("stage", "before", "middle", "after", "total")
        ]
        return data_table(labels.prefix, labels.word("data"), headers, rows)


def schedule(
    mode: Mode, values: Mapping[str, Value | str | None], labels: Labels, notation: Notation
) -> str:
    """The schedule of a synchronous pipeline, stages × time, with its bubbles.

    Args:
        mode: ``bubble``, the pipeline calculator's one mode, whose compute
            function gives the figures the chart writes.
        values: ``stages`` p, ``micro_batches`` m and ``chunks`` v, accepted by
            :func:`calculator.calculators.pipeline_bubble.bubble`.
        labels: The page's words and number conventions.
        notation: How the page's language writes numbers.

    Returns:
        The chart as an HTML fragment. Stage i (from 0) runs its v·m forward
        passes from time i, and its backward passes, in reverse order of chunks,
        from v·m + 2(p−1) − i, each pass half a slot long (a slot is the forward
        and backward pass of one micro-batch on one chunk, t/v): it idles i half
        slots before, 2(p−1−i) between and i after, p−1 slots in all, as every
        synchronous schedule does. With more than 12 stages the first six and the
        last five are drawn; with more than 24 slots in a step, the middle of each
        phase, where every stage is busy, is cut short. A note says so.
    """
    numbers = Numbers(notation, labels)
    stages, micro, chunks = (
        int(values[name] or 0) for name in ("stages", "micro_batches", "chunks")
    )
    drawn = _Schedule(stages, micro, chunks, numbers)
    result = mode.compute(stages=stages, micro_batches=micro, chunks=chunks).values
    beta = numbers.percent(result["bubble_overhead"] or 0)
    sigma = numbers.percent(result["idle_share"] or 0)
    height, content = drawn.drawing(f"β = {beta} · σ = {sigma}", labels)
    title = labels.word(
        "schedule.title",
        stages=numbers.number(stages),
        micro_batches=numbers.number(micro),
        chunks=numbers.number(chunks),
    )
    desc = labels.word(
        "schedule.desc",
        stages=numbers.number(stages),
        busy=numbers.number(drawn.work),
        idle=numbers.number(stages - 1),
        step=numbers.number(drawn.work + stages - 1),
        beta=beta,
        sigma=sigma,
    )
    svg = svg_root(labels.prefix, WIDTH, height, title=title, desc=desc, body=content)
    legend = legend_box(
        [
            ("box", "calc-chart__forward", labels.word("schedule.forward")),
            ("box", "calc-chart__backward", labels.word("schedule.backward")),
            ("box", "calc-chart__idle", labels.word("schedule.idle")),
        ]
    )
    return figure(
        labels.prefix,
        title,
        legend=legend,
        svg=svg,
        notes=drawn.notes(labels, beta, sigma),
        table=drawn.table(labels),
    )


SCHEDULE = Chart(draw=schedule, words=MappingProxyType({**SHARED_WORDS, **WORDS}))
"""The chart the pipeline bubble declares."""
