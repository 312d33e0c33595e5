"""Restrictions on bidding systems (R6, I9, I10)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from bridgeko.bridge.cards import Suit
from bridgeko.competition import regulations as regs
from bridgeko.competition.systems import (
    CallMeaning,
    Opening,
    Ruling,
    SuitLength,
    SystemDescription,
    SystemDescriptionError,
    SystemRules,
    Violation,
    check_system,
    refused,
    unresolved,
)

PASS = CallMeaning(Opening.PASS, 0, 11)
EDITION_1999 = Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-1999.toml"
REG1999 = regs.load(EDITION_1999)


def natural(*extra: CallMeaning, pass_: CallMeaning = PASS) -> SystemDescription:
    """A standard natural system: 5-card majors, 15-17 NT."""
    calls = {
        Opening.ONE_CLUB: CallMeaning(Opening.ONE_CLUB, 12, 21, suit_min=3),
        Opening.ONE_DIAMOND: CallMeaning(Opening.ONE_DIAMOND, 12, 21, suit_min=3),
        Opening.ONE_HEART: CallMeaning(Opening.ONE_HEART, 12, 21, suit_min=5),
        Opening.ONE_SPADE: CallMeaning(Opening.ONE_SPADE, 12, 21, suit_min=5),
        Opening.ONE_NOTRUMP: CallMeaning(Opening.ONE_NOTRUMP, 15, 17, balanced=True),
    }
    for meaning in extra:
        calls[meaning.call] = meaning
    return SystemDescription("Novák - Svoboda", (pass_, *calls.values()))


def clauses(
    description: SystemDescription, rules: regs.Regulations | SystemRules | None = None
) -> list[str]:
    return [v.clause for v in check_system(description, rules)]


def test_R6_natural_system_has_no_violation() -> None:
    assert check_system(natural()) == []


# R6.1 ---------------------------------------------------------------------------------------


def test_R6_1_pass_with_opening_values() -> None:
    strong_pass = CallMeaning(Opening.PASS, 0, 12)
    violations = check_system(natural(pass_=strong_pass))
    assert violations[0] == Violation(
        "R6.1",
        Opening.PASS,
        (1, 2, 3, 4),
        "Pass in seats 1-4 allows up to 12 HCP, but hands of 12 HCP are normally worth a "
        "one-level opening.",
    )
    # The pass also shares 12 HCP with each one-level suit opening (R6.1 again); none of those
    # starts below the pass's maximum (12 is not below 12), so no R6.2.
    assert clauses(natural(pass_=strong_pass)) == ["R6.1"] * 5


def test_R6_1_threshold_is_a_parameter() -> None:
    assert clauses(natural(), SystemRules(one_level_minimum=11)) == ["R6.1"]
    assert clauses(natural(pass_=CallMeaning(Opening.PASS, 0, 12)), SystemRules(13)) == ["R6.1"] * 4


def test_R6_1_pass_that_can_hold_hands_the_pair_opens() -> None:
    light_spade = CallMeaning(Opening.ONE_SPADE, 11, 21, suit_min=5)
    violations = check_system(natural(light_spade))
    assert [(v.clause, v.call) for v in violations] == [("R6.1", Opening.PASS)]
    assert violations[0].message == (
        "Pass in seats 1-4 (0-11 HCP) can hold hands the pair opens 1S (11-21 HCP)."
    )


def test_R6_1_opening_position_covers_seats_3_and_4() -> None:
    # I10: third and fourth seat are in opening position too.
    pass_12 = CallMeaning(Opening.PASS, 0, 9, seats=(3, 4))
    pass_ = CallMeaning(Opening.PASS, 0, 11, seats=(1, 2))
    light = CallMeaning(Opening.ONE_HEART, 10, 21, seats=(3, 4), suit_min=5)
    normal = CallMeaning(Opening.ONE_HEART, 12, 21, seats=(1, 2), suit_min=5)
    description = SystemDescription("A - B", (pass_, pass_12, *natural().calls[1:3], light, normal))
    # Third-seat 1H from 10 HCP is fine against a third-seat pass up to 9 ...
    assert check_system(description) == []
    # ... but not against a third-seat pass up to 11.
    loose = replace(pass_12, max_hcp=11)
    description = replace(description, calls=(pass_, loose, *description.calls[2:]))
    violations = check_system(description)
    assert [(v.clause, v.call, v.seats) for v in violations] == [
        ("R6.1", Opening.PASS, (3, 4)),
        ("R6.2", Opening.ONE_HEART, (3, 4)),
    ]
    assert "seats 3-4" in violations[1].message


# R6.2 ---------------------------------------------------------------------------------------


def test_R6_2_opening_weaker_than_a_pass() -> None:
    weak_club = CallMeaning(Opening.ONE_CLUB, 8, 21, suit_min=3)
    violations = check_system(natural(weak_club))
    assert [(v.clause, v.call) for v in violations] == [
        ("R6.1", Opening.PASS),
        ("R6.2", Opening.ONE_CLUB),
    ]
    assert violations[1].message == (
        "1C in seats 1-4 starts at 8 HCP, weaker than a pass there (up to 11 HCP)."
    )


# R6.3 ---------------------------------------------------------------------------------------


def test_R6_3_transfer_opening_shows_another_suit() -> None:
    transfer = CallMeaning(
        Opening.ONE_DIAMOND, 12, 21, other_suits=(SuitLength(Suit.HEARTS, 4),), artificial=True
    )
    violations = check_system(natural(transfer))
    assert violations == [
        Violation(
            "R6.3",
            Opening.ONE_DIAMOND,
            (1, 2, 3, 4),
            "1D gives definite information about a suit other than diamonds: 4+ hearts.",
        )
    ]


def test_R6_3_shortness_is_definite_information_too() -> None:
    short = CallMeaning(
        Opening.ONE_CLUB, 12, 21, suit_min=4, other_suits=(SuitLength(Suit.SPADES, 0, 1),)
    )
    (violation,) = check_system(natural(short))
    assert violation.clause == "R6.3"
    assert "at most 1 spades" in violation.message


def test_R6_3_artificial_strong_club_is_allowed() -> None:
    # Precision 1C: 16+, any shape: nothing about another suit, one meaning.
    precision = CallMeaning(Opening.ONE_CLUB, 16, 37, artificial=True, forcing=True)
    assert check_system(natural(precision)) == []


def test_R6_3_1nt_balanced_is_not_a_suit_statement() -> None:
    assert check_system(natural(CallMeaning(Opening.ONE_NOTRUMP, 15, 17, balanced=True))) == []
    major = CallMeaning(Opening.ONE_NOTRUMP, 15, 17, other_suits=(SuitLength(Suit.HEARTS, 5, 5),))
    (violation,) = check_system(natural(major))
    assert violation.clause == "R6.3"
    assert violation.message == (
        "1NT gives definite information about a suit (1NT names no suit): exactly 5 hearts."
    )


def test_R6_3_unrestricted_entry_is_not_information() -> None:
    free = CallMeaning(Opening.ONE_CLUB, 12, 21, other_suits=(SuitLength(Suit.HEARTS, 0, 13),))
    assert check_system(natural(free)) == []


# R6.4 ---------------------------------------------------------------------------------------


def test_R6_4_alternative_meanings() -> None:
    polish = CallMeaning(
        Opening.ONE_CLUB, 12, 37, alternatives=("weak balanced 12-14", "strong, any shape")
    )
    (violation,) = check_system(natural(polish))
    assert violation == Violation(
        "R6.4",
        Opening.ONE_CLUB,
        (1, 2, 3, 4),
        "1C has alternative meanings: weak balanced 12-14; strong, any shape.",
    )


def test_R6_4_hearts_or_spades() -> None:
    two_way = CallMeaning(Opening.ONE_DIAMOND, 12, 21, alternatives=("hearts or spades",))
    assert clauses(natural(two_way)) == ["R6.4"]


# R6.5 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "relays", "violated"),
    [
        (12, 15, True, False),  # a four-point range is allowed (I9)
        (12, 16, True, True),  # five points is not
        (13, 17, True, True),
        (14, 17, True, False),
        (10, 15, True, True),
        (12, 16, False, False),  # Stayman/transfers only: R6.5 does not apply
        (16, 20, True, False),  # lower limit 16: R6.5 does not apply
        (15, 19, True, True),
    ],
)
def test_R6_5_1nt_range_with_relays(low: int, high: int, relays: bool, violated: bool) -> None:
    nt = CallMeaning(Opening.ONE_NOTRUMP, low, high, balanced=True, relays=relays)
    pass_ = CallMeaning(Opening.PASS, 0, min(low, 12) - 1)
    found = [v for v in check_system(natural(nt, pass_=pass_)) if v.clause == "R6.5"]
    assert bool(found) is violated


def test_R6_5_message() -> None:
    nt = CallMeaning(Opening.ONE_NOTRUMP, 12, 16, balanced=True, relays=True)
    found = [v for v in check_system(natural(nt)) if v.clause == "R6.5"]
    assert [str(v) for v in found] == [
        "R6.5: 1NT 12-16 is a range of 5 points; with relays after a 1NT below 16 HCP it must "
        "be less than 5."
    ]


def test_R6_5_numbers_are_parameters() -> None:
    nt = CallMeaning(Opening.ONE_NOTRUMP, 12, 15, balanced=True, relays=True)
    assert "R6.5" in clauses(natural(nt), SystemRules(nt_range_limit=4))
    assert "R6.5" not in clauses(
        natural(replace(nt, max_hcp=16)), SystemRules(nt_relay_threshold=12)
    )


def _edition(**systems: int) -> regs.Regulations:
    """The 1999 edition with the numbers of its [systems] section edited as a TD would."""
    text = EDITION_1999.read_text(encoding="utf-8")
    for key, value in systems.items():
        old = f"{key} = {getattr(REG1999.systems, key)}  #"
        assert old in text, old
        text = text.replace(old, f"{key} = {value}  #", 1)
    return regs.loads(text)


def test_R6_the_numbers_come_from_the_edition() -> None:
    # the 1999 file holds the defaults of check_system: 12 HCP (R6.1), 16 HCP and less than five
    # points (R6.5, I9)
    assert REG1999.systems == SystemRules() == SystemRules(12, 16, 5)
    strong_pass = natural(pass_=CallMeaning(Opening.PASS, 0, 12))
    assert check_system(strong_pass, REG1999) == check_system(strong_pass)
    assert check_system(strong_pass, REG1999.systems) == check_system(strong_pass)


def test_R6_1_minimum_from_the_edition() -> None:
    # a pass of 0-11: fine with 12 (1999), flagged once an edition says 11 HCP is worth opening
    assert clauses(natural(), REG1999) == []
    (violation,) = check_system(natural(), _edition(one_level_minimum=11))
    assert violation.message == (
        "Pass in seats 1-4 allows up to 11 HCP, but hands of 11 HCP are normally worth a "
        "one-level opening."
    )
    # a pass of 0-12 is no R6.1 'strong pass' for an edition of 13 (only the overlaps remain)
    strong = natural(pass_=CallMeaning(Opening.PASS, 0, 12))
    assert clauses(strong, _edition(one_level_minimum=13)) == ["R6.1"] * 4


@pytest.mark.parametrize(
    ("threshold", "limit", "low", "high", "violated"),
    [
        (16, 5, 12, 15, False),  # 1999: four points allowed (I9: max - min <= 3)
        (16, 5, 12, 16, True),  # 1999: five points is not less than five
        (16, 4, 12, 15, True),  # an edition allowing less than four points
        (16, 4, 12, 14, False),
        (12, 5, 12, 16, False),  # the lower limit 12 is not below an edition's 12
        (13, 5, 12, 16, True),
        (16, 6, 12, 16, False),
    ],
)
def test_R6_5_numbers_from_the_edition(
    threshold: int, limit: int, low: int, high: int, violated: bool
) -> None:
    reg = _edition(nt_relay_threshold=threshold, nt_range_limit=limit)
    assert (reg.systems.nt_relay_threshold, reg.systems.nt_range_limit) == (threshold, limit)
    nt = CallMeaning(Opening.ONE_NOTRUMP, low, high, balanced=True, relays=True)
    pass_ = CallMeaning(Opening.PASS, 0, low - 1)
    found = [v for v in check_system(natural(nt, pass_=pass_), reg) if v.clause == "R6.5"]
    assert bool(found) is violated
    if found:
        assert found[0].message == (
            f"1NT {low}-{high} is a range of {high - low + 1} points; with relays after a 1NT "
            f"below {threshold} HCP it must be less than {limit}."
        )


def test_R6_relays_only_after_1nt() -> None:
    with pytest.raises(SystemDescriptionError, match="1NT only"):
        CallMeaning(Opening.ONE_CLUB, 16, 37, relays=True)


# Description values -------------------------------------------------------------------------


def test_R6_description_errors_name_the_problem() -> None:
    with pytest.raises(SystemDescriptionError, match="13-12 HCP"):
        CallMeaning(Opening.ONE_CLUB, 13, 12)
    with pytest.raises(SystemDescriptionError, match="seats are numbered 1 to 4"):
        CallMeaning(Opening.PASS, 0, 11, seats=(0,))
    with pytest.raises(SystemDescriptionError, match="named suit"):
        CallMeaning(Opening.ONE_HEART, 12, 21, other_suits=(SuitLength(Suit.HEARTS, 5),))
    with pytest.raises(SystemDescriptionError, match="names no suit"):
        CallMeaning(Opening.ONE_NOTRUMP, 15, 17, suit_min=2)
    with pytest.raises(SystemDescriptionError, match="seat 3 needs exactly one meaning of pass"):
        SystemDescription("A - B", (CallMeaning(Opening.PASS, 0, 11, seats=(1, 2, 4)),))
    with pytest.raises(SystemDescriptionError, match="1C has more than one meaning in seat 1"):
        SystemDescription(
            "A - B",
            (
                PASS,
                CallMeaning(Opening.ONE_CLUB, 12, 21),
                CallMeaning(Opening.ONE_CLUB, 16, 37, seats=(1,)),
            ),
        )
    with pytest.raises(SystemDescriptionError, match=r"0\.\.13"):
        SuitLength(Suit.CLUBS, 5, 4)


@pytest.mark.parametrize(
    ("text", "call"),
    [
        ("pass", Opening.PASS),
        ("P", Opening.PASS),
        ("1c", Opening.ONE_CLUB),
        ("1♦", Opening.ONE_DIAMOND),
        ("1N", Opening.ONE_NOTRUMP),
        ("1BT", Opening.ONE_NOTRUMP),
        (" 1S ", Opening.ONE_SPADE),
    ],
)
def test_opening_parse(text: str, call: Opening) -> None:
    assert Opening.parse(text) is call


def test_opening_parse_refuses_other_calls() -> None:
    with pytest.raises(SystemDescriptionError, match="2C"):
        Opening.parse("2C")


def test_description_round_trips_through_json() -> None:
    description = natural(
        CallMeaning(
            Opening.ONE_DIAMOND,
            11,
            21,
            seats=(1, 2, 3, 4),
            other_suits=(SuitLength(Suit.HEARTS, 0, 4), SuitLength(Suit.SPADES, 0, 4)),
            alternatives=("clubs",),
            forcing=True,
            artificial=True,
            note="may be short",
        ),
        CallMeaning(Opening.ONE_NOTRUMP, 12, 14, balanced=True, relays=True),
    )
    text = json.dumps(description.to_dict())
    assert SystemDescription.from_dict(json.loads(text)) == description


def test_from_dict_accepts_web_form_strings() -> None:
    data = {
        "pair": " A - B ",
        "calls": [
            {"call": "pass", "min_hcp": "0", "max_hcp": "11"},
            {
                "call": "1nt",
                "min_hcp": "15",
                "max_hcp": "17",
                "balanced": "on",
                "relays": "",
                "other_suits": [{"suit": "h", "min": "5"}],
            },
        ],
    }
    description = SystemDescription.from_dict(data)
    assert description.pair == "A - B"
    nt = description.calls[1]
    assert (nt.call, nt.min_hcp, nt.max_hcp, nt.balanced, nt.relays) == (
        Opening.ONE_NOTRUMP,
        15,
        17,
        True,
        False,
    )
    assert nt.other_suits == (SuitLength(Suit.HEARTS, 5, 13),)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"calls": []}, "pair: missing"),
        ({"pair": "A", "calls": "x"}, "calls: expected a list"),
        ({"pair": "A", "calls": [{"call": "2C", "min_hcp": 0, "max_hcp": 1}]}, r"calls\[0\]"),
        ({"pair": "A", "calls": [{"call": "P", "max_hcp": 11}]}, r"calls\[0\]\.min_hcp: missing"),
        (
            {"pair": "A", "calls": [{"call": "P", "min_hcp": "x", "max_hcp": 11}]},
            r"calls\[0\]\.min_hcp: expected a whole number",
        ),
        (
            {"pair": "A", "calls": [{"call": "P", "min_hcp": 0, "max_hcp": 40}]},
            r"calls\[0\]: Pass",
        ),
        (
            {
                "pair": "A",
                "calls": [
                    {"call": "P", "min_hcp": 0, "max_hcp": 11},
                    {"call": "1C", "min_hcp": 12, "max_hcp": 21, "other_suits": [{"suit": "X"}]},
                ],
            },
            r"calls\[1\]\.other_suits\[0\]",
        ),
        (
            {"pair": "A", "calls": [{"call": "P", "min_hcp": 0, "max_hcp": 11, "forcing": 2}]},
            "expected true or false",
        ),
    ],
)
def test_from_dict_names_the_field(data: dict[str, object], message: str) -> None:
    with pytest.raises(SystemDescriptionError, match=message):
        SystemDescription.from_dict(data)


# I10: the TD's rulings ----------------------------------------------------------------------


def test_I10_td_records_a_ruling_per_pair() -> None:
    transfer = CallMeaning(
        Opening.ONE_DIAMOND, 12, 21, other_suits=(SuitLength(Suit.HEARTS, 4),), artificial=True
    )
    two_way = CallMeaning(Opening.ONE_CLUB, 12, 21, alternatives=("strong any",))
    description = natural(transfer, two_way)
    violations = check_system(description)
    assert [v.clause for v in violations] == ["R6.3", "R6.4"]
    ruling = Ruling("novák - svoboda", "R6.3", False, "J. Novák", "transfer", Opening.ONE_DIAMOND)
    assert unresolved(description.pair, violations, [ruling]) == [violations[1]]
    assert refused(description.pair, violations, [ruling]) == [violations[0]]
    allowed = Ruling(description.pair, "R6.4", True, "J. Novák")
    assert unresolved(description.pair, violations, [ruling, allowed]) == []
    assert unresolved("Other - Pair", violations, [ruling, allowed]) == violations


def test_I10_ruling_round_trip_and_errors() -> None:
    ruling = Ruling("A - B", "R6.5", False, "J. Novák", "12-16 with relays", Opening.ONE_NOTRUMP)
    assert ruling.to_dict() == {
        "pair": "A - B",
        "clause": "R6.5",
        "allowed": False,
        "td": "J. Novák",
        "note": "12-16 with relays",
        "call": "1NT",
    }
    assert Ruling.from_dict(json.loads(json.dumps(ruling.to_dict()))) == ruling
    assert Ruling.from_dict({"pair": "A", "clause": "R6.1", "allowed": "true", "td": "T"}) == (
        Ruling("A", "R6.1", True, "T")
    )
    with pytest.raises(SystemDescriptionError, match=r"R6\.1, R6\.2"):
        Ruling("A", "R7.1", True, "T")
    with pytest.raises(SystemDescriptionError, match="names the TD"):
        Ruling("A", "R6.1", True, " ")
    with pytest.raises(SystemDescriptionError, match=r"ruling\.td: missing"):
        Ruling.from_dict({"pair": "A", "clause": "R6.1", "allowed": True})


def test_violation_messages_are_translatable_templates() -> None:
    transfer = CallMeaning(
        Opening.ONE_DIAMOND,
        12,
        21,
        other_suits=(SuitLength(Suit.HEARTS, 4), SuitLength(Suit.SPADES, 0, 1)),
    )
    (violation,) = check_system(natural(transfer))
    assert violation.template == (
        "%(call)s gives definite information about a suit other than %(suit)s: %(what)s."
    )
    assert violation.message == (
        "1D gives definite information about a suit other than diamonds: "
        "4+ hearts, at most 1 spades."
    )
    czech = {
        "%(call)s gives definite information about a suit other than %(suit)s: %(what)s.": (
            "%(call)s dává jednoznačnou informaci o jiné barvě než %(suit)s: %(what)s."
        ),
        "diamonds": "káry",
        "hearts": "srdce",
        "spades": "piky",
        "%(min)s+ %(suit)s": "%(min)s+ %(suit)s",
        "at most %(max)s %(suit)s": "nejvýše %(max)s %(suit)s",
    }
    assert violation.detail.format(czech.get) == (
        "1D dává jednoznačnou informaci o jiné barvě než káry: 4+ srdce, nejvýše 1 piky."
    )
    plain = Violation("R6.4", Opening.ONE_CLUB, (1,), "text")
    assert plain.template == "text"
    assert dict(plain.params) == {}
