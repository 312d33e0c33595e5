from django.contrib import admin

from bridgeko.editions.models import Edition


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: editions change through the audited services (the edition pages)."""

    list_display = ("slug", "name", "year", "language", "previous")

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
