"""The LIN reader on real files (tests/data/lin, README.md there gives each file's source): BBO
vugraph matches, single BBO hands, a converter's deals; and on broken input: a file cut off, bytes
that are no LIN, impossible calls and cards, a board with no number, a result rs| contradicts."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeko.bridge import lin
from bridgeko.bridge.cards import Card, Deal, Seat, Vulnerability
from bridgeko.bridge.contract import Contract
from bridgeko.bridge.result import BoardResult
from tests.sizes import examples

DATA = Path(__file__).resolve().parents[1] / "data" / "lin"
FILES = sorted(p.name for p in DATA.glob("*.lin"))
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def text(name: str) -> str:
    return lin.decode((DATA / name).read_bytes())


def read(name: str) -> lin.LinFile:
    return lin.parse(text(name))


def board(f: lin.LinFile, number: int, room: str | None = None) -> lin.LinBoard:
    found = f.board(number, room)
    assert found is not None, (number, room)
    return found


def made(b: lin.LinBoard) -> tuple[str, Seat | None, int | None]:
    """Contract, declarer and tricks of a board's result (which must exist)."""
    assert b.result is not None, b.label
    return str(b.result.contract), b.result.declarer, b.result.tricks


# --- every real file --------------------------------------------------------------------------


def test_lin_data_files_are_the_six_of_the_readme() -> None:
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    assert len(FILES) == 6
    for name in FILES:
        assert f"`{name}`" in readme


@pytest.mark.parametrize("name", FILES)
def test_lin_every_board_of_every_real_file_reads_without_problems(name: str) -> None:
    strict = read(name)
    lenient = lin.parse(text(name), lenient=True)
    assert strict.problems == () and lenient.problems == ()
    assert lenient == strict
    assert strict.boards
    for b in strict.boards:
        assert b.deal is not None and b.deal.is_complete, b.label
        assert b.line >= 1


def test_lin_results_of_auction_and_play_equal_every_rs_entry_of_every_file() -> None:
    compared = 0
    for name in FILES:
        f = read(name)
        for b in f.boards:
            if b.auction is not None:
                # every board bid in these files was also played out or claimed
                assert b.result is not None, (name, b.label)
            said = b.stated_result
            if said is None or b.result is None:
                continue
            compared += 1
            got = b.result
            assert (got.contract, got.declarer, got.tricks) == (
                said.contract,
                said.declarer,
                said.tricks,
            ), (name, b.label, b.stated, str(got))
    assert compared == 30 + 32  # the two vugraph matches, every table of them


def test_lin_rs_order_is_open_then_closed_room_board_by_board() -> None:
    # The other order (closed first) disagrees with most tables of both matches.
    for name in ("usbf-2010-sf-segment4.lin", "dutch-teams-2005-final2.lin"):
        f = read(name)
        swapped = 0
        for b in f.boards:
            other = board(f, b.number, "closed" if b.room == "open" else "open")
            said = other.stated_result  # str() leaves the lead out
            if said is not None and b.result is not None and str(said) != str(b.result):
                swapped += 1
        assert swapped > len(f.boards) // 2


# --- the vugraph of the 2010 USBF semi-final ---------------------------------------------------


