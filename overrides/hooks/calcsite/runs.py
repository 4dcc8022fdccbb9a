"""Published runs: real measurements the data-parallel page starts from.

The numbers are data, in one file (``docs/assets/data/published-runs.json``,
which the site also serves): for each run, the devices, the throughput of the
baseline (one device, or one node of several devices) and the throughput of
the whole cluster, with the system, the software, the date the figures were
published, the source, and the source's table lines as they read there. This
module reads and checks that file, computes each run's efficiency and speedup
with the core's measuring mode, and words the table in the page's language.
Each row links to the page's measuring form with the run's numbers in plain
notation, so the link opens the same case in every language.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from calculator import Mode, run

from .formatting import format_bound, format_day, format_output, plain
from .messages import translate

__all__ = ["DATA", "WORDS", "PublishedRun", "RunsError", "load", "runs_context"]

DATA = Path(__file__).resolve().parents[3] / "docs" / "assets" / "data" / "published-runs.json"
"""The published runs, as the site serves them."""

WORDS: dict[str, str] = {
    "caption": (
        "Published runs. Each efficiency and speedup is computed by the measuring form; "
        "each run's name opens it with the run's numbers."
    ),
    "run": "Run",
    "system": "System",
    "source": "Source and software",
    "baseline": "Baseline",
    "devices": "Devices d",
    "cluster": "Cluster throughput",
    "efficiency": "Efficiency E",
    "speedup": "Speedup",
    "one_device": "one device: {throughput}",
    "one_node": "one node of {devices} devices: {throughput}",
    "published": "README, {date}",
}
"""The table's words in English; the catalogs translate them (keyed by the English)."""

SAMPLES = {"images": "images/s", "sequences": "sequences/s"}
"""What a run counts as its samples, and the unit its throughputs are written in."""

_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?\Z")


class RunsError(ValueError):
    """The data file is missing something, or a row does not hold together."""


@dataclass(frozen=True)
class PublishedRun:
    """One published measurement."""

    id: str
    model: str
    task: str
    """Translated: ``pre-training, phase 1``; empty for plain training."""
    precision: str
    """Translated: ``mixed precision``, ``TF32``, ``FP32``."""
    system: str
    software: str
    published: datetime.date
    samples: str
    baseline_devices: int
    """1 for a baseline of one device; a node's devices for one node."""
    baseline_throughput: int | float
    baseline_source: str
    devices: int
    throughput: int | float
    source: str
    readme: tuple[str, ...]

    @property
    def per_device(self) -> str:
        """The throughput the form takes as one device's: the baseline's per device, plain."""
        return plain(_number(Fraction(str(self.baseline_throughput)) / self.baseline_devices))

    def query(self) -> str:
        """The link's query: the measuring mode with the run's numbers, in plain notation."""
        return urlencode(
            [
                ("mode", "measure"),
                ("devices", str(self.devices)),
                ("throughput", self.per_device),
                ("measured", plain(self.throughput)),
            ]
        )


def _number(value: Fraction) -> int | float:
    if value.denominator == 1:
        return int(value)
    # A baseline per device must be a finite decimal: the link carries it exactly.
    denominator = value.denominator
    for factor in (2, 5):
        while denominator % factor == 0:
            denominator //= factor
    if denominator != 1:
        raise RunsError(f"{value} per device is not a finite decimal")
    return float(value)


