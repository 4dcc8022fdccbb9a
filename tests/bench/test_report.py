"""The benchmark's pages, steps, targets and printed report, without a browser."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from calcsite.performance import targets

from bench.__main__ import _first_live
from bench.pages import CalcPage, Form, calculator_pages, recompute_steps, shared_link
from bench.report import table
from bench.timing import Run, Target
from calculator import Choice, get

FORM = Form(
    slug="data-parallel-scaling",
    mode="predict",
    default_mode="predict",
    locale="fr",
    inputs={"devices": "64", "throughput": "2000", "efficiency": "90"},
    outputs=("128\u202f000", "115\u202f200", "57,6×", "12\u202f800"),
)


def test_the_example_form_is_what_the_core_computes() -> None:
    assert FORM.expected(FORM.inputs) == FORM.outputs
    assert FORM.expected({**FORM.inputs, "devices": "0"}) is None


def test_a_pages_example_is_read_as_its_language_writes_it() -> None:
    """``87,5`` on a French page is 87.5, as the page's worker reads it: the example is shown."""
    written = {"devices": "64", "throughput": "2000", "efficiency": "87,5"}
    shown = FORM.expected({**FORM.inputs, "efficiency": "87.5"})
    assert shown is not None
    assert FORM.expected(written) is None  # in plain notation, "87,5" is not a number
    page = CalcPage(
        "fr/data-parallel-scaling/", "fr", (replace(FORM, inputs=written, outputs=shown),)
    )
    assert page.prerendered()
    other = replace(FORM, inputs={**written, "efficiency": "88"}, outputs=shown)
    assert not CalcPage("fr/data-parallel-scaling/", "fr", (other,)).prerendered()


def test_a_shared_link_differs_from_the_example_and_stays_in_bounds() -> None:
    query, texts = shared_link(FORM)
    assert query == "devices=128&throughput=4000&efficiency=45"
    assert texts == ("512\u202f000", "230\u202f400", "57,6×", "281\u202f600")


def test_recompute_steps_change_the_results_every_time() -> None:
    name, steps = recompute_steps(FORM, 150)
    assert name == "devices"
    assert [s.value for s in steps[:3]] == ["65", "66", "67"]
    assert len(steps) == 150
    assert all(a.texts != b.texts for a, b in itertools.pairwise(steps))


def test_a_choice_is_read_from_its_list_kept_in_links_and_never_stepped(tmp_path: Path) -> None:
    """A list's selected option is the form's value; only numbers are doubled or stepped."""
    mode = get("data-parallel-scaling").mode("estimate")
    values = {**mode.defaults(), "algorithm": "tree"}
    fields = []
    for spec in mode.inputs:
        if isinstance(spec, Choice):
            options = "".join(
                f'<option value="{v}"{" selected" if v == values[spec.name] else ""}>{v}</option>'
                for v in spec.values
            )
            fields.append(f'<select name="{spec.name}">{options}</select>')
        else:
            fields.append(f'<input name="{spec.name}" value="{values[spec.name]}">')
    (tmp_path / "index.html").write_text(
        '<html lang="en"><form class="calc" data-calc="data-parallel-scaling" '
        f'data-mode="estimate">{"".join(fields)}</form></html>',
        encoding="utf-8",
    )
    (page,) = calculator_pages(tmp_path)
    form = page.main
    assert form.inputs["algorithm"] == "tree"
    assert form.inputs["sharding"] == "none"
    query, texts = shared_link(form)
    assert "sharding=none" in query
    assert "algorithm=tree" in query
    assert texts == form.expected(dict(parse_qsl(query)))
    name, steps = recompute_steps(form, 3)
    assert not isinstance(mode.input(name), Choice)
    assert len(steps) == 3


TIMELINE = {
    "worker": 100.0,
    "downloaded": 600.0,
    "compiled": 700.0,
    "started": 850.0,
    "live": 950.0,
}


