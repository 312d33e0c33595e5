"""Results of a match from a real LIN file (issue 20): BBO vugraph team matches — both rooms,
the result each auction and play (or claim) gives, the auctions and plays stored with the
results; rooms swapped when BBO's first team is the match's visitors; the same preview, all or
nothing and differences as for PBN; ``bridgeko import-results`` and the import page take LIN."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.bridge import lin
from bridgeko.cli import main
from bridgeko.core.errors import ServiceError
from bridgeko.entries.models import Team
from bridgeko.matches import file_import, lin_import, services
from bridgeko.matches.models import BoardResult, Match
from tests.web.conftest import World
from tests.web.test_matches import PLAY
from tests.web.test_pbn_import import name_the_teams

DATA = Path(__file__).resolve().parents[1] / "data" / "lin"
USBF = DATA / "usbf-2010-sf-segment4.lin"
DUTCH = DATA / "dutch-teams-2005-final2.lin"


@pytest.fixture
def match(drawn: World) -> Match:
    return name_the_teams(drawn)


def rows(match: Match) -> dict[tuple[int, str], BoardResult]:
    return {(r.board, r.room): r for r in BoardResult.objects.filter(match=match)}


def stated(path: Path) -> dict[tuple[int, str], str]:
    """(the file's board, room) -> the result the file's own rs| list states."""
    parsed = lin.parse(lin.decode(path.read_bytes()))
    return {
        (b.number, b.room or ""): services.normalised(lin.parse_result(b.stated))  # type: ignore[arg-type]
        for b in parsed.boards
        if b.stated
    }


def test_R12_2_vugraph_segment_imports_both_rooms_with_auctions_and_plays(
    drawn: World, match: Match
) -> None:
    data = USBF.read_bytes()
    assert file_import.kind(data) == "lin"
    preview = file_import.preview(match, data, segment=1)
    assert len(preview.rows) == 30  # boards 46-60 of the file, both rooms, as boards 1-15
    assert any("is this another match's file?" in p for p in preview.problems)
    done = file_import.import_results(
        match=match, data=data, user=drawn.users["td"], now=PLAY, segment=1
    )
    assert done.count("new") == 30
    stored = rows(match)
    for (board, room), text in stated(USBF).items():
        assert stored[(board - 45, room)].text == text  # as BBO's rs| list says
    first = stored[(1, "open")]
    assert first.auction.split()[0] == "1H"  # mb|1H| is the first call of board 46, open room
    assert len(first.play.split()) >= 1 and all(len(c) == 2 for c in first.play.split())
    saved = AuditEntry.objects.filter(action="bridgeko.board.saved")
    assert saved.count() == 30 and {e.after["source"] for e in saved} == {"lin"}
    entry = AuditEntry.objects.get(action="bridgeko.results.imported")
    assert entry.after["source"] == "lin" and len(entry.after["auctions_and_plays"]) == 30
    again = file_import.import_results(
        match=match, data=data, user=drawn.users["td"], now=PLAY, segment=1
    )
    assert again.count("same") == 30
    assert AuditEntry.objects.filter(action="bridgeko.results.imported").count() == 1


def test_R12_2_rooms_swapped_when_bbos_first_team_is_the_visitors(
    drawn: World, match: Match
) -> None:
    Team.objects.filter(pk=match.visitors_id).update(name="Modalfa")  # vg|...,Modalfa,...,Crash
    match = Match.objects.select_related("home", "visitors", "edition").get(pk=match.pk)
    preview = lin_import.preview(match, DUTCH.read_bytes())
    new = {(r.board, r.room): r.new for r in preview.rows}
    for (board, room), text in stated(DUTCH).items():
        assert new[(board, "closed" if room == "open" else "open")] == text
    assert not any("another match's file" in p for p in preview.problems)


def test_a_result_changed_by_hand_drops_the_files_auction(drawn: World, match: Match) -> None:
    lin_import.import_results(match=match, data=DUTCH.read_bytes(), user=None, now=PLAY)
    row = rows(match)[(1, "open")]
    auction = row.auction
    assert auction and row.play
    services.save_board(
        match=match, board=1, room="open", text="7NT S -7", version=row.version, user=None, now=PLAY
    )
    row.refresh_from_db()
    assert (row.text, row.auction, row.play) == ("7NT S -7", "", "")
    changed = AuditEntry.objects.filter(action="bridgeko.board.saved").order_by("pk").last()
    assert changed is not None and changed.before["auction"] == auction  # kept for an undo


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ((DATA / "deal-convert-deals-only.lin").read_bytes(), "no result of a board"),
        (b"qx|o1|md|1SAKQJT98765432,HAKQJT98765432,,|mb|1S|mb|1C|", "no board of a LIN file"),
        (USBF.read_bytes()[:700], "no board of a LIN file"),  # cut off in its first board
    ],
)
def test_a_lin_file_without_results_of_the_match_is_refused(
    drawn: World, match: Match, data: bytes, problem: str
) -> None:
    with pytest.raises(ServiceError, match=problem) as refused:
        lin_import.import_results(match=match, data=data, user=None, now=PLAY)
    assert refused.value.message
    assert not BoardResult.objects.filter(match=match).exists()


def test_a_lin_file_cut_mid_board_says_which_board(drawn: World, match: Match) -> None:
    data = DUTCH.read_bytes()
    cut = data[: data.index(b"qx|c16|") + 200]
    preview = lin_import.preview(match, cut)
    assert any("16" in p and "cut off" in p for p in preview.problems)
    assert (16, "closed") not in {(r.board, r.room) for r in preview.rows}


def test_import_results_command_takes_a_lin_file(
    drawn: World, match: Match, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import-results", "--edition", "ko-1999", "--match", match.code, str(DUTCH)]
    assert main(argv) == 0
    out, _err = capsys.readouterr()
    assert out.startswith(f"{match.code}: 32 new, 0 the same as stored, 0 replaced")
    assert len(rows(match)) == 32


def test_import_page_takes_a_lin_file(drawn: World, match: Match) -> None:
    url = reverse("matches:import_pbn", kwargs={"edition": match.edition.slug, "match": match.code})
    client = drawn.client("td")
    data = DUTCH.read_bytes()
    shown = client.post(url, {"file": SimpleUploadedFile("final2.lin", data)})
    assert "Import 32 results" in shown.content.decode()
    done = client.post(url, {"pbn": base64.b64encode(data).decode(), "confirm": "1"})
    assert done.status_code == 302 and len(rows(match)) == 32
