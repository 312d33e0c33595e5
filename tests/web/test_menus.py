"""Each role reaches its work from the menus, without typing URLs (issue 9): the TD's printable
lists, the captain's My team and dashboard, the audit log only for those who may read it, and
My team's way to the roster form before entry."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from bridgeko.entries.models import Team
from tests.web.conftest import World
from tests.web.test_my_team import kapitan, team  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def _edition_page(world: World, client: Client) -> str:
    response = client.get(reverse("editions:detail", kwargs={"edition": world.edition.slug}))
    assert response.status_code == 200
    return response.content.decode()


def test_td_menu_links_the_printable_lists_and_the_audit_log_is_not_offered(world: World) -> None:
    html = _edition_page(world, world.client("td"))
    assert reverse("draw:print_index", kwargs={"edition": world.edition.slug}) in html
    assert reverse("audit:log") not in html  # a TD organises nothing: the log would be a 403
    assert world.client("td").get(reverse("audit:log")).status_code == 403


def test_organiser_menu_offers_the_audit_log(world: World) -> None:
    html = _edition_page(world, world.client("organiser"))
    assert reverse("audit:log") in html
    assert reverse("draw:print_index", kwargs={"edition": world.edition.slug}) in html


def test_R3_captain_menu_has_my_team_and_the_dashboard(
    world: World,
    team: Team,  # noqa: F811
    kapitan: Client,  # noqa: F811
) -> None:
    html = _edition_page(world, kapitan)
    slug = world.edition.slug
    assert reverse("entries:my_team", kwargs={"edition": slug}) in html
    assert reverse("editions:dashboard", kwargs={"edition": slug}) in html
    assert reverse("audit:log") not in html
    assert reverse("draw:print_index", kwargs={"edition": slug}) not in html
    assert kapitan.get(reverse("editions:dashboard", kwargs={"edition": slug})).status_code == 200


def test_R7_2_my_team_links_the_roster_form_until_the_team_is_entered(
    world: World,
    team: Team,  # noqa: F811
    kapitan: Client,  # noqa: F811
) -> None:
    my_team = reverse("entries:my_team_of", kwargs={"edition": world.edition.slug, "team": team.pk})
    edit = reverse("entries:edit", kwargs={"edition": world.edition.slug, "team": team.pk})
    assert not team.frozen
    assert f'href="{edit}"' in kapitan.get(my_team).content.decode()
    assert kapitan.get(edit).status_code == 200
    Team.objects.filter(pk=team.pk).update(form_received=world.edition.regulations.entry.deadline)
    team.refresh_from_db()
    assert team.frozen  # entered (R7.2): no link to a form the captain may no longer use
    assert f'href="{edit}"' not in kapitan.get(my_team).content.decode()
