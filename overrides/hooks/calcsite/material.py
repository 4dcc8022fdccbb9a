"""Every place this site depends on Material for MkDocs' internals, in one list.

Material for MkDocs is in maintenance mode (end of life May 2027). Each entry
below is a contract the site relies on that Material does not document as
stable: a template copied and changed, a string replaced in its rendered
HTML, an internal of its JavaScript bundle. A move to Material's successor, or
to another theme, starts from this list. ``tests/site/test_material.py`` fails
when the installed Material is not :data:`VERSION`, so an upgrade is a
deliberate step: recheck each entry, then change the version here and in
``pyproject.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TOUCH_POINTS", "VERSION", "TouchPoint"]

VERSION = "9.8.1"
"""The mkdocs-material release every touch point was made for."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TouchPoint:
    """One dependency on Material's internals."""

    path: str
    """The file of this project that holds it, from the repository root."""
    marker: str
    """Text that file contains where the dependency lives (the test checks it is there)."""
    why: str
    """What it does and what to check after an upgrade."""


TOUCH_POINTS: tuple[TouchPoint, ...] = (
    TouchPoint(
        path="overrides/main.html",
        marker="""replace('<script src="'""",
        why=(
            "The scripts block: Material's one hashed <script src> of its bundle is "
            "replaced by theme-start.js, which inserts the bundle after DOMContentLoaded."
        ),
    ),
    TouchPoint(
        path="overrides/main.html",
        marker="""replace('"base": "'""",
        why=(
            "The config block: the search index's base is the page language's root "
            "(one index per language, calcsite.search)."
        ),
    ),
    TouchPoint(
        path="overrides/main.html",
        marker="{% block site_meta %}",
        why="Material's site_meta block, copied without the hreflang alternate links.",
    ),
    TouchPoint(
        path="overrides/assets/javascripts/theme-start.js",
        marker="window.document$.next(document)",
        why=(
            "Mounts the bundle's components by emitting Material's document$ observable "
            "once (the bundle's own DOMContentLoaded listener never fires)."
        ),
    ),
    TouchPoint(
        path="overrides/assets/javascripts/theme-start.js",
        marker='getElementById("__config")',
        why=(
            "Takes search.highlight out of the features in Material's #__config JSON "
            "unless the address carries a search (?h=): the feature subscribes to the "
            "search index as the page starts, which would fetch it on every page."
        ),
    ),
    TouchPoint(
        path="overrides/assets/javascripts/theme-start.js",
        marker=".md-code__nav",
        why=(
            "The unnamed nav Material wraps around each code block's copy button is "
            "given role=none, so the page has no duplicate landmarks (axe)."
        ),
    ),
    TouchPoint(
        path="overrides/fragments/calculator/notation.html",
        marker="No class: Material styles",
        why=(
            "Material styles and scrolls only tables without a class "
            "(table:not([class])); the notation table relies on that."
        ),
    ),
    TouchPoint(
        path="overrides/hooks/calcsite/compile_hints.py",
        marker="bundle",
        why="Finds the bundle's hashed file name to mark it for eager compilation.",
    ),
    TouchPoint(
        path="overrides/hooks/calcsite/embed.py",
        marker='glob(f"{stem}.*.min.css")',
        why=(
            "The embed pages link Material's compiled stylesheets (main, palette) by "
            "their hashed names, found in the built site, and set the colour scheme "
            "through the body's data-md-color-scheme|primary|accent attributes "
            "(assets/javascripts/embed.js), without the bundle."
        ),
    ),
    TouchPoint(
        path="overrides/hooks/calcsite/versions.py",
        marker="HASHED = re.compile(",
        why=(
            "Material names each compiled file and its source map by a hash of its content "
            "(stem.<hash>.min.js|css, the map named on the file's last line); the build "
            "renames those it rewrites (the bundle and its map) by the hash of their final "
            "bytes, and points the pages' attributes at the new names. Check the naming, and "
            "that pages name these files in attributes only: one still named elsewhere (as "
            "the search worker is in #__config) fails the build."
        ),
    ),
    TouchPoint(
        path="overrides/hooks/calcsite/search.py",
        marker="search_index.json",
        why="Splits Material's search index into one per language, in its format.",
    ),
    TouchPoint(
        path="overrides/hooks/calcsite/search.py",
        marker="EAGER = 'location.protocol!==\"file:\"'",
        why=(
            "Rewrites the search worker's setup in Material's bundle so that the index "
            "is fetched on the first opening of search, as Material does for file: pages."
        ),
    ),
    TouchPoint(
        path="overrides/hooks/calcsite/search.py",
        marker='EAGER_WORKER = "new Worker(e)"',
        why=(
            "Rewrites the search worker's creation in Material's bundle (the default "
            "worker of watchWorker, minified) into theme-start.js's stand-in, so that the "
            "worker's script is downloaded on the first search. Check that the search is "
            "watchWorker's only caller and that nothing is posted to the worker before "
            "the index."
        ),
    ),
    TouchPoint(
        path="overrides/assets/javascripts/theme-start.js",
        marker="window.LazyWk = class extends EventTarget",
        why=(
            "The search worker's stand-in, which starts the real worker when Material's "
            "search toggle (data-md-toggle=search, which its shortcut clicks) first "
            "changes, or on the first message posted to it: check the toggle, and that "
            "Material still uses a worker's postMessage and its message events "
            "(addEventListener, removeEventListener) only."
        ),
    ),
    TouchPoint(
        path="overrides/partials/search.html",
        marker="mkdocs-material 9.8.1",
        why="Material's search dialog, copied to give the dialog an accessible name.",
    ),
    TouchPoint(
        path="overrides/partials/copyright.html",
        marker="mkdocs-material 9.8.1",
        why="Material's footer line, copied to put 'Made with' in the page's language.",
    ),
    TouchPoint(
        path="overrides/partials/javascripts/palette.html",
        marker="mkdocs-material 9.8.1",
        why=(
            "Material's palette script, copied to apply the system's colour scheme "
            "before the first paint."
        ),
    ),
    TouchPoint(
        path="overrides/partials/javascripts/palette.html",
        marker='setAttribute("data-md-color-switching","")',
        why=(
            "The attribute under which Material's palette switches colours without "
            "transitions, set before the content is parsed, so that the bundle's own "
            "setting of it at start-up restyles nothing; check its name and that the "
            "bundle still removes it once the palette is applied."
        ),
    ),
    TouchPoint(
        path="overrides/main.html",
        marker='className = "js js-focus-visible"',
        why=(
            "The html element's classes and attribute that Material's bundle sets as it "
            "starts (no-js to js; js-focus-visible and data-js-focus-visible from its "
            "focus-visible polyfill), set in the head so that the bundle's own setting "
            "restyles nothing; check the bundle sets no other."
        ),
    ),
    TouchPoint(
        path="overrides/assets/javascripts/theme-start.js",
        marker="afterNextFrame(mount)",
        why=(
            "Mounts after the next frame: the palette's timer that removes "
            "data-md-color-switching runs first, and its restyle is rendered before the "
            "mount rather than forced inside it."
        ),
    ),
    TouchPoint(
        path="overrides/hooks/calcsite/tables.py",
        marker="div.md-typeset__scrollwrap",
        why=(
            "Material's script wraps each table without a class in its scrolling box as "
            "it mounts; each such table gets a plain div of its own first, so that the "
            "move restyles that div only. Check the selector (table:not([class]))."
        ),
    ),
    TouchPoint(
        path="overrides/404.html",
        marker='{% extends "main.html" %}',
        why="Material's 404 page, replaced by one that links to each language's home.",
    ),
    TouchPoint(
        path="overrides/hooks/chrome.py",
        marker="permalink_title",
        why=(
            "Words Material takes from mkdocs.yml rather than its catalogs (permalink "
            "title, palette toggle names), and the one 404.html mkdocs-static-i18n "
            "would otherwise overwrite per language."
        ),
    ),
)
"""Each dependency on Material's internals, with where it lives."""
