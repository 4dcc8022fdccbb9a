// Runs every case of tests/cases.py through calculator.web.evaluate inside
// Pyodide, under Node, offline, and prints one JSON document on stdout:
//
//   {"python": sys.version, "platform": sys.platform, "pyodide": version,
//    "check": {kind: count}, "seconds": {...},
//    "requests": {id: [slug, request]}, "replies": {id: reply},
//    "parity": {id: reply}}
//
// "parity" holds the replies to the requests of an optional JSON file, a list
// of [id, slug, request, notation] (notation: a JSON string, or null for none),
// which tests/test_pyodide.py draws at random from the registry's declarations.
// A request with a notation is evaluated as the page's worker does,
// evaluate(slug, request, notation); one without, with two arguments.
//
// The repository's calculator/ package and tests/cases.py are copied into
// Pyodide's virtual file system, so the code under test is exactly the files on
// disk. Only strings cross between JavaScript and Python, as in the page's
// worker: each request goes in as a JS string and each reply comes back as one.
// tests/test_pyodide.py compares the replies, byte for byte, with CPython's.
//
// Usage: node tests/pyodide/run_cases.mjs [parity.json]   (exit status 1 on any failure)

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide, version } from "pyodide";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const root = "/home/pyodide/proof";

// Copy a directory's Python sources (and py.typed) into Pyodide's file system.
function copyTree(FS, from, to) {
  FS.mkdirTree(to);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__pycache__") copyTree(FS, source, `${to}/${entry.name}`);
    } else if (entry.name.endsWith(".py") || entry.name === "py.typed") {
      FS.writeFile(`${to}/${entry.name}`, readFileSync(source));
    }
  }
}

async function main() {
  const started = performance.now();
  // Pyodide's own prints go to stderr: stdout carries the JSON document only.
  const pyodide = await loadPyodide({
    stdout: (line) => process.stderr.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
  const loaded = performance.now();

  copyTree(pyodide.FS, path.join(repo, "calculator"), `${root}/calculator`);
  pyodide.FS.writeFile(`${root}/cases.py`, readFileSync(path.join(repo, "tests", "cases.py")));

  // The known values, refusals and garbage are asserted in Python first
  // (cases.check raises on the first mismatch), then listed for the JS loop.
  const listing = pyodide.runPython(`
import json
import sys

sys.path.insert(0, ${JSON.stringify(root)})
sys.dont_write_bytecode = True

import calculator
import cases

if not calculator.__file__.startswith(${JSON.stringify(root)}):
    raise RuntimeError(f"imported the wrong calculator package: {calculator.__file__}")

json.dumps(
    {
        "python": sys.version,
        "platform": sys.platform,
        "check": cases.check(),
        "cases": [[case.id, case.slug, case.text] for case in cases.all_requests()],
    }
)
`);
  const checked = performance.now();
  const { python, platform, check, cases } = JSON.parse(listing);

  const evaluate = pyodide.pyimport("calculator.web").evaluate;
  const requests = {};
  const replies = {};
  try {
    for (const [id, slug, request] of cases) {
      const reply = evaluate(slug, request);
      if (typeof reply !== "string") {
        throw new Error(`${id}: evaluate returned a ${typeof reply}, not a string`);
      }
      requests[id] = [slug, request];
      replies[id] = reply;
    }
  } finally {
    evaluate.destroy();
  }
  const evaluated = performance.now();

  const parity = {};
  const parityFile = process.argv[2];
  if (parityFile) {
    const listing = JSON.parse(readFileSync(parityFile, "utf-8"));
    const evaluate = pyodide.pyimport("calculator.web").evaluate;
    try {
      for (const [id, slug, request, notation] of listing) {
        const reply =
          notation === null ? evaluate(slug, request) : evaluate(slug, request, notation);
        if (typeof reply !== "string") {
          throw new Error(`${id}: evaluate returned a ${typeof reply}, not a string`);
        }
        parity[id] = reply;
      }
    } finally {
      evaluate.destroy();
    }
  }
  const finished = performance.now();

  const seconds = (from, to) => Math.round(to - from) / 1000;
  process.stdout.write(
    JSON.stringify({
      python,
      platform,
      pyodide: version,
      check,
      seconds: {
        load: seconds(started, loaded),
        check: seconds(loaded, checked),
        evaluate: seconds(checked, evaluated),
        parity: seconds(evaluated, finished),
        total: seconds(started, finished),
      },
      requests,
      replies,
      parity,
    }),
  );
  process.stdout.write("\n");
}

main().catch((error) => {
  process.stderr.write(`run_cases.mjs: ${error?.stack ?? error}\n`);
  process.exit(1);
});
