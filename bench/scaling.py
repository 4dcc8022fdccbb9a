"""Build time as the site grows: the calculator pages multiplied, 1×, 10×, 50×.

For a factor ``k`` the docs are copied into a temporary folder with ``k − 1``
extra copies of every calculator page in every language, listed in a
"Copies" section of the navigation, and built with ``mkdocs build --strict``
from a configuration that inherits the project's (``INHERIT``) and changes only
``docs_dir`` and ``nav``. The build's wall time (the fastest of two builds),
divided by its pages, should not grow with ``k``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from mkdocs.utils.yaml import yaml_load

from . import ROOT

DIRECTIVE = re.compile(r"<!--\s*md:calculator\s")
LANGUAGE_SUFFIX = re.compile(r"\.(fr|it)$")


@dataclass(frozen=True)
class Build:
    """One timed build."""

    factor: int
    pages: int
    """HTML pages built (every language)."""
    calculator_pages: int
    seconds: float


def build_site(target: Path, config: Path | None = None) -> float:
    """Run ``mkdocs build --strict`` into ``target``: its wall time in seconds, or RuntimeError."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(target)]
    if config is not None:
        command += ["-f", str(config)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"mkdocs build failed:\n{done.stdout}\n{done.stderr}")
    return seconds


def _calculator_sources(docs: Path) -> list[Path]:
    """Markdown files of the default language that place a calculator."""
    return sorted(
        path
        for path in docs.glob("*.md")
        if not LANGUAGE_SUFFIX.search(path.stem)
        and DIRECTIVE.search(path.read_text(encoding="utf-8"))
    )


def scaled_build(factor: int, repeat: int = 2) -> Build:
    """Build the site with every calculator page present ``factor`` times.

    The build runs ``repeat`` times and the fastest counts: on a shared
    machine, other work only ever adds time, and one slow small build would
    otherwise read as a cost per page that grows.
    """
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as folder:
        work = Path(folder)
        docs = work / "docs"
        shutil.copytree(ROOT / "docs", docs)
        with (ROOT / "mkdocs.yml").open(encoding="utf-8") as file:
            project = yaml_load(file)
        # Relative paths of the inherited configuration (theme, watched folders) resolve from here.
        for name in dict.fromkeys(("overrides", *project.get("watch", []))):
            (work / name).symlink_to(ROOT / name, target_is_directory=True)
        copies: list[dict[str, str]] = []
        sources = _calculator_sources(docs)
        languages = 0
        for source in sources:
            variants = sorted(docs.glob(f"{source.stem}.*md"))
            languages = max(languages, len(variants))
            for k in range(2, factor + 1):
                for variant in variants:
                    name = variant.name.replace(source.stem, f"{source.stem}-copy-{k}", 1)
                    shutil.copyfile(variant, docs / name)
                copies.append({f"{source.stem} {k}": f"{source.stem}-copy-{k}.md"})
        nav = list(project["nav"]) + ([{"Copies": copies}] if copies else [])
        config = work / "mkdocs.yml"
        # JSON is YAML too.
        config.write_text(
            json.dumps({"INHERIT": str(ROOT / "mkdocs.yml"), "docs_dir": "docs", "nav": nav}),
            encoding="utf-8",
        )
        site = work / "site"
        seconds = min(build_site(site, config) for _ in range(max(1, repeat)))
        pages = sum(1 for path in site.rglob("*.html") if path.name != "404.html")
    return Build(factor, pages, len(sources) * languages * factor, seconds)
