"""Seating rights and line-ups of a segment (R12.2, R12.6, I5, I14).

In each segment one team places its players first; the other "sits down second" (*přisedá*):
it chooses its seats after seeing the first team's line-up, and must choose them so that no pair
meets the same opposing pair as in the previous segment (R12.6, I14).

A player is identified by a string (a licence number, a database id or a name): whatever the
caller uses consistently.

>>> home = LineUp(Pair.of("Ann", "Bob"), Pair.of("Cid", "Dan"))
>>> visitors = LineUp(Pair.of("Eva", "Fay"), Pair.of("Gus", "Hal"))
>>> [str(m) for m in segment_matchups(home, visitors)]
['open: Ann-Bob (NS) v Eva-Fay (EW)', 'closed: Cid-Dan (EW) v Gus-Hal (NS)']
>>> sits_second(1), sits_second(2)
(<Side.HOME: 'home'>, <Side.VISITORS: 'visitors'>)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from bridgeko.competition.match import SEGMENT_FROM_ONE, Room, Side, room_assignment
from bridgeko.competition.messages import N_, Message, Param

__all__ = [
    "LineUp",
    "Matchup",
    "NoValidSeatingError",
    "Pair",
    "SeatingError",
    "check_line_up",
    "check_line_ups",
    "check_segment",
    "segment_matchups",
    "sits_first",
    "sits_second",
    "valid_seatings",
]


# Message templates of SeatingError (English; the web layer translates them, see
# competition/messages.py). A team is named by ``Side.word`` ("home", "visitors").
SEGMENT_NOT_WHOLE = N_("a segment number must be a whole number, not %(value)s")
NOBODY = N_("nobody")
PAIR_NOT_TWO = N_("a pair is two different players, not %(players)s")
PLAYER_NOT_NAMED = N_("a player must be named, not %(value)s")
PAIR_SAME_TWICE = N_("a pair is two different players, not %(player)s twice")
BOTH_ROOMS = N_(
    "a player cannot play in both rooms: %(players)s (open %(open)s, closed %(closed)s)"
)
NOT_ON_ROSTER = N_("the %(side)s team's line-up names players not on its roster: %(players)s")
NO_PREVIOUS = N_("segment 1 has no previous segment")
BOTH_TEAMS = N_("players named by both teams: %(players)s")
REPEATED_MATCHUP = N_(
    "segment %(number)s: the %(side)s team sits second and must not seat the same pairs "
    "against each other as in segment %(previous)s: %(pairs)s (R12.6)"
)
TOO_FEW_PLAYERS = N_(
    "the %(side)s team needs at least 4 players to fill both rooms, its roster has %(count)s"
)
NO_LINE_UP = N_(
    "segment %(number)s: the %(side)s team has no line-up that avoids repeating a matchup "
    "of segment %(previous)s with its roster (%(players)s)"
)


class SeatingError(ValueError):
    """A line-up that breaks the rules. ``side`` names the team at fault, when known.

    :attr:`detail` is the message as a translatable :class:`Message` (``str(error)`` is its
    English text); the web layer shows it with ``bridgeko.core.i18n.tr(error.detail)``."""

    def __init__(self, message: str | Message, side: Side | None = None) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))
        self.side = side


class NoValidSeatingError(SeatingError):
    """The team sitting second has no line-up that avoids repeating a matchup."""


def _error(template: str, at_fault: Side | None = None, **params: Param) -> SeatingError:
    return SeatingError(Message(template, params), at_fault)


def _segment_number(segment_number: int) -> int:
    if isinstance(segment_number, bool) or not isinstance(segment_number, int):
        raise _error(SEGMENT_NOT_WHOLE, value=repr(segment_number))
    if segment_number < 1:
        raise _error(SEGMENT_FROM_ONE, number=segment_number)
    return segment_number


def sits_second(segment_number: int) -> Side:
    """The team that sits down second in ``segment_number``: the home team in segment 1, then
    alternately (R12.6); extra segments continue the alternation (I5)."""
    n = _segment_number(segment_number)
    return Side.HOME if n % 2 == 1 else Side.VISITORS  # R12.6, I5


def sits_first(segment_number: int) -> Side:
    """The team that places its players first in ``segment_number``."""
    return sits_second(segment_number).other


@dataclass(frozen=True, slots=True)
class Pair:
    """Two players of one team playing together; the order inside the pair does not matter."""

    players: frozenset[str]

    def __post_init__(self) -> None:
        if len(self.players) != 2:
            names = ", ".join(sorted(self.players))
            raise _error(PAIR_NOT_TWO, players=names or Message(NOBODY))
        for player in self.players:
            if not isinstance(player, str) or not player.strip():
                raise _error(PLAYER_NOT_NAMED, value=repr(player))

    @classmethod
    def of(cls, first: str, second: str) -> Pair:
        """The pair of ``first`` and ``second`` (same as ``Pair.of(second, first)``)."""
        if first == second:
            raise _error(PAIR_SAME_TWICE, player=first)
        return cls(frozenset((first, second)))

    @property
    def sorted_players(self) -> tuple[str, str]:
        a, b = sorted(self.players)
        return (a, b)

    def __str__(self) -> str:
        return "-".join(self.sorted_players)

    def __repr__(self) -> str:
        a, b = self.sorted_players
        return f"Pair.of({a!r}, {b!r})"


@dataclass(frozen=True, slots=True)
class LineUp:
    """A team's line-up for one segment: its pair in the open room and its pair in the closed
    room, four different players."""

    open_pair: Pair
    closed_pair: Pair

    def __post_init__(self) -> None:
        both = self.open_pair.players & self.closed_pair.players
        if both:
            raise _error(
                BOTH_ROOMS,
                players=", ".join(sorted(both)),
                open=str(self.open_pair),
                closed=str(self.closed_pair),
            )

    @property
    def players(self) -> frozenset[str]:
        return self.open_pair.players | self.closed_pair.players

    def pair_in(self, room: Room) -> Pair:
        return self.open_pair if room is Room.OPEN else self.closed_pair

    def __str__(self) -> str:
        return f"open {self.open_pair}, closed {self.closed_pair}"


@dataclass(frozen=True, slots=True)
class Matchup:
    """A home pair against a visiting pair at one table of a segment."""

    room: Room
    home_pair: Pair
    visitors_pair: Pair

    @property
    def ns_pair(self) -> Pair:
        """The pair sitting North-South: the home pair in the open room (R12.2)."""
        return self.pair_of(room_assignment(1).team_at(self.room, "NS"))

    @property
    def ew_pair(self) -> Pair:
        return self.pair_of(room_assignment(1).team_at(self.room, "EW"))

    def pair_of(self, side: Side) -> Pair:
        return self.home_pair if side is Side.HOME else self.visitors_pair

    def same_pairs(self, other: Matchup) -> bool:
        """True when the same two players play against the same two players (I14), in
        whichever room and direction."""
        return self.home_pair == other.home_pair and self.visitors_pair == other.visitors_pair

    def __str__(self) -> str:
        ra = room_assignment(1)
        home_line = ra.line_of(Side.HOME, self.room)
        visitors_line = ra.line_of(Side.VISITORS, self.room)
        return (
            f"{self.room.value}: {self.home_pair} ({home_line}) "
            f"v {self.visitors_pair} ({visitors_line})"
        )


def segment_matchups(home: LineUp, visitors: LineUp) -> tuple[Matchup, Matchup]:
    """The two tables of a segment: the home open pair against the visitors' open pair (home NS,
    R12.2) and the home closed pair against the visitors' closed pair (home EW)."""
    return (
        Matchup(Room.OPEN, home.open_pair, visitors.open_pair),
        Matchup(Room.CLOSED, home.closed_pair, visitors.closed_pair),
    )


