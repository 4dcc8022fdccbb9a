// Live calculators: the page side.
//
// Knows nothing about any calculator. It reads what the build renders (in the
// head: the metas naming the forms' inputs, the worker and each engine file;
// in the body: each form[data-calc] with its mode, state, locale, words,
// notation and units, its input[name] and select[name] fields, its outputs,
// error, note and unit lines, status line, warnings and buttons) and the JSON
// replies of the core, which runs in one module worker per page
// (calculator-worker.mjs). Every name it shares with the build (meta names,
// data-* attributes, states, message kinds) comes from the contract module,
// which the build writes from overrides/hooks/calcsite/contract.py, and which
// its import names with its version (the build writes it over the zeros).
// It is loaded as an async module from the head, so it may run before the body
// is parsed. Until the engine is ready the pre-rendered example stays; if it
// cannot start, the example is restored and labelled as such.
//
// Number fields are text, read by the core in the page language's notation
// (CLDR's symbols, from the build): the browser never decides what a number
// means. Links carry plain notation (96.59, 2000), so a link made on one
// language's page opens the same case on another's. A choice is a select whose
// options' values are the same words in every language (algorithm=tree): no
// notation ever touches them.
//
// A form may have a chart after it ([data-chart-for] naming the form's id,
// with the chart's words in [data-labels], its drawing in [data-chart-body]
// and a [data-chart-status] line): the core draws it (calculator.charts), in
// the HTML at build time and in each reply of the worker, which the page puts
// in place of the old one. Only the elements and attributes the core draws
// are kept; nothing from the address bar is ever markup.
//
// A form may also have an "Embed" control (button[data-action=copy-embed],
// hooks/embed.py): it copies an iframe snippet of the form's case, made of the
// embed page's address (data-embed, relative to this page), the copy link's
// query and data-embed-title, every value URL-encoded and escaped for its
// attribute. If the clipboard refuses, [data-embed-code] shows it as text.

import {
  ACTION,
  ATTR,
  ENGINE_FILES,
  ID,
  MARK,
  MESSAGE,
  META,
  QUERY,
  STATE,
} from "./contract.mjs?v=000000000000";

const BOOT_TIMEOUT_MS = 30000; // engine not ready by then: failed
const REPLY_TIMEOUT_MS = 20000; // a request left unanswered that long: failed
const SLOW_REPLY_MS = 150; // results marked stale if a reply takes longer
const QUIET_MS = 500; // results announced once typing pauses
const ADDRESS_MS = 250; // the address bar follows the inputs once typing pauses
const CONFIRM_MS = 2500; // how long the copy button says "copied"
const EMBED_FRAME_PX = 72; // an embed page around its form: margins, the link to the full page
const DASH = "—";
const PLAIN_DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

// ---------------------------------------------------------------- one form

// A choice's list, as opposed to a text field.
function isChoice(field) {
  return field?.localName === "select";
}

// Whether a field holds the example, as the build wrote it.
function isDefault(field) {
  if (isChoice(field)) {
    return [...field.options].every((option) => option.selected === option.defaultSelected);
  }
  return field.value === field.defaultValue;
}

