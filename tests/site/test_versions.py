"""Every file the build rewrites is named by its final bytes, and every page names it so.

A browser may keep a file for ten minutes (GitHub Pages): a reader who loads
pages across a deploy must never get a new file beside an old one, such as a
bundle that constructs ``LazyWk`` beside a ``theme-start.js`` that does not
define it. In the real build: each hashed name (Material's files, and those the
build rewrote and renamed) and each ``?v=`` in a page or a source-map comment
is recomputed from the file's bytes. On a small site of its own:
:func:`calcsite.versions.version_site`, step by step, and its refusals.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import material
import pytest
from calcsite.compile_hints import theme_bundle
from calcsite.embed import FOLDER as EMBED_FOLDER
from calcsite.minify import own_assets
from calcsite.versions import VersionError, version_site

from .conftest import ROOT, SITE_PATH
from .html import Document

THEME = Path(material.__file__).parent / "templates"
HASHED = re.compile(r"\.(?P<hash>[0-9a-f]{8,})\.min\.(?:js|css)(?:\.map)?$")
"""A name that carries a hash of its file: ``bundle.<hash>.min.js``, ``main.<hash>.min.css``."""
MAP_COMMENT = re.compile(r"sourceMappingURL=(?P<url>[^\s*]+)")


def version(data: bytes) -> str:
    """As calcsite.versions.version computes it, recomputed here: SHA-256, 12 hex digits."""
    return hashlib.sha256(data).hexdigest()[:12]


def urls_of(page: Path, site: Path) -> list[tuple[str, Path | None]]:
    """Each attribute value of ``page`` with the file of the site it names, if any."""
    base = f"https://x{SITE_PATH}{page.relative_to(site).as_posix()}"
    found: list[tuple[str, Path | None]] = []
    for element in Document(page.read_text(encoding="utf-8")).elements:
        for value in element.attrs.values():
            if not value or any(space in value for space in " \t\n"):
                found.append((value, None))  # not a URL: a list of names, an SVG path
                continue
            parts = urlsplit(urljoin(base, value))
            inside = parts.netloc == "x" and parts.path.startswith(SITE_PATH)
            target = site / unquote(parts.path.removeprefix(SITE_PATH)) if inside else None
            try:
                found.append((value, target if target is not None and target.is_file() else None))
            except OSError:  # a name too long for a file: not one
                found.append((value, None))
    return found


def map_comment(path: Path) -> re.Match[str] | None:
    """The source-map comment on the last line of a script or stylesheet, if any."""
    return MAP_COMMENT.search(path.read_text(encoding="utf-8").rstrip().rsplit("\n", 1)[-1])


# ------------------------------------------------------------- the real build


def test_no_served_file_keeps_a_hashed_name_its_bytes_do_not_have(site: Path) -> None:
    """A hashed name is Material's for Material's own bytes, or the hash of the file's bytes."""
    renamed = []
    for path in sorted(site.rglob("*")):
        match = HASHED.search(path.name)
        if match is None or not path.is_file():
            continue
        theirs = THEME / path.relative_to(site)
        if theirs.is_file() and theirs.read_bytes() == path.read_bytes():
            continue  # Material's file as Material named it (its scripts' hashes are its own)
        assert match["hash"] == version(path.read_bytes()), path.relative_to(site)
        renamed.append(path)
    # The bundle, rewritten (calcsite.search, calcsite.compile_hints), and its source map.
    bundle = theme_bundle(site)
    source_map = map_comment(bundle)
    assert source_map is not None
    assert renamed == sorted([bundle, bundle.with_name(source_map["url"])])


def test_every_versioned_url_of_every_page_names_its_files_bytes(site: Path) -> None:
    """Every page, the 404 page and the embed pages: each ``?v=`` is the hash of its file."""
    pages = sorted(site.rglob("*.html"))
    assert site / "404.html" in pages
    assert any(EMBED_FOLDER in page.relative_to(site).parts for page in pages)
    checked = set()
    for page in pages:
        for value, target in urls_of(page, site):
            query = urlsplit(value).query
            if "v=" in query:
                assert target is not None, (page, value)
                assert query == f"v={version(target.read_bytes())}", (page, value)
                checked.add(target.relative_to(site).as_posix())
    assert checked == {
        path.relative_to(site).as_posix() for path in own_assets(ROOT / "overrides", site)
    }


