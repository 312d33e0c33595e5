"""Failures to appear tied to the matches of the bracket (R15.2, R15.3): chosen from the matches
the team plays (never typed, never a bye), once per team and match, corrected or withdrawn with a
reason (audited, before and after); only a recorded, not withdrawn, failure bars the players from
the next edition. The old free-text records migrate; the 1998 demo edition is consistent."""

from __future__ import annotations

import importlib.util
import itertools
import random
from types import ModuleType
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.competition import bracket
from bridgeko.core.errors import ServiceError
from bridgeko.draw import no_shows
from bridgeko.draw.models import DrawNumber
from bridgeko.editions.models import Edition
from bridgeko.editions.services import create_edition
from bridgeko.entries import queries as entry_queries
from bridgeko.entries.models import NoShow, RosterEntry, Team
from tests.web.conftest import REPO, World, demo_loaded, extend
from tests.web.test_entries import NOW, hold_draw_of

# Nine teams in the scheme for 16 (R11.4): numbers 1-7 go on without a first-round match, 8 v 9
# play R1-M2; 4 and 5 meet in QF2 (both after a bye); 1 waits for the winner of R1-M2.


@pytest.fixture
def nine(world: World) -> dict[int, Team]:
    """The world's edition with nine teams and its draw held: draw number -> team."""
    extend(
        world,
        "nine drawn",
        lambda w: hold_draw_of(w.edition, w.users["organiser"], fill_to=9),
    )
    numbers = DrawNumber.objects.filter(draw__edition=world.edition).select_related("team")
    return {n.number: n.team for n in numbers}


def _counts() -> tuple[int, int]:
    return NoShow.objects.count(), AuditEntry.objects.count()


def _record(team: Team, match: str, world: World, *, notice: bool = False) -> NoShow:
    return no_shows.record_no_show(
        team=team,
        match=match,
        timely_notice=notice,
        note="",
        user=world.users["organiser"],
        now=NOW,
    )


def _next_edition(world: World, toml_1999: str) -> Edition:
    return create_edition(
        slug="ko-2000", toml_text=toml_1999, user=world.users["organiser"], previous=world.edition
    )


def _roster(team: Team) -> set[int]:
    return set(RosterEntry.objects.filter(team=team).values_list("player_id", flat=True))


# ---------------------------------------------------------------------------------------------
# R15.2: a match of the bracket that the team plays


@pytest.mark.django_db
def test_R15_2_the_matches_offered_are_those_the_team_plays(nine: dict[int, Team]) -> None:
    assert [(m.id, m.opponent.name) for m in no_shows.team_matches(nine[8])] == [
        ("R1-M2", nine[9].name)
    ]
    assert [(m.id, m.opponent.name) for m in no_shows.team_matches(nine[4])] == [
        ("QF2", nine[5].name)
    ]
    assert no_shows.team_matches(nine[1]) == []  # a bye (R11.4), then an opponent not known


@pytest.mark.django_db
def test_R15_2_free_text_other_teams_match_and_bye_are_refused(
    world: World, nine: dict[int, Team]
) -> None:
    before = _counts()
    for team, match in (
        (nine[8], "blah"),
        (nine[8], "QF2"),  # a match of other teams
        (nine[4], "R1-M3"),  # its bye: 4 had no opponent (R11.4)
        (nine[8], "r1-m2 "),  # never typed: the id exactly as offered
    ):
        with pytest.raises(ServiceError) as exc:
            _record(team, match, world)
        assert exc.value.field == "match"
        assert "Choose a match that" in exc.value.message
    with pytest.raises(ServiceError, match="plays no match of the bracket yet"):
        _record(nine[1], "R1-M1", world)
    assert _counts() == before


@pytest.mark.django_db
def test_R15_2_no_failure_to_appear_before_the_draw(world: World) -> None:
    from tests.web.test_entries import enter_team, make_players

    team = enter_team(world.edition, "Orli", make_players(4), world.users["organiser"])
    before = _counts()
    with pytest.raises(ServiceError, match="plays no match of the bracket yet"):
        _record(team, "R1-M1", world)
    assert _counts() == before
    page = world.client("td").get(
        reverse("draw:no_show", kwargs={"edition": world.edition.slug, "team": team.pk})
    )
    assert 'id="no-match"' in page.content.decode() and 'name="match"' not in page.content.decode()


