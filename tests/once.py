"""Work done once per test run, however many xdist workers run it.

A session-scoped fixture is built once per worker: a build that costs seconds of CPU (the
documentation, a bench script's run) is then paid once on each core for the same result. `once`
builds it into a folder of the whole run instead: the first worker that asks builds it under a
lock; a worker that asks meanwhile waits for that build, and every later one reads it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of this whole run: under xdist each worker's own (`popen-gw0`) is a
    folder in it; without xdist it is the run's own."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder `build` filled for `name` in this run: built now if no worker has built it yet.
    A build that raised left no result: the next worker that asks builds it again (and fails
    alike, so that each test that needs it reports why)."""
    root = run_folder(factory)
    folder = root / f"once-{name}"
    done = root / f"once-{name}.done"
    with (root / f"once-{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            done.touch()
    return folder
