"""MkDocs hook: the built site finished, by the steps of :mod:`calcsite.postbuild`, in their order.

The steps, their order and why are in :mod:`calcsite.postbuild`; here, only
when. Each build's settings are taken as it starts (``on_pre_build``, after
every ``on_config``, mkdocs-static-i18n's included, which sets the language),
and its steps run as it ends: after mkdocs-static-i18n's own end of the first
build (priority -100), which builds the other languages and then writes the
merged search index. No other hook's work is needed, nor its order.
"""

from __future__ import annotations

import copy
from pathlib import Path
from urllib.parse import urlsplit

from calcsite.engine import pyodide_cdn
from calcsite.postbuild import Build, PostBuild, PostBuildError
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]

_post_build = PostBuild()
"""The builds under way, each with its settings (MkDocs hooks keep build state in their module)."""


def _build(config: MkDocsConfig) -> Build:
    overrides = Path(str(config.theme.custom_dir))
    return Build(
        site=Path(config.site_dir),
        site_path=urlsplit(config.site_url or "/").path,
        language=str(config.theme["language"]),
        project_root=ROOT,
        overrides=overrides,
        themes=tuple(Path(folder) for folder in config.theme.dirs if Path(folder) != overrides),
        env=config.theme.get_env(),
        site_name=config.site_name,
        extra_css=tuple(str(path) for path in config.extra_css),
        favicon=str(config.theme["favicon"]),
        # A copy: a later build (another language's) changes the theme's settings in place.
        palette=copy.deepcopy(config.theme.get("palette")),
        pyodide_cdn=pyodide_cdn(config.extra),
    )


def on_pre_build(config: MkDocsConfig) -> None:
    _post_build.started(_build(config))


def on_build_error(error: Exception) -> None:
    _post_build.failed()


@event_priority(-110)
def on_post_build(config: MkDocsConfig) -> None:
    try:
        _post_build.finished()
    except PostBuildError as error:
        raise PluginError(str(error)) from error