function parseObject(text) {
  try {
    const parsed = JSON.parse(text || "{}");
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
}

// A plain fixed-point decimal written with the page language's signs, ungrouped:
// calculator.notation.Notation.write, which the browser tests compare with this.
function writeLocal(text, notation) {
  const match = PLAIN_DECIMAL.exec(text);
  if (!match || typeof notation.decimal !== "string") return text;
  const [, sign, whole, fraction] = match;
  const minus = typeof notation.minus === "string" ? notation.minus : "-";
  return (sign ? minus : "") + whole + (fraction ? notation.decimal + fraction : "");
}

// The language menu's links carry the case too, so switching language keeps it.
function followLanguageLinks(search) {
  for (const link of document.querySelectorAll("a[hreflang]")) {
    try {
      const url = new URL(link.href);
      url.search = search;
      link.href = url.href;
    } catch {
      // A link this page cannot parse is left as the build wrote it.
    }
  }
}

// Mirror a case in the address bar. Browsers limit how often a page may do
// this (Safari throws after 100 calls in 30 s), so it waits for a pause.
let addressTimer = 0;
let addressCalc = null;

function showAddress(calc, now = false) {
  addressCalc = calc;
  clearTimeout(addressTimer);
  const write = () => {
    const link = addressCalc.link();
    try {
      history.replaceState(history.state, "", link);
    } catch {
      // The link stays available from the copy button.
    }
    followLanguageLinks(new URL(link).search);
  };
  if (now) write();
  else addressTimer = setTimeout(write, ADDRESS_MS);
}

// A form's elements that carry an attribute, by its value (a field's or an output's name).
function byAttribute(form, name) {
  return new Map([...form.querySelectorAll(`[${name}]`)].map((el) => [el.getAttribute(name), el]));
}

function setText(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}

// Text as the value of a double-quoted HTML attribute. Every & is escaped:
// "&micro_batches=8" in an attribute would otherwise read as "µ_batches=8".
function attribute(text) {
  return String(text)
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

// ---------------------------------------------------------------- a chart

// What calculator.charts writes, and nothing else.
const CHART_ELEMENTS = new Set(
  "p ul li svg g path line rect circle text title desc details summary table thead tbody tr th td".split(
    " ",
  ),
);
const CHART_ATTRIBUTES = new Set(
  ("class id xmlns viewBox role aria-labelledby aria-hidden focusable width height x y x1 y1 " +
    "x2 y2 cx cy r d fill stroke stroke-width stroke-dasharray font-size text-anchor scope tabindex")
    .split(" "),
);

function chartFragment(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll("*")) {
    if (!CHART_ELEMENTS.has(element.localName)) {
      element.remove();
      continue;
    }
    for (const { name } of [...element.attributes]) {
      if (!CHART_ATTRIBUTES.has(name)) element.removeAttribute(name);
    }
  }
  return template.content;
}

class Chart {
  static of(form) {
    const element = form.id
      ? document.querySelector(`[${ATTR.chartFor}="${CSS.escape(form.id)}"]`)
      : null;
    const body = element?.querySelector(`[${ATTR.chartBody}]`);
    return body ? new Chart(element, body) : null;
  }

  constructor(element, body) {
    this.element = element;
    this.body = body;
    this.status = element.querySelector(`[${ATTR.chartStatus}]`);
    this.labels = element.getAttribute(ATTR.labels) || null;
    // The pre-rendered example, to restore if the engine fails: its own nodes,
    // kept when a drawing of the engine first replaces them. Until then the
    // example is on screen, and nothing is copied as the page starts.
    this.example = null;
  }

  // The table of numbers stays open if the reader opened it, closed if not.
  keepOpen(replace) {
    const open = Boolean(this.body.querySelector("details[open]"));
    replace();
    const details = this.body.querySelector("details");
    if (details) details.open = open;
    this.body.hidden = false;
    if (this.status) {
      this.status.hidden = true;
      setText(this.status, "");
    }
  }

  show(html) {
    this.keepOpen(() => {
      this.example ??= [...this.body.childNodes];
      this.body.replaceChildren(chartFragment(html));
    });
  }

  // Every form restores its example as the page starts: while the example
  // was never replaced, that only shows it.
  restore() {
    this.keepOpen(() => {
      if (this.example) this.body.replaceChildren(...this.example.map((n) => n.cloneNode(true)));
    });
  }

  // No chart for other inputs than those on screen: a line says why instead.
  hide(text) {
    this.body.hidden = true;
    if (this.status) {
      setText(this.status, text);
      this.status.hidden = !text;
    }
  }
}

// ---------------------------------------------------------------- a list output

// A table of the form's results (the planner's plans), redrawn from the worker's
// reply by the description the build wrote in data-table (calcsite/result_tables.py):
// each shown column's kind, a choice's option labels, and every case a row opens.
class ResultTable {
  static of(form) {
    // The tables follow their form, named by its id, beside the chart if it has one.
    const boxes = form.id
      ? document.querySelectorAll(`[${ATTR.tableFor}="${CSS.escape(form.id)}"]`)
      : [];
    return [...boxes]
      .flatMap((box) => [...box.querySelectorAll(`table[${ATTR.table}]`)])
      .map((element) => {
        const spec = parseObject(element.getAttribute(ATTR.table));
        const body = element.querySelector(`[${ATTR.rows}]`);
        return body && Array.isArray(spec.columns) ? new ResultTable(spec, body) : null;
      })
      .filter(Boolean);
  }

  constructor(spec, body) {
    this.spec = spec;
    this.body = body;
    this.example = [...body.children].map((row) => row.cloneNode(true));
  }

  // What the worker formats, by column: outputs by style, input numbers as numbers,
  // choices left as their values, which this script words.
  get columns() {
    return this.spec.columns;
  }

  // A row's address in another form, as calcsite.result_tables.link writes it.
  static link(target, tcase) {
    const params = new URLSearchParams();
    if (target.mode) params.set(QUERY.mode, target.mode);
    for (const [name, value] of Object.entries(tcase)) params.set(name, String(value));
    return `${target.href}?${params.toString()}#${target.anchor}`;
  }

  show(texts, related) {
    const limit = this.spec.rows || texts.length;
    const targets = this.spec.targets ?? {};
    const options = this.spec.options ?? {};
    const rows = texts.slice(0, limit).map((cells, index) => {
      const tr = document.createElement("tr");
      for (const [column, cell] of this.spec.columns.entries()) {
        const td = document.createElement("td");
        td.textContent =
          cell.kind === "choice" ? (options[cell.name]?.[cells[column]] ?? cells[column]) : cells[column];
        tr.append(td);
      }
      const td = document.createElement("td");
      const list = document.createElement("ul");
      list.className = "calc__links";
      for (const [name, tcase] of Object.entries(related[index] ?? {})) {
        const target = targets[name];
        if (!target || !tcase || typeof tcase !== "object") continue;
        const item = document.createElement("li");
        const anchor = document.createElement("a");
        anchor.href = ResultTable.link(target, tcase);
        anchor.textContent = target.words;
        if (this.spec.target) anchor.target = this.spec.target;
        item.append(anchor);
        list.append(item);
      }
      td.append(list);
      tr.append(td);
      return tr;
    });
    this.body.replaceChildren(...rows);
  }

  restore() {
    this.body.replaceChildren(...this.example.map((row) => row.cloneNode(true)));
  }
}

class Calc {
  constructor(form) {
    this.form = form;
    this.slug = form.getAttribute(ATTR.calc);
    this.mode = form.getAttribute(ATTR.mode) || "";
    this.defaultMode = form.getAttribute(ATTR.defaultMode) || this.mode;
    this.locale = form.getAttribute(ATTR.locale) || document.documentElement.lang || "en";
    this.messages = parseObject(form.getAttribute(ATTR.messages));
    this.notationText = form.getAttribute(ATTR.notation) || null;
    this.notation = parseObject(this.notationText);
    const units = parseObject(form.getAttribute(ATTR.units));
    this.unitForms = { inputs: units.inputs ?? {}, outputs: units.outputs ?? {} };
    // Every field in form order: text fields and choices' lists.
    this.fields = [...form.querySelectorAll("input[name], select[name]")];
    this.byName = new Map(this.fields.map((field) => [field.name, field]));
    // A link's value for a list that none of its options has, by name: sent as
    // it came, so that the core words what is wrong with it, until the reader chooses.
    this.unlisted = new Map();
    this.outputs = [...form.querySelectorAll(`output[${ATTR.output}]`)];
    // How the worker formats each result (number, percent, multiplier).
    this.styles = Object.fromEntries(
      this.outputs.map((output) => [
        output.getAttribute(ATTR.output),
        output.getAttribute(ATTR.style) || "number",
      ]),
    );
    this.errors = byAttribute(form, ATTR.errorFor);
    this.notes = byAttribute(form, ATTR.noteFor);
    this.units = {
      inputs: byAttribute(form, ATTR.inputUnit),
      outputs: byAttribute(form, ATTR.outputUnit),
    };
    this.status = form.querySelector(`[${ATTR.status}]`);
    this.warnings = form.querySelector(`ul[${ATTR.warnings}]`);
    this.copy = form.querySelector(`button[${ATTR.action}="${ACTION.copyLink}"]`);
    this.chart = Chart.of(form);
    this.tables = ResultTable.of(form);
    this.live = this.outputs.length ? this.outputs[0].closest("[aria-live]") : null;
    // The pre-rendered example, to restore if the engine fails.
    this.example = {
      outputs: this.outputs.map((output) => output.textContent),
      units: [...this.units.inputs.values(), ...this.units.outputs.values()].map((el) => [
        el,
        el.textContent,
      ]),
      warnings: this.warnings ? [...this.warnings.children].map((li) => li.cloneNode(true)) : [],
    };
    this.copyLabel = this.copy ? this.copy.textContent : "";
    this.copyTimer = 0;
    // The newest reply's fields in plain notation, and the texts they were read from.
    this.plain = null;
    this.latest = 0; // id of the request whose reply may be shown; 0: none
    this.inFlight = 0; // id of this form's request the worker is computing; 0: none
    this.dirty = false; // inputs changed while a request was in flight
    this.slowTimer = 0;
    this.quietTimer = 0;
    form.addEventListener("submit", (event) => event.preventDefault());
    // Text is computed as it is typed; a list once a choice is made ("change").
    // Browsers fire "input" for a list as well: skipped, one choice, one request.
    form.addEventListener("input", (event) => {
      if (!isChoice(event.target)) this.onInput(event);
    });
    form.addEventListener("change", (event) => {
      if (isChoice(event.target)) this.onInput(event);
    });
    form.addEventListener("focusin", () => engine.start());
    // Presets fill fields the reader then sees and may change; the pick is no input.
    this.presets = [...form.querySelectorAll(`select[${ATTR.preset}]`)].map((select) => ({
      select,
      fills: parseObject(select.getAttribute(ATTR.preset)),
      source: form.querySelector(`#${CSS.escape(select.id + ID.presetSource)}`),
    }));
    const presets = form.querySelector(`[${ATTR.presets}]`);
    if (presets && this.presets.length) presets.hidden = false;
    for (const preset of this.presets) {
      preset.select.addEventListener("change", () => this.applyPreset(preset));
    }
    // A list fires "input" before "change": a preset's own pick is not an edit.
    form.addEventListener("input", (event) => {
      if (!event.target?.getAttribute?.(ATTR.preset)) this.syncPresets();
    });
    if (this.copy) this.copy.addEventListener("click", () => this.copyLink());
    this.embed = form.querySelector(
      `button[${ATTR.action}="${ACTION.copyEmbed}"][${ATTR.embed}]`,
    );
    this.embedCode = form.querySelector(`[${ATTR.embedCode}]`);
    this.embedLabel = this.embed ? this.embed.textContent : "";
    this.embedTimer = 0;
    if (this.embed) this.embed.addEventListener("click", () => this.copyEmbed());
    // A snippet shown after a refused copy is of the case it was made for.
    form.addEventListener("input", () => {
      if (this.embedCode) this.embedCode.hidden = true;
    });
  }

  message(code, boundText) {
    const text = this.messages[code] ?? this.messages[STATE.invalid] ?? code;
    return typeof boundText === "string" ? text.replaceAll("{bound}", boundText) : text;
  }

  setState(state, statusText) {
    if (this.form.getAttribute(ATTR.state) !== state) this.form.setAttribute(ATTR.state, state);
    setText(this.status, statusText ?? this.messages[state] ?? "");
  }

  setBusy(busy) {
    if (busy) this.form.setAttribute("aria-busy", "true");
    else this.form.removeAttribute("aria-busy");
  }

  // ------------------------------------------------------------ the inputs

  // Only this form's inputs are read from the URL: other keys (a tracking
  // parameter a wiki or a mailer adds, say) are none of its business.
  // A link carries plain notation; the field shows it as the page's language
  // writes it (1.5 is 1,5 on a French page). Other text is shown as it came,
  // and the core words what is wrong with it. A choice's value is a word, the
  // same on every page: it selects its option, never through the notation.
  fill(params) {
    for (const [key, value] of params) {
      const field = this.byName.get(key);
      if (isChoice(field)) this.choose(field, value.trim());
      else if (field) field.value = writeLocal(value.trim(), this.notation);
    }
  }

  // A value no option has leaves the list on no option, and is kept to send.
  choose(select, value) {
    select.value = value;
    if (select.value === value) this.unlisted.delete(select.name);
    else this.unlisted.set(select.name, value);
  }

  // What a field holds, as sent to the core.
  text(field) {
    return this.unlisted.get(field.name) ?? field.value;
  }

  texts() {
    return Object.fromEntries(this.fields.map((field) => [field.name, this.text(field)]));
  }

  request() {
    return { ...this.texts(), mode: this.mode };
  }

  // Each field as the core read it, in plain notation, while the fields still
  // hold what it read; otherwise (the engine not up yet) the text as typed.
  link() {
    const params = new URLSearchParams();
    if (this.mode !== this.defaultMode) params.set(QUERY.mode, this.mode);
    for (const field of this.fields) {
      const text = this.text(field);
      const read = this.plain && this.plain.texts[field.name] === text;
      const value = read ? this.plain.values[field.name] : null;
      params.set(field.name, typeof value === "string" ? value : text.trim());
    }
    const url = new URL(location.href);
    url.search = params.toString();
    return url.href;
  }

  isExample() {
    return this.fields.every(isDefault);
  }

  // Fill the fields a preset names, then compute as if the reader had typed them.
  applyPreset(preset) {
    const chosen = preset.fills[preset.select.value];
    this.showSource(preset, chosen);
    if (!chosen || typeof chosen.fields !== "object") return;
    let changed = null;
    for (const [name, text] of Object.entries(chosen.fields)) {
      const field = this.byName.get(name);
      if (!field || field.value === text) continue;
      if (isChoice(field)) this.choose(field, text);
      else field.value = text;
      changed = field;
    }
    if (changed) this.onInput({ target: changed });
  }

  // A preset stays picked while its fields hold its values: an edit makes it "as entered".
  syncPresets() {
    for (const preset of this.presets) {
      const chosen = preset.fills[preset.select.value];
      if (!chosen) continue;
      const kept = Object.entries(chosen.fields ?? {}).every(
        ([name, text]) => this.byName.get(name)?.value === text,
      );
      if (!kept) {
        preset.select.value = "";
        this.showSource(preset, null);
      }
    }
  }

  showSource(preset, chosen) {
    const line = preset.source;
    if (!line) return;
    if (!chosen?.source) {
      line.replaceChildren();
      return;
    }
    const words = document.createTextNode(`${line.getAttribute(ATTR.presetSource)} `);
    if (typeof chosen.url === "string" && chosen.url.startsWith("https://")) {
      const anchor = document.createElement("a");
      anchor.href = chosen.url;
      anchor.textContent = chosen.source;
      line.replaceChildren(words, anchor);
    } else {
      line.replaceChildren(words, document.createTextNode(chosen.source));
    }
  }

  onInput(event) {
    const field = event.target;
    if (!field?.name || this.byName.get(field.name) !== field) return;
    this.unlisted.delete(field.name); // the reader chose
    if (engine.state === "failed") return;
    showAddress(this);
    if (engine.state === "ready") {
      this.latest = 0; // a reply to an older request is now out of date
      this.setBusy(true);
      this.schedule();
    } else {
      this.showExampleOrStale();
      engine.start();
    }
  }

  // ------------------------------------------------------------ requests

  // Send at once, so a reply can land in the frame of the keystroke; while a
  // request is in flight, only note that the inputs changed and send the
  // newest values when its reply is back (one request per form at a time).
  schedule() {
    if (this.inFlight) this.dirty = true;
    else this.send();
  }

  send() {
    if (engine.state !== "ready") return;
    this.dirty = false;
    this.sent = this.texts();
    this.latest = engine.send(this, this.request());
    this.inFlight = this.latest;
    this.setBusy(true);
    clearTimeout(this.slowTimer);
    this.slowTimer = setTimeout(() => this.form.classList.add("calc--stale"), SLOW_REPLY_MS);
  }

  receive(id, reply, texts) {
    if (id === this.inFlight) this.inFlight = 0;
    if (this.dirty) {
      this.send(); // newer inputs are waiting: this reply is already out of date
      return;
    }
    if (id !== this.latest) return; // a newer input is on screen
    this.latest = 0;
    clearTimeout(this.slowTimer);
    this.setBusy(false);
    const shown = texts && typeof texts === "object" ? texts : {};
    const plain = reply?.plain && typeof reply.plain === "object" ? reply.plain : null;
    this.plain = plain ? { texts: this.sent, values: plain } : null;
    this.showNotes(reply && Array.isArray(reply.notes) ? reply.notes : []);
    this.showUnits(shown.plurals ?? {});
    if (reply?.ok) this.showResults(reply, shown.outputs ?? {}, shown.tables ?? {});
    else {
      const errors = reply && Array.isArray(reply.errors) ? reply.errors : [];
      this.showErrors(errors, Array.isArray(shown.bounds) ? shown.bounds : []);
    }
    // Only the form the address mirrors (the one edited last, or a link's):
    // every form's first reply must not put its own case in the address.
    if (addressCalc === this) showAddress(this);
    this.quiet();
  }

  // ------------------------------------------------------------ display

  // Announce results once typing pauses, not at every keystroke.
  quiet() {
    if (!this.live) return;
    this.live.setAttribute("aria-busy", "true");
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.live.removeAttribute("aria-busy"), QUIET_MS);
  }

  clearErrors() {
    for (const element of this.errors.values()) setText(element, "");
    for (const field of this.fields) field.removeAttribute("aria-invalid");
  }

  // A field whose text read two ways: say which reading was taken, and how to
  // write the other, both as the page's language writes numbers.
  showNotes(notes) {
    const byField = new Map();
    for (const note of notes) {
      const readings = Array.isArray(note.readings) ? note.readings : [];
      if (typeof note.field !== "string" || readings.length !== 2 || byField.has(note.field)) {
        continue;
      }
      const [value, other] = readings.map((text) => writeLocal(String(text), this.notation));
      const template = this.messages[note.code] ?? "";
      byField.set(note.field, template.replaceAll("{value}", value).replaceAll("{other}", other));
    }
    for (const [name, element] of this.notes) setText(element, byField.get(name) ?? "");
  }

  // Units agree with their number (1 replica, 2 replicas): the worker gives
  // each number's CLDR plural category, the build gave each unit's forms.
  showUnits(plurals) {
    for (const kind of ["inputs", "outputs"]) {
      const categories = plurals[kind] ?? {};
      for (const [name, element] of this.units[kind]) {
        const forms = this.unitForms[kind][name];
        const category = categories[name];
        if (forms && typeof category === "string") {
          setText(element, category === "one" ? forms.one : forms.other);
        }
      }
    }
  }

  setOutputs(texts) {
    for (const [index, output] of this.outputs.entries()) setText(output, texts[index]);
  }

  showResults(reply, texts, tableTexts) {
    this.clearErrors();
    this.setOutputs(this.outputs.map((output) => texts[output.getAttribute(ATTR.output)] ?? DASH));
    if (this.warnings) {
      const codes = Array.isArray(reply.warnings) ? reply.warnings : [];
      const current = [...this.warnings.children].map((li) => li.textContent);
      const wanted = codes.map((code) => this.messages[code] ?? String(code));
      if (current.join("\n") !== wanted.join("\n")) {
        this.warnings.replaceChildren(
          ...wanted.map((text) => {
            const li = document.createElement("li");
            li.className = "calc__warning";
            li.textContent = text;
            return li;
          }),
        );
      }
    }
    if (this.chart) {
      if (typeof reply.chart === "string") this.chart.show(reply.chart);
      else this.chart.hide("");
    }
    for (const table of this.tables) {
      const rows = tableTexts[table.spec.name];
      const related = reply.related?.[table.spec.name];
      table.show(Array.isArray(rows) ? rows : [], Array.isArray(related) ? related : []);
    }
    this.form.classList.remove("calc--stale");
    this.setState(STATE.ready);
  }

  showErrors(errors, bounds) {
    const byField = new Map();
    const general = [];
    for (const [index, error] of errors.entries()) {
      const text = this.message(error.code, bounds[index]);
      if (typeof error.field === "string" && this.byName.has(error.field)) {
        if (!byField.has(error.field)) byField.set(error.field, text);
      } else {
        general.push(text);
      }
    }
    for (const field of this.fields) {
      const text = byField.get(field.name);
      setText(this.errors.get(field.name), text ?? "");
      if (text === undefined) field.removeAttribute("aria-invalid");
      else field.setAttribute("aria-invalid", "true");
    }
    // No stale numbers: the results say nothing until the inputs are fixed.
    this.setOutputs(this.outputs.map(() => DASH));
    if (this.warnings) this.warnings.replaceChildren();
    if (this.chart) this.chart.hide(this.messages[STATE.invalid] ?? "");
    for (const table of this.tables) table.show([], []);
    this.form.classList.add("calc--stale");
    this.setState(STATE.invalid, general.length ? general.join(" ") : this.messages[STATE.invalid]);
  }

  // Before the engine answers: the example while the inputs are the example's,
  // otherwise no results rather than results for other inputs.
  showExampleOrStale() {
    if (this.isExample()) {
      this.setOutputs(this.example.outputs);
      if (this.chart) this.chart.restore();
      for (const table of this.tables) table.restore();
      this.form.classList.remove("calc--stale");
    } else {
      this.setOutputs(this.outputs.map(() => DASH));
      if (this.chart) this.chart.hide(this.messages[STATE.loading] ?? "");
      for (const table of this.tables) table.show([], []);
      this.form.classList.add("calc--stale");
    }
  }

  showLoading(step, steps) {
    this.setBusy(true);
    let text = this.messages[STATE.loading] ?? "";
    if (steps) text += ` (${step}/${steps + 1})`;
    this.setState(STATE.loading, text);
    // Fills the status ring (calculator.css); a step is the only thing that moves it.
    // Set on the status line, whose ::before draws the ring: a custom property
    // is inherited, so set on the form it restyled all of the form's ~100
    // elements at every step (11-20 ms each in chromium traces).
    if (this.status) {
      this.status.style.setProperty("--calc-progress", steps ? String(step / (steps + 1)) : "0");
    }
  }

  showFailed() {
    this.inFlight = 0;
    this.dirty = false;
    this.latest = 0;
    clearTimeout(this.slowTimer);
    this.plain = null;
    this.unlisted.clear();
    // The example stays true to what is shown: text fields read-only, lists
    // disabled (a list cannot be read-only).
    for (const field of this.fields) {
      if (isChoice(field)) {
        for (const option of field.options) option.selected = option.defaultSelected;
        field.disabled = true;
      } else {
        field.value = field.defaultValue;
        field.readOnly = true;
      }
    }
    for (const preset of this.presets) {
      preset.select.value = "";
      preset.select.disabled = true;
      this.showSource(preset, null);
    }
    this.clearErrors();
    this.showNotes([]);
    for (const [element, text] of this.example.units) setText(element, text);
    this.setOutputs(this.example.outputs);
    if (this.warnings) {
      this.warnings.replaceChildren(...this.example.warnings.map((li) => li.cloneNode(true)));
    }
    if (this.chart) this.chart.restore();
    for (const table of this.tables) table.restore();
    this.form.classList.remove("calc--stale");
    this.setBusy(false);
    this.setState(STATE.failed);
  }

  // The button says it was copied (and the status line, a live region,
  // announces it), then goes back to its label.
  async copyLink() {
    const url = this.link();
    showAddress(this, true);
    let said;
    try {
      await navigator.clipboard.writeText(url);
      said = this.messages.copied ?? "";
    } catch {
      said = this.messages.copy_failed ?? "";
    }
    if (!this.copy) return;
    // A shorter confirmation keeps the button's width: nothing beside it moves.
    this.copy.style.minWidth = `${this.copy.offsetWidth}px`;
    setText(this.copy, said);
    setText(this.status, said);
    clearTimeout(this.copyTimer);
    this.copyTimer = setTimeout(() => setText(this.copy, this.copyLabel), CONFIRM_MS);
  }

  // ------------------------------------------------------------ embedding

  // The iframe snippet of this form's case, in this page's language: the embed
  // page (relative to this page, so the site's sub-path is kept, whatever
  // site_url says) with the copy link's query, plain notation.
  embedSnippet() {
    const src = new URL(this.embed.getAttribute(ATTR.embed), location.href);
    src.search = new URL(this.link()).search;
    src.hash = "";
    const title = this.embed.getAttribute(ATTR.embedTitle) || "";
    return (
      `<iframe src="${attribute(src.href)}" title="${attribute(title)}" width="100%" ` +
      `height="${this.embedHeight()}" loading="lazy" style="border:0"></iframe>`
    );
  }

  // The embed page shows this form alone, one column at a wiki's width: its
  // parts stacked (the share buttons are not there), its frame, the page's.
  embedHeight() {
    const style = getComputedStyle(this.form);
    const parts = [...this.form.children].filter(
      (part) => part.offsetParent !== null && !part.matches(".calc__actions"),
    );
    const gaps = (Number.parseFloat(style.rowGap) || 0) * Math.max(parts.length - 1, 0);
    const frame =
      this.form.offsetHeight -
      this.form.clientHeight +
      (Number.parseFloat(style.paddingTop) || 0) +
      (Number.parseFloat(style.paddingBottom) || 0);
    const height = parts.reduce((sum, part) => sum + part.offsetHeight, 0) + gaps + frame;
    return Math.ceil((height + EMBED_FRAME_PX) / 10) * 10;
  }

  // As the copy-link button: the button says it was copied, then its label.
  async copyEmbed() {
    const snippet = this.embedSnippet();
    let said;
    let copied = false;
    try {
      await navigator.clipboard.writeText(snippet);
      said = this.embed.getAttribute(ATTR.copied) ?? "";
      copied = true;
    } catch {
      said = this.embed.getAttribute(ATTR.copyFailed) ?? "";
    }
    if (this.embedCode) {
      setText(this.embedCode, copied ? "" : snippet);
      this.embedCode.hidden = copied;
    }
    this.embed.style.minWidth = `${this.embed.offsetWidth}px`;
    setText(this.embed, said);
    setText(this.status, said);
    clearTimeout(this.embedTimer);
    this.embedTimer = setTimeout(() => setText(this.embed, this.embedLabel), CONFIRM_MS);
  }
}

