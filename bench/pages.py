"""The calculator pages of a built site, and what each one must show.

A calculator page is any page with a ``form.calc``; its first form in the
default mode is the one a shared link fills. The expected texts are the core's
results as the build formats them, so the benchmark waits for the right
numbers, not merely for a change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode

from calcsite.embed import FOLDER as EMBED_FOLDER
from calcsite.formatting import format_output, notation

from calculator import Choice, InvalidInputs, Mode, get, run
from calculator.notation import localise


@dataclass(frozen=True)
class Form:
    """One calculator form as the HTML carries it."""

    slug: str
    mode: str
    default_mode: str
    locale: str
    inputs: dict[str, str]
    """Input values as written in the HTML, by name (a choice's: its selected option's)."""
    outputs: tuple[str, ...]
    """Output texts as written in the HTML, in page order."""

    @property
    def selector(self) -> str:
        """CSS selector of this form (the first one of its calculator and mode)."""
        return f'form.calc[data-calc="{self.slug}"][data-mode="{self.mode}"]'

    def core_mode(self) -> Mode:
        """The core's declaration of this form's mode."""
        return get(self.slug).mode(self.mode)

    def written(self) -> dict[str, object]:
        """The form's inputs in plain notation, read as its language writes them."""
        names = tuple(spec.name for spec in self.core_mode().inputs)
        return localise(names, self.inputs, notation(self.locale))[0]

    def expected(self, values: Mapping[str, object]) -> tuple[str, ...] | None:
        """Output texts for ``values`` in this form's language; ``None`` if invalid."""
        mode = self.core_mode()
        try:
            result = run(mode, values)
        except InvalidInputs:
            return None
        return tuple(
            format_output(output, result.values[output.name], self.locale)
            for output in mode.outputs
        )


@dataclass(frozen=True)
class CalcPage:
    """A page with at least one calculator form."""

    path: str
    """Relative to the site root, ending in ``/`` (``fr/pipeline-bubble/``)."""
    language: str
    forms: tuple[Form, ...]

    @property
    def main(self) -> Form:
        """The form a shared link fills: the first in its calculator's default mode."""
        first = self.forms[0]
        return next(
            (f for f in self.forms if f.slug == first.slug and f.mode == f.default_mode), first
        )

    def prerendered(self) -> bool:
        """Whether every form's initial HTML already shows its own inputs' results.

        The fields are read as the page writes them (``62,5`` on a French page), as
        the page's worker reads them.
        """
        return all(form.outputs == form.expected(form.written()) for form in self.forms)


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang = ""
        self.forms: list[Form] = []
        self._form: dict[str, str] | None = None
        self._inputs: dict[str, str] = {}
        self._select: str | None = None
        self._outputs: list[str] = []
        self._text: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: value or "" for key, value in attrs}
        if tag == "html":
            self.lang = attr.get("lang", "")
        elif tag == "form" and "calc" in attr.get("class", "").split() and "data-calc" in attr:
            self._form, self._inputs, self._outputs = attr, {}, []
        elif self._form is not None and tag == "input" and "name" in attr:
            self._inputs[attr["name"]] = attr.get("value", "")
        elif self._form is not None and tag == "select" and "name" in attr:
            self._select = attr["name"]
        elif self._select is not None and tag == "option" and "selected" in attr:
            self._inputs[self._select] = attr.get("value", "")
        elif self._form is not None and tag == "output" and "data-output" in attr:
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "output" and self._text is not None:
            self._outputs.append("".join(self._text))
            self._text = None
        elif tag == "form" and self._form is not None:
            form = self._form
            self.forms.append(
                Form(
                    slug=form["data-calc"],
                    mode=form["data-mode"],
                    default_mode=form.get("data-default-mode", form["data-mode"]),
                    locale=form.get("data-locale", self.lang),
                    inputs=dict(self._inputs),
                    outputs=tuple(self._outputs),
                )
            )
            self._form = None


def calculator_pages(site: Path) -> list[CalcPage]:
    """Every page of ``site`` with a calculator, in path order."""
    pages = []
    for html in sorted(site.rglob("index.html")):
        if EMBED_FOLDER in html.relative_to(site).parts:
            continue  # the embed pages (calcsite.embed): the same forms, without the page
        parser = _FormParser()
        parser.feed(html.read_text(encoding="utf-8"))
        if parser.forms:
            path = html.parent.relative_to(site).as_posix()
            path = "" if path == "." else path + "/"
            pages.append(CalcPage(path=path, language=parser.lang, forms=tuple(parser.forms)))
    return pages


def _number(value: float, integer: bool) -> str:
    return str(int(value)) if integer else format(value, "g")


def shared_link(form: Form) -> tuple[str, tuple[str, ...]]:
    """A query string that differs from the example, and the texts it must produce.

    Each number is doubled (halved where doubling leaves its bounds); when the
    core refuses that combination, only the first number is changed. A choice
    keeps the example's value: it is picked from a list, never typed.
    """
    mode = form.core_mode()
    changed: dict[str, str] = {}
    numbers: list[str] = []
    for spec in mode.inputs:
        if isinstance(spec, Choice):
            changed[spec.name] = form.inputs[spec.name]
            continue
        if spec.default is None:
            continue
        value = spec.default * 2
        if spec.maximum is not None and value > spec.maximum:
            value = spec.default / 2
        changed[spec.name] = _number(value, spec.integer)
        numbers.append(spec.name)
    first = numbers[0]
    candidates = [changed, {**form.inputs, first: changed[first]}]
    for values in candidates:
        texts = form.expected(values)
        if texts is not None and texts != form.outputs:
            return urlencode(values), texts
    raise ValueError(f"{form.selector}: no shared link with other results than the example")


@dataclass(frozen=True)
class Step:
    """One change of the recompute benchmark: a value for one input, and the texts after it."""

    value: str
    texts: tuple[str, ...]


def recompute_steps(form: Form, count: int) -> tuple[str, list[Step]]:
    """``count`` successive values of one input, each changing the results.

    Picks the first number with room for ``count`` whole steps above (or below)
    its example value, and returns its name and the steps; a choice is no
    number to step through.
    """
    mode = form.core_mode()
    for spec in mode.inputs:
        if isinstance(spec, Choice):
            continue
        start = float(form.inputs[spec.name])
        for direction in (1, -1):
            values = [start + direction * (i + 1) for i in range(count)]
            low = spec.minimum if spec.minimum is not None else float("-inf")
            high = spec.maximum if spec.maximum is not None else float("inf")
            if not all(low < v <= high for v in values):
                continue
            steps, previous = [], form.outputs
            for v in values:
                text = _number(v, spec.integer)
                texts = form.expected({**form.inputs, spec.name: text})
                if texts is None or texts == previous:
                    break
                steps.append(Step(text, texts))
                previous = texts
            else:
                return spec.name, steps
    raise ValueError(f"{form.selector}: no input can take {count} successive values")
