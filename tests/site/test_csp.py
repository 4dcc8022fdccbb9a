"""Every built page's Content-Security-Policy, and what a keyboard reaches.

The policy is hooks/csp.py's (calcsite.csp); the tab order, calcsite.keyboard's.
The pages are the built site's own HTML files, whatever they are. Each carries one
policy, in a meta element placed before its first script; every inline script is
allowed by the SHA-256 hash of its text, computed here independently of the hook;
nothing else is allowed. The markup itself needs nothing the policy refuses: no
``style`` attribute or element, no event-handler attribute, no ``javascript:`` URL.
The session's second build, with ``PYODIDE_CDN`` set (tests/conftest.py: a local
server plays the CDN), names that CDN's runtime folder and no other place.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from calcsite.csp import CspError, engine_source, inline_scripts, policy, script_hash, with_policy
from calcsite.keyboard import first_uses, focusable
from calcsite.runtime import pyodide_version
from calcsite.tables import HOLDER, held

from tests.support.server import Server

from .conftest import CDN_TEMPLATE, ROOT

BOXES = {"calc-math", "calc__table-box"}
"""The classes of the boxes that scroll sideways around a formula or a form's table."""

SCRIPT_TYPES = {"", "text/javascript", "application/javascript", "module"}
"""The script types the site's pages use for code; anything else is data."""


@dataclass
class Element:
    """A start tag: its name, attributes and place, and a script's text."""

    tag: str
    attrs: dict[str, str]
    in_head: bool
    text: list[str] = field(default_factory=list)


class _Elements(HTMLParser):
    """Every element of a page, in document order, with the text of its scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.elements: list[Element] = []
        self._in_head = False
        self._script: Element | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "head":
            self._in_head = True
        element = Element(tag, {name: value or "" for name, value in attrs}, self._in_head)
        self.elements.append(element)
        if tag == "script":
            self._script = element

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self._in_head = False
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.text.append(data)


def elements(html: str) -> list[Element]:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser.elements


def pages(site: Path) -> list[Path]:
    found = sorted(path for path in site.rglob("*.html") if "assets" not in path.parts)
    assert len(found) > 20
    return found


def directives(content: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for directive in content.split(";"):
        name, *sources = directive.split()
        assert name not in parsed, f"{name} twice"
        parsed[name] = sources
    return parsed


def the_policy(found: list[Element]) -> tuple[int, dict[str, list[str]]]:
    metas = [
        (index, element)
        for index, element in enumerate(found)
        if element.tag == "meta"
        and element.attrs.get("http-equiv", "").lower() == "content-security-policy"
    ]
    assert len(metas) == 1, "one policy per page"
    index, meta = metas[0]
    assert meta.in_head
    return index, directives(meta.attrs["content"])


def sha256(text: str) -> str:
    """A hash source as a browser computes it: the script's text, CR LF read as LF."""
    body = text.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8")
    return f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"


def inline_hashes(found: list[Element]) -> set[str]:
    return {
        sha256("".join(element.text))
        for element in found
        if element.tag == "script"
        and "src" not in element.attrs
        and element.attrs.get("type", "").lower() in SCRIPT_TYPES
    }


def has_engine(found: list[Element]) -> bool:
    return any(e.tag == "meta" and e.attrs.get("name") == "calc:pyodide" for e in found)


def calculator_pages(site: Path) -> int:
    """How many pages show a calculator: each loads the engine, and only they do."""
    count = sum(
        any(e.tag == "form" and "data-calc" in e.attrs for e in elements(path.read_text("utf-8")))
        for path in pages(site)
    )
    assert count >= 9  # three calculator pages in three languages, at least
    return count


# --------------------------------------------------------------- the built pages


def test_every_page_has_one_policy_before_its_first_script(site: Path) -> None:
    for path in pages(site):
        found = elements(path.read_text(encoding="utf-8"))
        index, _ = the_policy(found)
        scripts = [at for at, element in enumerate(found) if element.tag == "script"]
        assert scripts, path
        assert index < scripts[0], f"{path}: a script comes before the policy"
        # Right after the charset: nothing the policy governs comes before it.
        assert [element.tag for element in found[:index]] == ["html", "head", "meta"], path


def test_every_inline_script_is_allowed_by_its_hash_and_no_other_is(site: Path) -> None:
    inline = 0
    for path in pages(site):
        found = elements(path.read_text(encoding="utf-8"))
        _, policy = the_policy(found)
        hashes = {source for source in policy["script-src"] if source.startswith("'sha256-")}
        expected = inline_hashes(found)
        assert hashes == expected, path
        inline += len(expected)
    assert inline >= 2 * len(pages(site)), "Material's inline scripts were not found"


