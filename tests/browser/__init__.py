"""Browser tests: the built site, served as GitHub Pages serves it, driven in chromium.

The fixtures (the build, the servers, the browser) are in ``conftest.py``; what a page
must show, derived from the core's declarations, is in ``expected.py``.
"""
