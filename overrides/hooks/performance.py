"""MkDocs hook: the Performance page's tables, from the published benchmark run.

A line ``<!-- md:bench NAME -->`` becomes the table ``NAME`` of
``docs/assets/bench/results.json``, in the page's language. Everything but the
MkDocs glue lives in :mod:`bench.published`, which takes plain values; a run
that cannot be shown (partial, or made with ``--quick``) fails the build.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page

# bench/ is a folder of the project, not an installed package; MkDocs puts only
# this hook's folder (and so calcsite) on the import path.
ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.append(ROOT)

from bench.published import PublishError, expand  # noqa: E402 -- needs the path above


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, **_: object) -> str:
    try:
        return expand(markdown, str(config.theme["language"]), Path(config.docs_dir))
    except PublishError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from error
