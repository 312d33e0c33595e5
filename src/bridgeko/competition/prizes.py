"""Prize money by final place (R5.1, with the standings of I7).

>>> from bridgeko.competition.regulations import EntryRules, RatingRules, Regulations
>>> from bridgeko.competition.regulations import EditionInfo, ScheduleRules
>>> from datetime import date
>>> reg = Regulations(
...     EditionInfo("Bridge Open K.O. 1999", 1999, "Klub", "Nové Město nad Metují"),
...     EntryRules(date(1999, 3, 5)), RatingRules(date(1998, 6, 30)),
...     ScheduleRules(date(1999, 6, 4), date(1999, 6, 6)),
... )
>>> for award in prize_list(["Vltava", "Labe", "Ohře", "Morava", "Jizera"], reg):
...     print(*award)
1 Vltava 60000 CZK
2 Labe 20000 CZK
3 Ohře 15000 CZK
4 Morava 5000 CZK
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Generic, NamedTuple, TypeVar, cast

from bridgeko.competition.messages import N_, Message, Param
from bridgeko.competition.rating import round_half_up
from bridgeko.competition.regulations import Regulations

__all__ = ["PLACES_DECIDED_BY_PLAY", "PrizeAward", "PrizeError", "prize_list"]

TeamT = TypeVar("TeamT", bound=Hashable)

PLACES_DECIDED_BY_PLAY = 4
"""R1.2, I7: the final decides places 1-2 and the 3rd-place match places 3-4, so these places
are never shared; places from 5th on are shared by the teams knocked out in the same round."""

_SHARED = (list, tuple, set, frozenset)
"""A standings value of one of these types is a shared place (several teams)."""


# Message templates of PrizeError (English; the web layer translates them, see
# competition/messages.py)
PLACE_NOT_WHOLE = N_("a place is a whole number from 1 up, not %(value)s")
PLACE_WITHOUT_TEAM = N_("place %(place)s has no team")
PLACE_TAKEN = N_("place %(place)s is already taken by the teams sharing places %(first)s-%(last)s")
PLACE_MISSING = N_("place %(place)s is missing")
PLACES_NOT_SHARED = N_(
    "places 1 to %(decided)s are decided by play (R1.2) and cannot be shared: %(count)s teams "
    "at place %(place)s"
)
TEAM_TWICE = N_("team %(team)s is listed twice")
PRIZE_PLACE_MISSING = N_("place %(place)s is missing: the prizes go to places 1 to %(last)s (R5.1)")


class PrizeError(ValueError):
    """Standings that cannot be the final standings of the knockout.

    :attr:`detail` is the message as a translatable :class:`Message` (``str(error)`` is its
    English text); the web layer shows it with ``bridgeko.core.i18n.tr(error.detail)``."""

    def __init__(self, message: str | Message) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


def _error(template: str, **params: Param) -> PrizeError:
    return PrizeError(Message(template, params))


class PrizeAward(NamedTuple, Generic[TeamT]):
    """One team's prize."""

    place: int
    """The place, or the first place of a shared place (5 for 5th-8th)."""
    team: TeamT
    amount: int
    currency: str


def _groups(
    standings: Mapping[int, TeamT | Sequence[TeamT] | frozenset[TeamT] | set[TeamT]]
    | Sequence[TeamT],
) -> list[tuple[int, tuple[TeamT, ...]]]:
    if not isinstance(standings, Mapping):
        return [(place, (team,)) for place, team in enumerate(standings, start=1)]
    groups: list[tuple[int, tuple[TeamT, ...]]] = []
    for place, value in standings.items():
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise _error(PLACE_NOT_WHOLE, value=repr(place))
        teams: tuple[TeamT, ...] = (
            tuple(cast("Iterable[TeamT]", value))
            if isinstance(value, _SHARED)
            else (cast("TeamT", value),)
        )
        if not teams:
            raise _error(PLACE_WITHOUT_TEAM, place=place)
        groups.append((place, teams))
    return sorted(groups, key=lambda g: g[0])


def prize_list(
    standings: Mapping[int, TeamT | Sequence[TeamT] | frozenset[TeamT] | set[TeamT]]
    | Sequence[TeamT],
    reg: Regulations,
) -> list[PrizeAward[TeamT]]:
    """The prizes of places 1 to ``len(reg.prizes)`` (R5.1), in order of place.

    ``standings``: either a sequence of teams, 1st place first, or a mapping place -> team,
    where a place shared by several teams (from 5th on, I7: e.g. the quarterfinal losers share
    5th-8th) maps its first place to a list, tuple or set of those teams. Teams sharing places
    share the prizes of those places equally, each share rounded half up. Raises
    :class:`PrizeError` when a place is missing, a team is listed twice or places 1 to 4 are
    shared. Where the edition pays prizes per player (``reg.format.prizes_per_player``, 2001)
    each amount is a player's.
    """
    prizes, currency = reg.prizes, reg.edition.currency
    awards: list[PrizeAward[TeamT]] = []
    seen: set[TeamT] = set()
    previous = expected = 1
    for place, teams in _groups(standings):
        if place != expected:
            if place < expected:
                raise _error(PLACE_TAKEN, place=place, first=previous, last=expected - 1)
            raise _error(PLACE_MISSING, place=expected)
        last = place + len(teams) - 1
        if len(teams) > 1 and place <= PLACES_DECIDED_BY_PLAY:  # R1.2, I7
            raise _error(
                PLACES_NOT_SHARED, decided=PLACES_DECIDED_BY_PLAY, count=len(teams), place=place
            )
        for team in teams:
            if team in seen:
                raise _error(TEAM_TWICE, team=str(team))
            seen.add(team)
        previous, expected = place, last + 1
        pool = sum(prizes[p - 1] for p in range(place, min(last, len(prizes)) + 1))  # R5.1
        if place <= len(prizes):
            share = round_half_up(Fraction(pool, len(teams)))
            awards.extend(PrizeAward(place, team, share, currency) for team in teams)
    if expected <= len(prizes):
        raise _error(PRIZE_PLACE_MISSING, place=expected, last=len(prizes))
    return awards
