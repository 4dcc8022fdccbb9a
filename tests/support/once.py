"""What a test run makes once, however many pytest-xdist workers share it.

``./dev test`` runs the tests in several pytest-xdist workers: processes, each
with its own session fixtures. What takes a minute to make (the site's build,
the standard library's archive in the build cache) is made by the first worker
that needs it, under a lock in the run's shared temporary folder, while the
others wait for it and then use the same files (pytest-xdist's documented way,
"Making session-scoped fixtures execute only once"). Without xdist there is one
process, and each thing is made as it always was.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

NOT_DISTRIBUTED = "master"
"""The ``worker_id`` of a run without workers (pytest-xdist's name for it)."""


def made_once(
    factory: pytest.TempPathFactory, worker_id: str, name: str, make: Callable[[Path], object]
) -> Path:
    """The folder ``name``, filled by ``make(folder)`` once per test run.

    Under pytest-xdist the folder is in the folder every worker's temporary
    folder is in (``getbasetemp().parent``, one per run): the first worker to
    take its lock makes it, the others wait and find it made. If making it
    failed, they fail at once with the same error instead of making it again.
    """
    if worker_id == NOT_DISTRIBUTED:
        folder = factory.mktemp(name)
        make(folder)
        return folder
    shared = factory.getbasetemp().parent
    folder = shared / name
    done = shared / f"{name}.done"
    failed = shared / f"{name}.failed"
    with FileLock(shared / f"{name}.lock"):
        if failed.exists():
            pytest.fail(failed.read_text(encoding="utf-8"), pytrace=False)
        if not done.exists():
            folder.mkdir(exist_ok=True)
            try:
                make(folder)
            except Exception as error:
                failed.write_text(f"{name}, made by another worker, failed:\n{error}", "utf-8")
                raise
            done.touch()
    return folder
