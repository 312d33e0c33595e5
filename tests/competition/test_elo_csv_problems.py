"""The problems of a row of the federation's Elo list, each with its line (R10.1).

:func:`bridgeko.players.elo_csv.parse` is pure code (no Django). Each check of a row is reached
here by an explicit example, so that its coverage does not depend on what the fuzz test
(``tests/fuzz/test_fuzz_elo_csv.py``) happens to generate.
"""

from __future__ import annotations

import pytest

from bridgeko.players.elo_csv import Columns, EloRow, Limits, ParseResult, parse

COLUMNS = Columns(federation_id="id", name="name", elo="elo", club="club", member="member")
HEADER = "id;name;elo;club;member\n"
GOOD = "CZ001;Novák Jan;1510;BK Praha;ano\n"
"""Line 2 of every file below: a valid row."""


def _parse(*lines: str, limits: Limits | None = None) -> ParseResult:
    return parse((HEADER + GOOD + "".join(lines)).encode("utf-8"), COLUMNS, limits=limits)


def test_R10_1_a_valid_row_is_read() -> None:
    """The file the examples below extend reads without problems: every problem they show comes
    from the line they add."""
    result = _parse()
    assert result.ok and result.problems == ()
    assert result.rows == (EloRow(2, "CZ001", "Novák Jan", 1510, "BK Praha", True),)


@pytest.mark.parametrize(
    ("line", "limits", "problem"),
    [
        pytest.param(
            "CZ001;Dvořák Petr;1400;BK Brno;ano\n",
            None,
            "line 3: Federation id CZ001 is already on line 2.",
            id="federation-id-twice",
        ),
        pytest.param(
            "CZ002;Dvořák Petr;1400;Bridžový klub Brno;ano\n",
            Limits(club=10),
            "line 3: The club is longer than 10 characters.",
            id="club-too-long",
        ),
        pytest.param(
            "CZ002;Dvořák Petr;-5;BK Brno;ano\n",
            None,
            "line 3: Elo -5 is negative.",
            id="elo-negative",
        ),
        pytest.param(
            "CZ002;Dvořák Petr;3001;BK Brno;ano\n",
            Limits(elo=3000),
            "line 3: Elo 3001 is too large.",
            id="elo-too-large",
        ),
        pytest.param(
            "CZ002;Dvořák Petr;2147483648;BK Brno;ano\n",
            None,
            "line 3: Elo 2147483648 is too large.",
            id="elo-beyond-the-database",
        ),
        pytest.param(
            "CZ002;Dvořák Petr;1400;BK Brno;možná\n",
            None,
            "line 3: Membership možná is not yes/no (1/0, A/N).",
            id="membership-not-yes-or-no",
        ),
    ],
)
def test_R10_1_bad_row_is_a_problem_of_its_line(
    line: str, limits: Limits | None, problem: str
) -> None:
    """A row whose federation id is already on an earlier line, whose club is longer than the
    register stores, whose Elo is negative or larger than the register stores, or whose
    membership is not a yes/no word is refused with that problem and its line; the other rows
    are still read."""
    result = _parse(line, limits=limits)
    assert not result.ok
    assert [str(p) for p in result.problems] == [problem]
    assert [row.line for row in result.rows] == [2]


@pytest.mark.parametrize(
    ("elo", "limit"),
    [("0", 2_147_483_647), ("3000", 3000), ("1 510", 1510), ("1\u00a0510", 1510)],
)
def test_R10_1_elo_from_zero_up_to_the_limit_is_read(elo: str, limit: int) -> None:
    """The bounds of the Elo checks: 0 is not negative, the register's largest Elo is not too
    large, and digits grouped by a space or a no-break space form one number."""
    result = _parse(f"CZ002;Dvořák Petr;{elo};BK Brno;ne\n", limits=Limits(elo=limit))
    assert result.problems == ()
    assert result.rows[1].elo == int(elo.replace(" ", "").replace("\u00a0", ""))


@pytest.mark.parametrize(
    ("word", "member"),
    [
        ("ano", True),
        ("A", True),
        ("1", True),
        ("yes", True),
        ("Člen", True),
        ("ne", False),
        ("N", False),
        ("0", False),
        ("-", False),
        ("", False),
    ],
)
def test_R10_1_membership_words_are_read(word: str, member: bool) -> None:
    """The membership column reads the Czech and English yes/no words, case aside; an empty
    cell is "not a member"."""
    result = _parse(f"CZ002;Dvořák Petr;1400;BK Brno;{word}\n")
    assert result.problems == ()
    assert result.rows[1].member is member