@pytest.mark.django_db
def test_R15_2_page_offers_a_list_never_a_text_box(world: World, nine: dict[int, Team]) -> None:
    td = world.client("td")
    slug = world.edition.slug
    url = reverse("draw:no_show", kwargs={"edition": slug, "team": nine[4].pk})
    text = td.get(url).content.decode()
    assert 'type="radio" name="match" value="QF2"' in text
    assert f"QF2: {nine[5].name}" in text
    assert 'type="text" name="match"' not in text and "R1-M3" not in text
    before = _counts()
    response = td.post(url, {"match": "blah", "note": ""})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert _counts() == before
    response = td.post(url, {"match": "QF2", "note": "nepřijeli"})
    assert response.status_code == 302
    show = NoShow.objects.get()
    assert (show.team, show.match, show.legacy_match) == (nine[4], "QF2", "")
    assert show.note == "nepřijeli"
    listing = td.get(reverse("draw:no_shows", kwargs={"edition": slug})).content.decode()
    assert "QF2" in listing and nine[4].name in listing
    # a team with a bye only is listed without a link
    bye_url = reverse("draw:no_show", kwargs={"edition": slug, "team": nine[1].pk})
    assert f'href="{bye_url}"' not in listing and "no match of the bracket to play" in listing


@pytest.mark.django_db
def test_R15_2_once_per_team_and_match(world: World, nine: dict[int, Team]) -> None:
    _record(nine[8], "R1-M2", world)
    before = _counts()
    with pytest.raises(ServiceError) as exc:
        _record(nine[8], "R1-M2", world, notice=True)
    assert exc.value.field == "match"
    assert exc.value.message == (
        f"A failure to appear of {nine[8].name} in match R1-M2 is recorded already."
    )
    assert _counts() == before
    # the page says so next to the field
    url = reverse("draw:no_show", kwargs={"edition": world.edition.slug, "team": nine[8].pk})
    response = world.client("td").post(url, {"match": "R1-M2"})
    assert response.status_code == 200 and "is recorded already" in response.content.decode()
    assert _counts() == before
    # the opponent's failure in the same match is another record (I16: both may fail)
    _record(nine[9], "R1-M2", world)
    # the database refuses a duplicate too (the service's check has a constraint behind it)
    with pytest.raises(IntegrityError), transaction.atomic():
        NoShow.objects.create(edition=world.edition, team=nine[8], match="R1-M2")


# ---------------------------------------------------------------------------------------------
# R15.3: only a recorded (not withdrawn) failure bars the players; withdrawal and correction


@pytest.mark.django_db
def test_R15_3_a_withdrawn_failure_bars_nobody(
    world: World, nine: dict[int, Team], toml_1999: str
) -> None:
    show = _record(nine[8], "R1-M2", world)
    following = _next_edition(world, toml_1999)
    assert entry_queries.barred_players(following) == _roster(nine[8])
    before = _counts()
    with pytest.raises(ServiceError, match="Give the reason") as exc:
        no_shows.withdraw_no_show(no_show=show, reason="  ", user=world.users["td"], now=NOW)
    assert exc.value.field == "reason" and _counts() == before
    no_shows.withdraw_no_show(
        no_show=show, reason="the match was moved", user=world.users["td"], now=NOW
    )
    assert entry_queries.barred_players(following) == set()
    entry = AuditEntry.objects.get(action="bridgeko.no_show.withdrawn")
    assert entry.before is not None and entry.after is not None
    assert entry.before["withdrawn_at"] is None and entry.before["match"] == "R1-M2"
    assert entry.after["withdrawn_reason"] == "the match was moved"
    assert entry.after["withdrawn_at"] is not None
    assert "the match was moved" in entry.summary and entry.edition == world.edition
    with pytest.raises(ServiceError, match="withdrawn already"):
        no_shows.withdraw_no_show(no_show=show, reason="again", user=world.users["td"], now=NOW)
    # once withdrawn, the same match can be recorded again (once)
    _record(nine[8], "R1-M2", world)
    assert entry_queries.barred_players(following) == _roster(nine[8])


