"""The engine's files and their URLs: the core's wheel, a standard library and Pyodide.

Everything is produced by the site build itself, so ``mkdocs build`` alone
yields a complete site, from the pinned npm copy of Pyodide and nothing
downloaded. The page's worker boots Pyodide's runtime (``pyodide.mjs``, its
JavaScript and its WebAssembly: the npm package's, self-hosted or from a CDN,
:mod:`calcsite.runtime`) with the site's own files instead of two of the
package's, which sit next to the core's wheel in one folder whose name is a
hash of the three (the page's head names each of them, ``calc:wheel``,
``calc:stdlib`` and ``calc:lock``, and the worker passes them to loadPyodide's
``stdLibURL`` and ``lockFileURL``):

- the core's wheel, repacked for the page: the modules ``calculator.web`` reaches
  (:mod:`calcsite.wheel`);
- ``python_stdlib.zip.gz``: the standard library files the engine imports,
  compiled by Pyodide's Python (:mod:`calcsite.stdlib`);
- ``pyodide-lock.json``: a package index with no package, since the page installs
  none (:func:`calcsite.runtime.minimal_lock`).

The wheel and the standard library travel as one gzip stream each, which the
worker inflates (:mod:`calcsite.gzipped`, which gives their sizes).
The runtime's URL carries its version; the engine folder's a hash of its files,
so a new release is never masked by a cached old one.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import build_cache, gzipped
from .contract import ENGINE_FILES, PAGE_SCRIPT, WORKER, Head
from .imports import CORE
from .paths import relative_url
from .runtime import (
    LOCK,
    RUNTIME_FILES,
    STDLIB,
    PackageError,
    copy_runtime,
    minimal_lock,
    pyodide_version,
)
from .stdlib import RECORD, StdlibError, cache_name, stdlib_archive, unlisted_imports
from .wheel import WheelError, mark_names_utf8, served_wheel

# LOCK, RUNTIME_FILES, STDLIB, copy_runtime and pyodide_version (calcsite.runtime) and
# mark_names_utf8 (calcsite.wheel) are re-exported for tests/site/test_site.py and
# tests/browser/, which another change is editing: they should import them from there.
__all__ = [
    "HEAD_URLS",
    "LOCK",
    "PACKAGE",
    "PAGE_RUNTIME",
    "PAGE_SCRIPT",
    "RUNTIME_FILES",
    "SITE_STDLIB",
    "STDLIB",
    "WORKER",
    "Engine",
    "EngineError",
    "copy_runtime",
    "mark_names_utf8",
    "plan",
    "pyodide_cdn",
    "pyodide_version",
    "site_plan",
    "write",
]

SITE_STDLIB = STDLIB + gzipped.SUFFIX
"""The site's standard library: the files the engine imports, compiled, in one gzip stream."""
HEAD_URLS = ENGINE_FILES
"""The engine's files a page names in its head (``<meta name="calc:wheel">``...) for its worker."""
PAGE_RUNTIME = RUNTIME_FILES[:3]
"""What a page fetches of the runtime: its standard library and package index are the site's own."""
PACKAGE = Path("node_modules") / "pyodide"
"""Pyodide's npm package in the project, as ``npm ci`` installs it (``package-lock.json``)."""


class EngineError(RuntimeError):
    """The engine's files cannot be produced (no ``npm ci`` yet, for instance)."""


@dataclass(frozen=True)
class Engine:
    """The engine's files, where they go in the site, and what a page names of them.

    The one description of the engine: the build writes its files
    (:func:`write`), and every page that loads it, full or embed, names them
    in its head as :meth:`head` gives them.
    """

    files: dict[str, bytes]
    """The site's own engine files by name: the wheel, ``SITE_STDLIB`` and ``LOCK``."""
    engine_dir: str
    """Their folder, named by a hash of them all."""
    wheel_path: str
    runtime_dir: str
    """Folder of the self-hosted runtime, relative to the site root."""
    pyodide_url: str
    """``pyodide.mjs`` to import: relative (self-hosted) or absolute (a CDN copy)."""

    @property
    def head_urls(self) -> dict[str, str]:
        """Each file of :data:`HEAD_URLS` by name, relative to the site root or absolute."""
        urls = {
            "pyodide": self.pyodide_url,
            "wheel": self.wheel_path,
            "stdlib": f"{self.engine_dir}/{SITE_STDLIB}",
            "lock": f"{self.engine_dir}/{LOCK}",
        }
        return {name: urls[name] for name in HEAD_URLS}

    @property
    def fetched(self) -> tuple[str, ...]:
        """Every file a page's engine fetches: the runtime's, then the site's own.

        Relative to the site root, or absolute (a CDN copy). The worker, whose
        URL is the template's, is not among them.
        """
        runtime = self.pyodide_url.rsplit("/", 1)[0]
        return (
            *(f"{runtime}/{name}" for name in PAGE_RUNTIME),
            *(f"{self.engine_dir}/{name}" for name in self.files),
        )

    def head(self, page: str, inputs: Iterable[str]) -> Head:
        """The engine's part of the head of the page at ``page``, whose forms have ``inputs``.

        The full pages' template and the embed pages lay it out alike
        (``partials/engine-head.html``). The page script and the worker are
        named by their content once the site is built and they are minified
        (:mod:`calcsite.versions`): their bytes are not known before.

        Args:
            page: The page's address relative to the site root (``fr/pipeline-bubble/``);
                every URL of the head is relative to it, so the site works under any path.
            inputs: The input names of the page's forms (:func:`calcsite.contract.case_inputs`).
        """

        def url(target: str) -> str:
            return relative_url(target, page)

        return Head(
            inputs=tuple(inputs),
            worker=url(WORKER),
            files=tuple((name, url(path)) for name, path in self.head_urls.items()),
            script=url(PAGE_SCRIPT),
            prefetch=tuple(url(path) for path in (WORKER, *self.fetched)),
        )


