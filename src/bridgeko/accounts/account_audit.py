"""Accounts in bridgeko's audit log, whatever path changes them (deliverable: audited accounts).

Model signals write a site-wide entry (no edition) when an account is created, changed (its
name, e-mail, ``is_active``, ``is_staff``, ``is_superuser``) or deleted, and when its password
is set or changed (the entry says so; the hash is never stored): through Django's admin, the
Roles page (a new account), ``manage.py changepassword``/``createsuperuser`` or the demo loader.
Only the login time (``last_login``) is not audited. The actor is the request's user
(:mod:`bridgeko.accounts.middleware`), None for a command. Group and permission memberships can
only change through the admin, whose User and Group pages record them
(:func:`record_memberships`); login lockouts are recorded by :func:`record_lockout`, unlocking
through the admin by :func:`record_unlock`.

Entries are not written for ``raw`` saves (``loaddata``, a restore: the rows come with their
own history).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import Q, Sum
from django.db.models.signals import post_save, pre_delete, pre_save
from django.dispatch import receiver
from django.utils import timezone

from bridgeko.accounts.middleware import current_actor
from bridgeko.audit.models import AuditEntry
from bridgeko.audit.services import record
from bridgeko.competition.messages import N_, Message

User = get_user_model()

ACCOUNT_FIELDS = (
    "username",
    "first_name",
    "last_name",
    "email",
    "is_active",
    "is_staff",
    "is_superuser",
)
"""What the audit entries show of an account (never the password hash)."""
NOT_AUDITED = frozenset({"last_login"})
"""Saved at every login: not an entry each time."""

CREATED = "bridgeko.account.created"
CHANGED = "bridgeko.account.changed"
PASSWORD_CHANGED = "bridgeko.account.password_changed"
DELETED = "bridgeko.account.deleted"
LOCKED_OUT = "bridgeko.account.locked_out"
UNLOCKED = "bridgeko.account.unlocked"
GROUP_CREATED = "bridgeko.group.created"
GROUP_CHANGED = "bridgeko.group.changed"
GROUP_DELETED = "bridgeko.group.deleted"


def account_state(user: Any) -> dict[str, Any]:
    """The audited fields of ``user``, and whether a usable password is set."""
    state = {field: getattr(user, field) for field in ACCOUNT_FIELDS}
    state["has_password"] = bool(user.has_usable_password())
    return state


def _record(action: str, **kwargs: Any) -> AuditEntry:
    with transaction.atomic():
        return record(action, user=current_actor(), **kwargs)


@receiver(pre_save, sender=User, dispatch_uid="bridgeko.account_audit.before_save")
def _before_save(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if raw or instance.pk is None:
        return
    if update_fields is not None and set(update_fields) <= NOT_AUDITED:
        return
    row = sender._default_manager.filter(pk=instance.pk).values(*ACCOUNT_FIELDS, "password")
    instance._bridgeko_audit_before = row.first()


@receiver(post_save, sender=User, dispatch_uid="bridgeko.account_audit.after_save")
def _after_save(
    sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if raw:
        return
    before_row: Mapping[str, Any] | None = instance.__dict__.pop("_bridgeko_audit_before", None)
    name = instance.get_username()
    if created or before_row is None:
        if not created:
            return  # only the login time was saved
        _record(
            CREATED,
            obj=instance,
            after=account_state(instance),
            summary=Message(N_("Account %(user)s created"), {"user": name}),
        )
        return
    changed = [f for f in ACCOUNT_FIELDS if before_row[f] != getattr(instance, f)]
    password_changed = before_row["password"] != instance.password
    if not changed and not password_changed:
        return
    before = {f: before_row[f] for f in changed}
    after: dict[str, Any] = {f: getattr(instance, f) for f in changed}
    if password_changed:
        after["password_changed"] = True
        after["has_password"] = bool(instance.has_usable_password())
    if not changed:
        _record(
            PASSWORD_CHANGED,
            obj=instance,
            before=before,
            after=after,
            summary=Message(N_("Password of %(user)s changed"), {"user": name}),
        )
        return
    fields = ", ".join([*changed, *(["password"] if password_changed else [])])
    _record(
        CHANGED,
        obj=instance,
        before=before,
        after=after,
        summary=Message(
            N_("Account %(user)s changed: %(fields)s"), {"user": name, "fields": fields}
        ),
    )


@receiver(pre_delete, sender=User, dispatch_uid="bridgeko.account_audit.before_delete")
def _before_delete(sender: Any, instance: Any, **kwargs: Any) -> None:
    roles = [
        {"edition": edition, "role": role, "team_id": team_id}
        for edition, role, team_id in instance.role_assignments.values_list(
            "edition__slug", "role", "team_id"
        )
    ]
    _record(
        DELETED,
        obj=instance,
        before=account_state(instance) | {"roles": roles},
        summary=Message(N_("Account %(user)s deleted"), {"user": instance.get_username()}),
    )


@receiver(post_save, sender=Group, dispatch_uid="bridgeko.account_audit.group_saved")
def _group_saved(
    sender: Any, instance: Group, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if raw:
        return
    _record(
        GROUP_CREATED if created else GROUP_CHANGED,
        obj=instance,
        after={"name": instance.name},
        summary=Message(
            N_("Group %(group)s created") if created else N_("Group %(group)s changed"),
            {"group": instance.name},
        ),
    )


@receiver(pre_delete, sender=Group, dispatch_uid="bridgeko.account_audit.group_deleted")
def _group_deleted(sender: Any, instance: Group, **kwargs: Any) -> None:
    _record(
        GROUP_DELETED,
        obj=instance,
        before={"name": instance.name, "permissions": _permissions(instance.permissions.all())},
        summary=Message(N_("Group %(group)s deleted"), {"group": instance.name}),
    )


def _permissions(queryset: Any) -> list[str]:
    return sorted(
        f"{app}.{codename}"
        for app, codename in queryset.values_list("content_type__app_label", "codename")
    )


def memberships(obj: Any) -> dict[str, list[str]]:
    """A user's groups and permissions, or a group's permissions (what the admin sets)."""
    if isinstance(obj, Group):
        return {"permissions": _permissions(obj.permissions.all())}
    return {
        "groups": sorted(obj.groups.values_list("name", flat=True)),
        "user_permissions": _permissions(obj.user_permissions.all()),
    }


def record_memberships(obj: Any, before: Mapping[str, list[str]]) -> AuditEntry | None:
    """An entry when the admin changed ``obj``'s groups or permissions (None: no change)."""
    after = memberships(obj)
    changed = [key for key in after if list(before.get(key, [])) != after[key]]
    if not changed:
        return None
    if isinstance(obj, Group):
        return _record(
            GROUP_CHANGED,
            obj=obj,
            before={k: before.get(k, []) for k in changed},
            after={k: after[k] for k in changed},
            summary=Message(N_("Group %(group)s changed"), {"group": obj.name}),
        )
    return _record(
        CHANGED,
        obj=obj,
        before={k: before.get(k, []) for k in changed},
        after={k: after[k] for k in changed},
        summary=Message(
            N_("Account %(user)s changed: %(fields)s"),
            {"user": obj.get_username(), "fields": ", ".join(changed)},
        ),
    )


