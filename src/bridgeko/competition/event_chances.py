"""Each team's chance to win the event, and to reach each round (issue 22): the remaining scheme
played many times over, every match still to be played (or under way) decided by the match
model of :mod:`bridgeko.competition.chances` (the caller gives each match's chance: from the
Elo before it starts, from the live score and the boards left while it is played).

Deterministic given ``seed``; any format works (single knockout, double elimination, a plate,
placement matches), because each run is the bracket engine's own resolution
(:func:`bridgeko.competition.bracket.resolve`) of the results so far and the simulated ones:
byes (R11.4) and matches where both teams failed to appear (I16) behave as in the event.

>>> from bridgeko.competition.scheme import standard_scheme
>>> odds = event_chances(standard_scheme(4), {}, teams=4, chance=lambda _m, h, a: 0.5, runs=400)
>>> round(sum(odds.win.values()), 9), odds.runs
(1.0, 400)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from bridgeko.competition.bracket import Slot, SlotStatus, resolve
from bridgeko.competition.scheme import Loser, Number, Scheme, SlotRef, Winner, is_side_match

__all__ = ["EventChances", "MatchChance", "event_chances"]

MatchChance = Callable[[str, int, int], float]
"""``chance(match_id, home_number, away_number)``: the probability that the home team wins."""

RUNS = 4000
"""Runs of the remaining scheme: the standard error of a chance is at most 0.8 points."""


@dataclass(frozen=True, slots=True)
class EventChances:
    """What the runs found, by draw number."""

    runs: int
    win: Mapping[int, float]
    """Chance to win the event (1st place); the chances of the teams still in sum to 1."""
    places: Mapping[int, Mapping[int, float]]
    """Place -> number -> chance, for the scheme's explicit places (1-4: decided by play)."""
    reach: Mapping[int, Mapping[int, float]]
    """Round -> number -> chance to play (or go through without a match) in that round."""


def event_chances(
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
    state = resolve(scheme, results, teams=teams)
    known: dict[SlotRef, int | None] = {}
    decided_reach: Counter[tuple[int, int]] = Counter()
    walk: list[tuple[str, int, SlotRef | None, SlotRef | None]] = []
    for m in sorted(state.matches, key=lambda m: m.spec.round):
        if is_side_match(m.id):
            continue
        if m.decided:
            known[Winner(m.id)], known[Loser(m.id)] = m.winner.number, m.loser.number
            for slot in (m.home, m.away):
                if slot.number is not None:
                    decided_reach[(m.spec.round, slot.number)] += 1
        else:
            walk.append((m.id, m.spec.round, _fixed(m.home), _fixed(m.away)))
    place_of = {ref: place for place, ref in scheme.places}
    placed: dict[int, Counter[int]] = {p: Counter() for p, _ref in scheme.places}
    reached: dict[int, Counter[int]] = {}
    for _run in range(runs):
        outcome: dict[SlotRef, int | None] = {}
        for mid, rnd, home_ref, away_ref in walk:
            home, away = _team(home_ref, known, outcome), _team(away_ref, known, outcome)
            for number in (home, away):
                if number is not None:
                    reached.setdefault(rnd, Counter())[number] += 1
            winner: int | None
            loser: int | None
            if home is not None and away is not None:
                p = min(1.0, max(0.0, chance(mid, home, away)))
                winner, loser = (home, away) if rng.random() < p else (away, home)
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
    )


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
