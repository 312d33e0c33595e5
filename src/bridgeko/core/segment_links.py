"""Links that apps above the matches app add to each segment on the TD's match page (the
matches app lies below them and may not import them): e.g. the segment's hand records.

An app registers a provider in its ``AppConfig.ready()``::

    segment_links.register(my_provider)
    # my_provider(request, match, segments) -> {segment number: [Link, ...]}

``links(request, match, segments)`` merges what the providers give, in their order. A provider
runs a fixed number of queries for the whole match (never one a segment)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    """In the reader's language."""
    url: str
    note: str = ""
    """A short remark after the link (e.g. "analysis 12 of 16"), in the reader's language."""


Provider = Callable[[Any, Any, Sequence[Any]], Mapping[int, Sequence[Link]]]
_providers: list[Provider] = []


def register(provider: Provider) -> Provider:
    """Adds a provider (idempotent; usable as a decorator)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def links(request: Any, match: Any, segments: Sequence[Any]) -> dict[int, list[Link]]:
    """Segment number -> the links of every provider for it."""
    out: dict[int, list[Link]] = {}
    for provider in _providers:
        for number, found in provider(request, match, segments).items():
            out.setdefault(number, []).extend(found)
    return out
