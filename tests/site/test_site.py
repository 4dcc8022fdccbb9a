"""The real site, built once: pages, languages, pre-rendered results, links, origins."""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from calcsite.compile_hints import theme_bundle
from calcsite.embed import FOLDER as EMBED_FOLDER
from calcsite.engine import HEAD_URLS, LOCK, RUNTIME_FILES, SITE_STDLIB, STDLIB
from calcsite.messages import LANGUAGES as SITE_LANGUAGES
from calcsite.messages import tree

from calculator import CALCULATORS

from .conftest import ROOT, SITE_PATH, SITE_URL
from .html import Document

LANGUAGES = {language: tree(language) for language in SITE_LANGUAGES}
PAGES = sorted(
    "" if path.stem == "index" else f"{path.stem}/"
    for path in (ROOT / "docs").glob("*.md")
    if "." not in path.stem  # page.fr.md and page.it.md are the same pages
)
"""Every page, derived from the default language's files in docs/."""
CALCULATOR_PAGES = [slug + "/" for slug in CALCULATORS]


def page(site: Path, language: str, path: str) -> Document:
    return Document((site / LANGUAGES[language] / path / "index.html").read_text(encoding="utf-8"))


def all_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", PAGES)
def test_every_page_exists_in_every_language_with_its_lang_and_description(
    site: Path, language: str, path: str
) -> None:
    document = page(site, language, path)
    assert document.find("html").attrs["lang"] == language
    description = document.find("meta", name="description").attrs["content"]
    assert 50 <= len(description) <= 170
    assert document.find("time", datetime=True).attrs["datetime"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", CALCULATOR_PAGES)
def test_each_calculator_page_renders_every_mode_of_its_calculator(
    site: Path, language: str, path: str
) -> None:
    calculator = CALCULATORS[path.strip("/")]
    forms = page(site, language, path).find_all("form", data_calc=calculator.slug)
    assert [form.attrs["data-mode"] for form in forms] == [mode.name for mode in calculator.modes]
    assert all(form.attrs["data-state"] == "static" for form in forms)


# Known values from the issue: the same results, formatted by CLDR for each language.
PRE_RENDERED = {
    "en": {"ideal": "128,000", "actual": "115,200", "speedup": "57.6×", "lost": "12,800"},
    "fr": {
        "ideal": "128\u202f000",
        "actual": "115\u202f200",
        "speedup": "57,6×",
        "lost": "12\u202f800",
    },
    "it": {"ideal": "128.000", "actual": "115.200", "speedup": "57,6×", "lost": "12.800"},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_data_parallel_scaling_example_is_pre_rendered_in_the_page_language(
    site: Path, language: str
) -> None:
    document = page(site, language, "data-parallel-scaling/")
    for output, text in PRE_RENDERED[language].items():
        assert document.find("output", data_output=output).text == text


@pytest.mark.parametrize(
    ("language", "path", "output", "text"),
    [
        ("en", "effective-batch-size/", "tokens_per_step", "4,194,304"),
        ("fr", "effective-batch-size/", "tokens_per_step", "4\u202f194\u202f304"),
        ("it", "effective-batch-size/", "global_batch", "1024"),
        ("en", "pipeline-bubble/", "bubble_overhead", "37.5%"),
        ("fr", "pipeline-bubble/", "bubble_overhead", "37,5\u00a0%"),
        ("it", "pipeline-bubble/", "idle_share", "27,27%"),
    ],
)
def test_sibling_examples_are_pre_rendered_with_cldr_formats(
    site: Path, language: str, path: str, output: str, text: str
) -> None:
    assert page(site, language, path).find("output", data_output=output).text == text


@pytest.mark.parametrize("language", LANGUAGES)
def test_worked_example_numbers_come_from_the_core(site: Path, language: str) -> None:
    html = page(site, language, "data-parallel-scaling/").html
    main = html[html.index('<article class="md-content__inner') :]
    prose = main[main.index("</form>", main.index("</form>") + 1) :]
    for text in PRE_RENDERED[language].values():
        assert text in prose
    assert "md:value" not in html
    assert "md:calculator" not in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_formulas_are_mathml_with_no_math_script(site: Path, language: str) -> None:
    document = page(site, language, "data-parallel-scaling/")
    assert document.find_all("math")
    scripts = " ".join(script.attrs.get("src", "") for script in document.find_all("script"))
    assert "mathjax" not in scripts.lower()
    assert "katex" not in scripts.lower()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", PAGES)
def test_language_switcher_leads_to_the_same_page_in_each_language(
    site: Path, language: str, path: str
) -> None:
    document = page(site, language, path)
    here = f"{SITE_PATH}{LANGUAGES[language]}{path}"
    links = {
        link.attrs["hreflang"]: urljoin(here, link.attrs["href"])
        for link in document.find_all("a", class_="md-select__link")
    }
    # Absolute paths under site_url's path, which is how they survive a sub-path.
    assert links == {other: f"{SITE_PATH}{prefix}{path}" for other, prefix in LANGUAGES.items()}


def test_no_head_alternate_links_send_material_after_missing_sitemaps(site: Path) -> None:
    for path in all_pages(site):
        assert 'rel="alternate"' not in path.read_text(encoding="utf-8"), path


def test_sitemap_publishes_absolute_hreflang_alternates(site: Path) -> None:
    namespace = {
        "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
        "x": "http://www.w3.org/1999/xhtml",
    }
    tree = ET.parse(site / "sitemap.xml")
    urls = tree.getroot().findall("s:url", namespace)
    assert len(urls) == len(PAGES) * len(LANGUAGES)
    for url in urls:
        alternates = {
            link.attrib["hreflang"]: link.attrib["href"]
            for link in url.findall("x:link", namespace)
        }
        assert set(alternates) == set(LANGUAGES)
        assert all(href.startswith(SITE_URL) for href in alternates.values())


_RESOURCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
_CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)""")


def test_no_page_or_stylesheet_requests_another_origin(site: Path) -> None:
    offenders = []
    for path in all_pages(site):
        document = Document(path.read_text(encoding="utf-8"))
        for element in document.elements:
            if element.tag == "a":
                continue  # a hyperlink is not a request
            for name in ("src", "href", "content"):
                value = element.attrs.get(name, "")
                if element.tag == "meta" and not element.attrs.get("name", "").startswith("calc:"):
                    continue
                if element.tag == "link" and element.attrs.get("rel") == "canonical":
                    continue  # names the page, requests nothing
                if value.startswith(("http:", "https:", "//")):
                    offenders.append((path.relative_to(site), element.tag, value))
    for path in site.rglob("*.css"):
        for value in _CSS_URL.findall(path.read_text(encoding="utf-8")):
            if value.startswith(("http:", "https:", "//")):
                offenders.append((path.relative_to(site), "css", value))
    assert offenders == []


def test_every_internal_link_and_anchor_resolves(site: Path) -> None:
    broken = []
    ids: dict[Path, set[str]] = {}
    for path in all_pages(site):
        document = Document(path.read_text(encoding="utf-8"))
        ids[path] = {element.attrs["id"] for element in document.elements if "id" in element.attrs}
    for path in all_pages(site):
        document = Document(path.read_text(encoding="utf-8"))
        for element in document.find_all("a", href=True) + document.find_all("link", href=True):
            href = element.attrs["href"]
            parts = urlsplit(href)
            if parts.scheme or href.startswith(("//", "mailto:")) or not href:
                continue
            if href.startswith("/"):
                # Only under site_url's path (Material's 404 page, the language links).
                assert href.startswith(SITE_PATH), f"{path}: {href} breaks under a sub-path"
                target = site / unquote(parts.path).removeprefix(SITE_PATH)
            elif parts.path:
                target = (path.parent / unquote(parts.path)).resolve()
            else:
                target = path
            if target.is_dir():
                target = target / "index.html"
            missing_anchor = bool(parts.fragment) and parts.fragment not in ids.get(target, set())
            if not target.exists() or (target.suffix == ".html" and missing_anchor):
                broken.append((path.relative_to(site), href))
    assert broken == []


def test_engine_files_are_in_the_site_with_a_hashed_wheel(site: Path) -> None:
    document = page(site, "fr", "pipeline-bubble/")
    metas = {
        meta.attrs["name"]: meta.attrs["content"]
        for meta in document.find_all("meta")
        if meta.attrs.get("name", "").startswith("calc:")
    }
    base = site / "fr" / "pipeline-bubble"
    assert list(metas) == ["calc:inputs", "calc:worker", *(f"calc:{name}" for name in HEAD_URLS)]
    for name in ("calc:worker", *(f"calc:{name}" for name in HEAD_URLS)):
        assert (base / urlsplit(metas[name]).path).resolve().is_file(), name
    assert re.search(r"assets/engine/[0-9a-f]{16}/[^/]+\.whl\.gz$", metas["calc:wheel"])
    assert metas["calc:stdlib"].endswith(f"/{SITE_STDLIB}")
    assert metas["calc:lock"].endswith(f"/{LOCK}")
    runtime = (base / metas["calc:pyodide"]).resolve().parent
    assert sorted(path.name for path in runtime.iterdir()) == sorted(RUNTIME_FILES)


def _is_page_script(attrs: dict[str, str]) -> bool:
    """Whether a ``<script>`` is the calculators' page script, whatever its query."""
    return urlsplit(attrs.get("src", "")).path.endswith("/calculator.mjs")


def test_the_page_script_and_the_worker_are_named_by_their_content(site: Path) -> None:
    """A page built after a change never meets the previous script or worker from a cache.

    Named by the bytes served, minified (tests/site/test_versions.py checks every such URL).
    """
    document = page(site, "fr", "pipeline-bubble")
    (worker,) = (m for m in document.find_all("meta") if m.attrs.get("name") == "calc:worker")
    (script,) = (s for s in document.find_all("script") if _is_page_script(s.attrs))
    prefetched = {link.attrs["href"] for link in document.find_all("link") if "href" in link.attrs}
    for url in (worker.attrs["content"], script.attrs["src"]):
        parts = urlsplit(url)
        served = site / "assets" / "javascripts" / parts.path.rsplit("/", 1)[-1]
        assert parts.query == f"v={hashlib.sha256(served.read_bytes()).hexdigest()[:12]}", url
    # A shared link's prefetch asks for the very URL the worker is started from.
    assert worker.attrs["content"] in prefetched


def test_no_script_names_an_engine_file_the_build_names() -> None:
    """The page's head gives every engine URL; a script holding a name would be a second copy."""
    scripts = ROOT / "overrides" / "assets" / "javascripts"
    for script in scripts.glob("*.*js"):
        text = script.read_text(encoding="utf-8")
        for name in (STDLIB, LOCK, ".whl"):
            assert name not in text, (script.name, name)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", PAGES)
def test_only_pages_with_a_form_load_the_engine_from_the_head(
    site: Path, language: str, path: str
) -> None:
    document = page(site, language, path)
    head = Document(document.html.partition("</head>")[0])
    forms = document.find_all("form", data_calc=True)
    everywhere = [s for s in document.find_all("script") if _is_page_script(s.attrs)]
    scripts = [s for s in head.find_all("script") if _is_page_script(s.attrs)]
    inputs = head.find_all("meta", name="calc:inputs")
    if not forms:
        assert everywhere == []
        assert inputs == []
        return
    # An async module in the head: it runs as soon as it arrives, before the theme's bundle.
    assert scripts == everywhere
    assert [(s.attrs.get("type"), "async" in s.attrs) for s in scripts] == [("module", True)]
    fields = [*document.find_all("input", class_="calc__input")]
    fields += document.find_all("select", class_="calc__select")
    # A list of presets has no name: it fills fields, it is none.
    names = {field.attrs["name"] for field in fields if "name" in field.attrs}
    assert [meta.attrs["content"].split() for meta in inputs] == [sorted(names)]


def test_every_page_starts_the_theme_bundle_from_one_deferred_script(site: Path) -> None:
    bundle = theme_bundle(site)  # exactly one, or it raises
    for path in all_pages(site):
        scripts = Document(path.read_text(encoding="utf-8")).find_all("script")
        # No parser-inserted script evaluates the bundle (and mounts it on the spot).
        assert [s for s in scripts if "bundle." in s.attrs.get("src", "")] == [], path
        if EMBED_FOLDER in path.relative_to(site).parts:
            continue  # an embed page has none of the theme's JavaScript (tests/site/test_embed.py)
        starters = [
            s for s in scripts if urlsplit(s.attrs.get("src", "")).path.endswith("theme-start.js")
        ]
        assert len(starters) == 1, path
        (starter,) = starters
        assert "defer" in starter.attrs, path
        url = f"https://x{SITE_PATH}{path.relative_to(site).as_posix()}"
        for attribute, file in (
            ("src", site / "assets/javascripts/theme-start.js"),
            ("data-bundle", bundle),
        ):
            resolved = urlsplit(urljoin(url, starter.attrs[attribute])).path
            assert resolved == f"{SITE_PATH}{file.relative_to(site).as_posix()}", (path, attribute)


def test_our_only_inline_scripts_are_the_shared_link_prefetch_and_the_scripted_mark(
    site: Path,
) -> None:
    """Inline scripts are Material's boot code and two of ours.

    The prefetch of a shared link, and the html element's marks of a scripted
    page (main.html says why). Both must run while the head is parsed, before
    any file could; the Content-Security-Policy allows each inline script by
    its hash (tests/site/test_csp.py checks the hashes).
    """
    for path in all_pages(site):
        for script in Document(path.read_text(encoding="utf-8")).find_all("script"):
            if "src" in script.attrs or script.attrs.get("type") == "application/json":
                continue
            material = "__md_" in script.text or "__tabbed_" in script.text
            ours = "calc-prefetch" in script.text or "js-focus-visible" in script.text
            assert material or ours, path


def test_form_messages_are_json_in_the_page_language(site: Path) -> None:
    form = page(site, "it", "data-parallel-scaling/").find(
        "form", data_calc="data-parallel-scaling"
    )
    messages = json.loads(form.attrs["data-messages"])
    assert messages["required"] == "Inserire un valore."
    assert form.attrs["data-locale"] == "it"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_its_own_search_index_with_its_stemmer(site: Path, language: str) -> None:
    root = LANGUAGES[language]
    index = json.loads((site / root / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == [language]
    locations = {doc["location"].partition("#")[0] for doc in index["docs"]}
    assert locations == set(PAGES)
    # Material fetches search/search_index.json under "base", resolved from the page.
    config = json.loads(page(site, language, "pipeline-bubble/").find("script", id="__config").text)
    base = urljoin(f"https://x{SITE_PATH}{root}pipeline-bubble/", config["base"])
    assert (
        urljoin(base, "search/search_index.json")
        == f"https://x{SITE_PATH}{root}search/search_index.json"
    )
    titles = [doc["title"] for doc in index["docs"] if doc["location"] == "pipeline-bubble/"]
    assert {"en": "pipeline bubble", "fr": "bulle", "it": "bolla"}[language] in titles[0].lower()