def results(**overrides: Any) -> dict[str, Any]:
    size = {"raw": 1, "gzip": 1}
    visits = {
        **{visit: [1.0] * 5 for visit in ("cold", "warm", "link")},
        **{f"{visit}_timeline": TIMELINE for visit in ("cold", "warm", "link")},
        "cold_fcp_median": 200,
        "warm_requests": [],
        "warm_bytes_from_server": [0] * 5,
    }
    ratios = {
        "cold_ratio_interval": [1.0, 1.2],
        "warm_ratio_interval": [1.1, 1.3],
        "link_ratio_interval": [0.8, 0.9],
    }
    base: dict[str, Any] = {
        "machine": {
            "date": "2026-11-30",
            "cores": 2,
            "cpu": "cpu",
            "chromium": "Chromium",
            "node": "v20",
            "load_average_before": 0.1,
        },
        "settings": {"runs": 5, "changes": 120, "link": {"megabits": 20.0, "latency_ms": 40.0}},
        "build_seconds": 5.0,
        "pages": {
            "p/": {
                "prerendered": True,
                "bytes": {
                    "before": {kind: {"raw": 10, "gzip": 5} for kind in ("HTML", "CSS", "JS")}
                    | {"other": {"raw": 0, "gzip": 0}},
                    "page": {"raw": 90_000, "gzip": 90_000},
                    "everything_before": {"raw": 100_000, "gzip": 95_000},
                    "engine": {"pyodide.asm.wasm": size, "core-0.1-py3-none-any.whl.gz": size},
                    "engine_total": {"raw": 2, "gzip": 4_400_000},
                    "missing": [],
                },
            }
        },
        "first_live": {
            "floor": {"cold_median": 1000, "warm_median": 500, "link_median": 2000, **visits},
            "p/": {
                "cold_median": 1100,
                "warm_median": 600,
                "link_median": 1700,
                "cold_ratio": 1.1,
                "warm_ratio": 1.2,
                "link_ratio": 0.85,
                "cold_ratio_fastest": 1.05,
                "warm_ratio_fastest": 1.15,
                "link_ratio_fastest": 0.8,
                **ratios,
                **visits,
            },
        },
        "recompute": {
            "p/": {
                "input": "x",
                "changes": 120,
                "p50": 5.0,
                "p95": 9.0,
                "max": 20.0,
                "to_worker_p50": 3.0,
                "to_worker_p95": 8.0,
            }
        },
        "scaling": [
            {"factor": 1, "pages": 10, "seconds": 5.0},
            {"factor": 10, "pages": 100, "seconds": 14.0},
            {"factor": 50, "pages": 500, "seconds": 60.0},
        ],
    }
    return {**base, **overrides}


def test_targets_say_which_hold() -> None:
    found = {target: holds for target, _, holds in targets(results())}
    assert found == {
        "Example results in the initial HTML, shown with the first paint": True,
        "First live result, cold: at most 1.1× the floor": True,
        "First live result, warm: at most 1.1× the floor": False,
        "First live result, cold, on a 20 Mbit/s link: at most 0.9× the floor": True,
        "Warm visits served by the HTTP cache, WebAssembly included": True,
        "Recompute within a frame: p95 at most 16\u00a0ms": True,
        "Before the engine: at most 100\u00a0kB gzip per page": True,
        "A cold visit, up to its first live result: at most 4.6\u00a0MB gzip": True,
        "Nothing else downloaded: no package, no micropip, no missing file": True,
        "Build time per page flat: at most 1.25× that of the cheapest smaller build": True,
    }


def test_an_extra_package_and_a_superlinear_build_are_misses() -> None:
    data = results()
    data["pages"]["p/"]["bytes"]["engine"]["micropip-0.9-py3-none-any.zip"] = {"raw": 1, "gzip": 1}
    data["scaling"][2]["seconds"] = 90.0
    missed = {target: measured for target, measured, holds in targets(data) if not holds}
    nothing_else = "Nothing else downloaded: no package, no micropip, no missing file"
    assert missed[nothing_else] == "`micropip-0.9-py3-none-any.zip`"
    assert missed["Build time per page flat: at most 1.25× that of the cheapest smaller build"] == (
        "1.29×"
    )


def test_the_report_has_every_table_in_words_and_the_terminals_own_figures() -> None:
    text = table(results())
    for title in ("Bytes before the engine", "First live result", "Recompute", "Targets"):
        assert title in text
    assert "not shown" not in text
    assert "| met " in text
    assert "| not met |" in text
    assert "PASS" not in text
    assert "p/ 1.05× / 1.15× / 0.8×" in text  # fastest against fastest, cold / warm / link
    assert "Cold, 20 Mbit/s" in text
    rows = [[cell.strip() for cell in row.strip("|").split("|")] for row in text.splitlines()]
    phases = next(row for row in rows if row[0] == "`p/`, cold, on a 20 Mbit/s link")
    shown = ["100", "600", "700", "850", None, "950"]
    assert phases[1:] == [f"{ms}\u00a0ms" if ms else "—" for ms in shown]
    assert "slowest change: p/ 20\u00a0ms" in text