@pytest.mark.django_db
def test_R15_3_a_correction_is_audited_before_and_after(
    world: World, nine: dict[int, Team], toml_1999: str
) -> None:
    show = _record(nine[8], "R1-M2", world)
    following = _next_edition(world, toml_1999)
    before = _counts()
    with pytest.raises(ServiceError, match="Choose a match"):
        no_shows.correct_no_show(
            no_show=show,
            match="QF2",
            timely_notice=True,
            note="",
            reason="x",
            user=world.users["td"],
            now=NOW,
        )
    with pytest.raises(ServiceError, match="Give the reason"):
        no_shows.correct_no_show(
            no_show=show,
            match="R1-M2",
            timely_notice=True,
            note="",
            reason="",
            user=world.users["td"],
            now=NOW,
        )
    assert _counts() == before
    no_shows.correct_no_show(
        no_show=show,
        match="R1-M2",
        timely_notice=True,
        note="omluva došla e-mailem včas",
        reason="the notice was found",
        user=world.users["td"],
        now=NOW,
    )
    assert entry_queries.barred_players(following) == set()  # R15.3: told in time
    entry = AuditEntry.objects.get(action="bridgeko.no_show.corrected")
    assert entry.before is not None and entry.after is not None
    assert (entry.before["timely_notice"], entry.after["timely_notice"]) == (False, True)
    assert entry.after["note"] == "omluva došla e-mailem včas"
    assert entry.after["reason"] == "the notice was found"


@pytest.mark.django_db
def test_R15_pages_correct_and_withdraw(world: World, nine: dict[int, Team]) -> None:
    show = _record(nine[4], "QF2", world)
    td = world.client("td")
    slug = world.edition.slug
    url = reverse("draw:no_show_change", kwargs={"edition": slug, "no_show": show.pk})
    listing = reverse("draw:no_shows", kwargs={"edition": slug})
    assert f'href="{url}"' in td.get(listing).content.decode()
    page = td.get(url).content.decode()
    assert 'value="QF2"' in page and 'name="withdraw-reason"' in page
    response = td.post(url, {"withdraw": "1", "withdraw-reason": ""})
    assert response.status_code == 200 and NoShow.objects.get().withdrawn_at is None
    response = td.post(url, {"correct-match": "QF2", "correct-timely_notice": "on"})
    assert response.status_code == 200 and not NoShow.objects.get().timely_notice  # no reason
    response = td.post(
        url, {"correct-match": "QF2", "correct-timely_notice": "on", "correct-reason": "omluva"}
    )
    assert response.status_code == 302 and NoShow.objects.get().timely_notice
    response = td.post(url, {"withdraw": "1", "withdraw-reason": "zápas se odehrál"})
    assert response.status_code == 302 and response["Location"] == listing
    text = td.get(listing).content.decode()
    assert "<s>" in text and "zápas se odehrál" in text and f'href="{url}"' not in text
    czech = world.client("td", "cs").get(listing).content.decode()
    assert "zrušeno" in czech


# ---------------------------------------------------------------------------------------------
# The old free-text records migrate (entries 0003-0005, draw 0003)

ENTRIES_BEFORE = ("entries", "0002_edition_stage_from_closing")
DRAW_BEFORE = ("draw", "0002_edition_stage_from_draw")
DRAW_AFTER = ("draw", "0003_no_show_matches")


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    apps_ = {app for app, _name in targets}
    executor.loader.build_graph()  # what is applied now (an app above may have been unapplied)
    applied = executor.loader.applied_migrations
    latest = [
        key for key in executor.loader.graph.leaf_nodes() if key[0] not in apps_ and key in applied
    ]
    return executor.loader.project_state([*targets, *latest]).apps


