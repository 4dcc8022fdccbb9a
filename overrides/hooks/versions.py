"""MkDocs hook: each file the build rewrote, named by its final bytes, and the pages naming it so.

Everything but the MkDocs glue is in :mod:`calcsite.versions`, which says why
and how. Here: when. mkdocs-static-i18n runs the build of each other language
inside the first build's ``on_post_build`` (priority -100), and each copies
the theme's files and the site's own into the site afresh, for the steps after
it (-110: the bundle's rewrites, -120: the minified scripts) to rewrite again.
The names are given once, last: after every step of the outermost build, when
every file is final and every page, of every language, is in the site.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from calcsite.minify import own_assets
from calcsite.versions import VersionError, version_site
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

_builds = 0
"""Builds under way: the outermost one, and the language build inside it, if any."""


def on_pre_build(config: MkDocsConfig) -> None:
    global _builds  # noqa: PLW0603 -- MkDocs hooks keep build state at module level
    _builds += 1


def on_build_error(error: Exception) -> None:
    global _builds  # noqa: PLW0603
    # A failed build, inner or outer, ends them all; the next (mkdocs serve) starts afresh.
    _builds = 0


# Last: after mkdocs-static-i18n's builds (-100), the bundle's rewrites (-110,
# hooks/calculators.py) and the minified scripts (-120, hooks/assets.py).
@event_priority(-1000)
def on_post_build(config: MkDocsConfig) -> None:
    global _builds  # noqa: PLW0603
    _builds = max(_builds - 1, 0)
    if _builds:
        return  # a language's build, inside the outermost one: its files are not final yet
    overrides = Path(str(config.theme.custom_dir))
    site = Path(config.site_dir)
    themes = [Path(folder) for folder in config.theme.dirs if Path(folder) != overrides]
    try:
        version_site(
            site, urlsplit(config.site_url or "/").path, own_assets(overrides, site), themes
        )
    except VersionError as error:
        raise PluginError(str(error)) from error
