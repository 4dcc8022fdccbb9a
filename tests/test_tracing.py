"""What coverage's tracer sees: an untraced test runs without it, in any worker.

The browser, Pyodide, site and benchmark tests and the property tests run
untraced (tests/conftest.py), which only holds if pausing the measurement
leaves no tracer behind: under pytest-xdist, pytest-cov 7.1 started a second
one in each worker, which a pause resumed.
"""

from __future__ import annotations

import sys
import threading

import pytest


@pytest.mark.no_cover
def test_an_untraced_test_runs_without_a_tracer() -> None:
    assert sys.gettrace() is None
    assert threading.gettrace() is None
