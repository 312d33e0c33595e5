"""Each team's chance to win the event, and to reach each round (issue 22): the remaining scheme
played many times over, every match still to be played (or under way) decided by the match
model of :mod:`bridgeko.competition.chances` (the caller gives each match's chance: from the
Elo before it starts, from the live score and the boards left while it is played).

Deterministic given ``seed``; any format works (single knockout, double elimination, a plate,
placement matches), because each run is the bracket engine's own resolution
(:func:`bridgeko.competition.bracket.resolve`) of the results so far and the simulated ones:
byes (R11.4) and matches where both teams failed to appear (I16) behave as in the event.

>>> from bridgeko.competition.scheme import standard_scheme
>>> from bridgeko.competition.formats import double_elimination
>>> even = lambda _m, h, a: 0.5
>>> odds = event_chances(standard_scheme(4), {}, teams=4, chance=even)
>>> round(sum(odds.win.values()), 9), odds.runs  # a knockout: exact
(1.0, 0)
>>> odds = event_chances(double_elimination(4), {}, teams=4, chance=even, runs=400)
>>> round(sum(odds.win.values()), 9), odds.runs  # double elimination: 400 runs
(1.0, 400)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from bridgeko.competition.bracket import Slot, SlotStatus, resolve
from bridgeko.competition.scheme import Loser, Number, Scheme, SlotRef, Winner, is_side_match

__all__ = ["EventChances", "MatchChance", "event_chances", "exact_chances", "simulated_chances"]

MatchChance = Callable[[str, int, int], float]
"""``chance(match_id, home_number, away_number)``: the probability that the home team wins."""

RUNS = 4000
"""Runs of the remaining scheme: the standard error of a chance is at most 0.8 points."""


@dataclass(frozen=True, slots=True)
class EventChances:
    """What the runs found, by draw number."""

    runs: int
    """Runs of the simulation; 0 where the chances were computed exactly."""
    win: Mapping[int, float]
    """Chance to win the event (1st place); the chances of the teams still in sum to 1."""
    places: Mapping[int, Mapping[int, float]]
    """Place -> number -> chance, for the scheme's explicit places (1-4: decided by play)."""
    reach: Mapping[int, Mapping[int, float]]
    """Round -> number -> chance to play (or go through without a match) in that round."""
    matches: Mapping[str, Mapping[int, float]] = field(default_factory=dict)
    """Match id -> number -> chance to play in (or go through) that match: the chance to reach
    the winners' final, the losers' final or the final itself."""


def event_chances(
    scheme: Scheme,
    results: Mapping[str, int | None],
    *,
    teams: int | Collection[int],
    chance: MatchChance,
    runs: int = RUNS,
    seed: int = 0,
) -> EventChances:
    """The chances computed exactly where the matches still to play depend on no common match
    (:func:`exact_chances`: any single knockout, a 3rd-place match and placement matches
    included, and double elimination once its brackets have met), else simulated
    (:func:`simulated_chances`)."""
    exact = exact_chances(scheme, results, teams=teams, chance=chance)
    if exact is not None:
        return exact
    return simulated_chances(scheme, results, teams=teams, chance=chance, runs=runs, seed=seed)


Dist = dict[int | None, float]
"""Who fills a slot: draw number (None: nobody, R11.4) -> probability."""


