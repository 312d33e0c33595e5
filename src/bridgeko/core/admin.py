"""The admin of models written only by services: it shows, never adds, changes or deletes
(every write goes through a service, so that it is checked by the engine and audited)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin

from bridgeko.core.search import cut_search


class CutSearch:
    """Mixin for a ModelAdmin: its search box is cut like every other search (a text of over
    50,000 characters is a server error on SQLite, see :mod:`bridgeko.core.search`)."""

    def get_search_results(self, request: Any, queryset: Any, search_term: str) -> Any:
        cut = cut_search(search_term)[0]
        return super().get_search_results(request, queryset, cut)  # type: ignore[misc]


class ReadOnlyAdmin(CutSearch, admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: Any, obj: Any = None) -> bool:
        return False