def test_lin_usbf_vugraph_segment_both_rooms() -> None:
    f = read("usbf-2010-sf-segment4.lin")
    assert (f.event, f.segment, f.scoring) == ("2010 USBF SF A", "Segment 4 of 8", "I")
    assert f.teams == ("Nickell", "Fleisher")
    assert f.carry_over == (80.0, 99.0)
    assert (f.first_board, f.last_board) == (46, 60)
    assert [(b.number, b.room) for b in f.boards] == [
        (n, room) for n in range(46, 61) for room in ("open", "closed")
    ]
    o46, c46 = board(f, 46, "open"), board(f, 46, "closed")
    assert o46.deal == c46.deal
    assert o46.deal == Deal.from_pbn(
        "N:872.QT5.J97.AT64 A63.J8642.K53.KJ J5.9.AT862.Q8752 KQT94.AK73.Q4.93"
    )
    assert (o46.dealer, o46.vulnerability) == (E, Vulnerability.NONE)
    assert made(o46) == made(c46) == ("4H", E, 10)
    assert o46.stated == c46.stated == "4HE="
    assert o46.claim == 10 and o46.play is not None and o46.play.completed_tricks == 5
    assert o46.result is not None and o46.result.lead == Card.parse("C2")
    assert o46.auction is not None and o46.auction.calls[2] == "3C"
    assert dict(o46.auction.alerts) == {2: "jacoby 2N"}
    assert c46.auction is not None and c46.auction.alerts[8] == "no slam interest"
    # Tables that differ between the rooms, each against its own rs| entry.
    assert (made(board(f, 52, "open")), board(f, 52, "open").stated) == (("4H", W, 10), "4HW=")
    assert (made(board(f, 52, "closed")), board(f, 52, "closed").stated) == (
        ("4H", W, 9),
        "4HW-1",
    )
    assert made(board(f, 53, "open")) == ("4SX", W, 6)  # rs: 4SWx-4
    assert made(board(f, 53, "closed")) == ("3NT", S, 6)  # rs: 3NS-3
    assert made(board(f, 55, "open")) == ("5DX", N, 9)  # rs: 5DNx-2
    assert board(f, 60, "closed").stated == "3NW-1"


def test_lin_usbf_players_of_each_room_from_the_eight_names_of_pn() -> None:
    # pn| lists the open room South, West, North, East, then the closed room in the same order.
    # Nickell (team 1, home) sits North-South in the open room: Meckstroth-Rodwell; in the closed
    # room East-West: Hamman-Zia. The commentary agrees: "Martel [north]", "Hamman opened 2S"
    # (closed room, board 48, West deals), "Levin for 3S, Weinstein for DBL" (open room).
    f = read("usbf-2010-sf-segment4.lin")
    for b in f.boards:
        if b.room == "open":
            assert b.players == {S: "Meckstroth", W: "Levin", N: "Rodwell", E: "Weinstein"}
        else:
            assert b.players == {S: "Stansby", W: "Hamman", N: "Martel", E: "Mahmood"}
    c48 = board(f, 48, "closed")
    assert c48.dealer is W and c48.auction is not None and c48.auction.calls[0] == "2S"


# --- the other files --------------------------------------------------------------------------


def test_lin_dutch_teams_final_claims_and_redoubles() -> None:
    f = read("dutch-teams-2005-final2.lin")
    assert (f.event, f.segment, f.teams, f.carry_over) == (
        "2005 Dutch Teams",
        "Final 2",
        ("Modalfa", "Crash"),
        (35.0, 37.0),
    )
    assert len(f.boards) == 32
    assert sum(b.claim is not None for b in f.boards) == 29
    o1, c1 = board(f, 1, "open"), board(f, 1, "closed")
    assert (made(o1), o1.claim, o1.stated) == (("2S", E, 6), 6, "2SE-2")
    assert c1.auction is not None
    assert c1.auction.calls[:4] == ("1C", "1S", "X", "XX")
    assert (made(c1), c1.claim, c1.stated) == (("3C", N, 7), None, "3CN-2")
    assert c1.play is not None and c1.play.completed_tricks == 13
    assert o1.players == {S: "Bakkeren", W: "Brink", N: "Bertens", E: "vProoijen"}
    assert c1.players == {S: "Sprinkhuizn", W: "Nab", N: "Eskes", E: "Paulissen"}
    assert made(board(f, 9, "open")) == ("6HX", S, 10)  # rs: 6HSx-2


