"""The theme's bundle starts with V8's eager-compilation comment; its source map still fits."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import material
import pytest
from calcsite.compile_hints import (
    MAGIC_COMMENT,
    CompileHintError,
    hint_eager_compile,
    theme_bundle,
)
from calcsite.search import EAGER, EAGER_WORKER, ON_FIRST_SEARCH, WORKER_ON_FIRST_SEARCH

from .conftest import ROOT

THEME_SCRIPTS = Path(material.__file__).parent / "templates" / "assets" / "javascripts"

# Looks up generated positions in two source maps with Node's own source-map
# reader, and prints, for each, whether the shifted map's entry one line down
# is the original map's entry at the same place.
SAME_ENTRIES = """
const { SourceMap } = require("node:module");
const fs = require("node:fs");
const [before, after, positions] = process.argv.slice(2);
const a = new SourceMap(JSON.parse(fs.readFileSync(before, "utf8")));
const b = new SourceMap(JSON.parse(fs.readFileSync(after, "utf8")));
const same = JSON.parse(positions).map(([line, column]) => {
  const x = a.findEntry(line, column);
  const y = b.findEntry(line + 1, column);
  if (x.originalSource === undefined) return y.originalSource === undefined ? "none" : false;
  return x.originalSource === y.originalSource &&
    x.originalLine === y.originalLine && x.originalColumn === y.originalColumn &&
    y.generatedLine === x.generatedLine + 1 && y.generatedColumn === x.generatedColumn;
});
console.log(JSON.stringify(same));
"""


def write_script(folder: Path, body: str, source_map: object | None = None) -> Path:
    script = folder / "bundle.0123abcd.min.js"
    if source_map is None:
        script.write_text(body, encoding="utf-8")
    else:
        script.write_text(f"{body}\n//# sourceMappingURL={script.name}.map\n", encoding="utf-8")
        (folder / f"{script.name}.map").write_text(json.dumps(source_map), encoding="utf-8")
    return script


def test_the_comment_goes_first_and_the_script_is_otherwise_unchanged(tmp_path: Path) -> None:
    script = write_script(tmp_path, '"use strict";(()=>{})();')
    assert hint_eager_compile(script) is True
    assert script.read_text(encoding="utf-8") == MAGIC_COMMENT + '"use strict";(()=>{})();'


def test_a_second_pass_changes_nothing(tmp_path: Path) -> None:
    script = write_script(tmp_path, "f();", {"version": 3, "sources": [], "mappings": "AAAA"})
    hint_eager_compile(script)
    files = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    assert hint_eager_compile(script) is False
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == files


def test_the_named_source_map_gains_an_empty_first_line(tmp_path: Path) -> None:
    script = write_script(
        tmp_path, "f();", {"version": 3, "sources": ["a.ts"], "mappings": "AAAA;AACA"}
    )
    hint_eager_compile(script)
    data = json.loads((tmp_path / f"{script.name}.map").read_text(encoding="utf-8"))
    assert data == {"version": 3, "sources": ["a.ts"], "mappings": ";AAAA;AACA"}


def test_an_index_map_has_every_section_moved_down_one_line(tmp_path: Path) -> None:
    sections = [{"offset": {"line": 0, "column": 0}}, {"offset": {"line": 7, "column": 3}}]
    script = write_script(tmp_path, "f();", {"version": 3, "sections": sections})
    hint_eager_compile(script)
    data = json.loads((tmp_path / f"{script.name}.map").read_text(encoding="utf-8"))
    assert [s["offset"] for s in data["sections"]] == [
        {"line": 1, "column": 0},
        {"line": 8, "column": 3},
    ]


@pytest.mark.parametrize(
    "tail",
    [
        "",  # no source map
        "\n//# sourceMappingURL=missing.js.map",  # named, not there
        "\n//# sourceMappingURL=https://cdn.example.org/b.js.map",  # elsewhere
        "\n//# sourceMappingURL=data:application/json;base64,e30=",  # inline
    ],
)
def test_a_map_that_is_not_a_file_beside_the_script_is_left_alone(
    tmp_path: Path, tail: str
) -> None:
    script = write_script(tmp_path, "f();" + tail)
    hint_eager_compile(script)
    assert script.read_text(encoding="utf-8") == MAGIC_COMMENT + "f();" + tail
    assert [path.name for path in tmp_path.iterdir()] == [script.name]


@pytest.mark.parametrize(
    "source_map",
    ["not json", "[1, 2]", '{"version": 3}', '{"sections": [{"offset": {}}]}', '{"sections": [3]}'],
)
def test_a_map_that_cannot_be_shifted_is_an_error_and_nothing_is_written(
    tmp_path: Path, source_map: str
) -> None:
    script = write_script(tmp_path, "f();", {})
    (tmp_path / f"{script.name}.map").write_text(source_map, encoding="utf-8")
    before = script.read_bytes()
    with pytest.raises(CompileHintError):
        hint_eager_compile(script)
    assert script.read_bytes() == before
    assert (tmp_path / f"{script.name}.map").read_text(encoding="utf-8") == source_map


@pytest.mark.parametrize("names", [[], ["bundle.aaaa.min.js", "bundle.bbbb.min.js"]])
def test_the_theme_bundle_must_be_exactly_one_file(tmp_path: Path, names: list[str]) -> None:
    scripts = tmp_path / "assets" / "javascripts"
    scripts.mkdir(parents=True)
    for name in names:
        (scripts / name).write_text("f();", encoding="utf-8")
    with pytest.raises(CompileHintError, match="one theme bundle"):
        theme_bundle(tmp_path)


def built_source_map(bundle: Path) -> Path:
    """The source map that the built bundle's last line names (calcsite.versions renamed it)."""
    last = bundle.read_text(encoding="utf-8").rstrip().rpartition("\n")[2]
    return bundle.with_name(last.removeprefix("//# sourceMappingURL="))