def test_the_policy_allows_the_site_and_nothing_else(site: Path) -> None:
    engine_pages = 0
    for path in pages(site):
        found = elements(path.read_text(encoding="utf-8"))
        _, policy = the_policy(found)
        script = [source for source in policy.pop("script-src") if not source.startswith("'sha")]
        engine = has_engine(found)
        engine_pages += engine
        assert script == (["'self'", "'wasm-unsafe-eval'"] if engine else ["'self'"]), path
        assert policy == {
            "default-src": ["'self'"],
            "style-src": ["'self'"],
            "img-src": ["'self'", "data:"],
            "worker-src": ["'self'"],
            "object-src": ["'none'"],
            "base-uri": ["'self'"],
            "form-action": ["'self'"],
        }, path
    assert engine_pages == calculator_pages(site)


def test_the_markup_needs_nothing_the_policy_refuses(site: Path) -> None:
    """Nothing in the markup needs what the policy does not allow.

    No inline style (style-src has no 'unsafe-inline'), no event-handler attribute and
    no javascript: URL (script-src has no 'unsafe-hashes'), no other script type.
    """
    for path in pages(site):
        html = path.read_text(encoding="utf-8")
        found = elements(html)
        assert not [e.tag for e in found if e.tag == "style"], path
        assert not [e.tag for e in found if "style" in e.attrs], path
        handlers = [f"{e.tag}[{name}]" for e in found for name in e.attrs if name.startswith("on")]
        assert handlers == [], path
        assert not re.search(r"""=\s*["']?\s*javascript:""", html, re.IGNORECASE), path
        types = {e.attrs.get("type", "") for e in found if e.tag == "script"}
        assert types <= SCRIPT_TYPES | {"application/json"}, path


def test_a_cdn_build_names_the_runtime_folder_on_engine_pages_only(
    cdn_site: Path, cdn: Server
) -> None:
    folder = cdn.url(CDN_TEMPLATE).format(
        version=pyodide_version(ROOT / "node_modules" / "pyodide")
    )
    engine_pages = 0
    for path in pages(cdn_site):
        html = path.read_text(encoding="utf-8")
        found = elements(html)
        _, policy = the_policy(found)
        hosts = {
            source
            for sources in policy.values()
            for source in sources
            if "://" in source or (source.endswith(":") and source != "data:")
        }
        if has_engine(found):
            engine_pages += 1
            assert hosts == {folder}, path
            assert policy["script-src"][:3] == ["'self'", "'wasm-unsafe-eval'", folder], path
            assert policy["connect-src"] == ["'self'", folder], path
        else:
            assert hosts == set(), path
            assert "connect-src" not in policy, path
            assert cdn.origin not in html, path
    assert engine_pages == calculator_pages(cdn_site)


# --------------------------------------------------------------- the helpers


def test_a_hash_is_of_the_text_as_the_browser_parses_it() -> None:
    # The example of MDN's script-src page.
    assert script_hash("alert('Hello, world.');") == (
        "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
    )
    assert script_hash("a();\r\nb();\rc();") == script_hash("a();\nb();\nc();")
    assert script_hash("été") == sha256("été")


def test_scripts_are_found_in_order_and_data_blocks_are_not_code() -> None:
    html = (
        "<html><head><!-- <script>not()</script> -->"
        '<script>one()</script><script src="x.js"></script>'
        '<script type="module">two()</script>'
        '<script type="application/json" id="__config">{"a": "</p>"}</script>'
        "</head><body><script>\nthree()\n</script></body></html>"
    )
    scripts = inline_scripts(html)
    assert [script.text for script in scripts if script.inline] == [
        "one()",
        "two()",
        "\nthree()\n",
    ]
    assert [script.runs for script in scripts] == [True, True, True, False, True]
    assert [html[script.offset : script.offset + 7] for script in scripts] == ["<script"] * 5


def test_the_policy_goes_right_after_the_charset() -> None:
    html = '<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<script>go()</script>'
    secured = with_policy(html)
    assert secured.index("Content-Security-Policy") < secured.index("<script>")
    assert secured.startswith('<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n  <meta')
    assert script_hash("go()") in secured
    assert "wasm-unsafe-eval" not in secured


def test_a_page_that_cannot_carry_its_policy_fails_the_build() -> None:
    with pytest.raises(CspError, match="no <head>"):
        with_policy("<p>no head</p>")
    with pytest.raises(CspError, match="before"):
        with_policy("<html><script>early()</script><head><meta charset=utf-8></head>")
    with pytest.raises(CspError, match="already"):
        with_policy(with_policy("<html><head><meta charset=utf-8></head>"))


