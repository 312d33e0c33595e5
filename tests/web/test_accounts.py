"""Roles per edition, the permission helper, login/logout, role management."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.accounts.permissions import has_role, organises_any_edition, roles_of
from bridgeko.accounts.services import NewAccount, assign_role, revoke_role
from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from tests.web.conftest import CAPTAIN_TEAM_ID, PASSWORD, make_user

pytestmark = pytest.mark.django_db


def test_roles_are_per_edition_and_captains_per_team(world: Any, toml_1999: str) -> None:
    from bridgeko.editions.services import create_edition

    other = create_edition(slug="other", toml_text=toml_1999, user=world.users["public"])
    captain, td = world.users["captain"], world.users["td"]
    assert roles_of(captain, world.edition) == {Role.CAPTAIN}
    assert has_role(captain, world.edition, [Role.CAPTAIN], team_id=CAPTAIN_TEAM_ID)
    assert not has_role(captain, world.edition, [Role.CAPTAIN], team_id=CAPTAIN_TEAM_ID + 1)
    assert has_role(td, world.edition, [Role.TD]) and not has_role(td, other, [Role.TD])
    assert not has_role(td, world.edition, [Role.APPEALS])


def test_organiser_and_chief_td_may_do_everything(world: Any) -> None:
    chief = make_user("chief")
    RoleAssignment.objects.create(user=chief, edition=world.edition, role=Role.CHIEF_TD)
    for user in (world.users["organiser"], chief):
        assert has_role(user, world.edition, [Role.TD])
        assert has_role(user, world.edition, [Role.CAPTAIN], team_id=99)
        assert organises_any_edition(user)
    assert not organises_any_edition(world.users["td"])


def test_assign_and_revoke_are_audited(world: Any) -> None:
    organiser = world.users["organiser"]
    make_user("newtd")
    assignment = assign_role(edition=world.edition, username="newtd", role="td", user=organiser)
    entry = AuditEntry.objects.get(action="bridgeko.role.assigned")
    assert entry.after["role"] == "td" and entry.user == organiser
    revoke_role(assignment=assignment, user=organiser)
    assert AuditEntry.objects.get(action="bridgeko.role.revoked").before["role"] == "td"
    assert not RoleAssignment.objects.filter(pk=assignment.pk).exists()


@pytest.mark.parametrize(
    ("username", "role", "team_id", "field"),
    [
        ("nobody", "td", None, "username"),
        ("td", "captain", None, "team"),
        ("td", "td", None, "role"),  # already has it
        ("td", "king", None, "role"),
    ],
)
def test_assign_role_refuses_bad_input(
    world: Any, username: str, role: str, team_id: int | None, field: str
) -> None:
    count = (RoleAssignment.objects.count(), AuditEntry.objects.count())
    with pytest.raises(ServiceError) as info:
        assign_role(
            edition=world.edition,
            username=username,
            role=role,
            team_id=team_id,
            user=world.users["organiser"],
        )
    assert info.value.field == field
    assert (RoleAssignment.objects.count(), AuditEntry.objects.count()) == count


def test_last_organiser_cannot_be_removed(world: Any) -> None:
    only = RoleAssignment.objects.get(edition=world.edition, role=Role.ORGANISER)
    with pytest.raises(ServiceError):
        revoke_role(assignment=only, user=world.users["organiser"])
    assert RoleAssignment.objects.filter(pk=only.pk).exists()


def _team_3(world: Any) -> None:
    """Team 3 of the edition (a captain's role names a team of the edition)."""
    from bridgeko.entries.models import Team

    Team.objects.create(pk=3, edition=world.edition, name="Tři", created_at="1999-02-01T10:00Z")


def test_roles_page_shows_errors_next_to_the_field(world: Any) -> None:
    _team_3(world)
    client = world.client("organiser")
    url = reverse("accounts:roles", kwargs={"edition": "ko-1999"})
    page = client.post(url, {"username": "ghost", "role": "td"})
    assert page.status_code == 200
    assert page.context["form"].errors["username"]
    done = client.post(url, {"username": "public", "role": "captain", "team": "3"})
    assert done.status_code == 302
    assert RoleAssignment.objects.filter(user=world.users["public"], team_id=3).exists()


def test_login_and_logout(world: Any) -> None:
    from django.test import Client

    client = Client()
    page = client.post(reverse("login"), {"username": "td", "password": PASSWORD})
    assert page.status_code == 302
    home = client.get(reverse("home"))
    assert "td" in home.content.decode()
    assert client.post(reverse("logout")).status_code == 302
    bad = client.post(reverse("login"), {"username": "td", "password": "wrong"})
    assert bad.status_code == 200 and bad.context["form"].errors


def test_assign_role_can_create_the_account(world: Any) -> None:
    from django.contrib.auth import get_user_model

    organiser = world.users["organiser"]
    users = get_user_model().objects.count()
    with pytest.raises(ServiceError) as info:
        assign_role(
            edition=world.edition,
            username="kapitan",
            role="td",
            user=organiser,
            new_account=NewAccount(email="kapitan@example.cz", password="1"),
        )
    assert info.value.field == "new_password"
    assert get_user_model().objects.count() == users
    _team_3(world)
    assign_role(
        edition=world.edition,
        username="kapitan",
        role="captain",
        team_id=3,
        user=organiser,
        new_account=NewAccount(email="kapitan@example.cz", password="Kapitan-Heslo-1999"),
    )
    created = get_user_model().objects.get(username="kapitan")
    assert created.check_password("Kapitan-Heslo-1999")
    entry = AuditEntry.objects.get(action="bridgeko.role.assigned")
    assert entry.after["account_created"] is True and entry.after["team_id"] == 3


def test_captain_role_needs_a_team_of_this_edition(world: Any, toml_1999: str) -> None:
    """A captain acts for one team: its id must be a team of the edition (not an unknown id,
    nor a team of another edition); the error is next to the team field, nothing saved."""
    from bridgeko.editions.services import create_edition
    from bridgeko.entries.models import Team

    other = create_edition(slug="ko-2000", toml_text=toml_1999, user=world.users["organiser"])
    foreign = Team.objects.create(edition=other, name="Cizí", created_at="1999-02-01T10:00Z")
    count = (RoleAssignment.objects.count(), AuditEntry.objects.count())
    client = world.client("organiser")
    url = reverse("accounts:roles", kwargs={"edition": "ko-1999"})
    for team_id in (str(foreign.pk), "999"):
        page = client.post(url, {"username": "public", "role": "captain", "team": team_id})
        assert page.status_code == 200
        assert page.context["form"].errors["team"]  # not a choice: only this edition's teams
        with pytest.raises(ServiceError) as info:
            assign_role(
                edition=world.edition,
                username="public",
                role="captain",
                team_id=int(team_id),
                user=world.users["organiser"],
            )
        assert info.value.field == "team"
        assert info.value.message == f"There is no team {team_id} in this edition."
    offered = dict(page.context["form"].fields["team"].choices)
    assert "Cizí" not in offered.values() and "Kapitáni" in offered.values()
    assert (RoleAssignment.objects.count(), AuditEntry.objects.count()) == count


def test_revoking_a_role_removed_meanwhile_is_refused(world: Any) -> None:
    assignment = RoleAssignment.objects.get(edition=world.edition, user=world.users["td"])
    stale = RoleAssignment.objects.get(pk=assignment.pk)
    revoke_role(assignment=assignment, user=world.users["organiser"])
    count = AuditEntry.objects.count()
    with pytest.raises(ServiceError):
        revoke_role(assignment=stale, user=world.users["organiser"])
    assert AuditEntry.objects.count() == count


def test_the_permission_helper_takes_the_edition_the_middleware_found(world: Any) -> None:
    """The accounts app never imports the editions app: ``edition_role_required`` reads
    ``request.edition`` (set by ``EditionMiddleware``); without it the setup is wrong."""
    from django.core.exceptions import ImproperlyConfigured
    from django.http import HttpResponse
    from django.test import RequestFactory

    from bridgeko.accounts.permissions import edition_role_required

    @edition_role_required(Role.TD)
    def view(request: Any, edition: Any) -> HttpResponse:
        return HttpResponse(edition.slug)

    request = RequestFactory().get("/")
    request.user = world.users["td"]
    with pytest.raises(ImproperlyConfigured):
        view(request, edition=world.edition.slug)
    request.edition = world.edition
    assert view(request, edition=world.edition.slug).content == world.edition.slug.encode()
    unknown = world.client("td").get("/e/no-such-edition/roles/")
    assert unknown.status_code == 404


def test_revoking_a_role_asks_first_and_shows_what_goes(world: Any) -> None:
    """Nothing destroyed silently: a GET of the revoke URL shows the role and asks; only the
    POST removes it (audited)."""
    assignment = RoleAssignment.objects.get(user=world.users["td"], edition=world.edition)
    client = world.client("organiser")
    url = reverse("accounts:revoke", kwargs={"edition": world.edition.slug, "pk": assignment.pk})
    roles_page = client.get(reverse("accounts:roles", kwargs={"edition": world.edition.slug}))
    assert f'href="{url}"' in roles_page.content.decode()  # a link to the question, no button
    page = client.get(url)
    text = page.content.decode()
    assert page.status_code == 200 and 'id="confirm-revoke"' in text
    assert "<title>Remove the role?" in text and "td" in text
    assert RoleAssignment.objects.filter(pk=assignment.pk).exists()  # still there
    response = client.post(url)
    assert response.status_code == 302
    assert not RoleAssignment.objects.filter(pk=assignment.pk).exists()
    assert AuditEntry.objects.filter(action="bridgeko.role.revoked").count() == 1


def test_revoking_a_site_role_asks_first(world: Any) -> None:
    assignment = RoleAssignment.objects.get(user=world.users["registrar"], edition=None)
    client = world.client("superuser")
    url = reverse("accounts:site_revoke", kwargs={"pk": assignment.pk})
    text = client.get(url).content.decode()
    assert 'id="confirm-revoke"' in text and "registrar" in text.lower()
    assert RoleAssignment.objects.filter(pk=assignment.pk).exists()
    client.post(url)
    assert not RoleAssignment.objects.filter(pk=assignment.pk).exists()
