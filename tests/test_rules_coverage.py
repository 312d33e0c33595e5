"""docs/rules-coverage.md lists every clause of the regulations, and every test it names exists."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REGULATIONS = REPO.parent / "shared" / "regulations" / "regulations-en.md"
COVERAGE = REPO / "docs" / "rules-coverage.md"

# The clause IDs of regulations-en.md (R1.1 ... R16.5, I1 ... I17), written out so that this test
# does not depend on the shared folder being present.
CLAUSES = (
    ["R1.1", "R1.2", "R1.3", "R2.1", "R3.1", "R3.2", "R4.1", "R5.1"]
    + [f"R6.{i}" for i in range(1, 6)]
    + [f"R7.{i}" for i in range(1, 4)]
    + ["R8.1", "R9.1", "R9.2", "R10.1", "R10.2"]
    + [f"R11.{i}" for i in range(1, 7)]
    + [f"R12.{i}" for i in range(1, 10)]
    + ["R13.1", "R13.2"]
    + [f"R14.{i}" for i in range(1, 4)]
    + [f"R15.{i}" for i in range(1, 4)]
    + [f"R16.{i}" for i in range(1, 6)]
    + [f"I{i}" for i in range(1, 18)]
)


def _rows() -> set[str]:
    return set(re.findall(r"^\| (R\d+\.\d+|I\d+) \|", COVERAGE.read_text("utf-8"), re.M))


def test_every_clause_has_a_row() -> None:
    assert set(CLAUSES) <= _rows(), sorted(set(CLAUSES) - _rows())


def test_clause_list_matches_the_regulations_when_present() -> None:
    if not REGULATIONS.exists():  # the shared folder beside the repository
        return
    text = REGULATIONS.read_text("utf-8")
    ids = set(re.findall(r"^- (R\d+\.\d+|I\d+) ", text, re.M))
    assert ids == set(CLAUSES)


def test_every_named_test_exists() -> None:
    named = set(re.findall(r"`(test_\w+)`", COVERAGE.read_text("utf-8")))
    source = "\n".join(p.read_text("utf-8") for p in (REPO / "tests").rglob("*.py"))
    defined = set(re.findall(r"def (test_\w+)", source))
    assert named, "the coverage table names no test"
    assert named <= defined, sorted(named - defined)
