"""Translatable messages of the rules engine, without Django.

The engine words every message the user sees in English, from a **template**: a module-level
constant marked with :func:`N_` (a no-op, so that ``makemessages`` extracts it; the project's
``makemessages`` command adds ``--keyword=N_``) with named ``%(placeholders)s``, filled in with
**params**. A :class:`Message` holds both; ``str(message)`` is the English text, and the web layer
translates with ``message.format(gettext)`` (see ``bridgeko.core.i18n.tr``). A param may itself be
a :class:`Message` (e.g. "player 7" inside a roster problem); it is translated the same way.

>>> LISTED_TWICE = N_("%(player)s is listed twice")
>>> msg = Message(LISTED_TWICE, {"player": Message(N_("player %(id)s"), {"id": 7})})
>>> str(msg)
'player 7 is listed twice'
>>> msg.format({"%(player)s is listed twice": "%(player)s je na soupisce dvakrát",
...             "player %(id)s": "hráč %(id)s"}.get)
'hráč 7 je na soupisce dvakrát'

A message whose wording depends on a number is marked with :func:`NP_` (its English singular and
plural templates; ``makemessages`` extracts both, ``--keyword=NP_:1,2``) and built with
:func:`counted`, naming the param that holds the number; the web layer translates it with
``ngettext`` (Czech has three forms: 1 hráč, 2–4 hráči, 5 hráčů):

>>> TEAMS = NP_("%(n)s team entered", "%(n)s teams entered")
>>> str(counted(TEAMS, "n", {"n": 1})), str(counted(TEAMS, "n", {"n": 5}))
('1 team entered', '5 teams entered')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import ClassVar, Protocol, TypeAlias
else:
    # typing is for the type checker; at run time Translatable is a plain class (it is never
    # instantiated nor given to isinstance), and the CLI does not import typing (start-up time).
    Protocol = object

__all__ = ["NP_", "N_", "Message", "Param", "Translatable", "Worded", "counted"]


def N_(template: str) -> str:
    """Marks a message template for translation; returns it unchanged."""
    return template


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message template with its English plural form for translation (a pair for
    :func:`counted`); returns both unchanged."""
    return singular, plural


def _same(template: str) -> str:
    return template


def _number(value: object) -> int:
    """The number a count param holds (an int, or a text of digits); 0 when it holds none."""
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return 0


@dataclass(frozen=True, slots=True)
class Message:
    """A message template (English, marked with :func:`N_`) and the values of its placeholders.

    A template without params is used as it is (no ``%`` formatting), so a plain text may be
    wrapped as ``Message(text)``.
    """

    template: str
    params: Mapping[str, Param] = field(default_factory=dict)
    plural: str = ""
    """The English plural template of a counted message (see :func:`counted`); "" for none."""
    count: str = ""
    """The param holding the number that picks the singular or a plural form."""

    def __hash__(self) -> int:
        return hash(
            (
                self.template,
                tuple(sorted(self.params.items(), key=lambda kv: kv[0])),
                self.plural,
                self.count,
            )
        )

    def english(self) -> str:
        """The English template this message's number picks (the template itself when the
        message is not counted)."""
        if self.plural and _number(self.params.get(self.count)) != 1:
            return self.plural
        return self.template

    def format(
        self,
        translate: Callable[[str], str | None] = _same,
        ntranslate: Callable[[str, str, int], str | None] | None = None,
    ) -> str:
        """The text, each template (this one and those of nested messages) passed through
        ``translate`` first (e.g. ``gettext``) — a counted one through ``ntranslate`` (e.g.
        ``ngettext``; without it a counted message stays English); without them, the English
        text. A translation that is None or empty, or that does not fit the params (a broken
        placeholder), falls back to the English template."""
        english = self.english()
        if not self.plural:
            text = translate(self.template) or english
        elif ntranslate is not None:
            number = _number(self.params.get(self.count))
            text = ntranslate(self.template, self.plural, number) or english
        else:
            text = english
        if not self.params:
            return text
        values = {
            key: value.format(translate, ntranslate) if isinstance(value, Message) else value
            for key, value in self.params.items()
        }
        if text != english:
            try:
                return text % values
            except (KeyError, ValueError, TypeError):
                pass
        return english % values

    def __str__(self) -> str:
        return self.format()


Param: TypeAlias = str | int | Message
"""The value of a placeholder: a text, a number or a nested message."""


def counted(forms: tuple[str, str], count: str, params: Mapping[str, Param]) -> Message:
    """A message worded by number: ``forms`` from :func:`NP_` (singular, plural), ``count`` the
    name of the param holding the number."""
    return Message(forms[0], params, plural=forms[1], count=count)


class Translatable(Protocol):
    """What the web layer can translate: a template and its params (e.g. a :class:`Message`,
    a :class:`~bridgeko.competition.entries.RosterProblem`)."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Param]: ...


class Worded:
    """Mixin for an engine value worded in English with an optional template.

    The English text is the field named by ``_english`` (``"message"`` unless a class says
    otherwise); ``i18n`` holds the same text as a :class:`Message` when it was worded from a
    template. :attr:`detail` is then what the web layer translates, and the value itself is
    :class:`Translatable`.
    """

    __slots__ = ()
    _english: ClassVar[str] = "message"
    i18n: Message | None

    @property
    def detail(self) -> Message:
        """The English text as a translatable :class:`Message`."""
        return self.i18n if self.i18n is not None else Message(str(getattr(self, self._english)))

    @property
    def template(self) -> str:
        return self.detail.template

    @property
    def params(self) -> Mapping[str, Param]:
        return self.detail.params
