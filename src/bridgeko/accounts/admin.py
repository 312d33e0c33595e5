"""The admin: bridgeko's own models are read-only (every write goes through an audited service);
accounts and groups stay editable there and every change is audited
(:mod:`bridgeko.accounts.account_audit`: the model signals record the account's fields and
password, these pages its groups and permissions); the records of failed logins may be deleted
(that lifts a lockout), which is audited too."""

from typing import Any

from axes.models import AccessAttempt, AccessLog
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin as DjangoGroupAdmin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import Group

from bridgeko.accounts.account_audit import memberships, record_memberships, record_unlock
from bridgeko.accounts.models import RoleAssignment
from bridgeko.core.admin import CutSearch, ReadOnlyAdmin


@admin.register(RoleAssignment)
class RoleAssignmentAdmin(ReadOnlyAdmin):
    """Read-only: roles are given through the audited service (the Roles page)."""

    list_display = ("user", "edition", "role", "team")
    list_filter = ("edition", "role")


class AuditedMemberships:
    """Records the groups and permissions the admin's form set (after ``save_related``)."""

    def save_related(self, request: Any, form: Any, formsets: Any, change: bool) -> None:
        before = memberships(form.instance) if change else {}
        super().save_related(request, form, formsets, change)  # type: ignore[misc]
        record_memberships(form.instance, before)


User = get_user_model()
for model in (User, Group):
    if admin.site.is_registered(model):
        admin.site.unregister(model)


@admin.register(User)
class UserAdmin(CutSearch, AuditedMemberships, DjangoUserAdmin):  # type: ignore[type-arg]
    """Django's user admin; every change is audited."""


@admin.register(Group)
class GroupAdmin(CutSearch, AuditedMemberships, DjangoGroupAdmin):
    """Django's group admin; every change is audited."""


@admin.register(AccessAttempt)
class AccessAttemptAdmin(ReadOnlyAdmin):
    """Failed logins (django-axes). Deleting a record lifts the lockout it caused (audited)."""

    list_display = ("attempt_time", "username", "ip_address", "failures_since_start")
    search_fields = ("username", "ip_address")
    exclude = ("get_data", "post_data")

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return bool(admin.ModelAdmin.has_delete_permission(self, request, obj))

    def delete_model(self, request: Any, obj: Any) -> None:
        record_unlock(obj)
        super().delete_model(request, obj)

    def delete_queryset(self, request: Any, queryset: Any) -> None:
        for attempt in queryset:
            record_unlock(attempt)
        super().delete_queryset(request, queryset)


@admin.register(AccessLog)
class AccessLogAdmin(ReadOnlyAdmin):
    """Logins and logouts (django-axes), read-only."""

    list_display = ("attempt_time", "logout_time", "username", "ip_address")
    search_fields = ("username", "ip_address")
