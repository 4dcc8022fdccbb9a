"""The embed pages (calcsite.embed, hooks/embed.py) and the "Embed" control, in the real build.

Every calculator has one embed page per language, found from the registry and
the list of languages: the calculator's forms alone, under the site's policy,
with the engine's head contract resolving from the page itself, and a link to
the full page that opens in the top window. The full pages carry the control
that copies an iframe of it. The helpers are checked on their own below.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from calcsite.csp import META_NAME, policy
from calcsite.embed import (
    FOLDER,
    EmbedError,
    Scheme,
    embed_pages,
    embed_path,
    expand_controls,
    page_path,
    palette_schemes,
    relative_url,
    theme_stylesheets,
)
from calcsite.engine import HEAD_URLS
from calcsite.messages import LANGUAGES, UI, translate
from jinja2 import Environment, FileSystemLoader

from calculator import CALCULATORS, get

from .conftest import ROOT, SITE_PATH
from .html import Document, Element

EMBEDS = [pytest.param(language, slug, id=f"{language}-{slug}") for language, slug in embed_pages()]

CHROME_CLASSES = ("md-header", "md-tabs", "md-sidebar", "md-search", "md-footer", "md-nav")
"""Material's chrome: header, tabs, navigation, search, footer."""


def embed(site: Path, language: str, slug: str) -> Document:
    return Document((site / embed_path(language, slug) / "index.html").read_text(encoding="utf-8"))


def resolve(page: str, url: str) -> str:
    """``url`` as found on the page at ``page`` (relative to the site root), from the root."""
    base = f"https://x{SITE_PATH}"
    return urlsplit(urljoin(base + page, url)).path.removeprefix(SITE_PATH)


def file_of(site: Path, path: str) -> Path:
    target = site / path
    return target / "index.html" if path.endswith("/") or not path else target


def test_there_is_an_embed_page_for_each_calculator_in_each_language(site: Path) -> None:
    assert len(EMBEDS) == len(CALCULATORS) * len(LANGUAGES)
    found = sorted(
        path.parent.relative_to(site).as_posix() + "/"
        for path in site.rglob("index.html")
        if FOLDER in path.relative_to(site).parts
    )
    assert found == sorted(embed_path(language, slug) for language, slug in embed_pages())


@pytest.mark.parametrize(("language", "slug"), EMBEDS)
def test_an_embed_page_is_the_calculator_without_the_chrome(
    site: Path, language: str, slug: str
) -> None:
    document = embed(site, language, slug)
    assert document.find("html").attrs["lang"] == language
    assert document.find("body").attrs["dir"] == "ltr"
    for tag in ("header", "nav", "footer", "aside"):
        assert document.find_all(tag) == [], tag
    classes = " ".join(element.attrs.get("class", "") for element in document.elements)
    for name in CHROME_CLASSES:
        assert name not in classes, name
    assert document.find_all(data_md_component=True) == []
    assert document.find_all("input", data_md_toggle=True) == []
    # Every mode's form, as on the full page, in the page's language.
    calculator = get(slug)
    forms = document.find_all("form", data_calc=slug)
    assert [form.attrs["data-mode"] for form in forms] == [m.name for m in calculator.modes]
    assert {form.attrs["data-locale"] for form in forms} == {language}
    assert {form.attrs["data-state"] for form in forms} == {"static"}
    assert "calc:embed" not in document.html, "no embed control inside an embed"
    assert document.find("h1").text == translate(language, calculator.title)
    assert document.find("meta", name="robots").attrs["content"] == "noindex"


def scripts(document: Document) -> list[Element]:
    return document.find_all("script")


