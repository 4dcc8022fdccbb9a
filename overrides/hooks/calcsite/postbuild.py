"""What the build does to the built site, in one declared order.

Once a build has written its pages, the site's files are finished in place,
by the steps of :data:`STEPS`, in their order:

1. ``engine files``: the core's wheel, the standard library and the package
   index the site serves, and the Pyodide runtime unless a CDN serves it
   (:mod:`calcsite.engine`);
2. ``compile hint``: the theme's bundle compiled off the main thread
   (:mod:`calcsite.compile_hints`);
3. ``search index``: one search index per language, fetched, and the search
   worker started, when the reader first opens search (:mod:`calcsite.search`);
4. ``embed pages``: each calculator's embed page in the build's language,
   which link to the full pages and the theme's stylesheets, in the site by
   now (:mod:`calcsite.embed`);
5. ``minify``: the site's own scripts and stylesheet (:mod:`calcsite.minify`);
6. ``contract module``: the browser contract that the page script and its
   worker import, written from its declarations, and named with its version
   in their minified import (:mod:`calcsite.contract`);
7. ``versions``, after the outermost build only: each file the steps above
   rewrote named by its final bytes, and every page pointing at that name
   (:mod:`calcsite.versions`). It reads every page of every language and every
   file in its final form, so it comes last.

Why "outermost": mkdocs-static-i18n builds each language but the first inside
the first build's own end (its ``on_post_build``), into the same folder, and
each of those builds copies the theme's files and the site's own afresh. So
each build, inner or outer, runs the steps marked for each build on its own
files, with its own settings (language, site name), and only the end of the
outermost build, when no other build will write again, runs the steps marked
``once``. :class:`PostBuild` keeps count of the builds under way; it takes
plain values (:class:`Build`), so it runs, and is tested, without MkDocs.
``hooks/postbuild.py`` is its one caller.

Every step is safe to run again on its own output (each module checks), so a
rebuild by ``mkdocs serve`` into the same folder changes nothing it should not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from jinja2 import Environment

from . import compile_hints, contract, embed, engine, search
from .compile_hints import CompileHintError
from .contract import ContractError
from .embed import EmbedError
from .engine import EngineError
from .messages import LANGUAGES, tree
from .minify import MinifyError, minify, own_assets
from .search import SearchError
from .versions import VersionError, version_site

__all__ = ["ESBUILD", "STEPS", "Build", "PostBuild", "PostBuildError", "Step"]

ESBUILD = Path("node_modules") / ".bin" / "esbuild"
"""The minifier in the project, as ``npm ci`` installs it."""


class PostBuildError(RuntimeError):
    """A step cannot finish the built site; the message names the step."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Build:
    """One build, as the steps need it: its settings, taken when it started.

    A build inside another (a language of mkdocs-static-i18n's) changes the
    settings they share (the language, the site's name) before the outer one
    ends; each build's steps run with its own.
    """

    site: Path
    """The folder the site is built into (every language's build writes to the same)."""
    site_path: str
    """The path of the site's URL (``/`` or ``/repo/``), which absolute links start with."""
    language: str
    """The language this build writes pages in."""
    project_root: Path
    """The project: its core (for the engine), its npm packages (Pyodide, esbuild)."""
    overrides: Path
    """The theme's ``custom_dir``, whose ``assets/`` are the site's own scripts and stylesheet."""
    themes: tuple[Path, ...]
    """The theme's other folders (Material's), whose ``assets/`` MkDocs copies as they are."""
    env: Environment = field(compare=False)
    """The theme's Jinja environment, where the embed page's templates are found."""
    site_name: str
    extra_css: tuple[str, ...]
    """The site's own stylesheets, relative to the site root (``extra_css``)."""
    favicon: str
    palette: object
    """Material's ``theme.palette`` setting, for the embed pages' colour schemes."""
    pyodide_cdn: str | None
    """The URL template of a CDN's Pyodide runtime, if one serves it."""

    @property
    def engine(self) -> engine.Engine:
        """The engine's files and URLs (cached: every step and page asks the same)."""
        return engine.site_plan(self.project_root, self.pyodide_cdn)