def test_lin_bbo_single_hand_heading_alert_and_thirteen_tricks() -> None:
    f = read("bbo-single-hand.lin")
    assert (f.teams, f.carry_over, f.first_board) == (("", ""), None, None)
    (b,) = f.boards
    assert (b.number, b.room, b.dealer, b.vulnerability) == (15, None, S, Vulnerability.NS)
    assert b.players == {S: "PrinceBen", W: "Forrest_", N: "smalark", E: "granola357"}
    assert b.deal is not None and b.deal.is_complete  # East, not given, holds the rest
    assert b.deal[E].to_pbn() == "AT7.T94.984.K853"
    assert b.auction is not None
    assert b.auction.calls == ("P", "1H", "2NT", "P", "3NT", "P", "P", "P")
    assert dict(b.auction.alerts) == {2: "Unusual No Trump: 2 5card minors"}
    assert b.play is not None and b.play.completed_tricks == 13 and b.claim is None
    assert b.result == BoardResult(Contract.parse("3NT"), N, 6, Card.parse("H4"))
    assert b.stated is None


def test_lin_endplay_example_several_hands_one_per_line() -> None:
    f = read("endplay-example1.lin")
    assert [(b.number, b.room, b.line) for b in f.boards] == [(n, None, n) for n in range(1, 9)]
    assert all(b.players[S] == "domtp" for b in f.boards)
    assert [str(b.result) for b in f.boards] == [
        "5H S +1",
        "2S W +2",
        "2H S +1",
        "4H S =",
        "3NT S +1",
        "3H S =",
        "4S S +1",
        "3NT S -1",
    ]
    b1 = f.boards[0]
    assert b1.auction is not None
    assert b1.auction.calls[3] == "2H" and 3 in b1.auction.alerts  # "mb|2H!|an|Michaels ..."
    assert b1.auction.alerts[3].startswith("Michaels")
    assert [b.claim for b in f.boards if b.claim is not None] == [9, 11]


def test_lin_kemistry_crlf_zz_and_players_changing_between_boards() -> None:
    raw = (DATA / "kemistry-boards-2026-01-14.lin").read_bytes()
    assert b"\r\n" in raw
    f = lin.parse(lin.decode(raw))
    assert [(b.number, b.room, b.line) for b in f.boards] == [(n, "open", n) for n in range(1, 13)]
    assert all(b.result is not None for b in f.boards)
    assert f.boards[0].players[W] == "cocottina" and f.boards[3].players[W] == "usvi"
    assert made(f.boards[0]) == ("3HX", W, 7)
    assert (made(f.boards[1]), f.boards[1].claim) == (("1H", S, 9), 9)
    assert made(f.boards[5]) == ("6C", S, 12)


def test_lin_deal_convert_deals_only_have_no_result() -> None:
    f = read("deal-convert-deals-only.lin")
    assert (f.event, f.segment, f.teams, f.carry_over) == (
        "",
        "SEGMENT 1",
        ("HOME", "AWAY"),
        (0.0, 0.0),
    )
    assert len(f.boards) == 32
    for b in f.boards:
        assert (b.auction, b.play, b.claim, b.result, b.stated) == (None,) * 5
        assert b.players == {}
        assert b.deal == board(f, b.number, "open").deal
    assert board(f, 1, "open").dealer is N


# --- made-up files ----------------------------------------------------------------------------

HANDS = "SAKQJHT98D765C432,ST987HAKQJD32CAKQ,S6543H765DAKQCJT9,"
"""South, West, North; East holds the rest."""


def test_lin_bad_lines_and_values_of_a_hand_record() -> None:
    # Line breaks between pairs and inside values, lower case, "10" for the ten.
    f = lin.parse(
        "pn|Sam,\r\n Wes ,Nora,|md|1" + HANDS.replace(",S6", ",\r\nS6") + "|ah|Board 1|"
        "sv|b|\nmb|1s!|an|five\nspades|mb|p|mb|4s|mb|p|mb|p|mb|p|pc|ha|pc|h5|pc|h\n2|pc|h10|"
        "pg||\r\nmc|11|"
    )
    (b,) = f.boards
    assert b.players == {S: "Sam", W: "Wes", N: "Nora"}
    assert b.vulnerability is Vulnerability.ALL
    assert b.auction is not None and dict(b.auction.alerts) == {0: "five spades"}
    assert b.play is not None and b.play.cards[3] == Card.parse("HT")
    assert b.result == BoardResult(Contract.parse("4S"), S, 11, Card.parse("HA"))


