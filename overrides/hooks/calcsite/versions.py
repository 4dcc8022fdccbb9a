"""Every file the build rewrites, named by its final bytes, and every page pointing at that name.

GitHub Pages lets a browser reuse what it fetched for ten minutes. A reader
who loads pages across a deploy then gets some files from before it and some
from after, unless each URL changes with its file's content: a new bundle
that constructs ``LazyWk`` with an old ``theme-start.js`` that does not define
it, and search never opens. Material names its compiled files by a hash of
their content (``bundle.<hash>.min.js``), but the build rewrites some of them
(the bundle: :mod:`calcsite.search`, :mod:`calcsite.compile_hints`), and the
site's own scripts and stylesheet keep one name whatever they hold. So, once
every other step of the build has written its files, :func:`version_site`:

- renames each of the theme's hashed files that the site holds with other
  bytes than the theme's by the hash of its final bytes
  (``bundle.<version>.min.js``, :func:`version`), its source
  map first, which the file's last line then names by its new name;
- names each of the site's own files (:func:`calcsite.minify.own_assets`)
  with ``?v=`` and the same hash (:func:`versioned`), and has
  each name its source map with the map's;
- points every reference to one of these files in every page (the site's
  pages, ``404.html`` and the embed pages) at its new name or version.

A reference is an attribute of a start tag whose URL, resolved against the
page, is the file; nothing else of a page changes, so each inline script
keeps the text its Content-Security-Policy hashed (:mod:`calcsite.csp`).
Should anything a browser reads (an attribute, an inline script, the
``#__config`` data, a script or a stylesheet) still name a renamed file by its
old name, the build fails: Material would then fetch a file that is gone.
Running it twice changes nothing.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterable, Mapping
from html import escape, unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

__all__ = [
    "HASHED",
    "VersionError",
    "hashed_name",
    "rewritten_theme_files",
    "version",
    "version_site",
    "versioned",
]

HASHED = re.compile(
    r"(?P<stem>[\w-]+)\.(?P<hash>[0-9a-f]{8,})\.(?P<rest>min\.(?:js|css)(?:\.map)?)"
)
"""Material's name of a compiled file and of its source map: ``bundle.a5f9d56c.min.js``
and ``bundle.a5f9d56c.min.js.map``, ``main.57a0d79d.min.css``."""
_MAP_COMMENT = re.compile(
    r"(?P<head>(?://|/\*)# sourceMappingURL=)(?P<name>[^\s?#*]+)(?P<query>\?[^\s#*]*)?(?P<tail>.*)"
)
"""The last line of a script (``//#``) or a stylesheet (``/*# ... */``) that has a source map."""
_ATTRIBUTE = re.compile(
    r"""(?P<head>\s[^\s"'>/=]+\s*=\s*)(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)')"""
)
"""A quoted attribute of a start tag, as written (the tag's name comes before the first space)."""
_ORIGIN = "https://site.invalid"
"""Where the site is assumed to be while resolving its pages' URLs: any other origin is not it."""


class VersionError(RuntimeError):
    """A rewritten file cannot be named by its content, or is still named by its old name."""


def version(data: bytes) -> str:
    """What names a file's content in its URL: the first 12 hex digits of its bytes' SHA-256."""
    return hashlib.sha256(data).hexdigest()[:12]


def versioned(path: str, root: Path) -> str:
    """``path`` (relative to ``root``) with a query naming its content: ``?v=`` and :func:`version`.

    The site's own scripts and stylesheet keep their file names, while GitHub
    Pages lets a browser reuse what it fetched for ten minutes: a page built
    after a change would otherwise meet the previous worker, which may not
    read the engine files it names, or the previous ``theme-start.js`` beside
    a bundle that calls what only the new one defines. ``root`` is the built
    site, once every step of the build has written the file: the version is
    of the bytes a reader gets.

    Raises:
        VersionError: If the file is not in ``root``.
    """
    source = root / path
    if not source.is_file():
        raise VersionError(f"{source} not found")
    return f"{path}?v={version(source.read_bytes())}"


def hashed_name(path: Path) -> str:
    """The name of ``path`` with the hash in it replaced by :func:`version` of its bytes.

    Raises:
        VersionError: If the name carries no hash (:data:`HASHED`).
    """
    match = HASHED.fullmatch(path.name)
    if match is None:
        raise VersionError(
            f"{path.name}: the build changed this file of the theme, but its name has no hash"
            " to change (stem.<hash>.min.js|css): the theme names its files otherwise now"
        )
    return f"{match['stem']}.{version(path.read_bytes())}.{match['rest']}"


def rewritten_theme_files(site: Path, themes: Iterable[Path]) -> list[str]:
    """The theme's static files that ``site`` holds with other bytes than the theme's.

    Args:
        site: The built site.
        themes: The theme's folders (Material's templates), whose ``assets/``
            MkDocs copied into the site as they are.

    Returns:
        Their paths relative to the site root, sorted; a file the site does
        not hold (renamed already) is not among them.
    """
    found: set[str] = set()
    for theme in themes:
        for source in (theme / "assets").rglob("*"):
            relative = source.relative_to(theme).as_posix()
            built = site / relative
            if source.is_file() and built.is_file() and built.read_bytes() != source.read_bytes():
                found.add(relative)
    return sorted(found)


def version_site(
    site: Path, site_path: str, own: Iterable[Path], themes: Iterable[Path]
) -> dict[str, str]:
    """Name every file the build rewrote by its content, and point every page at it.

    Args:
        site: The built site, every other step of the build done.
        site_path: The path of the site's URL (``/`` or ``/repo/``), which the
            pages' absolute paths start with (``404.html``).
        own: The site's own scripts and stylesheets in ``site``, each beside its
            source map (:func:`calcsite.minify.own_assets`).
        themes: The theme's folders, to find which of its files the build
            rewrote (:func:`rewritten_theme_files`).

    Returns:
        Each file's path as the pages named it, relative to the site root, to
        its URL now, relative to the site root.

    Raises:
        VersionError: If a rewritten file of the theme has no hash in its name,
            or something a browser reads still names a renamed file's old name.
    """
    urls: dict[str, str] = {}
    owners = {path.removesuffix(".map") for path in rewritten_theme_files(site, themes)}
    for relative in sorted(owners):
        if (site / relative).is_file():
            urls[relative] = _rename(site, relative)
    for path in own:
        _name_map(path, rename=False)
        relative = path.relative_to(site).as_posix()
        urls[relative] = versioned(relative, site)
    prefix = "/" + site_path.strip("/") + "/" if site_path.strip("/") else "/"
    old_names = {posixpath.basename(old) for old, new in urls.items() if "?" not in new}
    # Only a tag that holds one of the names can name one of the files: the
    # others, nearly all of a page's, have no URL worth resolving.
    names = re.compile("|".join(re.escape(posixpath.basename(old)) for old in urls) or "(?!)")
    for page in sorted(site.rglob("*.html")):
        _repoint(
            page,
            relative=page.relative_to(site).as_posix(),
            prefix=prefix,
            urls=urls,
            names=names,
            old_names=old_names,
        )
    for path in sorted(site.rglob("*")):
        if path.suffix in {".js", ".mjs", ".css"} and path.is_file():
            data = path.read_bytes()
            for name in old_names:
                if name.encode() in data:
                    raise VersionError(f"{path.relative_to(site)} names {name}, renamed")
    return urls


def _rename(site: Path, relative: str) -> str:
    """Rename a hashed file by its content, its source map first; return its new path."""
    path = site / relative
    _name_map(path, rename=True)
    new = path.with_name(hashed_name(path))
    if new != path:
        path.replace(new)
    return new.relative_to(site).as_posix()


def _name_map(path: Path, *, rename: bool) -> None:
    """Have ``path`` name its source map by the map's content: a new name, or ``?v=``.

    The map is the file its last line names, beside it; a file without one,
    or naming one elsewhere or missing, is left as it is.
    """
    text = path.read_bytes().decode("utf-8")
    stripped = text.rstrip()
    start = stripped.rfind("\n") + 1
    comment = _MAP_COMMENT.fullmatch(stripped[start:])
    if comment is None or "/" in comment["name"] or ":" in comment["name"]:
        return
    source_map = path.with_name(comment["name"])
    if not source_map.is_file():
        return
    if rename:
        named = source_map.with_name(hashed_name(source_map))
        if named != source_map:
            source_map.replace(named)
        reference = named.name
    else:
        reference = f"{source_map.name}?v={version(source_map.read_bytes())}"
    line = f"{comment['head']}{reference}{comment['tail']}"
    changed = text[:start] + line + text[len(stripped) :]
    if changed != text:
        path.write_bytes(changed.encode("utf-8"))


class _StartTags(HTMLParser):
    """Where each start tag of a page is, as written, and the text of each inline script."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self._lines = [0]
        # getpos() counts lines at each LF, and only there.
        for line in html.split("\n"):
            self._lines.append(self._lines[-1] + len(line) + 1)
        self.tags: list[tuple[int, str]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line, column = self.getpos()
        self.tags.append((self._lines[line - 1] + column, self.get_starttag_text() or ""))
        self._in_script = tag == "script"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def _repoint(
    page: Path,
    *,
    relative: str,
    prefix: str,
    urls: Mapping[str, str],
    names: re.Pattern[str],
    old_names: Iterable[str],
) -> None:
    """Point each attribute of ``page`` that names a file of ``urls`` at its URL now.

    ``names`` finds the files' names in a tag; ``old_names`` are those of the
    renamed files, which nothing a browser reads may name any more.
    """
    html = page.read_bytes().decode("utf-8")
    parser = _StartTags(html)
    parser.feed(html)
    parser.close()
    base = f"{_ORIGIN}{prefix}{relative}"

    def repointed(match: re.Match[str]) -> str:
        quote = '"' if match["double"] is not None else "'"
        value = unescape(match["double"] if match["double"] is not None else match["single"])
        url = _url_now(value, base, prefix, urls)
        return f"{match['head']}{quote}{escape(url)}{quote}" if url else match[0]

    parts: list[str] = []
    tags: list[str] = []
    done = 0
    for offset, tag in parser.tags:
        tags.append(_ATTRIBUTE.sub(repointed, tag) if names.search(tag) else tag)
        parts += [html[done:offset], tags[-1]]
        done = offset + len(tag)
    # What a browser fetches from: the attributes, and the inline scripts
    # (Material's #__config names its search worker there).
    for name in old_names:
        if any(name in text for text in (*tags, *parser.scripts)):
            raise VersionError(f"{relative} names {name}, renamed: point it at the new name")
    changed = "".join([*parts, html[done:]])
    if changed != html:
        page.write_bytes(changed.encode("utf-8"))


def _url_now(value: str, base: str, prefix: str, urls: Mapping[str, str]) -> str | None:
    """``value``, a URL on the page at ``base``, pointed at its file's URL now, if it names one."""
    if not value or value.startswith("#") or any(space in value for space in " \t\n\r\f"):
        return None
    resolved = urlsplit(urljoin(base, value))
    if f"{resolved.scheme}://{resolved.netloc}" != _ORIGIN or not resolved.path.startswith(prefix):
        return None
    now = urls.get(unquote(resolved.path.removeprefix(prefix)))
    if now is None:
        return None
    written, target = urlsplit(value), urlsplit(now)
    folder, slash, _ = written.path.rpartition("/")
    path = f"{folder}{slash}{posixpath.basename(target.path)}"
    return urlunsplit((written.scheme, written.netloc, path, target.query, written.fragment))
