"""Bans for failing to appear without timely notice (R15.3)."""

from __future__ import annotations

from bridgeko.competition.entries import RosterProblem
from bridgeko.competition.sanctions import NoShow, barred_players, check_not_barred


def test_R15_3_no_show_without_notice_bars_every_player() -> None:
    # The whole roster is barred, including players who were not due to play that match.
    no_shows = [NoShow("Lvi", (1, 2, 3, 4, 5, 6), timely_notice=False, match="R1-3")]
    assert barred_players(no_shows) == {1, 2, 3, 4, 5, 6}


def test_R15_3_timely_notice_bars_nobody() -> None:
    assert barred_players([NoShow("Orli", ("a", "b", "c", "d"), timely_notice=True)]) == set()
    assert barred_players([]) == set()


def test_R15_3_several_no_shows() -> None:
    no_shows = [
        NoShow("Lvi", (1, 2, 3, 4), timely_notice=False),
        NoShow("Orli", (5, 6, 7, 8), timely_notice=True),
        NoShow("Sovy", (9, 10, 11, 12, 13), timely_notice=False),
    ]
    assert barred_players(no_shows) == {1, 2, 3, 4, 9, 10, 11, 12, 13}


def test_R15_3_barred_player_named_at_entry() -> None:
    problems = check_not_barred([20, 3, 21, 9, 3], {3, 9, 99}, names={3: "Jan Novák"})
    assert problems == [
        RosterProblem(
            "R15.3",
            "Jan Novák (3) is barred from this edition for failing to appear without timely notice",
            player=3,
        ),
        RosterProblem(
            "R15.3",
            "player 9 is barred from this edition for failing to appear without timely notice",
            player=9,
        ),
    ]


def test_R15_3_clean_roster() -> None:
    assert check_not_barred([20, 21, 22, 23], {1, 2}) == []
