"""Who may use which protected URL: ONE registry and ONE test visiting each as every role.

Every app appends its protected URLs to :data:`REGISTRY` (URL name, method, example kwargs, the
role users who may use it). ``test_every_protected_url_is_registered`` fails when a view wrapped
in the permission helper has no entry here.

Role users (see ``conftest.World``): ``anonymous`` (not logged in), ``public`` (logged in, no
role), ``captain`` (captain of team ``CAPTAIN_TEAM_ID``), ``appeals``, ``td``, ``organiser``.
Expected outcome: allowed → neither 403 nor a redirect to the login page; a denied anonymous
user → redirect to the login page; a denied logged-in user → 403 (the friendly page).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.web.conftest import CAPTAIN_TEAM_ID, ROLE_USERS, World

ORGANISER = frozenset({"organiser"})
EVERYONE_LOGGED_IN = frozenset(ROLE_USERS) - {"anonymous"}


@dataclass(frozen=True)
class Protected:
    name: str
    """The URL name, e.g. ``"players:import"``."""
    method: str
    """``"get"`` or ``"post"``."""
    allowed: frozenset[str]
    """The role users who may use it."""
    kwargs: Callable[[World], dict[str, Any]] = lambda w: {"edition": w.edition.slug}
    """Example URL kwargs, built from the test world."""
    data: dict[str, Any] = field(default_factory=dict)
    """POST data (keep it invalid or harmless: every role posts it in turn)."""


def _player(world: World) -> dict[str, Any]:
    from bridgeko.players.models import Player

    player, _created = Player.objects.get_or_create(federation_id="P1", defaults={"name": "X"})
    return {"edition": world.edition.slug, "pk": player.pk}


def _elo_import(world: World) -> dict[str, Any]:
    from bridgeko.players.models import EloImport

    elo_import, _created = EloImport.objects.get_or_create(
        reference_date=world.edition.regulations.rating.reference_date,
        defaults={"at": "1999-02-01T10:00Z"},
    )
    return {"edition": world.edition.slug, "pk": elo_import.pk}


def _role(world: World) -> dict[str, Any]:
    from bridgeko.accounts.models import RoleAssignment

    assignment = RoleAssignment.objects.get(edition=world.edition, user=world.users["appeals"])
    return {"edition": world.edition.slug, "pk": assignment.pk}


def _team(world: World) -> dict[str, Any]:
    """The captain's team (id ``CAPTAIN_TEAM_ID``), not yet entered, so the captain may edit it."""
    from bridgeko.entries.models import Team

    Team.objects.get_or_create(
        pk=CAPTAIN_TEAM_ID,
        defaults={"edition": world.edition, "name": "Kapitáni", "created_at": "1999-02-01T10:00Z"},
    )
    return {"edition": world.edition.slug, "team": CAPTAIN_TEAM_ID}


def _match(world: World) -> dict[str, Any]:
    return {"edition": world.edition.slug, "match": "R1-M2"}


ORGANISER_CAPTAIN = frozenset({"organiser", "captain"})
ORGANISER_TD = frozenset({"organiser", "td"})


