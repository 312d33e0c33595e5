"""``{{ value|tr }}``: the rules engine's message in the active language (see core/i18n.py)."""

from __future__ import annotations

from django import template

from bridgeko.core import i18n

register = template.Library()


@register.filter(name="tr")
def tr(value: object) -> str:
    """The engine's message (a ``Message``, a problem, a fee decision...) translated."""
    return i18n.tr(value)  # type: ignore[arg-type]
