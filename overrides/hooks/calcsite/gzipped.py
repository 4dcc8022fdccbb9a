"""The site's own archives, each sent as one gzip stream that the page's worker inflates.

A zip compresses each of its files on its own, so what the files have in
common (the standard library's 128 modules share names, idioms and bytecode
patterns) is paid for again in each. The site's two archives, the core's wheel
and the standard library, are served with their files stored, uncompressed,
and the whole archive compressed as one gzip stream: the wheel is repacked so
(:func:`calcsite.wheel.stored`), the standard library built so
(:func:`calcsite.slim.slim`). Measured on Pyodide 314.0.7's files, a cold
visit then downloads 642 kB of standard library instead of 727 kB; once
inflated, Python reads stored files without inflating each module it imports.

GitHub Pages sends a ``.gz`` file as it is (``application/gzip``, with no
``Content-Encoding``): the worker inflates it with the browser's own
``DecompressionStream`` and hands the archive to Pyodide as before. A server
that does send ``Content-Encoding: gzip`` for it has the browser inflate it
first; the worker then gets the archive and uses it as it is.

**Zopfli for the standard library, zlib for the wheel.** Both write the same
gzip format, Zopfli smaller and tens of times slower. Measured side by side
on the build's machine on 2 December 2026 (2 shared cores, a load average
under 1; each the median of three):

=========  ===========  ===================  ===================
archive    stored       Zopfli, 15 passes    zlib, level 9
=========  ===========  ===================  ===================
wheel      191,113 B    50,494 B in 0.67 s   52,842 B in 0.01 s
stdlib     2,280,902 B  641,673 B in 11.6 s  664,577 B in 0.44 s
=========  ===========  ===================  ===================

On a busy machine Zopfli is slower: 10 to 12.5 s on the standard library at
a load average of 3 to 4, 22 s at 7.

The standard library is Zopfli's (:data:`ZOPFLI`): 22.9 kB less, 3.4 %,
which a cold visit's 4.6 MB target needs: the published run met it at
4.59 MB, and zlib's stream would have made that 4.62 MB. It costs little, as
the stream is made only when what it is made from changes (Pyodide's
version, the list of modules, that is the core's imports, or the programs
that build it) and is kept in the build's cache under a name that includes
its compressor (:func:`calcsite.stdlib.cache_name`): a developer pays
Zopfli's seconds once for each such change, and a build with an empty cache,
such as each deploy's build job, once (the engine's files then take 17 s,
against 6 s with zlib). Zopfli's output depends on its version and passes
alone, which the name holds, not on the machine.

The wheel is zlib's (:data:`ZLIB`): it changes with every edit of the core,
and each build after one makes it again, uncached; Zopfli would save 2.3 kB
of it (4.4 %) for 0.7 s of each of those builds. zlib's output, unlike
Zopfli's, may differ from one zlib build to another (zlib-ng, say; the Pages
workflow tests on Debian and builds on Ubuntu): the engine folder, named by
its files' hash, then gets another name, which costs a reader who comes back
a download, never a wrong file.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

import zopfli.gzip

__all__ = [
    "ITERATIONS",
    "LEVEL",
    "SUFFIX",
    "ZLIB",
    "ZOPFLI",
    "Compressor",
    "gzipped",
    "zopfli_gzipped",
]

SUFFIX = ".gz"
"""Appended to an archive's name once it is one gzip stream."""

LEVEL = 9
"""zlib's best compression, for the wheel: a hundredth of a second."""

ITERATIONS = 15
"""Zopfli's passes, for the standard library: its default; more gain less than 0.01 % here."""

_GZIP = 16 + zlib.MAX_WBITS
"""zlib's ``wbits`` for a gzip stream: zlib writes the header and trailer itself."""


def gzipped(data: bytes) -> bytes:
    """``data`` as one gzip stream by zlib at :data:`LEVEL`, with no file name and no date.

    zlib writes the header itself (no name, a date of 0), whatever Python's
    ``gzip`` module writes in this version: the same bytes and the same zlib
    give the same file, and the site's engine folder, named by a hash of its
    files, the same name.
    """
    return zlib.compress(data, LEVEL, wbits=_GZIP)


def zopfli_gzipped(data: bytes) -> bytes:
    """``data`` as one gzip stream by Zopfli at :data:`ITERATIONS`, with no file name and no date.

    Zopfli's output depends on its version and passes only: the same bytes
    give the same file on every machine.
    """
    return bytes(zopfli.gzip.compress(data, numiterations=ITERATIONS))


@dataclass(frozen=True)
class Compressor:
    """One way of writing a gzip stream, and what its output depends on besides the input."""

    name: str
    """The compressor and its setting, as a cache key spells them."""
    compress: Callable[[bytes], bytes]
    """``data`` as one gzip stream."""
    version: Callable[[], str]
    """The version of the code that writes the stream, read when a key is made."""

    def key(self) -> str:
        """Its name, setting and version: a stream kept under this key is the one it writes."""
        return f"{self.name} {self.version()}"


ZLIB = Compressor(f"zlib level {LEVEL}", gzipped, lambda: zlib.ZLIB_RUNTIME_VERSION)
"""The wheel's compressor (:func:`gzipped`): its output may differ from one zlib to another."""

ZOPFLI = Compressor(
    f"zopfli {ITERATIONS} iterations", zopfli_gzipped, lambda: metadata.version("zopfli")
)
"""The standard library's compressor (:func:`zopfli_gzipped`)."""
