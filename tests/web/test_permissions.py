"""Who may use which protected URL: ONE registry and tests visiting each as every role, in TWO
editions.

Every app appends its protected URLs to :data:`REGISTRY` (URL name, method, example kwargs, the
role users who may use it). The URL list is read from the URLconf:
``test_every_protected_url_is_registered`` fails when a view wrapped in the permission helper has
no entry here, ``test_every_unprotected_url_is_read_only`` (test_hardening) when a view without
the helper accepts a POST, and ``test_a_registered_method_is_the_only_one_a_view_accepts`` when a
protected view accepts a method that has no entry here.

Role users (see ``conftest.World``): ``anonymous`` (not logged in), ``public`` (logged in, no
role), ``captain`` (captain of team ``CAPTAIN_TEAM_ID``), ``appeals``, ``td``, ``organiser`` —
each holding that role in the ``world`` edition (A) only —, ``registrar`` (the site-wide role)
and ``superuser``. The second edition (B, :func:`two`) has its own organiser, team, role and
rostered player, and none of the role users above holds a role in it.

Expected outcome: allowed → neither 403 nor a redirect to the login page nor a server error; a
denied anonymous user → redirect to the login page; a denied logged-in user → 403 (the friendly
page). Issue 8's finding: an organiser of the 1998 edition only could rename a player on a 1999
roster, create a new edition, and through it replace the 1999 Elo list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.audit.models import AuditEntry
from bridgeko.editions.models import Edition
from tests.web.conftest import CAPTAIN_TEAM_ID, ROLE_USERS, World, make_user

ORGANISER = frozenset({"organiser"})
REGISTRAR = frozenset({"registrar"})
SITE_WIDE = frozenset({"registrar", "superuser"})
"""The role users whose role is not tied to an edition."""
OTHER_SLUG = "ko-2000"
OTHER_TEAM_ID = 70
"""The team of the other edition (B)."""

Kwargs = Callable[..., dict[str, Any]]


def _edition(world: World, edition: Edition | None = None) -> dict[str, Any]:
    return {"edition": (edition or world.edition).slug}


def _nothing(world: World, edition: Edition | None = None) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class Protected:
    name: str
    """The URL name, e.g. ``"players:import"``."""
    method: str
    """``"get"`` or ``"post"``."""
    allowed: frozenset[str]
    """The role users who may use it in their own edition (the superuser always may)."""
    kwargs: Kwargs = _edition
    """Example URL kwargs, built from the test world and an edition (default: the world's):
    ``kwargs(world)`` or ``kwargs(world, edition)``; objects named by the kwargs belong to that
    edition."""
    data: dict[str, Any] = field(default_factory=dict)
    """POST data (keep it invalid or harmless: every role posts it in turn)."""


def _team_in(edition: Edition) -> int:
    """The captain's team (``CAPTAIN_TEAM_ID``) in the world edition, ``OTHER_TEAM_ID`` in the
    other; late and without a roster line but the one of :func:`_player`, so that it takes part
    in nothing the tests count."""
    from bridgeko.entries.models import Team

    pk = CAPTAIN_TEAM_ID if edition.slug != OTHER_SLUG else OTHER_TEAM_ID
    Team.objects.get_or_create(
        pk=pk,
        defaults={
            "edition": edition,
            "name": f"Tým {pk}",
            "created_at": datetime(1999, 2, 1, 10, tzinfo=UTC),
            "late_entry": True,
            "late_reason": "a team of the permission test",
        },
    )
    return pk


def _team(world: World, edition: Edition | None = None) -> dict[str, Any]:
    edition = edition or world.edition
    return {"edition": edition.slug, "team": _team_in(edition)}


def _no_show(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A failure to appear of the edition's team (an old record without a match id)."""
    from bridgeko.entries.models import NoShow

    edition = edition or world.edition
    team = _team_in(edition)
    show, _created = NoShow.objects.get_or_create(
        edition=edition, team_id=team, defaults={"legacy_match": "R1-M1"}
    )
    return {"edition": edition.slug, "no_show": show.pk}


def _pair(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A declared pair of the edition's team (two players of its roster)."""
    from bridgeko.entries.models import Pair, RosterEntry
    from bridgeko.players.models import Player

    edition = edition or world.edition
    team = _team_in(edition)
    players = []
    for k in (1, 2):
        player, _created = Player.objects.get_or_create(
            federation_id=f"PP{k}-{edition.slug}", defaults={"name": f"Hráč páru {k}"}
        )
        RosterEntry.objects.get_or_create(
            edition=edition, team_id=team, player=player, defaults={"position": 10 + k}
        )
        players.append(player)
    pair, _created = Pair.objects.get_or_create(
        team_id=team, player_a=players[0], player_b=players[1]
    )
    return {"edition": edition.slug, "team": team, "pair": pair.pk}


def _card(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A convention card uploaded for the pair of :func:`_pair`."""
    from django.core.files.base import ContentFile

    from bridgeko.entries.models import ConventionCard, Pair

    kwargs = _pair(world, edition)
    pair = Pair.objects.select_related("player_a", "player_b").get(pk=kwargs["pair"])
    card = ConventionCard.objects.filter(pair=pair).first()
    if card is None:
        card = ConventionCard(
            team_id=kwargs["team"],
            pair=pair,
            pair_label=pair.label,
            original_name="karta.pdf",
            size=9,
            content_type="application/pdf",
            uploaded_at=datetime(1999, 2, 1, 10, tzinfo=UTC),
        )
        card.file.save(f"test/{kwargs['edition']}.pdf", ContentFile(b"%PDF-1.4\n"), save=True)
    return {"edition": kwargs["edition"], "team": kwargs["team"], "card": card.pk}


def _player(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A player on the roster of the edition's team (the register is shared by every edition:
    the player "of" an edition is one its teams play with)."""
    from bridgeko.entries.models import RosterEntry
    from bridgeko.players.models import Player

    edition = edition or world.edition
    team = _team_in(edition)
    player, _created = Player.objects.get_or_create(
        federation_id=f"P-{edition.slug}", defaults={"name": f"Hráč {edition.slug}"}
    )
    RosterEntry.objects.get_or_create(
        edition=edition, team_id=team, player=player, defaults={"position": 1}
    )
    return {"edition": edition.slug, "pk": player.pk}


def _elo_import(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """An import of the Elo list of the edition's reference date."""
    from bridgeko.players.models import EloImport

    edition = edition or world.edition
    elo_import, _created = EloImport.objects.get_or_create(
        reference_date=edition.regulations.rating.reference_date,
        defaults={"at": datetime(1999, 2, 1, 10, tzinfo=UTC)},
    )
    return {"edition": edition.slug, "pk": elo_import.pk}


def _role(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """An appeals role of a user made for it (a revocation takes away nobody the test needs)."""
    edition = edition or world.edition
    target = _user(f"role-{edition.slug}")
    assignment, _created = RoleAssignment.objects.get_or_create(
        user=target, edition=edition, role=Role.APPEALS
    )
    return {"edition": edition.slug, "pk": assignment.pk}


def _site_role(world: World, edition: Edition | None = None) -> dict[str, Any]:
    assignment, _created = RoleAssignment.objects.get_or_create(
        user=_user("registrar-2"), edition=None, role=Role.REGISTRAR
    )
    return {"pk": assignment.pk}


def _user(username: str) -> Any:
    from django.contrib.auth import get_user_model

    found = get_user_model().objects.filter(username=username).first()
    return found or make_user(username)


def _match(world: World, edition: Edition | None = None) -> dict[str, Any]:
    return {"edition": (edition or world.edition).slug, "match": "R1-M2"}


def _match_at_home(edition: Edition, code: str, position: int) -> Any:
    """A match ``code`` of the edition, to play, in which the edition's team (the captain's in
    A) plays at home against a team made for it."""
    from bridgeko.entries.models import Team
    from bridgeko.matches.models import Match, MatchStatus

    home = _team_in(edition)
    visitors, _created = Team.objects.get_or_create(
        edition=edition,
        name="Hosté",
        defaults={"created_at": datetime(1999, 2, 1, 10, tzinfo=UTC), "late_entry": True},
    )
    match, _created = Match.objects.get_or_create(
        edition=edition,
        code=code,
        defaults={
            "position": position,
            "round": 1,
            "stage": "preliminary",
            "home_id": home,
            "visitors": visitors,
            "status": MatchStatus.TO_PLAY,
        },
    )
    return match


def _segment(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """Segment 1 of a match of the edition in which the edition's team (the captain's in A)
    plays at home against a team made for it (R1-M1 in neither: no draw is held)."""
    from bridgeko.matches.models import Segment

    edition = edition or world.edition
    match = _match_at_home(edition, "LU-1", 99)
    Segment.objects.get_or_create(
        match=match, number=1, defaults={"first_board": 1, "last_board": 16}
    )
    return {"edition": edition.slug, "code": match.code, "number": 1}


def _line_up(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """The home team's (the captain's, in A) line-up of :func:`_segment`."""
    return _segment(world, edition) | {"side": "home"}


def _date_side(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """The home team's (the captain's, in A) date page of a match (issue 21)."""
    edition = edition or world.edition
    match = _match_at_home(edition, "LU-1", 99)
    return {"edition": edition.slug, "code": match.code, "side": "home"}


def _date_ruling(world: World, edition: Edition | None = None) -> dict[str, Any]:
    edition = edition or world.edition
    match = _match_at_home(edition, "LU-1", 99)
    return {"edition": edition.slug, "code": match.code}


def _record_of(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A record the home team (the captain's, in A) submitted for :func:`_date_side`'s match."""
    from bridgeko.matches.models import RecordSubmission

    edition = edition or world.edition
    match = _match_at_home(edition, "LU-1", 99)
    record, _created = RecordSubmission.objects.get_or_create(
        match=match,
        side="home",
        defaults={
            "submitted_at": datetime(1999, 3, 19, 11, tzinfo=UTC),
            "totals": {"1": [10, 0]},
        },
    )
    if not record.scorecards:
        from django.core.files.base import ContentFile

        record.scorecards.save("permission-test.png", ContentFile(b"\x89PNG\r\n\x1a\n"))
    return {"edition": edition.slug, "code": match.code, "record": record.pk}


def _match_row(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A match of the edition (made here when the draw is not held: its teams not known yet)."""
    from bridgeko.matches.models import Match

    edition = edition or world.edition
    Match.objects.get_or_create(
        edition=edition,
        code="R1-M1",
        defaults={"position": 1, "round": 1, "stage": "preliminary"},
    )
    return {"edition": edition.slug, "match": "R1-M1"}


def _place_decision(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """An organiser's decision on a place (I16) for the edition's team."""
    from bridgeko.matches.models import PlaceDecision

    edition = edition or world.edition
    decision, _created = PlaceDecision.objects.get_or_create(
        edition=edition,
        place=1,
        defaults={
            "team_id": _team_in(edition),
            "reason": "a decision of the permission test",
            "decided_at": datetime(1999, 6, 6, 18, tzinfo=UTC),
        },
    )
    return {"edition": edition.slug, "decision": decision.pk}


def _match_page(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A match of the edition (its teams not known yet) with its first segment."""
    from bridgeko.matches.models import Match, Segment

    edition = edition or world.edition
    match, _created = Match.objects.get_or_create(
        edition=edition,
        code="R1-M1",
        defaults={"position": 1, "round": 1, "stage": "preliminary"},
    )
    Segment.objects.get_or_create(match=match, number=1, first_board=1, last_board=16)
    return {"edition": edition.slug, "code": match.code}


def _match_board(world: World, edition: Edition | None = None) -> dict[str, Any]:
    return _match_page(world, edition) | {"board": 1, "room": "open"}


def _match_segment(world: World, edition: Edition | None = None) -> dict[str, Any]:
    return _match_page(world, edition) | {"segment": 1}


def _penalty(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A TD adjustment recorded in the match of :func:`_match_page`."""
    from bridgeko.matches.models import Match, Penalty

    kwargs = _match_page(world, edition)
    match = Match.objects.get(edition__slug=kwargs["edition"], code=kwargs["code"])
    penalty, _created = Penalty.objects.get_or_create(
        match=match,
        segment=1,
        kind="adjustment",
        side="home",
        defaults={"imps": 1, "reason": "x", "created_at": datetime(1999, 4, 1, tzinfo=UTC)},
    )
    return kwargs | {"penalty": penalty.pk}


def _board_set(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """Segment 1 (boards 1-4) of a quarterfinal of the edition with a computer-dealt set made
    from a fixed seed (boards, issue 11)."""
    from bridgeko.boards.models import BoardDeal, DealSet
    from bridgeko.bridge import commit_reveal, dealing
    from bridgeko.matches.models import Match, Segment

    edition = edition or world.edition
    match, _created = Match.objects.get_or_create(
        edition=edition,
        code="BS-1",
        defaults={"position": 98, "round": 2, "stage": "quarterfinal"},
    )
    segment, _created = Segment.objects.get_or_create(
        match=match, number=1, defaults={"first_board": 1, "last_board": 4}
    )
    seed = bytes(range(32))
    deal_set, created = DealSet.objects.get_or_create(
        segment=segment,
        defaults={
            "source": "dealt",
            "seed": seed.hex(),
            "commitment": commit_reveal.commitment(seed),
            "event": "E",
            "session": "S",
            "made_at": datetime(1999, 4, 1, tzinfo=UTC),
        },
    )
    if created:
        for board, deal in dealing.deal_set(seed, "E", "S", range(1, 5)).items():
            BoardDeal.objects.create(deal_set=deal_set, board=board, deal=deal.to_pbn())
    return {"edition": edition.slug, "code": match.code, "segment": 1}


def _match_of(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The match's kwargs of a segment's (or board's) ``kwargs``."""
    return {"edition": kwargs["edition"], "code": kwargs["code"]}


def _board_match(world: World, edition: Edition | None = None) -> dict[str, Any]:
    return _match_of(_board_set(world, edition))


def _room_end(world: World, edition: Edition | None = None) -> dict[str, Any]:
    return _match_segment(world, edition) | {"room": "open"}


# mail (bridgeko.mail)
def _mail(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """A failed mail of the edition's team, on the outbox page."""
    from bridgeko.entries.models import Team
    from bridgeko.mail.models import Outbox

    edition = edition or world.edition
    team = Team.objects.get(pk=_team_in(edition))
    row, _created = Outbox.objects.get_or_create(
        edition=edition,
        team=team,
        defaults={
            "event": "entry.confirmed",
            "to": "captain@example.org",
            "language": "en",
            "subject": "Entry confirmed",
            "body": "Your entry is confirmed.",
            "created_at": datetime(1999, 3, 1, tzinfo=UTC),
            "status": "failed",
            "error": "ConnectionRefusedError",
        },
    )
    return _edition(world, edition) | {"mail": row.pk}


def _hand_record_set(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """Segment 1 of the match of :func:`_match_page` (hand records)."""
    return _match_page(world, edition) | {"segment": 1}


def _hand_record_board(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """Board 1 of the match of :func:`_match_page` (hand records)."""
    return _match_page(world, edition) | {"board": 1}


# appeals (R16): an appeal of the captain's team (home in LU-1 of _segment)
def _appeal(world: World, edition: Edition | None = None) -> dict[str, Any]:
    from bridgeko.appeals.models import Appeal
    from bridgeko.matches.models import Match

    kwargs = _segment(world, edition)
    match = Match.objects.get(edition__slug=kwargs["edition"], code=kwargs["code"])
    appeal, _created = Appeal.objects.get_or_create(
        edition=match.edition,
        match=match,
        appellant_id=match.home_id,
        defaults={
            "subject": "an appeal of the permission test",
            "lodged_at": datetime(1999, 4, 10, 13, tzinfo=UTC),
            "through_td": "td",
            "deposit": 200,
        },
    )
    return {"edition": kwargs["edition"], "appeal": appeal.pk}


def _team_appeal(world: World, edition: Edition | None = None) -> dict[str, Any]:
    kwargs = _appeal(world, edition)
    return kwargs | {"team": _team_in(edition or world.edition)}


def _appeal_match(world: World, edition: Edition | None = None) -> dict[str, Any]:
    kwargs = _segment(world, edition)
    return {"edition": kwargs["edition"], "code": kwargs["code"]}


# end of appeals


# paper (issue 11): the PDFs' example objects
def _paid_team(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """The edition's team with a payment of its fee recorded (a receipt needs one)."""
    from bridgeko.entries.models import Team

    kwargs = _team(world, edition)
    Team.objects.filter(pk=kwargs["team"]).update(fee_paid=300)
    return kwargs


def _paper_match(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """The match of :func:`_segment` (the captain's team at home in A)."""
    return _match_of(_segment(world, edition))


def _paper_deals(world: World, edition: Edition | None = None) -> dict[str, Any]:
    """Segment 1 of a match of its own with a stored deal, ended in both rooms (its hand
    records are public, I15)."""
    from bridgeko.boards.models import BoardDeal, DealSet
    from bridgeko.matches.models import Segment

    edition = edition or world.edition
    at = datetime(1999, 6, 4, 12, tzinfo=UTC)
    match = _match_at_home(edition, "PA-1", 98)
    segment, _created = Segment.objects.get_or_create(
        match=match,
        number=1,
        defaults={
            "first_board": 1,
            "last_board": 16,
            "open_ended_at": at,
            "closed_ended_at": at,
        },
    )
    deal_set, _created = DealSet.objects.get_or_create(segment=segment, source="loaded")
    BoardDeal.objects.get_or_create(
        deal_set=deal_set,
        board=1,
        defaults={"deal": "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"},
    )
    return {"edition": edition.slug, "code": match.code, "number": 1}


# end of paper


OBJECT_KWARGS: frozenset[Kwargs] = frozenset(
    {_team, _player, _role, _no_show, _pair, _card, _place_decision, _penalty, _mail, _paid_team}
    | {_appeal, _team_appeal}  # appeals
)
"""Kwargs naming an object of an edition: also tried with the object of the other edition
under one's own edition's URL."""

ORGANISER_CAPTAIN = frozenset({"organiser", "captain"})
ORGANISER_TD = frozenset({"organiser", "td"})
ORGANISER_CAPTAIN_TD = frozenset({"organiser", "captain", "td"})
"""A TD reads every team's page (issue 9); a captain their own team's."""
ORGANISER_TD_CAPTAIN = ORGANISER_CAPTAIN_TD
MATCH_READERS = frozenset({"organiser", "td", "appeals"})
REGISTER_READERS = frozenset({"organiser", "td", "registrar"})
"""Who reads the player register under an edition's URL (issue 8: an edition's organiser and
TDs read it, only the registrar changes it)."""


REGISTRY: list[Protected] = [
    # editions: creating one is the registrar's (issue 8)
    Protected("editions:create", "get", REGISTRAR, kwargs=_nothing),
    Protected("editions:create", "post", REGISTRAR, kwargs=_nothing),
    Protected("editions:edit", "get", ORGANISER),
    Protected("editions:edit", "post", ORGANISER),
    # the dashboard: each role sees its own items (issue 9)
    Protected("editions:dashboard", "get", frozenset({"organiser", "td", "captain"})),
    # accounts: an edition's roles (organisers), the site-wide roles (registrars)
    Protected("accounts:roles", "get", ORGANISER),
    Protected("accounts:roles", "post", ORGANISER),
    Protected("accounts:revoke", "get", ORGANISER, kwargs=_role),  # the confirmation
    Protected("accounts:revoke", "post", ORGANISER, kwargs=_role, data={"dry": "1"}),
    Protected("accounts:site_roles", "get", REGISTRAR, kwargs=_nothing),
    Protected("accounts:site_roles", "post", REGISTRAR, kwargs=_nothing),
    Protected("accounts:site_revoke", "get", REGISTRAR, kwargs=_site_role),
    Protected("accounts:site_revoke", "post", REGISTRAR, kwargs=_site_role),
    # players: the shared register; read by an edition's organisers and TDs, changed by the
    # registrar only (issue 8)
    Protected("players:list", "get", REGISTER_READERS),
    Protected("players:create", "get", REGISTRAR),
    Protected("players:create", "post", REGISTRAR),
    Protected("players:edit", "get", REGISTER_READERS, kwargs=_player),  # read only (issue 9)
    Protected("players:edit", "post", REGISTRAR, kwargs=_player),
    Protected("players:delete", "get", REGISTRAR, kwargs=_player),
    Protected("players:delete", "post", REGISTRAR, kwargs=_player),
    Protected("players:import", "get", REGISTRAR),
    Protected("players:import", "post", REGISTRAR),
    Protected("players:elo", "get", REGISTER_READERS),
    Protected("players:elo_undo", "get", REGISTRAR, kwargs=_elo_import),
    Protected("players:elo_undo", "post", REGISTRAR, kwargs=_elo_import),
    # entries (bridgeko.entries): organisers; a captain only their own team (CAPTAIN_TEAM_ID); a
    # TD reads the teams and their conditions of entry but changes nothing (issue 9)
    Protected("entries:list", "get", ORGANISER_TD),
    Protected("entries:create", "get", ORGANISER),
    Protected("entries:create", "post", ORGANISER),
    Protected("entries:detail", "get", ORGANISER_CAPTAIN_TD, kwargs=_team),
    Protected("entries:edit", "get", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:edit", "post", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:pairs", "get", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:pairs", "post", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:conditions", "get", ORGANISER_TD, kwargs=_team),
    Protected("entries:conditions", "post", ORGANISER, kwargs=_team, data={"fee_paid": "x"}),
    Protected("entries:fee", "get", ORGANISER, kwargs=_team),
    Protected("entries:fee", "post", ORGANISER, kwargs=_team, data={"amount": "x"}),
    Protected("entries:late_decision", "post", ORGANISER, kwargs=_team, data={"decision": "x"}),
    Protected("entries:closing", "get", ORGANISER),
    Protected("entries:closing", "post", ORGANISER),
    Protected("entries:reopen", "post", ORGANISER),
    # a captain's own team (issue 9): My team, convention cards (R3.1b)
    Protected("entries:my_team", "get", ORGANISER_CAPTAIN),
    Protected("entries:my_team_of", "get", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:card_upload", "get", ORGANISER_CAPTAIN, kwargs=_pair),
    Protected("entries:card_upload", "post", ORGANISER_CAPTAIN, kwargs=_pair),
    Protected("entries:card", "get", ORGANISER_TD_CAPTAIN, kwargs=_card),
    # draw (bridgeko.draw): organisers; a TD reads the draw and the dates (issue 9)
    Protected("draw:manage", "get", ORGANISER_TD),
    Protected("draw:announce", "post", ORGANISER),
    Protected("draw:commit", "post", ORGANISER),
    Protected("draw:hold", "post", ORGANISER),
    Protected("draw:manual", "post", ORGANISER),
    Protected("draw:scheme", "post", ORGANISER),
    Protected("draw:schedule", "get", ORGANISER_TD),
    Protected("draw:schedule_defaults", "post", ORGANISER),
    Protected("draw:schedule_publish", "post", ORGANISER),
    Protected("draw:schedule_match", "post", ORGANISER, kwargs=_match),
    # failures to appear (bridgeko.draw, R15): TDs and organisers
    Protected("draw:no_shows", "get", ORGANISER_TD),
    Protected("draw:no_show", "get", ORGANISER_TD, kwargs=_team),
    Protected("draw:no_show", "post", ORGANISER_TD, kwargs=_team),
    Protected("draw:no_show_change", "get", ORGANISER_TD, kwargs=_no_show),
    Protected("draw:no_show_change", "post", ORGANISER_TD, kwargs=_no_show),
    Protected("draw:no_show_change", "post", ORGANISER_TD, kwargs=_no_show, data={"withdraw": "1"}),
    # printable lists (issue 9): organisers and TDs
    Protected("draw:print_index", "get", ORGANISER_TD),
    Protected("draw:print_teams", "get", ORGANISER_TD),
    Protected("draw:print_fees", "get", ORGANISER_TD),
    Protected("draw:print_conditions", "get", ORGANISER_TD),
    Protected("draw:print_draw", "get", ORGANISER_TD),
    Protected("draw:print_schedule", "get", ORGANISER_TD),
    # line-ups (bridgeko.matches, R12.6): a captain his own team's, the TDs either team's
    Protected("matches:line_up", "get", ORGANISER_CAPTAIN_TD, kwargs=_line_up),
    Protected("matches:line_up", "post", ORGANISER_CAPTAIN_TD, kwargs=_line_up),
    # captains agree a date (issue 21): the team's captain, TDs, organisers; the TD rules
    Protected("matches:date", "get", ORGANISER_CAPTAIN_TD, kwargs=_date_side),
    Protected("matches:date", "post", ORGANISER_CAPTAIN_TD, kwargs=_date_side),
    Protected("matches:date_ruling", "get", ORGANISER_TD, kwargs=_date_ruling),
    Protected("matches:date_ruling", "post", ORGANISER_TD, kwargs=_date_ruling),
    # the match record from the captains (issue 21)
    Protected("matches:record", "get", ORGANISER_CAPTAIN_TD, kwargs=_date_side),
    Protected("matches:record", "post", ORGANISER_CAPTAIN_TD, kwargs=_date_side),
    Protected("matches:record_scorecards", "get", ORGANISER_CAPTAIN_TD, kwargs=_record_of),
    Protected("matches:record_review", "get", ORGANISER_TD, kwargs=_date_ruling),
    Protected("matches:record_review", "post", ORGANISER_TD, kwargs=_date_ruling),
    Protected("matches:line_up_clear", "get", ORGANISER_TD, kwargs=_line_up),
    Protected("matches:line_up_clear", "post", ORGANISER_TD, kwargs=_line_up),
    Protected("matches:segment_start", "post", ORGANISER_TD, kwargs=_segment),
    Protected("matches:slips", "get", ORGANISER_TD, kwargs=_segment),
    # matches: results from a PBN file (issue 10): TDs and organisers
    Protected("matches:import_pbn", "get", ORGANISER_TD, kwargs=_match_row),
    Protected("matches:import_pbn", "post", ORGANISER_TD, kwargs=_match_row),
    # matches: results from a Bridgemate file (issue 20): TDs and organisers
    Protected("matches:import_bws", "get", ORGANISER_TD, kwargs=_match_row),
    Protected("matches:import_bws", "post", ORGANISER_TD, kwargs=_match_row),
    # standings and schedule (bridgeko.matches): every role reads the standings, organisers
    # decide the places the regulations do not (I16) and swap home and visitors (I2), TDs
    # reschedule by agreement (R14.2)
    Protected("matches:standings", "get", frozenset({"organiser", "td", "captain", "appeals"})),
    Protected("matches:decide_place", "post", ORGANISER, data={"place": "x"}),
    Protected("matches:cbs_files", "get", ORGANISER_TD),
    Protected("matches:withdraw_decision", "get", ORGANISER, kwargs=_place_decision),
    Protected("matches:withdraw_decision", "post", ORGANISER, kwargs=_place_decision),
    Protected("matches:dates", "get", ORGANISER_TD),
    Protected("matches:reschedule", "get", ORGANISER_TD, kwargs=_match_row),
    Protected("matches:reschedule", "post", ORGANISER_TD, kwargs=_match_row),
    Protected("matches:swap", "get", ORGANISER, kwargs=_match_row),
    Protected("matches:swap", "post", ORGANISER, kwargs=_match_row),
    # match pages (issue 10): TDs enter, the appeals committee reads
    Protected("matches:list", "get", MATCH_READERS),
    Protected("matches:detail", "get", MATCH_READERS, kwargs=_match_page),
    Protected("matches:save_board", "post", ORGANISER_TD, kwargs=_match_board),
    Protected("matches:segment_totals", "post", ORGANISER_TD, kwargs=_match_segment),
    Protected("matches:close_segment", "post", ORGANISER_TD, kwargs=_match_segment),
    Protected("matches:add_penalty", "post", ORGANISER_TD, kwargs=_match_page),
    Protected("matches:withdraw_penalty", "get", ORGANISER_TD, kwargs=_penalty),
    Protected("matches:withdraw_penalty", "post", ORGANISER_TD, kwargs=_penalty),
    # appeals (R16): the TDs lodge and withdraw, the organisers keep the list and name the
    # committee; a committee member (appeals role) reads and decides only the appeals they sit
    # on (tests/web/test_appeals.py), a captain reads the appeals of the team's matches
    Protected("appeals:list", "get", frozenset({"organiser", "td", "appeals"})),
    Protected("appeals:settings", "get", ORGANISER),
    Protected("appeals:settings", "post", ORGANISER, data={"candidates": "x" * 20001}),
    Protected("appeals:lodge", "get", ORGANISER_TD, kwargs=_appeal_match),
    Protected("appeals:lodge", "post", ORGANISER_TD, kwargs=_appeal_match),
    Protected("appeals:detail", "get", ORGANISER_TD, kwargs=_appeal),
    Protected("appeals:committee", "post", ORGANISER, kwargs=_appeal),
    Protected("appeals:decide", "get", ORGANISER, kwargs=_appeal),
    Protected("appeals:decide", "post", ORGANISER, kwargs=_appeal),
    Protected("appeals:withdraw", "get", ORGANISER_TD, kwargs=_appeal),
    Protected("appeals:withdraw", "post", ORGANISER_TD, kwargs=_appeal),
    Protected("appeals:team", "get", ORGANISER_CAPTAIN_TD, kwargs=_team_appeal),
    # end of appeals
    # boards of a segment (issue 11, R12.7, I15): the organiser and chief TD commit, make and
    # download a set and restart its analysis; TDs see the state, load the deals played and
    # record the end of a segment per room
    Protected("boards:match", "get", ORGANISER_TD, kwargs=_board_match),
    Protected("boards:set", "get", ORGANISER_TD, kwargs=_board_set),
    Protected("boards:progress", "get", ORGANISER_TD, kwargs=_board_set),
    Protected("boards:commit", "get", ORGANISER, kwargs=_board_set),
    Protected("boards:commit", "post", ORGANISER, kwargs=_board_set),
    Protected("boards:make", "post", ORGANISER, kwargs=_board_set),
    Protected("boards:download", "get", ORGANISER, kwargs=_board_set),
    Protected("boards:restart", "post", ORGANISER, kwargs=_board_set),
    Protected("boards:load", "get", ORGANISER_TD, kwargs=_board_set),
    Protected("boards:load", "post", ORGANISER_TD, kwargs=_board_set),
    Protected("matches:room_end", "post", ORGANISER_TD, kwargs=_room_end),
    Protected("matches:room_end_clear", "get", ORGANISER_TD, kwargs=_room_end),
    Protected("matches:room_end_clear", "post", ORGANISER_TD, kwargs=_room_end),
    # mail (bridgeko.mail): the outbox is the organisers' (organiser, chief TD)
    Protected("mail:outbox", "get", ORGANISER),
    Protected("mail:detail", "get", ORGANISER, kwargs=_mail),
    Protected("mail:send_again", "post", ORGANISER, kwargs=_mail),
    # hand records (bridgeko.boards, issue 11): the deals themselves only as secrecy.may_see
    Protected("boards:hand_records", "get", MATCH_READERS, kwargs=_hand_record_set),
    Protected("boards:hand_record", "get", MATCH_READERS, kwargs=_hand_record_board),
    # paper (issue 11): the PDFs — blank entry form (the edition's people), a team's entry form
    # and receipt (its captain, the organiser), a match's record and appeal form (TDs, the
    # appeals committee, the captains of the match), a segment's table cards (TDs) and hand
    # records (every role once the segment has ended, I15), the prize list (every role)
    Protected("paper:entry_form", "get", ORGANISER_CAPTAIN_TD),
    Protected("paper:team_entry_form", "get", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("paper:receipt", "get", ORGANISER_CAPTAIN, kwargs=_paid_team),
    Protected("paper:match_record", "get", MATCH_READERS | {"captain"}, kwargs=_paper_match),
    Protected("paper:appeal_form", "get", MATCH_READERS | {"captain"}, kwargs=_paper_match),
    Protected("paper:line_ups", "get", ORGANISER_TD, kwargs=_segment),
    Protected("paper:hand_records", "get", MATCH_READERS | {"captain"}, kwargs=_paper_deals),
    Protected("paper:prize_list", "get", frozenset({"organiser", "td", "captain", "appeals"})),
    # audit: the entries of one's editions (a registrar's: also the site-wide ones)
    Protected("audit:log", "get", frozenset({"organiser", "registrar"}), kwargs=_nothing),
]


def _protected_patterns() -> Iterator[tuple[str, URLPattern]]:
    def walk(patterns: list[Any], namespace: str) -> Iterator[tuple[str, URLPattern]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                yield from walk(p.url_patterns, ns)
            elif isinstance(p, URLPattern) and hasattr(p.callback, "bridgeko_roles"):
                yield f"{namespace}{p.name}", p

    yield from walk(get_resolver().url_patterns, "")


def _protected_url_names() -> Iterator[str]:
    for name, _pattern in _protected_patterns():
        yield name


def test_every_protected_url_is_registered() -> None:
    registered = {entry.name for entry in REGISTRY}
    protected = set(_protected_url_names())
    missing = sorted(protected - registered)
    assert missing == [], f"add these URLs to tests/web/test_permissions.py REGISTRY: {missing}"
    assert sorted(registered - protected) == []  # no stale entry


@pytest.mark.django_db
def test_a_registered_method_is_the_only_one_a_view_accepts(world: World) -> None:
    """A protected URL registered for POST only refuses a GET (and one for GET only a POST,
    test_hardening): a method without a case here would be a mutating URL nobody checked."""
    methods: dict[str, set[str]] = {}
    for entry in REGISTRY:
        methods.setdefault(entry.name, set()).add(entry.method)
    client = world.client("superuser")
    checked = 0
    for entry in REGISTRY:
        if methods[entry.name] == {"post"}:
            response = client.get(reverse(entry.name, kwargs=entry.kwargs(world)))
            assert response.status_code == 405, entry.name
            checked += 1
    assert checked >= 8  # delete and revoke ask first on a GET (issue 9)


@dataclass
class Two:
    """The world edition (A, where the role users hold their roles) and another (B)."""

    world: World
    other: Edition

    def client(self, who: str) -> Client:
        return self.world.client(who)


@pytest.fixture
def two(world: World, toml_1999: str) -> Two:
    from bridgeko.editions.services import create_edition

    world.users["organiser-b"] = make_user("organiser-b")
    other = create_edition(slug=OTHER_SLUG, toml_text=toml_1999, user=world.users["organiser-b"])
    return Two(world=world, other=other)


def _outcome(response: Any) -> str:
    if response.status_code == 302 and response["Location"].startswith(reverse("login")):
        return "login"
    if response.status_code == 403:
        return "403"
    if response.status_code == 404:
        return "404"
    if response.status_code >= 500:
        return "500"
    return "allowed"


def _expected(who: str, allowed: frozenset[str]) -> str:
    if who in allowed or who == "superuser":
        return "allowed"
    return "login" if who == "anonymous" else "403"


def _visit(client: Client, entry: Protected, kwargs: dict[str, Any]) -> Any:
    url = reverse(entry.name, kwargs=kwargs)
    send = client.post if entry.method == "post" else client.get
    return send(url, entry.data)


@pytest.mark.slow  # every protected URL as every role
@pytest.mark.django_db
def test_every_protected_url_as_every_role(world: World) -> None:
    """In one's own edition (A): each role may use exactly the URLs registered for it."""
    failures: list[str] = []
    for entry in REGISTRY:
        for who in ROLE_USERS:
            got = _outcome(_visit(world.client(who), entry, entry.kwargs(world)))
            if got != _expected(who, entry.allowed):
                failures.append(
                    f"{entry.method.upper()} {entry.name} as {who}: got {got}, "
                    f"expected {_expected(who, entry.allowed)}"
                )
    assert failures == []


@pytest.mark.slow  # every protected URL as every role
@pytest.mark.django_db
def test_issue8_role_in_one_edition_is_refused_in_another(two: Two) -> None:
    """Every protected URL of the other edition (B), as every role held in edition A only: the
    edition's roles count nowhere else; only the site-wide roles (registrar, superuser) keep
    what they may do everywhere."""
    failures: list[str] = []
    checked = 0
    for entry in REGISTRY:
        kwargs = entry.kwargs(two.world, two.other)
        if "edition" not in kwargs:
            continue  # not an edition's URL: covered by the test above
        checked += 1
        for who in ROLE_USERS:
            allowed = entry.allowed & SITE_WIDE
            got = _outcome(_visit(two.client(who), entry, kwargs))
            if got != _expected(who, allowed):
                failures.append(
                    f"{entry.method.upper()} {entry.name} of B as {who} of A: got {got}, "
                    f"expected {_expected(who, allowed)}"
                )
    assert failures == []
    assert checked >= 40


@pytest.mark.slow  # every protected URL as every role
@pytest.mark.django_db
def test_issue8_object_of_another_edition_is_refused_through_ones_own_url(two: Two) -> None:
    """Edition A's URL naming an object of edition B (B's team, B's role assignment, a player
    on B's roster): no role of edition A may act on it (403 or 404); the check is the edition of
    the object changed, not only the edition in the URL."""
    failures: list[str] = []
    checked = 0
    for entry in REGISTRY:
        if entry.kwargs not in OBJECT_KWARGS:
            continue
        kwargs = entry.kwargs(two.world, two.other) | {"edition": two.world.edition.slug}
        checked += 1
        for who in ROLE_USERS:
            if who in SITE_WIDE:
                continue  # not tied to an edition
            got = _outcome(_visit(two.client(who), entry, kwargs))
            if got not in ("login", "403", "404") or (who == "anonymous") != (got == "login"):
                failures.append(
                    f"{entry.method.upper()} {entry.name} (A's URL, B's object) as {who}: {got}"
                )
    assert failures == []
    assert checked >= 15


@pytest.mark.django_db
def test_403_page_is_friendly(world: World) -> None:
    client = world.client("captain")
    response = client.get(reverse("players:list", kwargs={"edition": "ko-1999"}))
    assert response.status_code == 403
    assert response.templates[0].name == "403.html"
    assert "ask the organiser" in response.content.decode()


# ------------------------------------------------- issue 8: the finding, step by step

ELO_CSV = "id;name;club;elo;member\n1001;Novák Jan;BK;1500;A\n1002;Svoboda Petr;BK;1400;N\n"
ELO_FORM = {
    "encoding": "",
    "has_header": "on",
    "col_federation_id": "1",
    "col_name": "2",
    "col_club": "3",
    "col_elo": "4",
    "col_member": "5",
}


def _rostered_player(two: Two) -> Any:
    from bridgeko.players.models import Player

    return Player.objects.get(pk=_player(two.world, two.other)["pk"])


@pytest.mark.django_db
def test_issue8_organiser_of_one_edition_cannot_rename_a_player_on_anothers_roster(
    two: Two,
) -> None:
    player = _rostered_player(two)  # on a roster of edition B
    own = two.world.edition.slug  # the organiser's edition (A)
    organiser = two.client("organiser")
    url = reverse("players:edit", kwargs={"edition": own, "pk": player.pk})
    response = organiser.post(url, {"name": "Přejmenovaný", "federation_id": "P-x"})
    assert response.status_code == 403
    response = organiser.post(reverse("players:delete", kwargs={"edition": own, "pk": player.pk}))
    assert response.status_code == 403
    player.refresh_from_db()
    assert player.name == f"Hráč {OTHER_SLUG}"
    assert not AuditEntry.objects.filter(action__startswith="bridgeko.player.").exists()


@pytest.mark.django_db
def test_issue8_organiser_of_one_edition_cannot_create_an_edition(two: Two, toml_1999: str) -> None:
    organiser = two.client("organiser")
    assert organiser.get(reverse("editions:create")).status_code == 403
    upload = SimpleUploadedFile("e.toml", toml_1999.encode())
    response = organiser.post(reverse("editions:create"), {"slug": "ko-2001", "upload": upload})
    assert response.status_code == 403
    assert not Edition.objects.filter(slug="ko-2001").exists()
    page = organiser.get(reverse("editions:list"))
    assert reverse("editions:create") not in page.content.decode()


@pytest.mark.django_db
def test_issue8_organiser_cannot_replace_the_elo_list_other_editions_use(two: Two) -> None:
    from bridgeko.players.models import EloList

    organiser = two.client("organiser")
    url = reverse("players:import", kwargs={"edition": two.world.edition.slug})
    upload = SimpleUploadedFile("elo.csv", ELO_CSV.encode())
    assert organiser.get(url).status_code == 403
    assert organiser.post(url, ELO_FORM | {"file": upload, "preview": "1"}).status_code == 403
    assert organiser.post(url, ELO_FORM | {"confirm": "1"}).status_code == 403
    assert not EloList.objects.exists()
    # the organiser and the TD still read the register of their edition
    listing = reverse("players:list", kwargs={"edition": two.world.edition.slug})
    for who in ("organiser", "td"):
        page = two.client(who).get(listing)
        assert page.status_code == 200, who
        assert url not in page.content.decode()  # no link to what they may not do


@pytest.mark.django_db
def test_issue8_register_change_is_audited_under_every_edition_it_touches(two: Two) -> None:
    """The registrar renames a player on B's roster from A's page: one entry under B (the
    edition it touches) and one under A (where it was made); an Elo import for the reference
    date both editions use: one entry under each."""
    player = _rostered_player(two)
    registrar = two.client("registrar")
    own = two.world.edition.slug
    url = reverse("players:edit", kwargs={"edition": own, "pk": player.pk})
    response = registrar.post(url, {"name": "Nové Jméno", "federation_id": player.federation_id})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.name == "Nové Jméno"
    changed = AuditEntry.objects.filter(action="bridgeko.player.changed")
    assert sorted(e.edition.slug for e in changed) == sorted([own, OTHER_SLUG])

    url = reverse("players:import", kwargs={"edition": own})
    upload = SimpleUploadedFile("elo.csv", ELO_CSV.encode())
    assert registrar.post(url, ELO_FORM | {"file": upload, "preview": "1"}).status_code == 200
    assert registrar.post(url, ELO_FORM | {"confirm": "1"}).status_code == 302
    imported = AuditEntry.objects.filter(action="bridgeko.player.imported")
    assert sorted(e.edition.slug for e in imported) == sorted([own, OTHER_SLUG])
    # each edition's organiser sees the change in their audit log
    for who in ("organiser", "organiser-b"):
        page = two.world.client(who).get(reverse("audit:log"))
        actions = [e.action for e in page.context["page"]]
        assert "bridgeko.player.changed" in actions and "bridgeko.player.imported" in actions


@pytest.mark.django_db
def test_issue8_a_new_player_is_audited_site_wide_when_made_outside_an_edition(
    world: World,
) -> None:
    from bridgeko.players import services

    player = services.create_player(data={"name": "Nový"}, user=world.users["registrar"])
    entry = AuditEntry.objects.get(action="bridgeko.player.created", object_id=str(player.pk))
    assert entry.edition is None
    page = world.client("registrar").get(reverse("audit:log"))
    assert entry in list(page.context["page"])
    page = world.client("organiser").get(reverse("audit:log"))
    assert entry not in list(page.context["page"])


@pytest.mark.django_db
def test_registrar_creates_an_edition_and_organises_it(world: World, toml_1999: str) -> None:
    registrar = world.client("registrar")
    upload = SimpleUploadedFile("e.toml", toml_1999.encode())
    response = registrar.post(reverse("editions:create"), {"slug": "ko-2001", "upload": upload})
    assert response.status_code == 302
    new = Edition.objects.get(slug="ko-2001")
    assert RoleAssignment.objects.filter(
        user=world.users["registrar"], edition=new, role=Role.ORGANISER
    ).exists()
    # ... but has no role in an edition it did not make
    assert registrar.get(reverse("entries:list", kwargs={"edition": "ko-1999"})).status_code == 403


# ------------------------------------------------- the registrar role is given and taken


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["registrar", "superuser"])
def test_registrar_role_is_given_and_taken_on_the_site_roles_page(world: World, who: str) -> None:
    client = world.client(who)
    url = reverse("accounts:site_roles")
    response = client.post(url, {"username": "td"})
    assert response.status_code == 302
    assignment = RoleAssignment.objects.get(user=world.users["td"], role=Role.REGISTRAR)
    assert assignment.edition is None
    entry = AuditEntry.objects.get(action="bridgeko.role.assigned")
    assert entry.edition is None and entry.user == world.users[who]
    page = client.get(url)
    assert "td" in [a.user.username for a in page.context["assignments"]]
    response = client.post(reverse("accounts:site_revoke", kwargs={"pk": assignment.pk}))
    assert response.status_code == 302
    assert not RoleAssignment.objects.filter(pk=assignment.pk).exists()
    assert AuditEntry.objects.filter(action="bridgeko.role.revoked", edition=None).exists()


@pytest.mark.django_db
def test_organiser_cannot_give_the_registrar_role(world: World) -> None:
    organiser = world.client("organiser")
    assert organiser.post(reverse("accounts:site_roles"), {"username": "td"}).status_code == 403
    url = reverse("accounts:roles", kwargs={"edition": world.edition.slug})
    page = organiser.post(url, {"username": "td", "role": "registrar"})
    assert page.status_code == 200
    assert page.context["form"].errors["role"]
    assert not RoleAssignment.objects.filter(role=Role.REGISTRAR, user=world.users["td"]).exists()


@pytest.mark.django_db
def test_registrar_role_is_never_tied_to_an_edition(world: World) -> None:
    from django.db import IntegrityError, transaction

    from bridgeko.accounts.services import assign_role
    from bridgeko.core.errors import ServiceError

    with pytest.raises(ServiceError):
        assign_role(edition=world.edition, username="td", role=Role.REGISTRAR, user=None)
    with pytest.raises(ServiceError):
        assign_role(edition=None, username="td", role=Role.ORGANISER, user=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoleAssignment.objects.create(
            user=world.users["td"], edition=world.edition, role=Role.REGISTRAR
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        RoleAssignment.objects.create(user=world.users["td"], edition=None, role=Role.TD)


@pytest.mark.django_db
def test_registrar_pages_in_czech_and_english(world: World) -> None:
    page = world.client("registrar", language="cs").get(reverse("accounts:site_roles"))
    text = page.content.decode()
    assert "Role pro celý web" in text and "Udělat z účtu matrikáře" in text
    assert "Matrikář (celý web)" in text  # the role of the registrar listed
    page = world.client("registrar").get(reverse("accounts:site_roles"))
    assert "Make an account a registrar" in page.content.decode()
    listing = reverse("players:list", kwargs={"edition": world.edition.slug})
    page = world.client("td", language="cs").get(listing)
    assert "mění je jen matrikář" in page.content.decode()


@pytest.mark.django_db
def test_organisers_dashboard_sends_the_elo_import_to_the_registrar(world: World) -> None:
    url = reverse("editions:dashboard", kwargs={"edition": world.edition.slug})
    import_url = reverse("players:import", kwargs={"edition": world.edition.slug})
    page = world.client("organiser", language="cs").get(url)
    text = page.content.decode()
    assert import_url not in text
    assert "Požádejte matrikáře o její načtení." in text
    page = world.client("superuser").get(url)
    assert import_url in page.content.decode()
