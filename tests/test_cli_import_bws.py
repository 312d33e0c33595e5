"""``bridgeko import-bws`` and ``bridgeko follow`` end to end (issue 20): a match's results from
a real Bridgemate file through the same services as the TD's page; following the file while a
segment is played until it is over; exit code 2 and one line per problem on an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgeko.cli import bridgemate_cmds, main
from bridgeko.matches import bws_import
from bridgeko.matches.models import BoardResult, BridgemateTables, Match, Segment
from tests.web.conftest import World, drawn, toml_1999, world  # noqa: F401 (the fixtures)
from tests.web.test_matches import PLAY
from tests.web.test_pbn_import import name_the_teams

REAL = Path(__file__).resolve().parent / "data" / "bws" / "LBC-2026-01-26.bws"


@pytest.fixture
def match(drawn: World) -> Match:  # noqa: F811
    return name_the_teams(drawn)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def stored(match: Match) -> dict[tuple[int, str], str]:
    return {(r.board, r.room): r.text for r in BoardResult.objects.filter(match=match)}


def args(match: Match, *extra: str) -> list[str]:
    return ["import-bws", "--edition", "ko-1999", "--match", match.code, *extra]


def test_import_bws_stores_the_two_tables_and_remembers_them(
    capsys: pytest.CaptureFixture[str], match: Match
) -> None:
    code, out, err = run(
        capsys, *args(match, "--open", "1", "--closed", "2", "--segment", "1", str(REAL))
    )
    assert code == 0
    summary = "32 new, 0 the same as stored, 0 replaced; 13 not imported (listed above)."
    assert out == f"{match.code}: {summary}\n"
    assert "Board 17: segment 1 has boards 1–16" in err and "is on the roster" in err
    assert len(stored(match)) == 32 and stored(match)[(1, "open")] == "4S N +2"
    row = BridgemateTables.objects.get(match=match)
    assert (row.open_table, row.closed_table, row.segment) == (1, 2, 1)
    code, out, _err = run(
        capsys, *args(match, "--open", "1", "--closed", "2", "--segment", "1", str(REAL))
    )
    assert code == 0 and out.startswith(f"{match.code}: 0 new, 32 the same as stored")


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        (("--open", "1", "--closed", "1"), "cannot be the same table"),
        (("--open", "1", "--closed", "2", "--section", "B"), "no section 'B'"),
        (("--open", "1", "--closed", "2", "missing.bws"), "cannot read missing.bws"),
        (("--open", "1", "--closed", "2", "--follow", "0"), "more than 0"),
    ],
)
def test_import_bws_refuses_with_one_line_per_problem(
    capsys: pytest.CaptureFixture[str], match: Match, extra: tuple[str, ...], problem: str
) -> None:
    files = [] if any(e.endswith(".bws") for e in extra) else [str(REAL)]
    code, out, err = run(capsys, *args(match, *extra, *files))
    assert code == 2 and out == ""
    assert err.startswith("bridgeko: ") and problem in err
    assert not BoardResult.objects.filter(match=match).exists()


def test_import_bws_refuses_a_file_that_is_not_one(
    capsys: pytest.CaptureFixture[str], match: Match, tmp_path: Path
) -> None:
    bad = tmp_path / "results.bws"
    bad.write_text('[Board "1"]\n' * 300)
    code, _out, err = run(capsys, *args(match, "--open", "1", "--closed", "2", str(bad)))
    assert code == 2 and "not a Bridgemate file" in err


def test_import_bws_follow_reads_until_the_segment_is_over(
    capsys: pytest.CaptureFixture[str],
    match: Match,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "QF.bws"
    path.write_bytes(REAL.read_bytes()[:300_000])  # BCS writing it when the follower starts
    waits: list[float] = []

    def sleep(seconds: float) -> None:  # what happens at the tables between two reads
        waits.append(seconds)
        if len(waits) == 1:
            path.write_bytes(REAL.read_bytes())
        else:
            Segment.objects.filter(match=match, number=1).update(closed_at=PLAY)

    monkeypatch.setattr(bridgemate_cmds, "sleep", sleep)
    code, out, err = run(
        capsys,
        *args(match, "--open", "1", "--closed", "2", "--segment", "1", "--follow", "2", str(path)),
    )
    assert code == 0 and waits == [2.0, 2.0]
    lines = out.splitlines()
    assert lines[0] == f"{match.code}: following {path} every 2 s until segment 1 is over"
    assert f"{match.code} board 1, open room: 4S N +2" in lines
    assert lines[-1] == f"{match.code}: segment 1 is over; 32 results stored while following."
    assert "not read this time: The file cannot be read" in err
    assert len(stored(match)) == 32


def test_follow_reads_the_files_switched_on_in_the_pages(
    capsys: pytest.CaptureFixture[str], match: Match, tmp_path: Path
) -> None:
    path = tmp_path / "QF.bws"
    path.write_bytes(REAL.read_bytes())
    bws_import.remember(
        match=match,
        tables=bws_import.Tables(1, 2),
        segment=2,
        user=None,
        now=PLAY,
        path=str(path),
        follow=True,
    )
    code, out, _err = run(capsys, "follow", "--once")
    assert code == 0
    assert out.splitlines()[0].startswith("following the Bridgemate files switched on")
    assert f"{match.code} board 17 open: " in out
    assert len(stored(match)) == 22  # boards 17-27 of the file, both rooms
    code, _out, err = run(capsys, "follow", "--every", "0")
    assert code == 2 and "more than 0" in err
