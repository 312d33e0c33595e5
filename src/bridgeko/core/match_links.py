"""Links the apps above the matches app add to the TD's match page (e.g. the appeals app's
"Lodge an appeal" and the match's appeals): the matches app may not import them.

An app registers one provider in its ``AppConfig.ready()``::

    match_links.register(provider)   # provider(request, match) -> Sequence[Link]

and the match page shows :func:`links` under the match's other links.
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


Provider = Callable[[Any, Any], Sequence[Link]]
_providers: list[Provider] = []


def register(provider: Provider) -> Provider:
    """Adds a provider (idempotent; usable as a decorator)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def links(request: Any, match: Any) -> list[Link]:
    """What the providers add for ``match`` as the request's user may follow it."""
    return [link for provider in _providers for link in provider(request, match)]
