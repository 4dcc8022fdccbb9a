"""MkDocs hook: each page's Content-Security-Policy, and the content a keyboard must reach.

Every page, ``404.html`` included, gets a ``<meta http-equiv=
"Content-Security-Policy">`` right after its charset, before any script,
computed by :mod:`calcsite.csp` from the page's final HTML: the hashes of its
inline scripts, and the engine's needs on the pages that load it. It runs
after every other ``on_post_page`` (the hashes must be of the text the reader
gets), and nothing may change a page's inline scripts after it: once the site
is built, :mod:`calcsite.postbuild` changes only URLs in attributes
(:mod:`calcsite.versions`).

Before that, in each page's content, it puts what a keyboard must reach but
cannot by default in the tab order (:mod:`calcsite.keyboard`): glossary
abbreviations, whose definition Material's tooltip shows on focus (each term
at its first use in each section), and the boxes that scroll sideways on a
narrow screen; and it puts each Markdown table in a box of its own
(:mod:`calcsite.tables`), where Material's script moves it without restyling
the whole article.
"""

from __future__ import annotations

from typing import Any

from calcsite.csp import CspError, with_policy
from calcsite.keyboard import first_uses, focusable
from calcsite.tables import held
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.pages import Page


def on_page_content(html: str, **_: Any) -> str:
    return focusable(held(first_uses(html)))


def _secured(output: str, where: str) -> str:
    try:
        return with_policy(output)
    except CspError as error:
        raise PluginError(f"{where}: {error}") from error


# Last: after mkdocs-static-i18n's (-100) and any other plugin's changes.
@event_priority(-1000)
def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    return _secured(output, page.file.src_uri)


# Static templates: 404.html (sitemap.xml and empty skipped pages pass through).
@event_priority(-1000)
def on_post_template(output: str, template_name: str, config: MkDocsConfig) -> str:
    if not template_name.endswith(".html") or not output.strip():
        return output
    return _secured(output, template_name)
