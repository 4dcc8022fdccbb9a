"""The English the site translates, as a gettext template, merged into each language's catalog.

English is the source language: each English text is a ``msgid``, and each other
language has one catalog, ``overrides/locales/<lang>/LC_MESSAGES/messages.po``, which
:mod:`calcsite.messages` reads at build time. The English does not come from calls
in source code, which ``pybabel extract`` would scan, but from data: the core's
declarations (titles, modes, legends, labels, units, limits, rules, options, tables,
presets), its charts' words, the widget's words (:data:`calcsite.messages.UI`), the
theme's (``WORDS`` in ``overrides/hooks/chrome.py``, read from the file, which
imports MkDocs), the tables of the published runs, of the planner's checks and of the
Performance page, and ``mkdocs.yml``'s site name, description, copyright and
navigation titles. This module collects them, each with a note for translators (the
``#.`` comments: where the text is shown, and the comments above it in ``UI`` and
``WORDS``), and writes them as ``overrides/locales/messages.pot``.

From the repository's root, with ``overrides/hooks`` on the import path::

    python -m calcsite.catalogs extract   # messages.pot from the sources
    python -m calcsite.catalogs update    # the same, then merged into every messages.po
    python -m calcsite.catalogs init de   # a catalog for a new language, every entry empty

``update`` merges as ``pybabel update`` does (Babel's :meth:`Catalog.update`): a new
English text gets an empty entry, a reworded one keeps its old translation marked
fuzzy, and a removed one is dropped. An empty or fuzzy entry is missing: the build
does not use it and ``tests/site/test_messages.py`` lists it.
"""

from __future__ import annotations

import argparse
import ast
import io
import tokenize
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from calculator import CALCULATORS, Choice
from calculator.charts import WORDS as CHART_WORDS
from calculator.spec import UNITS

from . import performance, planner_checks, runs
from .messages import DOMAIN, LANGUAGES, LOCALES, catalog_path

__all__ = [
    "MKDOCS",
    "SITE_KEYS",
    "TEMPLATE",
    "english",
    "entries",
    "extract",
    "header",
    "init",
    "main",
    "mkdocs_config",
    "nav_titles",
    "template",
    "update",
    "write",
]

ROOT = Path(__file__).resolve().parents[3]
MKDOCS = ROOT / "mkdocs.yml"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
"""The template: every English text the site translates, with its notes."""
SITE_KEYS = ("site_name", "site_description", "copyright")
"""The settings of ``mkdocs.yml`` that the i18n plugin's entry of each language translates."""
_MESSAGES = Path(__file__).with_name("messages.py")
_CHROME = ROOT / "overrides" / "hooks" / "chrome.py"
_PROJECT = "parallelism-calculators"
_TEMPLATE_HEADER = """\
# Every English text of the parallel-training calculators' site, to translate.
# Written by `python -m calcsite.catalogs extract` from the declarations and
# word lists it names: edit those, not this file.
#"""
_HEADER = """\
# The {language} words of the parallel-training calculators' site.
# Each msgid is the English the site shows; a #. comment says where.
# Merged from messages.pot by `python -m calcsite.catalogs update`.
# Check: msgfmt --check -o /dev/null <this file>
#"""


class _IgnoreTags(yaml.SafeLoader):
    """Reads mkdocs.yml without resolving MkDocs' own tags (``!ENV``, ``!!python/name``)."""


_IgnoreTags.add_multi_constructor("", lambda _loader, _suffix, _node: None)


class _Notes:
    """English texts, each with its notes for translators."""

    def __init__(self) -> None:
        self.notes: defaultdict[str, set[str]] = defaultdict(set)
        self._shown: defaultdict[tuple[str, str], set[str]] = defaultdict(set)

    def add(self, text: str, note: str) -> None:
        if text:
            self.notes[text].add(note)

    def shown(self, text: str, where: str, slug: str) -> None:
        """``text`` is shown as ``where`` in the calculator ``slug`` (noted once per kind)."""
        if text:
            self._shown[text, where].add(slug)

    def done(self) -> dict[str, list[str]]:
        for (text, where), slugs in self._shown.items():
            self.add(text, f"{where} ({', '.join(sorted(slugs))})")
        return {text: sorted(notes) for text, notes in sorted(self.notes.items())}