def test_every_page_names_the_sites_own_files_with_their_version(site: Path) -> None:
    """No reference to theme-start.js, calculator.css or the other own files goes without."""
    own = set(own_assets(ROOT / "overrides", site))
    assert len(own) >= 5
    named = 0
    for page in sorted(site.rglob("*.html")):
        for value, target in urls_of(page, site):
            if target in own:
                named += 1
                assert urlsplit(value).query.startswith("v="), (page, value)
    assert named > len(own)


def test_each_script_and_stylesheet_names_its_rewritten_source_map_by_its_bytes(
    site: Path,
) -> None:
    """The site's own files by ``?v=``, the bundle by its map's new name."""
    for path in [*own_assets(ROOT / "overrides", site), theme_bundle(site)]:
        comment = map_comment(path)
        assert comment is not None, path
        parts = urlsplit(comment["url"])
        source_map = path.with_name(parts.path)
        match = HASHED.search(parts.path)
        named = match["hash"] if match else parts.query.removeprefix("v=")
        assert named == version(source_map.read_bytes()), path


def test_theme_start_is_named_with_its_version_on_every_page_that_starts_the_bundle(
    site: Path,
) -> None:
    """A new bundle calls LazyWk, which only the theme-start.js of the same build defines."""
    start = site / "assets" / "javascripts" / "theme-start.js"
    bundle = theme_bundle(site)
    pages = [
        p for p in sorted(site.rglob("*.html")) if EMBED_FOLDER not in p.relative_to(site).parts
    ]
    assert site / "404.html" in pages
    for page in pages:
        starters = [
            (value, target) for value, target in urls_of(page, site) if target in (start, bundle)
        ]
        assert [target for _, target in starters] == [start, bundle], page
        (src, _), _ = starters
        assert urlsplit(src).query == f"v={version(start.read_bytes())}", page


# ------------------------------------------------------------ a site of its own

BUNDLE = "assets/javascripts/bundle.0123abcd.min.js"
WORKER = "assets/javascripts/workers/search.89abcdef.min.js"
STYLE = "assets/stylesheets/main.fedcba98.min.css"
START = "assets/javascripts/start.js"
OWN_STYLE = "assets/stylesheets/own.css"
PAGE = """<!doctype html>
<html><head>
<link rel="stylesheet" href="{up}assets/stylesheets/main.fedcba98.min.css">
<link rel="stylesheet" href='{up}assets/stylesheets/own.css'>
<script>var s = ' src="{up}assets/javascripts/start.js"';</script>
<script id="__config" type="application/json">{{"search": "{up}{worker}"}}</script>
</head><body>
<p>{up}assets/javascripts/start.js, as a reader may read it.</p>
<script defer src="{up}assets/javascripts/start.js?v=000000000000#top"
  data-bundle="{up}{bundle}"></script>
<a href="https://cdn.example/calc/assets/javascripts/start.js">elsewhere</a>
</body></html>
"""


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def small_site(folder: Path) -> tuple[Path, Path]:
    """A theme with three hashed files, and a site built from it whose bundle was rewritten."""
    theme, site = folder / "theme", folder / "site"
    for root in (theme, site):
        write(root / BUNDLE, "f();\n//# sourceMappingURL=bundle.0123abcd.min.js.map\n\n")
        write(root / f"{BUNDLE}.map", '{"version":3,"mappings":"AAAA"}')
        write(root / WORKER, "w();")
        write(root / STYLE, "a{}")
    write(site / BUNDLE, "//# hint\nf();\n//# sourceMappingURL=bundle.0123abcd.min.js.map\n\n")
    write(site / f"{BUNDLE}.map", '{"version":3,"mappings":";AAAA"}')
    write(site / START, "g();\n//# sourceMappingURL=start.js.map\n")
    write(site / f"{START}.map", '{"version":3,"mappings":"BBBB"}')
    write(site / OWN_STYLE, "b{}\n/*# sourceMappingURL=own.css.map */\n")
    write(site / f"{OWN_STYLE}.map", '{"version":3,"mappings":"CCCC"}')
    pages = {"index.html": "", "fr/page/index.html": "../../", "404.html": SITE_PATH}
    for page, up in pages.items():
        write(site / page, PAGE.format(up=up, bundle=BUNDLE, worker=WORKER))
    return theme, site


