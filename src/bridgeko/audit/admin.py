from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from bridgeko.audit.models import AuditEntry
from bridgeko.core.admin import ReadOnlyAdmin


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The log is append-only: nobody edits or deletes an entry."""

    list_display = ("at", "action", "user", "edition", "object_repr", "summary_shown")
    list_filter = ("edition", "action")
    search_fields = ("action", "object_repr", "summary")

    @admin.display(description=_("summary"))
    def summary_shown(self, obj: AuditEntry) -> str:
        """The summary in the reader's language (search still matches the English text)."""
        return obj.display_summary
