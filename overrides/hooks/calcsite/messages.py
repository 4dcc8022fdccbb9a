"""The site's words in each language: one gettext catalog per language, and one lookup.

English is the source: every English text the site shows is a ``msgid``, and each
other language has one catalog, ``overrides/locales/<lang>/LC_MESSAGES/messages.po``
(where MkDocs' own themes keep theirs, and which MkDocs never copies into the site).
The English comes from the core's declarations (labels, units, legends...), the
widget's words here (:data:`UI`), the theme's (``overrides/hooks/chrome.py``), the
tables' word lists and ``mkdocs.yml``; :mod:`calcsite.catalogs` collects it into
``overrides/locales/messages.pot`` and merges that into each catalog, which a
translator then edits with any ``.po`` editor. :func:`translate` is the one lookup.

The catalogs are read with Babel's ``read_po`` when this module is imported, the
build's only use of them: no ``.mo`` is compiled, since the lookup wants a missing
entry to be an error, where ``gettext``'s would show the English. An empty or fuzzy
entry is left out, as ``msgfmt`` leaves it out, and a translation whose ``{name}``
placeholders differ from its English's fails the import (``msgfmt --check`` says the
same of a ``python-brace-format`` entry). ``tests/site/test_messages.py`` lists what
is missing, and what a reworded text left behind.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from babel.messages.pofile import read_po

__all__ = [
    "CATALOGS",
    "DOMAIN",
    "LANGUAGES",
    "LOCALES",
    "SOURCE",
    "UI",
    "CatalogError",
    "catalog_path",
    "placeholders",
    "read_catalog",
    "translate",
    "tree",
]

UI: dict[str, str] = {
    # Error codes of the core, worded for a reader. {bound} is formatted for the page's language.
    "required": "Enter a value.",
    "not_a_number": "Enter a number.",
    "not_an_integer": "Enter a whole number.",
    "below_minimum": "Enter {bound} or more.",
    "not_above_minimum": "Enter a number greater than {bound}.",
    "above_maximum": "Enter {bound} or less.",
    "not_divisible": "Must be a multiple of {bound}.",
    "not_a_choice": "Choose one of the listed values.",
    "tree_allreduce_only": (
        "NCCL runs a tree for all-reduce only: with sharding, the reduce-scatter and all-gather "
        "run as rings. Choose the ring."
    ),
    "too_many_layouts": (
        "More than {bound} layouts to search: check one layout instead, with the check mode."
    ),
    "unknown_field": "Not an input of this calculator.",
    "unknown_mode": "This calculator has no such mode.",
    "unknown_calculator": "No such calculator.",
    "bad_request": "The request could not be read.",
    "internal": "This case could not be computed (a fault of the calculator, not of your values).",
    # Notes of the core: a field read two ways; {value} was taken, {other} is the other reading.
    "read_grouped": (
        "Read as {value}: here the point separates thousands. For {other}, type {other}."
    ),
    # Warnings of the core.
    "super_linear": (
        "Above 100%: super-linear scaling. At the same per-device batch it usually comes "
        "from the data (each node caches its share of the dataset) or from a wrong baseline: "
        "check the single-device measurement first."
    ),
    "latency_bound": (
        "Latency outweighs bandwidth: every call pays its steps' latency. Fewer, larger calls "
        "(a larger bucket size) shorten it; without sharding, NCCL would run such all-reduces "
        "across many nodes as a tree: compare with the tree algorithm."
    ),
    "tensor_across_nodes": (
        "The tensor-parallel degree is larger than a node: every layer's collectives cross "
        "the network."
    ),
    "out_of_memory": "Does not fit: the most loaded device needs more memory than it has.",
    "no_layout": (
        "No layout splits these devices and this global batch: the batch must be a multiple "
        "of the data-parallel replicas, with t within a node dividing the heads and p the layers."
    ),
    "nothing_fits": (
        "No layout fits in a device's memory, even with ZeRO-3 and full recomputation: more "
        "devices, or more memory per device."
    ),
    # States of the widget (form[data-state]).
    "static": "Example: results for the values shown.",
    "loading": "Loading the calculator…",
    "ready": "Results for the values shown.",
    "invalid": "No results: correct the marked fields.",
    "failed": (
        "The live calculator could not start in this browser. "
        "The results below are the example for the default values."
    ),
    # Other widget text.
    "results": "Results",
    "not_applicable": "—",
    "copy_link": "Copy link to these values",
    "copied": "Link copied",
    "copy_failed": "Copy failed: the link is in the address bar",
    "noscript": (
        "The live calculator needs JavaScript. The results are the example for the values "
        "shown; the values of a shared link are not applied."
    ),
    # What a field accepts, in words; {min} and {max} are formatted for the page.
    "hint.whole": "A whole number from {min} to {max}.",
    "hint.above": "A number greater than {min}, up to {max}.",
    "hint.from": "A number from {min} to {max}.",
    "hint.up_to": "A number up to {max}.",
    "hint.optional": "Optional. {hint}",
    "last_updated": "Last updated: {date}",
    "reference.input": "Input",
    "reference.output": "Output",
    "reference.unit": "Unit",
    "reference.accepted": "Accepted values",
    "reference.default": "Default",
    # A choice's option in the reference: {value} as links and scripts write it, then its label.
    "reference.option": "{value}: {label}",
    "reference.default_mode": "{mode} (default): {label}",
    "reference.other_mode": "{mode}: {label}",
    "reference.mode": "Mode",
    # The table of how each language's page reads a typed number.
    "notation.typed": "Typed",
    "notation.page": "{language} page",
    "notation.unreadable": "not a number",
    "notation.two_ways": "{value}, with a note (not {other})",
    # The "Embed" control of a form, and the embed page's link to the full page.
    "embed.copy": "Copy embed code",
    "embed.copied": "Embed code copied",
    "embed.copy_failed": "Copy failed: the embed code is below the button",
    "embed.full_page": "{title}: the full page, with the explanation",
    # The last column of a list output (the planner's plans): each row's case in other forms.
    "table.open": "Open this case in",
    # Above a form with presets: lists that fill some fields; the first item picks none.
    "presets.legend": "Fill in from",
    "presets.none": "(as entered)",
    "presets.source": "Source:",
}

SOURCE = "en"
"""The source language: its texts are the catalogs' keys, and it has no catalog."""
LOCALES = Path(__file__).resolve().parents[2] / "locales"
"""The catalogs' folder, ``overrides/locales``, laid out as gettext and Babel expect."""
DOMAIN = "messages"
"""The catalogs' name: ``<lang>/LC_MESSAGES/messages.po`` (and the template ``messages.pot``)."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class CatalogError(ValueError):
    """A catalog cannot be used: an entry's placeholders differ from its English's."""


def catalog_path(language: str) -> Path:
    """Where the catalog of ``language`` is."""
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def placeholders(text: str) -> set[str]:
    """The names of the ``{name}`` placeholders that ``text`` has."""
    return set(_PLACEHOLDER.findall(text))


def read_catalog(path: Path) -> Mapping[str, str]:
    """The translations of one catalog, by English; its empty and fuzzy entries left out.

    Raises:
        CatalogError: If a translation's placeholders are not its English's, or an
            entry has a context or plural forms, which :func:`translate` cannot look up.
    """
    with path.open("rb") as file:
        catalog = read_po(file, abort_invalid=True)
    entries = {}
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        where = f"{path}:{message.lineno}"
        if message.context is not None or not isinstance(message.id, str):
            raise CatalogError(f"{where}: no context or plural forms, only one text per msgid")
        assert isinstance(message.string, str)
        if placeholders(message.string) != placeholders(message.id):
            raise CatalogError(
                f"{where}: the translation of {message.id!r} has the placeholders "
                f"{sorted(placeholders(message.string))}, not {sorted(placeholders(message.id))}"
            )
        entries[message.id] = message.string
    return MappingProxyType(entries)


CATALOGS: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        SOURCE: MappingProxyType({}),
        **{
            path.parents[1].name: read_catalog(path)
            for path in sorted(LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
        },
    }
)
"""Translations by language, keyed by the English text; English's is empty."""

LANGUAGES: tuple[str, ...] = tuple(CATALOGS)
"""The site's languages: English, then each catalog's, alphabetically. The one list
the build, the tests and the benchmark read; the i18n plugin in ``mkdocs.yml`` lists
the same languages in the same order, which ``tests/site/test_languages.py`` checks."""


def tree(language: str) -> str:
    """The path of a language's tree under the site root: ``""`` for the default, ``fr/``..."""
    return "" if language == LANGUAGES[0] else f"{language}/"


def translate(language: str, english: str) -> str:
    """Return ``english`` in ``language``; English text is its own translation.

    Raises:
        KeyError: If the language has no catalog or the catalog lacks the text,
            so that a missing translation fails the build instead of showing English.
    """
    catalog = CATALOGS[language]
    if language == SOURCE or not english:
        return english
    return catalog[english]
