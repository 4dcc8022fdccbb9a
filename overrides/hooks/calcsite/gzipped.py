"""The site's own archives, each sent as one gzip stream that the page's worker inflates.

A zip compresses each of its files on its own, so what the files have in
common (the standard library's 128 modules share names, idioms and bytecode
patterns) is paid for again in each. The site's two archives, the core's wheel
and the standard library, are served with their files stored, uncompressed,
and the whole archive compressed as one gzip stream (Zopfli, which writes
plain gzip, only smaller): the wheel is repacked so
(:func:`calcsite.wheel.stored`), the standard library built so
(:func:`calcsite.slim.slim`). Measured on Pyodide 314.0.7's files, a cold
visit then downloads 642 kB of standard library instead of 727 kB, and 38 kB
of wheel instead of 46 kB; once inflated, Python reads stored files without
inflating each module it imports.

GitHub Pages sends a ``.gz`` file as it is (``application/gzip``, with no
``Content-Encoding``): the worker inflates it with the browser's own
``DecompressionStream`` and hands the archive to Pyodide as before. A server
that does send ``Content-Encoding: gzip`` for it has the browser inflate it
first; the worker then gets the archive and uses it as it is.
"""

from __future__ import annotations

import zopfli.gzip

__all__ = ["ITERATIONS", "SUFFIX", "gzipped"]

SUFFIX = ".gz"
"""Appended to an archive's name once it is one gzip stream."""

ITERATIONS = 15
"""Zopfli's passes: its default; more gain less than 0.01 % here, for seconds of build."""


def gzipped(data: bytes) -> bytes:
    """``data`` as one gzip stream, with no file name and no date in its header.

    Zopfli's output is deterministic: the same bytes give the same file, and
    the site's engine folder, named by a hash of its files, the same name.
    """
    return bytes(zopfli.gzip.compress(data, numiterations=ITERATIONS))