// ---------------------------------------------------------------- the engine

function metaURL(name) {
  const element = document.querySelector(`meta[name="${name}"]`);
  const content = element?.getAttribute("content");
  return content ? new URL(content, document.baseURI).href : null;
}

const calcs = [];

const engine = {
  state: "idle", // idle, loading, ready, failed
  worker: null,
  nextId: 1,
  pending: new Map(), // request id: Calc
  bootTimer: 0,
  replyTimer: 0,
  live: false,
  step: 0, // boot progress, for forms that attach while it loads
  steps: 0,

  // Starts the worker. Needs only the head (the engine's URLs): a link that
  // carries a case starts it before the forms are even parsed.
  start() {
    if (this.state !== "idle") return;
    this.state = "loading";
    const worker = metaURL(META.worker);
    // The engine's files for the worker, by name, as the head names them.
    const files = {};
    for (const [name, meta] of Object.entries(ENGINE_FILES)) files[name] = metaURL(meta);
    const capable = typeof Worker === "function" && typeof WebAssembly === "object";
    if (!worker || Object.values(files).some((url) => !url) || !capable) {
      this.fail();
      return;
    }
    for (const calc of calcs) calc.showLoading();
    performance.mark(MARK.start);
    this.bootTimer = setTimeout(() => this.fail(), BOOT_TIMEOUT_MS);
    // The worker formats results too: Intl's first formatter loads locale
    // data for tens of milliseconds, which the page's main thread never pays.
    // The forms' locale is the page's (the build renders both).
    const locales = document.documentElement.lang ? [document.documentElement.lang] : [];
    // The boot settings travel in the worker's URL fragment rather than in a
    // message: a message waits for this thread to be free to be delivered,
    // and right now it is busy with the theme's start-up (traced: Pyodide was
    // requested 200 ms after the worker's script had arrived). A fragment is
    // read as soon as the worker runs and is no part of the HTTP cache key.
    const settings = encodeURIComponent(JSON.stringify({ ...files, locales }));
    try {
      this.worker = new Worker(`${worker}#${settings}`, { type: "module" });
    } catch {
      this.fail();
      return;
    }
    this.worker.addEventListener("message", (event) => this.onMessage(event.data));
    this.worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.fail();
    });
    this.worker.addEventListener("messageerror", () => this.fail());
  },

  // A form joins the engine in whatever state it is in.
  attach(calc) {
    calcs.push(calc);
    if (this.state === "loading") calc.showLoading(this.step, this.steps);
    else if (this.state === "ready") calc.send();
    else if (this.state === "failed") calc.showFailed();
  },

  onMessage(message) {
    if (!message || this.state === "failed") return;
    if (message.type === MESSAGE.progress && this.state === "loading") {
      this.step = message.step;
      this.steps = message.steps;
      for (const calc of calcs) calc.showLoading(message.step, message.steps);
    } else if (message.type === MESSAGE.ready) {
      clearTimeout(this.bootTimer);
      this.state = "ready";
      performance.mark(MARK.ready);
      for (const calc of calcs) calc.send();
    } else if (message.type === MESSAGE.failed) {
      this.fail();
    } else if (message.id !== undefined) {
      const calc = this.pending.get(message.id);
      this.pending.delete(message.id);
      clearTimeout(this.replyTimer);
      if (this.pending.size) this.armReplyTimer();
      if (message.error !== undefined) this.fail();
      else if (calc) {
        calc.receive(message.id, message.reply, message.texts);
        if (!this.live) performance.mark(MARK.live); // first results: for measurements
        this.live = true;
      }
    }
  },

  send(calc, request) {
    const id = this.nextId++;
    this.pending.set(id, calc);
    if (this.pending.size === 1) this.armReplyTimer();
    this.worker.postMessage({
      id,
      slug: calc.slug,
      request,
      notation: calc.notationText,
      locale: calc.locale,
      styles: calc.styles,
      tables: Object.fromEntries(calc.tables.map((table) => [table.spec.name, table.columns])),
      labels: calc.chart ? calc.chart.labels : null,
    });
    return id;
  },

  armReplyTimer() {
    clearTimeout(this.replyTimer);
    this.replyTimer = setTimeout(() => this.fail(), REPLY_TIMEOUT_MS);
  },

  fail() {
    if (this.state === "failed") return;
    this.state = "failed";
    clearTimeout(this.bootTimer);
    clearTimeout(this.replyTimer);
    this.pending.clear();
    if (this.worker) this.worker.terminate();
    this.worker = null;
    for (const calc of calcs) calc.showFailed();
  },
};

