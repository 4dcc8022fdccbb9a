// The calculators' engine: Pyodide and the core's wheel, in a module worker.
//
// The page starts one worker and sends {type: "boot", pyodide, wheel} with
// absolute URLs. The worker answers with {type: "progress", step, steps},
// then {type: "ready", seconds} or {type: "failed", error}. After "ready" the
// page sends {id, slug, request} (request: an object of raw values by input
// name, optional "mode") and gets {id, reply} (the parsed JSON reply of
// calculator.web.evaluate) or {id, error}.
//
// Only strings cross between JavaScript and Python: the one PyProxy, for
// calculator.web.evaluate, lives as long as the worker.

const STEPS = 3;
let evaluate = null;

function post(message) {
  self.postMessage(message);
}

async function fetchWheel(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function runtime(pyodideURL) {
  const { loadPyodide } = await import(pyodideURL);
  post({ type: "progress", step: 1, steps: STEPS });
  const pyodide = await loadPyodide({ indexURL: new URL(".", pyodideURL).href });
  post({ type: "progress", step: 2, steps: STEPS });
  return pyodide;
}

async function boot({ pyodide: pyodideURL, wheel: wheelURL }) {
  const started = performance.now();
  // The wheel downloads while the runtime boots; either failing fails at once.
  const [pyodide, wheel] = await Promise.all([runtime(pyodideURL), fetchWheel(wheelURL)]);
  pyodide.unpackArchive(new Uint8Array(wheel), "wheel");
  evaluate = pyodide.runPython("from calculator.web import evaluate\nevaluate");
  post({ type: "progress", step: 3, steps: STEPS });
  post({ type: "ready", seconds: (performance.now() - started) / 1000 });
}

function compute({ id, slug, request }) {
  try {
    post({ id, reply: JSON.parse(evaluate(String(slug), JSON.stringify(request))) });
  } catch (error) {
    post({ id, error: String(error) });
  }
}

let booting = null;

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message && message.type === "boot") {
    booting ??= boot(message).catch((error) => {
      post({ type: "failed", error: String(error && error.message ? error.message : error) });
    });
  } else if (message && message.id !== undefined) {
    if (evaluate) compute(message);
    else post({ id: message.id, error: "engine not ready" });
  }
});