def _migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_R15_2_old_free_text_records_are_tied_to_their_match_or_kept_as_text() -> None:
    old = _migrate([DRAW_BEFORE, ENTRIES_BEFORE])
    edition = old.get_model("editions", "Edition").objects.create(
        slug="e1", name="E", year=1998, regulations_toml="x"
    )
    team_model = old.get_model("entries", "Team")
    teams = [
        team_model.objects.create(edition=edition, name=f"T{k}", created_at="1998-02-01T10:00Z")
        for k in range(1, 10)
    ]
    draw = old.get_model("draw", "Draw").objects.create(
        edition=edition, held_at="1998-03-13T17:00Z", scheme_size=16
    )
    for k, team in enumerate(teams, start=1):
        old.get_model("draw", "DrawNumber").objects.create(draw=draw, number=k, team=team)
    shows = old.get_model("entries", "NoShow").objects
    t4, t8 = teams[3], teams[7]
    rows = {
        "mapped": shows.create(edition=edition, team=t8, match="r1-m2 "),
        "duplicate": shows.create(edition=edition, team=t8, match="R1 M2"),
        "blah": shows.create(edition=edition, team=t8, match="blah"),
        "bye": shows.create(edition=edition, team=t4, match="R1-M3"),
        "qf": shows.create(edition=edition, team=t4, match="QF2", timely_notice=True),
        "others": shows.create(edition=edition, team=t4, match="R1-M2"),
    }
    new = _migrate([DRAW_AFTER])
    got = {
        key: new.get_model("entries", "NoShow").objects.get(pk=row.pk) for key, row in rows.items()
    }
    assert (got["mapped"].match, got["mapped"].legacy_match) == ("R1-M2", "")
    assert (got["qf"].match, got["qf"].timely_notice) == ("QF2", True)
    for key, text in (("blah", "blah"), ("bye", "R1-M3"), ("others", "R1-M2")):
        assert (got[key].match, got[key].legacy_match, got[key].withdrawn_at) == ("", text, None)
    duplicate = got["duplicate"]
    assert duplicate.withdrawn_at is not None and f"#{rows['mapped'].pk}" in (
        duplicate.withdrawn_reason
    )
    back = _migrate([ENTRIES_BEFORE])  # the way back: free text again (the duplicate goes)
    texts = (
        back.get_model("entries", "NoShow").objects.order_by("pk").values_list("match", flat=True)
    )
    assert list(texts) == ["R1-M2", "blah", "R1-M3", "QF2", "R1-M2"]
    _migrate_to_latest()  # every app, also the entries' later migrations


@pytest.mark.django_db
def test_R15_3_an_old_record_keeps_barring_and_can_be_tied_to_a_match(
    world: World, nine: dict[int, Team], toml_1999: str
) -> None:
    show = NoShow.objects.create(edition=world.edition, team=nine[8], legacy_match="3. kolo")
    following = _next_edition(world, toml_1999)
    assert entry_queries.barred_players(following) == _roster(nine[8])
    listing = world.client("td").get(
        reverse("draw:no_shows", kwargs={"edition": world.edition.slug})
    )
    assert "„3. kolo“" in listing.content.decode()
    assert "old record: not a match of the bracket" in listing.content.decode()
    no_shows.correct_no_show(
        no_show=show,
        match="R1-M2",
        timely_notice=False,
        note="",
        reason="tied to its match",
        user=world.users["td"],
        now=NOW,
    )
    show.refresh_from_db()
    assert (show.match, show.legacy_match) == ("R1-M2", "")
    entry = AuditEntry.objects.get(action="bridgeko.no_show.corrected")
    assert entry.before is not None and entry.before["legacy_match"] == "3. kolo"


def _migration_module() -> ModuleType:
    path = REPO / "src/bridgeko/draw/migrations/0003_no_show_matches.py"
    spec = importlib.util.spec_from_file_location("draw_0003", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_migrations_bracket_agrees_with_the_engine() -> None:
    """The migration's written-out bracket (no results yet) gives the matches the engine's
    :func:`bracket.resolve` gives, for every size and many sets of present numbers."""
    played_matches = _migration_module().played_matches
    rng = random.Random(8)
    for size in (4, 8, 16, 32, 64):
        presents = [set(range(1, n + 1)) for n in range(0, size + 1)]
        presents += [set(rng.sample(range(1, size + 1), rng.randint(0, size))) for _ in range(30)]
        for present in presents:
            state = bracket.resolve(bracket.standard_scheme(size), teams=present)
            engine = {
                m.id: (m.home.number, m.away.number)
                for m in state.matches
                if str(m.status) in no_shows.MATCH_STATUSES
            }
            assert played_matches(size, present) == engine, (size, sorted(present))
    assert list(itertools.islice(played_matches(8, set(range(1, 9))), 1)) == ["QF1"]


# ---------------------------------------------------------------------------------------------
# The 1998 demo edition


@pytest.mark.slow
@pytest.mark.django_db
def test_R15_3_demo_1998_draw_held_and_the_no_show_tied_to_its_match(db: Any) -> None:
    from bridgeko.demo import NO_SHOW_1998, PREVIOUS_SLUG

    demo_loaded()
    previous = Edition.objects.get(slug=PREVIOUS_SLUG)
    assert previous.draw.held  # type: ignore[attr-defined]
    show = NoShow.objects.get(edition=previous)
    assert show.team.name == NO_SHOW_1998 and not show.is_legacy and not show.withdrawn
    assert show.match in {m.id for m in no_shows.team_matches(show.team)}
    following = Edition.objects.get(previous=previous)
    assert entry_queries.barred_players(following) == _roster(show.team)
