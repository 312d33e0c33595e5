"""``{% load l10n_extras %}``: amounts and numbers in the reader's format (core/l10n.py).

``{{ fee.amount|money:fee.currency }}`` → "1 200 Kč" / "CZK 1,200";
``{{ n|grouped }}`` → "60 000" / "60,000"."""

from __future__ import annotations

from django import template

from bridgeko.core import l10n

register = template.Library()


@register.filter(name="money")
def money(amount: object, currency: object = "CZK") -> str:
    if not isinstance(amount, int) or isinstance(amount, bool):
        return "" if amount is None or amount == "" else str(amount)
    return l10n.money(amount, str(currency or "CZK"))


@register.filter(name="grouped")
def grouped(value: object) -> str:
    if not isinstance(value, int) or isinstance(value, bool):
        return "" if value is None else str(value)
    return l10n.number(value)
