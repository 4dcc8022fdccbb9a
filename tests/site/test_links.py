"""Every link of the built site leads somewhere, in every language, under a sub-path.

The site fixture is built for ``SITE_URL`` (tests/support/site.py: a project
site under a sub-path), so each file is served at ``SITE_URL<its path>``. Everything
here is read from the build: the pages are the ``*.html`` files found in it,
the languages are the ``lang`` of those pages, and a link is any URL a page,
stylesheet, sitemap or search index gives: ``href``, ``src``, ``srcset``, the
theme's ``data-bundle``, the engine's ``meta[name^="calc:"]``, CSS ``url()``,
sitemap ``<loc>`` and alternates, search results. Each one is resolved the way
a browser would, against the address its file is served at, and must name a
file of the build, and, with a ``#fragment``, an element of that page with that
id. The 404 page is served at whatever address was missing: its links must
work from any depth under the site's path.

A hyperlink (``<a href>``) to another origin is a citation and is not
followed; anything else that names another origin would be loaded from there
at run time, and fails.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from .conftest import SITE_URL
from .html import Document, Element

_parts = urlsplit(SITE_URL)
ORIGIN = f"{_parts.scheme}://{_parts.netloc}"
PREFIX = _parts.path

MISSING_ADDRESSES = ("nowhere", "nowhere/", "fr/nowhere/deeper/", "a/b/c/d/e.html")
"""Addresses, under the site's path, at which the 404 page is served in these tests."""

URL_ATTRIBUTES = ("href", "src", "poster", "action", "formaction", "data-bundle")
"""Attributes whose value is one URL (``srcset`` holds several; see :func:`_srcset`)."""

IGNORED_SCHEMES = ("mailto", "tel", "data", "blob")
_CSS_URL = re.compile(r"""url\(\s*(["']?)([^"')]+)\1\s*\)""")


@dataclass(frozen=True)
class Link:
    """One URL found in one file of the build."""

    kind: str
    """What holds it: ``page``, ``404``, ``stylesheet``, ``sitemap`` or ``search``."""
    file: Path
    source: str
    """Where it was found: the file, relative to the site, and the element."""
    base: str
    """The absolute URL it is resolved against (where its file is served)."""
    raw: str
    hyperlink: bool = False
    """An ``<a href>`` (or a sitemap entry): another origin is a citation, not a load."""

    @cached_property
    def url(self) -> str:
        """The absolute URL the reference resolves to."""
        return urljoin(self.base, self.raw.strip())

    def describe(self, problem: str) -> str:
        """A failure message: where the reference was found, what it says and resolves to."""
        return f"{self.source}: {self.raw!r} -> {self.url}: {problem}"


