"""Embed pages: one calculator, chrome-less, for an iframe on a wiki or another site.

Each calculator has one embed page per language, at ``embed/<slug>/`` in that
language's tree (``embed/pipeline-bubble/``, ``fr/embed/pipeline-bubble/``),
derived from the registry and the list of languages. It shows the calculator's
forms and nothing else: no header, navigation, search or footer, and none of
Material's JavaScript. What it keeps from a full page:

- the same forms, rendered from the same fragment (``fragments/calculator/
  form.html``) with the same example, and the same page script, so the
  browser contract (:mod:`calcsite.contract`), the engine and the query string
  are the ones of the full page (a link with ``mode=`` fills that mode's form);
- Material's compiled stylesheets (found by name in the built site: their file
  names carry a hash), the site's own (``extra_css``), ``<html lang>`` and the
  text direction;
- the engine's part of the head, from the same partial
  (``partials/engine-head.html``) and the same :class:`calcsite.engine.Engine`,
  with URLs relative to the embed page, so it works under any sub-path; the
  engine's files are fetched at once (an embed is there to compute);
- the Content-Security-Policy of :mod:`calcsite.csp`, computed from the page
  as written: the page has no inline script at all.

Its one script of its own, ``assets/javascripts/embed.js`` (a file, not inline),
follows the system's colour scheme and, for a link that carries a case, shows
the form of that case only, so that an iframe sized for one form shows it.
Nothing is sent to the embedding page (no ``postMessage``) or anywhere else.
The page ends with a link to the calculator's full page, for the explanation,
opening in the top window; it carries ``hreflang``, so the page script keeps
the case in its query as it does for the language menu.

On the full pages, the form fragment leaves a marker, ``<!-- calc:embed SLUG
MODE -->``, where the "Embed" control goes; :func:`expand_controls` renders it
(``fragments/calculator/embed-control.html``) with the embed page's address
relative to the page, the words of the page's language and the title the
iframe will carry. The page script builds the snippet from these and the copy
link's query.

Everything here takes plain values: ``hooks/embed.py`` expands the controls
from MkDocs, and :mod:`calcsite.postbuild` writes the pages once each
language's build is done.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale
from jinja2 import Environment
from markupsafe import Markup

from calculator import CALCULATORS, Calculator, CalculatorError, get

from .contract import CONTRACT, case_inputs
from .csp import CspError, with_policy
from .directives import FORM_TEMPLATE
from .engine import Engine
from .messages import LANGUAGES, UI, translate, tree
from .paths import page_path, relative_url
from .widgets import widget_context

__all__ = [
    "CONTROL_TEMPLATE",
    "FOLDER",
    "SCRIPT",
    "TEMPLATE",
    "EmbedError",
    "Scheme",
    "embed_pages",
    "embed_path",
    "expand_controls",
    "page_path",
    "palette_schemes",
    "relative_url",
    "theme_stylesheets",
    "write",
]

FOLDER = "embed"
"""The folder of the embed pages in each language's tree."""
TEMPLATE = "fragments/calculator/embed.html"
CONTROL_TEMPLATE = "fragments/calculator/embed-control.html"
SCRIPT = "assets/javascripts/embed.js"
"""The embed page's own script, relative to the site root."""
STYLESHEETS = "assets/stylesheets"
"""Where Material's compiled stylesheets are in a built site."""

_MARKER = re.compile(r"<!-- calc:embed (?P<slug>[a-z0-9-]+) (?P<mode>[a-z0-9-]+) -->")
"""The place of the "Embed" control in a form (fragments/calculator/form.html)."""


class EmbedError(RuntimeError):
    """An embed page or control cannot be made (a theme file missing, an unknown slug)."""


@dataclass(frozen=True)
class Scheme:
    """A colour scheme as Material's stylesheets select it, from body attributes."""

    scheme: str
    primary: str
    accent: str

    def __str__(self) -> str:
        return f"{self.scheme} {self.primary} {self.accent}"


def embed_path(language: str, slug: str) -> str:
    """The embed page of a calculator in a language, relative to the site root."""
    return f"{tree(language)}{FOLDER}/{slug}/"


def embed_pages(
    languages: Iterable[str] = LANGUAGES, slugs: Iterable[str] = CALCULATORS
) -> list[tuple[str, str]]:
    """Every (language, slug) that has an embed page: each calculator in each language."""
    slugs = tuple(slugs)
    return [(language, slug) for language in languages for slug in slugs]


def palette_schemes(palette: object) -> tuple[Scheme, Scheme | None]:
    """The light and dark schemes of Material's ``theme.palette`` setting.

    The light one is the entry whose media query names light (else the first
    with a scheme), the dark one the entry whose query names dark, if any.
    Material's defaults fill what an entry leaves out.
    """
    entries: list[object] = [palette] if isinstance(palette, Mapping) else []
    if isinstance(palette, Sequence) and not isinstance(palette, str):
        entries = list(palette)
    options = [entry for entry in entries if isinstance(entry, Mapping) and entry.get("scheme")]

    def scheme(entry: Mapping[str, Any]) -> Scheme:
        return Scheme(
            str(entry.get("scheme") or "default"),
            str(entry.get("primary") or "indigo"),
            str(entry.get("accent") or "indigo"),
        )

    def named(word: str) -> Mapping[str, Any] | None:
        return next((entry for entry in options if word in str(entry.get("media", ""))), None)

    light = named("light") or (options[0] if options else None)
    dark = named("dark")
    return (
        scheme(light) if light else Scheme("default", "indigo", "indigo"),
        scheme(dark) if dark and dark is not light else None,
    )


