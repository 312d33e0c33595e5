"""The commands that need no web application start light: they do not import Django, endplay
(DDS), numpy or tqdm, and ``bracket`` and ``verify-draw`` do not load the regulations' loader
(TOML, time zones) nor typing (not timed: ``benchmarks/bench_startup.py`` measures the time)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bridgeko.bridge import dealing, formats, pbn
from bridgeko.cli import common, deal
from bridgeko.competition import bracket, draw, regulations, scheme, sizes, stage

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
        ["bracket", "16"],
        ["analyse", "--help"],
        ["serve", "--help"],
    ],
    ids=" ".join,
)
def test_a_light_command_imports_no_django_endplay_numpy_or_tqdm(argv: list[str]) -> None:
    assert loaded(*argv) == []


# Runs bridgeko's main() with the arguments given, then prints its exit code and the modules loaded.
MODULES_PROBE = """
import sys
from bridgeko.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
names = sorted(sys.modules)
import json  # only now: whether the command imported json is part of the answer
print("LOADED=" + json.dumps([code, names]), file=sys.stderr)
"""

# What only loading regulations from a file (or a scheme from a file) needs.
LOADERS = {"bridgeko.competition.regulations", "tomllib", "zoneinfo", "pathlib"}


def modules(*argv: str) -> tuple[int, set[str]]:
    """The exit code of ``bridgeko ARGV`` and the modules it imported (run in a new process)."""
    done = subprocess.run(
        [sys.executable, "-c", MODULES_PROBE, *argv], capture_output=True, text=True, check=True
    )
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("LOADED="), done.stderr
    code, names = json.loads(line.removeprefix("LOADED="))
    return code, set(names)


def test_bracket_loads_neither_the_regulations_nor_toml_time_zones_paths_or_json() -> None:
    code, loaded = modules("bracket", "16", "--teams", "12")
    assert code == 0 and "bridgeko.competition.bracket" in loaded
    assert loaded & (LOADERS | {"json", "typing"}) == set()


def test_a_scheme_file_is_still_read_as_toml() -> None:
    path = Path(__file__).resolve().parents[1] / "editions" / "schemes" / "standard-8.toml"
    code, loaded = modules("bracket", "8", "--scheme", str(path))
    assert code == 0 and {"tomllib", "pathlib"} <= loaded


@dataclass(frozen=True)
class Team:
    id: int
    name: str
    elo: int


def test_verify_draw_loads_neither_the_regulations_nor_the_schemes(tmp_path: Path) -> None:
    seed = hashlib.sha256(b"bridgeko start-up test draw").digest()
    result = draw.hold_draw(
        [Team(k, f"Team {k}", 480 + 13 * k) for k in range(1, 11)],
        seed,
        commitment=draw.commitment(seed),
        drawn_at=datetime(1999, 3, 12, 17, 0, tzinfo=UTC),
        place="Praha",
        edition="Bridge Open K.O. 1999",
    )
    path = tmp_path / "draw.json"
    path.write_text(draw.protocol_json(result), encoding="utf-8")
    code, loaded = modules("verify-draw", str(path))
    assert code == 0 and "bridgeko.competition.draw_protocol" in loaded
    assert loaded & (LOADERS | {"bridgeko.competition.scheme", "typing"}) == set()


def test_the_names_moved_for_start_up_are_the_same_objects_where_they_were() -> None:
    assert regulations.Stage is stage.Stage and scheme.Stage is stage.Stage
    assert scheme.BracketError is sizes.BracketError is bracket.BracketError
    assert scheme.check_size is sizes.check_size and bracket.standard_byes is sizes.standard_byes
    assert scheme.TEAMS_DO_NOT_FIT == sizes.TEAMS_DO_NOT_FIT == bracket.TEAMS_DO_NOT_FIT
    assert scheme.SIZE_NOT_POWER_OF_TWO is sizes.SIZE_NOT_POWER_OF_TWO
    # The draw imports the regulations when it needs their defaults; their names stay reachable.
    assert draw.DrawRules is regulations.DrawRules and draw.Regulations is regulations.Regulations
    assert draw.EntryRules is regulations.EntryRules and "DrawRules" in dir(draw)


def test_the_draw_values_made_without_typing_behave_as_before() -> None:
    entry = draw.DrawEntry(7, "Seven", 512)
    assert entry == (7, "Seven", 512) and (entry.id, entry.name, entry.elo) == (7, "Seven", 512)
    assert draw.DrawEntry._fields == ("id", "name", "elo") and entry._replace(elo=1).elo == 1
    assert draw.DrawResult[Team].__origin__ is draw.DrawResult


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
    assert deal._BIGDEAL_LIMIT == formats.BIGDEAL_MAX_BOARD
