"""Results of a match from a Bridgemate file (issue 20): the TD maps two tables of the file to
the match's rooms; the last record of each table and board counts (a correction is a later
record, an erased one takes the result back); preview, all or nothing, differences confirmed;
following the file while a segment is played.

The real file (``tests/data/bws/LBC-2026-01-26.bws``, a club session: every table played boards
1-27) stands for the event room's file; what BCS writes during a session (a correction, an
erasure, a file caught mid-write) is given by files of records made here (:func:`fake`), read by
the importer through the same code as a real file's records."""

from __future__ import annotations

import pickle
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bridgeko.audit.models import AuditEntry
from bridgeko.bridge import bws
from bridgeko.core.errors import ServiceError
from bridgeko.entries.models import RosterEntry
from bridgeko.matches import bws_follow, bws_import, services
from bridgeko.matches.bws_import import Tables
from bridgeko.matches.models import BoardResult, BridgemateTables, Match, Segment
from bridgeko.players.models import Player
from tests.web.conftest import World
from tests.web.test_matches import PLAY
from tests.web.test_pbn_import import name_the_teams

REAL = Path(__file__).resolve().parents[1] / "data" / "bws" / "LBC-2026-01-26.bws"


@pytest.fixture
def match(drawn: World) -> Match:
    return name_the_teams(drawn)


@pytest.fixture(scope="module")
def real() -> bytes:
    return REAL.read_bytes()


def stored(match: Match) -> dict[tuple[int, str], str]:
    return {(r.board, r.room): r.text for r in BoardResult.objects.filter(match=match)}


def record(ident: int, table: int, board: int, text: str, **extra: Any) -> bws.BwsRecord:
    """A record as BCS writes it: ``text`` is ``"4 S N +1"`` (contract, seat, result)."""
    *contract, seat, result = text.split() if text != "PASS" else ("PASS", "", "")
    values: dict[str, Any] = {
        "id": ident, "section": 1, "table": table, "round": 1, "board": board,
        "pair_ns": table, "pair_ew": table, "seat": seat, "contract": " ".join(contract),
        "result": result, "lead": "", "remarks": "", "erased": False, "logged": None,
    }  # fmt: skip
    values.update(extra)
    return bws.BwsRecord(**values)


FAKE = b"Standard Jet DB fake: "


def fake(*records: bws.BwsRecord, players: tuple[bws.BwsPlayer, ...] = ()) -> bytes:
    file = bws.BwsFile(
        sections={1: "A"}, records=records, players=players, bids=(), cards=(), problems=()
    )
    return FAKE + pickle.dumps(file)


@pytest.fixture
def fakes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The importer reads the files of :func:`fake` as it reads a real file's records."""
    real_read = bws.read

    def read(data: bytes) -> bws.BwsFile:
        if data.startswith(FAKE):
            loaded: bws.BwsFile = pickle.loads(data[len(FAKE) :])
            return loaded
        return real_read(data)

    monkeypatch.setattr(bws, "read", read)


# --- the real file -----------------------------------------------------------------------------


def test_R12_3_two_tables_of_a_real_bcs_file_are_the_match_rooms(
    drawn: World, match: Match, real: bytes
) -> None:
    preview = bws_import.preview(match, real, Tables(open=1, closed=2))
    assert len(preview.rows) == 54  # boards 1-27 in both rooms
    rows = {(r.board, r.room): r.new for r in preview.rows}
    # mdb-export: table 1 board 1 "4 S" by N "+2"; table 2 board 1 (record 248) "4 D" by S "+2"
    assert rows[(1, "open")] == "4S N +2" and rows[(1, "closed")] == "4D S +2"
    assert not BoardResult.objects.filter(match=match).exists()  # the preview writes nothing
    done = bws_import.import_results(
        match=match, data=real, tables=Tables(open=1, closed=2), user=drawn.users["td"], now=PLAY
    )
    assert done.count("new") == 54 and len(stored(match)) == 54
    saved = AuditEntry.objects.filter(action="bridgeko.board.saved")
    assert saved.count() == 54 and {e.after["source"] for e in saved} == {"bws"}
    entry = AuditEntry.objects.get(action="bridgeko.results.imported")
    assert entry.after["source"] == "bws" and entry.after["open_table"] == 1
    assert len(entry.after["rows"]) == 54  # enough to undo it: each board's old and new
    # the same file again changes nothing
    again = bws_import.import_results(
        match=match, data=real, tables=Tables(open=1, closed=2), user=drawn.users["td"], now=PLAY
    )
    assert again.count("same") == 54 and saved.count() == 54
    assert AuditEntry.objects.filter(action="bridgeko.results.imported").count() == 1


