"""Suite-wide settings, and the builds of the site that the site and browser tests share.

Hypothesis runs without deadlines, since coverage tracing slows examples.

The site is built twice per session, once per set of files it can publish: the
site as deployed (``site``: the runtime self-hosted), and with ``PYODIDE_CDN``
(``cdn_site``: no runtime, its URLs and policy naming a CDN, here a second local
server on another origin). Each build is read by the site tests and served to
chromium by the browser tests.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
from calcsite.runtime import copy_runtime, pyodide_version
from hypothesis import settings

from tests.support.server import Server, start
from tests.support.site import CDN_TEMPLATE, ROOT, SITE_URL, build_site_or_fail

settings.register_profile("calculator", deadline=None)
settings.load_profile("calculator")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once per session for ``SITE_URL`` (tests/support/site.py), warning-free."""
    return build_site_or_fail(tmp_path_factory.mktemp("site"), SITE_URL=SITE_URL)


@pytest.fixture(scope="session")
def cdn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Another origin that serves the npm package's runtime where ``CDN_TEMPLATE`` says.

    With ``Access-Control-Allow-Origin: *``, as a CDN (and GitHub Pages) sends it.
    """
    package = ROOT / "node_modules" / "pyodide"
    folder = tmp_path_factory.mktemp("cdn")
    copy_runtime(package, folder / CDN_TEMPLATE.format(version=pyodide_version(package)))
    running = start(folder)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def cdn_site(tmp_path_factory: pytest.TempPathFactory, cdn: Server) -> Path:
    """The site built with ``PYODIDE_CDN`` naming ``cdn``'s runtime folder, warning-free."""
    return build_site_or_fail(
        tmp_path_factory.mktemp("cdn-site"), SITE_URL=SITE_URL, PYODIDE_CDN=cdn.url(CDN_TEMPLATE)
    )
