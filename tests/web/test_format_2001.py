"""The 2001 edition's format in the app (issue 22): the numbers of
``editions/bridge-open-ko-2001.toml`` — double elimination up to and including the semifinal, a
final of 64 boards in sets of 8, fees and prizes per player — drawn and played through to the
prize list. The edition's dates are moved onto the 1999 calendar of the test helpers (entries,
draw); every other number is the 2001 file's."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest
from django.utils import translation

from bridgeko.competition import formats
from bridgeko.competition import regulations as regs
from bridgeko.entries import queries as entry_queries
from bridgeko.entries.models import Team
from bridgeko.matches import services
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.web.conftest import REPO, World

EDITION_2001 = REPO / "editions" / "bridge-open-ko-2001.toml"
PLAYED = datetime(1999, 3, 19, 22, 0, tzinfo=UTC)


@pytest.fixture
def toml_1999() -> str:
    """The world's edition: :func:`text_2001`."""
    return text_2001()


def text_2001() -> str:
    """The 2001 file with its dates moved to those of the 1999 test helpers."""
    text = EDITION_2001.read_text(encoding="utf-8")
    for old, new in (
        ("deadline = 2001-03-02", "deadline = 1999-03-05"),
        ("reference_date = 2000-06-30", "reference_date = 1998-06-30"),
        ("finals_start = 2001-06-01", "finals_start = 1999-06-04"),
        ("finals_end = 2001-06-03", "finals_end = 1999-06-06"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    return text


def test_the_2001_file_loads_with_its_known_numbers() -> None:
    reg = regs.load(EDITION_2001)
    assert reg.format == regs.FormatRules("double", True)
    assert (
        reg.match.boards_of(regs.Stage.FINAL),
        reg.match.segment_boards_of(regs.Stage.FINAL),
    ) == (
        64,
        8,
    )
    assert (reg.match.boards_of(regs.Stage.SEMIFINAL), reg.match.segment_boards) == (32, 16)
    assert reg.prizes == (10000, 5000, 2000) and reg.fees.per_player
    assert (reg.fees.members_only, reg.fees.other) == (350, 400)
    formats.check_format(formats.build(reg.format.template, 16), len(reg.prizes))


def test_issue22_the_2001_draw_makes_a_double_elimination_bracket(drawn: World) -> None:
    matches = {m.code: m for m in Match.objects.filter(edition=drawn.edition)}
    assert len(matches) == 30  # 15 winners', 14 losers', the final
    assert {"WF", "LF", "F", "L1-M1", "L6-M1"} - set(matches) == {"L6-M1"}
    team = Team.objects.filter(edition=drawn.edition, name="Tým 00").first()
    assert team is not None
    fee = entry_queries.team_info(team).fee
    assert fee is not None and fee.amount == 4 * 350  # R4.1, 2001: 350 Kč a player


def _play_everything(world: World, rounds: int = 40) -> Counter[int]:
    """Every match with both teams known (``rounds`` times over): the home team wins each
    segment 30:20."""
    losses: Counter[int] = Counter()
    td = world.users["td"]
    for _round in range(rounds):
        ready = [
            m
            for m in Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY)
            if m.home_id is not None and m.visitors_id is not None
        ]
        if not ready:
            break
        for match in ready:
            for segment in Segment.objects.filter(match=match, is_extra=False):
                services.set_segment_totals(
                    segment=segment,
                    home_imps=30,
                    visitors_imps=20,
                    user=td,
                    now=PLAYED,
                    confirm=True,
                )
            assert match.visitors_id is not None
            losses[match.visitors_id] += 1
    return losses


def test_issue22_the_2001_edition_played_through_each_team_out_after_two_losses(
    drawn: World,
) -> None:
    losses = _play_everything(drawn)
    matches = {m.code: m for m in Match.objects.filter(edition=drawn.edition)}
    assert matches["F"].status == MatchStatus.DECIDED
    champion = matches["F"].home_id
    teams = set(
        Team.objects.filter(edition=drawn.edition, accepted=True).values_list("pk", flat=True)
    )
    assert len(teams) == 13
    for team in teams - {champion, matches["F"].visitors_id}:
        assert losses[team] == 2, team
    assert losses[champion] == 0
    final = Segment.objects.filter(match=matches["F"]).order_by("number")
    assert [(s.first_board, s.last_board) for s in final] == [
        (1 + 8 * k, 8 + 8 * k) for k in range(8)
    ]  # 64 boards in sets of 8
    assert [
        (s.first_board, s.last_board) for s in Segment.objects.filter(match=matches["QF1"])
    ] == [
        (1, 16),
        (17, 32),
    ]


def test_R5_1_2001_the_prize_list_pays_each_player_on_the_pages_and_in_the_api(
    drawn: World,
) -> None:
    from django.test import Client
    from django.urls import reverse

    from bridgeko.matches import standings

    _play_everything(drawn)
    awards = standings.prize_list(drawn.edition)
    assert awards is not None
    assert [(a.place, a.amount, a.per_player, a.players, a.total) for a in awards] == [
        ("1", 10000, True, 4, 40000),
        ("2", 5000, True, 4, 20000),
        ("3", 2000, True, 4, 8000),
    ]
    slug = drawn.edition.slug
    page = Client().get(reverse("public:standings", kwargs={"edition": slug})).content.decode()
    assert "a player" in page and "for 4 players" in page
    czech = drawn.client("organiser", "cs").get(
        reverse("matches:standings", kwargs={"edition": slug})
    )
    assert "za hráče" in czech.content.decode()
    api = Client().get(reverse("api:standings", kwargs={"edition": slug})).json()
    assert api["prizes"][0] | {"team": None} == {
        "place": "1",
        "team": None,
        "amount": 10000,
        "currency": "CZK",
        "per_player": True,
        "total": 40000,
    }


def test_issue22_a_scheme_that_does_not_rank_a_prize_place_is_refused_at_the_draw(
    world: World,
) -> None:
    from bridgeko.core.errors import ServiceError
    from bridgeko.draw import services as draw_services
    from tests.web.test_draw import DRAW_AT, announce_and_commit, enter_13

    enter_13(world)
    own = (
        '{"size": 16, "matches": ['
        + ", ".join(
            f'{{"id": "R1-M{k + 1}", "round": 1, "stage": "preliminary", '
            f'"home": {2 * k + 1}, "away": {2 * k + 2}}}'
            for k in range(8)
        )
        + ', {"id": "QF1", "round": 2, "stage": "quarterfinal", "home": "winner of R1-M1", '
        '"away": "winner of R1-M2"}'
        + "], "
        + '"places": {"1": "winner of QF1", "2": "loser of QF1"}}'
    )
    organiser = world.users["organiser"]
    draw_services.set_scheme(edition=world.edition, text=own, user=organiser, now=DRAW_AT)
    announce_and_commit(world)
    with pytest.raises(ServiceError, match="place 3 carries a prize"):
        draw_services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    world.edition.refresh_from_db()
    assert not Match.objects.filter(edition=world.edition).exists()  # nothing drawn


def test_issue22_the_format_is_fixed_once_the_draw_is_held(drawn: World) -> None:
    import dataclasses

    from bridgeko.editions.services import ChangedAfterDrawError, update_edition

    reg = drawn.edition.regulations
    single = dataclasses.replace(reg, format=dataclasses.replace(reg.format, template="single"))
    with pytest.raises(ChangedAfterDrawError) as refused:
        update_edition(
            edition=drawn.edition, data=regs.to_dict(single), user=drawn.users["organiser"]
        )
    assert refused.value.keys == ("format.template",)
    assert "the draw placed the teams in its scheme" in refused.value.errors[0]
    per_team = dataclasses.replace(
        reg, format=dataclasses.replace(reg.format, prizes_per_player=False)
    )
    update_edition(  # how the prizes are paid may still change
        edition=drawn.edition, data=regs.to_dict(per_team), user=drawn.users["organiser"]
    )
    saved = type(drawn.edition).objects.get(pk=drawn.edition.pk)
    assert saved.regulations.format == regs.FormatRules("double", False)


def test_issue22_the_double_elimination_pages_answer_while_played_and_when_over(
    drawn: World,
) -> None:
    from django.test import Client
    from django.urls import reverse

    slug = drawn.edition.slug
    urls = [
        reverse(f"public:{name}", kwargs={"edition": slug})
        for name in ("home", "draw", "embed_bracket", "schedule", "standings")
    ] + [
        reverse("public:match", kwargs={"edition": slug, "code": code})
        for code in ("R1-M2", "L1-M1", "WF", "LF", "F")
    ]
    staff = [
        reverse("matches:list", kwargs={"edition": slug}),
        reverse("matches:standings", kwargs={"edition": slug}),
        reverse("editions:dashboard", kwargs={"edition": slug}),
    ]
    for moment in ("drawn", "played"):
        if moment == "played":
            _play_everything(drawn)
        for url in urls:
            assert Client().get(url).status_code == 200, (moment, url)
        for url in staff:
            assert drawn.client("td").get(url).status_code == 200, (moment, url)
    bracket = Client().get(urls[1]).content.decode()
    assert "LF" in bracket and "WF" in bracket


def test_R14_1_double_elimination_dates_the_first_losers_round_a_week_later(
    drawn: World,
) -> None:
    from datetime import date

    from bridgeko.draw import schedule_services
    from bridgeko.draw.models import MatchDate
    from tests.web.test_draw import NOW

    schedule_services.default_schedule(
        edition=drawn.edition, first_date=date(1999, 3, 13), user=drawn.users["organiser"], now=NOW
    )
    days = {
        row.match: row.start.date() for row in MatchDate.objects.filter(draw__edition=drawn.edition)
    }
    assert {days[c] for c in days if c.startswith("R1-")} == {date(1999, 3, 19)}
    assert {days[c] for c in days if c.startswith("L1-")} == {date(1999, 3, 26)}
    assert not any(c.startswith(("QF", "SF", "WF", "L2", "LF", "F")) for c in days)
    # the schedule names a round by the parts it dates: the losers' first round alone
    from bridgeko.draw import display
    from bridgeko.draw import services as draw_services

    draw = draw_services.draw_of(drawn.edition)
    assert draw is not None
    with translation.override("en"):
        rounds = display.bracket_rounds(draw, display.numbers_of(draw), display.match_dates(draw))
        dated = display.dated_rounds(rounds)
    assert rounds[1].title == "Round 2: Quarterfinals · Losers' round 1"
    assert [r.title for r in dated] == ["Preliminary round 1", "Losers' round 1"]
    assert {m.id for m in dated[1].matches} == {c for c in days if c.startswith("L1-")}


def _segment(world: World, code: str, number: int, home: int, visitors: int) -> None:
    segment = Segment.objects.get(match__edition=world.edition, match__code=code, number=number)
    services.set_segment_totals(
        segment=segment,
        home_imps=home,
        visitors_imps=visitors,
        user=world.users["td"],
        now=PLAYED,
        confirm=True,
    )


def test_issue22_the_public_bracket_draws_the_winners_and_the_losers_bracket(
    drawn: World,
) -> None:
    """Both brackets as sections, each with its own columns: the winners' rounds by stage (the
    winners' final named so), the losers' rounds counted, "loser of" slots until known; the
    schedule names a round of both brackets by both."""
    from django.test import Client

    from bridgeko.draw import display
    from bridgeko.draw import services as draw_services

    draw = draw_services.draw_of(drawn.edition)
    assert draw is not None
    with translation.override("en"):
        rounds = display.bracket_rounds(draw, display.numbers_of(draw))
        sections = display.sections(rounds)
        assert [(s.kind, s.title) for s in sections] == [
            ("main", "Winners' bracket"),
            ("losers", "Losers' bracket"),
        ]
        assert [c.title for c in sections[0].columns] == [
            "Preliminary round 1",
            "Quarterfinals",
            "Semifinals",
            "Winners' final",
            "Final",
        ]
        assert [c.title for c in sections[1].columns] == [
            *(f"Losers' round {n}" for n in range(1, 6)),
            "Losers' final",
        ]
        assert rounds[1].title == "Round 2: Quarterfinals · Losers' round 1"
    page = Client().get(f"/en/e/{drawn.edition.slug}/public/draw/").content.decode()
    winners, losers = page.split('id="section-losers"')
    assert 'id="match-WF"' in winners and 'id="match-LF"' in losers
    assert "loser of QF4" in losers.split('id="match-L2-M1"')[1].split('id="match-L2-M2"')[0]
    czech = Client().get(f"/cs/e/{drawn.edition.slug}/public/draw/").content.decode()
    assert "Pavouk poražených" in czech and "Finále vítězů" in czech


def test_issue22_event_chances_after_a_result_on_the_bracket_team_page_and_api(
    drawn: World, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    """A result recorded: the chances are recomputed after the commit (in the background in
    production) and shown on the bracket, the team page and the API; they sum to 1; the
    pages' version moves with them (a cached page is refreshed). A result recorded without
    its chances yet: the pages say they are being computed and show none."""
    from django.test import Client

    from bridgeko.public import freshness
    from bridgeko.public.models import EventOdds

    slug = drawn.edition.slug
    match = Match.objects.get(edition=drawn.edition, code="R1-M2")
    with django_capture_on_commit_callbacks(execute=True):
        _segment(drawn, "R1-M2", 1, 50, 10)  # a segment's result: its live chance moves
    before = EventOdds.objects.get(edition=drawn.edition)
    version = freshness.edition_version(drawn.edition).token
    with django_capture_on_commit_callbacks(execute=True):
        _segment(drawn, "R1-M2", 2, 30, 20)  # R1-M2 decided: its home team won
    row = EventOdds.objects.get(edition=drawn.edition)
    assert row.serial == before.serial + 1 and row.basis != before.basis
    assert row.computed_at >= before.computed_at
    assert row.runs > 0  # double elimination before its brackets meet: simulated
    assert freshness.edition_version(drawn.edition).token != version
    teams = row.data["teams"]
    assert sum(t["win"] for t in teams.values()) == pytest.approx(1.0, abs=1e-6)
    assert teams[str(match.visitors_id)]["win"] > 0  # once beaten, still in
    page = Client().get(f"/en/e/{slug}/public/draw/").content.decode()
    assert 'id="event-odds"' in page and "12 teams" not in page
    team_page = Client().get(f"/en/e/{slug}/public/teams/{match.home_id}/").content.decode()
    assert 'id="team-odds"' in team_page and "To win the event:" in team_page
    doc = Client().get(f"/api/v1/editions/{slug}/bracket/").json()
    chances = doc["event_chances"]
    assert chances["exact"] is False and chances["runs"] == row.runs
    assert {t["team"]["id"] for t in chances["teams"]} <= set(map(int, teams))
    assert doc["format"] == "double"
    sections = {m["code"]: m["section"] for r in doc["rounds"] for m in r["matches"]}
    assert (sections["WF"], sections["LF"], sections["F"]) == ("main", "losers", "main")
    # a result whose chances are not computed yet (no commit in this test: nothing starts)
    _segment(drawn, "R1-M3", 1, 50, 10)
    _segment(drawn, "R1-M3", 2, 30, 20)
    stale = Client().get(f"/en/e/{slug}/public/draw/").content.decode()
    assert 'id="event-odds"' not in stale and 'id="event-odds-updating"' in stale
    assert Client().get(f"/api/v1/editions/{slug}/bracket/").json()["event_chances"] is None


def test_issue22_the_organiser_sees_the_format_drawn_before_the_draw(world: World) -> None:
    """Before the draw the draw page draws the scheme the draw will make for the teams entered
    (numbers, byes, "loser of" slots), both brackets, and says the format is fit for the
    prizes; an own scheme that does not rank a prize place is named before the draw refuses
    it."""
    from django.urls import reverse

    from bridgeko.draw import services as draw_services
    from tests.web.test_draw import enter_13

    enter_13(world)
    url = reverse("draw:manage", kwargs={"edition": world.edition.slug})
    page = world.client("organiser").get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    preview = page.split('id="scheme-preview"')[1].split('action="/')[0]
    assert "Double elimination up to and including the semifinal" in preview
    assert "13 teams so far: a scheme for 16 numbers, numbers 1–4 seeded" in preview
    assert "Winners&#x27; bracket" in preview and "Losers&#x27; bracket" in preview
    assert "number 13" in preview and "bye" in preview and "loser of WF" in preview
    assert "/public/matches/" not in preview  # nothing to link to before the draw
    assert 'id="scheme-problem"' not in page
    import json

    from bridgeko.competition.scheme import scheme_to_dict

    data = scheme_to_dict(formats.build("single", 16))
    data["matches"] = [m for m in data["matches"] if m["id"] != "3RD"]
    data["places"] = {"1": "winner of F", "2": "loser of F"}
    no_third = json.dumps(data)
    draw_services.set_scheme(
        edition=world.edition, text=no_third, user=world.users["organiser"], now=PLAYED
    )
    page = world.client("organiser").get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="scheme-problem"' in page and "place 3 carries a prize" in page


@pytest.mark.django_db
def test_issue22_a_second_final_when_the_unbeaten_team_loses_the_first(db: object) -> None:
    """The organiser chose a second final (``double-reset``): while the winners'-bracket team
    wins the final, the second final is not needed (no segments, not to be played; that team is
    1st); the final corrected so that it lost, the second final gets its 64 boards, is played,
    and its winner is 1st."""
    from django.test import Client

    from bridgeko.matches.models import Match
    from bridgeko.matches.standings import standings
    from tests.web.conftest import build_world, enter_13_and_draw

    text = text_2001().replace('template = "double"', 'template = "double-reset"')
    world = enter_13_and_draw(build_world(text))
    _play_everything(world)  # every match won by its home team, the final too
    final, second = (Match.objects.get(edition=world.edition, code=c) for c in ("F", "F2"))
    assert final.winner == "home"
    assert second.status == MatchStatus.NOT_NEEDED and second.is_over
    assert not Segment.objects.filter(match=second).exists()
    assert second.winner == "visitors" and second.visitors_id == final.home_id
    page = Client().get(f"/en/e/{world.edition.slug}/public/draw/").content.decode()
    assert "not needed: the unbeaten team won the final" in page
    assert [t.pk for t in standings(world.edition)[0].teams] == [final.home_id]  # 1st
    # the final corrected: the losers'-bracket team won it, so the second final is played
    for segment in Segment.objects.filter(match=final, is_extra=False):
        _segment(world, "F", segment.number, 20, 30)
    second = Match.objects.get(pk=second.pk)
    assert second.status == MatchStatus.TO_PLAY
    assert Segment.objects.filter(match=second, is_extra=False).count() == 8  # 64 boards, 8s
    for segment in Segment.objects.filter(match=second, is_extra=False):
        _segment(world, "F2", segment.number, 30, 20)
    second = Match.objects.get(pk=second.pk)
    assert second.status == MatchStatus.DECIDED and second.home_id == final.home_id
    assert [t.pk for t in standings(world.edition)[0].teams] == [final.home_id]  # won F2
