"""Things that happened, told to whoever listens: an app lower in the order (entries, draw,
matches, appeals) emits an event from its service, inside the service's transaction; an app
above it (the mail to captains) subscribes in its ``AppConfig.ready``. So a lower app never
imports a higher one.

A listener runs in a savepoint of the emitting transaction: what it stores commits or rolls back
with the action. An exception in a listener is logged (logger ``bridgeko.events``) and its
savepoint rolled back; it never breaks the action that emitted the event.

The events (name: keyword arguments; every event also gets ``user``, who acted, or None):

* ``entry.confirmed``: ``team`` (entries.Team; it entered: its entry form was recorded, R3.1a),
  ``fee`` (int, the fee due, R4.1/I4)
* ``draw.held``: ``edition`` (its matches exist by then)
* ``schedule.published``: ``edition`` (the dates of the preliminary matches, R14.1)
* ``match.rescheduled``: ``match`` (matches.Match), ``before`` (the old start, or None)
* ``date.proposed``: ``proposal`` (matches.DateProposal: a captain proposed another date, R14.2a)
* ``date.answered``: ``proposal`` (its status says what became of it: accepted — the organiser
  told —, waiting for the TD, declined, withdrawn, allowed or refused by the TD)
* ``record.submitted``: ``submission`` (matches.RecordSubmission: a captain's match record,
  R14.2b); ``record.answered``: ``submission`` (confirmed or disputed by the opponents — or
  approved at once, when the edition says so); ``record.decided``: ``submission`` (approved or
  rejected by the TD, or withdrawn by its team)
* ``match.result``: ``match`` (a result recorded: a segment's result became complete, the match
  was decided, or a decided match's score changed — not every board saved)
* ``appeal.decided``: ``match`` (matches.Match), ``appellant`` (entries.Team), ``outcome``
  (``"upheld"``, ``"adjusted"`` or ``"dismissed"``), ``deposit`` (``"returned"`` or
  ``"forfeited"``), ``reasons`` (str)
* ``boards.analysed``: ``edition_id`` (int; the double-dummy analysis stored one more board of
  the edition's sets — not audited, so told here: the static export of the public pages)
* ``odds.updated``: ``edition_id`` (int; the chances to win the event were recomputed after a
  result — derived data, not audited: the static export follows them)

An app adds its event here when it starts emitting one.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from django.db import transaction

log = logging.getLogger("bridgeko.events")

Listener = Callable[..., None]
_listeners: defaultdict[str, list[Listener]] = defaultdict(list)


def subscribe(event: str, listener: Listener) -> Listener:
    """Adds ``listener(**kwargs)`` for ``event`` (idempotent)."""
    if listener not in _listeners[event]:
        _listeners[event].append(listener)
    return listener


def emit(event: str, **kwargs: Any) -> None:
    """Calls the listeners of ``event``; a failing listener is logged, never raised."""
    for listener in list(_listeners.get(event, ())):
        try:
            with transaction.atomic():
                listener(**kwargs)
        except Exception:
            log.exception(
                "listener %s of %s failed", getattr(listener, "__qualname__", listener), event
            )
