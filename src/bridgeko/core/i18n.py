"""Translating the rules engine's messages (``bridgeko.competition.messages``) in the web layer.

The engine words its messages in English from templates marked with ``N_`` and keeps the template
and its params (a :class:`~bridgeko.competition.messages.Message`); :func:`tr` translates the
template(s) with gettext (the project catalogue, ``src/bridgeko/locale``) and fills in the params.
In templates: ``{% load engine_i18n %}`` then ``{{ problem|tr }}``.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.utils.translation import gettext, ngettext

from bridgeko.competition.messages import Message, Translatable

__all__ = ["tr", "tr_stored"]


class _HasText(Protocol):
    @property
    def text(self) -> Message: ...


def _gettext(template: str) -> str:
    return gettext(template) if template else template  # gettext("") is the catalogue header


def _format(message: Message) -> str:
    return _localised(message).format(_gettext, ngettext)


def _localised(message: Message) -> Message:
    """The message with its params in the reader's formats (``bridgeko.core.l10n``): dates as
    "5. 3. 1999"; in a message with a ``currency`` param (a fee: "%(amount)s %(currency)s"),
    its whole numbers grouped ("1 200") and the currency as the reader writes it ("Kč")."""
    if not message.params:
        return message
    # imported here: at the top it changes the order in which mypy analyses the import cycle
    # through the models, and django-stubs then misses the managers of entries.models
    from bridgeko.core import l10n

    has_currency = isinstance(message.params.get("currency"), str)
    params: dict[str, Any] = {}
    for key, value in message.params.items():
        if isinstance(value, Message):
            params[key] = _localised(value)
        elif key == "currency" and isinstance(value, str):
            params[key] = l10n.currency_name(value)
        elif has_currency and isinstance(value, int) and not isinstance(value, bool):
            params[key] = l10n.number(value)
        else:
            params[key] = l10n.localise_param(value)
    return Message(message.template, params, plural=message.plural, count=message.count)


def tr(message: Message | _HasText | Translatable | str | None) -> str:
    """The engine's message in the active language.

    - a :class:`Message`: its template (and those of nested messages) translated, params filled
      in; a counted message (``NP_``/``counted``) through ``ngettext``;
    - a problem with a ``.text`` message (``RosterProblem``, ``ConditionProblem``): the
      translation of ``str(problem)`` (the message and its clause);
    - an engine value with a ``.detail`` message (``Worded``);
    - anything with ``.template`` and ``.params`` (``FeeDecision``, ``EntriesOutcome``: the reason);
    - a plain text: unchanged (it is data, e.g. a name); None: ``""``.
    """
    if message is None:
        return ""
    if isinstance(message, str):
        return message
    if isinstance(message, Message):
        return _format(message)
    text = getattr(message, "text", None)
    if isinstance(text, Message):
        return _format(text)
    detail = getattr(message, "detail", None)
    if isinstance(detail, Message):
        return _format(detail)  # a Worded value: its message, counted ones included
    template = getattr(message, "template", None)
    if isinstance(template, str):
        return _format(Message(template, getattr(message, "params", None) or {}))
    return str(message)


def tr_stored(text: str, *candidates: Message) -> str:
    """A message stored as its English ``text`` (e.g. the reason of a closing), translated when
    one of the engine's ``candidates`` words exactly that text; else the text unchanged."""
    for candidate in candidates:
        if str(candidate) == text:
            return tr(candidate)
    return text
