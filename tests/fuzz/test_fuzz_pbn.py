"""The PBN reader: any text either reads or raises :class:`PbnError` naming a line (never a bare
ValueError, KeyError, IndexError ...), in strict and in lenient mode; what it reads can be used."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bridgeko.bridge import pbn
from tests.fuzz import check_each, fuzz
from tests.fuzz.strategies import HUGE_NUMBERS, batches, mutated, piece, random_text

DATA = Path(__file__).resolve().parents[1] / "bridge" / "data"
SAMPLES = tuple(p.read_text(encoding="utf-8") for p in sorted(DATA.glob("*.pbn")))

TAG_NAMES = (
    *pbn.MANDATORY_TAGS,
    "Room",
    "Auction",
    "Play",
    "Note",
    "Score",
    "OptimumScore",
    "ParContract",
    "OptimumResultTable",
    "DoubleDummyTricks",
    "ScoreTable",
    "TotalScoreTable",
)
VALUES = (
    "",
    "?",
    "#",
    "##x",
    "##",
    "N",
    "E",
    "S",
    "W",
    "^S",
    "None",
    "All",
    "NS",
    "EW",
    "Love",
    "Both",
    "1",
    "0",
    "-3",
    "13",
    "14",
    "3NT",
    "4SX",
    "7NTXX",
    "8S",
    "Pass",
    "4H*",
    "NS 10",
    "EW 4 NS 9",
    "NS 420",
    "EW 100",
    "NS 4SX-1",
    "EW 5DX-2; NS 4S",
    "NS 4S+99",
    "Open",
    "Closed",
    "1:note",
    "99999:x",
    "Declarer;Denomination\\2R;Result\\2R",
    "Declarer;Denomination\\" + "9" * 5000 + "R;Result",
    "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
    "E:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432",
    "N:AK - - -",
    "N:... ... ... ...",
    "0123456789abcd012345",
)
HUGE_VALUES = (
    *HUGE_NUMBERS,
    *(f"{side} {n}" for side in ("NS", "EW") for n in HUGE_NUMBERS),
    *(f"NS 4S+{n}" for n in HUGE_NUMBERS),
    *(f"{n}:x" for n in HUGE_NUMBERS),
)
TOKENS = (
    "[",
    "]",
    '"',
    '\\"',
    "\\",
    "{",
    "}",
    ";",
    "%",
    "% PBN 2.1",
    "% EXPORT",
    "*",
    "-",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    " ",
    "\t",
    "\v",
    *TAG_NAMES,
    *(f'[{name} "{value}"]\n' for name in TAG_NAMES for value in ("", "?", "#", "1")),
)


def tag_pair(rnd: random.Random) -> str:
    """A tag pair that the lexer reads, with a value the typed accessors must judge."""
    name = rnd.choice(TAG_NAMES)
    roll = rnd.random()
    value = (
        rnd.choice(HUGE_VALUES)
        if roll < 0.03
        else rnd.choice(VALUES)
        if roll < 0.7
        else random_text(rnd)
    )
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    end = rnd.choice(("\n", " ", "\n\n", "\r\n", ""))
    return f'[{name} "{value}"]{end}'


def pbn_text(rnd: random.Random) -> str:
    """Up to 30 tag pairs and tokens: mostly tag pairs, as in a file."""
    return "".join(
        tag_pair(rnd) if rnd.random() < 0.7 else piece(rnd, TOKENS)
        for _ in range(rnd.randint(0, 30))
    )


def read_everything(text: str) -> None:
    """Parse strictly, and leniently when strict reading fails (a file read strictly reads the
    same leniently); only PbnError may escape, and the games read are usable."""
    try:
        check_games(pbn.parse(text))
        return
    except pbn.PbnError as exc:
        assert exc.line >= 0 and str(exc)
    try:
        check_games(pbn.parse(text, lenient=True))
    except pbn.PbnError as exc:
        assert exc.line >= 0 and str(exc)


def check_games(parsed: pbn.PbnFile) -> None:
    """Every accessor of every game read answers, or raises PbnError naming a line."""
    for game in parsed.games:
        game.validate()  # it was validated on reading: a second look must agree
        _ = (game.players, game.notes, game.event, game.date, game.scoring)
        _ = game.section("Auction"), game.section("Play")
        try:
            _ = game.score  # not read by validate(): a bad Score is a PbnError when asked
        except pbn.PbnError as exc:
            assert exc.line >= 1
    for problem in parsed.problems:
        assert problem.line >= 1 and str(problem)


@given(batches(pbn_text))
@fuzz()
def test_pbn_text_of_any_shape_reads_or_raises_pbn_error(texts: list[str]) -> None:
    check_each(texts, read_everything)


@given(mutated(SAMPLES, TOKENS + VALUES + HUGE_VALUES))
@fuzz()
def test_pbn_mutated_sample_files_read_or_raise_pbn_error(texts: list[str]) -> None:
    check_each(texts, read_everything)


@given(st.text(max_size=200))
@fuzz()
def test_pbn_random_characters_read_or_raise_pbn_error(text: str) -> None:
    read_everything(text)


@given(st.binary(max_size=300), st.sampled_from(pbn.DECODINGS))
@fuzz()
def test_pbn_decode_any_bytes_gives_text_or_a_bridge_input_error(data: bytes, enc: str) -> None:
    try:
        text = pbn.decode(data, enc)
    except pbn.BridgeInputError:
        return
    read_everything(text)
