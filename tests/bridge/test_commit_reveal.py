"""One commit-reveal for dealing and the draw: seeds, commitments and the one seed rule (R12.7, I8).

The rule: at least 16 bytes, and no pattern of fewer than 16 bytes repeated at least twice over
(one byte value, ``5eed5eed...``, ``deadbeef...``). Every entry point refuses such a seed with
the same message: the core functions here, ``dealing`` (``bridgeko deal --seed``,
``bridgeko verify-deal``), the draw's ``hold_draw`` and ``verify_protocol``
(``bridgeko verify-draw``); see also tests/test_cli_seed_rule.py and
tests/web/test_draw_seed_rule.py.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeko.bridge import commit_reveal, dealing
from bridgeko.bridge.commit_reveal import (
    MIN_SEED_BYTES,
    SEED_BYTES,
    SEED_NOT_HEX,
    SEED_ONE_VALUE,
    SEED_PATTERN,
    SEED_TOO_SHORT,
    SeedError,
    check_seed,
    commitment,
    new_seed,
    parse_seed,
    seed_digest,
    seed_problem,
    verify_commitment,
)
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.competition import draw
from tests.sizes import examples

GOOD = hashlib.sha256(b"a good seed").digest()
SHORT = GOOD[:15]
ZEROS = bytes(32)
PATTERN = bytes.fromhex("5eed" * 16)

WEAK = [
    (SHORT, "a seed needs at least 16 bytes (32 hex digits), this one has 15"),
    (
        ZEROS,
        "a seed of 32 bytes all equal to 00 is not random; make the seed with a random generator",
    ),
    (
        PATTERN,
        "a seed that repeats the 2 bytes '5eed' is not random; make the seed with a random "
        "generator",
    ),
]
"""The three weak seeds every entry point refuses, with the message it gives."""


@pytest.mark.parametrize(("seed", "message"), WEAK)
def test_I8_weak_seeds_are_refused_with_a_message(seed: bytes, message: str) -> None:
    problem = seed_problem(seed)
    assert problem is not None and str(problem) == message
    with pytest.raises(SeedError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        check_seed(seed)
    with pytest.raises(SeedError) as info:
        commitment(seed)
    assert str(info.value) == message
    with pytest.raises(SeedError) as info:
        parse_seed(seed.hex())
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("seed", "template", "params"),
    [
        (b"\x01" * 32, SEED_ONE_VALUE, {"count": 32, "byte": "01"}),
        (b"\xff" * 16, SEED_ONE_VALUE, {"count": 16, "byte": "ff"}),
        (bytes.fromhex("deadbeef" * 8), SEED_PATTERN, {"period": 4, "pattern": "'deadbeef'"}),
        # "0123456789abcdef" typed twice: a 16-byte seed of an 8-byte pattern.
        (bytes.fromhex("0123456789abcdef" * 2), SEED_PATTERN, {"period": 8}),
        # A 15-byte pattern repeated, the last repetition cut short.
        ((GOOD[:15] * 3)[:40], SEED_PATTERN, {"period": 15}),
        (GOOD[:15], SEED_TOO_SHORT, {"min": 16, "digits": 32, "count": 15}),
        (b"", SEED_TOO_SHORT, {"count": 0}),
    ],
)
def test_I8_seed_rule_names_the_problem(
    seed: bytes, template: str, params: dict[str, object]
) -> None:
    problem = seed_problem(seed)
    assert problem is not None
    assert problem.template == template
    assert params.items() <= problem.params.items()
    assert str(problem) == template % problem.params
    assert isinstance(problem, BridgeInputError)


@pytest.mark.parametrize(
    "seed",
    [
        GOOD,
        GOOD[:16],
        bytes(range(32)),  # counting is not a repeated pattern
        bytes.fromhex("00112233445566778899aabbccddeeff" * 2),  # a 16-byte pattern: allowed
        GOOD[:15] + GOOD[:1],  # 16 bytes whose last repeats the first: no repeated pattern
        bytes(15) + b"\x01",
    ],
)
def test_I8_seed_rule_accepts_seeds_without_a_short_repeated_pattern(seed: bytes) -> None:
    assert seed_problem(seed) is None
    assert check_seed(bytearray(seed)) == seed


def test_I8_seed_rule_refuses_what_is_not_bytes() -> None:
    problem = seed_problem("00" * 32)
    assert problem is not None and str(problem) == "a seed is bytes, not str"


@settings(max_examples=examples(300))
@given(st.binary(min_size=MIN_SEED_BYTES, max_size=64))
def test_I8_seed_rule_matches_its_definition(seed: bytes) -> None:
    """Refused exactly when a pattern of 1..15 bytes repeats at least twice over."""
    periodic = any(
        all(seed[i] == seed[i + p] for i in range(len(seed) - p))
        for p in range(1, min(MIN_SEED_BYTES - 1, len(seed) // 2) + 1)
    )
    assert (seed_problem(seed) is not None) == periodic


def test_I8_new_seeds_are_32_random_bytes_that_keep_the_rule() -> None:
    seeds = {new_seed() for _ in range(200)}
    assert len(seeds) == 200
    assert all(len(s) == SEED_BYTES and seed_problem(s) is None for s in seeds)


def test_I8_commitment_and_constant_time_check() -> None:
    published = commitment(GOOD)
    assert published == hashlib.sha256(GOOD).hexdigest() == seed_digest(GOOD)
    assert verify_commitment(GOOD, published)
    assert verify_commitment(GOOD, " " + published.upper() + "\n")
    assert not verify_commitment(GOOD[:-1] + bytes([GOOD[-1] ^ 1]), published)
    assert not verify_commitment(GOOD, "")
    assert not verify_commitment(GOOD, "č" * 64)
    # The digest of any bytes, for reporting what a refused revealed seed hashes to.
    assert seed_digest(ZEROS) == hashlib.sha256(ZEROS).hexdigest()


def test_I8_parse_seed_reads_hex_with_spaces_and_names_the_problem() -> None:
    assert parse_seed(" " + GOOD.hex()[:20] + "\n" + GOOD.hex()[20:].upper()) == GOOD
    with pytest.raises(SeedError) as info:
        parse_seed("xyz")
    assert info.value.template == SEED_NOT_HEX
    assert str(info.value) == "not a seed: 'xyz' (expected hexadecimal digits, two for each byte)"


def test_one_commit_reveal_for_dealing_and_the_draw() -> None:
    """The old names of dealing and the draw are the shared module's functions."""
    assert dealing.new_seed is commit_reveal.new_seed
    assert dealing.commitment is commit_reveal.commitment
    assert dealing.verify_commitment is commit_reveal.verify_commitment
    assert dealing.parse_seed is commit_reveal.parse_seed
    assert dealing.MIN_SEED_BYTES == MIN_SEED_BYTES and dealing.SEED_BYTES == SEED_BYTES
    assert draw.new_seed is commit_reveal.new_seed
    assert draw.commitment(GOOD) == commitment(GOOD)


@pytest.mark.parametrize(("seed", "message"), WEAK)
def test_R12_7_dealing_refuses_a_weak_seed(seed: bytes, message: str) -> None:
    with pytest.raises(BridgeInputError) as info:
        dealing.deal_set(seed, "Open K.O.", "QF-1", range(1, 3))
    assert str(info.value) == message
    with pytest.raises(BridgeInputError) as info:
        dealing.DealSetProtocol.create(seed, "Open K.O.", "QF-1", range(1, 3))
    assert str(info.value) == message
