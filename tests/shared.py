"""A directory made once per test run and copied by every worker that needs it (issue 19): the
first pytest-xdist worker to ask makes it under a lock, the others wait for it; each gets its own
copy, so a test may change its copy."""

from __future__ import annotations

import fcntl
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def locked(path: Path, wait: float | None = None) -> Iterator[None]:
    """Holds the lock file ``path`` while the block runs (the lock goes with the file's closing).
    Another worker holding it is waited for, at most ``wait`` seconds when given; after that the
    block runs without the lock."""
    with path.open("w") as handle:
        if wait is None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        else:
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
        yield


def copy_of(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """A fresh copy of the directory ``make(folder)`` fills, made once per run."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, shared by its workers
    made = base / f"shared-{name}"
    with locked(base / f"shared-{name}.lock"):
        if not made.is_dir():
            making = base / f"shared-{name}.making"
            shutil.rmtree(making, ignore_errors=True)
            making.mkdir()
            make(making)
            making.rename(made)
    copy = tmp_path_factory.mktemp(name)
    shutil.copytree(made, copy, dirs_exist_ok=True)
    return copy
