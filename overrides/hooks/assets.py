"""MkDocs hook: the site's own scripts and stylesheet, minified once they are in the site.

Everything but the MkDocs glue is in :mod:`calcsite.minify`, which says why and how.
"""

from __future__ import annotations

from pathlib import Path

from calcsite.minify import MinifyError, minify, own_assets
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"


# After mkdocs-static-i18n's own post-build (priority -100), which builds the
# other languages into the same site: the last word on the files.
@event_priority(-120)
def on_post_build(config: MkDocsConfig) -> None:
    overrides = Path(str(config.theme.custom_dir))
    try:
        minify(own_assets(overrides, Path(config.site_dir)), ESBUILD)
    except MinifyError as error:
        raise PluginError(str(error)) from error
