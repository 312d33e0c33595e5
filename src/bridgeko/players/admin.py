from django.contrib import admin

from bridgeko.players.models import EloList, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: players change through the audited services (the players pages)."""

    list_display = ("name", "federation_id", "club", "member")
    search_fields = ("name", "federation_id", "club")

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(EloList)
class EloListAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("reference_date", "source_name", "imported_at")

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
