"""Links that a higher app adds to a page of a lower app (the lower app may not import it, nor
name its URLs in a template: tests/web/test_layers.py checks both). E.g. the paper app's PDFs on
the match page, the boards app's "Boards of this match".

A page has named **slots**; the app above registers a provider for a slot in its
``AppConfig.ready()``::

    page_links.register("match", my_provider)   # my_provider(request, *objects) -> [Link, ...]

and the lower template renders the slot's links in its own markup::

    {% load page_links %}{% page_links "match" match as links %}
    {% for link in links %}<a href="{{ link.url }}">{{ link.label }}</a>{% endfor %}

(or ``{% include "core/page_links.html" %}``: the links, " · " between, each with its id and
note).

A provider returns only links the request's user may follow, and runs a fixed number of queries
per page (never one per row). The slots (the objects each receives):

=======================  =====================================  ===============================
slot                     objects (after the request)            page
=======================  =====================================  ===============================
``edition``              edition                                the edition (staff links)
``edition_finished``     edition                                the edition, once finished
``team_link``            edition, team id, team name            a team's name (roles, a player)
``teams``                edition                                the list of teams
``team``                 edition, team                          a team ("Print (PDF):")
``team_actions``         edition, team                          a team (the staff's actions)
``my_team_entry_form``   edition, team                          My team: the entry form
``my_team_fee``          edition, team                          My team: the entry fee
``draw_public``          edition                                the TD's draw page (first)
``draw``                 edition                                the TD's draw page (last)
``print_index``          edition                                the printable lists
``match``                edition, match                         the TD's match ("Print (PDF):")
``segment``              edition, match, segment number         a segment on the TD's match
``match_boards``         edition, match                         the TD's match (segment ends)
``match_appeals``        edition, match                         the TD's match (under its links)
``table_cards``          edition, match, segment number         the table cards of a segment
``standings``            edition                                standings and prizes
``public_boards``        edition                                the boards' commitments
``public_hand_records``  edition, match, segment number         a segment's hand records
``public_hand_record``   edition, match, board number           one hand record
=======================  =====================================  ===============================
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    """In the reader's language."""
    url: str
    note: str = ""
    """A short remark after the link, in the reader's language."""
    id: str = ""
    """The HTML id of the link (tests and the TD guide refer to some)."""


Provider = Callable[..., Sequence[Link]]
_providers: dict[str, list[tuple[int, Provider]]] = {}


def register(slot: str, provider: Provider, position: int = 50) -> Provider:
    """Adds a provider to a slot (idempotent). The slot lists the providers' links by
    ``position``, then in the order of registration (that of ``INSTALLED_APPS``)."""
    found = _providers.setdefault(slot, [])
    if all(known is not provider for _position, known in found):
        found.append((position, provider))
        found.sort(key=lambda item: item[0])
    return provider


def links(slot: str, request: Any, *objects: Any) -> list[Link]:
    """The links of every provider of ``slot`` for ``objects``."""
    found = _providers.get(slot, ())
    return [link for _position, provider in found for link in provider(request, *objects)]
