"""Czech search and order of names (issue 9, item 4): search ignores case and diacritics, lists
sort in Czech order (ch after h; č ř š ž after c r s z; á é í … as their base letter unless the
names are otherwise equal) — on SQLite and PostgreSQL alike (the sort key and the search text are
stored columns, see ``bridgeko.core.collation``)."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.core.collation import czech_sorted, search_text, sort_key
from bridgeko.entries.models import Team
from bridgeko.players import elo_csv
from bridgeko.players import services as player_services
from bridgeko.players.models import Player
from bridgeko.players.queries import find_players

from .conftest import make_user

CZECH_ORDER = [
    "Ábel",
    "Adam",
    "Cibulka",
    "Cimr",
    "Čermák",
    "Černý",
    "Ďuriš",
    "Dvořák",
    "Hájek",
    "Horák",
    "Hrubý",
    "Chalupa",
    "Chudý",
    "Kříž",
    "Kučera",
    "Němec",
    "Novak",
    "Novák",
    "Nováková",
    "Rys",
    "Řehoř",
    "Svoboda",
    "Šimek",
    "Šťastný",
    "Tůma",
    "Zeman",
    "Žák",
]
"""Surnames in correct Czech order: Ábel before Adam (á is a at first), Cimr before Čermák (č
after c), Ďuriš before Dvořák (ď is d at first), Hrubý before Chalupa (ch after h), Kříž before
Kučera (ř is r: "kr" before "ku"), Němec before Novák (ě is e), Novak before Novák (otherwise
equal: the accent decides), Rys before Řehoř, Svoboda before Šimek, Zeman before Žák."""

NOW = datetime(1999, 2, 1, 12, tzinfo=UTC)


def _shuffled(names: list[str]) -> list[str]:
    out = list(names)
    random.Random(9).shuffle(out)
    return out


def _players(names: list[str]) -> list[Player]:
    return [
        Player.objects.create(name=f"{name} Jan", federation_id=str(1000 + i), club="BK Praha")
        for i, name in enumerate(_shuffled(names))
    ]


def test_czech_order_of_names() -> None:
    assert czech_sorted(_shuffled(CZECH_ORDER), key=str) == CZECH_ORDER
    assert sorted(CZECH_ORDER) != CZECH_ORDER  # code-point order is not Czech order


def test_search_text_folds_case_and_diacritics() -> None:
    assert {search_text(q) for q in ("sim", "šim", "Šim", "ŠIM", "SIM")} == {"sim"}
    assert search_text("Čermák") == "cermak"


@pytest.mark.django_db
def test_players_list_is_in_czech_order(world: Any) -> None:
    _players(CZECH_ORDER)
    page = world.client("td").get(reverse("players:list", kwargs={"edition": "ko-1999"}))
    assert page.status_code == 200
    shown = [player.name.removesuffix(" Jan") for player, _elo in page.context["rows"]]
    assert shown == CZECH_ORDER
    body = page.content.decode()
    assert body.index("Hrubý Jan") < body.index("Chalupa Jan") < body.index("Zeman Jan")


@pytest.mark.django_db
@pytest.mark.parametrize("query", ["sim", "šim", "Šim", "ŠIMEK", "  simek "])
def test_search_ignores_case_and_diacritics(world: Any, query: str) -> None:
    _players(CZECH_ORDER)
    page = world.client("td").get(
        reverse("players:list", kwargs={"edition": "ko-1999"}), {"q": query}
    )
    assert [p.name for p, _elo in page.context["rows"]] == ["Šimek Jan"]
    assert [p.name for p in find_players(query)] == ["Šimek Jan"]


@pytest.mark.django_db
def test_search_cerm_finds_cermak_and_the_club_without_diacritics(world: Any) -> None:
    _players(CZECH_ORDER)
    Player.objects.create(name="Beneš Karel", club="BK Ústí nad Labem")
    client = world.client("td")
    url = reverse("players:list", kwargs={"edition": "ko-1999"})
    assert [p.name for p, _ in client.get(url, {"q": "cerm"}).context["rows"]] == ["Čermák Jan"]
    assert [p.name for p, _ in client.get(url, {"q": "usti"}).context["rows"]] == ["Beneš Karel"]
    # several found: in Czech order
    found = [p.name for p in find_players("ak")]
    assert found == [
        "Čermák Jan",
        "Dvořák Jan",
        "Horák Jan",
        "Novak Jan",
        "Novák Jan",
        "Nováková Jan",
        "Žák Jan",
    ]


@pytest.mark.django_db
def test_a_renamed_player_is_found_and_sorted_by_the_new_name(world: Any) -> None:
    player = Player.objects.create(name="Adam Jan")
    player_services.update_player(
        player=player,
        data={"name": "Žák Jan", "federation_id": "", "club": "", "member": False},
        user=world.users["organiser"],
    )
    player.refresh_from_db()
    assert player.name_search == "zak jan"
    assert bytes(player.name_key) == sort_key("Žák Jan")
    assert [p.name for p in find_players("zak")] == ["Žák Jan"]


@pytest.mark.django_db
def test_R10_1_elo_import_fills_the_search_and_order_of_new_and_renamed_players(
    world: Any,
) -> None:
    columns = elo_csv.Columns(federation_id="1", name="2", club="3", elo="4", member="5")
    header = "Reg. č.;Příjmení a jméno;Klub;IMP Elo;Člen"
    rows = [f"{2000 + i};{name} Jan;BK Praha;1500;A" for i, name in enumerate(CZECH_ORDER)]
    user = world.users["organiser"]
    data = "\n".join([header, *_shuffled(rows)]).encode()
    player_services.import_elo(edition=world.edition, data=data, columns=columns, user=user)
    assert [p.name.removesuffix(" Jan") for p in Player.objects.all()] == CZECH_ORDER
    assert [p.name for p in find_players("stastn")] == ["Šťastný Jan"]
    # a later list renames a player: the raw update keeps the derived columns in step
    renamed = [r.replace("Adam Jan", "Ženíšek Jan").replace("1500", "1600") for r in rows]
    data = "\n".join([header, *renamed]).encode()
    player_services.import_elo(edition=world.edition, data=data, columns=columns, user=user)
    assert [p.name for p in find_players("zenisek")] == ["Ženíšek Jan"]
    assert Player.objects.last().name == "Ženíšek Jan"  # type: ignore[union-attr]
    # the undo page lists the players in Czech order
    latest = player_services.last_import(world.edition.regulations.rating.reference_date)
    assert latest is not None
    plan = player_services.plan_undo(latest)
    expected = [f"{n} Jan" for n in czech_sorted([*CZECH_ORDER, "Ženíšek"], key=str) if n != "Adam"]
    assert [c.name for c in plan.changes] == expected
    page = world.client("registrar").get(
        reverse("players:elo_undo", kwargs={"edition": "ko-1999", "pk": latest.pk})
    )
    body = page.content.decode()
    assert body.index("Hrubý Jan") < body.index("Chalupa Jan") < body.index("Žák Jan")


def _teams(world: Any, names: list[str]) -> None:
    for i, name in enumerate(_shuffled(names)):  # pk: the world's team 7 was given its pk
        Team.objects.create(pk=100 + i, edition=world.edition, name=name, created_at=NOW)


@pytest.mark.django_db
def test_teams_lists_are_in_czech_order(world: Any) -> None:
    _teams(world, CZECH_ORDER)
    names = sorted([*CZECH_ORDER, "Kapitáni"], key=sort_key)  # the world's captain team
    assert names.index("Kapitáni") == CZECH_ORDER.index("Kříž")
    teams = world.client("organiser").get(reverse("entries:list", kwargs={"edition": "ko-1999"}))
    assert [t.name for t in teams.context["teams"]] == names
    public = world.client("anonymous").get(reverse("public:teams", kwargs={"edition": "ko-1999"}))
    assert public.status_code == 200
    assert [t.name for t in public.context["teams"]] == names  # equal Elo: by name
    body = public.content.decode()
    assert body.index("Hrubý") < body.index("Chalupa") < body.index("Zeman") < body.index("Žák")


@pytest.mark.django_db
def test_a_renamed_team_is_sorted_by_the_new_name(world: Any) -> None:
    _teams(world, ["Adam", "Zeman"])
    team = Team.objects.get(edition=world.edition, name="Adam")
    team.name = "Žák"
    team.save(update_fields=["name"])  # as entries.services.update_team saves a new name
    assert [t.name for t in Team.objects.filter(edition=world.edition)] == [
        "Kapitáni",
        "Zeman",
        "Žák",
    ]
    assert Team.objects.get(name="Žák").name_search == "zak"


@pytest.mark.django_db
def test_roles_page_lists_the_users_in_czech_order(world: Any) -> None:
    for username in _shuffled(["čermák", "cibulka", "hrubý", "chalupa", "žák", "zeman"]):
        RoleAssignment.objects.create(user=make_user(username), edition=world.edition, role=Role.TD)
    page = world.client("organiser").get(reverse("accounts:roles", kwargs={"edition": "ko-1999"}))
    users = [a.user.username for a, _link in page.context["assignments"]]
    assert users == [
        "appeals",
        "captain",
        "cibulka",
        "čermák",
        "hrubý",
        "chalupa",
        "organiser",
        "td",
        "zeman",
        "žák",
    ]


@pytest.mark.django_db
def test_refresh_name_keys_recomputes_the_derived_columns(world: Any) -> None:
    _players(["Šimek", "Adam"])
    Player.objects.update(name_key=b"", name_search="", club_search="")
    Team.objects.update(name_key=b"", name_search="")
    out = io.StringIO()
    call_command("refresh_name_keys", stdout=out)
    assert out.getvalue().strip() == "2 players, 1 teams"
    assert [p.name for p in Player.objects.all()] == ["Adam Jan", "Šimek Jan"]
    assert [p.name for p in find_players("sim")] == ["Šimek Jan"]
    assert Team.objects.get().name_search == "kapitani"