class Site:
    """The built site as it is served from ``SITE_URL``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.pages = sorted(root.rglob("*.html"))
        self.documents = {path: Document(path.read_text(encoding="utf-8")) for path in self.pages}
        self.ids = {
            path: {
                element.attrs[name]
                for element in document.elements
                for name in ("id", "name")
                if name == "id" or element.tag == "a"
                if element.attrs.get(name)
            }
            for path, document in self.documents.items()
        }

    def relative(self, path: Path) -> str:
        """A built file's path relative to the site's root, in URL form."""
        return path.relative_to(self.root).as_posix()

    def addresses(self, path: Path) -> list[str]:
        """The URLs a file is served at (directory URLs for ``index.html``)."""
        relative = self.relative(path)
        if relative == "404.html":
            return [SITE_URL + missing for missing in MISSING_ADDRESSES]
        if relative == "index.html" or relative.endswith("/index.html"):
            return [SITE_URL + relative.removesuffix("index.html")]
        return [SITE_URL + relative]

    def target(self, url: str) -> Path | None:
        """The file a same-origin URL names, or ``None``."""
        path = unquote(urlsplit(url).path)
        if not path.startswith(PREFIX):
            return None
        relative = path.removeprefix(PREFIX)
        candidate = self.root / relative
        if relative == "" or relative.endswith("/") or candidate.is_dir():
            candidate = candidate / "index.html"
        try:
            candidate.resolve().relative_to(self.root.resolve())
        except ValueError:
            return None
        return candidate if candidate.is_file() else None

    # ----------------------------------------------------------------- links

    def links(self) -> Iterator[Link]:
        """Every reference in the site: pages, stylesheets, sitemaps and search indexes."""
        yield from self.page_links()
        yield from self.stylesheet_links()
        yield from self.sitemap_links()
        yield from self.search_links()

    def page_links(self) -> Iterator[Link]:
        """The URLs of every page's elements, resolved where each page is served."""
        for path, document in self.documents.items():
            relative = self.relative(path)
            for address in self.addresses(path):
                base = address
                for element in document.find_all("base", href=True):
                    base = urljoin(address, element.attrs["href"])
                    break
                kind = "404" if relative == "404.html" else "page"
                for element in document.elements:
                    source = f"{relative} <{element.tag}>"
                    if kind == "404":
                        source = f"{relative} served at {address} <{element.tag}>"
                    for raw in _urls_of(element):
                        yield Link(kind, path, source, base, raw, hyperlink=element.tag == "a")

    def stylesheet_links(self) -> Iterator[Link]:
        """The ``url()`` references of every stylesheet."""
        for path in sorted(self.root.rglob("*.css")):
            text = path.read_text(encoding="utf-8")
            base = SITE_URL + self.relative(path)
            for _, raw in _CSS_URL.findall(text):
                yield Link("stylesheet", path, f"{self.relative(path)} url()", base, raw)

    def sitemap_links(self) -> Iterator[Link]:
        """The pages and language alternates every sitemap lists."""
        for path in sorted(self.root.rglob("sitemap.xml")):
            base = SITE_URL + self.relative(path)
            for element in ET.parse(path).getroot().iter():
                tag = element.tag.rsplit("}", 1)[-1]
                raw = element.text if tag == "loc" else element.attrib.get("href")
                if tag in {"loc", "link"} and raw:
                    source = f"{self.relative(path)} <{tag}>"
                    yield Link("sitemap", path, source, base, raw, hyperlink=True)

    def search_links(self) -> Iterator[Link]:
        """The location of every document of each language's search index."""
        # Material resolves a result's location against the root of the index's
        # language: <root>/search/search_index.json.
        for path in sorted(self.root.rglob("search/search_index.json")):
            root = self.relative(path.parent.parent)
            base = SITE_URL if root == "." else f"{SITE_URL}{root}/"
            source = f"{self.relative(path)} location"
            for document in json.loads(path.read_text(encoding="utf-8"))["docs"]:
                yield Link("search", path, source, base, document["location"], hyperlink=True)

    # ----------------------------------------------------------------- checks

    def problem(self, link: Link) -> str | None:
        """What is wrong with a link, or ``None`` if it leads somewhere."""
        parts = urlsplit(link.url)
        if parts.scheme in IGNORED_SCHEMES:
            return None
        if parts.scheme not in {"http", "https"}:
            return f"a {parts.scheme}: URL"
        if f"{parts.scheme}://{parts.netloc}" != ORIGIN:
            return None if link.hyperlink else "loaded from another origin at run time"
        return self._missing(parts.path, unquote(parts.fragment))

    def _missing(self, path: str, fragment: str) -> str | None:
        target = self.target(path)
        if target is None:
            if not unquote(path).startswith(PREFIX):
                return f"outside the site's path {PREFIX}"
            return "no such file in the build"
        if fragment and target.suffix == ".html" and fragment not in self.ids[target]:
            return f"no element with id {fragment!r} in {self.relative(target)}"
        return None


def _urls_of(element: Element) -> Iterator[str]:
    for name in URL_ATTRIBUTES:
        if name in element.attrs:
            yield element.attrs[name]
    if "srcset" in element.attrs:
        yield from _srcset(element.attrs["srcset"])
    # The engine's files, which the page script reads from the head: a URL in a
    # calc: meta never has whitespace (calc:inputs, a list of names, has some or no "/").
    content = element.attrs.get("content", "")
    if (
        element.tag == "meta"
        and element.attrs.get("name", "").startswith("calc:")
        and "/" in content
        and not any(character.isspace() for character in content)
    ):
        yield content


def _srcset(value: str) -> Iterator[str]:
    for candidate in value.split(","):
        if candidate.strip():
            yield candidate.split()[0]


@pytest.fixture(scope="module")
def built(site: Path) -> Site:
    return Site(site)


