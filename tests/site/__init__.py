"""Site tests: the hooks' MkDocs-free helpers (``calcsite``) and one real build of the site.

The build is made once per session (``conftest.py``) and read as files (``html.py``).
"""
