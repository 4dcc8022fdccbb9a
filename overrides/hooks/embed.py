"""MkDocs hook: the "Embed" control of each form, and the list of embed pages.

Everything but the MkDocs glue is in :mod:`calcsite.embed`, which says what an
embed page is; the pages themselves are written once each language's build is
done (:mod:`calcsite.postbuild`, ``hooks/postbuild.py``). Here:

- ``on_page_content`` puts each form's "Embed" control in place of its marker,
  with the embed page's address relative to the page being built;
- ``on_page_markdown`` expands ``<!-- md:embeds -->`` into the list of the
  language's embed pages (raw HTML links: MkDocs would warn about a Markdown
  link to a page that is not a source file), derived from the registry.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from calcsite.embed import EmbedError, embed_pages, embed_path, expand_controls, relative_url
from calcsite.messages import translate
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

from calculator import get

_LIST = re.compile(r"^<!--\s*md:embeds\s*-->[ \t]*$", re.MULTILINE)


def _language(config: MkDocsConfig) -> str:
    return str(config.theme["language"])


def _list(page: Page, language: str) -> str:
    items = "\n".join(
        f'<li><a href="{relative_url(embed_path(language, slug), page.url)}">'
        f"<code>{embed_path(language, slug)}</code></a> "
        f"({escape(translate(language, get(slug).title))})</li>"
        for _, slug in embed_pages([language])
    )
    return f'\n<ul class="calc-embeds">\n{items}\n</ul>\n'


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: Any) -> str:
    language = _language(config)
    return _LIST.sub(lambda _: _list(page, language), markdown)


def on_page_content(html: str, page: Page, config: MkDocsConfig, **_: Any) -> str:
    try:
        return expand_controls(html, page.url, _language(config), config.theme.get_env())
    except EmbedError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error
