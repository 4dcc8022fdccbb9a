"""One search index per language, cut from the merged one, fetched when the reader searches.

mkdocs-static-i18n writes a single ``search/search_index.json`` holding every
language, with lunr's stemmers for all of them; a reader searching the English
pages then gets the French and Italian copies of each page too, often first.
Each language gets its own index at the root of its tree instead (``fr/search/
search_index.json``), its locations relative to that root and its own stemmer
only, which is also a third of the text for the reader's browser to parse and
index. The theme is pointed at the language root (``overrides/main.html``).

Material fetches the index as every page starts, served over HTTP, and waits
for the reader to open search only on pages opened from files (``file:``).
Most readers of a calculator page never search, and the index (38 to 44 kB
gzip, with lunr's stemmer for French and Italian) was a quarter of what a page
downloads besides the engine. :func:`index_on_first_search` makes Material
take its ``file:`` path everywhere: the index is fetched when the reader opens
search (a click, a tap or the keyboard shortcut), and a query typed meanwhile
runs once it is ready.

The search worker's script (lunr and Material's search, 12 kB gzip) was still
downloaded, and the worker started, as every page starts: Material creates the
worker when it sets search up, though the first message it posts to it is the
index. :func:`worker_on_first_search` has Material construct
``theme-start.js``'s stand-in instead, which starts the real worker when the
reader first opens search (the change of Material's search toggle that also
has it fetch the index), or on the first message posted to it if that comes
first. A page load then requests neither; the first search requests both at
once. (Started on the first message, the worker requested its script only
once the index had arrived: the first results came 90 ms later on a
20 Mbit/s link with 40 ms of latency, 300 ms later on a 0.4 Mbit/s link with
300 ms.)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "INDEX",
    "SearchError",
    "index_on_first_search",
    "language_roots",
    "split_index",
    "worker_on_first_search",
    "write_split_index",
]

INDEX = Path("search") / "search_index.json"
EAGER = 'location.protocol!=="file:"'
"""In Material's bundle, the search worker's setup: "start at once, unless opened from a file"."""
ON_FIRST_SEARCH = "!1/* index on 1st search */"
"""What replaces it: never at once, so on the first opening of search. Of the same length,
so that the bundle's source map still points at the right columns."""
EAGER_WORKER = "new Worker(e)"
"""In Material's bundle, the search worker's creation: the default value of the
``worker`` parameter of ``watchWorker(url, worker = new Worker(url))``, which
only the search calls."""
WORKER_ON_FIRST_SEARCH = "new LazyWk(e)"
"""What replaces it: ``theme-start.js``'s stand-in (``window.LazyWk``), which starts
the real worker on the first opening of search. Its name has six letters, as
``Worker`` has, so that the bundle keeps its length and its source map its columns."""


class SearchError(RuntimeError):
    """The theme's bundle does not set search up as this module expects (Material changed)."""


def index_on_first_search(bundle: Path) -> bool:
    """Make Material's ``bundle`` fetch the search index when the reader first opens search.

    Returns:
        Whether the file changed (``False`` when it already waits), so that calling
        it twice changes nothing.

    Raises:
        SearchError: If the bundle holds :data:`EAGER` other than once.
    """
    return _replace_once(bundle, EAGER, ON_FIRST_SEARCH)


def worker_on_first_search(bundle: Path) -> bool:
    """Make Material's ``bundle`` start its search worker when the reader first opens search.

    ``theme-start.js``'s stand-in starts it then, or on the first message
    Material posts to it if that comes first. That message is the search index,
    which :func:`index_on_first_search` makes wait for the first opening of
    search; on a page opened from a search result (``?h=``, where
    ``theme-start.js`` keeps search.highlight and the index is fetched as the
    page starts), Material does not post it either until search is opened.

    Returns:
        Whether the file changed (``False`` when it already waits), so that calling
        it twice changes nothing.

    Raises:
        SearchError: If the bundle holds :data:`EAGER_WORKER` other than once.
    """
    return _replace_once(bundle, EAGER_WORKER, WORKER_ON_FIRST_SEARCH)


