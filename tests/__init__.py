"""The project's tests: the core, the site's helpers and build, the browser, the benchmark.

The core's tests are at this level (with ``cases.py``, the table Pyodide runs too);
``calculators/`` holds each calculator's, ``site/`` the hooks' helpers and one real
build, ``browser/`` chromium against that build, ``bench/`` the benchmark's own, and
``support/`` what the browser tests share with the benchmark.
"""
