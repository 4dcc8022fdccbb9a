"""The same core computes identically under Pyodide 314 (Python 3.14) in Node, offline.

``tests/pyodide/run_cases.mjs`` loads Pyodide from ``node_modules/pyodide`` as
the page's worker does, with the site's own standard library and package index
(built here by :mod:`calcsite.stdlib` and :mod:`calcsite.runtime`, as the site
build builds them), unpacks the core's wheel as the site serves it
(:mod:`calcsite.wheel`), and sends every case through
``calculator.web.evaluate`` as strings; then it runs ``cases.check()``. Here each
reply is held to CPython's, byte for byte, what the page imported from the
standard library to the list the site's archive is made from, and what it
imported of the core to the served wheel's modules: a module the core starts
to import fails the run (it is not in the archive, or not in the wheel), one
it no longer imports fails the comparison.
``PYTHONPATH=overrides/hooks python -m tests.test_pyodide --record`` records the
list again, from a run with Pyodide's full standard library. A missing
``node`` or ``node_modules/pyodide`` fails these tests: the proof is never skipped.

On top of the fixed cases, :func:`parity_requests` draws, with a fixed seed and
from the registry's declarations alone, at least :data:`PARITY_PER_CALCULATOR`
valid requests per calculator (every mode, values anywhere within the bounds,
written as a script, a link or a reader of each site language would write them,
with and without the page's notation); the script evaluates them in Pyodide and
each reply must be CPython's, byte for byte.
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import math
import random
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pytest
from calcsite import engine, runtime, stdlib, stdlib_files, wheel
from calcsite.formatting import notation
from calcsite.messages import CATALOGS

from calculator import CALCULATORS
from calculator.notation import Notation
from calculator.spec import Choice, Field, Input, Mode
from calculator.web import evaluate
from tests import cases

pytestmark = [
    pytest.mark.pyodide,
    # One Node run answers every test here (``_outcome``, cached per process): in one
    # pytest-xdist worker, it runs once. It takes the standard library from the build
    # cache, made once per run.
    pytest.mark.xdist_group("pyodide"),
    pytest.mark.usefixtures("engine_cache"),
]

REPO = Path(__file__).resolve().parents[1]
RUNNER = REPO / "tests" / "pyodide" / "run_cases.mjs"
NODE_FLAGS = ["--liftoff-only"]
"""V8 compiles Pyodide's module once, with its baseline compiler, as the browser tests' chromium.

The optimising tier recompiles the 9.6 MB module in the background while the
cases run: this file alone took 24.1 CPU-seconds with it and 19.5 without,
measured side by side here. What Python computes is the same; only its speed,
which nothing here times, changes.
"""
PYODIDE = REPO / "node_modules" / "pyodide"
TIMEOUT = 600
"""Seconds for the whole Node run: a few on an idle machine, far more on a loaded one."""

HOOKS = REPO / "overrides" / "hooks"

LIST = HOOKS / "calcsite" / "stdlib_files.py"
RECORD = stdlib.RECORD

PARITY_SEED = 20261201
PARITY_PER_CALCULATOR = 1_000
"""Valid random requests per calculator, each evaluated by CPython and by Pyodide."""
NOTATIONS: tuple[str | None, ...] = (
    None,
    *(notation(language).as_json() for language in sorted(CATALOGS)),
)
"""No notation (a script, the CLI), and each site language's, as its pages send it."""


@dataclass(frozen=True)
class Parity:
    """One random request: what the worker passes to ``evaluate``."""

    id: str
    slug: str
    request: str
    notation: str | None
    reply: str
    """CPython's reply, from the draw that found the request valid."""


def _draw(rng: random.Random, spec: Input, high: float | None = None) -> int | float:
    """A value ``spec`` accepts, at most ``high`` if given, of any magnitude."""
    top = float(spec.maximum or 0) if high is None else min(high, float(spec.maximum or 0))
    while True:
        value = _whole(rng, spec, top) if spec.integer else _real(rng, spec, top)
        if spec.accepts(value) and value <= top:
            return value


def _whole(rng: random.Random, spec: Input, top: float) -> int:
    low = math.ceil(spec.minimum or 0)
    high = max(low, math.floor(top))
    kind = rng.random()
    powers = [2**k for k in range(64) if low <= 2**k <= high]
    if kind < 0.35 and powers:
        return int(rng.choice(powers))  # as clusters are sized
    if kind < 0.6:
        return rng.randint(low, min(high, low + 100))
    if kind < 0.9:
        return round(math.exp(rng.uniform(math.log(max(low, 1)), math.log(max(high, 1)))))
    return rng.randint(low, high)


