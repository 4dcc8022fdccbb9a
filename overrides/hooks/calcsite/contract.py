"""The browser contract: every name the build and the browser's scripts share, declared once.

The build writes the forms, their charts, tables and presets, each page's head
and the embed pages; four scripts read them: the page script
(``calculator.mjs``), its worker (``calculator-worker.mjs``), the embed pages'
script (``embed.js``) and the script that starts Material's bundle
(``theme-start.js``). What they agree on is declared here:

- :data:`METAS`: the ``<meta name>`` of a page's head that the page script
  reads: the input names of the page's forms (which make an address a case,
  :func:`case_inputs`), the worker, and each engine file (:data:`ENGINE_FILES`);
- :data:`ATTRIBUTES`: the ``data-*`` attributes of the forms, their charts,
  tables and presets, the "Embed" control, the embed page's body and the theme's
  start script; :data:`STATES`, the values of a form's ``data-state``, and
  :data:`ACTIONS`, of a button's ``data-action``;
- :data:`MESSAGES`: what the page and its worker send each other, by kind and
  keys, from the boot settings in the worker's URL fragment to the replies;
- :data:`QUERY`, the key of a link's query that names a form's mode, and
  :data:`MARKS`, the performance marks the benchmark reads;
- the ids: a form's (:func:`form_id`, ``calc-{slug}-{mode}``), its chart's
  (:func:`chart_id`), a preset's source line (:data:`IDS`).

The templates read these from their context (:data:`CONTRACT`). The two module
scripts import them from ``assets/javascripts/contract.mjs``, which the build
writes from these declarations (:func:`module_text`, :func:`write_module`); their
import names the module with its version (:func:`pin`), as pages name the site's
own files, so a cached old module never meets a new script. The classic scripts
cannot import (``embed.js`` runs before the first paint, ``theme-start.js`` before
the bundle): they write the few names they use, and ``tests/site/test_contract.py``
fails when a name a script uses is not declared here, or a name declared here is
used by no script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal, Union

from calculator import Mode

from .versions import version

__all__ = [
    "ACTIONS",
    "ATTRIBUTES",
    "CONTRACT",
    "ENGINE_FILES",
    "IDS",
    "IMPORTERS",
    "MARKS",
    "MESSAGES",
    "METAS",
    "MODULE",
    "PAGE_SCRIPT",
    "QUERY",
    "STATES",
    "TEXTS",
    "VERSION_SLOT",
    "WORKER",
    "Actions",
    "Attributes",
    "Contract",
    "ContractError",
    "Head",
    "Ids",
    "Marks",
    "Message",
    "Metas",
    "Query",
    "States",
    "case_inputs",
    "chart_id",
    "exports",
    "form_id",
    "module_text",
    "names",
    "pin",
    "write_module",
]

PAGE_SCRIPT = "assets/javascripts/calculator.mjs"
"""The page script, relative to the site root."""
WORKER = "assets/javascripts/calculator-worker.mjs"
"""The page's worker, relative to the site root."""
MODULE = "assets/javascripts/contract.mjs"
"""The module the build writes for the scripts, relative to the site root."""
IMPORTERS = (PAGE_SCRIPT, WORKER)
"""The scripts that import :data:`MODULE`."""
VERSION_SLOT = "?v=" + "0" * len(version(b""))
"""What an importer's source names the module with: ``./contract.mjs?v=000000000000``.

The build writes the module's version over the zeros (:func:`pin`) once the
importer is minified: the same length, so its source map still fits.
"""
ENGINE_FILES = ("pyodide", "wheel", "stdlib", "lock")
"""The engine's files a page names in its head for its worker (``<meta name="calc:wheel">``).

In this order; the worker gets them, by these names, in its boot settings
(:data:`MESSAGES`). :mod:`calcsite.engine` says what each is.
"""

_KEY = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*\Z")


_Declaration = Union["Attributes", "States", "Actions", "Query", "Marks", "Ids"]
"""A declaration of names, one field each."""


class ContractError(RuntimeError):
    """The built site's scripts do not import the contract as declared."""