def _replace_once(bundle: Path, eager: str, lazy: str) -> bool:
    """Replace ``eager``, found exactly once in ``bundle``, by ``lazy`` of the same length."""
    # A rewrite of another length would shift every later column of its line,
    # where the bundle's source map points.
    assert len(eager) == len(lazy), (eager, lazy)
    text = bundle.read_text(encoding="utf-8")
    if text.count(eager) == 0 and text.count(lazy) == 1:
        return False
    if text.count(eager) != 1:
        found = text.count(eager)
        raise SearchError(f"{bundle.name}: expected {eager} once, found it {found} times")
    bundle.write_text(text.replace(eager, lazy), encoding="utf-8")
    return True


def language_roots(alternates: Iterable[Mapping[str, object]], site_path: str) -> dict[str, str]:
    """Each language's folder relative to the site root, from the theme's language links.

    Args:
        alternates: The language selector's entries (Material's
            ``extra.alternate``: ``lang`` and an absolute ``link``), as
            mkdocs-static-i18n fills them.
        site_path: The path of the site's URL (``/`` or ``/repo/``), which
            every link starts with.

    Returns:
        ``{"en": "", "fr": "fr/", ...}``; links to other sites are left out.
    """
    roots: dict[str, str] = {}
    prefix = "/" + site_path.strip("/") + "/" if site_path.strip("/") else "/"
    for entry in alternates:
        lang, link = str(entry.get("lang", "")), str(entry.get("link", ""))
        if lang and link.startswith(prefix):
            root = link.removeprefix(prefix).removesuffix("index.html")
            roots[lang] = root if not root or root.endswith("/") else root + "/"
    return roots


def split_index(index: Mapping[str, Any], roots: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """Cut a merged index into one index per language.

    Args:
        index: The merged index (``config`` and ``docs``, as MkDocs' search writes it).
        roots: Each language's folder relative to the site root, ending in ``/``;
            the default language's is ``""`` and takes every location no other
            language claims.

    Returns:
        For each language of ``roots``, its index: the same ``config`` with
        ``lang`` set to that language alone, and its documents with locations
        relative to its folder.
    """
    folders = sorted(((root, lang) for lang, root in roots.items() if root), reverse=True)
    default = next((lang for lang, root in roots.items() if not root), None)
    docs: dict[str, list[dict[str, Any]]] = {lang: [] for lang in roots}
    for doc in index.get("docs", []):
        location = str(doc.get("location", ""))
        owner = next(((root, lang) for root, lang in folders if location.startswith(root)), None)
        if owner is not None:
            root, lang = owner
            docs[lang].append({**doc, "location": location.removeprefix(root)})
        elif default is not None:
            docs[default].append(dict(doc))
    config = dict(index.get("config", {}))
    return {lang: {"config": {**config, "lang": [lang]}, "docs": docs[lang]} for lang in roots}


def write_split_index(site: Path, roots: Mapping[str, str]) -> bool:
    """Replace the merged index of ``site`` by one index per language.

    Returns:
        Whether the index was split; ``False`` when there is no index, or when
        it holds the default language's pages only (already split, or a site
        without other languages), so that calling it twice changes nothing.
    """
    merged = site / INDEX
    if not merged.is_file():
        return False
    index = json.loads(merged.read_text(encoding="utf-8"))
    others = tuple(root for root in roots.values() if root)
    if not any(str(doc.get("location", "")).startswith(others) for doc in index.get("docs", [])):
        return False
    for lang, part in split_index(index, roots).items():
        target = site / roots[lang] / INDEX
        target.parent.mkdir(parents=True, exist_ok=True)
        # MkDocs' own search writes compact JSON; so does this.
        target.write_text(json.dumps(part, separators=(",", ":")), encoding="utf-8")
    return True
