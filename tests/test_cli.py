"""The command line, generated from the declarations, run in-process and once as a process."""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from calculator import CALCULATORS, Calculator, Choice, Mode, __version__, evaluate, get
from calculator.cli import EXIT_BAD_INPUT, main
from calculator.errors import WARNINGS, english
from calculator.spec import Field

REPO = Path(__file__).resolve().parents[1]
MODES = [(calc, mode) for calc in CALCULATORS.values() for mode in calc.modes]


def _flag(spec: Field) -> str:
    return "--" + spec.name.replace("_", "-")


def _number(value: float) -> str:
    """A bound or default as a reader writes it: no exponent, no needless ``.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # argparse wraps help at the terminal width: keep every entry on one line.
    monkeypatch.setenv("COLUMNS", "500")


def _human(slug: str, mode: Mode, shown: dict[str, str]) -> list[str]:
    """The human-readable lines for ``shown`` values, laid out from the declarations."""
    width = max(len(output.label) for output in mode.outputs)
    return [
        f"{CALCULATORS[slug].title}: {mode.label.lower()}",
        *(f"  {output.label:<{width}}  {shown[output.name]}" for output in mode.outputs),
    ]


def test_defaults_compute_without_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["data-parallel-scaling"]) == 0
    assert capsys.readouterr().out.splitlines() == _human(
        "data-parallel-scaling",
        CALCULATORS["data-parallel-scaling"].mode("predict"),
        {
            "ideal": "128,000 samples/s",
            "actual": "115,200 samples/s",
            "speedup": "57.6×",
            "lost": "12,800 samples/s",
        },
    )


def test_percent_outputs_print_as_percent_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pipeline-bubble", "--stages", "16", "--micro-batches", "128"]) == 0
    out = capsys.readouterr().out
    assert "11.72%" in out
    assert "10.49%" in out
    assert "89.51%" in out


def test_measure_mode_prints_the_super_linear_warning(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["data-parallel-scaling", "measure", "--measured", "130000"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "101.56%" in out
    assert "warning: efficiency above 100 % (super-linear scaling)" in out


def test_an_empty_optional_input_prints_a_dash(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["effective-batch-size", "accumulation", "--sequence-length", ""]) == 0
    assert capsys.readouterr().out.splitlines() == _human(
        "effective-batch-size",
        CALCULATORS["effective-batch-size"].mode("accumulation"),
        {"data_parallel": "12 replicas", "accumulation_steps": "128", "tokens_per_step": "—"},
    )


@pytest.mark.parametrize(
    ("calculator", "mode"), MODES, ids=lambda x: x.name if isinstance(x, Mode) else x.slug
)
def test_json_prints_exactly_the_browser_boundary_reply(
    calculator: Calculator, mode: Mode, capsys: pytest.CaptureFixture[str]
) -> None:
    slug = calculator.slug
    assert main([slug, mode.name, "--json"]) == 0
    expected = evaluate(slug, json.dumps({"mode": mode.name, **mode.defaults()}))
    assert capsys.readouterr().out == expected + "\n"


def test_the_mode_word_may_be_left_out_for_the_default_mode(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["effective-batch-size", "--world-size", "64", "--json"]) == 0
    without = capsys.readouterr().out
    assert main(["effective-batch-size", "global-batch", "--world-size", "64", "--json"]) == 0
    assert capsys.readouterr().out == without
    assert json.loads(without)["outputs"]["global_batch"] == 2 * 4 * 64


def test_bad_input_exits_2_with_every_error_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "data-parallel-scaling",
        "--devices",
        "0",
        "--throughput",
        "fast",
        "--efficiency",
        "101",
    ]
    assert main(argv) == EXIT_BAD_INPUT == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "parallelism-calc data-parallel-scaling: error: --devices: must be at least 1",
        "parallelism-calc data-parallel-scaling: error: --throughput: not a number",
        "parallelism-calc data-parallel-scaling: error: --efficiency: must be at most 100",
    ]


@pytest.mark.parametrize(
    ("argv", "flag", "code", "bound"),
    [
        (
            ["effective-batch-size", "--world-size", "100", "--tensor-parallel", "8"],
            "--world-size",
            "not_divisible",
            8,
        ),
        (
            ["effective-batch-size", "accumulation", "--global-batch", "1000"],
            "--global-batch",
            "not_divisible",
            12,
        ),
        (
            ["pipeline-bubble", "--chunks", "2", "--micro-batches", "6"],
            "--micro-batches",
            "not_divisible",
            4,
        ),
        (["pipeline-bubble", "--stages", "4.5"], "--stages", "not_an_integer", None),
        (["data-parallel-scaling", "--devices", "1e309"], "--devices", "above_maximum", 10_000_000),
        (["data-parallel-scaling", "--devices", "nan"], "--devices", "not_a_number", None),
        (["data-parallel-scaling", "--devices", ""], "--devices", "required", None),
    ],
)
def test_bad_input_message_names_the_flag_and_words_the_code(
    argv: list[str], flag: str, code: str, bound: int | None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert (
        capsys.readouterr().err
        == f"parallelism-calc {argv[0]}: error: {flag}: {english(code, bound)}\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["no-such-calculator"],
        ["data-parallel-scaling", "--no-such-input", "1"],
        ["data-parallel-scaling", "--devices"],
        ["data-parallel-scaling", "simulate"],
    ],
    ids=repr,
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert "usage: parallelism-calc" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["--version"])
    assert raised.value.code == 0
    assert capsys.readouterr().out.strip() == __version__


def test_top_level_help_lists_every_calculator(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for calculator in CALCULATORS.values():
        assert calculator.slug in out
        assert calculator.summary in out


@pytest.mark.parametrize("slug", list(CALCULATORS))
def test_help_after_the_slug_is_the_default_modes_and_names_the_others(
    slug: str, capsys: pytest.CaptureFixture[str]
) -> None:
    calculator = CALCULATORS[slug]
    with pytest.raises(SystemExit) as raised:
        main([slug, "--help"])
    assert raised.value.code == 0
    out = capsys.readouterr().out
    assert f"usage: parallelism-calc {slug} {calculator.default_mode.name} " in out
    assert f"{calculator.title}: {calculator.default_mode.label.lower()}." in out
    for mode in calculator.modes[1:]:
        assert mode.name in out.split("Other modes: ")[1].split(".")[0]
    if len(calculator.modes) == 1:
        assert "Other modes" not in out


def _help_entries(text: str) -> dict[str, str]:
    """Each option's help entry, by flag, with argparse's continuation lines joined."""
    entries: dict[str, str] = {}
    flag = ""
    for line in text.splitlines():
        if line.startswith("  -"):
            flag = line.split()[0]
            entries[flag] = line
        elif line.startswith("    ") and flag:
            entries[flag] += " " + line.strip()
        else:
            flag = ""
    return entries


@pytest.mark.parametrize(
    ("calculator", "mode"), MODES, ids=lambda x: x.name if isinstance(x, Mode) else x.slug
)
def test_mode_help_lists_every_input_with_unit_bounds_and_default(
    calculator: Calculator, mode: Mode, capsys: pytest.CaptureFixture[str]
) -> None:
    slug = calculator.slug
    with pytest.raises(SystemExit) as raised:
        main([slug, mode.name, "--help"])
    assert raised.value.code == 0
    out = capsys.readouterr().out
    entries = _help_entries(out)
    assert [flag for flag in entries if flag not in ("-h,", "--json")] == [
        _flag(spec) for spec in mode.inputs
    ]
    for spec in mode.inputs:
        line = entries[_flag(spec)]
        assert spec.label in line
        assert spec.help in line
        if isinstance(spec, Choice):
            assert "{" + ",".join(spec.values) + "}" in line
            for option in spec.options:
                assert f"{option.value}: {option.label}" in line
            assert f"default {spec.default})" in line
            continue
        if spec.unit:
            assert f"[{spec.unit}]" in line
        assert ("whole number" if spec.integer else "number") in line
        if spec.minimum is not None:
            assert f"{'>' if spec.exclusive_minimum else '>='} {_number(spec.minimum)}" in line
        assert f"<= {_number(spec.maximum)}" in line
        default = "empty" if spec.default is None else _number(spec.default)
        assert f"default {default})" in line
        assert (", optional;" in line) == spec.optional
    epilog = out.split("Outputs: ")[1]
    for output in mode.outputs:
        assert f"{output.name} (" in epilog


def test_a_choice_is_given_by_its_value_and_anything_else_is_refused_by_argparse(
    capsys: pytest.CaptureFixture[str],
) -> None:
    base = ["data-parallel-scaling", "estimate", "--devices", "1024", "--latency", "3.4"]
    assert main([*base, "--network-latency", "14", "--algorithm", "tree", "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["display"]["latency_time"] == "19.488"
    with pytest.raises(SystemExit) as raised:
        main([*base, "--algorithm", "butterfly"])
    assert raised.value.code == EXIT_BAD_INPUT
    assert "invalid choice: 'butterfly'" in capsys.readouterr().err


def test_a_cross_field_refusal_of_a_choice_names_its_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["data-parallel-scaling", "estimate", "--algorithm", "tree", "--sharding", "zero-3"]
    assert main(argv) == EXIT_BAD_INPUT
    assert "--algorithm: NCCL has a tree for all-reduce only" in capsys.readouterr().err


def test_python_dash_m_calculator_runs_the_command_line() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "calculator", "pipeline-bubble", "--stages", "4", "--json"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    expected = evaluate("pipeline-bubble", '{"stages": 4, "micro_batches": 8, "chunks": 1}')
    assert completed.stdout == expected + "\n"
    assert json.loads(completed.stdout)["display"]["bubble_overhead"] == "0.375"


@pytest.mark.parametrize(
    ("argv", "status"), [(["pipeline-bubble"], 0), (["pipeline-bubble", "--stages", "0"], 2)]
)
def test_the_main_module_exits_with_mains_status(
    argv: list[str],
    status: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "argv", ["python -m calculator", *argv])
    with pytest.raises(SystemExit) as raised:
        runpy.run_module("calculator", run_name="__main__", alter_sys=True)
    assert raised.value.code == status
    capsys.readouterr()


def test_json_prints_the_failure_reply_on_stdout_and_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["pipeline-bubble", "--stages", "0", "--chunks", "x", "--json"])
    out, err = capsys.readouterr()
    assert status == EXIT_BAD_INPUT
    assert err == ""
    expected = evaluate(
        "pipeline-bubble",
        json.dumps({"mode": "bubble", "stages": "0", "micro_batches": 8, "chunks": "x"}),
    )
    assert out.strip() == expected
    assert [error["field"] for error in json.loads(out)["errors"]] == ["stages", "chunks"]


def test_units_agree_with_their_number(capsys: pytest.CaptureFixture[str]) -> None:
    main(["effective-batch-size", "--world-size", "8", "--tensor-parallel", "8"])
    out = capsys.readouterr().out
    assert "1 replica\n" in out
    main(["effective-batch-size", "--world-size", "16", "--tensor-parallel", "8"])
    assert "2 replicas\n" in capsys.readouterr().out


def test_a_fault_without_a_field_is_reported_without_a_flag(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise ZeroDivisionError

    monkeypatch.setattr("calculator.web.run", broken)
    assert main(["pipeline-bubble"]) == EXIT_BAD_INPUT
    assert (
        capsys.readouterr().err.strip().endswith("error: internal error (a bug: please report it)")
    )


# --------------------------------------------------------------------------- tables

PLANNER = get("training-planner")


# The search on one device of the test of the search by hand, at 1 GFLOP/s: b = 1 to 512
# without recomputation, tied, then b = 1,024 with full recomputation.
ONE_DEVICE = [
    "training-planner",
    *("--layers", "2", "--hidden", "4", "--heads", "2", "--vocabulary", "10"),
    *("--sequence", "3", "--devices", "1", "--devices-per-node", "1", "--peak", "0.001"),
    *("--efficiency", "100", "--memory", "0.001", "--latency", "0", "--global-batch", "1024"),
]


def test_a_table_prints_its_compact_columns_under_wrapped_headings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(ONE_DEVICE) == 0
    lines = capsys.readouterr().out.splitlines()
    row = (
        "  {:>2}.        1         1         1       1  {:>11}      0  {:>13}"
        "          off       0  {}"
    )
    assert lines == [
        "Training planner: search the layouts",
        "  Layouts considered           11",
        "  Layouts that fit             11",
        "  Fastest step time            0.009 s",
        "  Its model FLOPs utilisation  100%",
        "",
        "  Fastest plans",
        "      Tensor-   Pipeline  Data-     Model   Micro-batch  ZeRO   Activation     Sequence"
        "     Memory  Step   Model FLOPs",
        "      parallel  stages    parallel  chunks  (sequences)  stage  recomputation  parallelism"
        "  per     time   utilisation",
        "      degree              replicas  per                                                "
        "     device         (%)",
        "                                    device                                             "
        "     (GB)",
        *(row.format(k + 1, 2**k, "none", "0.009          100") for k in range(10)),
        row.format(11, "1,024", "full", "0.011         76.6"),
    ]


def test_an_empty_table_prints_a_dash_and_the_warning_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["training-planner", "--memory", "0.001"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-3:] == [
        "  Fastest plans",
        "  —",
        f"  warning: {WARNINGS['nothing_fits']}",
    ]


def test_json_prints_the_reply_with_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ONE_DEVICE, "--json"]) == 0
    out = capsys.readouterr().out
    search = PLANNER.mode("search")
    request = {**search.defaults(), "layers": "2", "hidden": "4", "heads": "2"}
    request |= {"vocabulary": "10", "sequence": "3", "devices": "1", "devices_per_node": "1"}
    request |= {"peak": "0.001", "efficiency": "100", "memory": "0.001", "latency": "0"}
    request |= {"global_batch": "1024", "mode": "search"}
    assert out == evaluate(PLANNER.slug, json.dumps(request)) + "\n"
    assert len(json.loads(out)["display"]["plans"]) == 11


def test_the_help_names_the_table_among_the_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["training-planner", "--help"])
    out = capsys.readouterr().out
    assert "usage: parallelism-calc training-planner search " in out
    assert "plans (a table of up to 20 rows)" in " ".join(out.split())
