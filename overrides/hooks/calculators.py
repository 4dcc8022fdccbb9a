"""MkDocs adapter: each page's calculators, and where its engine is.

It hands each page's Markdown to :mod:`calcsite.directives`, formats the
"last updated" date, and gives the theme's template the engine
(``config.extra.calculator_engine``, which ``overrides/main.html`` reads),
from :func:`calcsite.engine.site_plan`, the one plan every part of the build
asks (``hooks/postbuild.py`` writes its files), and the browser contract's
names (``config.extra.calculator_contract``, :mod:`calcsite.contract`). Everything else lives in
``calcsite``, which takes plain values, so a future site generator needs only
a new adapter.

The directives are expanded here rather than by a Python-Markdown extension
(which Zensical would run too) because an extension sees neither the page's
address, which the result tables' links to other calculators are relative to
(MkDocs gives it only to its own private tree processor), nor, under
mkdocs-static-i18n, the build's language, unless a hook wrote it into the
extension's settings for each build.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from calcsite import engine
from calcsite.contract import CONTRACT
from calcsite.directives import DirectiveError, Page, expand, form_inputs
from calcsite.formatting import format_day
from calcsite.messages import UI, translate
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.pages import Page as MkDocsPage

log = get_plugin_logger(__name__)

ROOT = Path(__file__).resolve().parents[2]


def _language(config: MkDocsConfig) -> str:
    return str(config.theme["language"])


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # mkdocs-static-i18n runs the build once per language, and `mkdocs serve`
    # once per change: site_plan builds the wheel again only when its sources changed.
    try:
        plan = engine.site_plan(ROOT, engine.pyodide_cdn(config.extra))
    except engine.EngineError as error:
        raise PluginError(str(error)) from error
    config.extra["calculator_engine"] = plan
    config.extra["calculator_contract"] = CONTRACT
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
