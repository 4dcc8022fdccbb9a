"""What the pages should show, computed by the core and the build's formatters.

Nothing here is typed by hand: results come from :func:`calculator.run` and
:func:`calculator.web.evaluate`, texts from ``calcsite.formatting`` (Babel)
and ``calcsite.messages`` (the catalogs), as at build time.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.request import urlopen

from calcsite.formatting import format_bound, format_output, notation
from calcsite.messages import LANGUAGES as SITE_LANGUAGES
from calcsite.messages import UI, translate, tree

from calculator import CALCULATORS, Choice, Input, evaluate, get, run
from calculator.notation import localise
from calculator.spec import Mode, Result

LANGUAGES = {language: tree(language) for language in SITE_LANGUAGES}
"""Language of the page: path prefix of its tree."""

CALCULATOR_PAGES = tuple(CALCULATORS)
"""Pages with calculators, one per registered calculator; each page's path is its slug."""

OTHER_PAGES = ("", "automation/")

NEW_VALUES: dict[tuple[str, str], dict[str, str]] = {
    ("data-parallel-scaling", "predict"): {
        "devices": "256",
        "throughput": "1234.5",
        "efficiency": "87.5",
    },
    # Latency-bound: many small buckets on many devices (a warning), even as a
    # tree, chosen from its list, across the 128 nodes of 4 devices.
    ("data-parallel-scaling", "estimate"): {
        "devices": "512",
        "devices_per_node": "4",
        "bus_bandwidth": "25.5",
        "algorithm": "tree",
        "latency": "2",
        "network_latency": "20",
        "bucket_size": "1",
        "overlap": "50",
    },
    ("data-parallel-scaling", "measure"): {
        "devices": "8",
        "throughput": "1000",
        "measured": "8400",
    },
    # No sequence length: tokens per step does not apply.
    ("effective-batch-size", "global-batch"): {
        "micro_batch": "4",
        "world_size": "512",
        "tensor_parallel": "8",
        "sequence_length": "",
    },
    ("effective-batch-size", "accumulation"): {
        "global_batch": "3072",
        "micro_batch": "2",
        "world_size": "1024",
        "pipeline_parallel": "8",
        "sequence_length": "8192",
    },
    ("pipeline-bubble", "bubble"): {"stages": "7", "micro_batches": "30"},
    # A LLaMA-like model: grouped-query attention, SwiGLU, on 16 devices (247 layouts).
    ("training-planner", "search"): {
        "layers": "32",
        "hidden": "4096",
        "heads": "32",
        "kv_heads": "8",
        "ffn": "11008",
        "mlp": "swiglu",
        "vocabulary": "32000",
        "sequence": "4096",
        "devices": "16",
        "global_batch": "128",
    },
    # GPT-3 on 128 devices, interleaved, ZeRO-1 and full recomputation: 86 GB, more than
    # a device's 80 (a warning).
    ("training-planner", "check"): {
        "devices": "128",
        "global_batch": "256",
        "micro_batch": "2",
        "tensor": "4",
        "pipeline": "4",
        "interleave": "2",
        "zero": "1",
        "recompute": "full",
    },
}
"""A case other than the example for each mode: the values a test types, each unlike the
example's. Chosen, not derived: each shows something (a warning, an empty optional field,
an option of a list); ``tests/test_registry.py`` fails for a mode without them."""

CROSS_FIELD: dict[str, dict[str, str]] = {
    "data-parallel-scaling": {"measured": "99000000"},
    "effective-batch-size": {"tensor_parallel": "3"},
    "pipeline-bubble": {"chunks": "2", "micro_batches": "6"},
    # 12,288 is no multiple of 100 heads (and 100 none of the check's t = 8).
    "training-planner": {"heads": "100"},
}
"""Values each calculator refuses because of another field, which the live test types;
``{}`` for a calculator whose fields are each refused alone. ``tests/test_registry.py``
fails for a calculator missing here."""


def page_path(language: str, page: str) -> str:
    """The path of ``page`` (a folder, ``""`` for the home page) in ``language``'s tree."""
    return LANGUAGES[language] + page + ("/" if page and not page.endswith("/") else "")


def mode_of(slug: str, mode: str) -> Mode:
    """The declaration of calculator ``slug``'s mode ``mode``."""
    return get(slug).mode(mode)


def read(slug: str, mode: str, raw: dict[str, str], language: str) -> dict[str, str]:
    """The field texts in plain notation, as the core reads them on a ``language`` page."""
    spec = mode_of(slug, mode)
    # A choice's value is the same word on every page: no notation reads it.
    numbers = tuple(item.name for item in spec.inputs if isinstance(item, Input))
    plain, _ = localise(numbers, raw, notation(language))
    return {name: str(value) for name, value in plain.items()}


def field_text(plain: str, language: str) -> str:
    """What a field shows for a value from a link: plain decimals in the language's signs.

    Anything else (a choice's value, text that is no plain decimal) shows as it came.
    """
    try:
        return notation(language).write(plain.strip())
    except ValueError:
        return plain.strip()