def test_R12_1_a_segment_takes_its_boards_and_lists_the_others(
    drawn: World, match: Match, real: bytes
) -> None:
    preview = bws_import.preview(match, real, Tables(open=3, closed=4, section="A"), segment=2)
    assert sorted({r.board for r in preview.rows}) == list(range(17, 28))
    assert len(preview.problems) == 16 + 2  # boards 1-16 skipped; a warning per table
    assert any("Board 1: segment 2 has boards 17–32" in p for p in preview.problems)


def test_a_board_not_played_at_the_table_is_listed_and_skipped(
    drawn: World, match: Match, real: bytes
) -> None:
    preview = bws_import.preview(match, real, Tables(open=7, closed=8))
    assert (10, "open") not in {(r.board, r.room) for r in preview.rows}
    assert any(
        "Board 10, open room (table 7, record 243): no contract (BCS: “Not played”)" in p
        for p in preview.problems
    )


def test_players_of_neither_team_at_the_tables_are_a_warning(
    drawn: World, match: Match, real: bytes
) -> None:
    warnings = [p for p in bws_import.preview(match, real, Tables(1, 2)).problems if "roster" in p]
    assert len(warnings) == 2 and "is this another match's file?" in warnings[0]
    # table 1's North (ACBL 8502978 in the file) is a player of the home team
    entry = RosterEntry.objects.filter(team_id=match.home_id).first()
    assert entry is not None
    Player.objects.filter(pk=entry.player_id).update(federation_id="8502978")
    warnings = [p for p in bws_import.preview(match, real, Tables(1, 2)).problems if "roster" in p]
    assert len(warnings) == 1 and "Table 2" in warnings[0]


@pytest.mark.parametrize(
    ("tables", "problem"),
    [
        (Tables(1, 1), "cannot be the same table"),
        (Tables(1, 2, section="C"), "no section 'C' (it has A (1))"),
        (Tables(41, 42), "Tables 41 and 42 have sent no result"),
    ],
)
def test_tables_the_file_cannot_give_are_refused(
    drawn: World, match: Match, real: bytes, tables: Tables, problem: str
) -> None:
    with pytest.raises(ServiceError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        bws_import.preview(match, real, tables)
    with pytest.raises(ServiceError):
        bws_import.import_results(match=match, data=real, tables=tables, user=None, now=PLAY)
    assert not BoardResult.objects.filter(match=match).exists()


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b'%PBN 2.1\n[Board "1"]\n' * 200, "not a Bridgemate file"),
        (REAL.read_bytes()[:400_000], "truncated"),
    ],
)
def test_a_file_that_is_no_bridgemate_file_is_refused(
    drawn: World, match: Match, data: bytes, problem: str
) -> None:
    with pytest.raises(ServiceError, match=problem) as refused:
        bws_import.import_results(match=match, data=data, tables=Tables(1, 2), user=None, now=PLAY)
    assert refused.value.message.startswith("The file cannot be read")
    assert not BoardResult.objects.filter(match=match).exists()


# --- corrections and erasures (files of records made here) ------------------------------------


