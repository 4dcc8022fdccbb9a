// The calculators' engine: Pyodide and the core's wheel, in a module worker.
//
// The page starts one worker per page, with its boot settings as JSON in the
// URL fragment: each engine file's absolute URL by name, and the locales to
// warm up. Pyodide's runtime comes from the folder of `pyodide`; its standard
// library and package index are the site's own (see runtime() below). The
// worker boots at once and reports its progress, then that it is ready or
// failed. After "ready" the page sends a form's request (its raw values by
// input name and its mode, the page language's notation as a JSON string for
// the core to read the fields with, each output's display style, each table's
// columns, and the words of the form's chart as a JSON string, or null where
// it has none) and gets the core's reply (calculator.web.evaluate's JSON,
// parsed, with the chart's HTML in reply.chart when labels were sent) and its
// texts, formatted for the locale: {outputs, tables} or {bounds}, and the
// CLDR plural category of each number, {plurals: {inputs, outputs}}, for the
// units; or an error. Every message's keys are declared in
// overrides/hooks/calcsite/contract.py (MESSAGES), which a test holds this
// script and the page's to; the names they share (the engine files, the
// message kinds, the performance marks) they import from the contract module
// that the build writes from it, and whose version it writes over the zeros.
//
// Formatting happens here, off the page's main thread: the first
// Intl.NumberFormat of a locale costs tens of milliseconds. The core has
// already rounded, and `display` holds decimal strings, which Intl reads
// exactly, so the texts match the build's Babel output character for character.
//
// Only strings cross between JavaScript and Python: the one PyProxy, for
// calculator.web.evaluate, lives as long as the worker.

import { ENGINE_FILES, MARK, MESSAGE } from "./contract.mjs?v=000000000000";

const STEPS = 3;
const DASH = "—";
const TIMES = "×"; // calculator.spec.SIGNS["multiplier"]; tests/site/test_formatting.py checks
let evaluate = null;

const formatters = new Map();

