"""Formats of an edition as schemes (issue 22): the organiser picks a template — single
knockout (:func:`~bridgeko.competition.scheme.standard_scheme`), double elimination
(:func:`double_elimination`, the 2001 Bridge Open K.O.), with a plate for the first-round losers
(:func:`with_plate`) or placement matches for 5th-8th (:func:`with_placement`) — or loads a
scheme file; :func:`check_format` then checks what a knockout with prizes needs beyond a valid
scheme: a final ranking for every place that carries a prize, and no match whose winner goes
nowhere.

Every format is a plain :class:`~bridgeko.competition.scheme.Scheme` (slots that refer to draw
numbers, winners and losers), so the draw, byes (R11.4), the bracket state and the standings
work for it unchanged.

Double elimination, as built here (the 2001 regulations say only "double elimination up to and
including the semifinal"; the rest is the usual form, and an assumption):

* the *winners' bracket* is the standard seeded scheme (I1) down to its own final ``WF``;
* the *losers' bracket* takes the losers of the first round in pairs (``L1-M…``), then in turn
  meets the losers of each later winners' round (a *drop* round) and halves itself (a
  *reduce* round) until one team is left — its last match ``LF`` is against the loser of ``WF``;
  drop rounds take the losers in reverse order every other round, so that two teams that met in
  the winners' bracket do not meet again at once;
* the final ``F`` is the winner of ``WF`` (home) against the winner of ``LF``: a team is out
  after its second lost match, except in the final, which is one match — or, as the organiser
  chooses (template ``double-reset``), followed by a second final ``F2`` when the team from the
  losers' bracket wins it (the scheme's data: :attr:`~bridgeko.competition.scheme.MatchSpec.
  reset_of`), so that the winners'-bracket team too is out only after two lost matches.

A team's stage follows the number of teams left in the winners' round it belongs to (8: the
quarterfinal, 4 and 2: the semifinal), so boards, screens (R12.7) and seating follow the
regulations' stages; losers' rounds take the stage of the winners' round whose losers they
receive.
"""

from __future__ import annotations

from enum import StrEnum

from bridgeko.competition.messages import N_, Message
from bridgeko.competition.prizes import PLACES_DECIDED_BY_PLAY
from bridgeko.competition.regulations import TEMPLATES
from bridgeko.competition.scheme import (
    SIDE_PREFIX,
    Loser,
    MatchSpec,
    Number,
    Scheme,
    SchemeError,
    SlotRef,
    Winner,
    check_size,
    first_round,
    is_side_match,
    standard_scheme,
)
from bridgeko.competition.stage import Stage

__all__ = [
    "FORMATS",
    "Section",
    "build",
    "check_format",
    "double_elimination",
    "sections",
    "with_placement",
    "with_plate",
]

FORMATS = TEMPLATES
"""The templates an organiser chooses from (``[format] template`` of the regulations)."""

PLATE_TOO_SMALL = N_("a plate needs a scheme of at least 8 teams, not %(size)s")
NO_QUARTERFINALS = N_("placement matches for 5th-8th need quarterfinals (%(size)s teams)")
PLACE_MISSING = N_(
    "place %(place)s carries a prize but the scheme does not rank it (add it to 'places')"
)
WINNER_GOES_NOWHERE = N_(
    "match %(match)s: its winner goes nowhere (no later match and no place takes it)"
)
UNKNOWN_FORMAT = N_("unknown format %(format)s (one of %(allowed)s)")


def _error(template: str, **params: str | int) -> SchemeError:
    return SchemeError(Message(template, params))


def _winners_stage(teams: int) -> Stage:
    """The stage of a winners'-bracket round of ``teams`` teams."""
    if teams == 8:
        return Stage.QUARTERFINAL
    if teams in (4, 2):
        return Stage.SEMIFINAL
    return Stage.PRELIMINARY


