"""The files that import a finished teams event into Matrika ČBS, the Czech Bridge Federation's
register of tournaments and players (https://matrikacbs.cz).

Matrika has no published documentation of its import ("Dokumentace neexistuje, je nutno znát
formát vstupu" — Zdeněk Tomis, a Czech TD). The shape here is that of the only public
description, the repository ``zdenecek/bridge-scripts`` (Zdeněk Tomis, 2024): its example files
``example/players.csv``, ``example/teams.csv`` and ``example/rankings.csv`` (the Czech team league
*Celostátní liga 2024*) and its script ``tc-cbs-teams.sh``, which writes the same three files
from a Tournament Calculator presentation (the same code runs as his web tool
``scripts/tc-to-matrika.php`` in ``zdenecek/bridge-website``). Where the examples and the script
differ, this module follows the examples; the differences are listed below.

Three files, all alike in form (as the examples):

* encoding **Windows-1250** (``iconv -f UTF-8 -t CP1250`` in the script; the examples are in it);
* fields separated by a **comma**, no quoting (the script joins the fields with ``,``);
* lines ended by **LF** (``\\n``), the last line too (the examples);
* a **first line** ``<event name>,1`` (the examples; the script writes a line of column names
  in ``players.csv`` and ``teams.csv`` and an empty line in ``rankings.csv`` instead; as the
  author imports files of both shapes, Matrika evidently skips the first line; what the ``1``
  means is not known).

``players.csv`` — one line per player, teams in the order of their numbers, each team's players
in the order given::

    8,1,Volhejn,Vít,280,VŠ ,1,ČBS

1. player's id in the file: unique, here 1, 2, 3 ... in the order written (the example's ids
   come from the source program; the script writes Tournament Calculator's person key);
2. the team's number (the first column of ``teams.csv``);
3. surname;  4. first name;
5. the player's ČBS number (Matrika's player id, ``Detail-hrace.aspx?id=``), **empty when the
   player has none** — the pairs and individual scripts write an empty field for numbers
   Tournament Calculator made up (> 10000), and Matrika then keeps the name only. Such players
   are also listed by :func:`problems` so that the TD can look them up before importing;
6. the club code as Matrika writes it (``BKP``, ``HAV``; the example pads ``VŠ`` to ``VŠ ``):
   written as given, empty when not known;
7. ``1`` — active (the example and the script: always ``1``);
8. ``ČBS`` — the example's value on every line (the script writes an empty field and calls the
   column ``Email``); this module writes ``ČBS`` as the example.

``teams.csv`` — one line per team, in the order of their numbers::

    3,3,Baník Havířov VV

1. the team's number;  2. the team's number again (the example; the script too);  3. its name.

``rankings.csv`` — the final ranking, one line per team, by place then number::

    1,5,8,6,101,143,0,1

1. ``1`` — the ranking's round. The example holds the table after each of the league's 9
   rounds (rounds 1 to 9, the last being the final one); the script writes one final table as
   round ``1``, and so does this module: a knockout has one final ranking;
2. the first place of the team's range;  3. its last place. Teams knocked out in the same round
   share the range (``5,8`` for the losers of the quarterfinals). This is the pair
   ``PoradiOd``/``PoradiDo`` (place from / place to) of Matrika's ``Soutezici`` table
   (``schema_dump.sql`` in ``zdenecek/cbs-reports``); the script writes the place twice, the
   example has no shared place;
4. the team's number;
5. IMPs won;  6. IMPs lost — over the whole event (the example: the running totals; the script
   writes ``0,0`` when it does not know them, and so does this module when they are not given);
7. the result: the example's victory points (``16.9``, ``20``); Matrika stores a result as text
   (``Soutezici.Vysledek``). A knockout has no VPs: the caller passes what is to be shown
   (written as a decimal number without trailing zeros), ``0`` when not given (the script's value
   for unknown numbers);
8. ``1`` — the round again (equal to column 1 on every line of the example; the script ``1``).

The event's dates and place are not in any file: Matrika takes them from the form in which the
tournament is created (``Turnaj.DatumOd``, ``DatumDo``, ``Misto``). :class:`CbsEvent` keeps them so
that the caller can show them next to the files.

Text that Windows-1250 cannot hold (``Søren``, ``Núñez``) is **refused**: :func:`files` raises
:class:`CbsExportError` naming the player (or team) and the character. The web tool converts
with ``iconv //TRANSLIT``, which puts a look-alike or ``?`` instead; in a national register
that would be a wrong name kept for good, so the TD corrects the spelling instead (a player
with a ČBS number is matched by the number anyway). A comma or a line break in any field would
shift the columns (the files have no quoting) and is refused the same way.

>>> from datetime import date
>>> team = CbsTeam(1, "Vltava", (CbsPlayer("Dvořák", "Jiří", 1234, "BKP"),), place=1)
>>> out = files(CbsEvent("Pohár 2026", date(2026, 5, 1), date(2026, 5, 3), "Praha", (team,)))
>>> out["players.csv"].decode("cp1250")
'Pohár 2026,1\\n1,1,Dvořák,Jiří,1234,BKP,1,ČBS\\n'
>>> out["rankings.csv"].decode("cp1250")
'Pohár 2026,1\\n1,1,1,1,0,0,0,1\\n'
>>> out["teams.csv"][:6]
b'Poh\\xe1r '
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

__all__ = [
    "ENCODING",
    "CbsEvent",
    "CbsExportError",
    "CbsPlayer",
    "CbsProblem",
    "CbsTeam",
    "files",
    "problems",
]

ENCODING = "cp1250"
"""Windows-1250, the encoding of every file."""
PLAYERS_FILE = "players.csv"
TEAMS_FILE = "teams.csv"
RANKINGS_FILE = "rankings.csv"
_SEPARATOR = ","
_NEWLINE = "\n"
_FIRST_LINE_FLAG = "1"
"""The second field of each file's first line (the examples; meaning unknown)."""
_ACTIVE = "1"
_FEDERATION = "ČBS"
_ROUND = "1"