def exact_chances(
    scheme: Scheme,
    results: Mapping[str, int | None],
    *,
    teams: int | Collection[int],
    chance: MatchChance,
) -> EventChances | None:
    """The chances computed exactly, slot by slot, when the two slots of every match still to
    play come from disjoint sets of matches still to play (then who fills one says nothing of
    the other, and each match's winner and loser follow from the two slots' chances); None when
    the scheme is not like that (double elimination before its brackets meet: the loser of a
    winners' match also fills a losers' slot). A plate's matches are left out: they rank nobody.

    >>> from bridgeko.competition.scheme import standard_scheme
    >>> odds = exact_chances(standard_scheme(4), {}, teams=4, chance=lambda _m, h, a: 0.5)
    >>> odds.win, odds.runs
    ({1: 0.25, 2: 0.25, 3: 0.25, 4: 0.25}, 0)
    """
    split = _split(scheme, results, teams)
    known, open_matches = split.known, split.open
    # the matches still to play each slot depends on: disjoint for the two slots of a match
    depends: dict[str, frozenset[str]] = {}

    def below(ref: SlotRef | None) -> frozenset[str]:
        if ref is None or isinstance(ref, Number) or ref in known:
            return frozenset()
        return depends[ref.match]

    for mid, _rnd, home_ref, away_ref, _reset in open_matches:
        home_below, away_below = below(home_ref), below(away_ref)
        if home_below & away_below:
            return None
        depends[mid] = home_below | away_below | {mid}
    dist: dict[SlotRef, Dist] = {}

    def dist_of(ref: SlotRef | None) -> Dist:
        if ref is None:
            return {None: 1.0}
        if isinstance(ref, Number):
            return {ref.number: 1.0}
        if ref in known:
            return {known[ref]: 1.0}
        return dist[ref]

    reach: dict[int, dict[int, float]] = {}
    played: dict[str, dict[int, float]] = {}
    for rnd, mid, team in split.played:  # certain: a decided match
        reach.setdefault(rnd, {})[team] = reach.get(rnd, {}).get(team, 0.0) + 1.0
        played.setdefault(mid, {})[team] = 1.0
    for mid, rnd, home_ref, away_ref, _reset in open_matches:
        home, away = dist_of(home_ref), dist_of(away_ref)
        won: Dist = {}
        lost: Dist = {}
        in_round = reach.setdefault(rnd, {})
        in_match = played.setdefault(mid, {})
        for side in (home, away):
            for number, p in side.items():
                if number is not None:
                    in_round[number] = in_round.get(number, 0.0) + p
                    in_match[number] = in_match.get(number, 0.0) + p
        for h, ph in home.items():
            for a, pa in away.items():
                q = ph * pa
                if q == 0.0:
                    continue
                if h is not None and a is not None:
                    p = min(1.0, max(0.0, chance(mid, h, a)))
                    _add(won, h, q * p)
                    _add(won, a, q * (1.0 - p))
                    _add(lost, a, q * p)
                    _add(lost, h, q * (1.0 - p))
                else:  # R11.4: the team without an opponent goes on; nobody, if neither came
                    _add(won, h if h is not None else a, q)
                    _add(lost, None, q)
        dist[Winner(mid)], dist[Loser(mid)] = won, lost
    places = {
        place: {
            n: p for n, p in sorted(dist_of(ref).items(), key=_by_number) if n is not None and p
        }
        for place, ref in scheme.places
    }
    return EventChances(
        runs=0,
        win=places.get(1, {}),
        places=places,
        reach={r: {n: p for n, p in sorted(cnt.items()) if p} for r, cnt in sorted(reach.items())},
        matches={mid: {n: p for n, p in sorted(cnt.items()) if p} for mid, cnt in played.items()},
    )


def _add(dist: Dist, number: int | None, p: float) -> None:
    dist[number] = dist.get(number, 0.0) + p


def _by_number(item: tuple[int | None, float]) -> int:
    return -1 if item[0] is None else item[0]