def test_lin_qx_with_a_title_and_unknown_keys_ignored() -> None:
    f = lin.parse(f"xy|what|qx|o1,BOARD 1|md|1{HANDS}|pw|?|bn|1|mb|p|mb|p|mb|p|mb|p|zz|3|")
    (b,) = f.boards
    assert (b.number, b.room, str(b.result)) == (1, "open", "Pass")
    assert b.vulnerability is Vulnerability.NONE and b.dealer is S  # sv| missing: board 1's


def test_lin_cut_off_file_names_the_board_strict_and_lenient() -> None:
    full = text("usbf-2010-sf-segment4.lin")
    start = full.index("qx|c48|")
    inside_value = full.index("pc|", start) + 4  # "pc|s" of the opening lead
    inside_auction = full.index("mb|", start) + 6
    after_cards = full.index("pc|", full.index("pc|", inside_value) + 3)
    for cut, problem in (
        (inside_value, "the file ends inside the value of pc|"),
        (inside_auction, "before the end of the auction: is it cut off?"),
        (after_cards, "the file ends after 2 cards of the play, with no claim: is it cut off?"),
        (start + 3, "the board starting at line 102: the file ends inside the value of qx|"),
    ):
        with pytest.raises(lin.LinError, match="cut off") as info:
            lin.parse(full[:cut])
        message = str(info.value)
        assert problem in message
        assert ("board 48 (closed room)" in message) or cut == start + 3
        f = lin.parse(full[:cut], lenient=True)
        assert len(f.problems) == 1 and problem in f.problems[0].message
        assert [(b.number, b.room) for b in f.boards][-1] == (48, "open")
    # Cut right after the deal of board 49: the file stops before the result rs| gives.
    cut = full.index("|", full.index("md|", full.index("qx|o49|")) + 3) + 1
    with pytest.raises(lin.LinError, match=r"board 49 \(open room\): the file ends before the "):
        lin.parse(full[:cut])


def test_lin_garbage_bytes_are_not_a_lin_file() -> None:
    garbage = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 2
    with pytest.raises(lin.LinError, match="not a LIN file"):
        lin.parse(lin.decode(garbage))
    f = lin.parse(lin.decode(garbage), lenient=True)
    assert f.boards == () and "not a LIN file" in f.problems[0].message
    with pytest.raises(lin.LinError, match="line 1: not a LIN file: no key"):
        lin.parse("Hello, world")
    assert lin.parse("").boards == () and lin.parse(" \r\n").boards == ()


def test_lin_illegal_call_names_board_room_call_and_line() -> None:
    full = text("usbf-2010-sf-segment4.lin")
    # Open room, board 47: South deals, P 1D P 1S ... East's 1S becomes 1C.
    at = full.index("mb|1S|", full.index("qx|o47|"))
    bad = full[:at] + "mb|1C|" + full[at + 6 :]
    line = full.count("\n", 0, at) + 1
    with pytest.raises(lin.LinError) as info:
        lin.parse(bad)
    assert str(info.value) == (
        f"line {line}: board 47 (open room): call 4 (E): 1C is not higher than 1D"
    )
    f = lin.parse(bad, lenient=True)
    assert len(f.boards) == 29 and f.board(47, "open") is None
    assert [p.message for p in f.problems] == [str(info.value).split(": ", 1)[1]]