def test_the_built_site_serves_materials_bundle_with_the_comment_first(site: Path) -> None:
    """Material's bundle, the comment first, search set up on first use (calcsite.search).

    Named by its bytes (calcsite.versions), and so is the source map its last line names.
    """
    bundle = theme_bundle(site)
    theirs = theme_bundle(THEME_SCRIPTS.parents[1])
    original = theirs.read_text(encoding="utf-8")
    rewritten = (
        original.replace(EAGER, ON_FIRST_SEARCH)
        .replace(EAGER_WORKER, WORKER_ON_FIRST_SEARCH)
        .replace(f"{theirs.name}.map", built_source_map(bundle).name)
    )
    expected = MAGIC_COMMENT + rewritten
    assert bundle.read_text(encoding="utf-8") == expected
    assert bundle.name != theirs.name


def test_the_built_sites_source_map_points_at_the_same_code_one_line_down(
    site: Path, tmp_path: Path
) -> None:
    bundle = theme_bundle(site)
    theirs = theme_bundle(THEME_SCRIPTS.parents[1])
    original = THEME_SCRIPTS / f"{theirs.name}.map"
    lines = theirs.read_text(encoding="utf-8").splitlines()
    # Positions spread over every line of the original bundle's code.
    positions = [
        [line, column]
        for line, text in enumerate(lines)
        if not text.startswith("//#")
        for column in range(0, len(text), max(1, len(text) // 40))
    ]
    assert len(positions) >= 40
    program = tmp_path / "same_entries.cjs"
    program.write_text(SAME_ENTRIES, encoding="utf-8")
    node = shutil.which("node")
    assert node is not None, "the site tests need Node.js (./dev test installs it)"
    result = subprocess.run(
        [node, str(program), str(original), str(built_source_map(bundle)), json.dumps(positions)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        timeout=60,
    )
    same = json.loads(result.stdout)
    assert False not in same
    assert same.count(True) >= 40