// ---------------------------------------------------------------- start

function idle(callback) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(callback, { timeout: 2000 });
  else setTimeout(callback, 200);
}

function whenIdle(callback) {
  if (document.readyState === "complete") idle(callback);
  else addEventListener("load", () => idle(callback), { once: true });
}

// Whether the address carries a case for this page's forms, judged from the
// head's list of their input names (other keys, such as utm_*, do not count).
function carriesCase() {
  const meta = document.querySelector(`meta[name="${META.inputs}"]`);
  const names = new Set((meta ? meta.content : "").split(/\s+/).filter(Boolean));
  return [...new URLSearchParams(location.search).keys()].some((key) => names.has(key));
}

function main() {
  const forms = [...document.querySelectorAll(`form.calc[${ATTR.calc}]`)].map(
    (form) => new Calc(form),
  );
  if (!forms.length) return;

  // A link carrying a case fills the form of its mode (else the default mode's).
  const params = new URLSearchParams(location.search);
  const carriesInputs = forms.some((calc) => [...params.keys()].some((key) => calc.byName.has(key)));
  if (carriesInputs) {
    const wanted = params.get(QUERY.mode);
    for (const slug of new Set(forms.map((calc) => calc.slug))) {
      const mine = forms.filter((calc) => calc.slug === slug);
      const target =
        mine.find((calc) => calc.mode === wanted) ??
        mine.find((calc) => calc.mode === calc.defaultMode) ??
        mine[0];
      target.fill(params);
      addressCalc = target; // its reply writes the link as the core read it
    }
    followLanguageLinks(location.search);
  }
  for (const calc of forms) {
    // Values filled from the URL (or restored by the browser) are not the example's.
    calc.showExampleOrStale();
    engine.attach(calc);
  }

  if (carriesInputs) engine.start();
  else whenIdle(() => engine.start());
}

// This module runs from the head, as soon as it has downloaded: a shared case
// needs the engine, whose boot is the long pole, so it starts now; the forms
// are read once the document is parsed.
if (carriesCase()) engine.start();
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", main, { once: true });
} else {
  main();
}
