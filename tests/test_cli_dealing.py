"""The ``bridgeko deal``, ``verify-deal``, ``analyse`` and ``showcase`` commands (R12.7)."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
from dataclasses import replace
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
        (["deal", "--seed", "xyz", "--event", "E", "--boards", "1-2"], "not a seed: 'xyz'"),
        (["deal", "--seed", "abc", "--event", "E", "--boards", "1-2"], "3 hex digits, an odd"),
        (["deal", "--seed", "abcd", "--event", "E", "--boards", "1-2"], "at least 16 bytes"),
        (["deal", "--seed", "ab" * 15, "--event", "E", "--boards", "1-2"], "this one has 15"),
        (["deal", "--seed", SEED, "--event", "E", "--boards", "5-2"], "empty board range '5-2'"),
        (["deal", "--seed", SEED, "--event", "E", "--boards", "0-3"], "start at 1, not 0"),
        (["deal", "--seed", SEED, "--event", "E", "--boards", "a-b"], "not a board range: 'a-b'"),
        (["deal", "--seed", SEED, "--event", "E", "--boards", "1-3,2"], "listed twice"),
        (["deal", "--seed", SEED, "--event", "E", "--boards", "1-2000000"], "at most 1,000,000"),
        (
            ["deal", "--seed", SEED, "--event", "E", "--boards", "1-100", "--format", "dlm"],
            "the DLM format holds boards 1 to 99, not '1-100'",
        ),
        (
            ["deal", "--seed", SEED, "--event", "E", "--boards", "998-1000", "--format", "dup"],
            "the DUP format holds boards 1 to 999",
        ),
        (["deal", "--seed", SEED, "--event", "E"], "missing --boards"),
        (["deal", "--event", "E", "--boards", "1"], "missing --seed (or --seed-file)"),
        (["deal", *SET, "--date", "1999-13-01"], "--date: there is no such day as '1999-13-01'"),
        (["deal", *SET, "--date", "4.6.1999"], "--date: not a date: '4.6.1999'"),
        (["deal", *SET, "-o", "/no/such/dir/out.pbn"], "cannot write /no/such/dir/out.pbn"),
        (["deal", *SET, "--format", "dup"], "give a file with -o FILE"),
        (["deal", "--seed-file", "/no/such/seed", *SET[2:]], "cannot read /no/such/seed"),
        (["verify-deal", *SET, "--commitment", "12"], "not a commitment"),
        (["verify-deal", *SET, "--commitment", COMMITMENT, "/no/such/file.pbn"], "cannot read"),
        (["analyse", "/no/such/file.pbn"], "cannot read /no/such/file.pbn"),
        (["analyse", "/"], "cannot read /: Is a directory"),
        (["analyse", __file__, "-o", "/no/such/dir/out.pbn"], "cannot write /no/such/dir/out.pbn"),
        (["analyse", __file__, "-o", "/"], "cannot write /: it is a directory"),
        (["analyse", __file__, "--encoding", "utf-8", "-o", __file__], "is the input file"),
    ],
)
def test_bad_input_is_a_clear_message_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("bridgeko: ") and message in err
    assert err.count("\n") == 1, err  # one line
    assert out == ""


def test_an_unwritable_output_is_refused_before_dealing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for target in (tmp_path, tmp_path / "missing" / "out.pbn"):
        code, out, err = run(capsys, "deal", *SET, "-o", str(target))
        assert code == 2 and out == ""
        assert err.startswith(f"bridgeko: cannot write {target}: ") and err.count("\n") == 1


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


# --- deal: Site, Date, output and summary ---------------------------------------------------


@pytest.mark.parametrize("given", ["1999.06.04", "1999-06-04"])
def test_deal_writes_site_and_date(capsys: pytest.CaptureFixture[str], given: str) -> None:
    code, out, _ = run(capsys, "deal", *SET, "--site", "Praha", "--date", given)
    games = pbn.parse(out).games
    assert code == 0 and len(games) == 16
    assert {(g.site, g.date) for g in games} == {("Praha", "1999.06.04")}
    assert '[Date "1999.06.04"]\r\n' in out


def test_deal_without_site_and_date_writes_question_marks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "deal", *SET)
    assert code == 0 and '[Site "?"]\r\n[Date "?"]\r\n' in out
    code, out, _ = run(capsys, "deal", *SET, "--date", "1999.??.??")
    assert code == 0 and '[Date "1999.??.??"]' in out


def test_deal_json_gives_site_and_date(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", *SET, "--json", "--site", "Brno", "--date", "1999.06.04")
    data = json.loads(out)
    assert code == 0 and (data["site"], data["date"]) == ("Brno", "1999.06.04")


def test_deal_stdout_is_only_the_data_and_the_summary_goes_to_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "deal", *SET)
    expected = deal_set(bytes.fromhex(SEED), EVENT, "QF-1", range(1, 17))
    assert code == 0 and out.startswith("% PBN 2.1\r\n% EXPORT\r\n{Dealt by bridgeko")
    assert {g.board: g.deal for g in pbn.parse(out).games} == expected
    assert err == f"dealt 16 boards (1-16) of {EVENT!r} session QF-1; commitment {COMMITMENT}\n"


def test_deal_summary_comes_after_the_data_on_a_shared_stream(tmp_path: Path) -> None:
    # stdout and stderr into one pipe, as in a terminal: the summary is the last line.
    argv = [sys.executable, "-m", "bridgeko.cli", "deal", *SET[:-1], "1-600"]
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=True)
    lines = done.stdout.decode("utf-8").split("\r\n")
    assert lines[0] == "% PBN 2.1" and lines[-2] == '[Result "?"]'
    assert lines[-1].startswith("dealt 600 boards (1-600) of") and lines[-1].endswith("\n")
    assert sum(line.startswith("dealt ") for line in lines) == 1


def test_a_long_set_streamed_in_chunks_is_the_text_of_the_whole_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "deal", *SET[:-1], "1-1100", "--site", "Praha")
    dealt = deal_set(bytes.fromhex(SEED), EVENT, "QF-1", range(1, 1101))
    games = [pbn.game_for_board(b, d, event=EVENT, site="Praha") for b, d in dealt.items()]
    note = (
        f"{{Dealt by bridgeko (bridgeko-deal-v1): event {EVENT!r}, session 'QF-1', boards "
        f"1-1100; seed commitment {COMMITMENT}}}"
    )
    games[0] = replace(games[0], comments=(note,))
    assert code == 0 and out == pbn.dumps(games)


def test_czech_names_are_written_in_utf8(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "set.pbn"
    argv = ["--seed", SEED, "--event", "Mistrovství ČR", "--boards", "1-2"]
    code, _, _ = run(capsys, "deal", *argv, "--site", "Plzeň", "-o", str(path))
    data = path.read_bytes()
    assert code == 0 and not data.startswith(b"\xef\xbb\xbf")
    assert '[Event "Mistrovství ČR"]\r\n[Site "Plzeň"]'.encode() in data
    code, out, _ = run(capsys, "deal", *argv)
    assert code == 0 and '[Event "Mistrovství ČR"]' in out


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-8", b""), ("utf-8", b"\xef\xbb\xbf"), ("cp1250", b""), ("latin-1", b"")],
)
def test_verify_reads_utf8_bom_cp1250_and_latin1_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, encoding: str, bom: bytes
) -> None:
    event = "Mistrovství ČR" if encoding != "latin-1" else "Coupe d'Été"
    argv = ["--seed", SEED, "--event", event, "--session", "F", "--boards", "1-4"]
    code, text, _ = run(capsys, "deal", *argv)
    path = tmp_path / "played.pbn"
    path.write_bytes(bom + text.encode(encoding))
    commitment = ["--commitment", COMMITMENT]
    code, out, _ = run(capsys, "verify-deal", *argv, *commitment, str(path))
    assert (code, out) == (0, "OK: the seed matches the commitment; 4 boards of the file match\n")
    if encoding != "utf-8":
        code, _, err = run(
            capsys, "verify-deal", *argv, *commitment, "--encoding", "utf-8", str(path)
        )
        assert code == 2 and "not utf-8" in err and "--encoding" in err


# --- analyse: input file, lenient reading, empty files ---------------------------------------


def _one_board_file(path: Path, extra: str = "") -> None:
    games = pbn.games_for_board(1, Deal.from_pbn(DDS_DEAL), event="Test")
    path.write_text(pbn.dumps(games) + extra, encoding="utf-8")


def test_analyse_refuses_to_overwrite_its_input_without_force(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "in.pbn"
    _one_board_file(src)
    before = src.read_bytes()
    for same in (str(src), str(tmp_path / "." / "in.pbn")):
        code, _, err = run(capsys, "analyse", str(src), "-o", same)
        assert code == 2 and err.count("\n") == 1
        assert "is the input file" in err and "--force" in err
        assert src.read_bytes() == before
    code, _, err = run(capsys, "analyse", str(src), "-o", str(src), "--force")
    assert code == 0 and f"to {src}" in err
    assert [g.par.score if g.par else None for g in pbn.parse(src.read_text("utf-8")).games] == [
        -110,
        -110,
    ]


def test_analyse_skips_a_bad_game_with_a_warning_naming_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "in.pbn"
    _one_board_file(src, '\r\n[Board "2"]\r\n[Deal "N:AK - - -"]\r\n')
    board_2 = src.read_bytes().decode("utf-8").split("\r\n").index('[Board "2"]') + 1
    code, out, err = run(capsys, "analyse", str(src))
    assert code == 0
    warnings = [line for line in err.splitlines() if "warning:" in line]
    assert warnings == [
        f"bridgeko: warning: {src}: line {board_2 + 1}: skipped the game starting on line "
        f"{board_2}: bad Deal 'N:AK - - -': not a hand: 'AK' (expected 4 suits separated by dots)"
    ]
    assert "1 game(s) skipped" in err.splitlines()[-1]
    assert [g.board for g in pbn.parse(out).games] == [1, 1]
    code, out, err = run(capsys, "analyse", str(src), "--strict")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"bridgeko: {src}: line {board_2 + 1}: bad Deal 'N:AK - - -'")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "nothing to analyse: no PBN game in it"),
        ("% just a comment line\n{and a comment}\n", "nothing to analyse: no PBN game in it"),
        ('[Board "1"]\n[Deal "N:AK - - -"]\n', "nothing to analyse: no game could be read"),
        ('[Event "x"]\n[Board "1"]\n', "no complete deal to analyse (none of its 1 game(s)"),
    ],
)
def test_analyse_a_file_with_nothing_to_analyse_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, message: str
) -> None:
    src = tmp_path / "empty.pbn"
    src.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "analyse", str(src))
    assert code == 2 and out == ""
    assert err.splitlines()[-1].startswith(f"bridgeko: {src}: {message}")


def test_analyse_reads_a_cp1250_file_and_writes_utf8(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = tmp_path / "in.pbn"
    games = pbn.games_for_board(1, Deal.from_pbn(DDS_DEAL), event="Mistrovství ČR")
    src.write_bytes(pbn.dumps(games).encode("cp1250"))
    out_file = tmp_path / "out.pbn"
    code, _, _ = run(capsys, "analyse", str(src), "-o", str(out_file))
    assert code == 0
    assert [g.event for g in pbn.parse(out_file.read_text(encoding="utf-8")).games] == [
        "Mistrovství ČR",
        "Mistrovství ČR",
    ]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stdout_is_a_terminal", "output", "shown"),
    [(False, False, True), (True, True, True), (True, False, False)],
)
def test_deal_shows_a_progress_bar_on_a_terminal_unless_the_data_goes_there_too(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    stdout_is_a_terminal: bool,
    output: bool,
    shown: bool,
) -> None:
    stderr = _Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    if stdout_is_a_terminal:
        monkeypatch.setattr(sys, "stdout", _Terminal())
    target = ["-o", str(tmp_path / "set.pbn")] if output else []
    assert main(["deal", *SET[:-1], "1-2000", *target]) == 0
    err = stderr.getvalue()
    assert ("dealing: 100%" in err and "2000/2000" in err) is shown
    assert err.splitlines()[-1].startswith("dealt 2000 boards")


def test_analyse_shows_a_progress_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    src = tmp_path / "in.pbn"
    _one_board_file(src)
    stderr = _Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    assert main(["analyse", str(src), "-o", str(tmp_path / "out.pbn")]) == 0
    err = stderr.getvalue()
    assert "double dummy: 100%" in err and "1/1" in err
    assert err.splitlines()[-1] == f"analysed 1 deal(s) in 2 game(s) to {tmp_path / 'out.pbn'}"
