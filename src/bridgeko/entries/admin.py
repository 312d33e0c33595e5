"""Admin: read-only views of the entries. Every write goes through
:mod:`bridgeko.entries.services` (the pages), so that each is checked by the engine and audited;
the admin therefore neither adds, changes nor deletes."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from bridgeko.core.admin import ReadOnlyAdmin
from bridgeko.entries.models import EntriesClosing, NoShow, Pair, RosterEntry, Team


class RosterInline(admin.TabularInline):  # type: ignore[type-arg]
    model = RosterEntry
    fields = ("position", "player")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = ("name", "edition", "accepted", "form_received", "fee_received", "fee_paid")
    list_filter = ("edition", "accepted", "late_entry")
    search_fields = ("name",)
    inlines = (RosterInline,)


@admin.register(Pair)
class PairAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "team", "card_received")
    list_filter = ("team__edition",)


@admin.register(EntriesClosing)
class EntriesClosingAdmin(ReadOnlyAdmin):
    list_display = ("edition", "closed_at", "cancelled", "reason")


@admin.register(NoShow)
class NoShowAdmin(ReadOnlyAdmin):
    list_display = ("team", "match", "legacy_match", "timely_notice", "withdrawn_at", "edition")