def pyodide_cdn(extra: Mapping[str, Any]) -> str | None:
    """The URL template of a CDN's Pyodide runtime, if the site names one.

    Args:
        extra: The site's ``extra`` settings, whose ``calculator.pyodide_cdn``
            (``mkdocs.yml``, from the environment's ``PYODIDE_CDN``) names it.
    """
    settings = extra.get("calculator") or {}
    cdn = settings.get("pyodide_cdn")
    return str(cdn) if cdn else None


def site_plan(project_root: Path, cdn_base: str | None) -> Engine:
    """:func:`plan` for a project's site, computed once per set of inputs.

    The full pages name the engine's files as each page is rendered, the embed
    pages and the files themselves are written once the site is built, and
    mkdocs-static-i18n builds the site once per language (``mkdocs serve``
    once per change): each asks here, and the wheel and the standard library
    are built again only when what they are made from changed (the core's
    sources, ``pyproject.toml``, ``README.md`` and the npm package's manifest,
    by modification time) or another CDN is named.

    Args:
        project_root: The project, with the core and Pyodide's npm package (:data:`PACKAGE`).
        cdn_base: The URL template of a CDN's Pyodide runtime (``{version}`` in it), if any.

    Raises:
        EngineError: As :func:`plan` does.
    """
    return _planned(project_root, cdn_base, _sources(project_root))


def _sources(project_root: Path) -> tuple[tuple[str, int], ...]:
    """What the engine is built from that may change while MkDocs runs, with modification times."""
    paths = [
        *(project_root / CORE).rglob("*.py"),
        project_root / "pyproject.toml",
        project_root / "README.md",
        project_root / PACKAGE / "package.json",
    ]
    return tuple(sorted((str(path), path.stat().st_mtime_ns) for path in paths if path.is_file()))


@functools.lru_cache(maxsize=1)
def _planned(
    project_root: Path, cdn_base: str | None, sources: tuple[tuple[str, int], ...]
) -> Engine:
    """:func:`plan`, kept for the last ``sources`` (which only key the cache)."""
    return plan(project_root, project_root / PACKAGE, cdn_base)


def plan(project_root: Path, package_dir: Path, cdn_base: str | None) -> Engine:
    """Build the wheel and the standard library, and decide every URL of the engine.

    Raises:
        EngineError: If a file cannot be built, or the core imports a module the
            standard library list lacks.
    """
    try:
        return _plan(project_root, package_dir, cdn_base)
    except (PackageError, StdlibError, WheelError) as error:
        raise EngineError(str(error)) from error


def _plan(project_root: Path, package_dir: Path, cdn_base: str | None) -> Engine:
    version = pyodide_version(package_dir)
    if missing := unlisted_imports(project_root / CORE):
        raise EngineError(
            f"the core imports {', '.join(missing)}, which the standard library list lacks:"
            f" run `{RECORD}`"
        )
    name, wheel = served_wheel(project_root)
    files = {
        name: wheel,
        SITE_STDLIB: stdlib_archive(package_dir),
        LOCK: minimal_lock(package_dir),
    }
    # Each change to what the standard library is made from leaves a file in the
    # cache: it keeps the one this build used, and nothing else.
    build_cache.prune(build_cache.location(package_dir), keep=[cache_name(package_dir)])
    digest = hashlib.sha256()
    for file, data in files.items():
        digest.update(f"{file}\0{len(data)}\0".encode() + data)
    engine_dir = f"assets/engine/{digest.hexdigest()[:16]}"
    runtime_dir = f"assets/pyodide/{version}"
    base = cdn_base.format(version=version).rstrip("/") if cdn_base else None
    return Engine(
        files=files,
        engine_dir=engine_dir,
        wheel_path=f"{engine_dir}/{name}",
        runtime_dir=runtime_dir,
        pyodide_url=f"{base}/pyodide.mjs" if base else f"{runtime_dir}/pyodide.mjs",
    )


def write(engine: Engine, package_dir: Path, site_dir: Path, self_hosted: bool) -> None:
    """Write the site's engine files, and the runtime unless a CDN serves it, into the site.

    Raises:
        EngineError: If the npm package lacks a runtime file.
    """
    folder = site_dir / engine.engine_dir
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in engine.files.items():
        (folder / name).write_bytes(data)
    if self_hosted:
        try:
            copy_runtime(package_dir, site_dir / engine.runtime_dir)
        except PackageError as error:
            raise EngineError(str(error)) from error
