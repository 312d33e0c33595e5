"""The bracket's results and its changes, passed between the draw app and the matches app.

The draw app (below) shows the bracket and records failures to appear; the matches app (above it)
holds the matches and their results. Neither may import the other's way up, so they meet here:

* the matches app registers a **results provider** (``register_results``): ``provider(edition)``
  returns match id -> the draw number of its winner, or ``None`` when neither team appeared
  (I16), for every decided match — the ``results`` argument of
  :func:`bridgeko.competition.bracket.resolve`;
* the draw app calls :func:`changed` inside its transaction when the draw is held or a failure
  to appear is recorded, corrected or withdrawn; the matches app's listener (``on_change``)
  then creates or updates its matches in the same transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

ResultsProvider = Callable[[Any], Mapping[str, int | None]]
Listener = Callable[..., None]

_results: list[ResultsProvider] = []
_listeners: list[Listener] = []


def register_results(provider: ResultsProvider) -> ResultsProvider:
    """Adds a results provider (idempotent; usable as a decorator)."""
    if provider not in _results:
        _results.append(provider)
    return provider


def on_change(listener: Listener) -> Listener:
    """Adds a listener ``listener(edition, *, match=None, user=None, now=None)`` (idempotent)."""
    if listener not in _listeners:
        _listeners.append(listener)
    return listener


def results(edition: Any) -> dict[str, int | None]:
    """Match id -> winning draw number (None: no winner, I16) of the decided matches."""
    out: dict[str, int | None] = {}
    for provider in _results:
        out.update(provider(edition))
    return out


def changed(edition: Any, *, match: str | None = None, user: Any = None, now: Any = None) -> None:
    """Tells the listeners that ``edition``'s bracket may have changed (``match``: the match
    whose facts changed, when one did)."""
    for listener in _listeners:
        listener(edition, match=match, user=user, now=now)
