"""Results of a match from a PBN file (issue 10, item 3): a preview of every board and room next
to what is stored, the import through the one board service (versions, audit, the bracket) in
one transaction, differences refused unless replaced, files of a segment numbered from 1, tables
told apart by the Room tag, the teams or the players sitting North-South (R12.2), Windows-1250
files; the TD's upload page with its preview and confirmation."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.bridge import pbn
from bridgeko.bridge.cards import Deal
from bridgeko.bridge.result import BoardResult as TableResult
from bridgeko.core.errors import ServiceError
from bridgeko.entries.models import RosterEntry, Team
from bridgeko.matches import pbn_import, services
from bridgeko.matches.models import BoardResult, Match, MatchStatus
from bridgeko.players.models import Player
from tests.web.conftest import World
from tests.web.test_matches import PLAY

DATA = Path(__file__).resolve().parents[1] / "data" / "pbn"
HOME = ["Dvořák Jan", "Šťastný Petr", "Kříž Milan", "Nováková Eva"]
VISITORS = ["Černý Tomáš", "Řezníček Pavel", "Hlaváč Jiří", "Bílá Zuzana"]
DEAL = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


def sample(name: str) -> bytes:
    return (DATA / name).read_bytes()


def name_the_teams(world: World) -> Match:
    """The edition's first match to play, its teams called Kolín (home) and Žďár, with the
    players the sample files name."""
    found = Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY).first()
    assert found is not None
    for team_id, name, names in (
        (found.home_id, "Kolín", HOME),
        (found.visitors_id, "Žďár", VISITORS),
    ):
        Team.objects.filter(pk=team_id).update(name=name)
        entries = RosterEntry.objects.filter(team_id=team_id).order_by("position")
        for entry, player_name in zip(entries, names, strict=True):
            Player.objects.filter(pk=entry.player_id).update(name=player_name)
    return Match.objects.select_related("home", "visitors", "edition").get(pk=found.pk)


@pytest.fixture
def match(drawn: World) -> Match:
    return name_the_teams(drawn)


def result(text: str) -> TableResult:
    return services.parse_text(text)


def whole_match(open_text: str = "4S N =", closed_text: str = "4S N -1") -> bytes:
    """A file of all 32 boards, both rooms with Room tags (as bridgeko itself writes it)."""
    games = []
    for board in range(1, 33):
        games += pbn.games_for_board(
            board, DEAL, open_result=result(open_text), closed_result=result(closed_text)
        )
    return pbn.dumps(games).encode("utf-8")


def stored(match: Match) -> dict[tuple[int, str], str]:
    return {(r.board, r.room): r.text for r in BoardResult.objects.filter(match=match)}


# --- the service -----------------------------------------------------------------------------


def test_R12_3_whole_match_with_room_tags_is_imported_and_decides_the_match(
    drawn: World,
    match: Match,
) -> None:
    data = whole_match()
    preview = pbn_import.preview(match, data)
    assert len(preview.rows) == 64 and {r.status for r in preview.rows} == {"new"}
    assert preview.rows[0] == pbn_import.ImportRow(1, "open", "4S N =", None, "new")
    assert preview.rows[1].room == "closed" and preview.rows[1].new == "4S N -1"
    assert BoardResult.objects.filter(match=match).count() == 0  # the preview writes nothing
    done = pbn_import.import_results(match=match, data=data, user=drawn.users["td"], now=PLAY)
    assert done.count("new") == 64
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED and match.winner == "home"
    saved = AuditEntry.objects.filter(action="bridgeko.board.saved")
    assert saved.count() == 64 and all(e.after["source"] == "pbn" for e in saved)
    assert AuditEntry.objects.filter(action="bridgeko.results.imported").count() == 1
    again = pbn_import.import_results(match=match, data=data, user=drawn.users["td"], now=PLAY)
    assert again.count("same") == 64 and saved.count() == 64  # nothing written twice


def test_R12_6_segment_file_without_rooms_told_apart_by_the_players_windows_1250(
    drawn: World,
    match: Match,
) -> None:
    data = sample("scoring-segment-no-room-cp1250.pbn")
    assert "Dvořák".encode("cp1250") in data
    preview = pbn_import.preview(match, data, segment=2)
    assert preview.problems == ()
    boards = sorted({r.board for r in preview.rows})
    assert boards == list(range(17, 33))  # numbered 1-16 in the file: moved into segment 2
    rows = {(r.board, r.room): r.new for r in preview.rows}
    # the players Dvořák-Šťastný (home) sit North-South at the open room's table
    assert rows[(17, "open")] == "4S N =" and rows[(17, "closed")] == "2D W ="
    assert rows[(25, "open")] == "P"  # board 9 of the file, passed out
    pbn_import.import_results(match=match, data=data, user=drawn.users["td"], now=PLAY, segment=2)
    assert len(stored(match)) == 32 and stored(match)[(25, "open")] == "P"


def test_R12_1_segment_file_numbered_in_the_segment_is_taken_as_it_is(
    drawn: World,
    match: Match,
) -> None:
    data = sample("composer-hometeam.pbn")
    preview = pbn_import.preview(match, data, segment=2)
    assert sorted({r.board for r in preview.rows}) == [17, 18, 19, 20]
    assert pbn_import.preview(match, data).rows == preview.rows


def test_R12_2_home_team_tag_names_the_team_sitting_north_south(
    drawn: World,
    match: Match,
) -> None:
    preview = pbn_import.preview(match, sample("composer-hometeam.pbn"))
    games = pbn.parse(pbn.decode(sample("composer-hometeam.pbn"))).games
    open_17 = next(g for g in games if g.board == 17 and g["HomeTeam"] == "Kolín")
    closed_17 = next(g for g in games if g.board == 17 and g["HomeTeam"] == "Žďár")
    rows = {(r.board, r.room): r.new for r in preview.rows}
    assert rows[(17, "open")] == services.normalised(open_17.result)  # type: ignore[arg-type]
    assert rows[(17, "closed")] == services.normalised(closed_17.result)  # type: ignore[arg-type]


def test_vugraph_file_with_room_tags_and_a_missing_result(
    drawn: World,
    match: Match,
) -> None:
    preview = pbn_import.preview(match, sample("bbo-vugraph-rooms.pbn"))
    assert len(preview.rows) == 7
    assert preview.problems == ("Board 4, closed room (line 120): no result in the file; skipped.",)


def test_PBN_3_10_an_end_position_in_the_file_is_skipped_with_a_clear_problem(
    drawn: World,
    match: Match,
) -> None:
    ending = (
        '[Board "2"]\n[Room "Closed"]\n[Dealer "E"]\n[Deal "N:A... K... Q... J..."]\n'
        '[Declarer "S"]\n[Contract "NT"]\n[Result "1"]\n'
    )
    games = pbn.games_for_board(1, DEAL, open_result=result("4S N ="))
    data = (pbn.dumps(games) + "\r\n" + ending).encode("utf-8")
    preview = pbn_import.preview(match, data)
    assert [(r.board, r.room, r.new) for r in preview.rows] == [(1, "open", "4S N =")]
    line = pbn.dumps(games).count("\r\n") + 2
    assert preview.problems[-1] == (
        f"Board 2, closed room (line {line}): an end position (fewer than 13 cards in every "
        "hand), not a board played; skipped."
    )
    assert "Board 1, closed room" in preview.problems[0]  # no result: the board's other room


def test_table_tag_tells_the_rooms_apart(drawn: World, match: Match) -> None:
    games = []
    for table, text in (("2", "3NT S -1"), ("1", "3NT S =")):
        game = pbn.game_for_board(5, DEAL, result=result(text)).with_tag("Table", table)
        games.append(game)
    preview = pbn_import.preview(match, pbn.dumps(games).encode())
    assert [(r.board, r.room, r.new) for r in preview.rows] == [
        (5, "open", "3NT S ="),
        (5, "closed", "3NT S -1"),
    ]


def test_rooms_that_cannot_be_told_apart_are_a_problem(
    drawn: World,
    match: Match,
) -> None:
    games = [pbn.game_for_board(5, DEAL, result=result(t)) for t in ("3NT S -1", "3NT S =")]
    games.append(pbn.game_for_board(6, DEAL, room="Open", result=result("2H E =")))
    preview = pbn_import.preview(match, pbn.dumps(games).encode())
    assert [(r.board, r.room) for r in preview.rows] == [(6, "open")]
    assert len(preview.problems) == 1 and "Board 5: cannot tell" in preview.problems[0]


def test_R12_3_differences_are_refused_then_replaced(
    drawn: World,
    match: Match,
) -> None:
    td = drawn.users["td"]
    services.save_board(
        match=match, board=3, room="open", text="4H S =", version=0, user=td, now=PLAY
    )
    services.save_board(
        match=match, board=1, room="open", text="4S N =", version=0, user=td, now=PLAY
    )
    data = whole_match()
    preview = pbn_import.preview(match, data)
    assert [(r.board, r.room, r.old, r.new) for r in preview.differences] == [
        (3, "open", "4H S =", "4S N =")
    ]
    assert next(r for r in preview.rows if r.board == 1 and r.room == "open").status == "same"
    with pytest.raises(ServiceError) as refused:
        pbn_import.import_results(match=match, data=data, user=td, now=PLAY)
    assert "nothing was imported" in refused.value.message
    assert refused.value.errors == ("Board 3, open room: stored “4H S =”, the file has “4S N =”.",)
    assert stored(match) == {(1, "open"): "4S N =", (3, "open"): "4H S ="}  # nothing written
    done = pbn_import.import_results(match=match, data=data, user=td, now=PLAY, replace=True)
    assert (done.count("new"), done.count("same"), done.count("different")) == (62, 1, 1)
    assert stored(match)[(3, "open")] == "4S N =" and len(stored(match)) == 64
    assert BoardResult.objects.get(match=match, board=3, room="open").version == 2


def test_a_board_refused_by_the_service_refuses_the_whole_file(
    drawn: World,
    match: Match,
) -> None:
    td = drawn.users["td"]
    services.set_segment_totals(
        segment=match.segments.get(number=2), home_imps=10, visitors_imps=3, user=td, now=PLAY
    )
    with pytest.raises(ServiceError) as refused:
        pbn_import.import_results(match=match, data=whole_match(), user=td, now=PLAY)
    assert "nothing was imported" in refused.value.message
    assert len(refused.value.errors) == 32
    assert refused.value.errors[0].startswith("Board 17, open room: Segment 2 is entered as totals")
    assert stored(match) == {}  # boards 1-16 were fine, but nothing is half-written


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\x00\x01 not a PBN file", "The file holds no game of a PBN file"),
        (b'[Board "1"]\n[Deal "N:AK - - -"]\n', "The file holds no game of a PBN file"),
        (
            b'[Board "40"]\n[Room "Open"]\n[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n',
            "The file holds no result of a board of match",
        ),
    ],
)
def test_broken_file_is_refused_with_a_clear_message_and_nothing_saved(
    drawn: World,
    match: Match,
    data: bytes,
    expected: str,
) -> None:
    with pytest.raises(ServiceError) as refused:
        pbn_import.import_results(match=match, data=data, user=drawn.users["td"], now=PLAY)
    assert refused.value.message.startswith(expected)
    assert refused.value.errors  # one line per problem
    assert not BoardResult.objects.filter(match=match).exists()
    assert not AuditEntry.objects.filter(action__startswith="bridgeko.board").exists()


def test_segment_the_match_has_not_is_refused(drawn: World, match: Match) -> None:
    with pytest.raises(ServiceError) as refused:
        pbn_import.preview(match, whole_match(), segment=5)
    assert refused.value.field == "segment" and "no segment 5" in refused.value.message


def test_too_large_a_file_is_refused(drawn: World, match: Match) -> None:
    with pytest.raises(ServiceError, match="too large"):
        pbn_import.preview(match, b" " * (pbn_import.MAX_FILE_SIZE + 1))


# --- the TD's page ---------------------------------------------------------------------------


def url(match: Match) -> str:
    return reverse(
        "matches:import_pbn", kwargs={"edition": match.edition.slug, "match": match.code}
    )


def test_import_page_previews_then_imports_on_confirmation(
    drawn: World,
    match: Match,
) -> None:
    client = drawn.client("td")
    page = client.get(url(match))
    assert page.status_code == 200 and b'type="file"' in page.content
    data = sample("scoring-segment-no-room-cp1250.pbn")
    shown = client.post(
        url(match),
        {"file": SimpleUploadedFile("kolo1.pbn", data), "segment": "2"},
    )
    assert shown.status_code == 200
    text = shown.content.decode()
    assert "4S N =" in text and 'name="pbn"' in text and "Import 32 results" in text
    assert not BoardResult.objects.filter(match=match).exists()  # the preview wrote nothing
    done = client.post(
        url(match),
        {"pbn": base64.b64encode(data).decode(), "segment": "2", "confirm": "1"},
    )
    assert done.status_code == 302
    assert len(stored(match)) == 32
    follow = client.get(done["Location"])
    assert follow.status_code == 200


def test_import_page_asks_to_replace_differences(
    drawn: World,
    match: Match,
) -> None:
    td = drawn.users["td"]
    services.save_board(
        match=match, board=3, room="open", text="4H S =", version=0, user=td, now=PLAY
    )
    client = drawn.client("td")
    data = whole_match()
    shown = client.post(url(match), {"file": SimpleUploadedFile("match.pbn", data)})
    text = shown.content.decode()
    assert 'class="different"' in text and 'name="replace"' in text
    encoded = base64.b64encode(data).decode()
    refused = client.post(url(match), {"pbn": encoded, "confirm": "1"})
    assert refused.status_code == 200 and "Tick this to replace" in refused.content.decode()
    assert 'class="different"' in refused.content.decode()  # the preview shown again
    assert stored(match) == {(3, "open"): "4H S ="}
    done = client.post(url(match), {"pbn": encoded, "confirm": "1", "replace": "on"})
    assert done.status_code == 302 and stored(match)[(3, "open")] == "4S N ="


def test_import_page_shows_a_broken_file_and_saves_nothing(
    drawn: World,
    match: Match,
) -> None:
    client = drawn.client("organiser")
    shown = client.post(url(match), {"file": SimpleUploadedFile("x.pbn", b"garbage")})
    assert shown.status_code == 200
    assert "The file holds no game of a PBN file" in shown.content.decode()
    tampered = client.post(url(match), {"pbn": "!!not base64!!", "confirm": "1"})
    assert tampered.status_code == 200 and not BoardResult.objects.filter(match=match).exists()


@pytest.mark.parametrize(("who", "status"), [("captain", 403), ("appeals", 403), ("public", 403)])
def test_import_page_is_for_tds_and_organisers_only(
    drawn: World,
    match: Match,
    who: str,
    status: int,
) -> None:
    client = drawn.client(who)
    assert client.get(url(match)).status_code == status
    sent = client.post(
        url(match), {"pbn": base64.b64encode(whole_match()).decode(), "confirm": "1"}
    )
    assert sent.status_code == status and not BoardResult.objects.filter(match=match).exists()


def test_R12_1_whole_match_file_given_with_a_segment_imports_that_segment_only(
    drawn: World,
    match: Match,
) -> None:
    preview = pbn_import.preview(match, whole_match(), segment=2)
    assert sorted({r.board for r in preview.rows}) == list(range(17, 33))
    assert len(preview.problems) == 16 and preview.problems[0].startswith("Board 1: segment 2")


def test_a_game_without_a_room_takes_the_room_its_board_has_left(
    drawn: World,
    match: Match,
) -> None:
    games = [
        pbn.game_for_board(5, DEAL, room="Closed", result=result("3NT S -1")),
        pbn.game_for_board(5, DEAL, result=result("3NT S =")),
    ]
    preview = pbn_import.preview(match, pbn.dumps(games).encode())
    assert [(r.room, r.new) for r in preview.rows] == [("open", "3NT S ="), ("closed", "3NT S -1")]


def test_chief_td_imports_too(drawn: World, match: Match) -> None:
    from bridgeko.accounts.models import Role, RoleAssignment
    from tests.web.conftest import make_user

    chief = make_user("chief")
    RoleAssignment.objects.create(user=chief, edition=drawn.edition, role=Role.CHIEF_TD)
    drawn.users["chief"] = chief
    client = drawn.client("chief")
    assert client.get(url(match)).status_code == 200
    sent = client.post(
        url(match), {"pbn": base64.b64encode(whole_match()).decode(), "confirm": "1"}
    )
    assert sent.status_code == 302 and len(stored(match)) == 64
    entry = AuditEntry.objects.get(action="bridgeko.results.imported")
    assert entry.user == chief and entry.after["new"] == 64
