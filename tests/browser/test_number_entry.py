"""Numbers typed as each language's reader writes them, on every field of every page.

For every number input of every calculator, in every language, the values a reader
of that language types (decimal comma or point, each grouping style, spaces,
exponents, pasted values with spaces around them) must give the core's result
for that reading, its note when the text reads two ways, or its message. The
expectations come from ``calculator.web.evaluate`` with the page's notation.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from babel.numbers import format_decimal
from calcsite.formatting import format_output, notation, plain
from calcsite.widgets import unit_text
from playwright.sync_api import Page

from calculator import display_decimal
from calculator.spec import Input, Mode
from tests.support.server import Server

from .expected import (
    CALCULATOR_PAGES,
    LANGUAGES,
    StaticForm,
    expected_reply,
    message,
    mode_of,
    page_path,
    static_forms,
    ui,
)
from .test_live import SETTLED, go_live, selector

pytestmark = pytest.mark.browser

EVERY_PAGE = [
    pytest.param(language, slug, id=f"{language}-{slug}")
    for language in LANGUAGES
    for slug in CALCULATOR_PAGES
]

READ_FORM = (
    """async ([selector, timeout]) => {
  const form = document.querySelector(selector);
  const settled = () => ("""
    + SETTLED
    + """)(selector);
  if (!settled()) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error(`${selector}: not settled`));
      }, timeout);
      const observer = new MutationObserver(() => {
        if (settled()) { observer.disconnect(); clearTimeout(timer); resolve(); }
      });
      observer.observe(form, { attributes: true, attributeFilter: ["data-state", "aria-busy"] });
    });
  }
  const byName = (nodes, key) =>
    Object.fromEntries([...nodes].map((el) => [el.dataset[key], el.textContent]));
  return {
    state: form.dataset.state,
    outputs: byName(form.querySelectorAll("output[data-output]"), "output"),
    errors: byName(form.querySelectorAll("[data-error-for]"), "errorFor"),
    notes: byName(form.querySelectorAll("[data-note-for]"), "noteFor"),
    inputUnits: byName(form.querySelectorAll("[data-input-unit]"), "inputUnit"),
    outputUnits: byName(form.querySelectorAll("[data-output-unit]"), "outputUnit"),
  };
}"""
)
"""The form once it shows the reply to what was typed last, read in one round trip.

Settled as :data:`tests.browser.test_live.SETTLED` says, observed as the form's
``data-state`` and ``aria-busy`` change rather than polled at each frame: the
planner's forms alone take some 1,000 values.
"""

TYPE_AND_READ = (
    """async ([selector, name, text, timeout]) => {
  const field = document.querySelector(`${selector} input[name="${name}"]`);
  field.focus();
  field.select();
  document.execCommand(text ? "insertText" : "delete", false, text);
  return { typed: field.value, ...(await ("""
    + READ_FORM
    + """)([selector, timeout])) };
}"""
)
"""Type ``text`` over a field's value, then read the form as :data:`READ_FORM` does: one round trip.

