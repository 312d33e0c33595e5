"""The ``bridgeko score``, ``imps`` and ``board-imps`` commands, called through the CLI's main()."""

from __future__ import annotations

import json

import pytest

from bridgeko.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- score ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "printed"),
    [
        (["score", "4SX", "8", "--vulnerable"], "-500"),
        (["score", "4S", "10"], "420"),
        (["score", "3nt", "9", "-v"], "600"),
        (["score", "7NTXX", "13", "--vulnerable"], "2980"),
        (["score", "Pass"], "0"),
        (["score", "Pass", "7"], "0"),
    ],
)
def test_score_prints_the_score(
    capsys: pytest.CaptureFixture[str], argv: list[str], printed: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (0, printed + "\n", "")


def test_score_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "4SX", "8", "--vulnerable", "--json")
    assert code == 0
    assert json.loads(out) == {"contract": "4SX", "tricks": 8, "vulnerable": True, "score": -500}


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["score", "8S", "10"], "level must be 1 to 7"),
        (["score", "4Z", "10"], "strain"),
        (["score", "4S"], "give the tricks"),
        (["score", "4S", "14"], "0 to 13, not 14"),
        (["score", "4S", "ten"], "whole number"),
    ],
)
def test_score_bad_input_exits_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    try:
        code, out, err = run(capsys, *argv)
    except SystemExit as exc:  # argparse rejects bad argument types itself
        code = int(exc.code or 0)
        out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert words in err
    assert "Traceback" not in err


# --- imps ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "printed"),
    [
        (["imps", "620"], "12"),
        (["imps", "-620"], "-12"),
        (["imps", "0"], "0"),
        (["imps", "15"], "0"),
        (["imps", "4000"], "24"),
        (["imps", "420", "-50"], "10"),
        (["imps", "-100", "620"], "-12"),
    ],
)
def test_imps_prints_the_imps(
    capsys: pytest.CaptureFixture[str], argv: list[str], printed: str
) -> None:
    assert run(capsys, *argv) == (0, printed + "\n", "")


def test_imps_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "imps", "420", "-50", "--json")
    assert code == 0
    assert json.loads(out) == {"difference": 470, "imps": 10}


def test_imps_bad_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["imps", "lots"])
    assert info.value.code == 2
    assert "whole number" in capsys.readouterr().err


# --- board-imps ----------------------------------------------------------------------------------


def test_R12_2_board_imps_home_team_is_ns_in_open_room(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "board-imps", "4S N =", "4S N -1", "--board", "3", "--json")
    assert code == 0
    assert json.loads(out) == {
        "board": 3,
        "dealer": "S",
        "vulnerability": "EW",
        "open_room": "4S N =",
        "closed_room": "4S N -1",
        "open_ns": 420,
        "closed_ns": -50,
        "difference": 470,
        "imps": 10,
        "home_imps": 10,
        "away_imps": 0,
    }


def test_board_imps_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "board-imps", "3NT N =", "4S E =", "--vulnerability", "All")
    assert code == 0
    assert "+600" in out and "-620" in out and "+1220" in out
    assert out.strip().endswith("IMPs: 15 to the home team")


def test_board_imps_visitors_gain(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "board-imps", "4S N -1", "4S N =", "--board", "1")
    assert code == 0
    assert out.strip().endswith("IMPs: 10 to the visiting team")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["board-imps", "4S Q =", "4S N -1", "--board", "3"], "open room: not a result"),
        (["board-imps", "4S N =", "4S N +4", "--board", "3"], "closed room: not a result"),
    ],
)
def test_board_imps_bad_result_names_the_room(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert words in err


@pytest.mark.parametrize(
    "argv",
    [
        ["board-imps", "4S N =", "4S N -1"],
        ["board-imps", "4S N =", "4S N -1", "--board", "0"],
        ["board-imps", "4S N =", "4S N -1", "--vulnerability", "NE"],
        ["board-imps", "4S N =", "4S N -1", "--board", "3", "--vulnerability", "All"],
    ],
)
def test_board_imps_needs_one_valid_board_or_vulnerability(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2


# --- help ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "words"),
    [("score", "Law 77"), ("imps", "Law 78B"), ("board-imps", "R12.2")],
)
def test_help(capsys: pytest.CaptureFixture[str], command: str, words: str) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert f"usage: bridgeko {command}" in out
    assert words in out
    assert "--json" in out
