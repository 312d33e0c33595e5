"""Strategies shared by the fuzz tests: text built from a reader's own tokens, and random edits
(mutations) of a valid sample, which reach much deeper into a reader than random characters.

Hypothesis spends about a millisecond drawing each list element, which would cap the suite at a
few hundred examples in its time budget; so these strategies draw one seed and build the input
with :class:`random.Random` (hypothesis still prints the failing input and replays it from its
database; it shrinks the seed, not the text), and :func:`batches` builds several inputs from
one example.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

HUGE_NUMBERS = ("9" * 5000, "0" * 5000 + "1", "-" + "7" * 4301, "1" + "0" * 4400, "٣" * 4400)
"""Numbers past Python's limit for ``int(str)`` (4,300 digits), also in another script."""

ODD_TEXT = (
    "",
    " ",
    "\x00",
    "\ufeff",
    "\u0085",
    "\u2028",
    "\udcff",
    "..",
    "/",
    "\\",
    "../../etc/passwd",
    "٣",
    "𝟙",
    "Ⅻ",
    "½",
    "NaN",
    "inf",
    "-0",
    "+",
    "-",
    "1e9",
    "0x1F",
    "1_000",
    "x" * 300,
)
"""Text that trips up naive readers: NUL, a BOM, Unicode line breaks and digits, paths."""

_ALPHABETS = (
    "0123456789",
    " \t\n\r",
    "abcxyzABCXYZ",
    "[]{}\"';:#%\\/.,=+-*^_",
    "áčďéěíňóřšťúůýžÁČŘŠŽ",
    "\x00\x01\x0b\x0c\x1f\x7f\x85\xa0\u2028\u2029\ufeff\ufffd\U0001f600",
)


def random_text(rnd: random.Random, max_size: int = 12) -> str:
    """A short text of characters from one or two alphabets, or of any code point."""
    n = rnd.randint(0, max_size)
    if rnd.random() < 0.2:
        chars = [chr(rnd.randrange(0x110000)) for _ in range(n)]
        return "".join(c for c in chars if not 0xD800 <= ord(c) <= 0xDFFF)
    alphabet = "".join(rnd.sample(_ALPHABETS, rnd.randint(1, 2)))
    return "".join(rnd.choice(alphabet) for _ in range(n))


def piece(rnd: random.Random, tokens: Sequence[str]) -> str:
    """One piece of input: mostly a token of the format, else an odd or a random text."""
    roll = rnd.random()
    if roll < 0.6:
        return rnd.choice(tokens)
    if roll < 0.8:
        return rnd.choice(ODD_TEXT + HUGE_NUMBERS)
    return random_text(rnd)


def seeded(build: Callable[[random.Random], T]) -> st.SearchStrategy[T]:
    """What ``build`` makes from a random generator seeded by hypothesis."""
    return st.integers(0, 2**64 - 1).map(lambda seed: build(random.Random(seed)))


BATCH = 4
"""Inputs checked by one example of a batched fuzz test: hypothesis spends about a millisecond
on each example itself, as much as checking one input costs; four inputs an example give four
times the inputs in the time budget."""


def batches(build: Callable[[random.Random], T]) -> st.SearchStrategy[list[T]]:
    """:data:`BATCH` inputs ``build`` makes, each from its own generator seeded by hypothesis
    (check them with :func:`tests.fuzz.check_each`)."""
    return st.integers(0, 2**64 - 1).map(
        lambda seed: [build(random.Random(f"{seed}/{k}")) for k in range(BATCH)]
    )


def joined(tokens: Sequence[str], max_pieces: int = 40) -> st.SearchStrategy[str]:
    """Text made of up to ``max_pieces`` pieces (see :func:`piece`)."""
    return seeded(
        lambda rnd: "".join(piece(rnd, tokens) for _ in range(rnd.randint(0, max_pieces)))
    )


def mutate(rnd: random.Random, text: str, tokens: Sequence[str], edits: int = 8) -> str:
    """``text`` with one to ``edits`` random edits: a slice deleted, duplicated or moved, a
    piece inserted or written over, two lines swapped, the end cut off."""
    for _ in range(rnd.randint(1, edits)):
        n = len(text)
        a = rnd.randint(0, n)
        b = rnd.randint(a, min(n, a + 200))
        op = rnd.choice(("delete", "insert", "overwrite", "duplicate", "move", "swap", "cut"))
        if op == "delete":
            text = text[:a] + text[b:]
        elif op == "insert":
            text = text[:a] + piece(rnd, tokens) + text[a:]
        elif op == "overwrite":
            new = piece(rnd, tokens)
            text = text[:a] + new + text[a + len(new) :]
        elif op == "duplicate":
            text = text[:b] + text[a:b] + text[b:]
        elif op == "move":
            rest = text[:a] + text[b:]
            k = rnd.randint(0, len(rest))
            text = rest[:k] + text[a:b] + rest[k:]
        elif op == "swap":
            lines = text.split("\n")
            i, k = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
            text = "\n".join(lines)
        else:
            text = text[:a]
    return text


def mutated(samples: Sequence[str], tokens: Sequence[str]) -> st.SearchStrategy[list[str]]:
    """Batches of ``samples`` with random edits (see :func:`mutate`)."""
    return batches(lambda rnd: mutate(rnd, rnd.choice(samples), tokens))
