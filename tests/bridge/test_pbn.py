"""PBN 2.1 reader and writer: round trips, the export rules, inheritance, malformed files."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeko.bridge import pbn
from bridgeko.bridge.cards import FULL_PACK, Deal, Hand, Seat, Strain, Vulnerability
from bridgeko.bridge.contract import PASSED_OUT, Contract, Doubling
from bridgeko.bridge.ddtable import DDTable, Par, ParContract
from bridgeko.bridge.result import BoardResult
from tests.sizes import examples

DATA = Path(__file__).parent / "data"
DEAL = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


# --- strategies ---------------------------------------------------------------------------------

deals = st.permutations(FULL_PACK).map(
    lambda cards: Deal(*(Hand.of(cards[13 * i : 13 * i + 13]) for i in range(4)))
)
contracts = st.builds(
    Contract,
    st.integers(1, 7),
    st.sampled_from(list(Strain)),
    st.sampled_from(list(Doubling)),
)
results = st.one_of(
    st.none(),
    st.just(BoardResult.passed_out()),
    st.builds(BoardResult, contracts, st.sampled_from(list(Seat)), st.integers(0, 13)),
)
dd_tables = st.lists(st.integers(0, 13), min_size=20, max_size=20).map(
    lambda xs: DDTable(
        {(s, t): xs[4 * i + j] for j, s in enumerate(Seat) for i, t in enumerate(Strain)}
    )
)
pars = st.builds(
    Par,
    st.integers(-7600, 7600).map(lambda x: x * 10),
    st.lists(
        st.builds(
            ParContract,
            contracts,
            st.sampled_from([(Seat.NORTH,), (Seat.NORTH, Seat.SOUTH), (Seat.EAST, Seat.WEST)]),
            st.integers(-3, 3),
        ),
        max_size=2,
    ).map(tuple),
)
names = st.text(
    st.characters(min_codepoint=32, max_codepoint=0x17F, exclude_characters="\x7f"),
    min_size=1,
    max_size=20,
).filter(lambda s: s.strip() not in ("", "?", "#") and not s.startswith("##"))


@settings(max_examples=examples(150), deadline=None)
@given(
    board=st.integers(1, 64),
    deal=deals,
    result=results,
    room=st.sampled_from([None, "Open", "Closed"]),
    dd=st.one_of(st.none(), dd_tables),
    par=st.one_of(st.none(), pars),
    event=names,
    west=names,
)
def test_round_trip_dumps_then_parse_gives_the_same_values(
    board: int,
    deal: Deal,
    result: BoardResult | None,
    room: str | None,
    dd: DDTable | None,
    par: Par | None,
    event: str,
    west: str,
) -> None:
    game = pbn.game_for_board(
        board,
        deal,
        event=event,
        room=room,
        result=result,
        dd=dd,
        par=par,
        players={Seat.WEST: west},
    )
    for export in (True, False):
        [back] = pbn.parse(pbn.dumps([game, game], export=export)).games[:1]
        assert back.board == board
        assert back.deal == deal
        assert back.result == result
        assert back.room == room
        assert back.dd_table == dd
        assert back.par == par
        assert back.event == event.strip()
        assert back.players == {Seat.WEST: west.strip()}


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 64), deals, results, results),
        min_size=1,
        max_size=4,
        unique_by=lambda x: x[0],
    )
)
def test_both_rooms_of_each_board_round_trip(
    items: list[tuple[int, Deal, BoardResult | None, BoardResult | None]],
) -> None:
    games = [
        g
        for board, deal, open_res, closed_res in items
        for g in pbn.games_for_board(board, deal, open_result=open_res, closed_result=closed_res)
    ]
    by_board = pbn.boards(pbn.parse(pbn.dumps(games)))
    assert set(by_board) == {b for b, *_ in items}
    for board, deal, open_res, closed_res in items:
        assert by_board[board]["Open"].result == open_res
        assert by_board[board]["Closed"].result == closed_res
        assert by_board[board]["Open"].deal == by_board[board]["Closed"].deal == deal


# --- export format ------------------------------------------------------------------------------

EXPECTED_BOARD_6 = (
    "% PBN 2.1\r\n"
    "% EXPORT\r\n"
    '[Event "Bridge Open K.O."]\r\n'
    '[Site "Praha"]\r\n'
    '[Date "1999.03.20"]\r\n'
    '[Board "6"]\r\n'
    '[West "Novak, J."]\r\n'
    '[North "?"]\r\n'
    '[East "?"]\r\n'
    '[South "?"]\r\n'
    '[Dealer "E"]\r\n'
    '[Vulnerable "EW"]\r\n'
    '[Deal "E:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432"]\r\n'
    '[Scoring "IMP"]\r\n'
    '[Declarer "W"]\r\n'
    '[Contract "4SXX"]\r\n'
    '[Result "11"]\r\n'
    '[OptimumScore "NS -620"]\r\n'
    '[ParContract "EW 4S"]\r\n'
    '[Room "Open"]\r\n'
    '[Score "NS -1480"]\r\n'
    '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\r\n'
    "N NT  3\r\nN  S  2\r\nN  H  4\r\nN  D  5\r\nN  C  6\r\n"
    "S NT  3\r\nS  S  2\r\nS  H  4\r\nS  D  5\r\nS  C  6\r\n"
    "E NT 10\r\nE  S 11\r\nE  H  9\r\nE  D  8\r\nE  C  7\r\n"
    "W NT 10\r\nW  S 11\r\nW  H  9\r\nW  D  8\r\nW  C  7\r\n"
)


def _dd_fixture() -> DDTable:
    ns = {
        Strain.NOTRUMP: 3,
        Strain.SPADES: 2,
        Strain.HEARTS: 4,
        Strain.DIAMONDS: 5,
        Strain.CLUBS: 6,
    }
    return DDTable({(s, t): ns[t] if s.side == "NS" else 13 - ns[t] for s in Seat for t in Strain})


def test_export_text_of_one_board_is_exactly_as_the_standard_orders_it() -> None:
    # Board 6: East deals, East-West vulnerable. 4SXX by West making 11, vulnerable:
    # 4 x 30 x 4 = 480, game 500, redoubled insult 100, one redoubled overtrick 400 = 1480 EW.
    game = pbn.game_for_board(
        6,
        DEAL,
        event="Bridge Open K.O.",
        site="Praha",
        date="1999.03.20",
        room="Open",
        result=BoardResult(Contract.parse("4SXX"), Seat.WEST, 11),
        dd=_dd_fixture(),
        par=Par(-620, (ParContract(Contract.parse("4S"), (Seat.EAST, Seat.WEST)),)),
        players={Seat.WEST: "Novak, J."},
    )
    assert pbn.dumps([game]) == EXPECTED_BOARD_6


def test_export_uses_crlf_and_one_empty_line_between_games() -> None:
    text = pbn.dumps(pbn.games_for_board(1, DEAL))
    assert "\n" not in text.replace("\r\n", "")
    lines = text.split("\r\n")
    assert lines[:2] == ["% PBN 2.1", "% EXPORT"]
    assert lines.count("") == 2  # one between the games, one after the final line end
    assert lines[lines.index("") + 1] == '[Event "?"]'


def test_export_orders_the_mandatory_tags_then_the_others_by_name() -> None:
    text = (
        '[Room "Closed"] [Result "9"] [Contract "3N"] [Declarer "N"] [Zebra "z"]\n'
        '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
        '[Vulnerable "Both"] [Dealer "W"] [Board "4"] [Annotator "A"] [Event "E"]\n'
    )
    out = pbn.dumps(pbn.parse(text).games)
    names = [ln[1 : ln.index(" ")] for ln in out.split("\r\n") if ln.startswith("[")]
    assert names == [
        "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
        "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
        "Annotator", "Room", "Zebra",
    ]  # fmt: skip
    assert '[Vulnerable "All"]' in out
    assert '[Contract "3NT"]' in out
    # In export format the deal starts with the dealer (West on board 4).
    assert '[Deal "W:432.AKQJ.T98.765 AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98"]' in out


@pytest.mark.parametrize(
    ("contract", "written"),
    [
        ("4S", "4S"),
        ("4S*", "4SX"),
        ("4sx", "4SX"),
        ("6NTXX", "6NTXX"),
        ("3n**", "3NTXX"),
        ("7Cr", "7CXX"),
    ],
)
def test_export_writes_doubles_as_x_and_xx(contract: str, written: str) -> None:
    game = pbn.parse(f'[Contract "{contract}"] [Declarer "S"] [Result "7"]').games[0]
    assert f'[Contract "{written}"]' in pbn.dumps([game])


def test_export_passed_out_board_has_empty_declarer_and_result() -> None:
    game = pbn.game_for_board(3, DEAL, result=BoardResult.passed_out())
    lines = pbn.dumps([game]).split("\r\n")
    assert '[Declarer ""]' in lines
    assert '[Contract "Pass"]' in lines
    assert '[Result ""]' in lines
    assert '[Score "NS 0"]' in lines
    assert pbn.parse(pbn.dumps([game])).games[0].result == BoardResult.passed_out()
    # A read game with a "Pass" contract and "?" elsewhere is normalised the same way.
    read = pbn.parse('[Contract "AP"] [Declarer "?"] [Result "?"]').games[0]
    assert '[Declarer ""]' in pbn.dumps([read])


def test_export_result_is_the_tricks_of_declarer() -> None:
    game = pbn.parse('[Contract "2H"] [Declarer "E"] [Result "NS 5"]').games[0]
    assert game.result == BoardResult(Contract.parse("2H"), Seat.EAST, 8)
    assert '[Result "8"]' in pbn.dumps([game])


def test_unknown_result_is_question_mark_in_every_mandatory_tag() -> None:
    out = pbn.dumps([pbn.game_for_board(1, DEAL)])
    for name in (
        "Site",
        "Date",
        "West",
        "North",
        "East",
        "South",
        "Declarer",
        "Contract",
        "Result",
    ):
        assert f'[{name} "?"]' in out


def test_game_for_board_takes_dealer_and_vulnerability_from_the_board_number() -> None:
    # Boards 1..16 dealer and vulnerability as printed on a board tray.
    table = [
        "N None",
        "E NS",
        "S EW",
        "W All",
        "N NS",
        "E EW",
        "S All",
        "W None",
        "N EW",
        "E All",
        "S None",
        "W NS",
        "N All",
        "E None",
        "S NS",
        "W EW",
    ]
    for number, row in enumerate(table * 2, 1):
        g = pbn.game_for_board(number, DEAL)
        assert f"{g['Dealer']} {g['Vulnerable']}" == row
        assert g["Deal"].startswith(row[0] + ":")


def test_values_with_quotes_and_backslashes_survive() -> None:
    for value in ['a "quoted" name', "back\\slash", "ends with \\", '\\"', "\\\\", "a # b"]:
        game = pbn.game_for_board(1, DEAL, event=value)
        assert pbn.parse(pbn.dumps([game])).games[0]["Event"] == value


# --- reading: import format ---------------------------------------------------------------------


def test_sample_file_with_comments_inheritance_sections_and_both_rooms() -> None:
    f = pbn.parse((DATA / "sample_teams.pbn").read_text(encoding="utf-8"))
    assert f.problems == ()
    assert f.version == "2.1"
    assert f.comments and "does not end anything" in f.comments[0]
    open1, closed1, open2 = f.games
    assert [g.line for g in f.games] == [7, 28, 42]
    # "##" values apply to all later games; "#" takes the previous game's value.
    assert [g.event for g in f.games] == ["Bridge Open K.O. 1999"] * 3
    assert [g.site for g in f.games] == ["Praha", "Praha", "Brno"]
    assert [g.date for g in f.games] == ["1999.03.20"] * 3
    assert closed1.players == {
        Seat.WEST: "Horak, L.",
        Seat.NORTH: "Svoboda, P.",
        Seat.EAST: "Dvorak, K.",
        Seat.SOUTH: "Cerny, M.; Novy, O.",
    }
    assert closed1.scoring == "IMP" and open2.scoring is None
    assert open1.result == BoardResult(Contract.parse("3NT"), Seat.SOUTH, 10)
    assert closed1.result == BoardResult(Contract.parse("4HX"), Seat.EAST, 8)
    assert closed1.vulnerability is Vulnerability.NONE
    assert open2.result == BoardResult(PASSED_OUT)
    assert open1.deal == closed1.deal == DEAL
    assert open1.section("Auction") == (("1C", "Pass", "1D", "Pass"), ("1NT", "Pass", "3NT", "AP"))
    assert open1.section("Play")[-1] == ("*",)
    assert open1.notes == {1: "could be short"}
    assert open1.tag("Result") is not None
    assert open1.tag("Result").comments == ("; one overtrick",)  # type: ignore[union-attr]
    assert open2.par == Par(
        -100, (ParContract(Contract.parse("4SX"), (Seat.NORTH, Seat.SOUTH), -1),)
    )
    dd = open2.dd_table
    assert dd is not None
    assert (dd[(Seat.WEST, Strain.HEARTS)], dd[(Seat.SOUTH, Strain.NOTRUMP)]) == (7, 7)
    grouped = pbn.boards(f)
    assert sorted(grouped) == [1, 2]
    assert sorted(grouped[1]) == ["Closed", "Open"]


def test_sample_file_survives_export_and_reimport() -> None:
    f = pbn.parse((DATA / "sample_teams.pbn").read_text(encoding="utf-8"))
    again = pbn.parse(pbn.dumps(f.games))
    assert again.export
    for a, b in zip(f.games, again.games, strict=True):
        assert (a.board, a.deal, a.result, a.room, a.dd_table, a.par, a.players, a.event) == (
            b.board,
            b.deal,
            b.result,
            b.room,
            b.dd_table,
            b.par,
            b.players,
            b.event,
        )
        assert a.section("Auction") == b.section("Auction")
        assert a.notes == b.notes
    assert "#" not in "".join(t.value for g in again.games for t in g.tags)


def test_inheritance_chains_through_several_games() -> None:
    text = (
        '[Event "Cup"] [Board "1"]\n\n[Event "#"] [Board "2"]\n\n'
        '[Board "3"]\n\n[Event "#"] [Board "4"]\n\n[Event "Final"]\n\n[Event "#"]\n'
    )
    assert [g.get("Event") for g in pbn.parse(text).games] == [
        "Cup",
        "Cup",
        None,
        "Cup",
        "Final",
        "Final",
    ]


def test_double_hash_sets_a_value_for_all_later_games_until_redefined() -> None:
    text = (
        '[Date "##1999.03.20"] [Board "1"]\n\n[Board "2"]\n\n'
        '[Date "1999.03.21"] [Board "3"]\n\n[Board "4"]\n\n[Date "#"] [Board "5"]\n'
    )
    dates = [g.date for g in pbn.parse(text).games]
    assert dates == ["1999.03.20", "1999.03.20", "1999.03.21", "1999.03.21", "1999.03.21"]


@pytest.mark.parametrize(
    ("tag", "value"),
    [
        ("Dealer", "N"),
        ("Vulnerable", "NS"),
        ("Deal", DEAL.to_pbn()),
        ("Declarer", "S"),
        ("Contract", "3NT"),
        ("Auction", "N"),
        ("Play", "W"),
        ("Note", "1:x"),
    ],
)
def test_inheritance_is_forbidden_for_the_deal_and_contract_tags(tag: str, value: str) -> None:
    with pytest.raises(pbn.PbnError, match=f"line 3: tag {tag} may not inherit"):
        pbn.parse(f'[{tag} "{value}"]\n\n[{tag} "#"]\n')
    with pytest.raises(pbn.PbnError, match=f"tag {tag} may not inherit"):
        pbn.parse(f'[{tag} "##N"]\n')


def test_hash_in_first_game_is_an_error_strict_and_empty_lenient() -> None:
    with pytest.raises(pbn.PbnError, match="line 1: tag Site has the value '#'"):
        pbn.parse('[Site "#"]\n')
    f = pbn.parse('[Site "#"] [Board "1"]\n', lenient=True)
    assert f.games[0].get("Site") == ""
    assert "no earlier value" in f.problems[0].message


def test_repeated_tag_is_ignored_and_reported() -> None:
    f = pbn.parse('[Board "1"]\n[Board "2"]\n[Note "1:a"]\n[Note "2:b"]\n')
    assert f.games[0].board == 1
    assert f.games[0].notes == {1: "a", 2: "b"}
    assert f.problems == (pbn.Problem(2, "tag Board repeated in one game; the repeat is ignored"),)


def test_tag_pair_may_span_lines_and_share_a_line_with_others() -> None:
    f = pbn.parse('[Board\n  "7"\n]   [Dealer "S"][Vulnerable\t"All"]\n')
    g = f.games[0]
    assert (g.board, g.dealer, g.vulnerability) == (7, Seat.SOUTH, Vulnerability.ALL)


def test_crlf_cr_and_lf_files_read_alike() -> None:
    lf = '[Board "1"]\n[Dealer "N"]\n\n[Board "2"]\n'
    for text in (lf, lf.replace("\n", "\r\n"), lf.replace("\n", "\r")):
        assert [g.board for g in pbn.parse(text).games] == [1, 2]


def test_semi_empty_line_of_spaces_and_tabs_ends_a_game() -> None:
    assert len(pbn.parse('[Board "1"]\n \t \n[Board "2"]\n').games) == 2


def test_percent_lines_are_ignored_only_in_the_first_column() -> None:
    f = pbn.parse('%[Board "9"]\n[Event "50% off"]\n% EXPORT\n[Board "1"]\n')
    assert f.export
    assert f.games[0].board == 1 and f.games[0].event == "50% off"


def test_double_dummy_tricks_tag_is_read_when_there_is_no_table() -> None:
    # Order N, S, E, W x NT, S, H, D, C; digits a-d are 10-13 (Bridge Composer's tag).
    g = pbn.parse('[DoubleDummyTricks "9a8789a87843465434d5"]').games[0]
    rows = (
        "N NT 9 N S 10 N H 8 N D 7 N C 8 S NT 9 S S 10 S H 8 S D 7 S C 8 "
        "E NT 4 E S 3 E H 4 E D 6 E C 5 W NT 4 W S 3 W H 4 W D 13 W C 5"
    )
    table = pbn.parse(f'[OptimumResultTable "Declarer;Denomination;Result"]\n{rows}\n').games[0]
    assert g.dd_table is not None
    assert g.dd_table == table.dd_table
    assert g.dd_table[(Seat.WEST, Strain.DIAMONDS)] == 13


# --- malformed files ----------------------------------------------------------------------------

MALFORMED = [
    ("bad_unterminated_quote.pbn", 4, "unterminated quote in the value of tag Site"),
    ("bad_deal_three_suits.pbn", 4, "expected 4 suits separated by dots"),
    ("bad_deal_14_cards.pbn", 4, "a hand has at most 13 cards, this one has 14"),
    ("bad_deal_duplicated_card.pbn", 4, "a card is in two hands: CA"),
    ("bad_vulnerability.pbn", 4, "unknown vulnerability 'Nobody'"),
    ("bad_contract_level.pbn", 7, "not a contract: '8NT' (the level must be 1 to 7)"),
    ("bad_result_over_13.pbn", 8, "Result '14': tricks must be 0 to 13"),
    ("bad_missing_bracket.pbn", 2, "tag Board: missing closing bracket ']'"),
    ("bad_inherit_in_first_game.pbn", 2, "no earlier game gives a value for Event"),
    ("bad_inherit_deal.pbn", 9, "tag Deal may not inherit its value with '#'"),
    ("bad_board_zero.pbn", 2, "the Board tag must be a positive whole number, not '0'"),
    ("bad_dealer.pbn", 3, "Dealer: expected N, E, S or W, not 'X'"),
    ("bad_room.pbn", 3, "the Room tag is Open or Closed, not 'Lounge'"),
    ("bad_text_before_tag.pbn", 1, "text 'Board' before the first tag"),
    ("bad_unclosed_comment.pbn", 2, "a comment opened with '{' is never closed"),
    ("bad_optimum_table_short.pbn", 6, "20 rows needed (4 declarers x 5 strains), 2 found"),
    ("bad_passed_out_with_result.pbn", 8, "a passed-out board has no Result"),
    (
        "bad_contract_denomination_of_a_whole_deal.pbn",
        4,
        "bad Contract 'NT': a denomination alone is the contract of an end position",
    ),
]


def test_every_malformed_file_is_listed() -> None:
    assert sorted(p.name for p in DATA.glob("bad_*.pbn")) == sorted(m[0] for m in MALFORMED)


@pytest.mark.parametrize(("name", "line", "message"), MALFORMED)
def test_malformed_file_gives_a_clear_error_naming_the_line(
    name: str, line: int, message: str
) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    with pytest.raises(pbn.PbnError) as info:
        pbn.parse(text)
    assert info.value.line == line
    assert message in str(info.value)
    assert str(info.value).startswith(f"line {line}: ")
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(("name", "line", "message"), MALFORMED)
def test_lenient_mode_skips_the_bad_game_keeps_the_good_ones_and_says_so(
    name: str, line: int, message: str
) -> None:
    good = '[Event "Cup"]\n[Board "5"]\n[Dealer "N"]\n'
    bad = (DATA / name).read_text(encoding="utf-8")
    text = good + "\n" + bad + "\n" + good.replace('"5"', '"6"')
    f = pbn.parse(text, lenient=True)
    offset = good.count("\n") + 1
    if name == "bad_inherit_in_first_game.pbn":  # '#' after a good game inherits its value
        assert f.problems == ()
        assert [g.event for g in f.games] == ["Cup", "Cup", "Cup"]
        return
    skipped = [p for p in f.problems if "skipped the game" in p.message]
    assert len(skipped) == 1
    assert skipped[0].line == line + offset
    assert message in skipped[0].message
    boards = [g.board for g in f.games]
    assert boards[0] == 5
    if name != "bad_unclosed_comment.pbn":  # an unclosed comment swallows the rest of the file
        assert boards[-1] == 6


# --- robustness ---------------------------------------------------------------------------------


@settings(max_examples=examples(400), deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_gives_games_or_a_pbn_error(text: str) -> None:
    try:
        f = pbn.parse(text)
    except pbn.PbnError as exc:
        assert exc.line >= 0
    else:
        assert isinstance(f, pbn.PbnFile)
    assert isinstance(pbn.parse(text, lenient=True), pbn.PbnFile)


pbnish = st.lists(
    st.sampled_from(
        [
            "[",
            "]",
            '"',
            "\\",
            "{",
            "}",
            ";",
            "%",
            "#",
            "##",
            "\n",
            "\n\n",
            " ",
            "\t",
            "\r",
            "Board",
            "Deal",
            "Dealer",
            "Vulnerable",
            "Contract",
            "Declarer",
            "Result",
            "Room",
            "Event",
            "Note",
            "Auction",
            "OptimumResultTable",
            "OptimumScore",
            "ParContract",
            "DoubleDummyTricks",
            "Score",
            "Open",
            "N:",
            "AKQJ.T98.765.432",
            "-",
            "4SX",
            "NS",
            "Pass",
            "13",
            "14",
            "0",
            "1",
            "N",
            "X",
            "?",
            "3NT",
            "²",
            "NT",
            "9a8",
            '"#"',
            '"##x"',
            '[Board "1"]',
            '[Dealer "N"]',
            '[Contract "Pass"]',
            '[Declarer "N"]',
            '[Result "9"]',
            '[Contract "4S"]',
            '[Note "1:x"]',
            '[Auction "N"]',
            '[Play "E"]',
            '[Event "#"]',
            '[Event "###"]',
            '[Site "##"]',
            '\\"',
            "{c}",
            "; c\n",
        ]
    ),
    max_size=60,
).map("".join)


def _values(g: pbn.PbnGame) -> tuple[object, ...]:
    return (
        g.board,
        g.deal,
        g.result,
        g.room,
        g.dealer,
        g.vulnerability,
        g.dd_table,
        g.par,
        g.event,
        g.players,
        g.notes,
    )


@settings(max_examples=examples(600), deadline=None)
@given(pbnish)
def test_pbn_like_garbage_gives_games_or_a_pbn_error_and_what_is_read_writes_back(
    text: str,
) -> None:
    for lenient in (False, True):
        try:
            f = pbn.parse(text, lenient=lenient)
        except pbn.PbnError:
            assert not lenient
            continue
        for export in (True, False):
            again = pbn.parse(pbn.dumps(f.games, export=export)).games
            assert [_values(g) for g in again] == [_values(g) for g in f.games]


def test_boards_rejects_two_games_for_one_room_and_different_deals() -> None:
    a, b = pbn.games_for_board(1, DEAL)
    with pytest.raises(pbn.PbnError, match="board 1 has two games for room 'Open'"):
        pbn.boards([a, a])
    other = Deal.from_pbn("N:T98.765.432.AKQJ AKQJ.T98.765.432 765.432.AKQJ.T98 432.AKQJ.T98.765")
    with pytest.raises(pbn.PbnError, match="board 1: the rooms have different deals"):
        pbn.boards([a, pbn.game_for_board(1, other, room="Closed")])
    assert pbn.boards([a, b])[1] == {"Open": a, "Closed": b}


def test_game_for_board_rejects_an_unknown_room() -> None:
    with pytest.raises(pbn.PbnError, match="the room is Open or Closed, not 'Lounge'"):
        pbn.game_for_board(1, DEAL, room="Lounge")


def test_value_starting_with_hash_is_not_written_as_inheritance() -> None:
    game = pbn.game_for_board(1, DEAL, event="#1 seed")
    text = pbn.dumps([pbn.game_for_board(2, DEAL), game])
    assert pbn.parse(text).games[1].event == "#1 seed"


def test_big_deal_style_export_file_with_a_generator_tag_first() -> None:
    text = (
        "% PBN 2.1\r\n% EXPORT\r\n%\r\n"
        '[Generator "Big Deal version 2.0"]\r\n[Event "?"]\r\n[Site "?"]\r\n[Date "?"]\r\n'
        '[Board "2"]\r\n[West "?"]\r\n[North "?"]\r\n[East "?"]\r\n[South "?"]\r\n'
        '[Dealer "E"]\r\n[Vulnerable "NS"]\r\n'
        f'[Deal "{DEAL.to_pbn()}"]\r\n'
        '[Scoring "?"]\r\n[Declarer "?"]\r\n[Contract "?"]\r\n[Result "?"]\r\n\r\n'
    )
    f = pbn.parse(text)
    assert (f.version, f.export, f.problems) == ("2.1", True, ())
    [g] = f.games
    assert (g.board, g.dealer, g.vulnerability, g.deal) == (2, Seat.EAST, Vulnerability.NS, DEAL)
    assert (g.event, g.result, g.contract, g.get("Generator")) == (
        None,
        None,
        None,
        "Big Deal version 2.0",
    )
    assert '[Deal "E:' in pbn.dumps([g])


def test_write_board_gives_both_rooms_in_export_format() -> None:
    text = pbn.write_board(
        9,
        DEAL,
        open_result=BoardResult(Contract.parse("4S"), Seat.NORTH, 10),
        closed_result=BoardResult(Contract.parse("5CX"), Seat.EAST, 9),
        event="K.O.",
    )
    open_game, closed_game = pbn.parse(text).games
    assert (open_game.room, closed_game.room) == ("Open", "Closed")
    # Board 9: North deals, East-West vulnerable.
    assert open_game.score == 420  # 4S= not vulnerable
    assert closed_game.score == 500  # 5CX-2 vulnerable: 200 + 300 to North-South


# --- the fast export and read paths give what the general ones give ---------------------------


def _reference_write_game(game: pbn.PbnGame) -> list[str]:
    """``write_game`` as it was before the fast paths: every mandatory tag respelt through the
    general ``_export_value`` (which parses the Deal and respells it)."""
    by_name = {t.name: t for t in reversed(game.tags)}
    lines: list[str] = []
    for c in game.comments:
        lines.extend(c.split("\n"))
    for name in pbn.MANDATORY_TAGS:
        tag = by_name.get(name, pbn.TagPair(name, "?"))
        lines.extend(pbn._emit(tag, pbn._export_value(game, name)))
    # The other tags: their code did not change (taken from write_game as it is).
    return lines + pbn.write_game(game)[len(lines) :]


def _deal_spellings(deal: Deal, first: Seat, style: str) -> str:
    text = deal.to_pbn(first=first)
    if style == "lower":
        return text.lower()
    if style == "dots":  # an empty hand written as four empty suits
        return text.replace(" -", " ...").replace(":-", ":...")
    if style == "spaces":
        return f" {text.replace(' ', '  ')} "
    if style == "ten":
        return text.replace("T", "10")
    if style == "duplicate":  # a card in two hands
        head, *hands = text.split(" ")
        return " ".join([head, hands[0], *hands[:2]])
    if style == "unsorted":
        return text.replace("AK", "KA")
    return text


partial_deals = st.tuples(deals, st.lists(st.booleans(), min_size=4, max_size=4)).map(
    lambda dk: Deal(
        *(
            h if keep else Hand(frozenset())
            for h, keep in zip(
                (dk[0].north, dk[0].east, dk[0].south, dk[0].west), dk[1], strict=True
            )
        )
    )
)


@settings(max_examples=examples(300), deadline=None)
@given(
    deal=st.one_of(deals, partial_deals),
    first=st.sampled_from(list(Seat)),
    style=st.sampled_from(["plain", "lower", "dots", "spaces", "ten", "duplicate", "unsorted"]),
    dealer=st.sampled_from(["N", "E", "S", "W", "w", "X", "?", "", " S"]),
    vul=st.sampled_from(["None", "NS", "EW", "All", "Both", "love", "x", "?"]),
    contract=st.sampled_from(["?", "", "4S", "3nt", "Pass", "4SX", "8Z", " 2H "]),
    declarer=st.sampled_from(["?", "", "N", "e", "^S", "Q"]),
    made=st.sampled_from(["?", "", "9", "NS 8", "14", "x"]),
)
def test_fast_export_writes_what_the_general_path_writes(
    deal: Deal,
    first: Seat,
    style: str,
    dealer: str,
    vul: str,
    contract: str,
    declarer: str,
    made: str,
) -> None:
    text = _deal_spellings(deal, first, style)
    values = [
        ("Board", "3"),
        ("Dealer", dealer),
        ("Vulnerable", vul),
        ("Deal", text),
        ("Contract", contract),
        ("Declarer", declarer),
        ("Result", made),
        ("Event", "#1"),
    ]
    game = pbn.PbnGame(tuple(pbn.TagPair(n, v) for n, v in values))
    assert pbn.write_game(game) == _reference_write_game(game)
    try:
        expected: object = Deal.from_pbn(text)
    except ValueError as exc:
        expected = str(exc)
    try:
        got: object = pbn._deal_from_text(text)
    except ValueError as exc:
        got = str(exc)
    assert got == expected


@settings(max_examples=examples(150), deadline=None)
@given(deal=st.one_of(deals, partial_deals), first=st.sampled_from(list(Seat)))
def test_fast_deal_text_is_the_deal_to_pbn(deal: Deal, first: Seat) -> None:
    assert pbn._deal_text(deal, first) == deal.to_pbn(first=first)


@settings(max_examples=examples(300), deadline=None)
@given(pbnish)
def test_fast_export_of_any_game_read_is_the_general_path(text: str) -> None:
    for game in pbn.parse(text, lenient=True).games:
        assert pbn.write_game(game) == _reference_write_game(game)


def test_export_of_2000_dealt_boards_is_byte_identical_to_the_writer_before_the_fast_paths() -> (
    None
):
    # The SHA-256 of the text the writer produced before the fast paths (commit 412da8d) for
    # these boards; the fast paths must not change a byte of it, nor of its export after reading.
    from bridgeko.bridge.dealing import deal_set

    dealt = deal_set(bytes(range(32)), "Bridge Open K.O.", "F-1", range(1, 2001))
    games = [
        pbn.game_for_board(b, d, event="Bridge Open K.O.", site="Praha", date="1999.06.04")
        for b, d in dealt.items()
    ]
    text = pbn.dumps(games)
    digest = "e0ae9debb16e572409df00cb714dbc4371d03662f8fd64f4c2b3dbaafae1a888"
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == digest
    assert pbn.dumps(pbn.parse(text).games) == text


def test_sample_file_exports_as_the_general_path_does() -> None:
    games = pbn.parse((DATA / "sample_teams.pbn").read_text(encoding="utf-8")).games
    for game in games:
        assert pbn.write_game(game) == _reference_write_game(game)


# --- encodings and streaming ------------------------------------------------------------------

CZECH_GAME = '[Event "Mistrovství ČR"]\n[Site "Plzeň"]\n[North "Dvořák, Jiří"]\n[Board "1"]\n'


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (CZECH_GAME.encode("utf-8"), CZECH_GAME),
        (b"\xef\xbb\xbf" + CZECH_GAME.encode("utf-8"), CZECH_GAME),
        (CZECH_GAME.encode("cp1250"), CZECH_GAME),
        (b"\xff\xfe" + CZECH_GAME.encode("utf-16-le"), CZECH_GAME),
        (b"\xfe\xff" + CZECH_GAME.encode("utf-16-be"), CZECH_GAME),
        ('[Event "Müller Straße"]\n'.encode("latin-1"), '[Event "Müller Straße"]\n'),
        (b'[Event "plain"]\r\n', '[Event "plain"]\r\n'),
    ],
)
def test_decode_reads_utf8_with_or_without_bom_cp1250_and_latin1(data: bytes, text: str) -> None:
    assert pbn.decode(data) == text
    assert pbn.parse(pbn.decode(data)).games[0].event == pbn.parse(text).games[0].event


def test_decode_with_a_given_encoding_overrides_the_guess() -> None:
    data = "Brève".encode("latin-1")  # the byte of è is č in Windows-1250
    assert pbn.decode(data) == "Brčve"  # the guess prefers the Czech reading
    assert pbn.decode(data, "latin-1") == "Brève"
    assert pbn.decode(b"\xef\xbb\xbfx", "utf-8") == "x"
    with pytest.raises(ValueError, match="not utf-8: invalid start byte at byte 3"):
        pbn.decode("Dvořák".encode("cp1250")[:4], "utf-8")
    with pytest.raises(ValueError, match="unknown encoding 'ebcdic'"):
        pbn.decode(b"", "ebcdic")


def test_czech_names_survive_a_utf8_file() -> None:
    game = pbn.game_for_board(
        1, DEAL, event="Mistrovství ČR", site="Plzeň", players={Seat.NORTH: "Dvořák, Jiří"}
    )
    data = pbn.dumps([game]).encode(pbn.ENCODING)
    again = pbn.parse(pbn.decode(data)).games[0]
    assert (again.event, again.site, again.players) == (
        "Mistrovství ČR",
        "Plzeň",
        {Seat.NORTH: "Dvořák, Jiří"},
    )


@pytest.mark.parametrize("export", [True, False])
def test_iter_dumps_pieces_join_to_dumps(export: bool) -> None:
    games = [
        pbn.PbnGame(()),
        *pbn.games_for_board(1, DEAL),
        pbn.PbnGame(()),
        pbn.PbnGame((), ("{alone}",)),
    ]
    for k in range(len(games) + 1):
        part = games[:k]
        assert "".join(pbn.iter_dumps(part, export=export)) == pbn.dumps(part, export=export)


def _parsed(text: str, lenient: bool) -> object:
    try:
        f = pbn.parse(text, lenient=lenient)
    except pbn.PbnError as exc:
        return str(exc)
    lines = [(g.line, [t.line for t in g.tags]) for g in f.games]
    return f, lines


@settings(max_examples=examples(400), deadline=None)
@given(pbnish)
def test_fast_tag_lexing_reads_what_the_general_lexer_reads(text: str) -> None:
    never = re.compile(r"(?!)")
    for lenient in (False, True):
        fast = _parsed(text, lenient)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(pbn, "_TAG_LINE", never)
            mp.setattr(pbn, "_SIMPLE_TAG", never)
            general = _parsed(text, lenient)
        assert fast == general


def test_fast_tag_lexing_on_the_sample_file() -> None:
    text = (DATA / "sample_teams.pbn").read_text(encoding="utf-8")
    fast = _parsed(text, False)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pbn, "_TAG_LINE", re.compile(r"(?!)"))
        mp.setattr(pbn, "_SIMPLE_TAG", re.compile(r"(?!)"))
        assert _parsed(text, False) == fast