def theme_stylesheets(site: Path) -> tuple[str, ...]:
    """Material's compiled stylesheets in a built site, relative to its root.

    ``main.<hash>.min.css``, then ``palette.<hash>.min.css`` (the colour
    schemes). Their names change with each release of the theme.

    Raises:
        EmbedError: If there is not exactly one of each (the theme changed).
    """
    found = []
    for stem in ("main", "palette"):
        files = sorted((site / STYLESHEETS).glob(f"{stem}.*.min.css"))
        if len(files) != 1:
            names = [path.name for path in files]
            raise EmbedError(f"expected one {stem}.*.min.css in {STYLESHEETS}, found {names}")
        found.append(files[0].relative_to(site).as_posix())
    return tuple(found)


def _title(calculator: Calculator, mode_name: str, language: str) -> str:
    title = translate(language, calculator.title)
    if len(calculator.modes) == 1:
        return title
    return f"{title} — {translate(language, calculator.mode(mode_name).label)}"


def expand_controls(html: str, page: str, language: str, env: Environment) -> str:
    """``html`` with each form's "Embed" control in place of its marker.

    Args:
        html: A page's content, as the form fragment rendered it.
        page: The page's address relative to the site root (``fr/pipeline-bubble/``).
        language: The page's language.
        env: The theme's Jinja environment, where ``CONTROL_TEMPLATE`` is found.

    Raises:
        EmbedError: If a marker names a calculator or a mode the core does not know.
    """
    template = env.get_template(CONTROL_TEMPLATE)

    def control(match: re.Match[str]) -> str:
        try:
            calculator = get(match["slug"])
            calculator.mode(match["mode"])
        except CalculatorError as error:
            raise EmbedError(f"{match.group(0)}: {error}") from None
        return template.render(
            href=relative_url(embed_path(language, calculator.slug), page),
            title=_title(calculator, match["mode"], language),
            label=translate(language, UI["embed.copy"]),
            copied=translate(language, UI["embed.copied"]),
            failed=translate(language, UI["embed.copy_failed"]),
            contract=CONTRACT,
        ).strip()

    return _MARKER.sub(control, html)


@dataclass(frozen=True)
class _Site:
    """What every embed page of one build shares."""

    language: str
    site_name: str
    stylesheets: tuple[str, ...]
    favicon: str
    engine: Engine
    light: Scheme
    dark: Scheme | None


def _render(env: Environment, slug: str, site: _Site) -> str:
    try:
        calculator = get(slug)
    except CalculatorError as error:
        raise EmbedError(str(error)) from None
    language = site.language
    here = embed_path(language, slug)

    def url(target: str) -> str:
        return relative_url(target, here)

    form = env.get_template(FORM_TEMPLATE)
    forms = "\n".join(
        _MARKER.sub(
            "",
            form.render(
                widget=widget_context(calculator, mode, language, page=here, embedded=True)
            ),
        )
        for mode in calculator.modes
    )
    title = translate(language, calculator.title)
    html = env.get_template(TEMPLATE).render(
        language=language,
        direction=Locale.parse(language).text_direction,
        title=title,
        page_title=f"{title} - {site.site_name}",
        stylesheets=[url(path) for path in site.stylesheets],
        favicon=url(site.favicon),
        head=site.engine.head(here, case_inputs(calculator.modes)),
        contract=CONTRACT,
        scheme_script=url(SCRIPT),
        light=str(site.light),
        dark=str(site.dark) if site.dark else "",
        # Rendered by the form fragment, which escapes every text it writes.
        forms=Markup(forms),
        page=url(page_path(language, slug)),
        page_label=translate(language, UI["embed.full_page"]).format(title=title),
    )
    try:
        return with_policy(html)
    except CspError as error:
        raise EmbedError(f"{here}: {error}") from error


def write(
    site_dir: Path,
    env: Environment,
    *,
    language: str,
    site_name: str,
    extra_css: Sequence[str],
    favicon: str,
    engine: Engine,
    palette: object,
    slugs: Iterable[str] = CALCULATORS,
) -> list[Path]:
    """Write the embed page of each calculator in ``language`` into a built site.

    Each links to its calculator's full page, which must be in the site already.

    Returns:
        The files written.

    Raises:
        EmbedError: If a file the pages need is missing from the site.
    """
    light, dark = palette_schemes(palette)
    site = _Site(
        language,
        site_name,
        (*theme_stylesheets(site_dir), *extra_css),
        favicon,
        engine,
        light,
        dark,
    )
    written = []
    for slug in slugs:
        full = site_dir / page_path(language, slug) / "index.html"
        if not full.is_file():
            raise EmbedError(f"{page_path(language, slug)} is not in the site: nothing to link to")
        target = site_dir / embed_path(language, slug) / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_render(env, slug, site), encoding="utf-8")
        written.append(target)
    return written