def test_lin_card_not_in_the_hand_names_board_trick_and_card() -> None:
    full = text("usbf-2010-sf-segment4.lin")
    # Open room, board 46: South leads the C2; make it the SA, which East holds.
    at = full.index("pc|c2|", full.index("qx|o46|"))
    bad = full[:at] + "pc|sA|" + full[at + 6 :]
    with pytest.raises(
        lin.LinError,
        match=r"board 46 \(open room\): trick 1, card 1 \(S\): SA is not in South's hand "
        r"\(it is East's\)",
    ):
        lin.parse(bad)
    f = lin.parse(bad, lenient=True)
    assert f.board(46, "open") is None and f.board(46, "closed") is not None


def test_lin_board_number_missing_names_the_board_by_its_line() -> None:
    with pytest.raises(
        lin.LinError,
        match=r"line 2: the board starting at line 2: no board number "
        r"\(neither qx\|o12\| nor ah\|Board 12\|\)",
    ):
        lin.parse(f"pn|a,b,c,d|\nmd|1{HANDS}|mb|p|mb|p|mb|p|mb|p|")


def test_lin_rs_disagreeing_with_the_play_is_a_problem_naming_board_and_room() -> None:
    full = text("usbf-2010-sf-segment4.lin")
    bad = full.replace("rs|4HE=,4HE=,3NW+1,", "rs|4HE=,4HE-1,3NW+1,", 1)
    with pytest.raises(
        lin.LinError, match=r"board 46 \(closed room\): rs\| gives 4HE-1, the auction and play"
    ):
        lin.parse(bad)
    f = lin.parse(bad, lenient=True)
    assert len(f.boards) == 30  # kept: the board is whole, the two records disagree
    assert [p.message for p in f.problems] == [
        "board 46 (closed room): rs| gives 4HE-1, the auction and play give 4HE="
    ]
    odd = full.replace("rs|4HE=,", "rs|A+,", 1)
    assert "rs| 'A+' is not a result" in lin.parse(odd, lenient=True).problems[0].message


@pytest.mark.parametrize(
    ("lin_text", "problem"),
    [
        (f"qx|x1|md|1{HANDS}|", r"board starting at line 1: qx\|x1\| is not o or c"),
        (f"qx|o1|md|5{HANDS}|", r"board 1 \(open room\): md\|: the dealer is 1 to 4"),
        ("qx|o1|md|1SAKQ,SA|", r"md\|: a card is in two hands: SA"),
        ("qx|o1|md|1AKQ|", r"md\|: the hand of South: the rank 'A' comes before a suit"),
        (f"qx|o1|md|1{HANDS}|sv|q|", r"sv\|q\| is not a vulnerability"),
        (f"qx|o1|md|1{HANDS}|mb|1S|mb|p|mb|p|mb|p|mc|14|", r"mc\|14\| is not a claim"),
        (
            f"qx|o1|md|1{HANDS}|mb|1S|mb|p|mb|p|mb|p|pc|D3|pc|DA|pc|D4|pc|D5|mc|0|",
            r"a claim of 0 tricks .* \(possible: 1 to 13\)",
        ),
        (f"qx|o1|md|1{HANDS}|mb|1S|pc|HA|", "a card played before the end of the auction"),
        (f"qx|o1|md|1{HANDS}|mb|p|mb|p|mb|p|mb|p|pc|HA|", "on a passed-out board"),
        (f"qx|o1|md|1{HANDS}|mb|1S|mb|p|mb|p|mb|p|pc|HA|mb|p|", "after the play began"),
        (f"qx|o1|md|1{HANDS}|mb|1S|mb|p|mb|p|mb|p|pc|Z9|", r"trick 1, card 1: not a card"),
        (f"qx|o1|ah|Board 2|md|1{HANDS}|", r"qx\| says board 1, ah\| says board 2"),
        (f"qx|o1|md|1{HANDS}|qx|o1|md|1{HANDS}|", r"board 1 \(open room\) again"),
        (f"vg|E,S,I,x,2,A,0,B,0|qx|o1|md|1{HANDS}|", r"vg\|: the first board 'x'"),
        (f"vg|E,S,I,1,2,A,1o,B,0|qx|o1|md|1{HANDS}|", r"carry-over of A, '1o'"),
        (f"qx|o1|md|1{HANDS}|m-|x|", r"'m-' is not a LIN key"),
        (f"qx|o{'9' * 5000}|md|1{HANDS}|", r"is not o or c and a board number"),
    ],
)
def test_lin_bad_values_name_the_board_and_the_problem(lin_text: str, problem: str) -> None:
    with pytest.raises(lin.LinError, match=problem):
        lin.parse(lin_text)
    f = lin.parse(lin_text, lenient=True)
    assert any(re.search(problem, p.message) for p in f.problems), f.problems


