"""What the build does to the built site, in one declared order (calcsite.postbuild).

The order is :data:`calcsite.postbuild.STEPS`; :class:`PostBuild` runs it at
the end of each build, and its ``once`` steps (naming files by their bytes)
after the outermost build only, once every language's build is done. Here:
the runner with steps that record what they are given, nested as
mkdocs-static-i18n nests the language builds; the declared steps themselves;
and a real build whose only hook is ``hooks/postbuild.py``, which needs no
other hook's work.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from calcsite import engine
from calcsite.compile_hints import MAGIC_COMMENT, theme_bundle
from calcsite.embed import embed_path
from calcsite.minify import SOURCE_MAP
from calcsite.postbuild import STEPS, Build, PostBuild, PostBuildError, Step
from calcsite.versions import VersionError
from jinja2 import Environment

from calculator import CALCULATORS

from .conftest import ROOT

Record = list[tuple[str, str]]
"""What the recording steps saw: (step, language of the build), in order."""


def build(language: str) -> Build:
    """A build's settings, as the hook takes them, for a language."""
    return Build(
        site=Path("site"),
        site_path="/",
        language=language,
        project_root=ROOT,
        overrides=ROOT / "overrides",
        themes=(),
        env=Environment(autoescape=True),
        site_name="Site",
        extra_css=(),
        favicon="favicon.png",
        palette=None,
        pyodide_cdn=None,
    )


def recording(record: Record, names: tuple[str, ...] = ()) -> tuple[Step, ...]:
    """Steps named as :data:`STEPS` (or ``names``), keeping each ``once`` mark, that record."""

    def step(name: str, once: bool) -> Step:
        return Step(name, lambda done: record.append((name, done.language)), once=once)

    if names:
        return tuple(step(name, once=False) for name in names)
    return tuple(step(declared.name, declared.once) for declared in STEPS)


EACH = tuple(step.name for step in STEPS if not step.once)
ONCE = tuple(step.name for step in STEPS if step.once)


# ----------------------------------------------------------------- the runner


def test_one_build_runs_every_step_in_the_declared_order() -> None:
    record: Record = []
    runner = PostBuild(recording(record))
    runner.started(build("en"))
    assert runner.finished() == tuple(step.name for step in STEPS)
    assert record == [(step.name, "en") for step in STEPS]
    assert runner.under_way == 0


def test_the_versions_run_once_after_every_language_build_as_i18n_nests_them() -> None:
    # mkdocs-static-i18n: the first build (en) builds the others inside its own end.
    record: Record = []
    runner = PostBuild(recording(record))
    runner.started(build("en"))
    for language in ("fr", "it"):
        runner.started(build(language))
        assert runner.finished() == EACH
    assert runner.finished() == EACH + ONCE
    assert record == [
        *((name, "fr") for name in EACH),
        *((name, "it") for name in EACH),
        *((name, "en") for name in EACH),
        *((name, "en") for name in ONCE),
    ]
    assert [name for name, _ in record].count("versions") == 1
    assert record[-1] == ("versions", "en")


def test_each_build_runs_its_steps_with_its_own_settings() -> None:
    record: Record = []
    runner = PostBuild(recording(record, ("embed pages",)))
    runner.started(build("en"))
    runner.started(build("fr"))
    runner.finished()
    runner.finished()
    assert record == [("embed pages", "fr"), ("embed pages", "en")]


def test_a_failed_build_ends_every_build_under_way_and_the_next_starts_afresh() -> None:
    record: Record = []
    runner = PostBuild(recording(record))
    runner.started(build("en"))
    runner.started(build("fr"))
    runner.failed()
    assert runner.under_way == 0
    # mkdocs serve: the next build is the outermost again.
    runner.started(build("en"))
    assert runner.finished() == EACH + ONCE


def test_a_failing_step_names_itself_and_the_steps_after_it_do_not_run() -> None:
    record: Record = []

    def refuse(_: Build) -> None:
        raise VersionError("bundle.js: the theme names its files otherwise now")

    later = Step("later", lambda done: record.append(("later", done.language)), once=True)
    runner = PostBuild(
        (*recording(record, ("minify",)), Step("versions", refuse, once=True), later)
    )
    runner.started(build("en"))
    with pytest.raises(PostBuildError, match=r"^versions: bundle\.js: the theme names"):
        runner.finished()
    assert record == [("minify", "en")]