def run(site: Path, theme: Path) -> dict[str, str]:
    return version_site(site, SITE_PATH, [site / START, site / OWN_STYLE], [theme])


def files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_a_rewritten_file_of_the_theme_is_renamed_by_its_bytes_its_map_first(
    tmp_path: Path,
) -> None:
    theme, site = small_site(tmp_path)
    urls = run(site, theme)
    bundle = site / urls[BUNDLE]
    assert bundle.name == f"bundle.{version(bundle.read_bytes())}.min.js"
    source_map = next(bundle.parent.glob("bundle.*.min.js.map"))
    shifted = b'{"version":3,"mappings":";AAAA"}'
    assert source_map.name == f"bundle.{version(shifted)}.min.js.map"
    assert bundle.read_text(encoding="utf-8") == (
        f"//# hint\nf();\n//# sourceMappingURL={source_map.name}\n\n"
    )
    assert not (site / BUNDLE).exists()
    assert not (site / f"{BUNDLE}.map").exists()
    # What the build left as the theme has it keeps its name.
    assert (site / WORKER).is_file()
    assert (site / STYLE).is_file()


def test_the_sites_own_files_get_a_version_and_name_their_maps_with_theirs(
    tmp_path: Path,
) -> None:
    theme, site = small_site(tmp_path)
    urls = run(site, theme)
    start, style = site / START, site / OWN_STYLE
    assert urls[START] == f"{START}?v={version(start.read_bytes())}"
    assert urls[OWN_STYLE] == f"{OWN_STYLE}?v={version(style.read_bytes())}"
    start_map = version(b'{"version":3,"mappings":"BBBB"}')
    assert start.read_text(encoding="utf-8") == (
        f"g();\n//# sourceMappingURL=start.js.map?v={start_map}\n"
    )
    style_map = version(b'{"version":3,"mappings":"CCCC"}')
    assert style.read_text(encoding="utf-8") == (
        f"b{{}}\n/*# sourceMappingURL=own.css.map?v={style_map} */\n"
    )


@pytest.mark.parametrize("page", ["index.html", "fr/page/index.html", "404.html"])
def test_each_page_names_the_new_names_in_its_attributes_and_nothing_else_changes(
    tmp_path: Path, page: str
) -> None:
    theme, site = small_site(tmp_path)
    up = {"index.html": "", "fr/page/index.html": "../../", "404.html": SITE_PATH}[page]
    urls = run(site, theme)
    start = urls[START].rsplit("/", 1)[1]
    expected = (
        PAGE.format(up=up, bundle=BUNDLE, worker=WORKER)
        .replace("assets/stylesheets/own.css'", f"{urls[OWN_STYLE]}'")
        .replace("start.js?v=000000000000#top", f"{start}#top")
        .replace(f'data-bundle="{up}{BUNDLE}"', f'data-bundle="{up}{urls[BUNDLE]}"')
    )
    # The inline script's text, the prose and another site's URL are as they were.
    assert (site / page).read_text(encoding="utf-8") == expected


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    theme, site = small_site(tmp_path)
    urls = run(site, theme)
    before = files(site)
    assert run(site, theme) == {name: url for name, url in urls.items() if name != BUNDLE}
    assert files(site) == before


def test_a_rewritten_file_of_the_theme_without_a_hash_in_its_name_fails(tmp_path: Path) -> None:
    theme, site = small_site(tmp_path)
    write(theme / "assets/javascripts/lunr/lunr.fr.js", "l();")
    write(site / "assets/javascripts/lunr/lunr.fr.js", "l2();")
    with pytest.raises(VersionError, match=r"lunr\.fr\.js: .* has no hash"):
        run(site, theme)


def test_a_renamed_file_still_named_where_a_browser_reads_it_fails(tmp_path: Path) -> None:
    """Material's #__config names its search worker: renamed, the worker would be gone."""
    theme, site = small_site(tmp_path)
    write(site / WORKER, "w2();")
    with pytest.raises(VersionError, match=r"names search\.89abcdef\.min\.js, renamed"):
        run(site, theme)


def test_a_renamed_file_still_named_by_a_script_fails(tmp_path: Path) -> None:
    theme, site = small_site(tmp_path)
    write(site / "assets/javascripts/other.js", 'load("bundle.0123abcd.min.js");')
    with pytest.raises(VersionError, match=r"other\.js names bundle\.0123abcd\.min\.js"):
        run(site, theme)