def test_the_crawl_reads_every_page_of_every_language_and_the_404_page(built: Site) -> None:
    """Guards the other tests against passing on nothing: they see what the build made."""
    languages = {document.find("html").attrs.get("lang") for document in built.documents.values()}
    offered = {
        element.attrs["hreflang"]
        for document in built.documents.values()
        for element in document.find_all("a", hreflang=True)
    }
    assert offered, "no language selector found"
    assert languages == offered
    assert (built.root / "404.html") in built.pages
    links = list(built.links())
    # Stylesheets may have no url() at all; the other kinds are always there.
    assert {link.kind for link in links} >= {"page", "404", "sitemap", "search"}
    assert {link.file for link in links if link.kind == "page"} == set(built.pages) - {
        built.root / "404.html"
    }
    assert any(urlsplit(link.url).fragment for link in links), "no anchor was checked"


def test_every_internal_link_and_anchor_resolves_under_the_sub_path(built: Site) -> None:
    """Every URL of every file names a file of the build (and an id, with a fragment)."""
    broken = sorted(
        {link.describe(problem) for link in built.links() if (problem := built.problem(link))}
    )
    assert broken == [], f"{len(broken)} broken links:\n" + "\n".join(broken)


def test_every_page_can_be_reached_by_following_links_from_the_home_page(built: Site) -> None:
    """No page is built that a reader can only find by typing its address."""
    reachable: set[Path] = set()
    todo = [built.root / "index.html"]
    links_of: dict[Path, list[Link]] = {}
    for link in built.page_links():
        links_of.setdefault(link.file, []).append(link)
    while todo:
        page = todo.pop()
        if page in reachable:
            continue
        reachable.add(page)
        for link in links_of.get(page, []):
            target = built.target(link.url) if link.hyperlink else None
            if target is not None and target.suffix == ".html" and target not in reachable:
                todo.append(target)
    orphans = sorted(built.relative(page) for page in built.pages if page not in reachable)
    assert orphans == ["404.html"], orphans


def test_the_404_page_works_at_any_depth_under_the_sub_path(built: Site) -> None:
    """Its links are absolute paths under the site's: served at a missing address, they lead."""
    page = built.root / "404.html"
    document = built.documents[page]
    relative = [
        raw
        for element in document.elements
        for raw in _urls_of(element)
        if not urlsplit(raw).scheme and not raw.startswith(("/", "#"))
    ]
    assert relative == [], "relative URLs break when the 404 page is served deeper"
    internal = [
        raw for element in document.elements for raw in _urls_of(element) if raw.startswith("/")
    ]
    assert internal, "the 404 page links nowhere in the site"
    assert all(raw.startswith(PREFIX) for raw in internal), internal


def test_the_checker_finds_each_kind_of_broken_link(tmp_path: Path) -> None:
    """On a tiny site with one fault of each kind: each is reported, nothing else."""
    pages = {
        "index.html": f"""<html lang="en"><head>
            <script src="https://cdn.example.com/x.js"></script>
            <meta name="calc:worker" content="assets/gone.mjs">
            <meta name="calc:inputs" content="devices throughput"></head><body>
            <a href="ok/">fine</a> <a href="{PREFIX}ok/#here">fine</a> <a href="#top">fine</a>
            <a id="top" href="https://example.com/cited">a citation</a>
            <a href="missing/">no page</a> <a href="ok/#nope">no anchor</a>
            <img src="/elsewhere.png" srcset="ok/a.png 1x, ok/b.png 2x"></body></html>""",
        "ok/index.html": '<html lang="en"><h2 id="here">Here</h2><img src="a.png"></html>',
        "ok/a.png": "",
        "404.html": (
            f'<html lang="en"><a href="{PREFIX}ok/">fine</a><a href="ok/">relative</a></html>'
        ),
    }
    for name, text in pages.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    checked = Site(tmp_path)
    found = {(link.raw, problem) for link in checked.links() if (problem := checked.problem(link))}
    assert found == {
        ("https://cdn.example.com/x.js", "loaded from another origin at run time"),
        ("assets/gone.mjs", "no such file in the build"),
        ("missing/", "no such file in the build"),
        ("ok/#nope", "no element with id 'nope' in ok/index.html"),
        ("/elsewhere.png", f"outside the site's path {PREFIX}"),
        ("ok/b.png", "no such file in the build"),
        ("ok/", "no such file in the build"),  # the 404 page's, served at PREFIX/nowhere/
    }
