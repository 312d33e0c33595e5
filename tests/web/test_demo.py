"""``make demo`` (``python -m bridgeko.demo``) with BRIDGEKO_DEMO_NO_SERVE=1 in a fresh data
directory: 13 teams, the draw held and its protocol verified; loading twice loads nothing new."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from bridgeko.competition.draw import verify_protocol
from bridgeko.demo import free_players, load_demo
from bridgeko.entries.models import Team
from tests.web.conftest import demo_loaded

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow  # seconds each: the demo loads a whole edition and holds its draw


def _run_demo(data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env |= {"BRIDGEKO_DATA_DIR": str(data_dir), "BRIDGEKO_DEMO_NO_SERVE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "bridgeko.demo"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_make_demo_loads_13_teams_and_a_verified_draw(tmp_path: Path) -> None:
    first = _run_demo(tmp_path)
    assert first.returncode == 0, first.stderr
    assert "Demo edition loaded." in first.stdout
    assert "organiser" in first.stdout and "bridge-open-1999" in first.stdout
    assert "http://127.0.0.1:8000/" in first.stdout
    with sqlite3.connect(tmp_path / "bridgeko.sqlite3") as db:
        (edition_id,) = db.execute(
            "SELECT id FROM editions_edition WHERE slug='ko-1999'"
        ).fetchone()
        teams = db.execute(
            "SELECT COUNT(*) FROM entries_team WHERE edition_id=? AND accepted", (edition_id,)
        ).fetchone()[0]
        protocol, held, published = db.execute(
            "SELECT protocol, held_at, schedule_published_at FROM draw_draw WHERE edition_id=?",
            (edition_id,),
        ).fetchone()
    assert teams == 13
    assert held is not None and published is not None
    report = verify_protocol(json.loads(protocol))
    assert report.ok, report.problems
    second = _run_demo(tmp_path)
    assert second.returncode == 0, second.stderr
    assert "already there" in second.stdout
    with sqlite3.connect(tmp_path / "bridgeko.sqlite3") as db:
        # 13 entered in 1999, a late entry awaiting a decision, 8 in 1998, 12 in 2001
        assert db.execute("SELECT COUNT(*) FROM entries_team").fetchone()[0] == 13 + 1 + 8 + 12


@pytest.mark.django_db
def test_demo_organiser_can_enter_a_14th_team(db: Any) -> None:
    logins = demo_loaded("demo-pass")
    assert [login.username for login in logins] == ["organiser", "td", "captain", "registrar"]
    client = Client()  # through the login page (the throttling backend needs the request)
    login = client.post(reverse("login"), {"username": "organiser", "password": "demo-pass"})
    assert login.status_code == 302 and "_auth_user_id" in client.session
    free = [p.federation_id for p in free_players()[:4]]
    assert len(free) == 4
    response = client.post(
        reverse("entries:create", kwargs={"edition": "ko-1999"}),
        {"name": "Čtrnáctý", "roster": "\n".join(free), "late_reason": "demo: a late entry"},
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    team = Team.objects.get(name="Čtrnáctý")
    assert team.late_entry and team.edition.slug == "ko-1999"
    assert Team.objects.filter(edition__slug="ko-1999").count() == 15  # the demo's late one too
    # Loading again changes nothing.
    loaded, _logins = load_demo("demo-pass")
    assert not loaded
    assert Team.objects.filter(edition__slug="ko-1999").count() == 15


@pytest.mark.django_db
def test_demo_dashboard_lists_the_due_items_per_role(db: Any) -> None:
    """Issue 9: the demo edition's dashboard lists its late entry, the fee due, the missing
    conditions, the record deadline (R14.2b) and the next matches — each role its own."""
    from datetime import UTC, date, datetime

    from django.contrib.auth import get_user_model

    from bridgeko.core import dashboard
    from bridgeko.demo import LATE_REASON, LATE_TEAM
    from bridgeko.editions.dashboard_items import viewer_for
    from bridgeko.editions.models import Edition

    demo_loaded("demo-pass")
    edition = Edition.objects.get(slug="ko-1999")
    users = {u.username: u for u in get_user_model().objects.all()}
    today, now = date(1999, 3, 16), datetime(1999, 3, 16, 12, tzinfo=UTC)  # dates published

    def items(who: str) -> dict[dashboard.Group, list[dashboard.Item]]:
        found = dashboard.items(edition, viewer_for(users[who], edition), today, now)
        return {g.group: list(g.items) for g in dashboard.groups(found)}

    nbsp = "\N{NO-BREAK SPACE}"
    organiser = items("organiser")
    (late,) = organiser[dashboard.Group.LATE_ENTRIES]
    assert late.title == f"{LATE_TEAM}: late entry awaiting a decision"
    assert late.detail.startswith(LATE_REASON + " — convention card of pair ")
    total, fee = organiser[dashboard.Group.FEES]
    # R4.1: 1200 CZK, a player of the team is not a ČBS member
    assert fee.title == f"{LATE_TEAM}: CZK{nbsp}1,200 of the entry fee to pay"
    assert total.total and total.title == f"In all: CZK{nbsp}1,200 from 1 team"
    (conditions,) = organiser[dashboard.Group.CONDITIONS]
    assert conditions.detail.endswith(": not received (R3.1b); entry fee: not received (R3.1c)")
    matches = organiser[dashboard.Group.MATCHES]
    # round 1: 13 teams in a scheme for 16, three byes (R11.4); QF4 played by agreement, its
    # record waiting for the TD's approval (issue 21)
    assert len(matches) == 6
    assert {m.at for m in matches} == {  # Fri 19:00; two moved by their captains (issue 21)
        datetime(1999, 3, 19, 18, tzinfo=UTC),
        datetime(1999, 3, 18, 17, 30, tzinfo=UTC),
        datetime(1999, 4, 14, 16, 0, tzinfo=UTC),
    }
    (record,) = organiser[dashboard.Group.DEADLINES]
    assert record.at == datetime(1999, 3, 19, 12, tzinfo=UTC)  # 13:00 (R14.2b)
    td = items("td")
    assert dashboard.Group.FEES not in td
    assert td[dashboard.Group.LATE_ENTRIES][0].detail == late.detail
    captain = items("captain")  # Sokol Hradec Králové: entered in time, fee paid
    assert not {dashboard.Group.FEES, dashboard.Group.LATE_ENTRIES} & set(captain)
    own = captain.get(dashboard.Group.MATCHES, [])
    assert all("Sokol Hradec Králové" in m.title for m in own)
    # the page, with today's date: the late entry and the fee are still due
    client = Client()
    client.force_login(users["organiser"])
    client.cookies["django_language"] = "cs"
    page = client.get(reverse("editions:dashboard", kwargs={"edition": "ko-1999"}))
    text = page.content.decode()
    assert "Pozdní přihlášky čekající na rozhodnutí" in text and "Nezaplacené vklady" in text
    assert f"{LATE_TEAM}: zbývá zaplatit 1{nbsp}200{nbsp}Kč vkladu" in text


# The draws' lots shuffle the teams' ids: the demo is the same on every fresh database, so
# the ids start at 1 here too (PostgreSQL's sequences do not roll back with a test).
@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_demo_1999_in_play_and_1998_finished_with_its_prizes() -> None:
    """Issue 10: the 1999 edition in play — round 1 played (board by board, one match from a PBN
    file, a walkover, a lateness), the quarterfinals under way, QF1 tied after 32 boards and in
    its extra segment — and 1998 finished, every match decided, its standings and prizes."""
    from bridgeko.competition import bracket
    from bridgeko.competition.prizes import prize_list
    from bridgeko.core import bracket_hooks
    from bridgeko.demo_play import LATE_MATCH, PBN_MATCH, TIED_QF, WALKOVER_MATCH
    from bridgeko.draw.models import DrawNumber
    from bridgeko.editions.models import Edition
    from bridgeko.entries.models import NoShow
    from bridgeko.matches import bracket_sync, state
    from bridgeko.matches.models import BoardResult, Match, Penalty, Segment

    load_demo("demo-pass")
    edition = Edition.objects.get(slug="ko-1999")
    assert edition.stage == "in_play"
    matches = {m.code: m for m in Match.objects.filter(edition=edition)}
    statuses = {r: sorted(m.status for m in matches.values() if m.round == r) for r in (1, 2, 3, 4)}
    assert statuses[1] == ["bye"] * 3 + ["decided"] * 4 + ["walkover"]
    # QF4 was played by agreement: its record waits for the TD's approval (issue 21)
    assert statuses[2] == ["extra_segment_required"] + ["in_progress"] * 2 + ["to_play"]
    assert statuses[3] == ["pending"] * 2 and statuses[4] == ["pending"] * 2
    # R15.2: the walkover's visitors failed to appear, without notice
    walkover = matches[WALKOVER_MATCH]
    assert walkover.status == "walkover" and walkover.winner == "home"
    (absent,) = NoShow.objects.filter(edition=edition, match=WALKOVER_MATCH)
    assert absent.team_id == walkover.visitors_id and not absent.timely_notice
    # R12.9: 10 minutes late, boards 15-16 removed (no result), 2 x 3 IMPs to the home team
    late = matches[LATE_MATCH]
    (penalty,) = Penalty.objects.filter(match=late)
    assert (penalty.kind, penalty.side, penalty.minutes) == ("lateness", "visitors", 10)
    view = state.view(late)
    assert view.segments[0].removed == (15, 16)
    assert view.state.lines[0].home_penalties == 6
    assert not BoardResult.objects.filter(match=late, board__in=(15, 16)).exists()
    assert late.status == "decided"
    # the match from the PBN file: both rooms of all 32 boards
    assert BoardResult.objects.filter(match=matches[PBN_MATCH]).count() == 64
    # R12.5: QF1 tied after 32 boards, its extra segment (33-36) partly entered
    tied = matches[TIED_QF]
    segments = list(Segment.objects.filter(match=tied).order_by("number"))
    assert [(s.number, s.first_board, s.last_board, s.is_extra) for s in segments][-1] == (
        3,
        33,
        36,
        True,
    )
    view = state.view(tied)
    assert view.state.lines[-1].home_total == view.state.lines[-1].visitors_total
    assert len(view.state.lines) == 2
    entered = sorted(
        BoardResult.objects.filter(match=tied, board__gte=33).values_list("board", "room")
    )
    assert entered == [(33, "closed"), (33, "open"), (34, "closed"), (34, "open"), (35, "open")]
    # issue 11: QF3's boards computer-dealt (R12.7) from a fixed seed; segment 1 played from
    # its deals, ended in both rooms (I15: the seed revealed) and analysed; segment 2's set made
    # and its commitment published, not played
    from bridgeko.boards import secrecy
    from bridgeko.boards.models import DealSet
    from bridgeko.bridge import commit_reveal, dealing
    from bridgeko.demo_play import DEALT_QF, DEALT_SEEDS

    dealt = matches[DEALT_QF]
    first, second = (
        DealSet.objects.select_related("segment").get(segment__match=dealt, segment__number=n)
        for n in (1, 2)
    )
    assert first.segment.ended_at is not None and secrecy.revealed(first.segment)
    assert first.commitment == commit_reveal.commitment(DEALT_SEEDS[1])
    assert (first.event, first.session) == ("Bridge Open K.O. 1999", f"{DEALT_QF}-S1")
    deals = dealing.deal_set(DEALT_SEEDS[1], first.event, first.session, range(1, 17))
    assert {b.board: b.deal for b in first.boards.all()} == {
        b: d.to_pbn() for b, d in deals.items()
    }
    assert all(b.dd is not None and b.par is not None for b in first.boards.all())
    assert first.analysis_finished_at is not None
    assert BoardResult.objects.filter(match=dealt, board__lte=16).count() == 32
    assert not BoardResult.objects.filter(match=dealt, board__gt=16).exists()
    assert second.commitment and second.made_at is not None
    assert second.segment.ended_at is None and not secrecy.revealed(second.segment)
    assert second.boards.count() == 16 and all(b.dd is not None for b in second.boards.all())
    # a realistic mix of results: partscores, games, slams, doubled undertricks, passed out
    texts = list(BoardResult.objects.filter(match__edition=edition).values_list("text", flat=True))
    assert "P" in texts
    assert any(t.split()[0][0] in "67" for t in texts if t != "P")
    assert any("X" in t.split()[0] and t.endswith(("-1", "-2", "-3")) for t in texts if t != "P")
    assert any(t.startswith(("3NT ", "4H ", "4S ")) for t in texts)
    assert any(t.startswith(("1", "2")) for t in texts)

    # R16: one appeal decided in a played first-round match — lodged in time through the TD,
    # a committee of 3 from the organiser's list (no player of the match), the score stands,
    # the deposit returned
    from bridgeko.appeals import services as appeals
    from bridgeko.appeals.models import Appeal

    (appeal,) = Appeal.objects.filter(edition=edition)
    assert appeal.match.round == 1 and appeal.match.status == "decided"
    assert (appeal.status, appeal.outcome, appeal.deposit_fate) == (
        "decided",
        "dismissed",
        "returned",
    )
    assert len(appeal.committee) == 3
    assert set(appeal.committee) <= set(appeals.candidates(edition))
    assert not set(appeal.committee) & set(appeals.match_players(appeal.match))
    (deadline,) = appeals.deadlines(appeal.match)
    assert deadline.met_by(appeal.lodged_at)

    # 1998: finished, every match decided; the standings (I7) and the prizes (R5.1)
    previous = Edition.objects.get(slug="ko-1998")
    assert previous.stage == "finished"
    assert all(m.is_over for m in Match.objects.filter(edition=previous))
    draw = bracket_sync.held_draw(previous)
    assert draw is not None
    scheme = bracket_sync.scheme_of(draw)
    assert scheme is not None
    names = {n.number: n.team.name for n in DrawNumber.objects.filter(draw=draw)}
    resolved = bracket.resolve(scheme, bracket_hooks.results(previous), teams=set(names))
    standings = [(p.place, sorted(names[n] for n in p.numbers)) for p in resolved.standings()]
    assert standings == [
        ("1", ["Olomoucký impas"]),
        ("2", ["Orlické hory"]),
        ("3", ["Brněnské esa"]),
        ("4", ["Sokol Hradec Králové"]),
        ("5-8", ["Modrý klub", "Pardubický blok", "Pražští kouzelníci", "Rychlé šípy"]),
    ]
    places = [names[p.numbers[0]] for p in resolved.standings()[:4]]
    prizes = [(a.place, a.team, a.amount) for a in prize_list(places, previous.regulations)]
    assert prizes[0] == (1, "Olomoucký impas", 60000)
    assert Penalty.objects.filter(match__edition=previous, kind="slow_play").count() == 1


def test_demo_follows_a_bridgemate_file_for_a_quarterfinal(db: Any) -> None:
    """Issue 20: QF2's segment 2 comes from Bridgemate terminals; the demo's server follows the
    real BCS file it carries (tables 1 and 2 the rooms), each result stored as it is read."""
    from datetime import UTC, datetime
    from pathlib import Path

    from bridgeko.demo_play import BRIDGEMATE_QF, BRIDGEMATE_SEGMENT
    from bridgeko.matches.models import BoardResult, BridgemateTables

    demo_loaded()
    row = BridgemateTables.objects.select_related("match").get(match__code=BRIDGEMATE_QF)
    assert row.follow and row.segment == BRIDGEMATE_SEGMENT
    assert (row.open_table, row.closed_table) == (1, 2) and Path(row.path).is_file()
    before = BoardResult.objects.filter(match=row.match, board__gte=17).count()
    assert before == 0
    # what the demo's follower thread does every 2 s (bridgeko follow elsewhere)
    from bridgeko.matches import bws_follow

    lines = list(bws_follow.read_all(datetime(1999, 4, 16, 21, 30, tzinfo=UTC)))
    assert sum(" board " in line for line in lines) == 22  # boards 17-27 of the file, both rooms
    assert BoardResult.objects.filter(match=row.match, board__gte=17).count() == 22


def test_demo_first_round_match_moved_by_its_captains(db: Any) -> None:
    """Issue 21: a first-round match was moved by agreement: proposed by the visitors, accepted
    in time (R14.2a), played on the agreed Thursday."""
    from bridgeko.demo_play import AGREED_MATCH, PRAGUE
    from bridgeko.matches.models import DateProposal, Match, ProposalStatus

    demo_loaded()
    match = Match.objects.get(edition__slug="ko-1999", code=AGREED_MATCH)
    (proposal,) = DateProposal.objects.filter(match=match)
    assert proposal.status == ProposalStatus.ACCEPTED and proposal.side == "visitors"
    assert proposal.told_at is not None and proposal.told_at.astimezone(PRAGUE).day == 15
    assert match.start is not None and match.start.astimezone(PRAGUE).day == 18
    assert match.status == "decided"


def test_demo_R14_2b_records_one_disputed_and_approved_one_confirmed_awaiting_the_td(
    db: Any,
) -> None:
    """Issue 21: the agreed first-round match's record came board by board from the winners,
    the opponents disputed a board and the TD approved it; QF4's record, confirmed by the
    opponents, waits for the TD's one click and shows as provisional on the public pages."""
    from bridgeko.audit.models import AuditEntry
    from bridgeko.demo_play import AGREED_MATCH, RECORD_QF
    from bridgeko.matches.models import BoardResult, Match, RecordStatus, RecordSubmission

    demo_loaded()
    agreed = Match.objects.get(edition__slug="ko-1999", code=AGREED_MATCH)
    (first,) = RecordSubmission.objects.filter(match=agreed)
    assert first.status == RecordStatus.APPROVED and first.dispute.startswith("Rozdání 23")
    assert len(first.boards) == 64 and BoardResult.objects.filter(match=agreed).count() == 64
    actions = list(
        AuditEntry.objects.filter(action__startswith="bridgeko.record.", object_id=str(agreed.pk))
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "bridgeko.record.submitted",
        "bridgeko.record.disputed",
        "bridgeko.record.approved",
    ]
    quarter = Match.objects.get(edition__slug="ko-1999", code=RECORD_QF)
    (waiting,) = RecordSubmission.objects.filter(match=quarter)
    assert waiting.status == RecordStatus.CONFIRMED and not waiting.late
    assert quarter.status == "to_play"  # provisional: the bracket waits for the TD
    public = (
        Client()
        .get(reverse("public:match", kwargs={"edition": "ko-1999", "code": RECORD_QF}))
        .content.decode()
    )
    assert 'id="provisional"' in public and "71:58" in public