def _literal(path: Path, name: str) -> tuple[Any, dict[Any, str]]:
    """The literal assigned to ``name`` in ``path``, and the comment above each of its items.

    A comment block applies to the dict keys or tuple items below it, up to the
    next block, as comments above the entries of :data:`calcsite.messages.UI` do.
    The file is read, not imported.
    """
    source = path.read_text(encoding="utf-8")
    node: ast.expr | None = None
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.AnnAssign):
            targets: list[ast.expr] = [statement.target]
        elif isinstance(statement, ast.Assign):
            targets = statement.targets
        else:
            continue
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            node = statement.value
    if node is None:
        raise LookupError(f"{path} assigns no {name}")
    blocks: dict[int, str] = {}
    previous = -1
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        inside = node.lineno < token.start[0] < (node.end_lineno or 0)
        # A comment on a line of its own; one after an item would be that item's.
        if token.type == tokenize.COMMENT and inside and token.line.lstrip().startswith("#"):
            line, text = token.start[0], token.string.lstrip("#").strip()
            if line == previous + 1 and blocks:  # the block goes on
                start = max(blocks)
                blocks[start] += " " + text
            else:
                blocks[line] = text
            previous = line
    items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", [])
    notes = {}
    for item in items:
        assert item is not None  # no ** in these literals
        above = [line for line in blocks if line < item.lineno]
        if above:
            notes[ast.literal_eval(item)] = blocks[max(above)]
    return ast.literal_eval(node), notes


def _declarations(found: _Notes) -> None:
    for calculator in CALCULATORS.values():
        slug = calculator.slug
        found.shown(calculator.title, "a calculator's title, also its pages' title", slug)
        for mode in calculator.modes:
            found.shown(mode.label, "a mode of a calculator", slug)
            for legend, _ in mode.groups:
                found.shown(legend, "the legend of a group of fields", slug)
            for field in mode.inputs:
                if isinstance(field, Choice):
                    found.shown(field.label, "a list's label", slug)
                    found.shown(field.help, "a list's hint: what its options mean", slug)
                    for option in field.options:
                        found.shown(option.label, f"an option of the list “{field.label}”", slug)
                else:
                    found.shown(field.label, "a field's label", slug)
                    found.shown(
                        field.limit, "a field's upper limit, in its hint (“… to LIMIT.”)", slug
                    )
                    found.shown(field.rule, "a rule, after a field's hint", slug)
            for output in mode.outputs:
                found.shown(output.label, "a result's label", slug)
            for table in mode.tables:
                found.shown(table.label, "a table's title", slug)
            for presets in mode.presets:
                found.shown(presets.label, "the label of a list of presets", slug)
                found.shown(presets.help, "the hint of a list of presets", slug)
    for plural, singular in UNITS.items():
        found.add(plural, "a unit, after any number but one, and in labels")
        found.add(singular, f"a unit after one: the singular of “{plural}”")


def _word_lists(found: _Notes) -> None:
    ui, ui_notes = _literal(_MESSAGES, "UI")
    for key, text in ui.items():
        note = ui_notes.get(key, "")
        found.add(text, f"widget: {key}" + (f". {note}" if note else ""))
    chrome, chrome_notes = _literal(_CHROME, "WORDS")
    for text in chrome:
        note = chrome_notes.get(text, "")
        found.add(text, "theme" + (f": {note}" if note else ""))
    for key, text in CHART_WORDS.items():
        found.add(text, f"chart: {key}")
    for key, text in runs.WORDS.items():
        found.add(text, f"the table of published runs: {key}")
    for text in runs.SAMPLES.values():
        found.add(text, "the table of published runs: a run's unit")
    for run in runs.load():
        found.add(run.precision, "the table of published runs: a run's precision")
        found.add(run.task, "the table of published runs: a run's task")
    for key, text in planner_checks.WORDS.items():
        found.add(text, f"the training planner's checks: {key}")
    for text in planner_checks.TEXTS:
        found.add(text, "the training planner's checks: a table's source")
    for key, text in performance.WORDS.items():
        found.add(text, f"the Performance page: {key}")
    for key, text in performance.HEADERS.items():
        found.add(
            text,
            f"the Performance page: the header row of the {key} table;"
            " as many cells, separated by “ | ”",
        )
    for text in performance.UNITS:
        found.add(text, "the Performance page: a unit")


def mkdocs_config() -> dict[str, Any]:
    """``mkdocs.yml``, its MkDocs tags (``!ENV``...) left unresolved."""
    config: dict[str, Any] = yaml.load(MKDOCS.read_text(encoding="utf-8"), Loader=_IgnoreTags)
    return config