REGISTRY: list[Protected] = [
    # editions
    Protected("editions:create", "get", ORGANISER, kwargs=lambda w: {}),
    Protected("editions:create", "post", ORGANISER, kwargs=lambda w: {}),
    Protected("editions:edit", "get", ORGANISER),
    Protected("editions:edit", "post", ORGANISER),
    Protected("editions:dashboard", "get", ORGANISER),
    # accounts
    Protected("accounts:roles", "get", ORGANISER),
    Protected("accounts:roles", "post", ORGANISER),
    Protected("accounts:revoke", "post", ORGANISER, kwargs=_role, data={"dry": "1"}),
    # players
    Protected("players:list", "get", ORGANISER),
    Protected("players:create", "get", ORGANISER),
    Protected("players:create", "post", ORGANISER),
    Protected("players:edit", "get", ORGANISER, kwargs=_player),
    Protected("players:edit", "post", ORGANISER, kwargs=_player),
    Protected("players:delete", "post", ORGANISER, kwargs=_player),
    Protected("players:import", "get", ORGANISER),
    Protected("players:import", "post", ORGANISER),
    Protected("players:elo", "get", ORGANISER),
    Protected("players:elo_undo", "get", ORGANISER, kwargs=_elo_import),
    Protected("players:elo_undo", "post", ORGANISER, kwargs=_elo_import),
    # entries (bridgeko.entries): organisers; a captain only their own team (CAPTAIN_TEAM_ID)
    Protected("entries:list", "get", ORGANISER),
    Protected("entries:create", "get", ORGANISER),
    Protected("entries:create", "post", ORGANISER),
    Protected("entries:detail", "get", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:edit", "get", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:edit", "post", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:pairs", "get", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:pairs", "post", ORGANISER_CAPTAIN, kwargs=_team),
    Protected("entries:conditions", "get", ORGANISER, kwargs=_team),
    Protected("entries:conditions", "post", ORGANISER, kwargs=_team, data={"fee_paid": "x"}),
    Protected("entries:fee", "get", ORGANISER, kwargs=_team),
    Protected("entries:fee", "post", ORGANISER, kwargs=_team, data={"amount": "x"}),
    Protected("entries:no_shows", "get", ORGANISER_TD),
    Protected("entries:no_show", "get", ORGANISER_TD, kwargs=_team),
    Protected("entries:no_show", "post", ORGANISER_TD, kwargs=_team),
    Protected("entries:closing", "get", ORGANISER),
    Protected("entries:closing", "post", ORGANISER),
    Protected("entries:reopen", "post", ORGANISER),
    # draw (bridgeko.draw): organisers only
    Protected("draw:manage", "get", ORGANISER),
    Protected("draw:announce", "post", ORGANISER),
    Protected("draw:commit", "post", ORGANISER),
    Protected("draw:hold", "post", ORGANISER),
    Protected("draw:manual", "post", ORGANISER),
    Protected("draw:schedule", "get", ORGANISER),
    Protected("draw:schedule_defaults", "post", ORGANISER),
    Protected("draw:schedule_publish", "post", ORGANISER),
    Protected("draw:schedule_match", "post", ORGANISER, kwargs=_match),
    # audit
    Protected("audit:log", "get", ORGANISER, kwargs=lambda w: {}),
]


def _protected_url_names() -> Iterator[str]:
    def walk(patterns: list[Any], namespace: str) -> Iterator[str]:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                yield from walk(p.url_patterns, ns)
            elif isinstance(p, URLPattern) and hasattr(p.callback, "bridgeko_roles"):
                yield f"{namespace}{p.name}"

    yield from walk(get_resolver().url_patterns, "")


def test_every_protected_url_is_registered() -> None:
    registered = {entry.name for entry in REGISTRY}
    missing = sorted(set(_protected_url_names()) - registered)
    assert missing == [], f"add these URLs to tests/web/test_permissions.py REGISTRY: {missing}"


@pytest.mark.django_db
def test_every_protected_url_as_every_role(world: World) -> None:
    failures: list[str] = []
    for entry in REGISTRY:
        for who in ROLE_USERS:
            client = world.client(who)
            url = reverse(entry.name, kwargs=entry.kwargs(world))
            send = client.post if entry.method == "post" else client.get
            response = send(url, entry.data)
            to_login = response.status_code == 302 and response["Location"].startswith(
                reverse("login")
            )
            if who in entry.allowed:
                ok = response.status_code != 403 and not to_login and response.status_code < 500
            elif who == "anonymous":
                ok = to_login
            else:
                ok = response.status_code == 403
            if not ok:
                verdict = "allowed" if who in entry.allowed else "denied"
                failures.append(
                    f"{entry.method.upper()} {entry.name} as {who}: "
                    f"got {response.status_code}, expected {verdict}"
                )
    assert failures == []


@pytest.mark.django_db
def test_403_page_is_friendly(world: World) -> None:
    client = world.client("td")
    response = client.get(reverse("players:list", kwargs={"edition": "ko-1999"}))
    assert response.status_code == 403
    assert response.templates[0].name == "403.html"
    assert "ask the organiser" in response.content.decode()
