"""``bridgeko verify-draw`` and ``bridgeko bracket`` (I1, I8, R11.4)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bridgeko.cli import main
from bridgeko.competition.draw import commitment, hold_draw, protocol_json

SCHEMES = Path(__file__).resolve().parents[1] / "editions" / "schemes"


@dataclass(frozen=True)
class Team:
    id: int
    name: str
    elo: int


def _protocol(tmp_path: Path) -> Path:
    teams = [Team(k, f"Team {k}", 480 + 13 * k) for k in range(1, 11)]
    seed = bytes(range(100, 132))
    result = hold_draw(
        teams,
        seed,
        commitment=commitment(seed),
        drawn_at=datetime(1999, 3, 12, 18, 0, tzinfo=timezone(timedelta(hours=1))),
        place="Nové Město nad Metují",
        edition="Bridge Open K.O. 1999",
    )
    path = tmp_path / "draw.json"
    path.write_text(protocol_json(result), encoding="utf-8")
    return path


def test_I8_verify_draw_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify-draw", str(_protocol(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK: Bridge Open K.O. 1999: 10 teams, scheme for 16, 4 seeded;")


def test_I8_verify_draw_lists_mismatches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _protocol(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["numbering"]["5"], doc["numbering"]["8"] = doc["numbering"]["8"], doc["numbering"]["5"]
    doc["teams"][0]["elo"] = 900  # team 1 would now be seeded first
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify-draw", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("MISMATCH: ")
    assert "  - number 5: the protocol gives" in "\n".join(lines)
    assert "  - number 8: the protocol gives" in "\n".join(lines)
    assert any("has a higher Elo than a seeded team" in line for line in lines)


def test_R11_1_verify_draw_names_the_unseeded_number_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Team 1 (drawn number 10) raised to Elo 900: the number and the team each appear once."""
    path = _protocol(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["numbering"]["10"] == 1
    doc["teams"][0]["elo"] = 900
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify-draw", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == (
        "  - unseeded number 10: team 1 (Team 1, Elo 900) has a higher Elo than a seeded team "
        "(the lowest seeded Elo is 571) (R11.1)"
    )


def test_I8_verify_draw_bad_json_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": ', encoding="utf-8")
    assert main(["verify-draw", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bridgeko: ") and "is not valid JSON (line 1" in err
    assert main(["verify-draw", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    path.write_text('{"format": "other"}', encoding="utf-8")
    assert main(["verify-draw", str(path)]) == 2
    assert "not a draw protocol" in capsys.readouterr().err


def test_I1_bracket_prints_the_scheme(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bracket", "8"]) == 0
    out = capsys.readouterr().out
    assert "Round 1: quarterfinal" in out
    assert "  QF1     1 v 8\n  QF2     4 v 5\n  QF3     3 v 6\n  QF4     2 v 7\n" in out
    assert "  3RD     loser of SF1 v loser of SF2" in out


def test_R11_4_bracket_with_fewer_teams(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bracket", "16", "--teams", "12"]) == 0
    out = capsys.readouterr().out
    assert "12 teams, numbers 13-16 missing" in out
    assert "R1-M1   1 v (16 missing)  -> 1 advances without a match (R11.4)" in out
    assert "QF1     winner of R1-M1 [1] v winner of R1-M2" in out


def test_bracket_from_a_scheme_file(capsys: pytest.CaptureFixture[str]) -> None:
    path = SCHEMES / "example-12-seeds-enter-quarterfinal.toml"
    assert main(["bracket", "12", "--scheme", str(path)]) == 0
    assert "QF1     1 v winner of R1-M1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bracket", "12"], "power of two"),
        (["bracket", "16", "--teams", "17"], "--teams must be 1..16"),
        (["bracket", "8", "--scheme", "nowhere.toml"], "cannot read"),
    ],
)
def test_bracket_user_errors_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
