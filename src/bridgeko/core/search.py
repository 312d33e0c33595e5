"""Search text from a request, cut to a sane length before it reaches a query.

A search box is a free text field in a GET request: any length, any character. SQLite refuses a
``LIKE`` pattern of over 50,000 bytes (a server error) and PostgreSQL a text holding NUL, while no
name in the register is longer than a hundred characters. So every search takes its text through
:func:`cut_search` and says on the page when it was cut.

>>> cut_search("  Novák ")
('Novák', False)
>>> text, cut = cut_search("x" * 50_000)
>>> len(text), cut
(100, True)
>>> cut_search("No\\x00vák")
('Novák', False)
"""

from __future__ import annotations

__all__ = ["SEARCH_MAX_LENGTH", "cut_search"]

SEARCH_MAX_LENGTH = 100
"""The longest search text used; the players' names and clubs are at most 120 characters, the
federation ids 20, and a search matches parts of them."""


def cut_search(text: str) -> tuple[str, bool]:
    """The text to search for (stripped, without NUL characters, at most
    :data:`SEARCH_MAX_LENGTH` characters) and whether it was cut."""
    text = text.replace("\x00", "").strip()
    if len(text) <= SEARCH_MAX_LENGTH:
        return text, False
    return text[:SEARCH_MAX_LENGTH].strip(), True