def _kebab(name: str) -> str:
    return name.replace("_", "-")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def names(declaration: _Declaration) -> dict[str, str]:
    """A declaration's names by field, in order: ``{"default_mode": "data-default-mode", ...}``."""
    return {field.name: getattr(declaration, field.name) for field in fields(declaration)}


def _check(declaration: _Declaration, expected: Mapping[str, str]) -> None:
    """Each field's name is a key and its value the one its rule gives (no second spelling)."""
    values = names(declaration)
    for name, value in values.items():
        if not _KEY.match(name):
            raise ValueError(f"{type(declaration).__name__}.{name}: not a lower_snake name")
        if value != expected[name]:
            raise ValueError(
                f"{type(declaration).__name__}.{name} is {value!r}, not {expected[name]!r}"
            )
    if len(set(values.values())) != len(values):
        raise ValueError(f"{type(declaration).__name__}: a name is given twice")


@dataclass(frozen=True, slots=True, kw_only=True)
class Metas:
    """The ``<meta name>`` of a page's head, which the page script reads before the forms."""

    prefix: str
    """What each name starts with."""
    inputs: str
    """The input names of the page's forms, space-separated (:func:`case_inputs`): an
    address whose query has one of them carries a case, and starts the engine at once."""
    worker: str
    """The worker's script."""

    def __post_init__(self) -> None:
        for name in ("inputs", "worker"):
            if getattr(self, name) != f"{self.prefix}{name}":
                raise ValueError(f"Metas.{name} must be {self.prefix}{name}")

    def file(self, name: str) -> str:
        """The meta naming the engine file ``name``, one of :data:`ENGINE_FILES`.

        Raises:
            KeyError: If the engine has no such file.
        """
        if name not in ENGINE_FILES:
            raise KeyError(f"no engine file {name!r}: {', '.join(ENGINE_FILES)}")
        return f"{self.prefix}{name}"


METAS = Metas(prefix="calc:", inputs="calc:inputs", worker="calc:worker")


@dataclass(frozen=True, slots=True, kw_only=True)
class Attributes:
    """The ``data-*`` attributes the build writes and the scripts read (or the page script writes).

    Each is ``data-`` and its field's name, hyphenated (checked as it is defined).
    """

    calc: str
    """On a form: its calculator's slug. A form that has it is a live calculator."""
    mode: str
    """On a form: its mode."""
    default_mode: str
    """On a form: its calculator's default mode, which a link need not name."""
    state: str
    """On a form: what it shows (:data:`STATES`); set by the page script, read by the styles."""
    locale: str
    """On a form: the language whose formats the worker writes its numbers in."""
    messages: str
    """On a form: the words the page script writes itself, by code or state (JSON)."""
    notation: str
    """On a form: how the page's language writes numbers, for the core to read them (JSON)."""
    units: str
    """On a form: the singular and plural of each unit that has two (JSON)."""
    output: str
    """On an ``<output>``: the name of the result it shows."""
    style: str
    """On an ``<output>``: how the worker formats it (number, percent, multiplier)."""
    error_for: str
    """The line that says what is wrong with a field: the field's name."""
    note_for: str
    """The line that says how a field's text was read, when it reads two ways: the field's name."""
    input_unit: str
    """A field's unit: the field's name."""
    output_unit: str
    """A result's unit: the result's name."""
    status: str
    """A form's status line, a live region."""
    warnings: str
    """A form's list of warnings."""
    action: str
    """On a button: what it does (:data:`ACTIONS`)."""
    presets: str
    """A form's group of presets, hidden until the page script can apply them."""
    preset: str
    """On a list of presets: what each preset writes into which fields, and its source (JSON)."""
    preset_source: str
    """On a preset's source line: the word before the source."""
    table: str
    """On a table of results: how the page script redraws its rows (JSON)."""
    rows: str
    """A table's body, whose rows the page script redraws."""
    table_for: str
    """On a table of results' box, after its form: the id of its form (:func:`form_id`)."""
    chart_for: str
    """On a chart: the id of its form (:func:`form_id`)."""
    labels: str
    """On a chart: its words and number conventions, for the worker to redraw it with (JSON)."""
    chart_body: str
    """A chart's drawing, which the page script replaces."""
    chart_status: str
    """The line that says why a chart is not drawn."""
    embed: str
    """On the "Embed" button: the embed page, relative to the page."""
    embed_title: str
    """On the "Embed" button: the title of the iframe it copies."""
    copied: str
    """On the "Embed" button: what it says once it copied."""
    copy_failed: str
    """On the "Embed" button: what it says when the clipboard refused."""
    embed_code: str
    """The element that shows the iframe's code when the clipboard refused it."""
    embed_light: str
    """On an embed page's body: its light colour scheme (``scheme primary accent``)."""
    embed_dark: str
    """On an embed page's body: its dark colour scheme, if any."""
    bundle: str
    """On the script that starts Material's bundle: the bundle's address."""

    def __post_init__(self) -> None:
        _check(self, {field.name: f"data-{_kebab(field.name)}" for field in fields(self)})