function formatter(locale, percent) {
  const key = `${locale}\u0000${percent}`;
  let format = formatters.get(key);
  if (!format) {
    const options = { maximumFractionDigits: 20 };
    if (percent) options.style = "percent";
    format = new Intl.NumberFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

function formatDisplay(text, style, locale) {
  if (text === null || text === undefined) return DASH;
  const shown = formatter(locale, style === "percent").format(String(text));
  return style === "multiplier" ? shown + TIMES : shown;
}

const pluralRules = new Map();

// CLDR's plural category of a number given as a plain decimal string; "many"
// (French and Italian millions) takes the "other" form, as at build time.
// No number (an empty field, text that is no number, a result that does not
// apply): the plural, as the build writes it.
function plural(text, locale) {
  if (typeof text !== "string" || text.trim() === "" || !Number.isFinite(Number(text))) {
    return "other";
  }
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  const category = rules.select(Number(text));
  return category === "many" ? "other" : category;
}

function plurals(values, locale) {
  const categories = {};
  for (const [name, text] of Object.entries(values && typeof values === "object" ? values : {})) {
    categories[name] = plural(text, locale);
  }
  return categories;
}

// A list output's rows as the page shows them: an output's cell by its style, an
// input's number as a number, a choice's value as it is (the page words it).
function tableTexts(rows, columns, locale) {
  if (!Array.isArray(rows) || !Array.isArray(columns)) return [];
  return rows.map((row) =>
    columns.map(({ name, kind, style }) => {
      const cell = row?.[name];
      if (kind === "choice") return String(cell);
      if (kind === "output") return formatDisplay(cell, style, locale);
      return formatDisplay(cell, "number", locale);
    }),
  );
}

function texts(reply, locale, styles, tables) {
  const inputs = plurals(reply?.plain, locale);
  if (reply?.ok) {
    const display = reply.display && typeof reply.display === "object" ? reply.display : {};
    const outputs = {};
    for (const [name, style] of Object.entries(styles || {})) {
      outputs[name] = formatDisplay(display[name], style, locale);
    }
    const rows = {};
    for (const [name, columns] of Object.entries(tables || {})) {
      rows[name] = tableTexts(display[name], columns, locale);
    }
    return { outputs, tables: rows, plurals: { inputs, outputs: plurals(display, locale) } };
  }
  const errors = reply && Array.isArray(reply.errors) ? reply.errors : [];
  return {
    bounds: errors.map((error) =>
      error.bound === null || error.bound === undefined
        ? null
        : formatter(locale, false).format(String(error.bound)),
    ),
    plurals: { inputs, outputs: {} },
  };
}

function post(message) {
  self.postMessage(message);
}

// The site's archives, the core's wheel and the standard library, each come as
// one gzip stream (calcsite/gzipped.py) that GitHub Pages sends as it is: the
// browser's own DecompressionStream inflates it here. A server that sends it
// with Content-Encoding: gzip has had the browser inflate it already, and a
// zip (which starts "PK", never gzip's 1f 8b) is used as it comes.
async function inflated(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (error) {
    // A stream cut short or damaged on the way, or a browser without DecompressionStream.
    throw new Error(`${url}: could not be inflated (${error?.message ?? error})`);
  }
}

// Intl's first formatter of a locale loads its data: 35 to 135 ms of this
// thread. That is done while the runtime's WebAssembly compiles (on other
// threads), not before the runtime is even requested.
function warmFormatters(locales) {
  for (const locale of locales || []) {
    for (const percent of [false, true]) formatter(locale, percent);
  }
}

// Where the boot's time goes, for the benchmark (bench/timing.py reads the
// marks of this worker): Pyodide's module imported, its WebAssembly compiled
// and instantiated (Pyodide's fsInit hook runs just then, before Python
// starts), Python started, the core imported.
const mark = (name) => performance.mark(name);

// The site's own engine files replace two of the runtime's (calcsite/engine.py):
// the standard library the core needs, compiled (no source for Python to
// compile as it starts), and a package index that lists no package (the page
// never installs one; Pyodide only checks that its ABI version is its own).
// Both through loadPyodide's documented options; the runtime itself may come
// from a CDN. The page passes every URL, as its head names them. The standard
// library, inflated here, reaches Pyodide as a blob: URL, which it fetches as
// it would the file. Pyodide starts fetching its WebAssembly only then, once
// the 0.6 MB archive is in: on the benchmark's 20 Mbit/s link, which shares
// its bandwidth among downloads, that cost no time against the floor.
async function runtime({ pyodide: pyodideURL, stdlib, lock, locales }) {
  const imported = import(pyodideURL).then((module) => {
    mark(MARK.imported);
    return module;
  });
  const [{ loadPyodide }, archive] = await Promise.all([imported, inflated(stdlib)]);
  const stdLibURL = URL.createObjectURL(new Blob([archive]));
  post({ type: MESSAGE.progress, step: 1, steps: STEPS });
  const loading = loadPyodide({
    indexURL: new URL(".", pyodideURL).href,
    stdLibURL,
    lockFileURL: lock,
    fsInit: async () => mark(MARK.compiled),
  });
  setTimeout(() => warmFormatters(locales), 0);
  try {
    const pyodide = await loading;
    mark(MARK.started);
    post({ type: MESSAGE.progress, step: 2, steps: STEPS });
    return pyodide;
  } finally {
    URL.revokeObjectURL(stdLibURL);
  }
}

async function boot(settings) {
  const started = performance.now();
  // The wheel downloads while the runtime boots; either failing fails at once.
  const [pyodide, wheel] = await Promise.all([runtime(settings), inflated(settings.wheel)]);
  pyodide.unpackArchive(wheel, "wheel");
  evaluate = pyodide.runPython("from calculator.web import evaluate\nevaluate");
  mark(MARK.core);
  post({ type: MESSAGE.progress, step: 3, steps: STEPS });
  post({ type: MESSAGE.ready, seconds: (performance.now() - started) / 1000 });
}

function compute({ id, slug, request, notation, locale, styles, tables, labels }) {
  try {
    // With labels (a form that has a chart), the reply holds the core's chart too.
    const text = evaluate(
      String(slug),
      JSON.stringify(request),
      notation ?? undefined,
      typeof labels === "string" ? labels : undefined,
    );
    const reply = JSON.parse(text);
    post({ id, reply, texts: texts(reply, locale, styles, tables) });
  } catch (error) {
    post({ id, error: String(error) });
  }
}

function settings() {
  let parsed = null;
  try {
    parsed = JSON.parse(decodeURIComponent(self.location.hash.slice(1)));
  } catch {
    // Reported below, with the same words as a fragment of the wrong shape.
  }
  if (!parsed || Object.keys(ENGINE_FILES).some((name) => typeof parsed[name] !== "string")) {
    throw new Error("no boot settings in the worker's URL fragment");
  }
  return parsed;
}

self.addEventListener("message", (event) => {
  const message = event.data;
  if (message && message.id !== undefined) {
    if (evaluate) compute(message);
    else post({ id: message.id, error: "engine not ready" });
  }
});

// Boot now, without waiting for a message: see the page's engine.start().
(async () => boot(settings()))().catch((error) => {
  post({ type: MESSAGE.failed, error: String(error?.message ? error.message : error) });
});
