from django.contrib import admin

from bridgeko.core.admin import ReadOnlyAdmin
from bridgeko.editions.models import Edition


@admin.register(Edition)
class EditionAdmin(ReadOnlyAdmin):
    """Read-only: editions change through the audited services (the edition pages)."""

    list_display = ("slug", "name", "year", "language", "stage", "previous")
