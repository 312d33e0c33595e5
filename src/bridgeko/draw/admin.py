"""Admin: read-only views of the draw (writes go through :mod:`bridgeko.draw.services`). The
seed is never shown before the draw is held (I8)."""

from __future__ import annotations

from django.contrib import admin

from bridgeko.draw.models import Draw, DrawNumber, MatchDate
from bridgeko.entries.admin import ReadOnlyAdmin


@admin.register(Draw)
class DrawAdmin(ReadOnlyAdmin):
    list_display = ("edition", "place", "scheduled_at", "commitment", "held_at", "method")
    exclude = ("seed_hex",)
    readonly_fields = ("revealed_seed",)


@admin.register(DrawNumber)
class DrawNumberAdmin(ReadOnlyAdmin):
    list_display = ("draw", "number", "team")


@admin.register(MatchDate)
class MatchDateAdmin(ReadOnlyAdmin):
    list_display = ("draw", "match", "round", "start", "location")