def nav_titles(items: Iterable[Any]) -> Iterable[str]:
    """The titles that ``mkdocs.yml``'s ``nav`` gives, in order (a page's own title is not one)."""
    for item in items:
        if isinstance(item, dict):
            for title, value in item.items():
                yield title
                if isinstance(value, list):
                    yield from nav_titles(value)


def _mkdocs(found: _Notes) -> None:
    config = mkdocs_config()
    for key in SITE_KEYS:
        found.add(config[key], f"mkdocs.yml: {key}; the i18n plugin's entry repeats it")
    for title in nav_titles(config["nav"]):
        found.add(title, "mkdocs.yml: a navigation title; nav_translations repeats it")


def english() -> dict[str, list[str]]:
    """Every English text the site translates, sorted, with its notes for translators."""
    found = _Notes()
    _declarations(found)
    _word_lists(found)
    _mkdocs(found)
    return found.done()


def template() -> Catalog:
    """The template of every catalog: each English text, with its notes and an empty entry."""
    catalog = Catalog(
        domain=DOMAIN,
        header_comment=_TEMPLATE_HEADER,
        project=_PROJECT,
        version=metadata.version(_PROJECT),
        creation_date=datetime.now(UTC),
    )
    for text, notes in english().items():
        catalog.add(text, auto_comments=notes)
    return catalog


def entries(catalog: Catalog) -> list[tuple[object, ...]]:
    """What a catalog says, without its header: to tell whether a file needs rewriting.

    A note is compared word by word: a file holds it wrapped over several lines.
    """
    return [
        (m.id, m.context, m.string or "", " ".join(m.auto_comments).split(), sorted(m.flags))
        for m in catalog
        if m.id
    ]


def write(catalog: Catalog, path: Path) -> None:
    """Write ``catalog`` as every catalog is written: sorted, without obsolete entries."""
    for message in catalog:
        # Babel flags "100% on one device" as a %-format ("% o"): it is not one, and
        # msgfmt --check would refuse its translation. Placeholders are {name} only.
        message.flags.discard("python-format")
    buffer = io.BytesIO()
    write_po(buffer, catalog, sort_output=True, ignore_obsolete=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def _read(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, abort_invalid=True)


def extract(path: Path = TEMPLATE) -> Catalog:
    """Write the template, unless it already says the same (its date then stays)."""
    catalog = template()
    if not path.exists() or entries(_read(path)) != entries(catalog):
        write(catalog, path)
    return _read(path)


def update(languages: Sequence[str] = LANGUAGES[1:]) -> None:
    """Extract the template, then merge it into the catalog of each of ``languages``."""
    fresh = extract()
    for language in languages:
        path = catalog_path(language)
        catalog = _read(path)
        before = entries(catalog)
        catalog.update(fresh)
        if entries(catalog) != before:
            catalog.revision_date = datetime.now(UTC)
        write(catalog, path)


def header(language: str) -> str:
    """The comment that opens the catalog of ``language``."""
    return _HEADER.format(language=Locale.parse(language).english_name)


def init(language: str) -> Path:
    """Start the catalog of a new language: every English text, every entry empty."""
    path = catalog_path(language)
    if path.exists():
        raise FileExistsError(path)
    catalog = Catalog(
        locale=language,
        domain=DOMAIN,
        header_comment=header(language),
        project=_PROJECT,
        version=metadata.version(_PROJECT),
        revision_date=datetime.now(UTC),
        fuzzy=False,
    )
    catalog.update(extract())
    write(catalog, path)
    return path


def main(argv: Sequence[str] | None = None) -> None:
    """The command line: ``extract``, ``update`` or ``init LANGUAGE``."""
    parser = argparse.ArgumentParser(
        prog="python -m calcsite.catalogs", description=__doc__.split("\n", 1)[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract", help=f"write {TEMPLATE.relative_to(ROOT)} from the sources")
    commands.add_parser("update", help="extract, then merge the template into every catalog")
    start = commands.add_parser("init", help="start the catalog of a new language")
    start.add_argument("language", help="its code, as the i18n plugin names it: de, es...")
    args = parser.parse_args(argv)
    if args.command == "extract":
        print(len(extract()), "texts in", TEMPLATE.relative_to(ROOT))
    elif args.command == "update":
        update()
        for language in LANGUAGES[1:]:
            print("updated", catalog_path(language).relative_to(ROOT))
    else:
        print("wrote", init(args.language).relative_to(ROOT))


if __name__ == "__main__":
    main()