def test_each_ratio_comes_with_its_interval() -> None:
    data = results()
    data["first_live"]["p/"]["cold_ratio_interval"] = [0.94, 1.35]
    assert "| 1.1× (0.94–1.35) |" in table(data)


def test_a_skipped_part_is_left_out_and_a_missing_figure_is_said() -> None:
    data = results()
    del data["recompute"], data["scaling"], data["first_live"]["p/"]["cold_fcp_median"]
    text = table(data)
    assert "Recompute" not in text
    assert "Build time" not in text
    assert "not shown: the run lacks a measurement of the first-live table" in text


class FakeTimer:
    """Visits that take 1,000 ms on the floor and 1,100 to 1,300 ms on the page, by round."""

    def __init__(self, folder: Path, kind: str = "cold") -> None:
        self.folder = folder
        self.kind = kind
        self.visits: list[tuple[str, str]] = []

    def run(self, target: Target, kind: str) -> Run:
        """One visit of ``kind``: the page slower by 100 ms at each round."""
        self.visits.append((kind, target.name))
        rounds = sum(name == target.name for _, name in self.visits if _ == kind)
        live = 1000.0 if target.name == "floor" else 1000.0 + 100 * rounds
        timeline = {"worker": 100.0, "started": 900.0, "live": live}
        return Run(live, 200.0, timeline, ["/x"] if kind == "cold" else [], 0)

    def cold(self, target: Target) -> Run:
        """A visit in a new profile (through the link, for the link's timer)."""
        return self.run(target, self.kind)

    def primed(self, target: Target) -> Path:
        """A profile folder, as the real timer leaves one for warm visits."""
        self.visits.append(("primed", target.name))
        folder = self.folder / target.name.strip("/")
        folder.mkdir()
        return folder

    def visit(self, folder: Path, target: Target) -> Run:
        """A warm visit in a primed profile."""
        assert folder.exists()
        return self.run(target, "warm")


def test_first_live_visits_in_rounds_and_compares_each_round_with_its_floor(
    tmp_path: Path,
) -> None:
    page = CalcPage(path="p/", language="fr", forms=(FORM,))
    floor = Target("floor", "bench-floor/", "body", "output", ("2",))
    timer, link = FakeTimer(tmp_path), FakeTimer(tmp_path, kind="link")
    found = _first_live(timer, floor, [page], 3, link)  # type: ignore[arg-type]
    order = [name for kind, name in timer.visits if kind == "cold"]
    assert order == ["floor", "p/", "p/", "floor", "floor", "p/"]
    assert [kind for kind, _ in timer.visits][6:8] == ["primed", "primed"]
    assert [name for _, name in link.visits] == order  # the link's cold visits come last
    assert not any(tmp_path.iterdir())  # the warm profiles are removed
    entry = found["p/"]
    assert entry["cold"] == [1100.0, 1200.0, 1300.0]
    assert entry["cold_ratios"] == [1.1, 1.2, 1.3]
    assert entry["cold_ratio"] == 1.2
    assert entry["cold_ratio_fastest"] == 1.1
    assert entry["link_ratio"] == 1.2
    assert entry["cold_timeline"] == {"worker": 100.0, "started": 900.0, "live": 1200.0}
    assert found["floor"]["warm_median"] == 1000.0
    assert "warm_ratio" not in found["floor"]
    assert found["floor"]["warm_requests"] == []
    # Without a link, no visit goes through one.
    assert "link" not in _first_live(FakeTimer(tmp_path), floor, [page], 1)["p/"]  # type: ignore[arg-type]


def test_a_page_without_its_example_and_a_warm_download_are_named() -> None:
    data = results()
    data["pages"]["p/"]["prerendered"] = False
    data["first_live"]["p/"]["warm_requests"] = ["/assets/pyodide.asm.wasm"]
    missed = {target: measured for target, measured, holds in targets(data) if not holds}
    assert missed["Example results in the initial HTML, shown with the first paint"] == (
        "0 of 1 pages, `p/`"
    )
    assert missed["Warm visits served by the HTTP cache, WebAssembly included"] == (
        "files requested from the server: 1, `/assets/pyodide.asm.wasm`"
    )
