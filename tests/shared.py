"""A directory made once per test run and copied by every worker that needs it (issue 19): the
first pytest-xdist worker to ask makes it under a lock, the others wait for it; each gets its own
copy, so a test may change its copy."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def copy_of(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """A fresh copy of the directory ``make(folder)`` fills, made once per run."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, shared by its workers
    made = base / f"shared-{name}"
    with (base / f"shared-{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not made.is_dir():
            making = base / f"shared-{name}.making"
            shutil.rmtree(making, ignore_errors=True)
            making.mkdir()
            make(making)
            making.rename(made)
    copy = tmp_path_factory.mktemp(name)
    shutil.copytree(made, copy, dirs_exist_ok=True)
    return copy