def _real(rng: random.Random, spec: Input, top: float) -> float:
    low = float(spec.minimum or 0)
    if rng.random() < 0.5:
        value = rng.uniform(low, top)
    else:
        floor = min(max(low, top * 1e-12, 1e-9), top)
        value = math.exp(rng.uniform(math.log(floor), math.log(top)))
    digits = rng.choice([0, 1, 2, 3, 6, None])
    rounded = value if digits is None else round(value, digits)
    return rounded if spec.accepts(rounded) and rounded <= top else value


def _pick(rng: random.Random, spec: Field) -> int | float | str | None:
    """A value for one field: an option of a choice, a number, or empty where optional."""
    if isinstance(spec, Choice):
        return rng.choice(spec.values)
    return None if spec.optional and rng.random() < 0.25 else _draw(rng, spec)


def _valid_values(
    rng: random.Random, slug: str, mode: Mode
) -> dict[str, int | float | str | None] | None:
    """Values within every input's bounds that the core computes, or ``None``.

    A draw refused by a rule across fields is repaired from the refusal alone:
    ``not_divisible`` asks for a multiple of its bound, ``above_maximum`` for a
    value below it. No rule of any calculator is written here.
    """
    specs = {spec.name: spec for spec in mode.inputs}
    values = {name: _pick(rng, spec) for name, spec in specs.items()}
    for _ in range(4):
        given = {name: value for name, value in values.items() if value is not None}
        reply = json.loads(evaluate(slug, json.dumps({"mode": mode.name, **given})))
        if reply["ok"]:
            return values
        for error in reply["errors"]:
            spec, bound = specs.get(error["field"]), error["bound"]
            if not isinstance(spec, Input) or bound is None:
                return None
            if error["code"] == "not_divisible" and float(spec.maximum or 0) >= bound:
                most = int(float(spec.maximum or 0) // bound)
                factors = [k for k in (1, 2, 4) if k <= most] + [rng.randint(1, most)]
                values[spec.name] = bound * rng.choice(factors)
            elif error["code"] == "above_maximum":
                values[spec.name] = _draw(rng, spec, high=bound)
            else:
                return None
    return None


def _grouped(plain: str, language: Notation, separator: str) -> str:
    """A non-negative plain decimal with its whole part grouped (``1 234 567,5``)."""
    whole, dot, fraction = plain.partition(".")
    size = language.group_size
    head = len(whole) % size or size
    groups = [whole[:head], *(whole[i : i + size] for i in range(head, len(whole), size))]
    return separator.join(groups) + (language.decimal + fraction if dot else "")


def _written(rng: random.Random, value: int | float | str, language: Notation | None) -> object:
    """The value as someone would send it: a JSON number, or text of several kinds."""
    if isinstance(value, str):
        return value  # a choice: the same word in every language
    plain = str(value) if isinstance(value, int) else format(Decimal(repr(value)), "f")
    choices: list[object] = [value, plain, repr(value)]
    if isinstance(value, float):
        choices.append(f"{value:e}")
    if language is not None:
        choices.append(language.write(plain))
        separators = {language.group}
        if language.group.isspace():
            separators |= {" ", "\u00a0", "\u202f"}
        choices.extend(_grouped(plain, language, sep) for sep in sorted(separators))
    written = rng.choice(choices)
    if isinstance(written, str) and rng.random() < 0.1:
        written = f" {written} "  # pasted with spaces around
    return written


def _random_request(rng: random.Random, slug: str, notation_json: str | None) -> str | None:
    """A valid request for a random mode of ``slug``, written for ``notation_json``."""
    calculator = CALCULATORS[slug]
    mode = rng.choice(calculator.modes)
    values = _valid_values(rng, slug, mode)
    if values is None:
        return None
    language = None if notation_json is None else Notation.from_json(notation_json)
    body: dict[str, object] = {}
    for name, value in values.items():
        if value is not None:
            body[name] = _written(rng, value, language)
        elif rng.random() < 0.5:
            body[name] = ""  # an optional field left empty; otherwise left out
    if mode.name != calculator.modes[0].name or rng.random() < 0.8:
        body["mode"] = mode.name
    return json.dumps(body, ensure_ascii=False)


@functools.cache
def parity_requests() -> tuple[Parity, ...]:
    """Valid random requests, :data:`PARITY_PER_CALCULATOR` per calculator, seeded.

    Valid: CPython computes them, whatever notation they are written in (a draw
    that cannot be repaired, see :func:`_valid_values`, is drawn again).
    """
    rng = random.Random(PARITY_SEED)
    drawn: list[Parity] = []
    for slug in CALCULATORS:
        kept = 0
        for attempt in range(PARITY_PER_CALCULATOR * 20):
            notation_json = NOTATIONS[attempt % len(NOTATIONS)]
            request = _random_request(rng, slug, notation_json)
            if request is None:
                continue
            reply = _cpython_reply(slug, request, notation_json)
            if not json.loads(reply)["ok"]:
                continue
            drawn.append(Parity(f"{slug}/{kept:04d}", slug, request, notation_json, reply))
            kept += 1
            if kept == PARITY_PER_CALCULATOR:
                break
    return tuple(drawn)


def _cpython_reply(slug: str, request: str, notation_json: str | None) -> str:
    """What the page's call would get from CPython: no notation argument where it sends none."""
    if notation_json is None:
        return evaluate(slug, request)
    return evaluate(slug, request, notation_json)


def _run(parity: tuple[Parity, ...], served: bool) -> dict[str, object] | str:
    """Run the Node script; return its document, or why it could not run.

    ``served``: with the standard library and package index the site serves,
    else with the npm package's own.
    """
    node = shutil.which("node")
    if node is None:
        return "node is not on PATH: install Node.js 20 to run the Pyodide proof"
    if not (PYODIDE / "pyodide.mjs").is_file() or not (PYODIDE / "pyodide.asm.wasm").is_file():
        return f"{PYODIDE} is missing or incomplete: run `npm ci` to install Pyodide"
    with tempfile.TemporaryDirectory() as folder:
        files = Path(folder)
        listing = {
            "cases": [[case.id, case.slug, case.text] for case in cases.all_requests()],
            "parity": [[case.id, case.slug, case.request, case.notation] for case in parity],
        }
        (files / "requests.json").write_text(json.dumps(listing, ensure_ascii=False), "utf-8")
        name, packed = wheel.served_wheel(REPO)
        (files / name).write_bytes(packed)
        arguments = [str(files / "requests.json"), str(files / name)]
        if served:
            (files / engine.SITE_STDLIB).write_bytes(stdlib.stdlib_archive(PYODIDE))
            (files / runtime.LOCK).write_bytes(runtime.minimal_lock(PYODIDE))
            arguments += [str(files / engine.SITE_STDLIB), str(files / runtime.LOCK)]
        try:
            completed = subprocess.run(
                [node, *NODE_FLAGS, str(RUNNER), *arguments],
                cwd=REPO,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return f"{RUNNER.name} did not finish within {TIMEOUT} s"
    if completed.returncode != 0:
        return f"{RUNNER.name} exited with {completed.returncode}:\n{completed.stderr}"
    document = json.loads(completed.stdout)
    assert isinstance(document, dict)
    return document


@functools.cache
def _outcome() -> dict[str, object] | str:
    """The page's runtime: the site's standard library, every case and parity request."""
    try:
        return _run(parity_requests(), served=True)
    except (runtime.PackageError, stdlib.StdlibError, wheel.WheelError) as error:
        return f"the site's standard library could not be built: {error}"


def run_in_pyodide() -> dict[str, object]:
    outcome = _outcome()
    if isinstance(outcome, str):
        pytest.fail(outcome, pytrace=False)
    return outcome


def test_pyodide_ran_python_3_14_under_emscripten() -> None:
    document = run_in_pyodide()
    assert str(document["python"]).startswith("3.14."), document["python"]
    assert document["platform"] == "emscripten"
    assert str(document["pyodide"]).startswith("314."), document["pyodide"]


def test_pyodide_passed_every_known_value_refusal_and_garbage_check() -> None:
    assert run_in_pyodide()["check"] == {
        "known": len(cases.KNOWN),
        "refused": len(cases.REFUSED),
        "boundary": len(cases.BOUNDARY),
        "garbage": cases.GARBAGE_COUNT,
    }


def test_pyodide_evaluated_exactly_the_requests_cpython_generates() -> None:
    document = run_in_pyodide()
    expected = {case.id: [case.slug, case.text] for case in cases.all_requests()}
    assert document["requests"] == expected
    # And the cases module, run in Pyodide, lists the very same requests.
    assert document["listed"] == expected


def test_pyodide_booted_with_the_standard_library_the_site_serves() -> None:
    archive = run_in_pyodide()["archive"]
    assert archive == {
        "bytes": len(gzip.decompress(stdlib.stdlib_archive(PYODIDE))),
        "lock": json.loads(runtime.minimal_lock(PYODIDE)),
    }


def test_the_page_imports_exactly_the_listed_standard_library() -> None:
    """What the page imported is the list the archive is made from, no more, no less."""
    modules = run_in_pyodide()["modules"]
    assert isinstance(modules, dict)
    recorded, listed = set(modules["files"]), set(stdlib_files.FILES)
    assert recorded == listed, (
        f"no longer imported: {sorted(listed - recorded)}; run `{RECORD}` to update {LIST.name}"
    )
    assert tuple(modules["builtin"]) == stdlib_files.BUILTIN, f"run `{RECORD}`"


def test_the_page_imports_exactly_the_modules_of_the_served_wheel() -> None:
    """Every module of the core the served wheel holds, and no other, is what the page imported.

    From the wheel alone (unpacked in the working directory, as the worker
    unpacks it): a module it lacked would have failed the run.
    """
    core = run_in_pyodide()["core"]
    served = zipfile.ZipFile(io.BytesIO(gzip.decompress(wheel.served_wheel(REPO)[1])))
    modules = [name for name in served.namelist() if name.endswith(".py")]
    assert core == sorted(modules)


def test_pyodide_replies_are_byte_identical_to_cpython() -> None:
    replies = run_in_pyodide()["replies"]
    assert isinstance(replies, dict)
    expected = {case.id: evaluate(case.slug, case.text) for case in cases.all_requests()}
    assert replies.keys() == expected.keys()
    different = [case_id for case_id, reply in expected.items() if replies[case_id] != reply]
    assert different == [], f"{len(different)} replies differ, first: {different[:5]}"


def test_pyodide_replies_meet_the_known_value_expectations() -> None:
    replies = run_in_pyodide()["replies"]
    assert isinstance(replies, dict)
    for case in cases.all_requests():
        cases.verify(case, replies[case.id])


def test_pyodide_computes_results_not_only_refusals() -> None:
    replies = run_in_pyodide()["replies"]
    assert isinstance(replies, dict)
    garbage = [json.loads(replies[case.id]) for case in cases.garbage()]
    assert any(reply["ok"] for reply in garbage)
    assert any(not reply["ok"] for reply in garbage)


def test_parity_requests_are_seeded_valid_and_cover_every_mode_and_notation() -> None:
    drawn = parity_requests()
    per_calculator = Counter(case.slug for case in drawn)
    assert per_calculator == dict.fromkeys(CALCULATORS, PARITY_PER_CALCULATOR)
    modes = {(case.slug, json.loads(case.reply)["mode"]) for case in drawn}
    assert modes == {(c.slug, m.name) for c in CALCULATORS.values() for m in c.modes}
    assert {case.notation for case in drawn} == set(NOTATIONS)
    assert all(json.loads(case.reply)["ok"] for case in drawn)
    # The same seed draws the same requests: a failure can be replayed.
    parity_requests.cache_clear()
    assert parity_requests() == drawn


def test_pyodide_replies_to_random_valid_requests_are_byte_identical_to_cpython() -> None:
    replies = run_in_pyodide()["parity"]
    assert isinstance(replies, dict)
    expected = {case.id: case.reply for case in parity_requests()}
    assert replies.keys() == expected.keys()
    different = [
        f"{case.id} {case.request} notation={case.notation}:\n"
        f"  CPython {expected[case.id]}\n  Pyodide {replies[case.id]}"
        for case in parity_requests()
        if replies[case.id] != expected[case.id]
    ]
    assert different == [], f"{len(different)} replies differ:\n" + "\n".join(different[:5])


def listing(files: list[str], builtin: list[str], version: str) -> str:
    """The text of ``calcsite/stdlib_files.py`` for a recording."""
    return "\n".join(
        [
            '"""The standard library files the engine imports: recorded, do not edit by hand.',
            "",
            f"``{RECORD}``",
            f"runs the core's cases in Pyodide {version} (under Node, with its full standard",
            "library, booted and fed as the page's worker does: the core's wheel unpacked,",
            "``calculator.web.evaluate`` imported and called with every case and parity",
            "request) and writes here the files Python imported from its archive, Pyodide's",
            "own start-up included, and the modules built into Pyodide.",
            "The site's archive holds these files (``calcsite.stdlib.stdlib_archive``);",
            "``tests/test_pyodide.py`` fails when the page imports anything else.",
            '"""',
            "",
            f'PYODIDE = "{version}"',
            '"""The Pyodide the list was recorded with: the build refuses another."""',
            "",
            "FILES = (",
            *(f'    "{name}",' for name in files),
            ")",
            '"""Paths inside the npm package\'s ``python_stdlib.zip``."""',
            "",
            "BUILTIN = (",
            *(f'    "{name}",' for name in builtin),
            ")",
            '"""``sys.builtin_module_names`` in Pyodide: modules that need no file."""',
            "",
        ]
    )


def record() -> int:
    """Run the cases with Pyodide's full standard library; write the list of what it imported."""
    document = _run(parity_requests(), served=False)
    if isinstance(document, str):
        print(document, file=sys.stderr)
        return 1
    modules = document["modules"]
    assert isinstance(modules, dict)
    LIST.write_text(
        listing(modules["files"], modules["builtin"], str(document["pyodide"])), encoding="utf-8"
    )
    print(f"{LIST.relative_to(REPO)}: {len(modules['files'])} files")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        print(f"usage: {RECORD}", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(record())
