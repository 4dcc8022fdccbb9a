"""MkDocs adapter: the only code that knows MkDocs.

It hands each page's Markdown to :mod:`calcsite.directives`, formats the
"last updated" date, and writes the live engine's files (the core's wheel, the
standard library and package index the site serves, and the Pyodide runtime)
into the site. Everything else lives in ``calcsite``, which takes plain
values, so a future site generator needs only a new adapter.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from urllib.parse import urlsplit

from calcsite import compile_hints, engine, search
from calcsite.directives import DirectiveError, Page, expand, form_inputs
from calcsite.formatting import format_day
from calcsite.messages import UI, translate
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.pages import Page as MkDocsPage

log = get_plugin_logger(__name__)

ROOT = Path(__file__).resolve().parents[2]
PYODIDE_PACKAGE = ROOT / "node_modules" / "pyodide"

_plan: engine.Engine | None = None
_planned_from: tuple[tuple[str, int], ...] = ()


def _sources() -> tuple[tuple[str, int], ...]:
    """What the wheel is built from, with modification times."""
    paths = [*(ROOT / "calculator").rglob("*.py"), ROOT / "pyproject.toml", ROOT / "README.md"]
    return tuple(sorted((str(path), path.stat().st_mtime_ns) for path in paths))


def _language(config: MkDocsConfig) -> str:
    return str(config.theme["language"])


def _pyodide_cdn(config: MkDocsConfig) -> str | None:
    """The URL template of a CDN's Pyodide runtime (``extra.calculator.pyodide_cdn``), if set."""
    settings = config.extra.get("calculator") or {}
    cdn = settings.get("pyodide_cdn")
    return str(cdn) if cdn else None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _plan, _planned_from  # noqa: PLW0603 -- MkDocs hooks keep build state at module level
    # mkdocs-static-i18n runs the build once per language, and `mkdocs serve`
    # once per change: rebuild the wheel only when its sources changed.
    sources = _sources()
    if _plan is None or sources != _planned_from:
        try:
            _plan = engine.plan(ROOT, PYODIDE_PACKAGE, _pyodide_cdn(config))
        except engine.EngineError as error:
            raise PluginError(str(error)) from error
        _planned_from = sources
    config.extra["calculator_engine"] = {
        # Named in each page's head for its worker (calcsite.engine.HEAD_URLS).
        "urls": _plan.head_urls,
        # Each given a query naming its content once the site is built and the
        # file minified (hooks/versions.py): its bytes are not known before.
        "script": "assets/javascripts/calculator.mjs",
        "worker": "assets/javascripts/calculator-worker.mjs",
        # What the worker fetches, for a shared link to fetch early (main.html).
        "fetched": list(_plan.fetched),
    }
    return config


def on_page_markdown(markdown: str, page: MkDocsPage, config: MkDocsConfig, **_: object) -> str:
    env = config.theme.get_env()
    language = _language(config)
    try:
        # A page with a form loads the engine; the template reads this list.
        page.meta["calc_inputs"] = list(form_inputs(markdown))
        markdown = expand(markdown, Page(language=language, env=env, url=page.url))
    except DirectiveError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error
    # Every page needs its own search-engine description; a missing one also
    # reveals front matter that did not parse (MkDocs then shows it as text).
    if not page.meta.get("description"):
        log.warning(f"{page.file.src_uri}: front matter has no 'description'")
    updated = page.meta.get("updated")
    if isinstance(updated, datetime.date):
        page.meta["updated_text"] = format_day(updated, language)
        page.meta["updated_label"] = translate(language, UI["last_updated"])
    elif updated is not None:
        log.warning(f"{page.file.src_uri}: 'updated' must be a date (YYYY-MM-DD), got {updated!r}")
    return markdown


# After mkdocs-static-i18n's own post-build (priority -100), which builds the
# other languages and then writes the merged search index.
@event_priority(-110)
def on_post_build(config: MkDocsConfig) -> None:
    assert _plan is not None
    site = Path(config.site_dir)
    self_hosted = _pyodide_cdn(config) is None
    try:
        engine.write(_plan, PYODIDE_PACKAGE, site, self_hosted)
    except engine.EngineError as error:
        raise PluginError(str(error)) from error
    # The theme's bundle, compiled off the main thread (see calcsite.compile_hints).
    try:
        compile_hints.hint_eager_compile(compile_hints.theme_bundle(site))
    except compile_hints.CompileHintError as error:
        raise PluginError(str(error)) from error
    # One search index per language (the template points Material at it),
    # fetched when the reader first opens search, and the search worker
    # started then too.
    alternates = config.extra.get("alternate") or []
    site_path = urlsplit(config.site_url or "/").path
    search.write_split_index(site, search.language_roots(alternates, site_path))
    bundle = compile_hints.theme_bundle(site)
    try:
        search.index_on_first_search(bundle)
        search.worker_on_first_search(bundle)
    except search.SearchError as error:
        raise PluginError(str(error)) from error
