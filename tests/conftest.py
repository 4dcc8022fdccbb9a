"""Suite-wide settings, and the builds of the site that the site and browser tests share.

Hypothesis runs without deadlines: a loaded machine slows examples.

The site is built twice per run, once per set of files it can publish: the site
as deployed (``site``: the runtime self-hosted), and with ``PYODIDE_CDN``
(``cdn_site``: no runtime, its URLs and policy naming a CDN, here a second local
server on another origin). Each build is read by the site tests and served to
chromium by the browser tests.

``./dev test`` spreads the tests over pytest-xdist workers (``--dist
loadgroup``). The site is built once for all of them (tests/support/once.py),
and so is the standard library's archive that every build and the Pyodide
tests take from the build cache. The CDN build is not shared: its URLs name
the port of a server that lives in the worker that started it. So every test
that uses that server is put in one group (:data:`CDN_GROUP`), which
pytest-xdist runs in one worker, and the CDN site is built once there too.
"""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.nodeid import NodeId
from calcsite.runtime import copy_runtime, pyodide_version
from calcsite.stdlib import stdlib_archive
from hypothesis import is_hypothesis_test, settings
from pytest_cov.engine import DistMaster

from tests.support.once import made_once
from tests.support.server import Server, start
from tests.support.site import CDN_TEMPLATE, ROOT, SITE_URL, build_site_or_fail

settings.register_profile("calculator", deadline=None)
settings.load_profile("calculator")

PYODIDE = ROOT / "node_modules" / "pyodide"

CDN_GROUP = "cdn"
"""The pytest-xdist group of the tests that use the ``cdn`` server (and so its build)."""


UNTRACED = ("browser", "pyodide")
"""Markers of the tests that run without coverage's tracer (pytest-cov's ``no_cover``).

They prove the page and Pyodide against the core; the core's coverage is its own
tests' job, which reach every branch without them. Their expectations recompute
the core in CPython, and the tracer made that a third slower (the planner's
number-entry test: 32.5 s traced, 22.7 s not).
"""

UNTRACED_FOLDERS = ("site", "bench")
"""Folders of ``tests/`` whose tests run untraced too: the build's and the benchmark's.

Coverage measures the core alone (``[tool.coverage.run] source``), which its own
tests reach in full without these; traced, these 885 tests took 49.4 CPU-s
instead of 35.5.
"""

TESTS = Path(__file__).parent


ADDRESS = re.compile(r" at 0x[0-9a-f]+")
"""Where an object's default ``repr`` names its address, which differs between processes."""


def pytest_configure(config: pytest.Config) -> None:
    """In a pytest-xdist worker, stop the measurement pytest-cov started by mistake.

    A worker's early arguments still hold the controller's ``-n``, so pytest-cov
    7.1 starts the controller's kind of measurement in the worker too (its
    ``DistMaster``, whose data no one saves), then the worker's own at session
    start, above it in coverage's stack. Pausing that one for an untraced test
    resumes the stray beneath it: every test marked ``no_cover`` ran traced.
    Stopped here, before the worker's starts, the stray leaves a paused test
    without a tracer, which ``tests/test_tracing.py`` checks under ``./dev test``
    (the 73 property tests, marked, in two workers: 146 CPU-s, then 81).
    """
    stray = getattr(config.pluginmanager.get_plugin("_cov"), "cov_controller", None)
    if hasattr(config, "workerinput") and isinstance(stray, DistMaster):
        stray.cov.stop()


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the ids and groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give each test the same id in every pytest-xdist worker, and its group in that id.

    The tests marked with one of :data:`UNTRACED`, in one of
    :data:`UNTRACED_FOLDERS`, or drawing examples (:func:`_draws`), run untraced.

    Every test that uses the ``cdn`` server, directly or not, is put in
    :data:`CDN_GROUP`. pytest-xdist sends tests to workers by id, so each id
    must be the same in every worker, and a test's group is the end of its id
    (``…@cdn``):

    - a parameter shown by ``repr`` (``ids=repr``) that names an object's address
      gets :data:`ADDRESS` left out of its id, unless that would make two ids one;
    - with ``--dist loadgroup``, the groups of a test's ``xdist_group`` marks are
      added here. pytest-xdist 3.8 adds them to ``Item._nodeid``, which pytest 9.2
      no longer reads (it keeps the id in ``Item._id``): its groups would
      silently not be kept together.
    """
    ids = {item.nodeid for item in items}
    loadgroup = getattr(config.option, "loadgroup", False)  # pytest-xdist's own flag
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0]
        if (
            folder in UNTRACED_FOLDERS
            or any(item.get_closest_marker(n) for n in UNTRACED)
            or _draws(item)
        ):
            item.add_marker(pytest.mark.no_cover)
        if "cdn" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group(CDN_GROUP))
        nodeid = ADDRESS.sub("", item.nodeid)
        if nodeid != item.nodeid and nodeid in ids:
            nodeid = item.nodeid
        groups = sorted(
            {
                str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                for mark in item.iter_markers("xdist_group")
            }
        )
        if loadgroup and groups:
            nodeid += "@" + "_".join(groups)
        if nodeid != item.nodeid:
            ids.add(nodeid)
            item._id = NodeId.parse(nodeid)


def _draws(item: pytest.Item) -> bool:
    """Whether ``item`` is a property test: hypothesis draws its examples.

    A property test searches random draws for a counterexample; what it reaches
    varies with the draw, and so would the coverage it added. The core's coverage
    is its other tests' job (known values, tables, the documented examples), which
    reach every branch alone (100 % with ``-m "not hypothesis"``). So the property
    tests run untraced too: in two workers, the 73 of them took 169 CPU-s traced,
    81 untraced, 69 without coverage at all. Checked here, before hypothesis's
    own hook marks them ``hypothesis``.
    """
    return isinstance(item, pytest.Function) and is_hypothesis_test(item.obj)


@pytest.fixture(scope="session")
def engine_cache(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> None:
    """The standard library's archive in the build cache, made once per run.

    Every build, and the Pyodide tests, take it from there; on a fresh clone it
    is missing, and Zopfli's seconds are paid by one worker, not by each.
    """
    made_once(tmp_path_factory, worker_id, "engine-cache", lambda _: stdlib_archive(PYODIDE))


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str, engine_cache: None) -> Path:
    """The site, built once per run for ``SITE_URL`` (tests/support/site.py), warning-free."""
    return made_once(
        tmp_path_factory,
        worker_id,
        "site",
        lambda folder: build_site_or_fail(folder, SITE_URL=SITE_URL),
    )


@pytest.fixture(scope="session")
def cdn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Another origin that serves the npm package's runtime where ``CDN_TEMPLATE`` says.

    With ``Access-Control-Allow-Origin: *``, as a CDN (and GitHub Pages) sends it.
    """
    folder = tmp_path_factory.mktemp("cdn")
    copy_runtime(PYODIDE, folder / CDN_TEMPLATE.format(version=pyodide_version(PYODIDE)))
    running = start(folder)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def cdn_site(tmp_path_factory: pytest.TempPathFactory, cdn: Server, engine_cache: None) -> Path:
    """The site built with ``PYODIDE_CDN`` naming ``cdn``'s runtime folder, warning-free."""
    return build_site_or_fail(
        tmp_path_factory.mktemp("cdn-site"), SITE_URL=SITE_URL, PYODIDE_CDN=cdn.url(CDN_TEMPLATE)
    )
