"""The Elo list (CSV) parser: bytes of any shape in any encoding, with any encoding name and
any column choice, give a :class:`ParseResult` (problems with their lines), never an exception;
:meth:`Columns.parse` raises only ValueError."""

from __future__ import annotations

import random

from hypothesis import example, given
from hypothesis import strategies as st

from bridgeko.players import elo_csv
from tests.fuzz import check_each, fuzz
from tests.fuzz.strategies import HUGE_NUMBERS, ODD_TEXT, batches, random_text, seeded

ENCODING_NAMES = (
    None,
    "",
    "utf-8",
    "UTF_8",
    "utf8",
    "utf-8-sig",
    "cp1250",
    "latin-1",
    "utf-16",
    "utf-32",
    "utf-7",
    "ascii",
    "idna",
    "punycode",
    "undefined",
    "unicode_escape",
    "raw_unicode_escape",
    "rot13",
    "base64",
    "hex",
    "zlib",
    "uu",
    "quopri",
    "mbcs",
    "no-such-codec",
    "utf-8\x00",
    "a\x00b",
    "x" * 1000,
    "../../etc/passwd",
)
"""Names a form, a command line or a crafted request may give: text codecs, bytes-to-bytes
codecs, codecs that raise plain UnicodeError, no codec at all."""

CELLS = (
    "",
    " ",
    "CZ001",
    "CZ001",  # twice: a duplicate federation id
    "Novák Jan",
    "Šťastný Jiří",
    "1510",
    "-5",
    "1 510",
    "1\u00a0510",
    "2147483648",
    "ano",
    "ne",
    "A",
    "x",
    '"quoted; with separator"',
    '"unterminated',
    '""',
    '"a ""b"" c"',
    "\r",
    "\n",
    "\r\n",
    ";",
    ",",
    "\t",
    "id",
    "jméno",
    "elo",
    *ODD_TEXT,
    *HUGE_NUMBERS,
)
ENCODINGS = ("utf-8", "utf-8-sig", "cp1250", "latin-1", "utf-16")


def csv_bytes(rnd: random.Random) -> bytes:
    """A semicolon-separated file of up to 12 lines of odd cells, in one of ENCODINGS; now and
    then a field longer than the ``csv`` module takes (131,072 characters), or a NUL byte."""
    lines = []
    for _ in range(rnd.randint(0, 12)):
        cells = [
            rnd.choice(CELLS) if rnd.random() < 0.8 else random_text(rnd)
            for _ in range(rnd.randint(0, 7))
        ]
        lines.append(";".join(cells))
    if rnd.random() < 0.02:
        lines.append("CZ9;" + "N" * 131_073 + ";1500")
    text = rnd.choice(("\n", "\r\n", "\r")).join(lines)
    data = text.encode(rnd.choice(ENCODINGS), errors="replace")
    if rnd.random() < 0.05:
        k = rnd.randint(0, len(data))
        data = data[:k] + b"\x00" + data[k:]
    return data


COLUMN_SPECS = ("1", "2", "3", "4", "5", "0", "id", "jméno", "elo", "Elo ", "nope", "")


def columns(rnd: random.Random) -> elo_csv.Columns:
    def spec() -> str:
        return rnd.choice(COLUMN_SPECS)

    optional = [spec() if rnd.random() < 0.7 else None for _ in range(3)]
    return elo_csv.Columns(spec() or "1", spec() or "2", *optional)


EloInput = tuple[bytes, str | None, bool, elo_csv.Columns]
"""The file, the encoding name, whether it has a header, the columns chosen."""


def elo_input(rnd: random.Random) -> EloInput:
    return csv_bytes(rnd), rnd.choice(ENCODING_NAMES), rnd.random() < 0.5, columns(rnd)


def read(given: EloInput) -> None:
    data, encoding, has_header, chosen = given
    check(elo_csv.parse(data, chosen, encoding=encoding, has_header=has_header))


def check(result: elo_csv.ParseResult) -> None:
    """What the caller shows: every problem's message, every row's values."""
    assert isinstance(result, elo_csv.ParseResult)
    for problem in result.problems:
        assert problem.line >= 0 and str(problem)
    for row in result.rows:
        assert row.federation_id and row.name and row.line >= 1
    assert result.ok == (not result.problems and bool(result.rows))


@given(batches(elo_input))
@example([(b"1;a;3\n", "punycode", False, elo_csv.Columns("1", "2", "3"))])
@example([(b"xn--;a\n", "idna", False, elo_csv.Columns("1", "2"))])
@example([(b"1;a\n", "a\x00b", False, elo_csv.Columns("1", "2"))])
@example([(b"1;" + b"a" * 131_073 + b";3\n", None, False, elo_csv.Columns("1", "2", "3"))])
@fuzz()
def test_elo_csv_any_bytes_any_encoding_give_problems_not_exceptions(
    inputs: list[EloInput],
) -> None:
    check_each(inputs, read)


@given(st.binary(max_size=400), st.sampled_from(ENCODING_NAMES))
@fuzz()
def test_elo_csv_random_bytes_give_problems_not_exceptions(
    data: bytes, encoding: str | None
) -> None:
    check(elo_csv.parse(data, elo_csv.Columns("1", "2", "3", "4", "5"), encoding=encoding))


SPEC_PIECES = ("id", "name", "elo", "club", "member", "federation_id", "=", ",", " ", "1", "x")


@given(
    seeded(
        lambda rnd: ",".join(
            "".join(
                rnd.choice(SPEC_PIECES) if rnd.random() < 0.85 else rnd.choice(("²", "9" * 5000))
                for _ in range(rnd.randint(0, 5))
            )
            for _ in range(rnd.randint(0, 6))
        )
    )
)
@example("id=²,name=2")
@fuzz()
def test_elo_csv_column_specs_of_any_shape_give_value_error_or_problems(spec: str) -> None:
    try:
        chosen = elo_csv.Columns.parse(spec)
    except ValueError:
        return
    check(elo_csv.parse(b"id;name;elo\nCZ1;Novak;1500\n", chosen))
