"""The regulations loader: any TOML document (random documents over the real sections and keys,
and mutations of ``editions/bridge-open-ko-1999.toml``) either loads or raises
:class:`RegulationsError`, whose every problem can be worded in English and Czech; what loads
writes back to the same regulations."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from bridgeko.competition import regulations as regs
from bridgeko.competition.messages import Message
from tests.fuzz import check_each, fuzz
from tests.fuzz.strategies import HUGE_NUMBERS, ODD_TEXT, batches, mutate, random_text

TOML_1999 = (
    Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-1999.toml"
).read_text(encoding="utf-8")
PLAIN_1999: dict[str, Any] = regs.to_dict(regs.loads(TOML_1999))
"""Every section and key of a regulations file, with the 1999 values (JSON-ready)."""

STRINGS = (
    "Europe/Prague",
    "UTC",
    "Europe",
    "zone.tab",
    "../../etc/passwd",
    "x" * 300,
    "cs",
    "en",
    "CZK",
    "czk",
    "1999-03-05",
    "1999-02-30",
    "99999-01-01",
    "10:00",
    "24:00",
    "10:00+01:00",
    "friday",
    "Sunday ",
    "quarterfinal",
    "final",
    "preliminary",
    *ODD_TEXT,
)
RAW_VALUES = (
    "0",
    "-1",
    "1",
    "2",
    "4",
    "7",
    "8",
    "2147483647",
    "2147483648",
    "9223372036854775808",
    "0x7fffffff",
    "0b1",
    "0o17",
    "1_000",
    "+16",
    "1.5",
    "inf",
    "nan",
    "1e400",
    "true",
    "false",
    "1999-03-05",
    "0001-01-01",
    "9999-12-31",
    "1999-03-05T10:00:00Z",
    "1999-03-05 10:00:00",
    "10:00",
    "10:00:00.999999",
    "[]",
    "{}",
    "[[]]",
    "[1, [2]]",
    "{ a = 1 }",
    *HUGE_NUMBERS[:2],
    "0x" + "f" * 5000,
    "[" * 1200 + "]" * 1200,
)


def toml_string(text: str) -> str:
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c < " " or c == "\x7f" or 0xD800 <= ord(c) <= 0xDFFF:
            out.append(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else "?")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def toml_value(rnd: random.Random, depth: int = 0) -> str:
    roll = rnd.random()
    if roll < 0.35:
        return rnd.choice(RAW_VALUES)
    if roll < 0.6:
        return toml_string(rnd.choice(STRINGS))
    if roll < 0.7:
        return toml_string(random_text(rnd))
    if roll < 0.8:
        return str(rnd.choice((1, 2, 3, 8, 16, 32, 64, 1024, 2**31, 2**40)) * rnd.choice((1, -1)))
    if depth < 3 and roll < 0.92:
        items = [toml_value(rnd, depth + 1) for _ in range(rnd.randint(0, 5))]
        return "[" + ", ".join(items) + "]"
    if depth < 3:
        pairs = [f"k{k} = {toml_value(rnd, depth + 1)}" for k in range(rnd.randint(0, 3))]
        return "{ " + ", ".join(pairs) + " }"
    return "1"


def _plain_toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_plain_toml(v) for v in value) + "]"
    return toml_string(str(value))


def toml_document(rnd: random.Random) -> str:
    """A TOML document over the real sections and keys: most values those of 1999 (so that the
    checks between keys are reached), some random, some keys and sections left out, repeated or
    unknown, now and then a line of garbage."""
    lines = []
    chaos = rnd.choice((0.0, 0.01, 0.03, 0.1, 0.3))  # how many values are random
    gaps = rnd.choice((0.0, 0.0, 0.01, 0.05))  # how many keys are left out
    if rnd.random() < 0.97:
        prizes = PLAIN_1999["prizes"] if rnd.random() > chaos else None
        lines.append(f"prizes = {_plain_toml(prizes) if prizes else toml_value(rnd)}")
    sections = [s for s in PLAIN_1999 if s != "prizes"]
    if rnd.random() < 0.3:
        rnd.shuffle(sections)
    for section in sections:
        if rnd.random() < gaps:
            continue
        lines.append(f"[{section}]" if rnd.random() > chaos / 10 else f"[[{section}]]")
        for key, value in PLAIN_1999[section].items():
            if rnd.random() < gaps:
                continue
            if rnd.random() < chaos:
                lines.append(f"{key} = {toml_value(rnd)}")
            else:
                lines.append(f"{key} = {_plain_toml(value)}")
        if rnd.random() < chaos / 3:
            lines.append(f"unknown_{rnd.randint(0, 9)} = {toml_value(rnd)}")
        if rnd.random() < chaos / 10:
            lines.append(rnd.choice(('"', "[", "= 1", "key =", "a.b.c = 1", random_text(rnd))))
    if rnd.random() < chaos / 3:
        lines.append(f"[extra]\nx = {toml_value(rnd)}")
    return rnd.choice(("\n", "\r\n")).join(lines) + "\n"


TOKENS = (
    "=",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    ",",
    ".",
    '"',
    "'",
    '"""',
    "#",
    "\n",
    "\r\n",
    "\\",
    "\\u0000",
    *RAW_VALUES[:-3],
    *(toml_string(s) for s in STRINGS[:20]),
    *PLAIN_1999,
)


def check(text: str) -> None:
    try:
        reg = regs.loads(text)
    except regs.RegulationsError as exc:
        assert exc.problems and str(exc)
        for problem in exc.problems:
            message: Message = problem.text
            assert message.format() and message.format(lambda template: f"«{template}»")
        return
    assert regs.loads(regs.dumps(reg)) == reg
    assert regs.from_dict(regs.to_dict(reg)) == reg


@given(batches(toml_document))
@example(["[edition]\ntimezone = " + toml_string("x" * 300) + "\n"])
@example(["a = " + "[" * 5000 + "]" * 5000 + "\n"])
@fuzz()
def test_regulations_any_toml_document_loads_or_raises_regulations_error(
    texts: list[str],
) -> None:
    check_each(texts, check)


@given(batches(lambda rnd: mutate(rnd, TOML_1999, TOKENS)))
@fuzz()
def test_regulations_mutated_1999_file_loads_or_raises_regulations_error(
    texts: list[str],
) -> None:
    check_each(texts, check)


@given(st.text(max_size=300))
@fuzz()
def test_regulations_random_characters_raise_regulations_error(text: str) -> None:
    check(text)
