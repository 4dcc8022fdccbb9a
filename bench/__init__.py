"""The benchmark: ``python -m bench`` (``./dev bench``); see the Performance page.

Its numbers are written by the site's own formatter (``calcsite``, in
``overrides/hooks``): ``./dev`` puts that folder on ``PYTHONPATH``, pytest's
``pythonpath`` does for the tests, and MkDocs does when it loads a hook.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The project's root."""
