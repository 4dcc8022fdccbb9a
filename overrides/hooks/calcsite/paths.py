"""Where each page is, and how one page links to another, relative to the site root."""

from __future__ import annotations

import posixpath

from .messages import tree

__all__ = ["page_path", "relative_url"]


def page_path(language: str, slug: str) -> str:
    """The full page of a calculator in a language: each calculator's page is named by its slug."""
    return f"{tree(language)}{slug}/"


def relative_url(target: str, page: str) -> str:
    """The URL of ``target`` from the page served at ``page``, both relative to the site root.

    Directory addresses end with ``/`` (``fr/embed/pipeline-bubble/``); an
    absolute URL (a CDN's) is returned as it is.
    """
    if "://" in target:
        return target
    folder = page if page.endswith("/") or not page else posixpath.dirname(page) + "/"
    url = posixpath.relpath(target or ".", folder or ".")
    if target.endswith("/") or not target:
        url = "./" if url == "." else url.rstrip("/") + "/"
    return url
