"""Accounts audited (issue 8, deliverable 6): creating accounts, giving and taking roles,
password changes, and every change made through Django's admin (``is_superuser`` and
``is_staff`` flips, groups and permissions, deletions) are in bridgeko's audit log, site-wide;
bridgeko's own models are read-only in the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core import serializers
from django.test import Client
from django.urls import reverse

from bridgeko.accounts.account_audit import (
    CHANGED,
    CREATED,
    DELETED,
    GROUP_CHANGED,
    GROUP_CREATED,
    GROUP_DELETED,
    PASSWORD_CHANGED,
)
from bridgeko.accounts.admin import AccessAttemptAdmin, GroupAdmin, UserAdmin
from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.accounts.services import NewAccount, assign_role
from bridgeko.audit.models import AuditEntry
from bridgeko.core.admin import ReadOnlyAdmin
from tests.web.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-passphrase-42"


@pytest.fixture
def root() -> Any:
    return make_user("root", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client(root: Any) -> Client:
    client = Client()
    client.force_login(root)
    return client


def _entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("id"))


def _change_form(user: Any, **changes: Any) -> dict[str, Any]:
    data = {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "is_active": "on" if user.is_active else "",
        "is_staff": "on" if user.is_staff else "",
        "is_superuser": "on" if user.is_superuser else "",
        "groups": [g.pk for g in user.groups.all()],
        "user_permissions": [],
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
    }
    data |= changes
    return {k: v for k, v in data.items() if v != ""}


def test_every_admin_page_is_read_only_or_audited() -> None:
    audited = {UserAdmin, GroupAdmin, AccessAttemptAdmin}
    for model, model_admin in admin.site._registry.items():
        assert isinstance(model_admin, ReadOnlyAdmin) or type(model_admin) in audited, model
        if model._meta.app_label.startswith(("accounts", "audit", "editions", "players")):
            assert isinstance(model_admin, ReadOnlyAdmin), model  # bridgeko's own: services only


def test_bridgeko_models_cannot_be_changed_in_the_admin(admin_client: Client, world: Any) -> None:
    assignment = RoleAssignment.objects.filter(edition=world.edition).first()
    assert assignment is not None
    for name, args in (
        ("admin:accounts_roleassignment_add", []),
        ("admin:accounts_roleassignment_delete", [assignment.pk]),
        ("admin:editions_edition_delete", [world.edition.pk]),
        ("admin:editions_edition_add", []),
    ):
        assert admin_client.post(reverse(name, args=args), {"post": "yes"}).status_code == 403
    assert RoleAssignment.objects.filter(pk=assignment.pk).exists()


def test_account_created_on_the_roles_page_is_audited(world: Any) -> None:
    organiser = world.users["organiser"]
    assign_role(
        edition=world.edition,
        username="newcomer",
        role=Role.TD,
        user=organiser,
        new_account=NewAccount(email="newcomer@example.cz", password=NEW_PASSWORD),
    )
    created = _entries(CREATED)[-1]
    assert created.after["username"] == "newcomer" and created.after["has_password"] is True
    assert created.edition is None and created.object_type == "auth.user"
    assert AuditEntry.objects.get(action="bridgeko.role.assigned").after["account_created"]


def test_admin_adds_a_user_audited_with_the_actor(admin_client: Client, root: Any) -> None:
    response = admin_client.post(
        reverse("admin:auth_user_add"),
        {
            "username": "viaadmin",
            "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD,
            "usable_password": "true",
        },
    )
    assert response.status_code == 302, response.content.decode()[-3000:]
    entry = _entries(CREATED)[-1]
    assert entry.after["username"] == "viaadmin" and entry.user == root
    assert entry.edition is None


def test_admin_flips_is_superuser_and_is_staff_audited_before_and_after(
    admin_client: Client, root: Any
) -> None:
    target = make_user("target")
    url = reverse("admin:auth_user_change", args=[target.pk])
    response = admin_client.post(url, _change_form(target, is_superuser="on", is_staff="on"))
    assert response.status_code == 302, response.content.decode()[-3000:]
    entry = _entries(CHANGED)[-1]
    assert entry.user == root and entry.object_id == str(target.pk)
    assert entry.before == {"is_staff": False, "is_superuser": False}
    assert entry.after == {"is_staff": True, "is_superuser": True}
    assert "is_superuser" in entry.summary
    target.refresh_from_db()
    response = admin_client.post(url, _change_form(target, is_superuser="", is_active=""))
    assert response.status_code == 302
    entry = _entries(CHANGED)[-1]
    assert entry.before == {"is_active": True, "is_superuser": True}
    assert entry.after == {"is_active": False, "is_superuser": False}


def test_admin_sets_a_password_audited_without_the_hash(admin_client: Client, root: Any) -> None:
    target = make_user("target")
    old_hash = target.password
    url = reverse("admin:auth_user_password_change", args=[target.pk])
    response = admin_client.post(
        url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"}
    )
    assert response.status_code == 302, response.content.decode()[-3000:]
    entry = _entries(PASSWORD_CHANGED)[-1]
    assert entry.user == root and entry.object_id == str(target.pk)
    assert entry.after == {"password_changed": True, "has_password": True}
    target.refresh_from_db()
    dump = str([entry.before, entry.after, entry.summary])
    assert old_hash not in dump and target.password not in dump and NEW_PASSWORD not in dump


def test_own_password_change_in_the_admin_is_audited(admin_client: Client, root: Any) -> None:
    response = admin_client.post(
        reverse("admin:password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302, response.content.decode()[-3000:]
    entry = _entries(PASSWORD_CHANGED)[-1]
    assert entry.user == root and entry.object_id == str(root.pk)


def test_password_reset_outside_a_request_is_audited_without_an_actor() -> None:
    """``manage.py changepassword`` and the demo loader set passwords this way."""
    user = make_user("cli")
    user.set_password(NEW_PASSWORD)
    user.save()
    entry = _entries(PASSWORD_CHANGED)[-1]
    assert entry.user is None and entry.object_id == str(user.pk)


def test_admin_groups_and_permissions_changes_are_audited(admin_client: Client, root: Any) -> None:
    permission = Permission.objects.get(codename="view_auditentry")
    response = admin_client.post(
        reverse("admin:auth_group_add"), {"name": "auditors", "permissions": [permission.pk]}
    )
    assert response.status_code == 302, response.content.decode()[-3000:]
    group = Group.objects.get(name="auditors")
    assert _entries(GROUP_CREATED)[-1].user == root
    assert _entries(GROUP_CHANGED)[-1].after == {"permissions": ["audit.view_auditentry"]}
    target = make_user("target")
    url = reverse("admin:auth_user_change", args=[target.pk])
    assert admin_client.post(url, _change_form(target, groups=[group.pk])).status_code == 302
    entry = _entries(CHANGED)[-1]
    assert entry.user == root
    assert entry.before == {"groups": []} and entry.after == {"groups": ["auditors"]}
    delete = reverse("admin:auth_group_delete", args=[group.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302
    deleted = _entries(GROUP_DELETED)[-1]
    assert deleted.before["name"] == "auditors" and deleted.user == root


def test_admin_deletes_a_user_audited(admin_client: Client, root: Any, world: Any) -> None:
    td = world.users["td"]
    url = reverse("admin:auth_user_delete", args=[td.pk])
    # the roles are given and taken on the Roles page (audited there), never by the admin
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert get_user_model().objects.filter(pk=td.pk).exists() and not _entries(DELETED)
    loner = make_user("loner")
    url = reverse("admin:auth_user_delete", args=[loner.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    entry = _entries(DELETED)[-1]
    assert entry.user == root and entry.before["username"] == "loner"
    assert entry.before["roles"] == [] and entry.edition is None
    assert not get_user_model().objects.filter(username="loner").exists()


def test_deleting_an_account_elsewhere_records_the_roles_it_held(world: Any) -> None:
    world.users["td"].delete()  # e.g. from ``manage.py shell``
    entry = _entries(DELETED)[-1]
    assert entry.user is None and entry.before["username"] == "td"
    assert entry.before["roles"] == [{"edition": "ko-1999", "role": "td", "team_id": None}]


def test_login_writes_no_account_entry() -> None:
    make_user("plain")
    count = AuditEntry.objects.count()
    client = Client()
    response = client.post(reverse("login"), {"username": "plain", "password": PASSWORD})
    assert response.status_code == 302
    assert AuditEntry.objects.count() == count  # only last_login was saved


def test_raw_loads_write_no_entry() -> None:
    """loaddata and a restore bring the rows with their own history."""
    user = make_user("loaded")
    data = serializers.serialize("json", [user])
    get_user_model().objects.filter(pk=user.pk).update(first_name="x")
    count = AuditEntry.objects.count()
    for obj in serializers.deserialize("json", data):
        obj.save()
    assert AuditEntry.objects.count() == count
