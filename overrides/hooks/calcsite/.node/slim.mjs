// Builds the site's standard library: boots the npm package's Pyodide under
// Node and runs calcsite/slim.py in it, on the package's own standard library.
// Only Pyodide's Python can read the standard library it ships and write the
// bytecode it runs (see slim.py). calcsite/stdlib.py runs this program and
// keeps what it writes.
//
// Usage: node slim.mjs PACKAGE_DIR OUTPUT < {"files": [path], "source": text}
//
// PACKAGE_DIR is node_modules/pyodide; stdin holds the paths to take from its
// python_stdlib.zip (calcsite/stdlib_files.py) and the text of slim.py. The
// archive slim.slim() makes is written to OUTPUT; Python's output goes to
// stderr, and any failure exits with a status other than 0.
//
// This folder's name starts with a dot because MkDocs publishes every file of
// the theme's custom_dir (overrides/) but Python, templates and dot files: a
// build-time program is no file of the site.

import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [packageDir, output] = process.argv.slice(2);
const { files, source } = JSON.parse(readFileSync(0, "utf-8"));
const { loadPyodide } = await import(pathToFileURL(`${packageDir}/pyodide.mjs`).href);
const say = (line) => process.stderr.write(`${line}\n`);
const pyodide = await loadPyodide({
  indexURL: `${packageDir}/`,
  stdout: say,
  stderr: say,
  // The same bytes from one build to the next (marshal writes sets in hash order).
  env: { PYTHONHASHSEED: "0" },
});
pyodide.FS.writeFile("/tmp/calcsite_slim.py", source);
pyodide.globals.set("files", pyodide.toPy(files));
pyodide.runPython(`
import sys
sys.path.insert(0, "/tmp")
import calcsite_slim
archive = next(entry for entry in sys.path if entry.endswith(".zip"))
with open(archive, "rb") as full, open("/tmp/slim.zip", "wb") as out:
    out.write(calcsite_slim.slim(full.read(), list(files), archive))
`);
writeFileSync(output, pyodide.FS.readFile("/tmp/slim.zip"));
