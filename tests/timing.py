"""Where the suite's time goes (issue 19): with ``BRIDGEKO_TEST_TIMING=DIR`` every pytest process
(each xdist worker) writes ``DIR/<database>/<worker>.json`` at its end (``sqlite`` or
``postgresql``: ``.ci/run``'s two phases apart): when it started and ended, each
test's setup, call and teardown with their start times, and each fixture's own setup time (its
dependencies apart). ``python benchmarks/suite_breakdown.py DIR/sqlite`` turns the files into the
tables of ``docs/testing.md``. Without the variable this plugin does nothing."""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

ENV = "BRIDGEKO_TEST_TIMING"


class Timing:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.started = time.time()
        self.tests: dict[str, dict[str, float]] = defaultdict(dict)
        self.fixtures: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef: Any, request: Any) -> Generator[None, Any, Any]:
        began = time.perf_counter()
        try:
            return (yield)
        finally:
            entry = self.fixtures[f"{fixturedef.argname} ({fixturedef.scope})"]
            entry[0] += 1
            entry[1] += time.perf_counter() - began

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        test = self.tests[report.nodeid]
        test[report.when] = report.duration
        test[f"{report.when}_start"] = report.start

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        worlds = sys.modules.get("tests.worlds")  # loaded by the tests that build worlds
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        doc = {
            "worker": worker,
            "started": self.started,
            "ended": time.time(),
            "tests": self.tests,
            "worlds": dict(worlds.stats) if worlds else {},
            "fixtures": {
                name: {"count": c, "seconds": s} for name, (c, s) in self.fixtures.items()
            },
        }
        postgresql = os.environ.get("DATABASE_URL", "").startswith(("postgres:", "postgresql:"))
        folder = self.folder / ("postgresql" if postgresql else "sqlite")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{worker}.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")


def pytest_configure(config: pytest.Config) -> None:
    folder = os.environ.get(ENV)
    controller = not hasattr(config, "workerinput") and config.getoption("numprocesses", None)
    if folder and not controller:  # with xdist the workers write, not the controller
        config.pluginmanager.register(Timing(Path(folder)), "bridgeko-timing")