def record_lockout(
    *, username: str, ip_address: str, cool_off: timedelta, limit: int
) -> AuditEntry | None:
    """A site-wide entry: logins for ``username`` or from ``ip_address`` are refused for
    ``cool_off``. Written once per lockout: axes reports every refused attempt, and an entry
    for the same account or address within the cool-off means this lockout is already there."""
    from axes.models import AccessAttempt

    now = timezone.now()
    same = Q(pk__in=[])
    if username:
        same |= Q(after__username=username)
    if ip_address:
        same |= Q(after__ip_address=ip_address)
    if AuditEntry.objects.filter(same, action=LOCKED_OUT, at__gt=now - cool_off).exists():
        return None

    def failures(**lookup: str) -> int:
        total = AccessAttempt.objects.filter(**lookup).aggregate(n=Sum("failures_since_start"))
        return int(total["n"] or 0)

    by_account = failures(username=username) if username else 0
    by_address = failures(ip_address=ip_address) if ip_address else 0
    locked = [
        what
        for what, count in (("username", by_account), ("ip_address", by_address))
        if count >= limit
    ]
    minutes = max(1, round(cool_off.total_seconds() / 60))
    target = User._default_manager.filter(username=username).first() if username else None
    return _record(
        LOCKED_OUT,
        obj=target,
        at=now,
        after={
            "username": username,
            "ip_address": ip_address,
            "locked_by": locked,
            "failures_for_account": by_account,
            "failures_from_address": by_address,
            "limit": limit,
            "minutes": minutes,
        },
        summary=Message(
            N_(
                "Logins refused for %(minutes)s min after %(limit)s wrong passwords "
                "(account %(user)s, address %(address)s)"
            ),
            {
                "minutes": minutes,
                "limit": limit,
                "user": username or "-",
                "address": ip_address or "-",
            },
        ),
    )


def record_unlock(attempt: Any) -> AuditEntry:
    """An administrator removed a record of failed logins (the lockout it caused ends)."""
    return _record(
        UNLOCKED,
        obj=attempt,
        before={
            "username": attempt.username,
            "ip_address": attempt.ip_address,
            "failures": attempt.failures_since_start,
        },
        summary=Message(
            N_("Login lockout lifted (account %(user)s, address %(address)s)"),
            {"user": attempt.username or "-", "address": attempt.ip_address or "-"},
        ),
    )
