"""``{{ closing|closing_reason }}``: the reason of the closing of entries (R8.1) in the active
language (see :func:`bridgeko.entries.queries.closing_reason_text`)."""

from __future__ import annotations

from django import template

from bridgeko.entries.models import EntriesClosing
from bridgeko.entries.queries import closing_reason_text

register = template.Library()


@register.filter(name="closing_reason")
def closing_reason(closing: EntriesClosing | None) -> str:
    return "" if closing is None else closing_reason_text(closing)
