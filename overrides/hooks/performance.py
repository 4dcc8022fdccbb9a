"""MkDocs hook: the Performance page's tables, from the published benchmark run.

A line ``<!-- md:bench NAME -->`` becomes the table ``NAME`` of
``docs/assets/bench/results.json``, in the page's language. Everything but the
MkDocs glue lives in :mod:`calcsite.performance`, which takes plain values; a run
that cannot be shown (partial, or made with ``--quick``) fails the build. The
build imports nothing of the benchmark (``bench/``), which writes the runs.
"""

from __future__ import annotations

from pathlib import Path

from calcsite.performance import PublishError, expand
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    try:
        return expand(markdown, str(config.theme["language"]), Path(config.docs_dir))
    except PublishError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error
