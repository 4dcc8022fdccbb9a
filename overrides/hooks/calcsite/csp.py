"""Each page's Content-Security-Policy, computed from the page as built.

GitHub Pages sends no headers, so the policy travels in the page itself, as a
``<meta http-equiv="Content-Security-Policy">`` placed before its first
script (a meta policy governs only what comes after it). Scripts come from
the site's own origin, and the few inline scripts a page carries (Material's
``__md_scope``/``__md_get``/``__md_set`` helpers, the palette script, the
anchor-to-tab script) run because the policy lists the SHA-256 hash of their
exact text as built: an inline script that was not in the page at build time
does not run. ``<script type="application/json" id="__config">`` is data, not
script, and is not hashed.

Everything here takes and returns plain strings; ``hooks/csp.py`` calls it
from MkDocs' ``on_post_page`` (and ``on_post_template``, for ``404.html``),
once the page's HTML is final.

Each directive, as measured in chromium on every page with the engine live,
search, the palette toggle, the language menu, the copy buttons and the
tooltips (``tests/browser/test_every_page.py`` and ``test_csp.py``):

- ``default-src 'self'``: all else (the search index, the wheel, styles, the
  favicon) comes from the site's origin.
- ``script-src 'self' 'sha256-…'``: the site's scripts and Material's bundle
  (inserted by ``theme-start.js``, from the site), and the page's inline
  scripts by hash. No ``'unsafe-inline'``, no ``'unsafe-eval'``.
- ``style-src 'self'``: no ``<style>`` element and no ``style`` attribute in
  the markup; Material and the page script set styles through the CSSOM
  (``element.style``), which a policy does not restrict.
- ``img-src 'self' data:``: Material's icons are ``data:`` SVG images in its
  stylesheet (``mask-image``), which ``img-src`` governs.
- ``worker-src 'self'``: the calculators' module worker and Material's search
  worker, both the site's own scripts.
- ``object-src 'none'``, ``base-uri 'self'``, ``form-action 'self'``: no
  plugin content, no ``<base>`` elsewhere, no form sent elsewhere.
  (``frame-ancestors``, ``sandbox`` and ``report-uri`` have no effect in a meta
  policy, and chromium warns about them.)

The engine, on the pages that load it (and only there). Pyodide runs in the
module worker, and a worker served over HTTP gets its policy from its own
response (the HTML standard's "initialize a worker's policy container";
chromium since 2021, WebKit and Gecko alike): none on GitHub Pages. The
page's policy governs which worker starts (``worker-src``) and what the page
itself fetches: for a shared link, ``<link rel="prefetch">`` of the worker's
files (``overrides/main.html``), which chromium allows when any directive
allows the URL and otherwise reports against ``default-src``. So with
``PYODIDE_CDN`` the runtime's folder on the CDN is named in ``script-src``
(``pyodide.mjs`` and ``pyodide.asm.mjs``, modules) and ``connect-src`` (the
``.wasm``, the lock file, the standard library): measured, without both the
prefetches are refused. The CDN is named by folder, not by origin: a public
CDN serves any package, and an origin-wide source would let an injected
``<script src>`` from it run. ``'wasm-unsafe-eval'`` (Pyodide compiles
WebAssembly) is not needed by chromium, the worker having no policy; it is
named so that the engine keeps working where a browser applies the page's
policy to the worker, as CSP level 2 had it, and it allows nothing but
compiling WebAssembly. Such a browser would also refuse the ``blob:`` URL
from which the worker hands Pyodide the standard library it has inflated
(``calculator-worker.mjs``), unless ``connect-src`` named ``blob:``. It is not
named: chromium, Gecko and WebKit give the worker a policy of its own, and
``blob:`` in the page's policy would allow more than that one fetch.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urlsplit

__all__ = [
    "META_NAME",
    "CspError",
    "Script",
    "engine_source",
    "inline_scripts",
    "policy",
    "script_hash",
    "with_policy",
]

META_NAME = "Content-Security-Policy"

_JAVASCRIPT_TYPES = frozenset(
    {
        # The JavaScript MIME type essences of the HTML standard, and the other
        # types a browser executes or interprets as script.
        "application/ecmascript",
        "application/javascript",
        "application/x-ecmascript",
        "application/x-javascript",
        "text/ecmascript",
        "text/javascript",
        "text/javascript1.0",
        "text/javascript1.1",
        "text/javascript1.2",
        "text/javascript1.3",
        "text/javascript1.4",
        "text/javascript1.5",
        "text/jscript",
        "text/livescript",
        "text/x-ecmascript",
        "text/x-javascript",
        "module",
        "importmap",
        "speculationrules",
    }
)


class CspError(ValueError):
    """The page cannot carry its policy where it must (no ``<head>``, a script first)."""


@dataclass(frozen=True)
class Script:
    """A ``<script>`` element: its attributes and its text, in the order of the page."""

    attrs: dict[str, str]
    text: str
    offset: int
    """Where its start tag begins in the page, in characters."""

    @property
    def runs(self) -> bool:
        """Whether a browser executes it (rather than keeping it as a data block)."""
        kind = self.attrs.get("type")
        if kind is None:
            return True
        kind = kind.strip().lower()
        return kind == "" or kind.split(";")[0].strip() in _JAVASCRIPT_TYPES

    @property
    def inline(self) -> bool:
        """Whether it runs its own text (no ``src``), which the policy must hash."""
        return self.runs and "src" not in self.attrs


class _Scripts(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self._lines = [0]
        # getpos() counts lines at each LF, and only there.
        for line in html.split("\n"):
            self._lines.append(self._lines[-1] + len(line) + 1)
        self.scripts: list[Script] = []
        self._open: tuple[dict[str, str], int, list[str]] | None = None

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._open = ({name: value or "" for name, value in attrs}, self._offset(), [])

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open[2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._open is not None:
            attrs, offset, parts = self._open
            self.scripts.append(Script(attrs, "".join(parts), offset))
            self._open = None


def inline_scripts(html: str) -> list[Script]:
    """Every ``<script>`` element of ``html``, in order (comments are skipped)."""
    parser = _Scripts(html)
    parser.feed(html)
    parser.close()
    return parser.scripts


def script_hash(text: str) -> str:
    """The CSP source (``'sha256-…'``) that allows an inline script of this text.

    A browser hashes the element's text as its parser sees it, where every
    CR LF and lone CR of the page has become LF.
    """
    normalised = text.replace("\r\n", "\n").replace("\r", "\n")
    digest = hashlib.sha256(normalised.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


_SOURCE_PATH = re.compile(r"/[A-Za-z0-9._~!$&()*+=:@%/-]*")
"""A path a source expression may hold as it is: no ``;`` or ``,`` (the policy's
own separators), no space, no quote."""


def engine_source(url: str | None) -> str | None:
    """The CSP source of the Pyodide runtime's folder when it is on another site, else None.

    ``https://cdn.jsdelivr.net/pyodide/v0.27.0/full/pyodide.mjs`` gives
    ``https://cdn.jsdelivr.net/pyodide/v0.27.0/full/``: a source with a path
    ending in ``/`` matches that folder and what is below it.
    """
    if not url or "://" not in url:
        return None
    parts = urlsplit(url)
    folder = parts.path[: parts.path.rfind("/") + 1] or "/"
    if (
        parts.scheme not in ("http", "https")
        or not parts.netloc
        or not _SOURCE_PATH.fullmatch(folder)
    ):
        raise CspError(f"the Pyodide runtime's URL cannot be named in a policy: {url!r}")
    return f"{parts.scheme}://{parts.netloc}{folder}"


def policy(hashes: Iterable[str] = (), *, engine: bool = False, cdn: str | None = None) -> str:
    """The policy of a page.

    Args:
        hashes: The CSP hash sources of the page's inline scripts.
        engine: Whether the page loads the calculators' engine (Pyodide).
        cdn: The source of the Pyodide runtime's folder when it is not the
            site's own (:func:`engine_source`), on a page with the engine.
    """
    script = ["'self'"]
    connect: list[str] = []
    if engine:
        script.append("'wasm-unsafe-eval'")
        if cdn:
            script.append(cdn)
            connect = ["'self'", cdn]
    script.extend(dict.fromkeys(hashes))
    directives = [
        ("default-src", ["'self'"]),
        ("script-src", script),
        ("style-src", ["'self'"]),
        ("img-src", ["'self'", "data:"]),
        ("connect-src", connect),
        ("worker-src", ["'self'"]),
        ("object-src", ["'none'"]),
        ("base-uri", ["'self'"]),
        ("form-action", ["'self'"]),
    ]
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives if sources)


_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)
_CHARSET = re.compile(r"<meta\s+charset\s*=\s*[\"']?[\w-]+[\"']?\s*/?>", re.IGNORECASE)
_ENGINE = re.compile(r'<meta name="calc:pyodide" content="([^"]*)">')


def with_policy(html: str) -> str:
    """``html`` with its policy in a meta element, right after its charset (or ``<head>``).

    The policy hashes the page's inline scripts as they are in ``html``, so
    nothing may change the page afterwards. The engine's directives come from
    the page's own ``calc:pyodide`` meta (``overrides/main.html``).
    """
    if f'http-equiv="{META_NAME}"' in html:
        raise CspError("the page already has a Content-Security-Policy meta element")
    head = _HEAD.search(html)
    if head is None:
        raise CspError("the page has no <head>")
    charset = _CHARSET.search(html, head.end())
    at = charset.end() if charset else head.end()
    scripts = inline_scripts(html)
    if scripts and scripts[0].offset < at:
        raise CspError("a script comes before the place of the policy")
    engine = _ENGINE.search(html)
    content = policy(
        (script_hash(script.text) for script in scripts if script.inline),
        engine=engine is not None,
        cdn=engine_source(engine[1]) if engine else None,
    )
    meta = f'\n  <meta http-equiv="{META_NAME}" content="{content}">'
    return html[:at] + meta + html[at:]
