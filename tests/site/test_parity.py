"""The languages of every page hold together: what can be compared without reading is the same.

Readers follow a link to one language and trust it, so every translation of a page must keep
the English page's skeleton. The pages are found on disk (``docs/<page>.md`` and its
``docs/<page>.<lang>.md`` siblings) and the languages are those of the i18n plugin in
``mkdocs.yml``, so a new page or a new language is checked without touching this file.
For every page and every other language, compared with the default language:

- the headings: the same levels, in the same order, each below the title with the same
  explicit ``{ #id }``, so that a link to a section works in every language;
- the directives (``<!-- md:... -->``), with their arguments, section by section;
- the links, section by section: the same URLs and the same anchors;
- the formulas: the same display formulas, and the same symbols in the inline ones;
- the snippets the page includes, each in the page's own language.

Prose is not compared: each language says the same thing in its own words.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,}).*?^(?P=fence)[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(?P<ticks>`+)[^`\n].*?(?P=ticks)")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})[ \t]+(?P<text>.*?)[ \t]*$", re.MULTILINE)
_HEADING_ID = re.compile(r"\{[^}]*#(?P<id>[\w-]+)[^}]*\}\s*$")
_DIRECTIVE = re.compile(r"<!--\s*md:(?P<kind>[a-z]+)\s+(?P<args>.*?)\s*-->", re.DOTALL)
_LINK = re.compile(
    r"\]\(\s*<?(?P<md>[^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"  # [text](url "title")
    r"|^\s*\[[^\]]+\]:\s*<?(?P<ref>\S+?)>?(?:\s|$)"  # [label]: url
    r"|<(?P<auto>https?://[^>\s]+)>"  # <https://...>
    r"|\bhref=\"(?P<href>[^\"]+)\"",  # raw HTML
    re.MULTILINE,
)
_DISPLAY_MATH = re.compile(r"^\$\$\s*\n(?P<tex>.*?)\n\s*\$\$\s*$", re.MULTILINE | re.DOTALL)
_INLINE_MATH = re.compile(r"\\\((?P<tex>.*?)\\\)", re.DOTALL)
# A symbol: a command with its braced argument (\mathrm{dp}, \beta), or one Latin letter.
_SYMBOL = re.compile(r"\\[A-Za-z]+(?:\{[^{}]*\})?|[A-Za-z]")
# Commands that only space or size a formula; they are layout, not symbols.
_LAYOUT = {r"\quad", r"\qquad", r"\left", r"\right"}
_SNIPPET = re.compile(r"^-{1,3}8<-{1,3}[ \t]+[\"']?(?P<path>[^\"'\s]+)[\"']?[ \t]*$", re.MULTILINE)


class _IgnoreTags(yaml.SafeLoader):
    """Reads mkdocs.yml without resolving MkDocs' own tags (``!ENV``, ``!!python/name``)."""


_IgnoreTags.add_multi_constructor("", lambda _loader, _suffix, _node: None)