ATTRIBUTES = Attributes(
    calc="data-calc",
    mode="data-mode",
    default_mode="data-default-mode",
    state="data-state",
    locale="data-locale",
    messages="data-messages",
    notation="data-notation",
    units="data-units",
    output="data-output",
    style="data-style",
    error_for="data-error-for",
    note_for="data-note-for",
    input_unit="data-input-unit",
    output_unit="data-output-unit",
    status="data-status",
    warnings="data-warnings",
    action="data-action",
    presets="data-presets",
    preset="data-preset",
    preset_source="data-preset-source",
    table="data-table",
    rows="data-rows",
    table_for="data-table-for",
    chart_for="data-chart-for",
    labels="data-labels",
    chart_body="data-chart-body",
    chart_status="data-chart-status",
    embed="data-embed",
    embed_title="data-embed-title",
    copied="data-copied",
    copy_failed="data-copy-failed",
    embed_code="data-embed-code",
    embed_light="data-embed-light",
    embed_dark="data-embed-dark",
    bundle="data-bundle",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class States:
    """What a form shows (its ``data-state``); each is also the key of its status words."""

    static: str
    """The example, as the build wrote it: the engine has not started."""
    loading: str
    """The engine is starting."""
    ready: str
    """The results of the inputs on screen."""
    invalid: str
    """No results: an input is refused."""
    failed: str
    """The engine could not start or answer: the example, labelled as such."""

    def __post_init__(self) -> None:
        _check(self, {field.name: field.name for field in fields(self)})


STATES = States(
    static="static", loading="loading", ready="ready", invalid="invalid", failed="failed"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Actions:
    """What a form's button does (its ``data-action``)."""

    copy_link: str
    """Copies the address of the form's case."""
    copy_embed: str
    """Copies an iframe of the form's embed page with the form's case."""

    def __post_init__(self) -> None:
        _check(self, {field.name: _kebab(field.name) for field in fields(self)})


ACTIONS = Actions(copy_link="copy-link", copy_embed="copy-embed")


@dataclass(frozen=True, slots=True, kw_only=True)
class Query:
    """The keys of a link's query that are not an input's."""

    mode: str
    """The form's mode, when it is not the default one (the core lets no input take the name)."""

    def __post_init__(self) -> None:
        _check(self, {field.name: field.name for field in fields(self)})


QUERY = Query(mode="mode")


@dataclass(frozen=True, slots=True, kw_only=True)
class Marks:
    """The performance marks the page and its worker set, which the benchmark reads (``calc:*``)."""

    start: str
    """The page starts the engine."""
    imported: str
    """The worker has imported Pyodide's module."""
    compiled: str
    """Pyodide's WebAssembly is compiled and instantiated."""
    started: str
    """Python has started."""
    core: str
    """The core is imported: the worker is about to say it is ready."""
    ready: str
    """The page heard that the engine is ready."""
    live: str
    """The first results of the engine are on the page."""

    def __post_init__(self) -> None:
        _check(self, {field.name: f"{METAS.prefix}{field.name}" for field in fields(self)})


MARKS = Marks(
    start="calc:start",
    imported="calc:imported",
    compiled="calc:compiled",
    started="calc:started",
    core="calc:core",
    ready="calc:ready",
    live="calc:live",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Ids:
    """The ids the scripts find elements by, beyond a form's own (:func:`form_id`)."""

    preset_source: str
    """What a list of presets' id is followed by in the id of its source line."""
    prefetch: str
    """The full page's ``<template>`` of the engine's files, which a link that carries a
    case puts in the head (``partials/engine-head.html``)."""

    def __post_init__(self) -> None:
        if not self.preset_source.startswith("-") or not self.prefetch.startswith("calc-"):
            raise ValueError("Ids: a suffix starts with '-', an id with 'calc-'")


IDS = Ids(preset_source="-source", prefetch="calc-prefetch")


def form_id(slug: str, mode: str) -> str:
    """The id of a calculator's form for one mode, which links to it name as their anchor."""
    return f"calc-{slug}-{mode}"


def chart_id(slug: str, mode: str) -> str:
    """The id of the chart after a form (its ``data-chart-for`` is :func:`form_id`)."""
    return f"{form_id(slug, mode)}-chart"


def case_inputs(modes: Iterable[Mode]) -> tuple[str, ...]:
    """The input names of ``modes``' forms, sorted: those that make a link's query a case.

    A page's head lists them (:attr:`Metas.inputs`) for every form it shows:
    an address whose query has one of them opens a case, and the engine
    starts at once; other keys (``utm_source``, say) are none of the forms'.
    """
    return tuple(sorted({spec.name for mode in modes for spec in mode.inputs}))


@dataclass(frozen=True, slots=True, kw_only=True)
class Message:
    """One kind of message the page and its worker send each other."""

    name: str
    """What the kind is called here."""
    sender: Literal["page", "worker"]
    keys: tuple[str, ...]
    """Its keys; ``type``, if among them, holds :attr:`name`."""
    doc: str

    def __post_init__(self) -> None:
        if len(set(self.keys)) != len(self.keys) or not all(map(_KEY.match, self.keys)):
            raise ValueError(f"message {self.name}: keys {self.keys}")

    @property
    def typed(self) -> bool:
        """Whether the message says its kind in its ``type`` key."""
        return "type" in self.keys


MESSAGES = (
    Message(
        name="boot",
        sender="page",
        keys=(*ENGINE_FILES, "locales"),
        doc="The worker's boot settings, as JSON in its URL fragment: each engine file's"
        " absolute URL, and the languages whose number formats it warms up.",
    ),
    Message(
        name="progress",
        sender="worker",
        keys=("type", "step", "steps"),
        doc="The boot reached a step of a number of steps.",
    ),
    Message(
        name="ready",
        sender="worker",
        keys=("type", "seconds"),
        doc="The engine is ready, after that many seconds of boot.",
    ),
    Message(
        name="failed",
        sender="worker",
        keys=("type", "error"),
        doc="The engine could not start: why.",
    ),
    Message(
        name="request",
        sender="page",
        keys=("id", "slug", "request", "notation", "locale", "styles", "tables", "labels"),
        doc="A form's inputs (request: raw text by input name, and mode) for the core, with"
        " the form's notation (JSON), locale, each output's style, each table's columns,"
        " and its chart's labels (JSON) or null.",
    ),
    Message(
        name="reply",
        sender="worker",
        keys=("id", "reply", "texts"),
        doc="The core's reply to request id (calculator.web.evaluate, parsed) and its"
        " numbers as the page shows them.",
    ),
    Message(
        name="refused",
        sender="worker",
        keys=("id", "error"),
        doc="Request id could not be computed (the engine is not ready, or broke): why.",
    ),
)
"""Every message between the page and its worker, in the order of a page's life."""

TEXTS = ("outputs", "tables", "bounds", "plurals")
"""The keys of a reply's texts (:data:`MESSAGES`): its outputs and table cells, or each error's
bound, as the page shows them, and the CLDR plural category of each number (``inputs``,
``outputs``), for the units."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Head:
    """The engine's part of a page's head, each URL as that page writes it.

    ``partials/engine-head.html`` lays it out, for the full pages and the embed
    pages alike; :meth:`calcsite.engine.Engine.head` makes it for a page.
    """

    inputs: tuple[str, ...]
    """The input names of the page's forms (:func:`case_inputs`)."""
    worker: str
    files: tuple[tuple[str, str], ...]
    """Each of :data:`ENGINE_FILES`, in that order, with its URL."""
    script: str
    """The page script."""
    prefetch: tuple[str, ...]
    """What the worker fetches, the worker first, for a page to fetch early."""

    def __post_init__(self) -> None:
        if tuple(name for name, _ in self.files) != ENGINE_FILES:
            raise ValueError(f"a head names the engine's files {ENGINE_FILES}, in that order")

    @property
    def metas(self) -> tuple[tuple[str, str], ...]:
        """Each ``<meta>`` of the head: (name, content), as :data:`METAS` names them."""
        return (
            (METAS.inputs, " ".join(self.inputs)),
            (METAS.worker, self.worker),
            *((METAS.file(name), url) for name, url in self.files),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Contract:
    """Everything above, as the templates read it (``contract.attributes.calc``)."""

    metas: Metas
    attributes: Attributes
    states: States
    actions: Actions
    query: Query
    ids: Ids

    def form_id(self, slug: str, mode: str) -> str:
        """:func:`form_id`, for a template."""
        return form_id(slug, mode)


CONTRACT = Contract(
    metas=METAS, attributes=ATTRIBUTES, states=STATES, actions=ACTIONS, query=QUERY, ids=IDS
)
"""The names the templates write, from their context."""


def exports() -> dict[str, dict[str, str]]:
    """What :data:`MODULE` exports, by name: each a flat object of names, keys in camelCase."""
    return {
        "META": {"inputs": METAS.inputs, "worker": METAS.worker},
        "ENGINE_FILES": {name: METAS.file(name) for name in ENGINE_FILES},
        "ATTR": {_camel(key): value for key, value in names(ATTRIBUTES).items()},
        "STATE": {_camel(key): value for key, value in names(STATES).items()},
        "ACTION": {_camel(key): value for key, value in names(ACTIONS).items()},
        "QUERY": {_camel(key): value for key, value in names(QUERY).items()},
        "MARK": {_camel(key): value for key, value in names(MARKS).items()},
        "MESSAGE": {message.name: message.name for message in MESSAGES if message.typed},
        "ID": {_camel(key): value for key, value in names(IDS).items()},
    }


def module_text() -> str:
    """The text of :data:`MODULE`: one frozen object per export, in plain JSON.

    Written as it is served: the build does not minify it (it has nothing to
    drop), so its version is known from these declarations alone.
    """
    lines = [
        "// The browser contract, written by the site's build from overrides/hooks/calcsite/"
        "contract.py: change it there.",
    ]
    for name, names in exports().items():
        text = json.dumps(names, ensure_ascii=False, separators=(",", ":"))
        lines.append(f"export const {name}=Object.freeze({text});")
    return "\n".join(lines) + "\n"


def write_module(site: Path) -> str:
    """Write :data:`MODULE` into a built site and name it, with its version, in each importer.

    Run once the importers are minified (:func:`pin` says why).

    Returns:
        The module's version.

    Raises:
        ContractError: If an importer is missing or does not import the module as declared.
    """
    data = module_text().encode("utf-8")
    target = site / MODULE
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.is_file() or target.read_bytes() != data:
        target.write_bytes(data)
    current = version(data)
    for importer in IMPORTERS:
        pin(site / importer, current)
    return current


def pin(script: Path, current: str) -> None:
    """Have ``script`` import :data:`MODULE` by its version ``current``, in place.

    The source names it ``./contract.mjs?v=000000000000`` (:data:`VERSION_SLOT`):
    the version is written over the zeros, or over the version a previous build
    wrote (``mkdocs serve``). The same number of characters, so the script's
    source map, made as it was minified, still maps every column.

    Raises:
        ContractError: If ``script`` is missing, or does not name the module
            exactly once, with a version.
    """
    name = MODULE.rsplit("/", 1)[-1]
    if not script.is_file():
        raise ContractError(f"{script.name} is not in the site: nothing imports {name}")
    text = script.read_text(encoding="utf-8")
    found = re.findall(rf"\./{re.escape(name)}\?v=[0-9a-f]{{{len(current)}}}", text)
    if len(found) != 1 or text.count(name) != 1:
        raise ContractError(
            f"{script.name} must import ./{name}{VERSION_SLOT} once, as written in its source"
        )
    pinned = text.replace(found[0], f"./{name}?v={current}")
    if pinned != text:
        script.write_text(pinned, encoding="utf-8")
