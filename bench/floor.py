"""The floor: a bare page that boots the site's own Pyodide in a module worker.

It does the least a page can do to show a number computed by Python: one
module script starts a module worker, which imports the same self-hosted
``pyodide.mjs`` as the calculators, boots it as Pyodide ships (its whole
standard library and package index, from the runtime's folder) and runs
``1+1``; the page writes the answer into an ``<output>`` and sets
``body[data-state=ready]``. No stylesheet, no theme script, no wheel: whatever
a calculator page takes beyond this is what the site adds, and what it ships
less, what it saves. The worker marks the same milestones as the calculators'.

The files are written into the built site at benchmark time only; they are
never part of the published site.
"""

from __future__ import annotations

from pathlib import Path

FOLDER = "bench-floor"

_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Floor: Pyodide in a module worker</title>
<meta name="description" content="Boots the site's Pyodide in a module worker and computes 1+1.">
<link rel="icon" href="data:,">
<meta name="calc:pyodide" content="../{pyodide}">
<script type="module" src="floor.mjs"></script>
</head>
<body data-state="loading">
<main><h1>Floor</h1><p>1 + 1 = <output>…</output></p></main>
</body>
</html>
"""

_PAGE = """// Starts the worker at once and shows its answer.
const meta = document.querySelector('meta[name="calc:pyodide"]');
const pyodide = new URL(meta.content, document.baseURI).href;
const worker = new Worker(new URL("floor-worker.mjs", import.meta.url), { type: "module" });
worker.addEventListener("message", ({ data }) => {
  document.querySelector("output").textContent = data.error ?? data.result;
  document.body.dataset.state = data.error ? "failed" : "ready";
});
worker.postMessage({ pyodide });
"""

_WORKER = """// Boots Pyodide as it ships, then runs 1+1.
self.addEventListener("message", async ({ data }) => {
  try {
    const { loadPyodide } = await import(data.pyodide);
    const pyodide = await loadPyodide({
      indexURL: new URL(".", data.pyodide).href,
      fsInit: async () => performance.mark("calc:compiled"), // milestones, as the calculators'
    });
    performance.mark("calc:started");
    self.postMessage({ result: String(pyodide.runPython("1+1")) });
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
});
"""


def write_floor(site: Path, pyodide_mjs: str) -> str:
    """Write the floor page into ``site``; return its path relative to the site root.

    ``pyodide_mjs`` is relative to the site root too, as the calculators import it.
    """
    folder = site / FOLDER
    folder.mkdir(exist_ok=True)
    (folder / "index.html").write_text(_HTML.format(pyodide=pyodide_mjs), encoding="utf-8")
    (folder / "floor.mjs").write_text(_PAGE, encoding="utf-8")
    (folder / "floor-worker.mjs").write_text(_WORKER, encoding="utf-8")
    return f"{FOLDER}/"