def simulated_chances(
    scheme: Scheme,
    results: Mapping[str, int | None],
    *,
    teams: int | Collection[int],
    chance: MatchChance,
    runs: int = RUNS,
    seed: int = 0,
) -> EventChances:
    """Plays the rest of ``scheme`` ``runs`` times from ``results`` (match id -> winner's draw
    number, as :func:`~bridgeko.competition.bracket.resolve` takes them); each match still to
    play is won by its home team with probability ``chance(match_id, home, away)``. A plate's
    matches (side competition) are not played: they rank nobody.

    The bracket is resolved once with the results so far; each run then walks the matches not
    decided in round order, as :func:`~bridgeko.competition.bracket.resolve` would with the
    run's winners added (a team without an opponent goes on without a match, R11.4; a match
    without teams has no winner): ``tests/competition/test_event_chances.py`` checks that the
    walk and the engine agree."""
    rng = random.Random(seed)
    memo: dict[tuple[str, int, int], float] = {}
    split = _split(scheme, results, teams)
    known, walk = split.known, split.open
    decided_reach: Counter[tuple[int, int]] = Counter()
    in_match: dict[str, Counter[int]] = {}
    for rnd, mid, team in split.played:
        decided_reach[(rnd, team)] += 1
        in_match.setdefault(mid, Counter())[team] += runs
    place_of = {ref: place for place, ref in scheme.places}
    placed: dict[int, Counter[int]] = {p: Counter() for p, _ref in scheme.places}
    reached: dict[int, Counter[int]] = {}
    for _run in range(runs):
        outcome: dict[SlotRef, int | None] = {}
        home_won: dict[str, bool] = {}
        for mid, rnd, home_ref, away_ref, reset in walk:
            home, away = _team(home_ref, known, outcome), _team(away_ref, known, outcome)
            if reset is not None and home_won.get(reset) and home is not None:
                # the unbeaten team won the final: no second final (not played, not reached)
                outcome[Winner(mid)], outcome[Loser(mid)] = away, home
                continue
            for number in (home, away):
                if number is not None:
                    reached.setdefault(rnd, Counter())[number] += 1
                    in_match.setdefault(mid, Counter())[number] += 1
            winner: int | None
            loser: int | None
            if home is not None and away is not None:
                key = (mid, home, away)
                p = memo.get(key, -1.0)
                if p < 0.0:
                    p = memo[key] = min(1.0, max(0.0, chance(mid, home, away)))
                winner, loser = (home, away) if rng.random() < p else (away, home)
                home_won[mid] = winner == home
            else:  # R11.4: the team without an opponent goes on; nobody, if neither came
                winner, loser = (home if home is not None else away), None
            outcome[Winner(mid)], outcome[Loser(mid)] = winner, loser
        for ref, place in place_of.items():
            number = _team(ref, known, outcome)
            if number is not None:
                placed[place][number] += 1
    for (rnd, number), count in decided_reach.items():
        reached.setdefault(rnd, Counter())[number] += count * runs
    return EventChances(
        runs=runs,
        win={n: c / runs for n, c in sorted(placed.get(1, Counter()).items())},
        places={p: {n: c / runs for n, c in sorted(cnt.items())} for p, cnt in placed.items()},
        reach={
            r: {n: c / runs for n, c in sorted(cnt.items())} for r, cnt in sorted(reached.items())
        },
        matches={
            mid: {n: c / runs for n, c in sorted(cnt.items())} for mid, cnt in in_match.items()
        },
    )


OpenMatch = tuple[str, int, SlotRef | None, SlotRef | None, str | None]
"""A match still to play: its id, round, home and away slots (:func:`_fixed`) and the final
it replays (a second final, :attr:`~.scheme.MatchSpec.reset_of`)."""


@dataclass(frozen=True, slots=True)
class _Split:
    """The bracket resolved with the results so far, as both computations start from it."""

    known: dict[SlotRef, int | None]
    """The winner and loser of each decided match."""
    played: list[tuple[int, str, int]]
    """(round, match id, draw number) of each team in a decided match."""
    open: list[OpenMatch]
    """The matches still to play, in round order (a plate's left out: it ranks nobody)."""


def _split(
    scheme: Scheme, results: Mapping[str, int | None], teams: int | Collection[int]
) -> _Split:
    state = resolve(scheme, results, teams=teams)
    split = _Split({}, [], [])
    for m in sorted(state.matches, key=lambda m: m.spec.round):
        if is_side_match(m.id):
            continue
        if m.decided:
            split.known[Winner(m.id)], split.known[Loser(m.id)] = m.winner.number, m.loser.number
            for slot in (m.home, m.away):
                if slot.number is not None:
                    split.played.append((m.spec.round, m.id, slot.number))
        else:
            split.open.append((m.id, m.spec.round, _fixed(m.home), _fixed(m.away), m.spec.reset_of))
    return split


def _fixed(slot: Slot) -> SlotRef | None:
    """A slot of a match not decided: its team (a :class:`Number`) when known, None when
    nobody will come (a missing number, R11.4), else the match it comes from."""
    if slot.number is not None:
        return Number(slot.number)
    if slot.status is SlotStatus.EMPTY:
        return None
    return slot.ref


def _team(
    ref: SlotRef | None, known: Mapping[SlotRef, int | None], run: Mapping[SlotRef, int | None]
) -> int | None:
    if ref is None:
        return None
    if isinstance(ref, Number):
        return ref.number
    return known[ref] if ref in known else run.get(ref)
