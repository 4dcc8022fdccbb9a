// Runs every case of tests/cases.py through calculator.web.evaluate inside
// Pyodide, under Node, offline, booted as the page's worker boots it, and
// prints one JSON document on stdout:
//
//   {"python": sys.version, "platform": sys.platform, "pyodide": version,
//    "check": {kind: count}, "seconds": {...},
//    "archive": {"bytes": size of the standard library, "lock": package index},
//    "modules": {"files": [archive path], "builtin": [module name]},
//    "core": [file of the core's modules imported, relative to the working directory],
//    "requests": {id: [slug, request]}, "replies": {id: reply},
//    "parity": {id: reply}}
//
// Usage: node tests/pyodide/run_cases.mjs REQUESTS WHEEL [STDLIB LOCK]
//
// REQUESTS is a JSON file {"cases": [[id, slug, request]], "parity": [[id,
// slug, request, notation]]} written by tests/test_pyodide.py: the cases of
// tests/cases.py as CPython lists them, and random valid requests (notation: a
// JSON string, or null for none). WHEEL is the core's wheel as the site serves
// it, one gzip stream. STDLIB and LOCK, when given, are the standard library
// (one gzip stream too) and the package index the site serves in place of the
// npm package's (loadPyodide's stdLibURL and lockFileURL, as in
// calculator-worker.mjs). Both archives are inflated as the worker inflates
// them, with DecompressionStream.
//
// First the page's part, and nothing else: the wheel unpacked as the worker
// unpacks it, `from calculator.web import evaluate`, every request evaluated
// (with two arguments, or three with a notation), each going in as a JS string
// and coming back as one. "modules" then lists the standard library files
// Python has imported from its archive so far (what the page needs of it) and
// the modules built into Pyodide; "core", the files of the core's modules it
// has imported, all from the wheel (what the page needs of the core).
// Only then does the harness itself run: the npm package's full standard
// library is appended to sys.path (tests/cases.py may import what the page
// does not), and cases.check() asserts the known values, refusals and garbage
// in Python, and lists the cases for tests/test_pyodide.py to compare with
// CPython's. tests/test_pyodide.py compares the replies, byte for byte, with
// CPython's, the modules with the archive's list, and the core's with the wheel's.
//
// Exit status 1 on any failure, with the error on stderr.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide, version } from "pyodide";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const npmStdlib = path.join(repo, "node_modules", "pyodide", "python_stdlib.zip");
const harness = "/home/pyodide/harness";

// Python's imports from its standard library archive (paths inside it), the
// modules built into Pyodide, which need no file, and the core's imported files.
const MODULES = `
import json, os, sys, zipimport

archive = next(entry for entry in sys.path if entry.endswith(".zip"))
found = set()
for module in list(sys.modules.values()):
    spec = getattr(module, "__spec__", None)
    if spec and isinstance(spec.loader, zipimport.zipimporter) and spec.origin:
        # The file it was compiled from: the site's archive holds bytecode alone.
        found.add(spec.origin.removeprefix(archive + "/").removesuffix("c"))
core = sorted(
    os.path.relpath(module.__file__)
    for name, module in list(sys.modules.items())
    if name.partition(".")[0] == "calculator"
)
json.dumps({
    "files": sorted(found),
    "builtin": sorted(sys.builtin_module_names),
    "bytes": os.path.getsize(archive),
    "core": core,
})
`;

// As calculator-worker.mjs inflates the site's archives.
async function inflated(file) {
  const bytes = new Uint8Array(readFileSync(file));
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new Error(`${file}: not one gzip stream`);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function evaluateAll(evaluate, listing) {
  const replies = {};
  for (const [id, slug, request, notation] of listing) {
    const reply =
      notation === null || notation === undefined
        ? evaluate(slug, request)
        : evaluate(slug, request, notation);
    if (typeof reply !== "string") {
      throw new Error(`${id}: evaluate returned a ${typeof reply}, not a string`);
    }
    replies[id] = reply;
  }
  return replies;
}

async function main() {
  const [requestsFile, wheelFile, stdlibFile, lockFile] = process.argv.slice(2);
  if (!requestsFile || !wheelFile) throw new Error("usage: run_cases.mjs REQUESTS WHEEL [STDLIB LOCK]");
  const listing = JSON.parse(readFileSync(requestsFile, "utf-8"));
  const started = performance.now();
  // Pyodide's own prints go to stderr: stdout carries the JSON document only.
  const options = {
    stdout: (line) => process.stderr.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  };
  // Pyodide under Node reads a path, not a blob: URL; it copies the file in as it boots.
  const folder = stdlibFile ? mkdtempSync(path.join(tmpdir(), "calc-stdlib-")) : null;
  if (folder) {
    options.stdLibURL = path.join(folder, "python_stdlib.zip");
    writeFileSync(options.stdLibURL, await inflated(stdlibFile));
  }
  if (lockFile) options.lockFileURL = path.resolve(lockFile);
  const pyodide = await loadPyodide(options).finally(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });
  const loaded = performance.now();

  // The page's part, as calculator-worker.mjs does it.
  pyodide.unpackArchive(await inflated(wheelFile), "wheel");
  const evaluate = pyodide.runPython("from calculator.web import evaluate\nevaluate");
  const replies = {};
  const requests = {};
  let parity = {};
  try {
    for (const [id, slug, request] of listing.cases) requests[id] = [slug, request];
    Object.assign(replies, evaluateAll(evaluate, listing.cases));
    parity = evaluateAll(evaluate, listing.parity);
  } finally {
    evaluate.destroy();
  }
  const { bytes, core, ...modules } = JSON.parse(pyodide.runPython(MODULES));
  // What Pyodide booted with: the size of its standard library, its package index.
  const archive = { bytes, lock: pyodide._api.lockfile };
  const evaluated = performance.now();

  // The harness: the full standard library behind the page's, then tests/cases.py.
  pyodide.FS.mkdirTree(harness);
  pyodide.FS.writeFile(`${harness}/stdlib.zip`, readFileSync(npmStdlib));
  pyodide.FS.writeFile(`${harness}/cases.py`, readFileSync(path.join(repo, "tests", "cases.py")));
  const checked = JSON.parse(
    pyodide.runPython(`
import json
import os
import sys

sys.path.append(${JSON.stringify(`${harness}/stdlib.zip`)})
sys.path.insert(0, ${JSON.stringify(harness)})
sys.dont_write_bytecode = True

import calculator
import cases

# unpackArchive unpacks into the working directory, first on sys.path, as in the worker.
if not calculator.__file__.startswith(os.path.join(os.getcwd(), "calculator", "")):
    raise RuntimeError(f"not the wheel's calculator package: {calculator.__file__}")

json.dumps(
    {
        "python": sys.version,
        "platform": sys.platform,
        "check": cases.check(),
        "cases": [[case.id, case.slug, case.text] for case in cases.all_requests()],
    }
)
`),
  );
  const finished = performance.now();

  const seconds = (from, to) => Math.round(to - from) / 1000;
  process.stdout.write(
    JSON.stringify({
      python: checked.python,
      platform: checked.platform,
      pyodide: version,
      check: checked.check,
      seconds: {
        load: seconds(started, loaded),
        evaluate: seconds(loaded, evaluated),
        check: seconds(evaluated, finished),
        total: seconds(started, finished),
      },
      archive,
      modules,
      core,
      listed: Object.fromEntries(checked.cases.map(([id, slug, text]) => [id, [slug, text]])),
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
