"""The benchmark: ``python -m bench`` (``./dev bench``); see the Performance page.

Its numbers are written by the site's own formatter (``calcsite``, which lives
in ``overrides/hooks``), so that folder is put on the import path here, once.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The project's root."""

if str(ROOT / "overrides" / "hooks") not in sys.path:
    sys.path.insert(0, str(ROOT / "overrides" / "hooks"))