@pytest.mark.parametrize(
    ("url", "source"),
    [
        ("../assets/pyodide/314.0.7/pyodide.mjs", None),
        ("", None),
        (None, None),
        (
            "https://cdn.jsdelivr.net/pyodide/v314.0.7/full/pyodide.mjs",
            "https://cdn.jsdelivr.net/pyodide/v314.0.7/full/",
        ),
        ("http://127.0.0.1:8001/pyodide.mjs", "http://127.0.0.1:8001/"),
    ],
)
def test_the_engine_source_is_the_runtime_folder(url: str | None, source: str | None) -> None:
    assert engine_source(url) == source


@pytest.mark.parametrize(
    "url",
    [
        "ftp://cdn.example.net/pyodide.mjs",
        "https://cdn.example.net/a;b/pyodide.mjs",
        "https://cdn.example.net/a b/pyodide.mjs",
        "https://cdn.example.net/a,b/pyodide.mjs",
        "https:///pyodide.mjs",
    ],
)
def test_a_runtime_url_that_cannot_be_named_is_refused(url: str) -> None:
    with pytest.raises(CspError):
        engine_source(url)


def test_the_engine_pages_directives() -> None:
    assert policy(["'sha256-a'"], engine=True, cdn="https://cdn.example.net/p/") == (
        "default-src 'self'; "
        "script-src 'self' 'wasm-unsafe-eval' https://cdn.example.net/p/ 'sha256-a'; "
        "style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' https://cdn.example.net/p/; worker-src 'self'; "
        "object-src 'none'; base-uri 'self'; form-action 'self'"
    )
    # A CDN without the engine names nothing: the page does not load it.
    assert policy(cdn="https://cdn.example.net/p/") == policy()


# --------------------------------------------------------------- keyboard


def test_abbreviations_and_scrolling_boxes_are_focusable_once() -> None:
    html = (
        '<p><abbr title="Graphics processing units">GPUs</abbr> <abbr>no title</abbr></p>'
        '<div class="calc-math"><math></math></div><table>\n<tr></tr></table>'
        '<table class="calc-reference__table"></table><table class="other"></table>'
        '<abbr tabindex="-1" title="kept">x</abbr>'
    )
    assert focusable(html) == (
        '<p><abbr tabindex="0" title="Graphics processing units">GPUs</abbr> <abbr>no title</abbr>'
        '</p><div tabindex="0" class="calc-math"><math></math></div><table tabindex="0">\n<tr>'
        '</tr></table><table tabindex="0" class="calc-reference__table"></table>'
        '<table class="other"></table><abbr tabindex="-1" title="kept">x</abbr>'
    )
    assert focusable(focusable(html)) == focusable(html)


def test_a_term_is_marked_at_its_first_use_in_each_section() -> None:
    gpu = '<abbr title="Graphics processing unit">GPU</abbr>'
    nccl = '<abbr tabindex="0" title="NVIDIA Collective Communications Library">NCCL</abbr>'
    html = f"<p>{gpu}, {nccl} and {gpu}</p><h2 id=a>A</h2><p>{gpu} {gpu}</p><h2>B</h2>{nccl}"
    assert first_uses(html) == (
        f"<p>{gpu}, {nccl} and GPU</p><h2 id=a>A</h2><p>{gpu} GPU</p><h2>B</h2>{nccl}"
    )
    assert first_uses(first_uses(html)) == first_uses(html)


def test_each_markdown_table_is_in_a_box_of_its_own() -> None:
    html = '<p>x</p><table tabindex="0">\n<tr><td>1</td></tr></table><table class="c"></table>'
    assert held(html) == (
        f'<p>x</p><div class="{HOLDER}"><table tabindex="0">\n<tr><td>1</td></tr></table></div>'
        '<table class="c"></table>'
    )


def test_every_abbreviation_and_table_of_the_site_is_focusable(site: Path) -> None:
    counts = {"abbr": 0, "table": 0, "div": 0}
    for path in pages(site):
        box: Element | None = None
        for element in elements(path.read_text(encoding="utf-8")):
            boxed = element.tag == "div" and element.attrs.get("class") in BOXES
            focused = element
            if element.tag == "table" and box is not None:
                # A form's list output scrolls in a box of its own: the box takes the focus.
                focused, box = box, None
            if (
                (element.tag == "abbr" and "title" in element.attrs)
                or element.tag == "table"
                or boxed
            ):
                assert focused.attrs.get("tabindex") == "0", f"{path}: {focused}"
                counts[element.tag] += 1
            if element.tag == "div" and element.attrs.get("class") == "calc__table-box":
                box = element
    assert all(counts.values()), counts
