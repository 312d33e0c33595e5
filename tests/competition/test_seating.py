"""Seating rights and line-ups (R12.2, R12.6, I5, I14)."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeko.competition.match import Room, Side
from bridgeko.competition.seating import (
    LineUp,
    Matchup,
    NoValidSeatingError,
    Pair,
    SeatingError,
    check_line_ups,
    check_segment,
    segment_matchups,
    sits_first,
    sits_second,
    valid_seatings,
)

HOME, VIS = Side.HOME, Side.VISITORS
HOME_ROSTER = ["Ann", "Bob", "Cid", "Dan", "Ed", "Flo"]
VIS_ROSTER = ["Gus", "Hal", "Ivy", "Jan"]


def lu(a: str, b: str, c: str, d: str) -> LineUp:
    return LineUp(Pair.of(a, b), Pair.of(c, d))


# ---------------------------------------------------------------- R12.6 who sits second


def test_R12_6_home_sits_second_in_segment_1() -> None:
    assert sits_second(1) is HOME
    assert sits_first(1) is VIS


def test_R12_6_alternates_between_segments() -> None:
    assert [sits_second(n) for n in (1, 2, 3)] == [HOME, VIS, HOME]
    assert [sits_first(n) for n in (1, 2, 3)] == [VIS, HOME, VIS]


def test_I5_extra_segments_continue_alternation() -> None:
    # 32-board match: segments 1, 2; extra segments 3, 4, 5.
    assert [sits_second(n) for n in (3, 4, 5)] == [HOME, VIS, HOME]
    # final: segments 1-3; extra segments 4, 5.
    assert [sits_second(n) for n in (4, 5)] == [VIS, HOME]


def test_R12_6_bad_segment_number() -> None:
    with pytest.raises(SeatingError, match="starts at 1"):
        sits_second(0)
    with pytest.raises(SeatingError, match="whole number"):
        sits_second(True)


# ---------------------------------------------------------------- pairs and line-ups


def test_I14_pair_is_unordered() -> None:
    assert Pair.of("Ann", "Bob") == Pair.of("Bob", "Ann")
    assert hash(Pair.of("Ann", "Bob")) == hash(Pair.of("Bob", "Ann"))
    assert str(Pair.of("Bob", "Ann")) == "Ann-Bob"
    assert repr(Pair.of("Bob", "Ann")) == "Pair.of('Ann', 'Bob')"


def test_pair_of_two_different_players() -> None:
    with pytest.raises(SeatingError, match="two different players"):
        Pair.of("Ann", "Ann")
    with pytest.raises(SeatingError, match="two different players"):
        Pair(frozenset({"Ann", "Bob", "Cid"}))
    with pytest.raises(SeatingError, match="must be named"):
        Pair.of("Ann", " ")


def test_line_up_has_four_distinct_players() -> None:
    with pytest.raises(SeatingError, match="both rooms: Bob"):
        lu("Ann", "Bob", "Bob", "Cid")
    assert lu("Ann", "Bob", "Cid", "Dan").players == {"Ann", "Bob", "Cid", "Dan"}


def test_R12_2_matchups_and_directions() -> None:
    home = lu("Ann", "Bob", "Cid", "Dan")
    vis = lu("Gus", "Hal", "Ivy", "Jan")
    open_, closed = segment_matchups(home, vis)
    assert open_ == Matchup(Room.OPEN, Pair.of("Ann", "Bob"), Pair.of("Gus", "Hal"))
    assert closed == Matchup(Room.CLOSED, Pair.of("Cid", "Dan"), Pair.of("Ivy", "Jan"))
    # open room: home NS, visitors EW; closed room: home EW, visitors NS.
    assert open_.ns_pair == Pair.of("Ann", "Bob") and open_.ew_pair == Pair.of("Gus", "Hal")
    assert closed.ns_pair == Pair.of("Ivy", "Jan") and closed.ew_pair == Pair.of("Cid", "Dan")


# ---------------------------------------------------------------- validation


def test_roster_checked_and_names_the_team() -> None:
    with pytest.raises(
        SeatingError, match=r"visitors team's line-up .* not on its roster: Zed"
    ) as e:
        check_segment(
            1,
            lu("Ann", "Bob", "Cid", "Dan"),
            lu("Gus", "Hal", "Ivy", "Zed"),
            home_roster=HOME_ROSTER,
            visitors_roster=VIS_ROSTER,
        )
    assert e.value.side is VIS


def test_player_in_both_teams_is_an_error() -> None:
    with pytest.raises(SeatingError, match="both teams: Ann"):
        check_segment(
            1,
            lu("Ann", "Bob", "Cid", "Dan"),
            lu("Ann", "Hal", "Ivy", "Jan"),
            home_roster=HOME_ROSTER,
            visitors_roster=[*VIS_ROSTER, "Ann"],
        )


def test_segment_1_has_no_previous_segment() -> None:
    prev = segment_matchups(lu("Ann", "Bob", "Cid", "Dan"), lu("Gus", "Hal", "Ivy", "Jan"))
    with pytest.raises(SeatingError, match="no previous"):
        check_segment(
            1,
            lu("Ann", "Bob", "Cid", "Dan"),
            lu("Gus", "Hal", "Ivy", "Jan"),
            home_roster=HOME_ROSTER,
            visitors_roster=VIS_ROSTER,
            previous=prev,
        )


def test_I14_no_repeat_pairs_in_consecutive_segments() -> None:
    seg1 = check_segment(
        1,
        lu("Ann", "Bob", "Cid", "Dan"),
        lu("Gus", "Hal", "Ivy", "Jan"),
        home_roster=HOME_ROSTER,
        visitors_roster=VIS_ROSTER,
    )
    # Segment 2: the home team sits first and keeps its pairs, switching rooms; the visitors
    # (sitting second) keep Gus-Hal against Ann-Bob (now in the closed room): a repeat.
    with pytest.raises(SeatingError, match="segment 2: the visitors team sits second") as e:
        check_segment(
            2,
            lu("Cid", "Dan", "Ann", "Bob"),
            lu("Jan", "Ivy", "Hal", "Gus"),  # order inside the pairs changed: still a repeat
            home_roster=HOME_ROSTER,
            visitors_roster=VIS_ROSTER,
            previous=seg1,
        )
    assert e.value.side is VIS
    assert "Ann-Bob v Gus-Hal" in str(e.value) and "Cid-Dan v Ivy-Jan" in str(e.value)
    # Swapping the visitors' rooms avoids both repeats.
    seg2 = check_segment(
        2,
        lu("Cid", "Dan", "Ann", "Bob"),
        lu("Gus", "Hal", "Ivy", "Jan"),
        home_roster=HOME_ROSTER,
        visitors_roster=VIS_ROSTER,
        previous=seg1,
    )
    assert [(str(m.home_pair), str(m.visitors_pair)) for m in seg2] == [
        ("Cid-Dan", "Gus-Hal"),
        ("Ann-Bob", "Ivy-Jan"),
    ]


def test_I14_one_common_player_is_not_the_same_pair() -> None:
    seg1 = segment_matchups(lu("Ann", "Bob", "Cid", "Dan"), lu("Gus", "Hal", "Ivy", "Jan"))
    seg2 = check_segment(
        2,
        lu("Ann", "Ed", "Cid", "Flo"),
        lu("Gus", "Hal", "Ivy", "Jan"),
        home_roster=HOME_ROSTER,
        visitors_roster=VIS_ROSTER,
        previous=seg1,
    )
    assert len(seg2) == 2


def test_I14_repeat_only_checked_against_the_previous_segment() -> None:
    seg1 = segment_matchups(lu("Ann", "Bob", "Cid", "Dan"), lu("Gus", "Hal", "Ivy", "Jan"))
    seg2 = segment_matchups(lu("Ann", "Bob", "Cid", "Dan"), lu("Ivy", "Jan", "Gus", "Hal"))
    # Segment 3 repeats segment 1's matchups, which is allowed (not consecutive).
    seg3 = check_segment(
        3,
        lu("Ann", "Bob", "Cid", "Dan"),
        lu("Gus", "Hal", "Ivy", "Jan"),
        home_roster=HOME_ROSTER,
        visitors_roster=VIS_ROSTER,
        previous=seg2,
    )
    assert list(seg3) == list(seg1)


def test_I5_extra_segment_checked_against_last_segment() -> None:
    # The last prescribed segment of a 32-board match is 2; extra segment 3: home sits second.
    seg2 = segment_matchups(lu("Ann", "Bob", "Cid", "Dan"), lu("Gus", "Hal", "Ivy", "Jan"))
    with pytest.raises(SeatingError, match="segment 3: the home team sits second") as e:
        check_segment(
            3,
            lu("Ann", "Bob", "Ed", "Flo"),
            lu("Gus", "Hal", "Ivy", "Jan"),
            home_roster=HOME_ROSTER,
            visitors_roster=VIS_ROSTER,
            previous=seg2,
        )
    assert e.value.side is HOME


def test_I5_whole_match_line_ups_checked_in_order() -> None:
    a, b = lu("Ann", "Bob", "Cid", "Dan"), lu("Cid", "Dan", "Ann", "Bob")
    g, h = lu("Gus", "Hal", "Ivy", "Jan"), lu("Gus", "Ivy", "Hal", "Jan")
    tables = check_line_ups(
        [(a, g), (b, g), (a, h)], home_roster=HOME_ROSTER, visitors_roster=VIS_ROSTER
    )
    assert [str(m) for m in tables[2]] == [
        "open: Ann-Bob (NS) v Gus-Ivy (EW)",
        "closed: Cid-Dan (EW) v Hal-Jan (NS)",
    ]
    # extra segment 4 (after a 48-board final tied): the visitors sit second and repeat.
    with pytest.raises(SeatingError, match="segment 4: the visitors team sits second") as e:
        check_line_ups(
            [(a, g), (b, g), (a, h), (b, lu("Jan", "Hal", "Gus", "Ivy"))],
            home_roster=HOME_ROSTER,
            visitors_roster=VIS_ROSTER,
        )
    assert e.value.side is VIS


# ---------------------------------------------------------------- valid_seatings


def test_R12_6_valid_seatings_four_players() -> None:
    seg1 = segment_matchups(lu("Ann", "Bob", "Cid", "Dan"), lu("Gus", "Hal", "Ivy", "Jan"))
    # Segment 2: home sits first with the same pairs in the same rooms; visitors (4 players)
    # have 6 line-ups; only (Gus-Hal open, Ivy-Jan closed) repeats both matchups.
    options = valid_seatings(lu("Ann", "Bob", "Cid", "Dan"), seg1, VIS_ROSTER, segment_number=2)
    assert {(str(o.open_pair), str(o.closed_pair)) for o in options} == {
        ("Ivy-Jan", "Gus-Hal"),
        ("Gus-Ivy", "Hal-Jan"),
        ("Hal-Jan", "Gus-Ivy"),
        ("Gus-Jan", "Hal-Ivy"),
        ("Hal-Ivy", "Gus-Jan"),
    }


def test_R12_6_valid_seatings_home_second() -> None:
    seg2 = segment_matchups(lu("Ann", "Bob", "Cid", "Dan"), lu("Gus", "Hal", "Ivy", "Jan"))
    # Extra segment 3: the visitors sit first and keep Gus-Hal in the closed room.
    options = valid_seatings(
        lu("Ivy", "Jan", "Gus", "Hal"), seg2, ["Ann", "Bob", "Cid", "Dan"], segment_number=3
    )
    # Segment 2 had Ann-Bob v Gus-Hal and Cid-Dan v Ivy-Jan: only Cid-Dan open (v Ivy-Jan) with
    # Ann-Bob closed (v Gus-Hal) repeats them; the other 5 of the 6 line-ups are valid.
    assert len(options) == 5
    assert lu("Cid", "Dan", "Ann", "Bob") not in options
    assert lu("Ann", "Bob", "Cid", "Dan") in options


def test_R12_6_six_players_give_90_line_ups_in_segment_1() -> None:
    options = valid_seatings(lu("Gus", "Hal", "Ivy", "Jan"), [], HOME_ROSTER, segment_number=1)
    assert len(options) == 90  # C(6,2) * C(4,2)
    assert len(set(options)) == 90
    five = valid_seatings(lu("Gus", "Hal", "Ivy", "Jan"), [], HOME_ROSTER[:5], segment_number=1)
    assert len(five) == 30  # C(5,2) * C(3,2)


def test_no_valid_seating_says_so() -> None:
    with pytest.raises(NoValidSeatingError, match="at least 4 players") as e:
        valid_seatings(lu("Gus", "Hal", "Ivy", "Jan"), [], ["Ann", "Bob", "Cid"], segment_number=1)
    assert e.value.side is HOME
    # Impossible previous segment data (the roster of one pair "met" every pairing): no line-up.
    roster = ["Ann", "Bob", "Cid", "Dan"]
    first = lu("Gus", "Hal", "Ivy", "Jan")
    every = [
        Matchup(Room.OPEN, option.open_pair, first.open_pair)
        for option in valid_seatings(first, [], roster, segment_number=1)
    ]
    with pytest.raises(NoValidSeatingError, match="segment 3: the home team has no line-up"):
        valid_seatings(first, every, roster, segment_number=3)


def test_valid_seatings_rejects_shared_players() -> None:
    with pytest.raises(SeatingError, match="both teams: Gus"):
        valid_seatings(
            lu("Gus", "Hal", "Ivy", "Jan"), [], ["Gus", "Bob", "Cid", "Dan"], segment_number=1
        )


# ---------------------------------------------------------------- properties

NAMES = [f"P{i}" for i in range(12)]


@st.composite
def seating_cases(draw: st.DrawFn) -> tuple[int, LineUp, tuple[Matchup, Matchup], list[str]]:
    segment_number = draw(st.integers(min_value=2, max_value=7))
    names = draw(st.permutations(NAMES))
    home_roster = names[: draw(st.integers(4, 6))]
    vis_roster = names[6 : 6 + draw(st.integers(4, 6))]

    def line_up(roster: list[str]) -> LineUp:
        chosen = draw(st.permutations(roster))
        return lu(*chosen[:4])

    previous = segment_matchups(line_up(home_roster), line_up(vis_roster))
    second = sits_second(segment_number)
    first_roster, second_roster = (
        (vis_roster, home_roster) if second is HOME else (home_roster, vis_roster)
    )
    return segment_number, line_up(first_roster), previous, second_roster


@given(seating_cases())
def test_valid_seatings_never_repeat(
    case: tuple[int, LineUp, tuple[Matchup, Matchup], list[str]],
) -> None:
    segment_number, first, previous, roster = case
    options = valid_seatings(first, previous, roster, segment_number=segment_number)
    assert options  # sensible rosters always have a valid line-up
    second = sits_second(segment_number)
    for option in options:
        assert option.players <= set(roster)
        home, vis = (option, first) if second is HOME else (first, option)
        # check_segment accepts it ...
        check_segment(
            segment_number,
            home,
            vis,
            home_roster=home.players,
            visitors_roster=vis.players,
            previous=previous,
        )
        # ... and, written out by hand, no table repeats a previous pair-against-pair.
        now = {
            (home.open_pair.players, vis.open_pair.players),
            (home.closed_pair.players, vis.closed_pair.players),
        }
        before = {(m.home_pair.players, m.visitors_pair.players) for m in previous}
        assert not now & before
    # Complete: every seating of four roster players that repeats nothing is offered, once.
    before = {(m.home_pair.players, m.visitors_pair.players) for m in previous}
    expected = set()
    for a, b, c, d in permutations(roster, 4):
        open_pair, closed_pair = frozenset((a, b)), frozenset((c, d))
        if second is HOME:
            now = {(open_pair, first.open_pair.players), (closed_pair, first.closed_pair.players)}
        else:
            now = {(first.open_pair.players, open_pair), (first.closed_pair.players, closed_pair)}
        if not now & before:
            expected.add((open_pair, closed_pair))
    offered = [(o.open_pair.players, o.closed_pair.players) for o in options]
    assert len(offered) == len(set(offered))
    assert set(offered) == expected
