"""The ``bridgeko deal``, ``verify-deal``, ``analyse`` and ``showcase`` commands (R12.7)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bridgeko.bridge import pbn
from bridgeko.bridge.cards import Deal, Seat, Strain
from bridgeko.bridge.dealing import deal_set
from bridgeko.cli import main

SEED = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
COMMITMENT = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
EVENT = "Bridge Open K.O."
SET = ["--seed", SEED, "--event", EVENT, "--session", "QF-1", "--boards", "1-16"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", ["deal", "verify-deal", "analyse", "showcase"])
def test_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    assert "usage: bridgeko " + command in capsys.readouterr().out


# --- deal --commit ---------------------------------------------------------------------------


def test_commit_prints_a_seed_and_its_commitment(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--commit")
    assert code == 0
    seed_line, commit_line = out.splitlines()
    seed = seed_line.split()[-1]
    assert "keep secret" in seed_line and "publish" in commit_line
    assert commit_line.split()[-1] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def test_commit_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "--commit", "--json")
    data = json.loads(out)
    assert code == 0
    assert len(bytes.fromhex(data["seed"])) == 32
    assert data["commitment"] == hashlib.sha256(bytes.fromhex(data["seed"])).hexdigest()
    assert data["method"] == "bridgeko-deal-v1"


def test_commit_writes_the_seed_to_a_private_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "seed.hex"
    code, out, _ = run(capsys, "deal", "--commit", "-o", str(path))
    assert code == 0
    seed = path.read_text(encoding="ascii").strip()
    assert seed not in out  # the secret is not shown
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() in out
    assert path.stat().st_mode & 0o777 == 0o600
    code, _, err = run(capsys, "deal", "--commit", "-o", str(path))
    assert code == 2 and "never overwritten" in err
    assert path.read_text(encoding="ascii").strip() == seed


def test_seed_file_deals_as_the_seed_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "seed.hex"
    path.write_text(SEED + "\n", encoding="ascii")
    rest = ["--event", EVENT, "--session", "QF-1", "--boards", "1-16"]
    by_file = run(capsys, "deal", "--seed-file", str(path), *rest)
    by_hex = run(capsys, "deal", "--seed", SEED, *rest)
    assert by_file[0] == 0 and by_file[1] == by_hex[1]
    code, out, _ = run(
        capsys, "verify-deal", "--seed-file", str(path), *rest, "--commitment", COMMITMENT
    )
    assert code == 0 and out.startswith("OK")


def test_commit_with_a_seed_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "deal", "--commit", "--seed", SEED)
    assert code == 2 and "--commit" in err


# --- deal and verify-deal --------------------------------------------------------------------


def test_R12_7_deal_then_verify_round_trip(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "qf1.pbn"
    code, _, err = run(capsys, "deal", *SET, "--format", "pbn", "-o", str(out_file))
    assert code == 0 and COMMITMENT in err
    games = pbn.parse(out_file.read_text(encoding="utf-8")).games
    expected = deal_set(bytes.fromhex(SEED), EVENT, "QF-1", range(1, 17))
    assert {g.board: g.deal for g in games} == expected
    assert all(g.event == EVENT for g in games)
    assert COMMITMENT in games[0].comments[0] and "'QF-1'" in games[0].comments[0]

    code, out, _ = run(capsys, "verify-deal", *SET, "--commitment", COMMITMENT, str(out_file))
    assert (code, out) == (0, "OK: the seed matches the commitment; 16 boards of the file match\n")


def test_R12_7_verify_names_a_changed_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    deals = deal_set(bytes.fromhex(SEED), EVENT, "QF-1", range(1, 17))
    deals[7] = Deal.from_pbn(deals[8].to_pbn())  # board 7 replaced
    del deals[12]  # board 12 missing
    played = tmp_path / "played.pbn"
    played.write_text(
        pbn.dumps(pbn.game_for_board(b, d, event=EVENT) for b, d in deals.items()),
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "verify-deal", *SET, "--commitment", COMMITMENT, str(played))
    assert code == 1
    assert out.splitlines() == [
        "MISMATCH: board 7: the deal differs from the one dealt by the seed",
        "MISMATCH: board 12: not in the file",
    ]
    code, out, _ = run(
        capsys, "verify-deal", *SET, "--commitment", COMMITMENT, str(played), "--json"
    )
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["commitment_ok"] is True
    assert [m["board"] for m in data["mismatches"]] == [7, 12]


def test_R12_7_verify_refuses_a_forged_seed(capsys: pytest.CaptureFixture[str]) -> None:
    forged = SEED[:-2] + "00"
    argv = ["--seed", forged, "--event", EVENT, "--boards", "1-16"]
    code, out, _ = run(capsys, "verify-deal", *argv, "--commitment", COMMITMENT)
    assert code == 1
    assert "MISMATCH: the seed does not match the commitment" in out


def test_verify_without_a_file_checks_the_commitment(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify-deal", *SET, "--commitment", COMMITMENT.upper())
    assert code == 0 and out.startswith("OK")


def test_dup_and_dlm_round_trips(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for fmt in ("dup", "dlm"):
        path = tmp_path / f"set.{fmt}"
        assert run(capsys, "deal", *SET, "--format", fmt, "-o", str(path))[0] == 0
        code, out, _ = run(capsys, "verify-deal", *SET, "--commitment", COMMITMENT, str(path))
        assert code == 0, out


def test_dlm_goes_to_stdout_and_dup_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", *SET, "--format", "dlm")
    assert code == 0 and out.startswith("[Document]")
    code, _, err = run(capsys, "deal", *SET, "--format", "dup")
    assert code == 2 and "-o FILE" in err


def test_deal_json_lists_the_deals_and_the_commitment(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", *SET, "--json")
    data = json.loads(out)
    expected = deal_set(bytes.fromhex(SEED), EVENT, "QF-1", range(1, 17))
    assert code == 0
    assert data["commitment"] == COMMITMENT and "seed" not in data
    assert {int(b): Deal.from_pbn(d) for b, d in data["deals"].items()} == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deal", "--seed", "xyz", "--event", "E", "--boards", "1-2"], "not a seed"),
        (["deal", "--seed", "abcd", "--event", "E", "--boards", "1-2"], "at least 16 bytes"),
        (["deal", "--seed", SEED, "--event", "E", "--boards", "5-2"], "'5-2'"),
        (["deal", "--seed", SEED, "--event", "E"], "missing --boards"),
        (["verify-deal", *SET, "--commitment", "12"], "not a commitment"),
        (["verify-deal", *SET, "--commitment", COMMITMENT, "/no/such/file.pbn"], "cannot read"),
        (["analyse", "/no/such/file.pbn"], "cannot read"),
    ],
)
def test_bad_input_is_a_clear_message_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("bridgeko: ") and message in err
    assert "Traceback" not in err


def test_a_broken_pbn_file_is_a_clear_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:AK - - -"]\n', encoding="utf-8")
    code, _, err = run(capsys, "verify-deal", *SET, "--commitment", COMMITMENT, str(bad))
    assert code == 2 and "line 2" in err


# --- analyse ---------------------------------------------------------------------------------

# A deal of the DDS distribution (examples/hands.cpp) with its published double-dummy table and
# par (dealer N, none vulnerable: 2S by EW, NS -110).
DDS_DEAL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
DDS_TABLE = {
    "N": {"S": 5, "H": 6, "D": 5, "C": 7, "NT": 6},
    "E": {"S": 8, "H": 6, "D": 7, "C": 5, "NT": 6},
    "S": {"S": 5, "H": 6, "D": 5, "C": 7, "NT": 6},
    "W": {"S": 8, "H": 6, "D": 7, "C": 5, "NT": 6},
}


def test_analyse_writes_tables_and_par(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "in.pbn"
    games = pbn.games_for_board(1, Deal.from_pbn(DDS_DEAL), event="Test")  # two rooms
    src.write_text(pbn.dumps(games), encoding="utf-8")
    out_file = tmp_path / "out.pbn"
    code, _, _ = run(capsys, "analyse", str(src), "-o", str(out_file))
    assert code == 0
    written = pbn.parse(out_file.read_text(encoding="utf-8")).games
    assert [g.room for g in written] == ["Open", "Closed"]
    for game in written:
        table = game.dd_table
        assert table is not None
        assert {s.value: {t.value: table[s, t] for t in Strain} for s in Seat} == DDS_TABLE
        assert game.par is not None and game.par.score == -110
        assert game["ParContract"] == "EW 2S"

    code, out, _ = run(capsys, "analyse", str(src), "--json")
    records = json.loads(out)
    assert code == 0 and len(records) == 2
    assert records[0]["dd"] == DDS_TABLE
    assert records[0]["par"] == {"score_ns": -110, "contracts": ["EW 2S"]}


def test_analyse_a_file_without_deals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = tmp_path / "empty.pbn"
    src.write_text('[Event "x"]\n[Board "1"]\n', encoding="utf-8")
    code, _, err = run(capsys, "analyse", str(src))
    assert code == 2 and "no complete deal" in err


# --- showcase --------------------------------------------------------------------------------


@pytest.mark.slow
def test_showcase_runs_the_tour(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "showcase")
    assert code == 0
    assert "commitment" in out and "par" in out and "IMPs" in out
    assert "bridgeko verify-deal --seed" in out
    lines = out.splitlines()
    table = [ln for ln in lines if ln[:9].strip().isdigit()]
    assert len(table) == 16