@pytest.mark.usefixtures("fakes")
def test_bws_correction_at_the_table_is_a_change_to_confirm(drawn: World, match: Match) -> None:
    td = drawn.users["td"]
    first = fake(record(1, 1, 1, "4 S N ="), record(2, 2, 1, "4 S N -1"))
    bws_import.import_results(match=match, data=first, tables=Tables(1, 2), user=td, now=PLAY)
    corrected = fake(
        record(1, 1, 1, "4 S N ="),
        record(2, 2, 1, "4 S N -1"),
        record(3, 1, 1, "4 S N +1"),  # corrected at table 1
        record(4, 2, 1, "4 S N -1", erased=True),  # erased at table 2
    )
    preview = bws_import.preview(match, corrected, Tables(1, 2))
    assert [(r.board, r.room, r.old, r.new) for r in preview.differences] == [
        (1, "open", "4S N =", "4S N +1"),
        (1, "closed", "4S N -1", ""),
    ]
    with pytest.raises(ServiceError) as refused:
        bws_import.import_results(
            match=match, data=corrected, tables=Tables(1, 2), user=td, now=PLAY
        )
    assert refused.value.errors == (
        "Board 1, open room: stored “4S N =”, the file has “4S N +1”.",
        "Board 1, closed room: stored “4S N -1”, the file has it erased.",
    )
    assert stored(match) == {(1, "open"): "4S N =", (1, "closed"): "4S N -1"}
    bws_import.import_results(
        match=match, data=corrected, tables=Tables(1, 2), user=td, now=PLAY, replace=True
    )
    assert stored(match) == {(1, "open"): "4S N +1"}


@pytest.mark.usefixtures("fakes")
def test_bws_result_the_laws_do_not_allow_refuses_the_file_naming_the_record(
    drawn: World, match: Match
) -> None:
    data = fake(
        record(1, 1, 1, "4 S N ="), record(9, 2, 1, "4 S N +4"), record(10, 2, 2, "8 H E =")
    )
    with pytest.raises(ServiceError) as refused:
        bws_import.import_results(match=match, data=data, tables=Tables(1, 2), user=None, now=PLAY)
    assert "the Laws do not allow" in refused.value.message
    assert len(refused.value.errors) == 2
    assert "record 9 (table 2, board 1)" in refused.value.errors[0]
    assert "tricks taken must be 0 to 13" in refused.value.errors[0]
    assert not BoardResult.objects.filter(match=match).exists()


# --- following the file ----------------------------------------------------------------------


def step(match: Match, data: bytes, seen: dict[str, int], **kw: Any) -> bws_import.FollowStep:
    match.refresh_from_db()
    return bws_import.follow_step(
        match=match,
        data=data,
        tables=Tables(1, 2),
        segment=1,
        seen=seen,
        user=None,
        now=PLAY,
        **kw,
    )


@pytest.mark.usefixtures("fakes")
def test_bws_follow_stores_each_result_as_it_arrives_and_stops_with_the_segment(
    drawn: World, match: Match
) -> None:
    td = drawn.users["td"]
    services.save_board(
        match=match, board=5, room="open", text="3NT S =", version=0, user=td, now=PLAY
    )
    records = [record(1, 1, 1, "4 S N ="), record(2, 1, 5, "3 NT S +1")]
    first = step(match, fake(*records), {})
    assert [(r.board, r.room, r.new) for r in first.stored] == [(1, "open", "4S N =")]
    # the TD's own result of board 5 differs from the table's: left and reported once
    assert [(r.board, r.old, r.new) for r in first.left] == [(5, "3NT S =", "3NT S +1")]
    assert stored(match)[(5, "open")] == "3NT S ="
    # BCS writing the file at that moment: nothing stored, nothing lost
    broken = step(match, b"Standard Jet DB" + b"\x00" * 10, first.seen, reported=first.reported)
    assert broken.error.startswith("The file cannot be read") and broken.stored == ()
    records += [record(3, 2, 1, "4 S N -1"), record(4, 1, 1, "4 S N +1")]  # closed; corrected
    second = step(match, fake(*records), broken.seen, reported=broken.reported)
    assert sorted((r.board, r.room, r.new) for r in second.stored) == [
        (1, "closed", "4S N -1"),
        (1, "open", "4S N +1"),
    ]
    assert second.left == () and not second.finished
    # the same file again: nothing to do
    again = step(match, fake(*records), second.seen, reported=second.reported)
    assert again.stored == () and again.left == () and again.problems == ()
    # the segment is closed: the last read, then the follower stops
    Segment.objects.filter(match=match, number=1).update(closed_at=PLAY + timedelta(hours=2))
    records.append(record(5, 2, 2, "PASS"))
    last = step(match, fake(*records), again.seen, reported=again.reported)
    assert last.finished and [(r.board, r.new) for r in last.stored] == [(2, "P")]
    assert stored(match) == {
        (1, "open"): "4S N +1",
        (1, "closed"): "4S N -1",
        (2, "closed"): "P",
        (5, "open"): "3NT S =",
    }


