"""Showing and reading amounts, numbers, dates and times in the reader's language.

Czech: "1 200 Kč", "60 000", "5. 3. 1999", "19:00"; English: "CZK 1,200", "60,000",
"5 March 1999", "19:00" (the formats are in ``bridgeko/core/formats/{cs,en}/formats.py``).
Reading accepts what people type: "60 000" (a space or a non-breaking one), "60000", "60,000" in
English; "5. 3. 1999", "5.3.1999" and ISO dates; "19:00". In templates:
``{% load l10n_extras %}{{ amount|money:currency }}``.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from typing import Any

from django.utils import formats
from django.utils.translation import get_language

__all__ = [
    "localise_param",
    "money",
    "number",
    "parse_date",
    "parse_time",
    "parse_whole",
    "parse_whole_list",
    "show_date",
    "show_datetime",
    "show_time",
    "show_whole_list",
]

# The currency as Czech writes it after the amount; English writes the ISO code before it.
_CZECH_SYMBOLS = {"CZK": "Kč", "EUR": "€"}
_NBSP = "\xa0"


def _czech() -> bool:
    return (get_language() or "cs").split("-")[0] == "cs"


def number(value: int) -> str:
    """A whole number grouped by thousands: "60 000" (non-breaking space) / "60,000"."""
    return formats.number_format(value, use_l10n=True, force_grouping=True)


def currency_name(currency: str) -> str:
    """ "Kč" in Czech for CZK; else the ISO code."""
    return _CZECH_SYMBOLS.get(currency, currency) if _czech() else currency


def money(amount: int | None, currency: str) -> str:
    """ "1 200 Kč" in Czech, "CZK 1,200" in English (non-breaking spaces throughout);
    None gives ``""``."""
    if amount is None or isinstance(amount, bool):
        return ""
    if _czech():
        return f"{number(amount)}{_NBSP}{currency_name(currency)}"
    return f"{currency}{_NBSP}{number(amount)}"


def show_date(value: date) -> str:
    """ "5. 3. 1999" / "5 March 1999"."""
    return formats.date_format(value, "DATE_FORMAT")


def show_time(value: time) -> str:
    """ "19:00" (with seconds only when there are some)."""
    if value.second:
        return formats.time_format(value, "H:i:s")
    return formats.time_format(value, "TIME_FORMAT")


def show_datetime(value: datetime) -> str:
    """ "5. 3. 1999 19:00" / "5 March 1999, 19:00" (an aware value in the current time zone)."""
    from django.utils import timezone

    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return formats.date_format(value, "DATETIME_FORMAT")


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------

_SPACES = "[ \xa0\u202f\u2009]"  # space, no-break space, narrow no-break space, thin space
_GROUPED_SPACE = re.compile(rf"[+-]?\d{{1,3}}(?:{_SPACES}\d{{3}})+")
_GROUPED_COMMA = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+")
_PLAIN = re.compile(r"[+-]?\d+")


def parse_whole(text: str) -> int | None:
    """A whole number as typed: "60000", "60 000" (any kind of space between groups of three),
    and in English "60,000"; None when it is not one (in Czech "60,000" is sixty, so not a whole
    number; the caller says what is wrong)."""
    text = text.strip()
    if len(text) > 40:  # no number of the regulations is that long; int() of 5000 digits fails
        return None
    if _PLAIN.fullmatch(text):
        return int(text)
    if _GROUPED_SPACE.fullmatch(text):
        return int(re.sub(_SPACES, "", text))
    if not _czech() and _GROUPED_COMMA.fullmatch(text):
        return int(text.replace(",", ""))
    return None


def list_separator() -> str:
    """ ", " in Czech; "; " in English (where a comma groups the thousands)."""
    return ", " if _czech() else "; "


def _split_list(text: str) -> list[str]:
    if ";" in text:
        return text.split(";")
    parts = text.split(",")
    if _czech():
        return parts
    # English: "60,000, 20,000": a part of exactly three digits right after a digit is a group
    merged: list[str] = []
    for part in parts:
        if merged and re.fullmatch(r"\d{3}", part) and merged[-1][-1:].isdigit():
            merged[-1] += "," + part
        else:
            merged.append(part)
    return merged


def parse_whole_list(text: str) -> list[int | str]:
    """Numbers separated by commas or semicolons ("60 000, 20 000" / "60,000; 20,000"); an item
    that is not a whole number stays text (the regulations name the problem)."""
    items = [item.strip() for item in _split_list(text)]
    return [parsed if (parsed := parse_whole(item)) is not None else item for item in items if item]


def show_whole_list(values: list[int], group: bool = False) -> str:
    """ "60 000, 20 000" / "60,000; 20,000" (``group``), "8, 16, 32" / "8; 16; 32"."""
    return list_separator().join(number(v) if group else str(v) for v in values)


def _input_formats(name: str) -> list[str]:
    return list(formats.get_format(name))


def parse_date(text: str) -> date | None:
    """ "5. 3. 1999", "5.3.1999", "1999-03-05" (English also "5 March 1999"); None otherwise."""
    text = " ".join(text.split())  # a non-breaking space or two spaces are a space
    if not text or len(text) > 40:
        return None
    for fmt in _input_formats("DATE_INPUT_FORMATS"):
        try:
            return datetime.strptime(text, fmt).date()  # noqa: DTZ007 (a day, no time)
        except ValueError:
            continue
    return None


def parse_time(text: str) -> time | None:
    """ "19:00", "19:00:00" (Czech also "19.00"); None otherwise."""
    text = text.strip()
    if not text or len(text) > 20:
        return None
    for fmt in _input_formats("TIME_INPUT_FORMATS"):
        try:
            return datetime.strptime(text, fmt).time()  # noqa: DTZ007 (a time of day)
        except ValueError:
            continue
    return None


# ---------------------------------------------------------------------------------------------
# The params of the engine's messages
# ---------------------------------------------------------------------------------------------

_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_ISO_DATE_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})( [A-Z][A-Za-z0-9+-]{1,5})?")
"""A local date and time as the engine writes it into a deadline: "1999-03-26 23:59 CET"."""


QUOTES = {"cs": ("„", "“"), "en": ("“", "”")}
"""The quotation marks of each language (Czech „…“, English “…”)."""
_QUOTED = re.compile(r"'([^'\n]*)'")
"""A text the engine quoted with ``repr()`` (a name without an apostrophe inside)."""


def localise_param(value: Any) -> Any:
    """A param of an engine message as the reader writes it: a date (or an ISO date text, which
    is how the engine and the audit log keep dates) → "5. 3. 1999"; a local date and time
    "1999-03-26 23:59 CET" → "26. 3. 1999 23:59 CET"; a quoted name (the engine quotes names as
    Python does, ``'Sokol'``) in the reader's quotes, „Sokol“ / “Sokol”; anything else
    unchanged.

    >>> from django.utils import translation
    >>> with translation.override("cs"):
    ...     localise_param("'Novák – Šimek'"), localise_param("it's")
    ('„Novák – Šimek“', "it's")
    >>> with translation.override("en"):
    ...     localise_param("'Novák – Šimek'")
    '“Novák – Šimek”'
    """
    if isinstance(value, str) and (quoted := _QUOTED.fullmatch(value)):
        opening, closing = QUOTES.get((get_language() or "").split("-")[0], ("“", "”"))
        return f"{opening}{quoted.group(1)}{closing}"
    if isinstance(value, datetime):
        return show_datetime(value)
    if isinstance(value, date):
        return show_date(value)
    if isinstance(value, time):
        return show_time(value)
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return show_date(date.fromisoformat(value))
        except ValueError:
            return value
    if isinstance(value, str) and (match := _ISO_DATE_TIME.fullmatch(value)):
        try:
            day, at = date.fromisoformat(match.group(1)), time.fromisoformat(match.group(2))
        except ValueError:
            return value
        shown = formats.date_format(datetime.combine(day, at), "DATETIME_FORMAT")
        return shown + (match.group(3) or "")
    return value
