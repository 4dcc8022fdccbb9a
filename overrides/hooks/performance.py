"""MkDocs hook: the Performance page's tables, from the published benchmark run.

A line ``<!-- md:bench NAME -->`` becomes the table ``NAME`` of
``docs/assets/bench/results.json``, in the page's language. Everything but the
MkDocs glue lives in :mod:`bench.published`, which takes plain values; a run
that cannot be shown (partial, or made with ``--quick``) fails the build.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

# bench/ is a folder of the project, not a package of its wheel: it is importable
# because the project is installed in editable mode (./dev does), which puts the
# project's root on the import path; MkDocs adds this hook's folder (calcsite).
from bench.published import PublishError, expand


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    try:
        return expand(markdown, str(config.theme["language"]), Path(config.docs_dir))
    except PublishError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error