def check_line_up(line_up: LineUp, roster: Iterable[str], side: Side) -> None:
    """Raise :class:`SeatingError` (naming ``side``) unless every player is on the roster."""
    on_roster = frozenset(roster)
    missing = sorted(line_up.players - on_roster)
    if missing:
        raise _error(NOT_ON_ROSTER, side, side=side.word, players=", ".join(missing))


def _repeats(
    matchups: Sequence[Matchup], previous: Sequence[Matchup]
) -> list[tuple[Matchup, Matchup]]:
    return [(now, before) for now in matchups for before in previous if now.same_pairs(before)]


def check_segment(
    segment_number: int,
    home: LineUp,
    visitors: LineUp,
    *,
    home_roster: Iterable[str],
    visitors_roster: Iterable[str],
    previous: Sequence[Matchup] = (),
) -> tuple[Matchup, Matchup]:
    """Validate the line-ups of a segment and return its matchups.

    ``previous`` are the matchups of segment ``segment_number - 1`` (empty for segment 1). Raises
    :class:`SeatingError` if a player is not on the team's roster, a player is in both teams, or
    a pair meets the same opposing pair as in the previous segment (R12.6, I14, I5); the latter
    names the team sitting second, whose duty it was to avoid it.
    """
    n = _segment_number(segment_number)
    if n == 1 and previous:
        raise _error(NO_PREVIOUS)
    check_line_up(home, home_roster, Side.HOME)
    check_line_up(visitors, visitors_roster, Side.VISITORS)
    both = sorted(home.players & visitors.players)
    if both:
        raise _error(BOTH_TEAMS, players=", ".join(both))
    matchups = segment_matchups(home, visitors)
    repeats = _repeats(matchups, previous)
    if repeats:
        second = sits_second(n)  # I14: the duty of the team sitting second
        described = "; ".join(f"{now.home_pair} v {now.visitors_pair}" for now, _ in repeats)
        raise _error(
            REPEATED_MATCHUP,
            second,
            number=n,
            side=second.word,
            previous=n - 1,
            pairs=described,
        )
    return matchups


