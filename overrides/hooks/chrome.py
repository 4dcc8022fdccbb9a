"""MkDocs hook: the theme's chrome in the page's language, and one English 404 page.

mkdocs-static-i18n builds the site once per language, in the order of its
``languages`` list, and sets ``config.theme["language"]`` for each build. This
hook reads that language and:

- translates the words the theme and the Markdown extensions take from
  ``mkdocs.yml`` rather than from Material's own catalogs: the headings'
  "Permanent link" (the ``toc`` extension's ``permalink_title``), the footer's
  "Made with" (``partials/copyright.html`` calls ``chrome_t``) and the names
  of the colour-scheme toggle (``theme.palette``). The words are in one
  table, :data:`WORDS`;
- keeps the French no-break spaces (U+202F before "?", U+00A0 before ":") in
  the table of contents: Python-Markdown's ``toc`` collapses every Unicode
  space of a heading into a plain one, which lets a "?" wrap alone onto the
  next line;
- writes ``404.html`` in the default language only. Every language build
  writes it at the site's root, so the last one (Italian) used to win, and
  GitHub Pages serves that one file for every missing address. The page
  (``overrides/404.html``) links to each language's home; here its language
  selector is pointed at those homes instead of at the alternates of the
  last page built.
"""

from __future__ import annotations

import copy
import re

from calcsite.messages import LANGUAGES, translate
from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink
from mkdocs.utils.templates import TemplateContext

WORDS: tuple[str, ...] = (
    # The title of every heading's anchor (toc's permalink_title).
    "Permanent link",
    # The footer, before a link to "Material for MkDocs" (a name, not translated).
    "Made with",
    # The colour-scheme toggle (theme.palette in mkdocs.yml): each name says what
    # a click does next.
    "Switch to light mode",
    "Switch to dark mode",
    "Follow the system setting",
)
"""The chrome's words, in English as templates and ``mkdocs.yml`` write them; the
site's catalogs translate them (``python -m calcsite.catalogs`` reads this list)."""

ERROR_TEMPLATE = "404.html"

_home_alternates: list[dict[str, str]] = []
"""The language selector's entries as mkdocs-static-i18n sets them for a build
(each language's home), before it points them at the alternates of each page."""


def _english(text: str) -> str:
    """The English of a chrome word, which the previous language's build may have translated.

    mkdocs-static-i18n builds every language from the one config, so the palette's
    names reach each build after the first in the language of the one before.
    """
    return next(
        (english for english in WORDS if text in {translate(x, english) for x in LANGUAGES}),
        text,
    )


def _language(config: MkDocsConfig) -> str:
    return str(config.theme["language"])


def _is_default_language_build(config: MkDocsConfig) -> bool:
    i18n = config.plugins.get("i18n")
    return bool(getattr(i18n, "is_default_language_build", True))


# After mkdocs-static-i18n's on_config (priority -100), which sets the language.
@event_priority(-110)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _home_alternates  # noqa: PLW0603 -- MkDocs hooks keep build state at module level
    language = _language(config)
    toc = config.mdx_configs.get("toc")
    if toc is not None and toc.get("permalink"):
        toc["permalink_title"] = translate(language, "Permanent link")
    palette = config.theme.get("palette")
    if isinstance(palette, list):
        for option in palette:
            toggle = option.get("toggle") if isinstance(option, dict) else None
            if toggle and toggle.get("name"):
                toggle["name"] = translate(language, _english(toggle["name"]))
    _home_alternates = copy.deepcopy(config.extra.get("alternate") or [])
    return config


def on_env(env: Environment, config: MkDocsConfig, **_: object) -> Environment:
    language = _language(config)
    env.globals["chrome_t"] = lambda text: translate(language, text)
    return env


_HEADING = re.compile(r'<h([1-6])\b[^>]*\bid="([^"]+)"[^>]*>(.*?)</h\1>', re.DOTALL)
_PERMALINK = re.compile(r'<a\b[^>]*class="headerlink"[^>]*>.*?</a>', re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
_ASCII_SPACES = re.compile(r"[ \t\n\r\f\v]+")


def heading_texts(html: str) -> dict[str, str]:
    """The text of each heading of ``html`` by id, with its Unicode spaces kept.

    As Python-Markdown's ``toc`` makes a heading's title (tags stripped,
    entities left as they are), except that only ASCII whitespace collapses.
    """
    texts = {}
    for match in _HEADING.finditer(html):
        inner = _TAG.sub("", _PERMALINK.sub("", match.group(3)))
        texts[match.group(2)] = _ASCII_SPACES.sub(" ", inner).strip()
    return texts


def _restore_spaces(items: list[AnchorLink], texts: dict[str, str]) -> None:
    for item in items:
        text = texts.get(item.id)
        # Only where the two differ by their spaces (a data-toc-label, say, stays).
        if text is not None and " ".join(text.split()) == item.title:
            item.title = text
        _restore_spaces(item.children, texts)


def on_page_content(html: str, page: Page, **_: object) -> str:
    _restore_spaces(list(page.toc), heading_texts(html))
    return html


def on_template_context(
    context: TemplateContext, template_name: str, config: MkDocsConfig, **_: object
) -> TemplateContext:
    if template_name == ERROR_TEMPLATE and _home_alternates:
        config.extra["alternate"] = copy.deepcopy(_home_alternates)
    return context


def on_post_template(output: str, template_name: str, config: MkDocsConfig, **_: object) -> str:
    # An empty page is not written (MkDocs logs "Template skipped").
    if template_name == ERROR_TEMPLATE and not _is_default_language_build(config):
        return ""
    return output
