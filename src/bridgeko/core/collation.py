"""Czech order and diacritics-blind search of names (players, teams).

The order is ICU's Czech collation (CLDR's tailoring of the Unicode Collation Algorithm, the
same rules as PostgreSQL's ``cs-x-icu``): *ch* after *h*; *č ř š ž* after *c r s z*; *á é í …*
sort as their base letter unless the names are otherwise equal; case last. The library is
PyICU from the ``pyicu-wheels`` package (ICU bundled: no system libicu needed). We do not write
collation rules ourselves.

The database cannot be trusted to sort this way (SQLite has no Czech collation, a PostgreSQL
database may lack ICU), so the models that are listed by name store two derived columns, filled
on every save (see :func:`sort_key` and :func:`search_text`):

- ``name_key``: the ICU sort key (bytes; compared byte by byte on both databases);
- ``name_search``: the name in lower case without diacritics; a search compares it with the
  search text folded the same way ("sim", "šim" and "Šim" all find Šimek).

>>> sorted(["Novák", "Němec", "Horák", "Chalupa", "Hájek", "Čermák", "Cimr"], key=sort_key)
['Cimr', 'Čermák', 'Hájek', 'Horák', 'Chalupa', 'Němec', 'Novák']
>>> search_text("  Šťastný Řehoř ")
'stastny rehor'
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

import icu

__all__ = ["COLLATION_LOCALE", "czech_sorted", "search_text", "sort_key"]

T = TypeVar("T")

COLLATION_LOCALE = "cs_CZ"

_local = threading.local()


def _collator() -> icu.Collator:
    # One collator per thread: ICU collators are not documented as safe for concurrent use.
    collator = getattr(_local, "collator", None)
    if collator is None:
        collator = icu.Collator.createInstance(icu.Locale(COLLATION_LOCALE))
        _local.collator = collator
    return collator


def sort_key(text: str) -> bytes:
    """The Czech sort key of ``text``: ``sort_key(a) < sort_key(b)`` iff ``a`` comes before
    ``b`` in Czech order. Keys depend on the ICU version: after an upgrade of ``pyicu-wheels``
    run ``manage.py refresh_name_keys``.

    >>> sort_key("Kříž") < sort_key("Kučera") < sort_key("Zeman") < sort_key("Žák")
    True
    >>> sort_key("Novak") < sort_key("Novák") < sort_key("Nováková")
    True
    """
    return bytes(_collator().getSortKey(text))


def search_text(text: str) -> str:
    """``text`` folded for searching: compatibility-decomposed, without combining marks
    (diacritics), case-folded, with runs of white space made one space.

    >>> search_text("ČERMÁK"), search_text("čermák"), search_text("Cermak")
    ('cermak', 'cermak', 'cermak')
    """
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def czech_sorted(items: Iterable[T], key: Callable[[T], str]) -> list[T]:
    """``items`` in the Czech order of ``key(item)`` (for lists built in Python).

    >>> czech_sorted([("Šimek", 1), ("Svoboda", 2)], key=lambda p: p[0])
    [('Svoboda', 2), ('Šimek', 1)]
    """
    return sorted(items, key=lambda item: sort_key(key(item)))
