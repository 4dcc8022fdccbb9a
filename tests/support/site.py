"""The site, built once per session and shared by the site tests and the browser tests.

It is built for :data:`SITE_URL`, a project site on GitHub Pages: the site tests
check its links and canonical addresses against that URL's path, and the browser
tests serve the same folder at the root of a local server and under
:data:`SITE_PATH`, where its 404 page's absolute links point.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]

SITE_URL = "https://org.github.io/repo/"
"""What the session's site is built for: a project site, so under a sub-path."""

SITE_PATH = urlsplit(SITE_URL).path
"""The path of :data:`SITE_URL`, ``/repo/``: where the site's absolute links point."""


def build_site(target: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` of the working tree into ``target``.

    ``env`` adds environment variables to the build's (``SITE_URL``, ``PYODIDE_CDN``).
    """
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(target)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def build_site_or_fail(target: Path, **env: str) -> Path:
    """Build as :func:`build_site` does; fail unless it succeeded without a warning."""
    result = build_site(target, **env)
    assert result.returncode == 0, f"mkdocs build failed:\n{result.stdout}\n{result.stderr}"
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert warnings == [], "\n".join(warnings)
    return target


CDN_TEMPLATE = "pyodide/v{version}/full/"
"""Where the CDN of the CDN build serves the runtime, as jsDelivr lays it out."""