def _field(record: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = record.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RunsError(f"{record.get('id', '?')}: {name!r} must be {kind}")
    return value


def _mentions(lines: tuple[str, ...], number: int | float) -> bool:
    """Whether a table line holds ``number`` as a cell (``| 938 img/s |`` holds 938)."""
    cell = re.compile(rf"\|\s*{re.escape(plain(number))}(?:\s+[a-z/]+)?\s*(?=\|)")
    return any(cell.search(line) for line in lines)


def load(path: Path = DATA) -> tuple[PublishedRun, ...]:
    """Read and check the published runs.

    Raises:
        RunsError: A field is missing or of the wrong type, a baseline does not
            divide the devices, or a throughput is not in the quoted table lines.
    """
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RunsError(f"{path}: {error}") from None
    records = document.get("runs") if isinstance(document, dict) else None
    if not isinstance(records, list) or not records:
        raise RunsError(f"{path}: no 'runs' list")
    runs = []
    for record in records:
        if not isinstance(record, dict):
            raise RunsError(f"{path}: a run is not an object")
        baseline = _field(record, "baseline", dict)
        readme = tuple(_field(record, "readme", list))
        run_ = PublishedRun(
            id=_field(record, "id", str),
            model=_field(record, "model", str),
            task=record.get("task", ""),
            precision=_field(record, "precision", str),
            system=_field(record, "system", str),
            software=_field(record, "software", str),
            published=datetime.date.fromisoformat(_field(record, "published", str)),
            samples=_field(record, "samples", str),
            baseline_devices=_field(baseline, "devices", int),
            baseline_throughput=_field(baseline, "throughput", (int, float)),
            baseline_source=_field(baseline, "source", str),
            devices=_field(record, "devices", int),
            throughput=_field(record, "throughput", (int, float)),
            source=_field(record, "source", str),
            readme=readme,
        )
        if run_.samples not in SAMPLES:
            raise RunsError(f"{run_.id}: samples must be one of {sorted(SAMPLES)}")
        if run_.devices % run_.baseline_devices or run_.devices <= run_.baseline_devices:
            raise RunsError(f"{run_.id}: the baseline's devices must divide the run's, fewer")
        for number in (run_.baseline_throughput, run_.throughput):
            if not _mentions(readme, number):
                raise RunsError(f"{run_.id}: {number} is not a cell of the quoted lines")
        run_.per_device  # noqa: B018 -- raises if the link could not carry it exactly
        for url in (run_.source, run_.baseline_source):
            if not url.startswith("https://"):
                raise RunsError(f"{run_.id}: {url!r} is not an https link")
        runs.append(run_)
    return tuple(runs)


def runs_context(mode: Mode, form_id: str, language: str) -> dict[str, Any]:
    """The table of published runs for a page in ``language``, each row computed by ``mode``.

    ``mode`` is data-parallel scaling's measuring mode; each row's link opens
    the page's form ``form_id`` with the row's numbers.
    """

    def t(key: str, **values: str) -> str:
        text = translate(language, WORDS[key])
        for name, value in values.items():
            text = text.replace("{" + name + "}", value)
        return text

    rows = []
    for published in load():
        result = run(
            mode,
            {
                "devices": published.devices,
                "throughput": published.per_device,
                "measured": published.throughput,
            },
        )
        unit = translate(language, SAMPLES[published.samples])
        baseline = f"{format_bound(published.baseline_throughput, language)} {unit}"
        outputs = {output.name: output for output in mode.outputs}
        name = ", ".join(
            part
            for part in (
                published.model,
                translate(language, published.task) if published.task else "",
                translate(language, published.precision),
            )
            if part
        )
        rows.append(
            {
                "id": published.id,
                "run": name,
                "system": published.system,
                "software": published.software,
                "source": published.source,
                "baseline_source": published.baseline_source,
                "published": t("published", date=format_day(published.published, language)),
                "baseline": t("one_device", throughput=baseline)
                if published.baseline_devices == 1
                else t(
                    "one_node",
                    devices=format_bound(published.baseline_devices, language),
                    throughput=baseline,
                ),
                "devices": format_bound(published.devices, language),
                "cluster": f"{format_bound(published.throughput, language)} {unit}",
                "efficiency": format_output(
                    outputs["efficiency"], result.values["efficiency"], language
                ),
                "speedup": format_output(outputs["speedup"], result.values["speedup"], language),
                "href": f"?{published.query()}#{form_id}",
            }
        )
    return {"words": {key: t(key) for key in WORDS}, "rows": rows}
