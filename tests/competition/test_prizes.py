"""Prize money by place (R5.1, I7)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bridgeko.competition import regulations as regs
from bridgeko.competition.prizes import PrizeAward, PrizeError, prize_list

REG = regs.load(Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-1999.toml")

PRIZES_1999 = [
    (1, "Vltava", 60000, "CZK"),
    (2, "Labe", 20000, "CZK"),
    (3, "Ohře", 15000, "CZK"),
    (4, "Morava", 5000, "CZK"),
]


def test_R5_1_first_four_places_from_a_sequence() -> None:
    standings = ["Vltava", "Labe", "Ohře", "Morava", "Jizera", "Sázava", "Dyje", "Berounka"]
    assert prize_list(standings, REG) == PRIZES_1999


def test_R5_1_I7_from_a_mapping_with_shared_5th_place() -> None:
    standings = {
        1: "Vltava",
        2: "Labe",
        3: "Ohře",
        4: "Morava",
        5: ["Jizera", "Sázava", "Dyje", "Berounka"],
    }
    awards = prize_list(standings, REG)
    assert awards == PRIZES_1999
    assert isinstance(awards[0], PrizeAward)
    assert awards[0].amount == 60000


def test_R5_1_team_ids_in_any_order_of_keys() -> None:
    assert prize_list({4: 104, 2: 102, 1: 101, 3: 103}, REG) == [
        (1, 101, 60000, "CZK"),
        (2, 102, 20000, "CZK"),
        (3, 103, 15000, "CZK"),
        (4, 104, 5000, "CZK"),
    ]


def test_R5_1_prizes_come_from_the_regulations() -> None:
    reg = dataclasses.replace(REG, prizes=(1000, 500))
    assert prize_list(["A", "B", "C"], reg) == [(1, "A", 1000, "CZK"), (2, "B", 500, "CZK")]
    assert prize_list(["A", "B", "C"], dataclasses.replace(REG, prizes=())) == []


def test_I7_shared_places_share_their_prizes() -> None:
    # An edition paying 6 places: the quarterfinal losers share 5th-8th, i.e. (4000+2001+0+0)/4.
    reg = dataclasses.replace(REG, prizes=(60000, 20000, 15000, 5000, 4000, 2001))
    standings = {1: "A", 2: "B", 3: "C", 4: "D", 5: ("E", "F", "G", "H")}
    awards = prize_list(standings, reg)
    assert awards[4:] == [
        (5, "E", 1500, "CZK"),  # 6001 / 4 = 1500.25 -> 1500
        (5, "F", 1500, "CZK"),
        (5, "G", 1500, "CZK"),
        (5, "H", 1500, "CZK"),
    ]


def test_I7_shared_share_rounds_half_up() -> None:
    reg = dataclasses.replace(REG, prizes=(4, 3, 2, 1, 3, 2))  # 5th-6th share 5 -> 2.5 -> 3
    awards = prize_list({1: "A", 2: "B", 3: "C", 4: "D", 5: {"E"}, 6: "F"}, reg)
    assert awards[4:] == [(5, "E", 3, "CZK"), (6, "F", 2, "CZK")]
    awards = prize_list({1: "A", 2: "B", 3: "C", 4: "D", 5: ["E", "F"]}, reg)
    assert awards[4:] == [(5, "E", 3, "CZK"), (5, "F", 3, "CZK")]


@pytest.mark.parametrize(
    ("standings", "message"),
    [
        ({1: "A", 2: "B", 3: ["C", "D"]}, "cannot be shared"),  # R1.2: 3rd-place match
        ({1: ["A", "B"], 3: "C", 4: "D"}, "cannot be shared"),
        ({1: "A", 2: "B", 4: "D"}, "place 3 is missing"),
        ({1: "A", 2: "B", 3: "C"}, "place 4 is missing"),
        (["A", "B"], "place 3 is missing"),
        ({1: "A", 2: "B", 3: "C", 4: "A"}, "team A is listed twice"),
        ({0: "A", 1: "B"}, "a place is a whole number"),
        ({1: "A", 2: "B", 3: "C", 4: "D", 5: ["E", "F"], 6: "G"}, "place 6 is already taken"),
        ({1: "A", 2: "B", 3: "C", 4: []}, "place 4 has no team"),
    ],
)
def test_R5_1_impossible_standings(standings: object, message: str) -> None:
    with pytest.raises(PrizeError, match=message):
        prize_list(standings, REG)  # type: ignore[arg-type]
    assert issubclass(PrizeError, ValueError)


def test_R5_1_2001_prizes_are_per_player_for_three_places() -> None:
    # issue 22: 10,000 / 5,000 / 2,000 Kč to each player of the first three teams
    reg = regs.load(Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-2001.toml")
    awards = prize_list(["A", "B", "C", "D"], reg)
    assert [(a.place, a.team, a.amount) for a in awards] == [
        (1, "A", 10000),
        (2, "B", 5000),
        (3, "C", 2000),
    ]
    assert reg.format.prizes_per_player and not REG.format.prizes_per_player
