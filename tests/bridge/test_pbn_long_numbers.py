"""Numbers of any length in a PBN file (issue 8): past Python's limit for ``int(str)`` (4,300
digits) the reader raised a bare ValueError although it promises only PbnError; now each is a
PbnError naming the line of the tag (or, where the standard lets the reader skip the value, the
value is skipped)."""

from __future__ import annotations

import pytest

from bridgeko.bridge import pbn

LONG = "9" * 5000
ZEROS = "0" * 5000 + "7"

GAME = (
    '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
    '[Declarer "S"]\n[Contract "3NT"]\n[Result "9"]\n'
)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (f'[Event "x"]\n[Board "{LONG}"]\n', 2, "Board"),
        (GAME.replace('[Result "9"]', f'[Result "{LONG}"]'), 7, "Result"),
        (GAME.replace('[Result "9"]', f'[Result "NS {LONG}"]'), 7, "Result"),
        (GAME + f'[OptimumScore "NS {LONG}"]\n', 8, "OptimumScore"),
        (GAME + f'[OptimumScore "NS 420"]\n[ParContract "NS 4S+{LONG}"]\n', 9, "ParContract"),
        (GAME + f'[OptimumResultTable ""]\nN S {LONG}\n', 8, "OptimumResultTable"),
    ],
)
def test_number_of_5000_digits_is_a_pbn_error_naming_the_line(
    text: str, line: int, words: str
) -> None:
    with pytest.raises(pbn.PbnError) as exc:
        pbn.parse(text)
    assert exc.value.line == line
    assert words in exc.value.reason
    lenient = pbn.parse(text, lenient=True)  # lenient mode skips the game and says why
    assert not lenient.games and lenient.problems[0].line == line


def test_long_column_width_of_a_table_is_read_as_no_width() -> None:
    table = f"Declarer;Denomination\\{LONG}R;Result\\2R"
    rows = "".join(f"{s} {t} 7\n" for s in "NESW" for t in ("NT", "S", "H", "D", "C"))
    game = pbn.parse(GAME + f'[OptimumResultTable "{table}"]\n{rows}').games[0]
    assert game.dd_table is not None


def test_leading_zeros_do_not_count() -> None:
    game = pbn.parse(GAME.replace('[Board "1"]', f'[Board "{ZEROS}"]')).games[0]
    assert game.board == 7


def test_long_note_number_and_score_do_not_raise_value_error() -> None:
    game = pbn.parse(GAME + f'[Note "{LONG}:x"]\n[Score "NS {LONG}"]\n').games[0]
    assert game.notes == {}  # not a note number: skipped, as any unreadable note
    with pytest.raises(pbn.PbnError) as exc:
        _ = game.score
    assert exc.value.line == 9