def test_bws_follower_of_the_server_reads_the_switched_on_files(
    drawn: World, match: Match, real: bytes, tmp_path: Path
) -> None:
    td = drawn.users["td"]
    path = tmp_path / "QF.bws"
    path.write_bytes(real)
    with pytest.raises(ServiceError, match="path of the file"):
        bws_import.remember(
            match=match, tables=Tables(1, 2), segment=1, user=td, now=PLAY, follow=True
        )
    row = bws_import.remember(
        match=match, tables=Tables(1, 2), segment=1, user=td, now=PLAY, path=str(path), follow=True
    )
    assert AuditEntry.objects.filter(action="bridgeko.bridgemate.tables").count() == 1
    # the same choice again is no change
    bws_import.remember(match=match, tables=Tables(1, 2), segment=1, user=td, now=PLAY)
    assert AuditEntry.objects.filter(action="bridgeko.bridgemate.tables").count() == 1
    lines = list(bws_follow.read_all(PLAY))
    assert sum(" board " in line for line in lines) == 32  # boards 1-16, both rooms
    row.refresh_from_db()
    assert row.follow and row.read_at == PLAY and row.stored_at == PLAY and len(row.seen) == 32
    # the file is gone for a moment: said on the page, nothing lost
    path.unlink()
    assert any("cannot read" in line for line in bws_follow.read_all(PLAY))
    row.refresh_from_db()
    assert row.problem.startswith("cannot read") and row.follow
    path.write_bytes(real)
    Segment.objects.filter(match=match, number=1).update(closed_at=PLAY)
    lines = list(bws_follow.read_all(PLAY))
    assert lines[-1].endswith("the segment is over; no longer followed")
    row.refresh_from_db()
    assert not row.follow and row.problem == ""
    assert AuditEntry.objects.filter(action="bridgeko.bridgemate.finished").count() == 1
    assert list(bws_follow.read_all(PLAY)) == []
    assert BridgemateTables.objects.count() == 1 and len(stored(match)) == 32


# --- the TD's page -----------------------------------------------------------------------------


def url(match: Match) -> str:
    from django.urls import reverse

    return reverse(
        "matches:import_bws", kwargs={"edition": match.edition.slug, "match": match.code}
    )


