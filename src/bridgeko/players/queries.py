"""Looking players up in the register (the roster form of the entries)."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from bridgeko.core.errors import ServiceError
from bridgeko.players.models import Player


def find_players(query: str, *, limit: int = 30) -> list[Player]:
    """Players of the register matching a name part or a federation id (for the roster)."""
    query = query.strip()
    if not query:
        return []
    return list(
        Player.objects.filter(Q(name__icontains=query) | Q(federation_id=query)).order_by("name")[
            :limit
        ]
    )


def resolve_player(text: str) -> Player:
    """The player named by a roster line: a federation id, ``Name (id)``, ``#pk`` or an exact
    unique name."""
    text = text.strip()
    if text.startswith("#") and text[1:].isdigit():
        player = Player.objects.filter(pk=int(text[1:])).first()
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
