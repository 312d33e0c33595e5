from django.contrib import admin

from bridgeko.accounts.models import RoleAssignment
from bridgeko.core.admin import ReadOnlyAdmin


@admin.register(RoleAssignment)
class RoleAssignmentAdmin(ReadOnlyAdmin):
    """Read-only: roles are given through the audited service (the Roles page)."""

    list_display = ("user", "edition", "role", "team")
    list_filter = ("edition", "role")