def test_bws_page_previews_then_imports_on_confirmation(
    drawn: World, match: Match, real: bytes
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = drawn.client("td")
    page = client.get(url(match))
    assert page.status_code == 200 and b'type="file"' in page.content
    detail = client.get(f"/e/{match.edition.slug}/matches/{match.code}/")
    assert url(match).encode() in detail.content  # linked from the TD's match page
    shown = client.post(
        url(match),
        {"file": SimpleUploadedFile("QF.bws", real), "open_table": "1", "closed_table": "2",
         "segment": "1", "section": "A"},
    )  # fmt: skip
    assert shown.status_code == 200
    text = shown.content.decode()
    assert "4S N +2" in text and "Import 32 results" in text and 'name="upload"' in text
    assert "Board 17: segment 1 has boards 1–16" in text
    assert not BoardResult.objects.filter(match=match).exists()  # the preview wrote nothing
    kept = BridgemateTables.objects.get(match=match)  # the choice of tables is remembered
    assert (kept.section, kept.open_table, kept.closed_table, kept.segment) == ("A", 1, 2, 1)
    token = text.split('name="upload" value="')[1].split('"')[0]
    done = client.post(
        url(match),
        {"upload": token, "open_table": "1", "closed_table": "2", "segment": "1",
         "section": "A", "confirm": "1"},
    )  # fmt: skip
    assert done.status_code == 302 and len(stored(match)) == 32
    after = client.get(done["Location"])
    assert "Imported 32 results from the file" in after.content.decode()
    assert 'value="A"' in after.content.decode()  # the form offers the remembered tables
    again = client.post(
        url(match),
        {"upload": token, "open_table": "1", "closed_table": "2", "segment": "1", "confirm": "1"},
    )
    assert "no longer on the server" in again.content.decode()  # removed after the import


@pytest.mark.usefixtures("fakes")
def test_bws_page_asks_to_replace_a_result_erased_at_the_table(drawn: World, match: Match) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    td = drawn.users["td"]
    services.save_board(
        match=match, board=1, room="open", text="4S N =", version=0, user=td, now=PLAY
    )
    data = fake(record(1, 1, 1, "4 S N =", erased=True), record(2, 2, 1, "3 NT S ="))
    client = drawn.client("td")
    shown = client.post(
        url(match),
        {"file": SimpleUploadedFile("x.bws", data), "open_table": "1", "closed_table": "2"},
    )
    text = shown.content.decode()
    assert "erased at the table" in text and 'name="replace"' in text
    token = text.split('name="upload" value="')[1].split('"')[0]
    form = {"upload": token, "open_table": "1", "closed_table": "2", "confirm": "1"}
    refused = client.post(url(match), form)
    assert "Tick this to replace" in refused.content.decode()
    assert stored(match) == {(1, "open"): "4S N ="}
    done = client.post(url(match), form | {"replace": "on"})
    assert done.status_code == 302 and stored(match) == {(1, "closed"): "3NT S ="}


def test_bws_page_refuses_a_bad_file_and_saves_nothing(drawn: World, match: Match) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = drawn.client("td")
    shown = client.post(
        url(match),
        {
            "file": SimpleUploadedFile("x.bws", b"\x00" * 5000),
            "open_table": "1",
            "closed_table": "1",
        },
    )
    text = shown.content.decode()
    assert shown.status_code == 200 and "not a Bridgemate file" in text
    shown = client.post(
        url(match),
        {
            "file": SimpleUploadedFile("x.bws", REAL.read_bytes()),
            "open_table": "3",
            "closed_table": "3",
        },
    )
    assert "cannot be the same table" in shown.content.decode()
    assert not BoardResult.objects.filter(match=match).exists()
    assert not BridgemateTables.objects.exists()


def test_bws_page_switches_the_following_on_and_shows_the_follower(
    drawn: World, match: Match, real: bytes, tmp_path: Path
) -> None:
    client = drawn.client("td")
    form = {"path": str(tmp_path / "missing.bws"), "open_table": "1", "closed_table": "2",
            "segment": "1", "follow": "on"}  # fmt: skip
    refused = client.post(url(match), form)
    assert "The server cannot find a file at" in refused.content.decode()
    path = tmp_path / "QF.bws"
    path.write_bytes(real)
    done = client.post(url(match), form | {"path": str(path)})
    assert done.status_code == 302
    row = BridgemateTables.objects.get(match=match)
    assert row.follow and row.path == str(path)
    page = client.get(url(match)).content.decode()
    assert "is bridgeko follow running?" in page
    list(bws_follow.read_all(PLAY))
    page = client.get(url(match)).content.decode()
    assert "is bridgeko follow running?" not in page and str(path) in page
    client.post(url(match), form | {"path": str(path), "follow": ""})
    row.refresh_from_db()
    assert not row.follow


def test_bws_page_is_for_tds_only(drawn: World, match: Match) -> None:
    assert drawn.client("td").get(url(match)).status_code == 200
    for who in ("captain", "public"):
        response = drawn.client(who).get(url(match))
        assert response.status_code in (302, 403)
    assert drawn.client("anonymous").get(url(match)).status_code == 302
