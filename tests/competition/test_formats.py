"""Formats as schemes (issue 22): double elimination (the 2001 Bridge Open K.O.), a plate for the
first-round losers, placement matches for 5th-8th, and the checks a format with prizes needs.
Each format is played through with the bracket engine on random results (seeded)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bridgeko.competition import formats
from bridgeko.competition.bracket import BracketError, BracketState, MatchStatus, resolve
from bridgeko.competition.scheme import (
    Loser,
    MatchSpec,
    Number,
    Scheme,
    SchemeError,
    Winner,
    scheme_from_dict,
    scheme_to_dict,
    standard_scheme,
)
from bridgeko.competition.stage import Stage


def play_through(scheme: Scheme, seed: int, teams: int | None = None) -> BracketState:
    """Every match played, each winner drawn at random, until nothing is left to play."""
    rng = random.Random(seed)
    results: dict[str, int | None] = {}
    while True:
        state = resolve(scheme, results, teams=teams or scheme.size)
        to_play = [m for m in state.matches if m.status is MatchStatus.TO_PLAY]
        if not to_play:
            return state
        for m in to_play:
            home, away = m.home.number, m.away.number
            assert home is not None and away is not None
            results[m.id] = rng.choice((home, away))


def losses(state: BracketState) -> Counter[int]:
    return Counter(
        m.loser.number
        for m in state.matches
        if m.status is MatchStatus.PLAYED and m.loser.number is not None
    )


@pytest.mark.parametrize("size", [4, 8, 16, 32, 64])
def test_double_elimination_is_a_valid_scheme_of_2n_minus_2_matches(size: int) -> None:
    scheme = formats.double_elimination(size)
    assert len(scheme.matches) == 2 * size - 2  # size-1 winners', size-2 losers', the final
    assert scheme_from_dict(scheme_to_dict(scheme)) == scheme  # validated again from data
    assert [m.id for m in scheme.matches if m.stage is Stage.FINAL] == ["F"]
    assert scheme.match("F").slots == (Winner("WF"), Winner("LF"))


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("size", [8, 16, 32])
def test_double_elimination_a_team_is_out_after_its_second_lost_match(size: int, seed: int) -> None:
    state = play_through(formats.double_elimination(size), seed)
    lost = losses(state)
    places = {p.first: p.numbers for p in state.standings() if p.first == p.last}
    champion, runner_up = places[1][0], places[2][0]
    assert lost[champion] <= 1  # lost at most once (in the winners' bracket, not the final)
    assert lost[runner_up] in (1, 2)  # the final is one match
    for number in range(1, size + 1):
        if number not in (champion, runner_up):
            assert lost[number] == 2, number
    third = places[3][0]
    assert len({champion, runner_up, third, places[4][0]}) == 4


def test_double_elimination_every_team_plays_in_the_losers_bracket_once_beaten() -> None:
    scheme = formats.double_elimination(16)
    losers_slots = [r for m in scheme.matches for r in m.slots if isinstance(r, Loser)]
    winners_matches = [m.id for m in scheme.matches if not m.id.startswith(("L", "F"))]
    # every winners'-bracket loser is placed once in the losers' bracket
    assert sorted(r.match for r in losers_slots) == sorted(winners_matches)
    assert {m.stage for m in scheme.matches if m.id in ("QF1", "SF1", "WF")} == {
        Stage.QUARTERFINAL,
        Stage.SEMIFINAL,
    }


def test_double_elimination_drop_rounds_cross_the_halves() -> None:
    # the losers of SF1 and SF2 meet the survivors of the other half, not their own
    scheme = formats.double_elimination(8)
    assert scheme.match("L2-M1").slots == (Winner("L1-M1"), Loser("SF2"))
    assert scheme.match("L2-M2").slots == (Winner("L1-M2"), Loser("SF1"))


def test_R11_4_double_elimination_with_byes_plays_through() -> None:
    # 13 teams in a scheme for 16: three byes in the first round (R11.4)
    state = play_through(formats.double_elimination(16), seed=7, teams=13)
    assert not [m for m in state.matches if m.status is MatchStatus.TO_PLAY]
    standings = state.standings()
    ranked = [n for p in standings for n in p.numbers]
    assert len(set(ranked)) == len(ranked) and set(ranked) <= set(range(1, 14))
    assert [p.first for p in standings[:4]] == [1, 2, 3, 4]


def test_placement_matches_rank_5th_to_8th() -> None:
    scheme = formats.with_placement(standard_scheme(16))
    formats.check_format(scheme, prize_places=8)
    state = play_through(scheme, seed=3)
    places = {p.first: p.numbers for p in state.standings() if p.first == p.last}
    assert set(places) >= set(range(1, 9))
    quarter_losers = {m.loser.number for m in state.matches if m.spec.stage is Stage.QUARTERFINAL}
    assert {places[k][0] for k in range(5, 9)} == quarter_losers


def test_a_plate_for_the_first_round_losers() -> None:
    scheme = formats.with_plate(standard_scheme(16))
    formats.check_format(scheme, prize_places=4)
    plate = [m for m in scheme.matches if m.id.startswith("P-")]
    assert len(plate) == 7  # 8 first-round losers: a knockout of 7 matches
    first_round = {m.id for m in scheme.matches if m.round == 1}
    assert {r.match for m in plate for r in m.slots if isinstance(r, Loser)} == first_round
    state = play_through(scheme, seed=5)
    assert not [m for m in state.matches if m.status is MatchStatus.TO_PLAY]


def test_build_names_an_unknown_format() -> None:
    assert formats.build("double", 8) == formats.double_elimination(8)
    with pytest.raises(SchemeError, match="unknown format 'swiss'"):
        formats.build("swiss", 8)


def test_R1_2_a_prize_place_the_scheme_does_not_rank_is_named() -> None:
    # places 1-4 are decided by play; from 5th on a prize is shared by the teams out together
    formats.check_format(standard_scheme(16), prize_places=8)
    no_third = Scheme(
        4,
        (
            MatchSpec("SF1", 1, Stage.SEMIFINAL, Number(1), Number(4)),
            MatchSpec("SF2", 1, Stage.SEMIFINAL, Number(2), Number(3)),
            MatchSpec("F", 2, Stage.FINAL, Winner("SF1"), Winner("SF2")),
        ),
        ((1, Winner("F")), (2, Loser("F"))),
    )
    formats.check_format(no_third, prize_places=2)
    with pytest.raises(SchemeError, match="place 3 carries a prize"):
        formats.check_format(no_third, prize_places=3)


def test_a_match_whose_winner_goes_nowhere_is_named() -> None:
    scheme = Scheme(
        4,
        (
            MatchSpec("A", 1, Stage.SEMIFINAL, Number(1), Number(4)),
            MatchSpec("B", 1, Stage.SEMIFINAL, Number(2), Number(3)),
            MatchSpec("F", 2, Stage.FINAL, Winner("A"), Loser("B")),
        ),
        ((1, Winner("F")), (2, Loser("F"))),
    )
    with pytest.raises(SchemeError, match="match B: its winner goes nowhere"):
        formats.check_format(scheme, prize_places=2)


@pytest.mark.parametrize(
    ("size", "build", "problem"),
    [
        (2, formats.double_elimination, "power of two, at least 4"),
        (4, lambda n: formats.with_plate(standard_scheme(n)), "at least 8 teams"),
        (4, lambda n: formats.with_placement(standard_scheme(n)), "need quarterfinals"),
    ],
)
def test_a_format_too_small_for_its_scheme_is_named(size: int, build, problem: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BracketError, match=problem):
        build(size)


def test_I7_a_plate_does_not_rank_the_event() -> None:
    # the first-round losers share 9th-16th whatever they do in the plate; the prize list does
    # not wait for the plate
    scheme = formats.with_plate(standard_scheme(16))
    rng = random.Random(11)
    results: dict[str, int | None] = {}
    while True:
        state = resolve(scheme, results, teams=16)
        to_play = [
            m
            for m in state.matches
            if m.status is MatchStatus.TO_PLAY and not m.id.startswith("P-")
        ]
        if not to_play:
            break
        for m in to_play:
            assert m.home.number is not None and m.away.number is not None
            results[m.id] = rng.choice((m.home.number, m.away.number))
    assert state.finished  # the plate is still to play
    assert [m for m in state.matches if m.id.startswith("P-") and not m.decided]
    standings = state.standings()
    first_round_losers = {m.loser.number for m in state.matches if m.spec.round == 1}
    (last,) = [p for p in standings if p.first == 9]
    assert (last.last, set(last.numbers)) == (16, first_round_losers)
    while True:  # now the plate
        state = resolve(scheme, results, teams=16)
        to_play = [m for m in state.matches if m.status is MatchStatus.TO_PLAY]
        if not to_play:
            break
        for m in to_play:
            assert m.home.number is not None and m.away.number is not None
            results[m.id] = rng.choice((m.home.number, m.away.number))
    assert state.match("P-F").decided
    assert state.standings() == standings  # the plate's results change nothing


@pytest.mark.parametrize(
    ("template", "parts"),
    [
        ("single", {"main": 16}),
        ("double", {"main": 16, "losers": 14}),
        ("double-reset", {"main": 17, "losers": 14}),
        ("single-plate", {"main": 16, "plate": 7}),
        ("single-placement", {"main": 16, "placement": 4}),
    ],
)
def test_issue22_each_match_is_drawn_in_its_section(template: str, parts: dict[str, int]) -> None:
    """The drawing's sections from the scheme alone: the main knockout (double elimination: the
    winners' bracket and the final), the losers' bracket, the plate, placement matches."""
    sections = formats.sections(formats.build(template, 16))
    assert dict(Counter(s.value for s in sections.values())) == parts


def test_issue22_a_scheme_file_is_drawn_like_its_template() -> None:
    """A scheme read from a file (matches in any order) gets the same sections."""
    scheme = formats.double_elimination(8)
    data = scheme_to_dict(scheme)
    data["matches"] = list(reversed(data["matches"]))
    assert formats.sections(scheme_from_dict(data)) == formats.sections(scheme)


def _through_final(scheme: Scheme, final_winner: str) -> dict[str, int | None]:
    """Every match up to the final won by its home team; the final by ``final_winner``."""
    results: dict[str, int | None] = {}
    while True:
        state = resolve(scheme, results, teams=scheme.size)
        ready = [m for m in state.matches if m.status is MatchStatus.TO_PLAY and m.id != "F2"]
        if not ready:
            return results
        for m in ready:
            side = m.away if m.id == "F" and final_winner == "away" else m.home
            results[m.id] = side.number


def test_issue22_a_second_final_only_if_the_unbeaten_team_loses_the_first() -> None:
    """The organiser's grand-final rule as scheme data (``reset_of``): ``F2`` is not needed
    when the winners'-bracket team wins ``F`` (it is 1st); played when it loses, and then it
    ranks 1st and 2nd — every team is out after two lost matches, the final included."""
    scheme = formats.build("double-reset", 8)
    assert scheme.match("F2").reset_of == "F"
    assert scheme_from_dict(scheme_to_dict(scheme)) == scheme
    won = resolve(scheme, _through_final(scheme, "home"), teams=8)
    f, f2 = won.match("F"), won.match("F2")
    assert f2.status is MatchStatus.NOT_NEEDED and f2.decided
    assert f2.winner.number == f.winner.number == f.home.number
    lost = _through_final(scheme, "away")
    state = resolve(scheme, lost, teams=8)
    f, f2 = state.match("F"), state.match("F2")
    assert f2.status is MatchStatus.TO_PLAY
    assert (f2.home.number, f2.away.number) == (f.home.number, f.away.number)
    done = resolve(scheme, {**lost, "F2": f.home.number}, teams=8)
    assert done.match("F2").winner.number == f.home.number  # the second final decides


@pytest.mark.parametrize(
    "reset",
    [
        {"home": "winner of F", "away": "loser of F"},  # the slots the wrong way round
        {"home": "loser of F", "away": "winner of F", "reset_of": "WF"},  # not that final's
    ],
)
def test_issue22_a_second_final_with_the_wrong_slots_is_named(reset: dict[str, object]) -> None:
    data = scheme_to_dict(formats.build("double-reset", 4))
    data["matches"] = [m for m in data["matches"] if m["id"] != "F2"]
    second = {"id": "F2", "round": 7, "stage": "final", "reset_of": "F"}
    data["matches"].append(second | reset)
    with pytest.raises(SchemeError, match="a second final must be 'loser of"):
        scheme_from_dict(data)