@dataclass(frozen=True, slots=True)
class Step:
    """One named step of :data:`STEPS`."""

    name: str
    run: Callable[[Build], None]
    once: bool = False
    """Run after the outermost build only, rather than after each build."""


def _write_engine(build: Build) -> None:
    engine.write(
        build.engine,
        build.project_root / engine.PACKAGE,
        build.site,
        self_hosted=build.pyodide_cdn is None,
    )


def _hint_compile(build: Build) -> None:
    compile_hints.hint_eager_compile(compile_hints.theme_bundle(build.site))


def _split_search(build: Build) -> None:
    # Each language's folder as the site lays it out; the merged index is
    # there once the last language is built (a no-op before).
    search.write_split_index(build.site, {language: tree(language) for language in LANGUAGES})
    bundle = compile_hints.theme_bundle(build.site)
    search.index_on_first_search(bundle)
    search.worker_on_first_search(bundle)


def _write_embed_pages(build: Build) -> None:
    embed.write(
        build.site,
        build.env,
        language=build.language,
        site_name=build.site_name,
        extra_css=build.extra_css,
        favicon=build.favicon,
        engine=build.engine,
        palette=build.palette,
    )


def _write_contract(build: Build) -> None:
    contract.write_module(build.site)


def _minify(build: Build) -> None:
    minify(own_assets(build.overrides, build.site), build.project_root / ESBUILD)


def _version(build: Build) -> None:
    version_site(build.site, build.site_path, own_assets(build.overrides, build.site), build.themes)


STEPS: tuple[Step, ...] = (
    Step("engine files", _write_engine),
    Step("compile hint", _hint_compile),
    Step("search index", _split_search),
    Step("embed pages", _write_embed_pages),
    Step("minify", _minify),
    Step("contract module", _write_contract),
    Step("versions", _version, once=True),
)
"""What finishes the built site, in order (the module's docstring says why this one)."""

_ERRORS = (
    EngineError,
    CompileHintError,
    SearchError,
    EmbedError,
    MinifyError,
    ContractError,
    VersionError,
)
"""What the steps raise when the site cannot be finished: a theme or a package not as expected."""


class PostBuild:
    """Runs :data:`STEPS` at the end of each build, and the ``once`` steps at the outermost's.

    The adapter calls :meth:`started` as each build starts (with its settings),
    :meth:`finished` as it ends and :meth:`failed` if it fails; builds nest
    (a language's inside the first), and end in the reverse order.

    Args:
        steps: The steps, in order; those marked ``once`` follow all the others.

    Raises:
        ValueError: If a step marked ``once`` comes before one that is not, or
            two steps have one name.
    """

    def __init__(self, steps: tuple[Step, ...] = STEPS) -> None:
        names = [step.name for step in steps]
        if len(set(names)) != len(names):
            raise ValueError(f"steps named twice: {names}")
        first_once = next((i for i, step in enumerate(steps) if step.once), len(steps))
        if any(not step.once for step in steps[first_once:]):
            raise ValueError(f"a step of each build comes after one run once: {names}")
        self._steps = steps
        self._builds: list[Build] = []

    @property
    def under_way(self) -> int:
        """How many builds have started and not ended: the outermost and those inside it."""
        return len(self._builds)

    def started(self, build: Build) -> None:
        """A build starts, with these settings (inside the one under way, if any)."""
        self._builds.append(build)

    def failed(self) -> None:
        """A build failed: every build under way ends with it; the next starts afresh."""
        self._builds.clear()

    def finished(self) -> tuple[str, ...]:
        """The innermost build under way ended: finish the site for it.

        Returns:
            The names of the steps run, in order.

        Raises:
            PostBuildError: If no build is under way, or a step fails; the steps
                after it do not run.
        """
        if not self._builds:
            raise PostBuildError("a build ended that had not started")
        build = self._builds.pop()
        outermost = not self._builds
        done: list[str] = []
        for step in self._steps:
            if step.once and not outermost:
                continue
            try:
                step.run(build)
            except _ERRORS as error:
                raise PostBuildError(f"{step.name}: {error}") from error
            done.append(step.name)
        return tuple(done)
