"""Issue 9, item 1: the TD's real work (reading teams, rosters, conditions, the draw, the dates and
the players; recording failures to appear), the menu per role, the chief TD's roster exception
(R7.2) from the team's edit page, and the roles page (teams by name, accounts created there)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.audit.models import AuditEntry
from bridgeko.draw import schedule_services
from bridgeko.draw import services as draw_services
from bridgeko.entries.forms import player_label
from bridgeko.entries.models import RosterEntry, Team
from tests.web.conftest import World, make_user
from tests.web.test_draw import DRAW_AT, announce_and_commit, enter_13
from tests.web.test_entries import make_players

pytestmark = pytest.mark.django_db


def _url(name: str, world: World, **kwargs: Any) -> str:
    return reverse(name, kwargs={"edition": world.edition.slug, **kwargs})


def _held(world: World) -> list[Team]:
    """13 entered teams, the draw held and the default dates filled in (not published)."""
    teams = enter_13(world)
    announce_and_commit(world)
    draw_services.hold_draw(edition=world.edition, user=world.users["organiser"], now=DRAW_AT)
    schedule_services.default_schedule(
        edition=world.edition,
        first_date=date(1999, 3, 26),
        user=world.users["organiser"],
        now=DRAW_AT,
    )
    return teams


# ------------------------------------------------------------------------- the TD reads


def test_td_reads_teams_rosters_conditions_draw_schedule_and_players(world: World) -> None:
    teams = _held(world)
    team = teams[0]
    td = world.client("td")
    pages = {
        "teams": _url("entries:list", world),
        "team": _url("entries:detail", world, team=team.pk),
        "conditions": _url("entries:conditions", world, team=team.pk),
        "draw": _url("draw:manage", world),
        "schedule": _url("draw:schedule", world),
        "no_shows": _url("draw:no_shows", world),
        "players": _url("players:list", world),
        "elo": _url("players:elo", world),
    }
    text = {}
    for name, url in pages.items():
        page = td.get(url)
        assert page.status_code == 200, name
        text[name] = page.content.decode()
    assert team.name in text["teams"]
    roster = RosterEntry.objects.filter(team=team).select_related("player")
    assert all(line.player.name in text["team"] for line in roster)
    assert "Team Elo (R10)" in text["team"]
    assert "Read only: the organiser records the conditions of entry." in text["conditions"]
    assert 'id="read-only"' in text["draw"] and "Drawn " in text["draw"]
    assert 'id="read-only"' in text["schedule"] and "R1-M2" in text["schedule"]


def test_td_sees_no_organiser_buttons(world: World) -> None:
    teams = _held(world)
    td, organiser = world.client("td"), world.client("organiser")
    forbidden = {
        "teams": (
            _url("entries:list", world),
            [_url("entries:create", world), _url("entries:closing", world)],
        ),
        "team": (
            _url("entries:detail", world, team=teams[0].pk),
            [
                _url("entries:edit", world, team=teams[0].pk),
                _url("entries:pairs", world, team=teams[0].pk),
                _url("entries:fee", world, team=teams[0].pk),
            ],
        ),
        "conditions": (_url("entries:conditions", world, team=teams[0].pk), ['method="post"']),
        "schedule": (
            _url("draw:schedule", world),
            [
                _url("draw:schedule_defaults", world),
                _url("draw:schedule_publish", world),
                _url("draw:schedule_match", world, match="R1-M2"),
            ],
        ),
        "players": (
            _url("players:list", world),
            [_url("players:create", world), _url("players:import", world)],
        ),
    }
    for name, (url, links) in forbidden.items():
        page = td.get(url).content.decode().split("<main>")[1]  # not the menu
        for link in links:
            assert link not in page, (name, link)
    # the organiser sees them (the test would pass on an empty page otherwise)
    page = organiser.get(_url("draw:schedule", world)).content.decode()
    assert _url("draw:schedule_publish", world) in page
    team_page = organiser.get(_url("entries:detail", world, team=teams[0].pk)).content.decode()
    assert _url("entries:fee", world, team=teams[0].pk) in team_page
    # the TD's own work is linked: the failure to appear of the team (R15)
    td_page = td.get(_url("entries:detail", world, team=teams[0].pk)).content.decode()
    assert _url("draw:no_show", world, team=teams[0].pk) in td_page


def test_td_draw_page_before_the_draw_has_no_forms(world: World) -> None:
    enter_13(world)
    page = world.client("td").get(_url("draw:manage", world)).content.decode()
    for action in ("draw:announce", "draw:commit", "draw:hold", "draw:manual"):
        assert _url(action, world) not in page, action
    assert '<form method="post"' not in page.split("<main>")[1]
    page = world.client("organiser").get(_url("draw:manage", world)).content.decode()
    assert _url("draw:hold", world) in page


def test_td_posts_to_organiser_urls_are_refused_and_change_nothing(world: World) -> None:
    teams = enter_13(world)
    team = teams[0]
    players = make_players(1, start=900)
    td = world.client("td")
    before = AuditEntry.objects.count()
    posts = [
        (_url("entries:create", world), {"name": "Nový"}),
        (_url("entries:conditions", world, team=team.pk), {"fee_paid": "1200"}),
        (_url("entries:fee", world, team=team.pk), {"amount": "0", "reason": "x"}),
        (_url("entries:edit", world, team=team.pk), {"name": "Jiný"}),
        (_url("entries:pairs", world, team=team.pk), {}),
        (_url("entries:closing", world), {}),
        (_url("draw:announce", world), {"place": "Praha", "at": "1999-03-20T10:00"}),
        (_url("draw:commit", world), {}),
        (_url("draw:hold", world), {}),
        (_url("draw:schedule_publish", world), {}),
        (_url("players:edit", world, pk=players[0].pk), {"name": "X"}),
        (_url("players:delete", world, pk=players[0].pk), {}),
        (_url("accounts:roles", world), {"username": "td", "role": "organiser"}),
    ]
    for url, data in posts:
        assert td.post(url, data).status_code == 403, url
    assert AuditEntry.objects.count() == before
    team.refresh_from_db()
    assert team.name == teams[0].name and team.fee_paid == teams[0].fee_paid


# ------------------------------------------------------------------------- the menu per role


def _menu(client: Client, url: str) -> list[str]:
    page = client.get(url).content.decode()
    nav = re.search(r'<nav class="edition-nav".*?</nav>', page, re.S)
    assert nav is not None
    return re.findall(r'href="([^"]+)"', nav.group(0))


def test_the_menu_shows_each_role_the_pages_it_may_open(world: World) -> None:
    public = _url("public:home", world)
    td_menu = _menu(world.client("td"), _url("players:list", world))
    assert td_menu == [
        reverse("editions:detail", kwargs={"edition": world.edition.slug}),
        _url("editions:dashboard", world),
        _url("entries:list", world),
        _url("draw:manage", world),
        _url("draw:schedule", world),
        _url("draw:print_index", world),
        _url("draw:no_shows", world),
        _url("matches:dates", world),
        _url("matches:standings", world),
        _url("players:list", world),
        public,
    ]
    # every page of the TD's menu answers
    td = world.client("td")
    for url in td_menu[1:]:
        assert td.get(url).status_code == 200, url
    organiser_menu = _menu(world.client("organiser"), _url("draw:no_shows", world))
    assert _url("accounts:roles", world) in organiser_menu
    assert _url("editions:edit", world) in organiser_menu
    assert set(td_menu) < set(organiser_menu)
    registrar_menu = _menu(world.client("registrar"), _url("players:list", world))
    assert _url("players:list", world) in registrar_menu
    assert _url("entries:list", world) not in registrar_menu
    # the public pages are the same bytes for every reader (issue 12): the edition and its
    # public pages only, whoever reads them
    assert _menu(world.client("td"), public) == [td_menu[0], public]
    assert _menu(world.client("anonymous"), public) == [td_menu[0], public]


# ------------------------------------------------------------------------- R7.2 from the edit page


def _frozen_team(world: World) -> tuple[Team, list[Any]]:
    from tests.web.test_entries import enter_team

    players = make_players(5, start=500)
    team = enter_team(world.edition, "Orli", players[:4], world.users["organiser"])
    assert team.frozen
    return team, players


def _roster_data(team: Team, players: list[Any], reason: str) -> dict[str, str]:
    data = {"name": team.name, "exception_reason": reason}
    for k, player in enumerate(players, start=1):
        data[f"player_{k}"] = player_label(player)
    return data


def test_R7_2_chief_td_allows_a_roster_exception_from_the_edit_page(world: World) -> None:
    team, players = _frozen_team(world)
    chief = make_user("chief")
    RoleAssignment.objects.create(user=chief, edition=world.edition, role=Role.CHIEF_TD)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client.force_login(chief)
    edit = _url("entries:edit", world, team=team.pk)
    form = client.get(edit)
    assert form.status_code == 200
    text = form.content.decode()
    assert "A change is the chief TD's exception and needs a reason." in text
    assert 'name="exception_reason"' in text
    new_roster = [*players[:3], players[4]]
    # without a reason: refused next to the reason, nothing changed
    page = client.post(edit, _roster_data(team, new_roster, ""))
    assert page.status_code == 200 and page.context["form"].errors["exception_reason"]
    assert not AuditEntry.objects.filter(action="bridgeko.team.roster_exception").exists()
    done = client.post(edit, _roster_data(team, new_roster, "Hráč 504 is ill"))
    assert done.status_code == 302
    roster = RosterEntry.objects.filter(team=team).order_by("position")
    assert [r.player_id for r in roster] == [p.pk for p in new_roster]
    entry = AuditEntry.objects.get(action="bridgeko.team.roster_exception")
    assert entry.user == chief and entry.after["exception_reason"] == "Hráč 504 is ill"


def test_R7_2_plain_td_cannot_change_a_roster(world: World) -> None:
    team, players = _frozen_team(world)
    td = world.client("td")
    edit = _url("entries:edit", world, team=team.pk)
    assert td.get(edit).status_code == 403
    data = _roster_data(team, [*players[:3], players[4]], "the TD says so")
    assert td.post(edit, data).status_code == 403
    roster = RosterEntry.objects.filter(team=team).order_by("position")
    assert [r.player_id for r in roster] == [p.pk for p in players[:4]]
    page = td.get(_url("entries:detail", world, team=team.pk)).content.decode()
    assert "Only the chief TD may allow a change (R7.2)." in page
    assert edit not in page


# ------------------------------------------------------------------------- the roles page


def test_roles_page_picks_the_team_by_name_and_lists_names(world: World) -> None:
    client = world.client("organiser")
    url = _url("accounts:roles", world)
    page = client.get(url)
    text = page.content.decode()
    assert '<option value="7">Kapitáni</option>' in text  # the team select, by name
    assert '<datalist id="accounts">' in text and '<option value="td">' in text
    captain = world.users["captain"]
    captain.first_name, captain.last_name, captain.email = "Jana", "Nováková", "jana@example.cz"
    captain.save()
    text = client.get(url).content.decode()
    row = re.search(r"<tr>\s*<td>captain</td>.*?</tr>", text, re.S)
    assert row is not None
    assert "Jana Nováková" in row.group(0) and "jana@example.cz" in row.group(0)
    assert "Kapitáni" in row.group(0)
    done = client.post(url, {"username": "public", "role": "captain", "team": "7"})
    assert done.status_code == 302
    assert RoleAssignment.objects.filter(user=world.users["public"], team_id=7).exists()
    entry = AuditEntry.objects.get(action="bridgeko.role.assigned")
    assert entry.summary == "public – Team captain (team Kapitáni)"


NEW_TD = {
    "username": "novy-td",
    "role": "td",
    "first_name": "Petr",
    "last_name": "Šimek",
    "email": "petr.simek@example.cz",
}


def test_roles_page_creates_an_account_with_a_password(world: World) -> None:
    client = world.client("organiser")
    url = _url("accounts:roles", world)
    done = client.post(url, NEW_TD | {"new_password": "Rozhodci-Heslo-1999"}, follow=True)
    assert done.status_code == 200
    account = get_user_model().objects.get(username="novy-td")
    assert account.check_password("Rozhodci-Heslo-1999")
    assert (account.first_name, account.last_name, account.email) == (
        "Petr",
        "Šimek",
        "petr.simek@example.cz",
    )
    assert RoleAssignment.objects.filter(user=account, edition=world.edition, role="td").exists()
    messages = [str(m) for m in done.context["messages"]]
    assert "Account novy-td created." in messages and "Role assigned." in messages
    entry = AuditEntry.objects.get(action="bridgeko.role.assigned")
    assert entry.after["account_created"] is True and entry.after["has_password"] is True
    for stored in AuditEntry.objects.all():  # the password is never in the log
        assert "Rozhodci-Heslo-1999" not in repr((stored.before, stored.after, stored.summary))


def test_roles_page_creates_an_account_without_a_password_and_a_one_time_link(
    world: World,
) -> None:
    client = world.client("organiser")
    url = _url("accounts:roles", world)
    _team = Team.objects.get(pk=7)
    done = client.post(url, NEW_TD | {"role": "captain", "team": str(_team.pk)}, follow=True)
    account = get_user_model().objects.get(username="novy-td")
    assert not account.has_usable_password()
    messages = [str(m) for m in done.context["messages"]]
    created = next(m for m in messages if m.startswith("Account novy-td created without"))
    link = re.search(r"http://testserver(/set-password/\S+/)", created)
    assert link is not None
    assert "valid until " in created
    assert link.group(1) in done.content.decode()  # also listed next to the role
    # the person sets the password through the link
    person = Client()
    form_page = person.get(link.group(1), follow=True)
    assert form_page.status_code == 200 and form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]
    weak = person.post(set_url, {"new_password1": "1", "new_password2": "1"})
    assert weak.status_code == 200 and weak.context["form"].errors
    set_done = person.post(
        set_url,
        {"new_password1": "Kapitan-Heslo-1999", "new_password2": "Kapitan-Heslo-1999"},
        follow=True,
    )
    assert (
        set_done.status_code == 200 and "Heslo nastaveno" in set_done.content.decode()
    )  # Czech: no language chosen
    account.refresh_from_db()
    assert account.check_password("Kapitan-Heslo-1999")
    # the link is one-time
    again = Client().get(link.group(1), follow=True)
    assert not again.context["validlink"] and 'id="invalid-link"' in again.content.decode()
    assert AuditEntry.objects.filter(action="bridgeko.account.password_changed").exists()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            NEW_TD | {"username": "td"},
            "username",
            "An account named td exists already. Leave the fields of a new account empty to "
            "give it the role, or choose another user name for the new account.",
        ),
        (NEW_TD | {"email": "petr.simek"}, "email", "Enter a valid e-mail address."),
        (NEW_TD | {"email": ""}, "email", "Give the e-mail address of the new account."),
        (NEW_TD | {"new_password": "simek"}, "new_password", None),
        (NEW_TD | {"new_password": "12345678"}, "new_password", None),
        (NEW_TD | {"username": "bad name!"}, "username", None),
        (NEW_TD | {"role": "captain"}, "team", "A captain's role needs the team."),
    ],
)
def test_roles_page_refuses_a_bad_new_account_and_saves_nothing(
    world: World, data: dict[str, str], field: str, message: str | None
) -> None:
    users, roles, entries = (
        get_user_model().objects.count(),
        RoleAssignment.objects.count(),
        AuditEntry.objects.count(),
    )
    page = world.client("organiser").post(_url("accounts:roles", world), data)
    assert page.status_code == 200
    errors = page.context["form"].errors[field]
    assert errors
    if message is not None:
        assert errors == [message]
    assert (
        get_user_model().objects.count(),
        RoleAssignment.objects.count(),
        AuditEntry.objects.count(),
    ) == (users, roles, entries)


def test_weak_password_message_is_czech_in_czech(world: World) -> None:
    page = world.client("organiser", language="cs").post(
        _url("accounts:roles", world), NEW_TD | {"new_password": "12345678"}
    )
    errors = " ".join(page.context["form"].errors["new_password"])
    assert "heslo" in errors.lower()
    assert not get_user_model().objects.filter(username="novy-td").exists()


def test_site_roles_page_picks_accounts_and_creates_a_registrar(world: World) -> None:
    client = world.client("registrar")
    url = reverse("accounts:site_roles")
    text = client.get(url).content.decode()
    assert '<datalist id="accounts">' in text and '<option value="organiser">' in text
    done = client.post(
        url,
        {"username": "matrika", "email": "matrika@example.cz", "last_name": "Černá"},
        follow=True,
    )
    assert done.status_code == 200
    account = get_user_model().objects.get(username="matrika")
    assert RoleAssignment.objects.filter(user=account, role=Role.REGISTRAR).exists()
    assert any("one-time link" in str(m) for m in done.context["messages"])
    bad = client.post(url, {"username": "matrika2", "email": "x"})
    assert bad.status_code == 200 and bad.context["form"].errors["email"]
    assert not get_user_model().objects.filter(username="matrika2").exists()


def test_td_reads_the_page_of_a_rostered_player_without_edit_buttons(world: World) -> None:
    _team, players = _frozen_team(world)
    td = world.client("td")
    listing = td.get(_url("players:list", world)).content.decode()
    player_url = _url("players:edit", world, pk=players[0].pk)
    assert f'href="{player_url}"' in listing  # on a roster of the edition: linked
    assert f'href="{_url("players:edit", world, pk=players[4].pk)}"' not in listing  # not
    page = td.get(player_url)
    assert page.status_code == 200 and page.templates[0].name == "players/detail.html"
    text = page.content.decode().split("<main>")[1]
    assert players[0].name in text and "Orli" in text and "(captain)" in text
    assert (
        'method="post"' not in text and _url("players:delete", world, pk=players[0].pk) not in text
    )
    assert td.get(_url("players:edit", world, pk=players[4].pk)).status_code == 404
    assert td.post(player_url, {"name": "X"}).status_code == 403
    registrar = world.client("registrar").get(player_url)
    assert registrar.templates[0].name == "players/form.html"  # the registrar edits
