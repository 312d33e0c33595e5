from django.contrib import admin

from bridgeko.audit.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """The log is append-only: nobody edits or deletes an entry."""

    list_display = ("at", "action", "user", "edition", "object_repr", "summary")
    list_filter = ("edition", "action")
    search_fields = ("action", "object_repr", "summary")

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