class CbsExportError(ValueError):
    """An event that cannot be written in Matrika's files; the message names what to correct."""


@dataclass(frozen=True, slots=True)
class CbsPlayer:
    """A player of a team."""

    last_name: str
    """The surname (``Dvořák``)."""
    first_name: str
    """The first name (``Jiří``)."""
    federation_number: int | None = None
    """The player's number in Matrika ČBS; None when the player has none."""
    club: str = ""
    """The club code as Matrika writes it (``BKP``); empty when not known."""

    @property
    def name(self) -> str:
        return f"{self.last_name} {self.first_name}".strip()


@dataclass(frozen=True, slots=True)
class CbsTeam:
    """A team and its final place."""

    number: int
    """The team's number in the event (1, 2, ...)."""
    name: str
    """The team's name."""
    players: tuple[CbsPlayer, ...]
    """The players who played for the team, in the order to be listed."""
    place: int
    """The final place, or the first place of a shared range (5 for places 5-8)."""
    place_to: int | None = None
    """The last place of a shared range (8 for places 5-8); None = not shared."""
    imps_won: int | Decimal = 0
    """IMPs won over the event (0 when not known)."""
    imps_lost: int | Decimal = 0
    """IMPs lost over the event (0 when not known)."""
    result: int | Decimal = 0
    """The result shown in Matrika (the example: victory points); 0 when none."""

    @property
    def last_place(self) -> int:
        return self.place if self.place_to is None else self.place_to


@dataclass(frozen=True, slots=True)
class CbsEvent:
    """A finished teams event."""

    name: str
    """The event's name (the first line of each file)."""
    start: date
    """The first day (entered in Matrika's form; in no file)."""
    end: date
    """The last day (entered in Matrika's form; in no file)."""
    place: str
    """Where it was played (entered in Matrika's form; in no file)."""
    teams: tuple[CbsTeam, ...]
    """The teams, in any order (each file sorts them)."""


@dataclass(frozen=True, slots=True)
class CbsProblem:
    """Something the TD should look at before importing; the files are written all the same."""

    team: int
    """The team's number."""
    player: str
    """The player's name (``Dvořák Jiří``)."""
    message: str
    """What is wrong, in English (for a log or a page)."""