@pytest.mark.parametrize(("language", "slug"), EMBEDS)
def test_an_embed_page_has_the_policy_first_and_no_inline_script(
    site: Path, language: str, slug: str
) -> None:
    document = embed(site, language, slug)
    tags = [element.tag for element in document.elements]
    (meta,) = document.find_all("meta", http_equiv=META_NAME)
    at = document.elements.index(meta)
    assert tags[:at] == ["html", "head", "meta"], "the policy right after the charset"
    assert at < tags.index("script")
    # The full pages' policy for a page with the engine, with no hash: nothing inline runs.
    assert meta.attrs["content"] == policy(engine=True)
    assert scripts(document), "the page script"
    assert all(script.attrs.get("src") for script in scripts(document))
    sources = [script.attrs["src"] for script in scripts(document)]
    assert not [src for src in sources if "bundle." in src or "theme-start" in src]
    assert [urlsplit(src).path.rsplit("/", 1)[-1] for src in sources] == [
        "calculator.mjs",
        "embed.js",
    ]
    assert [s.attrs.get("type") for s in scripts(document)] == ["module", None]
    # No style either, as every page (style-src 'self').
    assert document.find_all("style") == []
    assert not [e.tag for e in document.elements if "style" in e.attrs]
    assert not [f"{e.tag}[{a}]" for e in document.elements for a in e.attrs if a.startswith("on")]


@pytest.mark.parametrize(("language", "slug"), EMBEDS)
def test_every_url_of_an_embed_page_is_relative_and_resolves(
    site: Path, language: str, slug: str
) -> None:
    """Relative to the page, so that the site works under any sub-path (SITE_PATH here)."""
    here = embed_path(language, slug)
    document = embed(site, language, slug)
    metas = {
        meta.attrs["name"]: meta.attrs["content"]
        for meta in document.find_all("meta")
        if meta.attrs.get("name", "").startswith("calc:")
    }
    assert set(metas) == {"calc:inputs", "calc:worker", *(f"calc:{name}" for name in HEAD_URLS)}
    modes = get(slug).modes
    assert metas.pop("calc:inputs").split() == sorted(
        {spec.name for mode in modes for spec in mode.inputs}
    )
    urls = [
        *metas.values(),
        *(e.attrs[a] for e in document.elements for a in ("src", "href") if a in e.attrs),
    ]
    assert len(urls) > 10
    for url in urls:
        assert not urlsplit(url).scheme, url
        assert not url.startswith("/"), url
        assert file_of(site, resolve(here, url)).is_file(), url
    # Material's compiled stylesheets, then the site's.
    sheets = [link.attrs["href"] for link in document.find_all("link", rel="stylesheet")]
    assert [resolve(here, href) for href in sheets] == [
        *theme_stylesheets(site),
        "assets/stylesheets/calculator.css",
    ]
    # The engine's files, prefetched (an embed is there to compute).
    prefetched = {resolve(here, link.attrs["href"]) for link in document.find_all("link")}
    assert {resolve(here, url) for url in metas.values()} <= prefetched


@pytest.mark.parametrize(("language", "slug"), EMBEDS)
def test_an_embed_page_links_to_its_full_page_in_the_top_window(
    site: Path, language: str, slug: str
) -> None:
    document = embed(site, language, slug)
    # Every link leaves the frame: the full page's, and a list output's cases.
    assert {a.attrs.get("target") for a in document.find_all("a")} == {"_top"}
    (link,) = document.find_all("a", hreflang=True)
    assert link.attrs["target"] == "_top"
    # hreflang: the page script keeps the case in its query, as for the language menu.
    assert link.attrs["hreflang"] == language
    assert resolve(embed_path(language, slug), link.attrs["href"]) == page_path(language, slug)
    title = translate(language, get(slug).title)
    assert link.text == translate(language, UI["embed.full_page"]).format(title=title)