def test_lin_parse_result_reads_rs_entries() -> None:
    assert lin.parse_result("4SWx-4") == BoardResult(Contract.parse("4SX"), W, 6)
    assert lin.parse_result("3NTN=") == BoardResult(Contract.parse("3NT"), N, 9)
    assert lin.parse_result("1cexx+6") == BoardResult(Contract.parse("1CXX"), E, 13)
    assert lin.parse_result("PASS") == BoardResult.passed_out()
    assert lin.parse_result(" ") is None
    for bad in ("4S", "4SQ=", "7NN+1", "1CN-8", "A+"):
        with pytest.raises(lin.LinError, match="is not a result"):
            lin.parse_result(bad)


def test_lin_decode_reads_utf8_and_czech_windows_1250() -> None:
    assert lin.decode("pn|Dvořák,Müller|".encode()) == "pn|Dvořák,Müller|"
    assert lin.decode("pn|Dvořák|".encode("cp1250")) == "pn|Dvořák|"
    with pytest.raises(lin.LinError, match="not utf-8"):
        lin.decode(b"pn|\xff|", "utf-8")
    b = lin.parse(lin.decode(f"pn|Šimek,,Dvořák,|qx|o1|md|1{HANDS}|".encode("cp1250"))).boards[0]
    assert b.players == {S: "Šimek", N: "Dvořák"}


# --- any input --------------------------------------------------------------------------------

TOKENS = (
    "|",
    "||",
    "vg|",
    "rs|",
    "pn|",
    "qx|",
    "md|",
    "sv|",
    "ah|",
    "mb|",
    "an|",
    "pc|",
    "mc|",
    "pg||",
    "nt|",
    "o1",
    "c12",
    "Board 3",
    "1",
    "4",
    "0",
    "13",
    "99",
    "9" * 5000,
    "SAKQJHT98D765C432",
    HANDS,
    ",",
    "p",
    "d",
    "r",
    "1S",
    "3N!",
    "7n",
    "SA",
    "h10",
    "c2",
    "4HE=",
    "PASS",
    "b",
    "\r\n",
    "\n",
    " ",
    "\ufeff",
    "٣",
    "ß",
)
REAL = tuple(text(name) for name in FILES)


def _check_any(lin_text: str) -> None:
    """Strict mode reads or raises LinError; lenient mode never raises and has problems
    exactly when strict mode raised."""
    try:
        strict: lin.LinFile | None = lin.parse(lin_text)
    except lin.LinError as exc:
        assert str(exc)
        strict = None
    lenient = lin.parse(lin_text, lenient=True)
    if strict is None:
        assert lenient.problems
    else:
        assert lenient == strict


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=40))
def test_lin_parse_of_any_text_raises_only_lin_error(pieces: list[str]) -> None:
    _check_any("".join(pieces))


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, len(REAL) - 1), st.randoms(use_true_random=False))
def test_lin_parse_of_an_edited_real_file_raises_only_lin_error(
    which: int, rnd: random.Random
) -> None:
    source = REAL[which]
    edited = source
    for _ in range(rnd.randint(1, 3)):
        at = rnd.randrange(len(edited) + 1)
        size = rnd.randint(0, 12)
        piece = rnd.choice([*TOKENS, "", source[at : at + size]])
        edited = edited[:at] + piece + edited[at + size * rnd.randint(0, 1) :]
    _check_any(edited)
