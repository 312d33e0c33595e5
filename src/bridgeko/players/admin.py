from django.contrib import admin

from bridgeko.core.admin import ReadOnlyAdmin
from bridgeko.players.models import EloList, Player


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    """Read-only: players change through the audited services (the players pages)."""

    list_display = ("name", "federation_id", "club", "member")
    search_fields = ("name", "federation_id", "club")


@admin.register(EloList)
class EloListAdmin(ReadOnlyAdmin):
    list_display = ("reference_date", "source_name", "imported_at")
