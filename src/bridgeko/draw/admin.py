"""Admin: read-only views of the draw (writes go through :mod:`bridgeko.draw.services`). The
seed is never shown before the draw is held (I8): not as a field, and not through the change
list's filters or search (``?seed_hex__startswith=...`` would otherwise reveal it a character
at a time)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from bridgeko.core.admin import ReadOnlyAdmin
from bridgeko.draw.models import Draw, DrawNumber, MatchDate

SECRET_FIELDS = frozenset({"seed_hex"})


class NoSecretLookups(ReadOnlyAdmin):
    def lookup_allowed(self, lookup: str, value: Any, request: Any = None) -> bool:
        if SECRET_FIELDS.intersection(lookup.split("__")):
            return False  # I8: no filtering on the secret seed
        return bool(super().lookup_allowed(lookup, value, request))


@admin.register(Draw)
class DrawAdmin(NoSecretLookups):
    list_display = ("edition", "place", "scheduled_at", "commitment", "held_at", "method")
    exclude = ("seed_hex",)
    readonly_fields = ("revealed_seed",)


@admin.register(DrawNumber)
class DrawNumberAdmin(NoSecretLookups):
    list_display = ("draw", "number", "team")


@admin.register(MatchDate)
class MatchDateAdmin(NoSecretLookups):
    list_display = ("draw", "match", "round", "start", "location")
