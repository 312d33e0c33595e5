"""What an uploaded convention card (R3.1b) is, judged by its content (its first bytes), never by
its name or the type the browser claims: a PDF, a PNG or a JPEG picture. Pure: no Django."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_BYTES = 5 * 1024 * 1024
"""The size limit of a card unless the setting ``BRIDGEKO_CARD_MAX_BYTES`` says otherwise."""


@dataclass(frozen=True, slots=True)
class CardKind:
    content_type: str
    extension: str
    label: str


PDF = CardKind("application/pdf", "pdf", "PDF")
PNG = CardKind("image/png", "png", "PNG")
JPEG = CardKind("image/jpeg", "jpg", "JPEG")

_MAGIC: tuple[tuple[bytes, CardKind], ...] = (
    (b"%PDF-", PDF),
    (b"\x89PNG\r\n\x1a\n", PNG),
    (b"\xff\xd8\xff", JPEG),
)


def sniff(head: bytes) -> CardKind | None:
    """The kind of a file from its first bytes (at least 8 of them), None when it is none of
    the accepted kinds.

    >>> sniff(b"%PDF-1.4 ...").label
    'PDF'
    >>> sniff(b"\\x89PNG\\r\\n\\x1a\\n...").extension
    'png'
    >>> sniff(b"<html>%PDF-") is None
    True
    """
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
    return None