def _winners_ids(round_no: int, teams: int, count: int) -> list[str]:
    if teams == 2:
        return ["WF"]
    if teams == 4:
        return [f"SF{j}" for j in range(1, count + 1)]
    if teams == 8:
        return [f"QF{j}" for j in range(1, count + 1)]
    return [f"R{round_no}-M{j}" for j in range(1, count + 1)]


def double_elimination(size: int, *, reset: bool = False) -> Scheme:
    """The double-elimination scheme for ``size`` = 2^k numbers (k >= 2): see the module's
    description. ``size`` - 2 losers' matches, ``size`` - 1 winners' matches and the final;
    ``reset``: a second final ``F2`` (:attr:`~.scheme.MatchSpec.reset_of`), played only if the
    winners'-bracket team loses ``F`` — so that every team is out after two lost matches, the
    final included; it then ranks 1st and 2nd.

    >>> s = double_elimination(8)
    >>> [m.id for m in s.matches if m.id.startswith("L")]
    ['L1-M1', 'L1-M2', 'L2-M1', 'L2-M2', 'L3-M1', 'LF']
    >>> [(m.id, m.round) for m in s.matches if m.id in ("WF", "LF", "F")]
    [('WF', 3), ('LF', 5), ('F', 6)]
    >>> s.places[2:]
    ((3, Loser(match='LF')), (4, Loser(match='L3-M1')))
    """
    check_size(size)
    rounds_of: dict[str, int] = {}
    stage_of: dict[str, Stage] = {}
    matches: list[MatchSpec] = []

    def add(mid: str, stage: Stage, home: SlotRef, away: SlotRef) -> None:
        # a match's round: one after the later of the rounds that feed it (nobody plays twice
        # in a round; every reference points to an earlier round)
        before = [rounds_of[r.match] for r in (home, away) if not isinstance(r, Number)]
        rounds_of[mid], stage_of[mid] = 1 + max(before, default=0), stage
        matches.append(MatchSpec(mid, rounds_of[mid], stage, home, away))

    # The winners' bracket: the standard seeded scheme (I1) down to its final.
    teams = size
    winners_rounds: list[list[str]] = []
    stage = _winners_stage(teams)
    ids = _winners_ids(1, teams, teams // 2)
    for mid, (a, b) in zip(ids, first_round(size), strict=True):
        add(mid, stage, Number(a), Number(b))
    winners_rounds.append(ids)
    while teams > 2:
        teams //= 2
        prev = winners_rounds[-1]
        stage = _winners_stage(teams)
        ids = _winners_ids(len(winners_rounds) + 1, teams, teams // 2)
        for j, mid in enumerate(ids):
            add(mid, stage, Winner(prev[2 * j]), Winner(prev[2 * j + 1]))  # I2
        winners_rounds.append(ids)

    # The losers' bracket.
    first = winners_rounds[0]
    stage = _winners_stage(size)
    survivors: list[str] = []
    for j in range(len(first) // 2):
        mid = f"L1-M{j + 1}"
        add(mid, stage, Loser(first[2 * j]), Loser(first[2 * j + 1]))
        survivors.append(mid)
    number, fourth = 1, ""
    for w, dropped in enumerate(winners_rounds[1:], start=1):
        stage = stage_of[dropped[0]]
        # a drop round: each survivor meets a loser of this winners' round (reversed every
        # other round: the halves cross)
        order = dropped if w % 2 == 0 else list(reversed(dropped))
        number += 1
        last = len(survivors) == 1
        ids = ["LF"] if last else [f"L{number}-M{j + 1}" for j in range(len(survivors))]
        if last:
            fourth = survivors[0]  # its loser is 4th
        for mid, survivor, loser in zip(ids, survivors, order, strict=True):
            add(mid, stage, Winner(survivor), Loser(loser))
        survivors = ids
        if len(survivors) > 1 and w < len(winners_rounds) - 1:
            # a reduce round: the survivors in pairs
            number += 1
            ids = [f"L{number}-M{j + 1}" for j in range(len(survivors) // 2)]
            for j, mid in enumerate(ids):
                add(mid, stage, Winner(survivors[2 * j]), Winner(survivors[2 * j + 1]))
            survivors = ids
    add("F", Stage.FINAL, Winner("WF"), Winner(survivors[0]))
    final = "F"
    if reset:
        final = "F2"
        rounds_of[final] = rounds_of["F"] + 1
        matches.append(
            MatchSpec(final, rounds_of[final], Stage.FINAL, Loser("F"), Winner("F"), "F")
        )
    places: tuple[tuple[int, SlotRef], ...] = (
        (1, Winner(final)),
        (2, Loser(final)),
        (3, Loser(survivors[0])),
        (4, Loser(fourth)),
    )
    ordered = tuple(sorted(matches, key=lambda m: m.round))  # round by round, stable
    name = f"double elimination for {size} teams" + (", a second final if needed" if reset else "")
    return Scheme(size, ordered, places, name=name)


def with_plate(scheme: Scheme) -> Scheme:
    """``scheme`` with a plate: the losers of its first round play a knockout of their own
    (``P…`` matches, the first-round order kept; no places of the event)."""
    first = [m for m in scheme.matches if m.round == 1]
    if len(first) < 4:
        raise _error(PLATE_TOO_SMALL, size=scheme.size)
    matches = list(scheme.matches)
    taken = {r for m in matches for r in m.slots}
    losers = [m.id for m in first if Loser(m.id) not in taken]
    plate = standard_scheme(len(losers))
    renamed = {
        m.id: f"{SIDE_PREFIX}{m.id}" for m in plate.matches if m.stage is not Stage.THIRD_PLACE
    }
    for m in plate.matches:
        if m.id not in renamed:
            continue
        slots: list[SlotRef] = []
        for ref in m.slots:
            if isinstance(ref, Number):
                slots.append(Loser(losers[ref.number - 1]))
            elif isinstance(ref, Winner):
                slots.append(Winner(renamed[ref.match]))
            else:
                slots.append(Loser(renamed[ref.match]))
        rnd = m.round + 1
        matches.append(MatchSpec(renamed[m.id], rnd, Stage.PRELIMINARY, slots[0], slots[1]))
    return Scheme(scheme.size, tuple(matches), scheme.places, name=f"{scheme.name}, with a plate")


def with_placement(scheme: Scheme) -> Scheme:
    """``scheme`` with placement matches for 5th-8th among the quarterfinal losers: ``P5-SF1``
    and ``P5-SF2``, then ``P5`` (5th/6th) and ``P7`` (7th/8th)."""
    quarters = [m.id for m in scheme.matches if m.stage is Stage.QUARTERFINAL]
    taken = {r for m in scheme.matches for r in m.slots}
    losers = [q for q in quarters if Loser(q) not in taken]
    if len(losers) != 4:
        raise _error(NO_QUARTERFINALS, size=scheme.size)
    after = max(m.round for m in scheme.matches if m.stage is Stage.QUARTERFINAL) + 1
    extra = (
        MatchSpec("P5-SF1", after, Stage.PRELIMINARY, Loser(losers[0]), Loser(losers[1])),
        MatchSpec("P5-SF2", after, Stage.PRELIMINARY, Loser(losers[2]), Loser(losers[3])),
        MatchSpec("P5", after + 1, Stage.PRELIMINARY, Winner("P5-SF1"), Winner("P5-SF2")),
        MatchSpec("P7", after + 1, Stage.PRELIMINARY, Loser("P5-SF1"), Loser("P5-SF2")),
    )
    places = (
        *scheme.places,
        (5, Winner("P5")),
        (6, Loser("P5")),
        (7, Winner("P7")),
        (8, Loser("P7")),
    )
    return Scheme(
        scheme.size,
        scheme.matches + extra,
        tuple(sorted(places, key=lambda p: p[0])),
        name=f"{scheme.name}, with placement matches",
    )


def build(template: str, size: int) -> Scheme:
    """The scheme of a template of :data:`FORMATS` for ``size`` numbers."""
    if template == "single":
        return standard_scheme(size)
    if template == "double":
        return double_elimination(size)
    if template == "double-reset":
        return double_elimination(size, reset=True)
    if template == "single-plate":
        return with_plate(standard_scheme(size))
    if template == "single-placement":
        return with_placement(standard_scheme(size))
    raise _error(UNKNOWN_FORMAT, format=repr(template), allowed=", ".join(FORMATS))


def check_format(scheme: Scheme, prize_places: int) -> None:
    """What a knockout with ``prize_places`` prizes needs beyond a valid scheme (a
    :class:`SchemeError` naming the place or the match): the prize places among 1-4 ranked by
    the scheme's own places (decided by play, R1.2), and every match's winner going on to a
    match or a place (a plate's final is the end of the plate)."""
    ranked = {place for place, _ref in scheme.places}
    # R1.2, I7: places 1-4 are decided by play (the final, the 3rd-place match), never shared;
    # a prize from 5th on goes to the teams sharing the place (out in the same round)
    for place in range(1, min(prize_places, PLACES_DECIDED_BY_PLAY) + 1):
        if place not in ranked:
            raise _error(PLACE_MISSING, place=place)
    going_on = {r for m in scheme.matches for r in m.slots} | {r for _p, r in scheme.places}
    for m in scheme.matches:
        # a plate's final: its winner wins the plate, not a place of the event
        if Winner(m.id) not in going_on and not is_side_match(m.id):
            raise _error(WINNER_GOES_NOWHERE, match=m.id)


class Section(StrEnum):
    """The part of a scheme a match is drawn in (:func:`sections`)."""

    MAIN = "main"
    """The knockout itself; in double elimination the winners' bracket and the final."""
    LOSERS = "losers"
    """Double elimination: the once-beaten teams, whose winner still reaches the final."""
    PLATE = "plate"
    """A side competition of the first-round losers (:data:`SIDE_PREFIX`)."""
    PLACEMENT = "placement"
    """Matches among beaten teams that rank places, not the final (5th-8th)."""


def sections(scheme: Scheme) -> dict[str, Section]:
    """Each match's section, from the scheme's references alone (a scheme file drawn like a
    template): a match is in the main section if its teams have lost nothing yet or it is the
    final or the 3rd-place match; a match of once-beaten teams whose winner can still reach the
    final is in the losers' bracket; one whose winner cannot is a placement match; a side match
    is in the plate.

    >>> s = sections(double_elimination(4))
    >>> [(m, s[m].value) for m in ("SF1", "WF", "L1-M1", "LF", "F")]
    [('SF1', 'main'), ('WF', 'main'), ('L1-M1', 'losers'), ('LF', 'losers'), ('F', 'main')]
    """
    ordered = sorted(scheme.matches, key=lambda m: m.round)  # a reference: an earlier round
    losses: dict[str, int] = {}
    for m in ordered:
        losses[m.id] = max(
            0
            if isinstance(ref, Number)
            else losses[ref.match] + (1 if isinstance(ref, Loser) else 0)
            for ref in m.slots
        )
    reaches_final: set[str] = set()
    for m in reversed(ordered):
        if m.stage is Stage.FINAL:
            reaches_final.add(m.id)
        for ref in m.slots:
            if isinstance(ref, Winner) and m.id in reaches_final:
                reaches_final.add(ref.match)
    result: dict[str, Section] = {}
    for m in scheme.matches:
        if is_side_match(m.id):
            result[m.id] = Section.PLATE
        elif losses[m.id] == 0 or m.stage in (Stage.FINAL, Stage.THIRD_PLACE):
            result[m.id] = Section.MAIN
        elif m.id in reaches_final:
            result[m.id] = Section.LOSERS
        else:
            result[m.id] = Section.PLACEMENT
    return result
