"""Looking players up in the register (the roster form of the entries)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from bridgeko.core.collation import search_text
from bridgeko.core.errors import ServiceError
from bridgeko.core.search import cut_search
from bridgeko.players.models import Player

MAX_PLAYER_TEXT = 200
"""The longest roster line looked up: a name (120 characters) with its federation id (20)."""


MAX_PK = 2**63 - 1
"""The largest key a database holds (a larger ``#pk`` overflows the query: no such player)."""


def shorten(text: str, length: int = 60) -> str:
    """``text`` for a message: at most ``length`` characters, an ellipsis marking a cut.

    >>> shorten("Novák"), shorten("x" * 100, 5)
    ('Novák', 'xxxx…')
    """
    return text if len(text) <= length else text[: length - 1] + "…"


def find_players(query: str, *, limit: int = 30) -> list[Player]:
    """Players of the register matching a name part or a federation id (for the roster), in
    Czech order; case and diacritics do not matter ("sim" finds Šimek). The
    query is cut to :data:`~bridgeko.core.search.SEARCH_MAX_LENGTH` characters."""
    query, _cut = cut_search(query)
    if not query:
        return []
    folded = search_text(query)
    return list(
        Player.objects.filter(Q(name_search__contains=folded) | Q(federation_id=query)).order_by(
            "name_key", "federation_id"
        )[:limit]
    )


def resolve_player(text: str) -> Player:
    """The player named by a roster line: a federation id, ``Name (id)``, ``#pk`` or an exact
    unique name. A text longer than any name or id (e.g. a pasted page) is no player: it is
    refused without a query (SQLite refuses a ``LIKE`` pattern of over 50,000 bytes)."""
    text = text.strip()
    if len(text) > MAX_PLAYER_TEXT or "\x00" in text:
        raise ServiceError(
            _("%(text)s: no such player in the register.") % {"text": shorten(text)},
            field="roster",
        )
    if text.startswith("#") and text[1:].isascii() and text[1:].isdigit():
        pk = int(text[1:])  # at most 199 digits: within int()'s limit
        player = Player.objects.filter(pk=pk).first() if pk <= MAX_PK else None
        if player is not None:
            return player
    if text.endswith(")") and "(" in text:
        inner = text[text.rindex("(") + 1 : -1].strip()
        player = Player.objects.filter(federation_id=inner).first()
        if player is not None:
            return player
    player = Player.objects.filter(federation_id=text).first()
    if player is not None:
        return player
    matches = list(Player.objects.filter(name__iexact=text)[:2])
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise ServiceError(
            _("%(text)s: several players have this name; give the federation id.") % {"text": text},
            field="roster",
        )
    raise ServiceError(
        _("%(text)s: no such player in the register.") % {"text": text}, field="roster"
    )
