"""The commands that need no web application start light: they do not import Django, endplay
(DDS), numpy or tqdm (not timed: ``benchmarks/bench_startup.py`` measures the time)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bridgeko.bridge import dealing, formats, pbn
from bridgeko.cli import common, deal

HEAVY = ("django", "endplay", "numpy", "tqdm")
SEED = hashlib.sha256(b"bridgeko start-up test").hexdigest()

# Runs bridgeko's main() with the arguments given, then prints the heavy modules loaded.
PROBE = """
import json, sys
from bridgeko.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(HEAVY)))
print("LOADED=" + json.dumps(heavy), file=sys.stderr)
"""


def loaded(*argv: str) -> list[str]:
    """The heavy top-level packages imported by ``bridgeko ARGV`` (run in a new process)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE.replace("HEAVY", repr(json.dumps(HEAVY))), *argv],
        capture_output=True,
        text=True,
        check=True,
    )
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("LOADED="), done.stderr
    heavy: list[str] = json.loads(line.removeprefix("LOADED="))
    return heavy


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["score", "4S", "10"],
        ["imps", "420"],
        ["board-imps", "4S N =", "4S N -1", "--board", "3"],
        ["deal", "--commit"],
        ["deal", "--seed", SEED, "--event", "Open", "--boards", "1-16"],
        ["deal", "--seed", SEED, "--event", "Open", "--boards", "1-99", "--format", "dlm"],
        ["analyse", "--help"],
        ["serve", "--help"],
    ],
    ids=" ".join,
)
def test_a_light_command_imports_no_django_endplay_numpy_or_tqdm(argv: list[str]) -> None:
    assert loaded(*argv) == []


def test_a_seed_file_is_read_without_the_pbn_model(tmp_path: Path) -> None:
    path = tmp_path / "seed.txt"
    path.write_text(SEED + "\n", encoding="ascii")
    probe = (
        "import sys; from bridgeko.cli import common; "
        f"print(common.read_text({str(path)!r}, 'auto').strip()); "
        "print('bridgeko.bridge.pbn' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.split() == [SEED, "False"]
    assert common.read_text(str(path), "auto") == pbn.decode(path.read_bytes())


def test_the_parser_is_built_without_the_bridge_core() -> None:
    probe = (
        "import sys; from bridgeko.cli import build_parser; build_parser(); "
        "print(sorted(m for m in sys.modules if m.startswith(('bridgeko.bridge', "
        "'bridgeko.competition', 'typing'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "[]"


def test_a_long_set_is_dealt_with_numpy() -> None:
    argv = ["deal", "--seed", SEED, "--event", "Open", "--boards", f"1-{deal.SMALL}"]
    assert loaded(*argv) == ["numpy"]


def test_the_cli_copies_of_core_constants_agree_with_the_core() -> None:
    # Copied so that building the parser imports no bridge module.
    assert common.DECODINGS == pbn.DECODINGS
    assert common.ENCODING == pbn.ENCODING
    assert common.MAX_RANGE_BOARDS == dealing.MAX_RANGE_BOARDS
    assert deal._FORMAT_LIMITS == {"dup": formats.DUP_MAX_BOARD, "dlm": formats.DLM_MAX_BOARD}
