"""``bridgeko import-results`` end to end (issue 10, item 3): a match's results from a PBN file
through the same service as the TD's page; a summary on success, one line per problem on stderr
and exit code 2 on an error, nothing stored then."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridgeko.bridge import pbn
from bridgeko.bridge.cards import Deal
from bridgeko.cli import main
from bridgeko.matches import services
from bridgeko.matches.models import BoardResult, Match
from tests.web.conftest import World, drawn, toml_1999, world  # noqa: F401 (the fixtures)
from tests.web.test_pbn_import import name_the_teams

DATA = Path(__file__).resolve().parent / "data" / "pbn"
REGULATIONS = Path(__file__).resolve().parents[1] / "editions" / "bridge-open-ko-1999.toml"
DEAL = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


@pytest.fixture
def match(drawn: World) -> Match:  # noqa: F811
    """The 1999 edition, 13 teams entered, the draw held; its first match to play, its teams
    and players named as the sample files name them."""
    return name_the_teams(drawn)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def stored(match: Match) -> dict[tuple[int, str], str]:
    return {(r.board, r.room): r.text for r in BoardResult.objects.filter(match=match)}


def test_import_results_of_a_segment_file_prints_the_summary(
    capsys: pytest.CaptureFixture[str], match: Match
) -> None:
    path = DATA / "scoring-segment-no-room-cp1250.pbn"
    code, out, err = run(
        capsys,
        "import-results",
        "--edition",
        "ko-1999",
        "--match",
        match.code,
        "--segment",
        "2",
        "--user",
        "td",
        str(path),
    )
    assert (code, err) == (0, "")
    assert out == f"{match.code}: 32 new, 0 the same as stored, 0 replaced.\n"
    assert len(stored(match)) == 32 and stored(match)[(25, "open")] == "P"
    assert BoardResult.objects.filter(match=match, entered_by__username="td").count() == 32


def test_import_results_lists_what_it_skipped_on_stderr(
    capsys: pytest.CaptureFixture[str], match: Match
) -> None:
    path = DATA / "bbo-vugraph-rooms.pbn"
    code, out, err = run(
        capsys, "import-results", "--edition", "ko-1999", "--match", match.code, str(path)
    )
    assert code == 0
    summary = "7 new, 0 the same as stored, 0 replaced; 1 not imported (listed above)"
    assert out == f"{match.code}: {summary}.\n"
    assert err == "Board 4, closed room (line 120): no result in the file; skipped.\n"


def test_import_results_refuses_differences_then_replaces_them(
    capsys: pytest.CaptureFixture[str], match: Match, tmp_path: Path
) -> None:
    services.save_board(
        match=match, board=3, room="open", text="4H S =", version=0, user=None, now=_now()
    )
    games = []
    for board in (3, 4):
        games += pbn.games_for_board(
            board,
            DEAL,
            open_result=services.parse_text("4S N ="),
            closed_result=services.parse_text("4S N -1"),
        )
    path = tmp_path / "match.pbn"
    path.write_text(pbn.dumps(games), encoding="utf-8")
    argv = ["import-results", "--edition", "ko-1999", "--match", match.code, str(path)]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "bridgeko: The file differs from 1 stored result; nothing was imported. "
        "Confirm that it is to be replaced.",
        "Board 3, open room: stored “4H S =”, the file has “4S N =”.",
        "run again with --replace to store the file's results instead",
    ]
    assert stored(match) == {(3, "open"): "4H S ="}
    code, out, err = run(capsys, *argv, "--replace")
    assert (code, err) == (0, "")
    assert out == f"{match.code}: 3 new, 0 the same as stored, 1 replaced.\n"
    assert stored(match)[(3, "open")] == "4S N =" and len(stored(match)) == 4


def test_import_results_of_a_broken_file_exits_2_and_stores_nothing(
    capsys: pytest.CaptureFixture[str], match: Match, tmp_path: Path
) -> None:
    path = tmp_path / "broken.pbn"
    path.write_bytes(b'[Board "1"]\n[Deal "N:AK - - -"]\n')
    code, out, err = run(
        capsys, "import-results", "--edition", "ko-1999", "--match", match.code, str(path)
    )
    assert (code, out) == (2, "")
    lines = err.splitlines()
    assert lines[0] == "bridgeko: The file holds no game of a PBN file; nothing can be imported."
    assert lines[1].startswith("line 2: skipped the game starting on line 1: bad Deal")
    assert stored(match) == {}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--edition", "nope", "--match", "R1-M1"], "bridgeko: no edition 'nope'"),
        (
            ["--edition", "ko-1999", "--match", "X9"],
            "bridgeko: edition 'ko-1999' has no match 'X9'",
        ),
        (["--edition", "ko-1999", "--match", "R1-M2", "--user", "ghost"], "bridgeko: no account"),
        (
            ["--edition", "ko-1999", "--match", "R1-M2", "--segment", "7"],
            "bridgeko: Match R1-M2 has no segment 7.",
        ),
    ],
)
def test_import_results_names_a_wrong_argument(
    capsys: pytest.CaptureFixture[str], match: Match, argv: list[str], message: str
) -> None:
    path = DATA / "bbo-vugraph-rooms.pbn"
    code, out, err = run(capsys, "import-results", *argv, str(path))
    assert (code, out) == (2, "") and err.startswith(message)
    code, out, err = run(
        capsys, "import-results", "--edition", "ko-1999", "--match", "R1-M2", "missing.pbn"
    )
    assert code == 2 and err.startswith("bridgeko: cannot read missing.pbn")


def _now() -> Any:
    from datetime import UTC, datetime

    return datetime(1999, 4, 10, 9, 0, tzinfo=UTC)
