"""The training planner's search, timed in CPython and in Pyodide, side by side in one run.

``python -m bench.search`` (also a part of ``python -m bench``, ``--skip search`` to leave
it out): the request is the largest published run the planner is checked against,
Narayanan et al. 2021 Table 1's 1T model on 3,072 A100 with its global batch (the model
from :data:`calculator.calculators.planner_runs.RUNS`, the cluster from its
``A100_CLUSTER``, the search's defaults for the rest, as the page's form sends them). It
goes through ``calculator.web.evaluate``, the page's one entry point, as a JSON string:
first in this process, then in Pyodide under Node, booted as the page's worker boots it
(the site's standard library, package index and served wheel, from :mod:`calcsite`, as
``tests/pyodide/run_cases.mjs`` does). Each runtime evaluates it :data:`WARMUPS` times,
untimed, then :data:`CALLS` times, each call timed alone; both must reply with the same
success, so that what was timed is a search and not a refusal.

Under Node rather than in the page: the time of ``evaluate`` itself, without the worker's
messages and the page's rendering of the reply, which the recompute table measures on
every calculator page.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from calcsite import runtime, stdlib, wheel
from calcsite.performance import RUNTIMES, targets

from calculator.calculators import training_planner as planner
from calculator.calculators.planner_runs import A100_CLUSTER, RUNS
from calculator.web import evaluate

from . import ROOT
from .stats import percentile

SLUG = "training-planner"
RUN = "narayanan-2021-1t"
"""The published run whose model, devices and batch are searched."""
WARMUPS = 3
CALLS = 30
PYODIDE = ROOT / "node_modules" / "pyodide"
TIMEOUT_S = 600
"""For the whole Node run: a few seconds on an idle machine."""

# Argument vector: pyodide.mjs, the standard library (a zip), the package index, the
# core's wheel (a zip), the request (a JSON file), the slug, warm-ups, calls. Pyodide's
# own prints go to stderr: stdout carries the JSON document only.
_NODE = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [module, stdLibURL, lockFileURL, wheel, request, slug, warmups, calls] =
  process.argv.slice(1);
const { loadPyodide, version } = await import(pathToFileURL(module).href);
const print = (line) => process.stderr.write(`${line}\\n`);
const pyodide = await loadPyodide({ stdLibURL, lockFileURL, stdout: print, stderr: print });
pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel");
const evaluate = pyodide.runPython("from calculator.web import evaluate\\nevaluate");
const text = readFileSync(request, "utf-8");
const times = [];
let reply = "";
for (let index = 0; index < Number(warmups) + Number(calls); index += 1) {
  const start = performance.now();
  reply = evaluate(slug, text);
  const end = performance.now();
  if (index >= Number(warmups)) times.push(end - start);
}
evaluate.destroy();
process.stdout.write(JSON.stringify({ version, times, reply }));
"""


def request() -> dict[str, int | float | str]:
    """The search's fields for the published run :data:`RUN`, as the form sends them."""
    (published,) = (run for run in RUNS if run.id == RUN)
    search = planner.CALCULATOR.mode("search")
    model = {k: v for k, v in published.inputs.items() if k not in planner.LAYOUT}
    defaults = {k: v for k, v in search.defaults().items() if v is not None}
    return {**defaults, **A100_CLUSTER, **model, "mode": search.name}


def summary(times: list[float]) -> dict[str, Any]:
    """The median, 95th percentile and slowest of ``times`` (ms), and the times, rounded."""
    return {
        "p50": round(percentile(times, 50), 2),
        "p95": round(percentile(times, 95), 2),
        "max": round(max(times), 2),
        "times": [round(ms, 2) for ms in times],
    }


def _cpython(text: str, warmups: int, calls: int) -> tuple[list[float], str]:
    reply = ""
    times = []
    for index in range(warmups + calls):
        start = time.perf_counter()
        reply = evaluate(SLUG, text)
        end = time.perf_counter()
        if index >= warmups:
            times.append((end - start) * 1000)
    return times, reply


def _pyodide(text: str, warmups: int, calls: int) -> tuple[list[float], str, str]:
    """The times, the last reply and Pyodide's version; a RuntimeError if Node fails."""
    _, served = wheel.served_wheel(ROOT)
    files = {
        # Pyodide under Node reads paths; the site's gzip streams are inflated here.
        "python_stdlib.zip": gzip.decompress(stdlib.stdlib_archive(PYODIDE)),
        runtime.LOCK: runtime.minimal_lock(PYODIDE),
        "core.whl": gzip.decompress(served),
        "request.json": text.encode(),
    }
    with tempfile.TemporaryDirectory(prefix="bench-search-") as folder:
        for name, content in files.items():
            (Path(folder) / name).write_bytes(content)
        paths = [str(PYODIDE / "pyodide.mjs"), *(str(Path(folder) / name) for name in files)]
        log = Path(folder) / "stderr.txt"
        # Into a file: a pipe loses the end of an error that Node prints after a
        # megabyte of Pyodide's minified source.
        with log.open("w", encoding="utf-8") as stderr:
            done = subprocess.run(
                [
                    "node",
                    "--input-type=module",
                    "-e",
                    _NODE,
                    *paths,
                    SLUG,
                    str(warmups),
                    str(calls),
                ],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                timeout=TIMEOUT_S,
                check=False,
            )
        if done.returncode != 0:
            tail = log.read_text(encoding="utf-8", errors="replace").strip()[-2000:]
            raise RuntimeError(f"Pyodide under Node failed: {tail}")
    found = json.loads(done.stdout)
    return [float(ms) for ms in found["times"]], str(found["reply"]), str(found["version"])


def measure(warmups: int = WARMUPS, calls: int = CALLS) -> dict[str, Any]:
    """Time the search in each runtime: the results' ``search`` part.

    Raises:
        RuntimeError: If Node fails, or a reply is not a success or differs between runtimes.
    """
    fields = request()
    text = json.dumps(fields)
    times, reply = _cpython(text, warmups, calls)
    in_pyodide, pyodide_reply, version = _pyodide(text, warmups, calls)
    if not json.loads(reply)["ok"]:
        raise RuntimeError(f"the search was refused: {reply[:500]}")
    if pyodide_reply != reply:
        raise RuntimeError("Pyodide's reply differs from CPython's")
    (published,) = (run for run in RUNS if run.id == RUN)
    measured = dict(zip(RUNTIMES, (summary(times), summary(in_pyodide)), strict=True))
    return {
        "calculator": SLUG,
        "run": RUN,
        "parameters_b": published.parameters,
        "devices": fields["devices"],
        "request": fields,
        "warmups": warmups,
        "calls": calls,
        "versions": {"cpython": sys.version.split()[0], "pyodide": version},
        **measured,
    }


def main() -> int:
    """Measure; print each runtime's figures and the target's row. 1 if it cannot run."""
    try:
        part = measure()
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as error:
        print(f"bench.search: {error}", file=sys.stderr)
        return 1
    for name in RUNTIMES:
        figures = ", ".join(f"{key} {part[name][key]} ms" for key in ("p50", "p95", "max"))
        print(f"{name} {part['versions'][name]}: {figures}")
    for label, shown, holds in targets({"search": part}):
        print(f"{label}: {shown}, {'met' if holds else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