@functools.cache
def _computed(slug: str, mode: str, given: tuple[tuple[str, str], ...]) -> Result:
    """The core's result for the plain values ``given``: each case computed once a process.

    The core is deterministic, and the planner's search costs tens of milliseconds,
    which a test that checks every result a page ever wrote pays for each of them,
    most of them the same few cases.
    """
    return run(mode_of(slug, mode), dict(given))


def _result(slug: str, mode: str, raw: dict[str, str], language: str) -> Result:
    """The core's result for the raw values typed on a ``language`` page, empty fields left out."""
    given = read(slug, mode, raw, language)
    return _computed(slug, mode, tuple((name, value) for name, value in given.items() if value))


def expected_outputs(slug: str, mode: str, raw: dict[str, str], language: str) -> dict[str, str]:
    """The text of every output for the raw input values, as the page must show it."""
    spec = mode_of(slug, mode)
    values = _result(slug, mode, raw, language).values
    return {
        output.name: format_output(output, values[output.name], language) for output in spec.outputs
    }


def expected_warnings(slug: str, mode: str, raw: dict[str, str], language: str) -> list[str]:
    """The warnings the page must show for the raw input values, in ``language``, in order."""
    result = _result(slug, mode, raw, language)
    return [translate(language, UI[code]) for code in result.warnings]


def expected_reply(slug: str, mode: str, raw: dict[str, str], language: str) -> dict[str, Any]:
    """What ``calculator.web.evaluate`` answers for the raw values typed on a ``language`` page."""
    request = json.dumps({**raw, "mode": mode})
    reply: dict[str, Any] = json.loads(_evaluated(slug, request, notation(language).as_json()))
    return reply


@functools.cache
def _evaluated(slug: str, request: str, notation_json: str) -> str:
    """``calculator.web.evaluate``'s reply: each request evaluated once a process.

    As :func:`_computed`, for the tests that read the whole reply.
    """
    return evaluate(slug, request, notation_json)


def expected_errors(slug: str, mode: str, raw: dict[str, str], language: str) -> dict[str, str]:
    """The error message of every refused field, in ``language``, by field name."""
    reply = expected_reply(slug, mode, raw, language)
    assert not reply["ok"], reply
    return {
        error["field"]: message(error["code"], error["bound"], language)
        for error in reply["errors"]
    }


def message(code: str, bound: float | None, language: str) -> str:
    """The message of error ``code`` in ``language``, its bound written as the page writes it."""
    text = translate(language, UI[code])
    return text if bound is None else text.replace("{bound}", format_bound(bound, language))


def ui(key: str, language: str) -> str:
    """The interface text ``key`` (a status line, a button, an error code) in ``language``."""
    return translate(language, UI[key])


@dataclass
class StaticForm:
    """A calculator form as the HTML has it, before any script."""

    slug: str
    mode: str
    default_mode: str
    state: str
    locale: str
    inputs: dict[str, str] = field(default_factory=dict)
    """Every field's value by name, in form order: a list's is its selected option's."""
    outputs: dict[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    status: str = ""

    @property
    def choices(self) -> frozenset[str]:
        """The names of the form's lists: its declaration's choices."""
        inputs = mode_of(self.slug, self.mode).inputs
        return frozenset(spec.name for spec in inputs if isinstance(spec, Choice))


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[StaticForm] = []
        self._target: tuple[str, str | dict[str, str] | list[str], str] | None = None
        self._text: list[str] = []
        self._inside = False
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form" and "data-calc" in a:
            self.forms.append(
                StaticForm(
                    slug=a["data-calc"],
                    mode=a["data-mode"],
                    default_mode=a["data-default-mode"],
                    state=a["data-state"],
                    locale=a["data-locale"],
                )
            )
            self._inside = True
        elif not self._inside:
            return
        form = self.forms[-1]
        if tag == "input" and "name" in a:
            form.inputs[a["name"]] = a.get("value", "")
        elif tag == "select" and "name" in a:
            self._select = a["name"]
        elif tag == "option" and self._select is not None and "selected" in a:
            form.inputs[self._select] = a.get("value", "")
        elif tag == "output" and "data-output" in a:
            self._start("outputs", a["data-output"])
        elif "data-error-for" in a:
            self._start("errors", a["data-error-for"])
        elif "data-status" in a:
            self._start("status", "")
        elif tag == "li" and "calc__warning" in a.get("class", "").split():
            self._start("warnings", "")

    def _start(self, kind: str, key: str) -> None:
        self._target = (kind, key, "")
        self._text = []

    def handle_data(self, data: str) -> None:
        if self._target:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._inside = False
        if tag == "select":
            self._select = None
        if not self._target or tag not in ("output", "p", "li"):
            return
        kind, key, _ = self._target
        text = "".join(self._text)
        form = self.forms[-1]
        if kind == "outputs":
            form.outputs[str(key)] = text
        elif kind == "errors":
            form.errors[str(key)] = text
        elif kind == "status":
            form.status = text
        else:
            form.warnings.append(text.strip())
        self._target = None


def static_forms(url: str) -> list[StaticForm]:
    """The calculator forms of the page at ``url``, as served, before any script."""
    with urlopen(url) as response:
        html = response.read().decode("utf-8")
    parser = _FormParser()
    parser.feed(html)
    return parser.forms