@cache
def languages() -> tuple[str, tuple[str, ...]]:
    """The default language and the others, from the i18n plugin in ``mkdocs.yml``."""
    config: dict[str, Any] = yaml.load(  # a SafeLoader that drops unknown tags
        (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_IgnoreTags
    )
    for plugin in config["plugins"]:
        if isinstance(plugin, dict) and "i18n" in plugin:
            entries = plugin["i18n"]["languages"]
            default = next(entry["locale"] for entry in entries if entry.get("default"))
            others = tuple(entry["locale"] for entry in entries if not entry.get("default"))
            return default, others
    raise AssertionError("mkdocs.yml has no i18n plugin")


def page_files() -> dict[str, dict[str, Path]]:
    """Every page of ``docs/``, by name, then by language."""
    default, others = languages()
    pages: dict[str, dict[str, Path]] = {}
    for path in sorted(DOCS.glob("*.md")):
        name, _, suffix = path.stem.rpartition(".")
        if suffix in others:
            pages.setdefault(name, {})[suffix] = path
        else:
            pages.setdefault(path.stem, {})[default] = path
    return pages


def _prose(markdown: str) -> str:
    """The page without its front matter and code, which are not translated prose."""
    text = _FRONT_MATTER.sub("", markdown, count=1)
    text = _FENCE.sub("", text)
    return _CODE_SPAN.sub("", text)


def _sections(text: str) -> dict[str, str]:
    """The text of each section, keyed by its heading's id ("" before the first heading)."""
    sections: dict[str, str] = {}
    key, start = "", 0
    for number, match in enumerate(_HEADING.finditer(text), start=1):
        sections[key] = sections.get(key, "") + text[start : match.start()]
        found = _HEADING_ID.search(match["text"])
        # A heading without an id (the title) is known by its position, not its words.
        key, start = (found["id"] if found else f"heading {number}"), match.end()
    sections[key] = sections.get(key, "") + text[start:]
    return sections


@cache
def outline(path: Path) -> dict[str, Any]:
    """What the languages of a page must share, read from one file."""
    markdown = path.read_text(encoding="utf-8")
    text = _prose(markdown)
    headings = []
    for match in _HEADING.finditer(text):
        found = _HEADING_ID.search(match["text"])
        headings.append((len(match["hashes"]), found["id"] if found else None))
    directives: dict[str, Counter[str]] = {}
    links: dict[str, Counter[str]] = {}
    display: dict[str, list[str]] = {}
    for key, section in _sections(text).items():
        directives[key] = Counter(
            f"{m['kind']} {' '.join(m['args'].split())}" for m in _DIRECTIVE.finditer(section)
        )
        # Each URL counted once: a language may cite a source twice where another cites it once.
        links[key] = Counter(
            {next(value for value in m.groups() if value) for m in _LINK.finditer(section)}
        )
        display[key] = [" ".join(m["tex"].split()) for m in _DISPLAY_MATH.finditer(section)]
    inline = {
        symbol
        for m in _INLINE_MATH.finditer(_DISPLAY_MATH.sub("", text))
        for symbol in _SYMBOL.findall(m["tex"])
        if symbol not in _LAYOUT
    }
    return {
        "headings": headings,
        "directives": directives,
        "links": links,
        "display": display,
        "inline": inline,
        # Snippets from markdown (front matter and code excluded, as the rest).
        "snippets": _SNIPPET.findall(_FRONT_MATTER.sub("", _FENCE.sub("", markdown), count=1)),
    }


def _pairs() -> list[tuple[str, str]]:
    _, others = languages()
    return [(name, language) for name in page_files() for language in others]


def test_the_pages_and_languages_are_found() -> None:
    default, others = languages()
    assert others, "no language besides the default one"
    assert "index" in page_files()
    assert all(default in files for files in page_files().values())


@pytest.mark.parametrize("name", sorted(page_files()))
def test_every_page_exists_in_every_language(name: str) -> None:
    default, others = languages()
    assert set(page_files()[name]) == {default, *others}


@pytest.mark.parametrize("name", sorted(page_files()))
def test_every_section_has_an_explicit_anchor(name: str) -> None:
    for language, path in page_files()[name].items():
        headings = outline(path)["headings"]
        assert [level for level, _ in headings[:1]] == [1], f"{path.name}: no title first"
        missing = [level for level, anchor in headings[1:] if anchor is None]
        assert missing == [], f"{path.name} ({language}): headings without {{ #id }}"


def _compare(name: str, language: str, aspect: str) -> tuple[Any, Any]:
    default, _ = languages()
    files = page_files()[name]
    if language not in files:
        pytest.fail(f"{name}: no {language} page")
    return outline(files[default])[aspect], outline(files[language])[aspect]


def _per_section_difference(reference: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """Per section, what differs between two languages (empty when they agree)."""
    differences: dict[str, Any] = {}
    for key in sorted(reference.keys() | other.keys()):
        mine, theirs = reference.get(key), other.get(key)
        if mine == theirs:
            continue
        if isinstance(mine, Counter) and isinstance(theirs, Counter):
            differences[key] = {
                "only in the default language": mine - theirs,
                "only here": theirs - mine,
            }
        else:
            differences[key] = {"default language": mine, "here": theirs}
    return differences


@pytest.mark.parametrize(("name", "language"), _pairs())
def test_same_headings_and_anchors(name: str, language: str) -> None:
    reference, other = _compare(name, language, "headings")
    assert other == reference


@pytest.mark.parametrize(("name", "language"), _pairs())
def test_same_directives_in_each_section(name: str, language: str) -> None:
    reference, other = _compare(name, language, "directives")
    assert _per_section_difference(reference, other) == {}


@pytest.mark.parametrize(("name", "language"), _pairs())
def test_same_links_in_each_section(name: str, language: str) -> None:
    reference, other = _compare(name, language, "links")
    assert _per_section_difference(reference, other) == {}


@pytest.mark.parametrize(("name", "language"), _pairs())
def test_same_formulas_and_symbols(name: str, language: str) -> None:
    reference, other = _compare(name, language, "display")
    assert _per_section_difference(reference, other) == {}
    reference, other = _compare(name, language, "inline")
    assert {"only in the default language": reference - other, "only here": other - reference} == {
        "only in the default language": set(),
        "only here": set(),
    }


@pytest.mark.parametrize(("name", "language"), _pairs())
def test_same_snippets_each_in_the_page_language(name: str, language: str) -> None:
    default, _ = languages()
    reference, other = _compare(name, language, "snippets")
    assert [path.replace(f".{language}.", ".{lang}.") for path in other] == [
        path.replace(f".{default}.", ".{lang}.") for path in reference
    ]
