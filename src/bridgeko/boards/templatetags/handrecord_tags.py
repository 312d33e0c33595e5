"""Filters that show the values of :mod:`bridgeko.boards.handrecords` in the reader's language:
``{{ strain|strain_sym }}`` (♠ ♥ ♦ ♣, NT / BT), ``{{ seat|seat_name }}``, ``{{ vul|vul_text }}``,
``{{ line|contract_text }}`` (a par line or a room's result: ``4♠``, ``5♦X``, pass),
``{{ n|signed }}`` (``+1``, ``=``, ``−2``), ``{{ score|par_score }}`` (``NS 420``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from bridgeko.bridge.cards import Seat, Strain, Vulnerability

register = template.Library()


@register.filter(name="strain_sym")
def strain_sym(strain: Strain | str | None) -> str:
    if strain is None or strain == "":
        return ""
    s = Strain(strain)
    if s is Strain.NOTRUMP:
        return pgettext("denomination", "NT")
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[s.value]


@register.filter(name="strain_class")
def strain_class(strain: Strain | str | None) -> str:
    """A CSS class: the red suits are printed in red."""
    if strain in (Strain.HEARTS, Strain.DIAMONDS, "H", "D"):
        return "suit red"
    return "suit"


@register.filter(name="seat_name")
def seat_name(seat: Seat | str) -> str:
    return {
        "N": pgettext("compass", "North"),
        "E": pgettext("compass", "East"),
        "S": pgettext("compass", "South"),
        "W": pgettext("compass", "West"),
    }[Seat(seat).value]


@register.filter(name="vul_text")
def vul_text(vul: Vulnerability | str) -> str:
    return {
        "None": pgettext("vulnerable", "none"),
        "NS": "NS",
        "EW": "EW",
        "All": pgettext("vulnerable", "all"),
    }[Vulnerability(vul).value]


@register.filter(name="contract_text")
def contract_text(line: Any) -> str:
    """``4♠``, ``3NTX`` ("3 BTX" in Czech), ``pass`` for a passed-out board."""
    if line is None:
        return ""
    if not line.level:
        return pgettext("bridge", "pass")
    return f"{line.level}{strain_sym(line.strain)}{line.doubled}"


@register.filter(name="signed")
def signed(n: int | None) -> str:
    """Over- or undertricks: ``+1``, ``=``, ``−2`` (a real minus sign)."""
    if n is None:
        return ""
    if n == 0:
        return "="
    return f"+{n}" if n > 0 else f"\u2212{-n}"


@register.filter(name="par_score")
def par_score(score: int | None) -> str:
    """North-South's par score as the side that scores it: ``NS 420``, ``EW 100``, ``0``."""
    if score is None:
        return ""
    if score == 0:
        return "0"
    return f"NS {score}" if score > 0 else f"EW {-score}"


@register.filter(name="card_text")
def card_text(card: Any) -> str:
    """A card played: ``♥A``, ``♠10``."""
    if card is None:
        return ""
    rank = card.rank.char
    return f"{strain_sym(card.suit.value)}{'10' if rank == 'T' else rank}"


@register.filter(name="call_class")
def call_class(call: Any) -> str:
    if call is None or call.strain is None:
        return "call"
    return f"call {strain_class(call.strain)}"


@register.filter(name="call_text")
def call_text(call: Any) -> str:
    """A call of an auction: ``1♠``, ``2NT`` (``2BT``), pass, X, XX; an alerted call with *."""
    if call is None:
        return ""
    if call.level:
        text = f"{call.level}{strain_sym(call.strain)}"
    elif call.text == "P":
        text = pgettext("call", "pass")
    else:
        text = call.text
    return text + ("*" if call.alerted else "")


@register.filter(name="room_name")
def room_name(room: str) -> str:
    return _("Open room") if room == "open" else _("Closed room")