@pytest.mark.django_db
def test_issue22_demo_2001_double_elimination_in_play_final_in_8_board_sets(db: Any) -> None:
    """The demo's 2001 edition: drawn (12 teams in the 16-number double elimination, four byes),
    both brackets played, the 64-board final scheduled on the finals weekend and under way in
    its third 8-board set; its losers'-bracket finalist already once beaten; the public bracket
    draws both brackets and shows each finalist's chance to win the event."""
    from collections import Counter

    from bridgeko.demo_2001 import FINAL_BOARDS_IN, FINAL_SETS_PLAYED, SLUG, TEAMS
    from bridgeko.matches.models import Match, MatchStatus

    demo_loaded("demo-pass")
    matches = {m.code: m for m in Match.objects.filter(edition__slug=SLUG)}
    assert len(matches) == 30
    final = matches["F"]
    assert final.status == MatchStatus.IN_PROGRESS
    segments = list(final.segments.filter(is_extra=False).order_by("number"))
    assert [len(s.board_numbers) for s in segments] == [8] * 8  # 64 boards in sets of 8
    assert sum(1 for s in segments if s.has_totals) == FINAL_SETS_PLAYED
    losses: Counter[int] = Counter()
    for m in matches.values():
        if m.status == MatchStatus.DECIDED:
            losses[m.visitors_id if m.winner == "home" else m.home_id] += 1
    assert losses[final.home_id] == 0 and losses[final.visitors_id] == 1  # once beaten
    out = [t for t in losses if losses[t] == 2]
    assert len(out) == len(TEAMS) - 2  # everybody else: out after a second loss
    page = Client().get(f"/en/e/{SLUG}/public/draw/").content.decode()
    assert "Winners&#x27; bracket" in page and "Losers&#x27; bracket" in page
    assert f"{FINAL_BOARDS_IN + 8 * FINAL_SETS_PLAYED} of 64 boards" in page
    assert 'id="event-odds"' in page  # computed after the latest result
    played = FINAL_BOARDS_IN + 8 * FINAL_SETS_PLAYED  # sets given by their totals count whole
    match_page = Client().get(f"/en/e/{SLUG}/public/matches/F/").content.decode()
    assert f"boards played: {played} of 64" in match_page
    api = Client().get(f"/api/v1/editions/{SLUG}/matches/").json()
    (doc,) = [m for m in api["matches"] if m["code"] == "F"]
    assert (doc["score"]["boards_played"], doc["score"]["boards"]) == (played, 64)
    assert final.home.name in page.split('id="event-odds"')[1]