def test_a_build_that_ends_without_starting_is_refused() -> None:
    with pytest.raises(PostBuildError, match="had not started"):
        PostBuild(recording([])).finished()


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ((Step("a", print, once=True), Step("b", print)), "after one run once"),
        ((Step("a", print), Step("a", print)), "named twice"),
    ],
)
def test_a_wrong_list_of_steps_is_refused_when_made(steps: tuple[Step, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PostBuild(steps)


# ------------------------------------------------------------ the declared steps


def test_the_steps_are_named_once_and_naming_files_by_their_bytes_comes_last() -> None:
    PostBuild(STEPS)  # refuses a wrong list
    assert ONCE == ("versions",)
    assert STEPS[-1].name == "versions"
    # Every step that rewrites a file the versions name comes before them.
    assert {"compile hint", "search index", "minify"} <= set(EACH)


def test_the_pages_and_the_steps_share_one_plan_computed_once_per_set_of_inputs() -> None:
    first = engine.site_plan(ROOT, None)
    assert engine.site_plan(ROOT, None) is first
    assert build("en").engine is first
    cdn = engine.site_plan(ROOT, "https://cdn.example/pyodide/v{version}/full/")
    assert cdn.pyodide_url.startswith("https://cdn.example/pyodide/v")
    assert cdn.engine_dir == first.engine_dir
    assert cdn.head_urls["pyodide"] == cdn.pyodide_url


# ------------------------------------------------- a real build, with this hook alone


def version(data: bytes) -> str:
    """As calcsite.versions.version computes it, recomputed here: SHA-256, 12 hex digits."""
    return hashlib.sha256(data).hexdigest()[:12]


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site of one page per calculator built with ``hooks/postbuild.py`` as its only hook."""
    folder = tmp_path_factory.mktemp("alone")
    docs = folder / "docs"
    docs.mkdir()
    front = "---\ndescription: A page of the mini site.\n---\n\n"
    (docs / "index.md").write_text(front + "# Mini\n", encoding="utf-8")
    for slug in CALCULATORS:
        (docs / f"{slug}.md").write_text(front + f"# {slug}\n", encoding="utf-8")
    (folder / "mkdocs.yml").write_text(
        "\n".join(
            [
                "site_name: Mini",
                "site_url: https://example.org/mini/",
                "theme:",
                "  name: material",
                f"  custom_dir: {ROOT / 'overrides'}",
                "  language: en",
                "  font: false",
                "plugins: [search]",
                "hooks:",
                f"  - {ROOT / 'overrides' / 'hooks' / 'postbuild.py'}",
            ]
        ),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=folder,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return folder / "site"


def test_the_hook_alone_writes_the_engine_and_the_embed_pages(alone: Path) -> None:
    plan = engine.site_plan(ROOT, None)
    for name, data in plan.files.items():
        assert (alone / plan.engine_dir / name).read_bytes() == data
    assert (alone / plan.runtime_dir / "pyodide.mjs").is_file()
    for slug in CALCULATORS:
        assert (alone / embed_path("en", slug) / "index.html").is_file()


def test_the_hook_alone_rewrites_minifies_then_names_by_the_final_bytes(alone: Path) -> None:
    bundle = theme_bundle(alone)
    data = bundle.read_bytes()
    assert data.startswith(MAGIC_COMMENT.encode())
    assert re.fullmatch(rf"bundle\.{version(data)}\.min\.js", bundle.name)
    script = alone / engine.PAGE_SCRIPT
    assert SOURCE_MAP in script.read_text(encoding="utf-8")
    page = (alone / embed_path("en", next(iter(CALCULATORS))) / "index.html").read_text(
        encoding="utf-8"
    )
    assert f"calculator.mjs?v={version(script.read_bytes())}" in page
    assert bundle.name in (alone / "index.html").read_text(encoding="utf-8")