@pytest.mark.parametrize(("language", "slug"), EMBEDS)
def test_each_form_of_a_full_page_has_the_embed_control(
    site: Path, language: str, slug: str
) -> None:
    here = page_path(language, slug)
    document = Document((site / here / "index.html").read_text(encoding="utf-8"))
    forms = document.find_all("form", data_calc=slug)
    controls = document.find_all("button", data_action="copy-embed")
    assert len(controls) == len(forms) == len(get(slug).modes)
    calculator = get(slug)
    for form, button in zip(forms, controls, strict=True):
        assert resolve(here, button.attrs["data-embed"]) == embed_path(language, slug)
        title = translate(language, calculator.title)
        if len(calculator.modes) > 1:
            mode = calculator.mode(form.attrs["data-mode"])
            title += " — " + translate(language, mode.label)
        assert button.attrs["data-embed-title"] == title
        assert button.text == translate(language, UI["embed.copy"])
        assert button.attrs["data-copied"] == translate(language, UI["embed.copied"])
        assert button.attrs["data-copy-failed"] == translate(language, UI["embed.copy_failed"])
    assert len(document.find_all("code", data_embed_code=True)) == len(forms)
    assert "calc:embed" not in document.html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_automation_page_links_to_every_embed_page_of_its_language(
    site: Path, language: str
) -> None:
    here = page_path(language, "automation")
    document = Document((site / here / "index.html").read_text(encoding="utf-8"))
    listed = {
        resolve(here, link.attrs["href"])
        for link in document.find_all("a", href=True)
        if f"/{FOLDER}/" in "/" + resolve(here, link.attrs["href"])
    }
    assert listed == {embed_path(language, slug) for slug in CALCULATORS}
    assert document.find("h2", id="embed")


# --------------------------------------------------------------- the helpers


@pytest.mark.parametrize(
    ("target", "page", "url"),
    [
        ("fr/embed/pipeline-bubble/", "fr/pipeline-bubble/", "../embed/pipeline-bubble/"),
        ("embed/pipeline-bubble/", "automation/", "../embed/pipeline-bubble/"),
        ("pipeline-bubble/", "embed/pipeline-bubble/", "../../pipeline-bubble/"),
        ("assets/x.css", "it/embed/a/", "../../../assets/x.css"),
        ("embed/a/", "", "embed/a/"),
        ("", "embed/a/", "../../"),
        ("it/a/", "it/a/", "./"),
        ("https://cdn.example/p/pyodide.mjs", "embed/a/", "https://cdn.example/p/pyodide.mjs"),
    ],
)
def test_relative_urls(target: str, page: str, url: str) -> None:
    assert relative_url(target, page) == url


def test_the_schemes_come_from_the_palette() -> None:
    palette = [
        {"media": "(prefers-color-scheme)"},
        {"media": "(prefers-color-scheme: light)", "scheme": "default", "primary": "teal"},
        {"media": "(prefers-color-scheme: dark)", "scheme": "slate", "accent": "amber"},
    ]
    assert palette_schemes(palette) == (
        Scheme("default", "teal", "indigo"),
        Scheme("slate", "indigo", "amber"),
    )
    assert palette_schemes({"scheme": "slate"}) == (Scheme("slate", "indigo", "indigo"), None)
    assert palette_schemes(None) == (Scheme("default", "indigo", "indigo"), None)
    assert str(Scheme("slate", "indigo", "amber")) == "slate indigo amber"


def test_a_theme_without_its_stylesheets_fails_the_build(tmp_path: Path) -> None:
    with pytest.raises(EmbedError, match=r"main\.\*\.min\.css"):
        theme_stylesheets(tmp_path)


def test_a_control_for_an_unknown_calculator_fails_the_build() -> None:
    env = Environment(loader=FileSystemLoader(ROOT / "overrides"))
    html = expand_controls("<!-- calc:embed pipeline-bubble bubble -->", "it/x/", "it", env)
    assert 'data-embed="../embed/pipeline-bubble/"' in html
    with pytest.raises(EmbedError, match="no-such"):
        expand_controls("<!-- calc:embed no-such bubble -->", "x/", "en", env)
    with pytest.raises(EmbedError):
        expand_controls("<!-- calc:embed pipeline-bubble nope -->", "x/", "en", env)
