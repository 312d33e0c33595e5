from django.contrib import admin

from bridgeko.accounts.models import RoleAssignment


@admin.register(RoleAssignment)
class RoleAssignmentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: roles are given through the audited service (the Roles page)."""

    list_display = ("user", "edition", "role", "team_id")
    list_filter = ("edition", "role")

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
