"""The site tests share the session's one build (the ``site`` fixture of tests/conftest.py)."""

from tests.support.site import CDN_TEMPLATE, ROOT, SITE_PATH, SITE_URL, build_site

__all__ = ["CDN_TEMPLATE", "ROOT", "SITE_PATH", "SITE_URL", "build_site"]
