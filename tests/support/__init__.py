"""What the browser tests and the benchmark (``bench/``) share.

- :mod:`tests.support.server`: a static server that behaves like GitHub Pages
  (gzip, ``Cache-Control: max-age=600``, ETag and ``304``, any origin allowed);
- :mod:`tests.support.chromium`: Debian's chromium and the flags both launch it with.
"""
