"""The Matrika ČBS import files of a teams knockout, byte for byte, in the shape of the examples
of ``zdenecek/bridge-scripts`` (``example/players.csv``, ``teams.csv``, ``rankings.csv``): a first
line ``<event>,1``, comma-separated fields without quoting, LF line ends, Windows-1250."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from bridgeko.competition.cbs_export import (
    CbsEvent,
    CbsExportError,
    CbsPlayer,
    CbsProblem,
    CbsTeam,
    files,
    problems,
)

# An 8-team knockout: final 1 v 2, play-off for 3rd place 3 v 4, quarterfinal losers share 5-8.
# Given out of order: every file sorts the teams itself.
TEAMS = (
    CbsTeam(
        6,
        "Sázava",
        (CbsPlayer("Hrubý", "Pavel", 31, "HAV"),),
        place=5,
        place_to=8,
        imps_won=101,
        imps_lost=143,
    ),
    CbsTeam(
        1,
        "Vltava",
        (
            CbsPlayer("Dvořák", "Jiří", 1234, "BKP"),
            CbsPlayer("Šťastná", "Růžena", 2345, "BKP"),
            CbsPlayer("Žďárský", "Ondřej", None, "HAV"),  # no ČBS number
            CbsPlayer("Čermák", "Ľubomír", 4567, "VŠ "),  # the example's padded club code
        ),
        place=1,
        imps_won=310,
        imps_lost=201,
        result=3,
    ),
    CbsTeam(2, "Labe", (CbsPlayer("Nováková", "Eva", 77, "CHB"),), 2, None, 255, 240, 2),
    CbsTeam(
        3,
        "Ohře & Úhlava",
        (CbsPlayer("Kříž", "Tomáš", 21),),
        3,
        None,
        Decimal("180.50"),
        Decimal("170.0"),
        Decimal("2.50"),
    ),
    CbsTeam(4, "Morava", (CbsPlayer("Kučera", "Ondřej", 88, "UHR"),), place=4, result=1),
    CbsTeam(5, "Jizera", (), place=5, place_to=8),
    CbsTeam(8, "Dyje", (CbsPlayer("Růžička", "Jan"),), place=5, place_to=8),
    CbsTeam(7, "Berounka", (), place=5, place_to=8),
)
EVENT = CbsEvent("Pohár ČBS 2026 – KO týmů", date(2026, 5, 1), date(2026, 5, 3), "Praha", TEAMS)

PLAYERS = """\
Pohár ČBS 2026 – KO týmů,1
1,1,Dvořák,Jiří,1234,BKP,1,ČBS
2,1,Šťastná,Růžena,2345,BKP,1,ČBS
3,1,Žďárský,Ondřej,,HAV,1,ČBS
4,1,Čermák,Ľubomír,4567,VŠ ,1,ČBS
5,2,Nováková,Eva,77,CHB,1,ČBS
6,3,Kříž,Tomáš,21,,1,ČBS
7,4,Kučera,Ondřej,88,UHR,1,ČBS
8,6,Hrubý,Pavel,31,HAV,1,ČBS
9,8,Růžička,Jan,,,1,ČBS
"""
TEAMS_CSV = """\
Pohár ČBS 2026 – KO týmů,1
1,1,Vltava
2,2,Labe
3,3,Ohře & Úhlava
4,4,Morava
5,5,Jizera
6,6,Sázava
7,7,Berounka
8,8,Dyje
"""
RANKINGS = """\
Pohár ČBS 2026 – KO týmů,1
1,1,1,1,310,201,3,1
1,2,2,2,255,240,2,1
1,3,3,3,180.5,170,2.5,1
1,4,4,4,0,0,1,1
1,5,8,5,0,0,0,1
1,5,8,6,101,143,0,1
1,5,8,7,0,0,0,1
1,5,8,8,0,0,0,1
"""


@pytest.fixture(scope="module")
def out() -> dict[str, bytes]:
    return files(EVENT)


def test_three_files_by_the_examples_names(out: dict[str, bytes]) -> None:
    assert list(out) == ["players.csv", "teams.csv", "rankings.csv"]


def test_players_csv_byte_for_byte(out: dict[str, bytes]) -> None:
    assert out["players.csv"] == PLAYERS.encode("cp1250")


def test_teams_csv_byte_for_byte(out: dict[str, bytes]) -> None:
    assert out["teams.csv"] == TEAMS_CSV.encode("cp1250")


def test_rankings_csv_byte_for_byte_with_shared_places(out: dict[str, bytes]) -> None:
    assert out["rankings.csv"] == RANKINGS.encode("cp1250")


def test_windows_1250_bytes_lf_line_ends_and_a_final_newline(out: dict[str, bytes]) -> None:
    players = out["players.csv"]
    # Windows-1250, not ISO 8859-2 (š is 0x9A there, 0xB9 here) nor UTF-8.
    assert b"\x8a\x9dastn\xe1" in players  # Šťastná
    assert b"Dvo\xf8\xe1k,Ji\xf8\xed" in players  # Dvořák,Jiří
    assert players.startswith(b"Poh\xe1r \xc8BS 2026 \x96 KO t\xfdm\xf9,1\n")  # – is 0x96
    assert players.endswith(b",1,\xc8BS\n")
    for content in out.values():
        assert b"\r" not in content and content.endswith(b"\n") and not content.endswith(b"\n\n")


def test_the_same_event_gives_the_same_bytes(out: dict[str, bytes]) -> None:
    assert files(EVENT) == out


def test_players_without_a_number_are_written_and_listed(out: dict[str, bytes]) -> None:
    assert problems(EVENT) == (
        CbsProblem(1, "Žďárský Ondřej", "Žďárský Ondřej (team 1, Vltava) has no ČBS number"),
        CbsProblem(8, "Růžička Jan", "Růžička Jan (team 8, Dyje) has no ČBS number"),
    )
    assert problems(replace(EVENT, teams=TEAMS[:1])) == ()


# --- Refused ------------------------------------------------------------------------------------


def test_a_character_outside_windows_1250_is_refused_naming_the_player() -> None:
    viking = CbsPlayer("Sørensen", "Søren", 999)
    event = replace(EVENT, teams=(replace(TEAMS[1], players=(viking,)),))
    with pytest.raises(CbsExportError) as caught:
        files(event)
    message = str(caught.value)
    assert "Sørensen Søren (team 1, Vltava)" in message
    assert "'ø' (U+00F8)" in message and "Windows-1250" in message


def test_a_team_name_outside_windows_1250_is_refused() -> None:
    event = replace(EVENT, teams=(replace(TEAMS[1], name="Núñez"),))
    with pytest.raises(CbsExportError, match=r"team 1: 'Núñez' contains 'ñ'"):
        files(event)


def test_a_comma_in_a_field_is_refused() -> None:
    event = replace(EVENT, teams=(replace(TEAMS[1], name="Praha, Brno"),))
    with pytest.raises(CbsExportError, match="comma-separated"):
        files(event)
    with pytest.raises(CbsExportError, match="the event's name"):
        files(replace(EVENT, name="Pohár, 2026"))


def test_duplicate_team_numbers_are_refused() -> None:
    with pytest.raises(CbsExportError, match="same number"):
        files(replace(EVENT, teams=(*TEAMS, TEAMS[0])))


@pytest.mark.parametrize(("place", "place_to"), [(0, None), (8, 5)])
def test_a_bad_place_is_refused(place: int, place_to: int | None) -> None:
    team = replace(TEAMS[0], place=place, place_to=place_to)
    with pytest.raises(CbsExportError, match="Sázava"):
        files(replace(EVENT, teams=(team,)))


def test_a_bad_federation_number_is_refused() -> None:
    team = replace(TEAMS[0], players=(CbsPlayer("Hrubý", "Pavel", 0),))
    with pytest.raises(CbsExportError, match="Hrubý Pavel"):
        files(replace(EVENT, teams=(team,)))