def _decimal(value: int | Decimal) -> str:
    """``12``, ``16.9``, ``-3`` (no exponent, no trailing zeros)."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise CbsExportError(f"not a number: {value!r}")
    if isinstance(value, int):
        return str(value)
    text = format(value.normalize(), "f")
    return text if "." not in text else text.rstrip("0").rstrip(".")


def _field(value: str, where: str) -> str:
    """``value`` checked for what the files cannot hold: a separator, a line break, a character
    outside Windows-1250."""
    for char in value:
        if char in (_SEPARATOR, "\n", "\r"):
            raise CbsExportError(
                f"{where}: {value!r} contains {char!r}, which Matrika's files cannot hold "
                "(they are comma-separated without quoting)"
            )
        try:
            char.encode(ENCODING)
        except UnicodeEncodeError:
            raise CbsExportError(
                f"{where}: {value!r} contains {char!r} (U+{ord(char):04X}), which Windows-1250 "
                "cannot encode; correct the spelling before exporting"
            ) from None
    return value


def _line(fields: Iterable[str]) -> str:
    return _SEPARATOR.join(fields) + _NEWLINE


def _check(event: CbsEvent) -> list[CbsTeam]:
    numbers = [t.number for t in event.teams]
    if len(set(numbers)) != len(numbers):
        raise CbsExportError(f"two teams have the same number: {sorted(numbers)}")
    if event.end < event.start:
        raise CbsExportError(f"the event ends ({event.end}) before it starts ({event.start})")
    for team in event.teams:
        if isinstance(team.number, bool) or team.number < 1:
            raise CbsExportError(f"team {team.name!r}: a team number is 1 or more")
        if team.place < 1 or team.last_place < team.place:
            raise CbsExportError(
                f"team {team.number} ({team.name}): a place is 1 or more and a shared range runs "
                f"upwards, not {team.place}-{team.last_place}"
            )
        for player in team.players:
            number = player.federation_number
            if number is not None and (isinstance(number, bool) or number < 1):
                raise CbsExportError(
                    f"{player.name} (team {team.number}): a ČBS number is 1 or more, not {number!r}"
                )
    return sorted(event.teams, key=lambda t: t.number)


def _first_line(event: CbsEvent) -> str:
    return _line((_field(event.name, "the event's name"), _FIRST_LINE_FLAG))


def _players(event: CbsEvent, teams: list[CbsTeam]) -> str:
    text = _first_line(event)
    pid = 0
    for team in teams:
        for player in team.players:
            pid += 1
            where = f"{player.name} (team {team.number}, {team.name})"
            number = player.federation_number
            text += _line(
                (
                    str(pid),
                    str(team.number),
                    _field(player.last_name, where),
                    _field(player.first_name, where),
                    "" if number is None else str(number),
                    _field(player.club, where),
                    _ACTIVE,
                    _FEDERATION,
                )
            )
    return text


def _teams(event: CbsEvent, teams: list[CbsTeam]) -> str:
    text = _first_line(event)
    for team in teams:
        name = _field(team.name, f"team {team.number}")
        text += _line((str(team.number), str(team.number), name))
    return text


def _rankings(event: CbsEvent, teams: list[CbsTeam]) -> str:
    text = _first_line(event)
    for team in sorted(teams, key=lambda t: (t.place, t.last_place, t.number)):
        text += _line(
            (
                _ROUND,
                str(team.place),
                str(team.last_place),
                str(team.number),
                _decimal(team.imps_won),
                _decimal(team.imps_lost),
                _decimal(team.result),
                _ROUND,
            )
        )
    return text


def files(event: CbsEvent) -> dict[str, bytes]:
    """The three files to import ``event`` into Matrika ČBS: ``players.csv``, ``teams.csv`` and
    ``rankings.csv`` (Windows-1250). Raises :class:`CbsExportError` for what they cannot hold."""
    teams = _check(event)
    texts = {
        PLAYERS_FILE: _players(event, teams),
        TEAMS_FILE: _teams(event, teams),
        RANKINGS_FILE: _rankings(event, teams),
    }
    return {name: text.encode(ENCODING) for name, text in texts.items()}


def problems(event: CbsEvent) -> tuple[CbsProblem, ...]:
    """What the TD should check before importing: the players without a ČBS number (their
    ``players.csv`` line has an empty number, so Matrika records the name only)."""
    found: list[CbsProblem] = []
    for team in sorted(event.teams, key=lambda t: t.number):
        for player in team.players:
            if player.federation_number is None:
                found.append(
                    CbsProblem(
                        team.number,
                        player.name,
                        f"{player.name} (team {team.number}, {team.name}) has no ČBS number",
                    )
                )
    return tuple(found)