def check_line_ups(
    line_ups: Sequence[tuple[LineUp, LineUp]],
    *,
    home_roster: Iterable[str],
    visitors_roster: Iterable[str],
) -> list[tuple[Matchup, Matchup]]:
    """Validate the (home, visitors) line-ups of segments 1, 2, ... of a match in order (extra
    segments included, I5) and return the matchups of each; see :func:`check_segment`."""
    home_players = frozenset(home_roster)
    visitors_players = frozenset(visitors_roster)
    result: list[tuple[Matchup, Matchup]] = []
    for number, (home, visitors) in enumerate(line_ups, 1):
        result.append(
            check_segment(
                number,
                home,
                visitors,
                home_roster=home_players,
                visitors_roster=visitors_players,
                previous=result[-1] if result else (),
            )
        )
    return result


def _all_line_ups(roster: Sequence[str]) -> list[LineUp]:
    players = sorted(set(roster))
    result: list[LineUp] = []
    for open_players in combinations(players, 2):
        rest = [p for p in players if p not in open_players]
        for closed_players in combinations(rest, 2):
            result.append(LineUp(Pair(frozenset(open_players)), Pair(frozenset(closed_players))))
    return result


def valid_seatings(
    first_line_up: LineUp,
    previous: Sequence[Matchup],
    roster: Iterable[str],
    *,
    segment_number: int,
) -> list[LineUp]:
    """Every line-up open to the team sitting second in ``segment_number`` (R12.6, I5, I14).

    ``first_line_up`` is the line-up of the team that sat first, ``previous`` the matchups of the
    previous segment (empty for segment 1) and ``roster`` the players of the team sitting second.
    The result covers every choice of two pairs from the roster assigned to the two rooms, minus
    those that would repeat a matchup of the previous segment, in a stable order. Raises
    :class:`NoValidSeatingError` if there is none.
    """
    n = _segment_number(segment_number)
    second = sits_second(n)
    players = sorted(set(roster))
    if len(players) < 4:
        raise NoValidSeatingError(
            Message(TOO_FEW_PLAYERS, {"side": second.word, "count": len(players)}), second
        )
    taken = sorted(first_line_up.players & set(players))
    if taken:
        raise _error(BOTH_TEAMS, second, players=", ".join(taken))
    result: list[LineUp] = []
    for candidate in _all_line_ups(players):
        home, visitors = (
            (candidate, first_line_up) if second is Side.HOME else (first_line_up, candidate)
        )
        if not _repeats(segment_matchups(home, visitors), previous):
            result.append(candidate)
    if not result:
        raise NoValidSeatingError(
            Message(
                NO_LINE_UP,
                {
                    "number": n,
                    "side": second.word,
                    "previous": n - 1,
                    "players": ", ".join(players),
                },
            ),
            second,
        )
    return result