The field is focused, its text selected and replaced by the browser's own editing
command, which fires the trusted ``beforeinput`` and ``input`` events that typing
fires (what Playwright's ``fill`` does through the DevTools protocol, in two more
round trips and a layout for its checks of the field's visibility, a third of each
value's processor time on the planner's page). ``typed`` is what the field then
holds, checked to be the text, spaces and all.
"""

SETTLE_MS = 10_000

INTL_SYMBOLS = """(locale) => {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  const find = (type) => parts.find((part) => part.type === type).value;
  return { decimal: find("decimal"), group: find("group") };
}"""


def typed_variants(spec: Input, language: str) -> list[str]:
    """What a reader of ``language`` might type into this field, derived from its bounds."""
    written = notation(language)
    default = plain(spec.default if spec.default is not None else 1)
    variants = [f"  {written.write(default)}\u00a0", default]
    candidates = [Decimal(1234) if spec.integer else Decimal("1234.5"), Decimal(1500)]
    for number in candidates:
        if spec.accepts(float(number)):
            grouped = format_decimal(number, locale=language, decimal_quantization=False)
            variants.append(grouped)
            if written.group in "\u202f\u00a0":
                variants.append(grouped.replace(written.group, " "))
    if not spec.integer and spec.accepts(2.25):
        variants += [written.write("2.25"), "2.25"]
    if spec.accepts(1000.0):
        variants += ["1e3", "1E3"]
    # A count of one: units agree in number.
    if spec.accepts(1.0):
        variants.append("1")
    variants += ["1,2,3", "1.5.2"]
    return variants


def expected_state(
    mode: Mode, form: StaticForm, name: str, text: str, language: str
) -> dict[str, Any]:
    """What the form must show with ``text`` in field ``name`` and the example elsewhere."""
    raw = {**form.inputs, name: text}
    reply = expected_reply(form.slug, mode.name, raw, language)
    written = notation(language)
    # Only text fields have a note: a choice is read no two ways.
    notes = dict.fromkeys((spec.name for spec in mode.inputs if isinstance(spec, Input)), "")
    for note in reply["notes"]:
        value, other = (written.write(reading) for reading in note["readings"])
        notes[note["field"]] = (
            ui(note["code"], language).replace("{value}", value).replace("{other}", other)
        )
    input_units = {
        spec.name: unit_text(
            spec.unit,
            reply["plain"][spec.name] if _finite(reply["plain"][spec.name]) else None,
            language,
        )
        for spec in mode.inputs
        if isinstance(spec, Input) and spec.unit
    }
    expected: dict[str, Any] = {"notes": notes, "inputUnits": input_units}
    if reply["ok"]:
        values = reply["outputs"]
        expected.update(
            state="ready",
            outputs={o.name: format_output(o, values[o.name], language) for o in mode.outputs},
            errors=dict.fromkeys(form.inputs, ""),
            outputUnits={
                o.name: unit_text(
                    o.unit,
                    None if values[o.name] is None else display_decimal(o, values[o.name]),
                    language,
                )
                for o in mode.outputs
                if o.unit
            },
        )
    else:
        errors = dict.fromkeys(form.inputs, "")
        for error in reply["errors"]:
            if not errors.get(error["field"]):
                errors[error["field"]] = message(error["code"], error["bound"], language)
        expected.update(state="invalid", errors=errors, outputs=dict.fromkeys(form.outputs, "—"))
    return expected


def _finite(text: str | None) -> bool:
    if not text or not text.strip():
        return False
    try:
        return Decimal(text).is_finite()
    except ArithmeticError:
        return False


@pytest.mark.parametrize(("language", "slug"), EVERY_PAGE)
def test_every_field_reads_numbers_as_the_page_language_writes_them(
    page: Page, server: Server, language: str, slug: str
) -> None:
    forms = static_forms(server.url(page_path(language, slug)))
    go_live(page, server.url(page_path(language, slug)))
    # The symbols the build wrote (Babel's CLDR data) are the browser's own.
    for form in forms:
        written = json.loads(page.locator(selector(form)).get_attribute("data-notation") or "{}")
        assert page.evaluate(INTL_SYMBOLS, language) == {
            "decimal": written["decimal"],
            "group": written["group"],
        }
    checked = 0
    for form in forms:
        mode = mode_of(form.slug, form.mode)
        for spec in mode.inputs:
            if not isinstance(spec, Input):
                continue  # a choice is picked, not typed (tests/browser/test_live.py)
            for text in [*typed_variants(spec, language), form.inputs[spec.name]]:
                shown = page.evaluate(TYPE_AND_READ, [selector(form), spec.name, text, SETTLE_MS])
                assert shown["typed"] == text
                expected = expected_state(mode, form, spec.name, text, language)
                assert {key: shown[key] for key in expected} == expected, (spec.name, text)
                checked += 1
    assert checked > 0
