"""The site's own archives, each sent as one gzip stream that the page's worker inflates.

A zip compresses each of its files on its own, so what the files have in
common (the standard library's 128 modules share names, idioms and bytecode
patterns) is paid for again in each. The site's two archives, the core's wheel
and the standard library, are served with their files stored, uncompressed,
and the whole archive compressed as one gzip stream, at zlib's best: the
wheel is repacked so (:func:`calcsite.wheel.stored`), the standard library
built so (:func:`calcsite.slim.slim`). Measured on Pyodide 314.0.7's files, a
cold visit then downloads 665 kB of standard library instead of 727 kB, and
38 kB of wheel instead of 45 kB; once inflated, Python reads stored files
without inflating each module it imports.

GitHub Pages sends a ``.gz`` file as it is (``application/gzip``, with no
``Content-Encoding``): the worker inflates it with the browser's own
``DecompressionStream`` and hands the archive to Pyodide as before. A server
that does send ``Content-Encoding: gzip`` for it has the browser inflate it
first; the worker then gets the archive and uses it as it is.

**Why zlib and not Zopfli.** Zopfli writes the same gzip format, smaller, and
gzipped both archives until this was measured side by side, in one run on the
build's machine (2 shared cores; Zopfli at its default 15 iterations, each
the median of three):

=========  ===========  ===================  ===================
archive    stored       Zopfli               zlib, level 9
=========  ===========  ===================  ===================
wheel      134,569 B    35,921 B in 0.47 s   37,695 B in 0.01 s
stdlib     2,280,902 B  641,673 B in 12.5 s  664,577 B in 0.44 s
=========  ===========  ===================  ===================

(12.5 s under a load average of 4; 10.2 s at 2.8 in an earlier run.) A
whole build with an empty cache took 19.3 s with Zopfli and 8.4 s with zlib
(load average 1). Zopfli saved 24.7 kB of a cold visit's 4.59 MB (0.5 %,
some 10 ms on the benchmark's 20 Mbit/s link), for 10 to 12 s of every build
that found no copy in the build cache (each deploy's build job, each change
of Pyodide, of the list or of :mod:`calcsite.slim`), half a second of every
build after a change to the core, a compiled dependency, and the cache
entries that existed only for it. zlib is in every Python, and fast enough
that the wheel is not cached at all. The price: zlib's output, unlike
Zopfli's, may differ from one zlib build to another (zlib-ng, say; the Pages
workflow tests on Debian and builds on Ubuntu). The engine folder, named by
its files' hash, then gets another name, which costs a reader who comes back
a download, never a wrong file.
"""

from __future__ import annotations

import zlib

__all__ = ["LEVEL", "SUFFIX", "gzipped"]

SUFFIX = ".gz"
"""Appended to an archive's name once it is one gzip stream."""

LEVEL = 9
"""zlib's best compression: a second or less on the standard library."""

_GZIP = 16 + zlib.MAX_WBITS
"""zlib's ``wbits`` for a gzip stream: zlib writes the header and trailer itself."""


def gzipped(data: bytes) -> bytes:
    """``data`` as one gzip stream, with no file name and no date in its header.

    zlib writes the header itself (no name, a date of 0), whatever Python's
    ``gzip`` module writes in this version: the same bytes and the same zlib
    give the same file, and the site's engine folder, named by a hash of its
    files, the same name.
    """
    return zlib.compress(data, LEVEL, wbits=_GZIP)
