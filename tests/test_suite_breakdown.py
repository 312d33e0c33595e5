"""``BRIDGEKO_TEST_TIMING`` (tests/timing.py) and ``benchmarks/suite_breakdown.py`` end to end: a
small pytest run in a subprocess writes its timing file, the script prints its tables (issue 19,
"where the time goes")."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

SAMPLE = """
import time

import pytest


@pytest.fixture
def slow_world():
    time.sleep(0.2)
    return 1


def test_uses_the_world(slow_world):
    time.sleep(0.1)
    assert slow_world == 1


def test_quick():
    assert True
"""


def test_timing_files_and_the_breakdown_of_a_run(tmp_path: Path) -> None:
    (tmp_path / "test_sample.py").write_text(SAMPLE, encoding="utf-8")
    (tmp_path / "conftest.py").write_text('pytest_plugins = ["tests.timing"]\n', encoding="utf-8")
    timing = tmp_path / "timing"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env |= {"BRIDGEKO_TEST_TIMING": str(timing), "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:django",
         "-p", "no:cov", "-o", "addopts=", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    (written,) = timing.glob("sqlite/*.json")
    doc = json.loads(written.read_text(encoding="utf-8"))
    assert doc["worker"] == "main" and doc["ended"] >= doc["started"]
    uses = next(t for n, t in doc["tests"].items() if n.endswith("test_uses_the_world"))
    assert uses["setup"] >= 0.2 and uses["call"] >= 0.1
    assert doc["fixtures"]["slow_world (function)"]["count"] == 1
    assert doc["fixtures"]["slow_world (function)"]["seconds"] >= 0.2

    script = REPO / "benchmarks" / "suite_breakdown.py"
    shown = subprocess.run(
        [sys.executable, str(script), str(timing / "sqlite"), "--top", "5"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    text = shown.stdout
    assert "| worker | tests | wall s | in tests s | rest s |" in text
    assert "| main | 2 |" in text
    assert re.search(r"`slow_world \(function\)` \| 1 \| (0\.[2-9]|[1-9])", text), text
    assert re.search(r"test_sample\.py::test_uses_the_world` \| (0\.[3-9]|[1-9])", text), text
    empty = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "nothing")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert empty.returncode == 1 and "no timing files" in empty.stderr
