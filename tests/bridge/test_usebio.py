"""The USEBIO 1.3 writer on a small knockout: two semifinals, a final and a play-off for 3rd
place, with a passed-out board, doubled and redoubled contracts, boards played in one room or in
none, deals, and Czech names.

The official DTD is not in the repository yet (``tests/data/usebio/README.md``): the test that
validates against it runs once ``tests/data/usebio/usebio_v1_3.dtd`` is there, and skips until
then. The validating helper itself is checked on a small DTD, so that a document missing a
required element is shown to fail."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from bridgeko.bridge import usebio
from bridgeko.bridge.cards import Card, Deal, Vulnerability
from bridgeko.bridge.scoring import parse_result
from bridgeko.bridge.usebio import (
    UsebioBoard,
    UsebioError,
    UsebioEvent,
    UsebioMatch,
    UsebioPlayer,
    UsebioTeam,
)

DTD = Path(__file__).parent.parent / "data" / "usebio" / "usebio_v1_3.dtd"

DEAL_1 = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")

TEAMS = (
    UsebioTeam(
        1,
        "Vltava",
        (
            UsebioPlayer("Dvořák Jiří", "1234"),
            UsebioPlayer("Šťastná Růžena", "2345"),
            UsebioPlayer("Žďárský Ondřej"),  # no federation number
            UsebioPlayer("Čermák Ľubomír", "4567"),
        ),
        place=1,
    ),
    UsebioTeam(2, "Labe", (UsebioPlayer("Novák Petr", "11"), UsebioPlayer("Nová Eva", "12")), 2),
    UsebioTeam(3, "Ohře & Úhlava <Plzeň>", (UsebioPlayer("Kříž Tomáš", "21"),), place=3),
    UsebioTeam(4, "Morava", (UsebioPlayer("Hrubý Pavel", "31"),), place=4),
)


def _board(
    number: int, open_room: str | None, closed_room: str | None, **kw: object
) -> UsebioBoard:
    return UsebioBoard(
        number,
        None if open_room is None else parse_result(open_room),
        None if closed_room is None else parse_result(closed_room),
        **kw,  # type: ignore[arg-type]
    )


SEMIFINAL_1 = UsebioMatch(
    "Semifinal",
    1,
    home=1,
    away=4,
    boards=(
        _board(1, "4S N =", "4S N -1", deal=DEAL_1),  # 420 v -50: +10 to the home team
        _board(2, "3NTX E =", "4HX N -2"),  # NS vul: -550 v -500: 2 to the visitors
        _board(3, "Pass", "1NT S +1"),  # passed out v 120: 3 to the visitors
        _board(4, "4S S =", None),  # closed room not played, no IMPs given: does not count
        _board(5, None, None),  # not played at all
        _board(6, "2HXX W =", None, imps=3),  # one room, artificial score: 3 to the home team
    ),
)
SEMIFINAL_2 = UsebioMatch(
    "Semifinal",
    1,
    home=2,
    away=3,
    boards=(_board(1, "3NT S =", "3NT S =", deal=DEAL_1), _board(2, "2S E +1", "3S E -1")),
)
FINAL = UsebioMatch("Final", 2, home=1, away=2, boards=(_board(17, "6NT N =", "3NT N +3"),))
THIRD_PLACE = UsebioMatch(
    "Play-off for 3rd place",
    2,
    home=3,
    away=4,
    boards=(_board(17, "4HX S -3", "4H S -1"),),
    home_extra_imps=Decimal("2.5"),
)
EVENT = UsebioEvent(
    name="Pohár ČBS 2026",
    start=date(2026, 5, 1),
    end=date(2026, 5, 3),
    organiser="Český bridžový svaz",
    venue="Praha, Bridžový klub",
    teams=TEAMS,
    matches=(SEMIFINAL_1, SEMIFINAL_2, FINAL, THIRD_PLACE),
    organiser_id="CZ",
    program_version="0.1.0",
)


@pytest.fixture(scope="module")
def xml() -> bytes:
    return usebio.write(EVENT)


@pytest.fixture(scope="module")
def root(xml: bytes) -> ET.Element:
    return ET.fromstring(xml)


def _lxml_dtd_errors(document: bytes, dtd_text: bytes) -> list[str]:
    """The DTD validation errors of ``document`` (empty when valid), read with lxml."""
    etree = pytest.importorskip("lxml.etree")
    dtd = etree.DTD(io.BytesIO(dtd_text))
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    tree = etree.fromstring(document, parser)
    if dtd.validate(tree):
        return []
    return [str(e) for e in dtd.error_log.filter_from_errors()]


# --- The document -------------------------------------------------------------------------------


def test_declaration_doctype_and_version(xml: bytes, root: ET.Element) -> None:
    lines = xml.splitlines()
    assert lines[0] == b'<?xml version="1.0" encoding="UTF-8"?>'
    assert lines[1] == b'<!DOCTYPE USEBIO SYSTEM "http://www.usebio.org/files/usebio_v1_3.dtd">'
    assert root.tag == "USEBIO" and root.attrib == {"Version": "1.3"}
    assert [child.tag for child in root] == ["CLUB", "EVENT"]
    xml.decode("utf-8")  # UTF-8 throughout


def test_the_same_event_gives_the_same_bytes(xml: bytes) -> None:
    assert usebio.write(EVENT) == xml


def test_event_header(root: ET.Element) -> None:
    assert root.findtext("CLUB/CLUB_NAME") == "Český bridžový svaz"
    assert root.findtext("CLUB/CLUB_ID_NUMBER") == "CZ"
    event = root.find("EVENT")
    assert event is not None and event.attrib == {"EVENT_TYPE": "TEAMS"}
    assert event.findtext("EVENT_DESCRIPTION") == "Pohár ČBS 2026"
    assert event.findtext("DATE") == "2026-05-01"
    assert event.findtext("VENUE") == "Praha, Bridžový klub"
    assert event.findtext("PROGRAM_NAME") == "bridgeko"
    assert event.findtext("PROGRAM_VERSION") == "0.1.0"
    assert event.findtext("BOARD_SCORING_METHOD") == "IMPS"
    assert event.findtext("MATCH_SCORING_METHOD") == "IMPS"
    assert event.findtext("BOARDS_PLAYED") == "10"
    assert [c.tag for c in event][-5:] == ["PARTICIPANTS", "MATCH", "MATCH", "MATCH", "MATCH"]


def test_participants_with_czech_names_numbers_and_places(root: ET.Element) -> None:
    teams = root.findall("EVENT/PARTICIPANTS/TEAM")
    assert [(t.get("TEAM_ID"), t.get("TEAM_NAME"), t.findtext("PLACE")) for t in teams] == [
        ("1", "Vltava", "1"),
        ("2", "Labe", "2"),
        ("3", "Ohře & Úhlava <Plzeň>", "3"),
        ("4", "Morava", "4"),
    ]
    players = [
        (p.findtext("PLAYER_NAME"), p.findtext("NATIONAL_ID_NUMBER"))
        for p in teams[0]
        if p.tag == "PLAYER"
    ]
    assert players == [
        ("Dvořák Jiří", "1234"),
        ("Šťastná Růžena", "2345"),
        ("Žďárský Ondřej", None),  # no number: no NATIONAL_ID_NUMBER element
        ("Čermák Ľubomír", "4567"),
    ]


def test_markup_characters_in_names_are_escaped(xml: bytes) -> None:
    assert 'TEAM_NAME="Ohře &amp; Úhlava &lt;Plzeň&gt;"'.encode() in xml


def test_knocked_out_in_the_same_round_share_a_place() -> None:
    quarterfinal_losers = tuple(replace(t, number=t.number + 4, place=5, place_to=8) for t in TEAMS)
    event = replace(EVENT, teams=(*TEAMS, *quarterfinal_losers))
    teams = ET.fromstring(usebio.write(event)).findall("EVENT/PARTICIPANTS/TEAM")
    places = [t.findtext("PLACE") for t in teams]
    assert places == ["1", "2", "3", "4", "5=", "5=", "5=", "5="]


def test_matches_board_by_board(root: ET.Element) -> None:
    matches = root.findall("EVENT/MATCH")
    fields = ("ROUND_NUMBER", "TEAM", "OPPOSING_TEAM", "TEAM_SCORE", "OPPOSING_TEAM_SCORE")
    assert [tuple(m.findtext(f) for f in fields) for m in matches] == [
        ("1", "1", "4", "13", "5"),  # boards 10 + 3 (artificial) v 2 + 3
        ("1", "2", "3", "0", "5"),  # 400 v 400; -140 v +50 on board 2 (NS vul): 190 = 5
        ("2", "1", "2", "11", "0"),  # 990 v 490: 500 = 11
        ("2", "3", "4", "2.5", "10"),  # 2.5 carried over; -500 v -50: 450 = 10
    ]
    sf1 = matches[0]
    boards = sf1.findall("BOARD")
    assert [b.findtext("BOARD_NUMBER") for b in boards] == ["1", "2", "3", "4", "5", "6"]
    assert [b.findtext("IMPS") for b in boards] == ["10", "-2", "-3", None, None, "3"]


def test_match_totals_add_the_won_boards_and_the_extra_imps() -> None:
    assert [b.net_imps for b in SEMIFINAL_1.boards] == [10, -2, -3, None, None, 3]
    assert (SEMIFINAL_1.home_imps, SEMIFINAL_1.away_imps) == (13, 5)
    assert (SEMIFINAL_2.home_imps, SEMIFINAL_2.away_imps) == (0, 5)
    assert (THIRD_PLACE.home_imps, THIRD_PLACE.away_imps) == (Decimal("2.5"), 10)


def test_traveller_lines_for_both_rooms(root: ET.Element) -> None:
    board_2 = root.findall("EVENT/MATCH")[0].findall("BOARD")[1]
    lines = [
        {child.tag: child.text for child in line} for line in board_2.findall("TRAVELLER_LINE")
    ]
    assert lines == [
        {"DIRECTION": "NS", "CONTRACT": "3NTX", "PLAYED_BY": "E", "TRICKS": "9", "SCORE": "-550"},
        {"DIRECTION": "EW", "CONTRACT": "4HX", "PLAYED_BY": "N", "TRICKS": "8", "SCORE": "-500"},
    ]


def test_redoubled_contract_and_lead() -> None:
    result = replace(parse_result("2HXX W ="), lead=Card.parse("DK"))
    board = UsebioBoard(6, result, None, imps=3)
    event = replace(EVENT, matches=(replace(SEMIFINAL_1, boards=(board,)),))
    line = ET.fromstring(usebio.write(event)).find("EVENT/MATCH/BOARD/TRAVELLER_LINE")
    assert line is not None
    assert {c.tag: c.text for c in line} == {
        "DIRECTION": "NS",
        "CONTRACT": "2HXX",
        "PLAYED_BY": "W",
        "LEAD": "KD",  # rank then suit, as Compscore/Pianola files write it
        "TRICKS": "8",
        "SCORE": "-840",  # board 6, EW vulnerable: 2HXX made is 240 + 500 + 100 to EW
    }


def test_passed_out_board(root: ET.Element) -> None:
    board_3 = root.findall("EVENT/MATCH")[0].findall("BOARD")[2]
    open_line = board_3.findall("TRAVELLER_LINE")[0]
    assert {c.tag: c.text for c in open_line} == {
        "DIRECTION": "NS",
        "CONTRACT": "PASS",
        "SCORE": "0",
    }


def test_boards_played_in_one_room_or_none(root: ET.Element) -> None:
    boards = root.findall("EVENT/MATCH")[0].findall("BOARD")
    one_room, not_played = boards[3], boards[4]
    assert [line.findtext("DIRECTION") for line in one_room.findall("TRAVELLER_LINE")] == ["NS"]
    assert one_room.find("IMPS") is None
    assert [c.tag for c in not_played] == ["BOARD_NUMBER"]


def test_deal_of_a_board(root: ET.Element) -> None:
    board_1 = root.findall("EVENT/MATCH")[0].findall("BOARD")[0]
    assert board_1.findtext("VULNERABILITY") == "Love"
    hands = {
        h.findtext("DIRECTION"): tuple(
            h.findtext(s) for s in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")
        )
        for h in board_1.findall("HAND")
    }
    assert hands == {
        "North": ("AKQJ", "T98", "765", "432"),
        "East": ("T98", "765", "432", "AKQJ"),
        "South": ("765", "432", "AKQJ", "T98"),
        "West": ("432", "AKQJ", "T98", "765"),
    }
    assert [c.tag for c in board_1][:6] == [
        "BOARD_NUMBER",
        "VULNERABILITY",
        "HAND",
        "HAND",
        "HAND",
        "HAND",
    ]
    no_deal = root.findall("EVENT/MATCH")[0].findall("BOARD")[1]
    assert no_deal.find("HAND") is None and no_deal.find("VULNERABILITY") is None


def test_a_void_is_an_empty_suit_element() -> None:
    deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    board = UsebioBoard(1, deal=deal, vulnerability=Vulnerability.ALL)
    event = replace(EVENT, matches=(replace(SEMIFINAL_1, boards=(board,)),))
    north = ET.fromstring(usebio.write(event)).find("EVENT/MATCH/BOARD/HAND")
    assert north is not None
    assert [(c.tag, c.text or "") for c in north] == [
        ("DIRECTION", "North"),
        ("CLUBS", ""),
        ("DIAMONDS", ""),
        ("HEARTS", ""),
        ("SPADES", "AKQJT98765432"),
    ]
    assert ET.fromstring(usebio.write(event)).findtext("EVENT/MATCH/BOARD/VULNERABILITY") == "All"


# --- Refused input ------------------------------------------------------------------------------


def test_a_match_naming_an_unknown_team_is_refused() -> None:
    event = replace(EVENT, matches=(replace(FINAL, away=9),))
    with pytest.raises(UsebioError, match="team 9"):
        usebio.write(event)


def test_duplicate_team_numbers_are_refused() -> None:
    with pytest.raises(UsebioError, match="same number"):
        usebio.write(replace(EVENT, teams=(*TEAMS, TEAMS[0])))


def test_a_place_range_running_downwards_is_refused() -> None:
    teams = (replace(TEAMS[0], place=8, place_to=5), *TEAMS[1:])
    with pytest.raises(UsebioError, match="8-5"):
        usebio.write(replace(EVENT, teams=teams))


# --- Validation ---------------------------------------------------------------------------------

_MINI_DTD = b"""<!ELEMENT USEBIO (CLUB?, EVENT+)>
<!ATTLIST USEBIO Version CDATA #REQUIRED>
<!ELEMENT CLUB (CLUB_NAME)>
<!ELEMENT CLUB_NAME (#PCDATA)>
<!ELEMENT EVENT (EVENT_DESCRIPTION)>
<!ELEMENT EVENT_DESCRIPTION (#PCDATA)>
"""


def test_the_dtd_helper_accepts_a_valid_and_rejects_a_broken_document() -> None:
    valid = (
        b'<USEBIO Version="1.3"><CLUB><CLUB_NAME>c</CLUB_NAME></CLUB><EVENT>'
        b"<EVENT_DESCRIPTION>e</EVENT_DESCRIPTION></EVENT></USEBIO>"
    )
    assert _lxml_dtd_errors(valid, _MINI_DTD) == []
    missing_event = b'<USEBIO Version="1.3"><CLUB><CLUB_NAME>c</CLUB_NAME></CLUB></USEBIO>'
    assert _lxml_dtd_errors(missing_event, _MINI_DTD)
    missing_attribute = valid.replace(b' Version="1.3"', b"")
    assert _lxml_dtd_errors(missing_attribute, _MINI_DTD)


@pytest.mark.skipif(
    not DTD.exists(),
    reason="the official USEBIO 1.3 DTD is not in tests/data/usebio/ (see its README.md)",
)
def test_output_is_valid_against_the_official_usebio_1_3_dtd(xml: bytes) -> None:
    assert _lxml_dtd_errors(xml, DTD.read_bytes()) == []
    broken = xml.replace(b"<CLUB_NAME>", b"<NOT_AN_ELEMENT>").replace(
        b"</CLUB_NAME>", b"</NOT_AN_ELEMENT>"
    )
    assert _lxml_dtd_errors(broken, DTD.read_bytes())


def test_a_control_character_is_refused() -> None:
    teams = (replace(TEAMS[0], name="Vltava\x07"), *TEAMS[1:])
    with pytest.raises(UsebioError, match="U\\+0007"):
        usebio.write(replace(EVENT, teams=teams))
