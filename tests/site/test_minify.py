"""The site's own scripts and stylesheet: minified in the site, each with a map to its source."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from calcsite.minify import SOURCE_MAP, MinifyError, minify, own_assets

from .conftest import ROOT

OVERRIDES = ROOT / "overrides"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
SCRIPT = """// Why this script exists.
"use strict";

(() => {
  // Why the loop counts down.
  const names = ["b", "a"];
  for (let index = names.length - 1; index >= 0; index -= 1) {
    document.title += names[index] + "\u00d7";
  }
})();
"""
STYLE = """/* Why the colour. */
.calc-thing {
  color: #ff0000;
}
"""


def sources() -> list[Path]:
    return sorted(
        path for path in (OVERRIDES / "assets").rglob("*") if path.suffix in {".js", ".mjs", ".css"}
    )


def test_every_script_and_stylesheet_of_the_overrides_is_minified(site: Path) -> None:
    assets = own_assets(OVERRIDES, site)
    assert [path.relative_to(site) for path in assets] == [
        path.relative_to(OVERRIDES) for path in sources()
    ]
    assert len(assets) >= 5
    for source, built in zip(sources(), assets, strict=True):
        text = built.read_text(encoding="utf-8")
        last = text.rstrip().rsplit("\n", 1)[-1]
        assert f"{SOURCE_MAP}{built.name}.map" in last, built.name
        original = source.read_text(encoding="utf-8")
        assert len(gzip.compress(text.encode())) < 0.8 * len(gzip.compress(original.encode()))
        mapped = json.loads((built.parent / f"{built.name}.map").read_text(encoding="utf-8"))
        assert mapped["sources"] == [built.name]
        assert mapped["sourcesContent"] == [original], "the developer tools show the source"


def test_the_built_scripts_keep_their_non_ascii_characters_as_written(site: Path) -> None:
    worker = site / "assets" / "javascripts" / "calculator-worker.mjs"
    assert '"\u00d7"' in worker.read_text(encoding="utf-8")


@pytest.fixture
def copies(tmp_path: Path) -> list[Path]:
    (tmp_path / "page.js").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "page.css").write_text(STYLE, encoding="utf-8")
    return [tmp_path / "page.js", tmp_path / "page.css"]


def test_minify_drops_comments_and_whitespace_and_keeps_what_the_code_does(
    copies: list[Path],
) -> None:
    assert minify(copies, ESBUILD) == copies
    script, style = (path.read_text(encoding="utf-8") for path in copies)
    assert "Why" not in script
    assert "Why" not in style
    assert ".calc-thing{color:red}" in style
    node = shutil.which("node")
    assert node is not None
    probe = "globalThis.document = {title: ''}; require(process.argv[1]);"
    probe += " console.log(document.title)"
    done = subprocess.run(
        [node, "-e", probe, str(copies[0])], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "a\u00d7b\u00d7"


def test_minify_twice_changes_nothing(copies: list[Path]) -> None:
    minify(copies, ESBUILD)
    once = [path.read_bytes() for path in copies]
    assert minify(copies, ESBUILD) == []
    assert [path.read_bytes() for path in copies] == once


def test_a_script_esbuild_cannot_read_fails_the_build(tmp_path: Path) -> None:
    broken = tmp_path / "broken.mjs"
    broken.write_text("export const = 1;\n", encoding="utf-8")
    with pytest.raises(MinifyError, match=r"broken\.mjs"):
        minify([broken], ESBUILD)


def test_without_esbuild_the_build_says_to_install_it(copies: list[Path], tmp_path: Path) -> None:
    with pytest.raises(MinifyError, match="npm ci"):
        minify(copies, tmp_path / "no-esbuild")
