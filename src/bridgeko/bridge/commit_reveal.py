"""Commit–reveal of a secret seed: the one way to make, check and commit to a seed (R12.7, I8).

Used by computer dealing (:mod:`bridgeko.bridge.dealing`) and by the draw
(:mod:`bridgeko.competition.draw`):

1. The organiser makes a secret seed with :func:`new_seed` (32 bytes from the operating system's
   CSPRNG) and publishes :func:`commitment` (the SHA-256 of the seed, 64 hex digits) before the
   boards are played or the draw is held.
2. Afterwards the seed is revealed; anyone checks it against the commitment with
   :func:`verify_commitment` (a constant-time comparison) and recomputes the boards or the lot.

**The seed rule** (:func:`check_seed`, :func:`seed_problem`), one rule wherever a seed comes in
(``bridgeko deal --seed``, ``bridgeko verify-deal``, the draw, ``bridgeko verify-draw``):

- a seed has at least :data:`MIN_SEED_BYTES` (16) bytes: shorter ones could be found by trying
  them all;
- a seed that is obviously not random is refused: one whose bytes **repeat a pattern of fewer
  than 16 bytes at least twice over** (the last repetition may be cut short). That covers a seed
  of one byte value (``00 00 00 ...``: a pattern of 1 byte), ``5eed5eed...`` (2 bytes),
  ``deadbeef...`` (4 bytes) and ``0123456789abcdef`` written twice (8 bytes). Such a seed holds
  no more than its pattern, fewer than the 16 bytes the first point asks for. A random seed is
  refused with a probability below 2^-60 (at least 8 of its bytes would have to repeat the ones
  before them).

The rule is about obvious mistakes (a placeholder, a typed-in pattern), not a test of
randomness: :func:`new_seed` is the way to make a seed.

Errors are :class:`SeedError` (a :class:`~bridgeko.bridge.errors.BridgeInputError`) carrying the
English ``template`` and its ``params``, so that a screen can show them translated (the templates
are in the project catalogue).

>>> seed = bytes.fromhex("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
>>> commitment(seed) == commitment(parse_seed(seed.hex().upper()))
True
>>> verify_commitment(seed, commitment(seed))
True
>>> str(seed_problem(bytes(32)))
'a seed of 32 bytes all equal to 00 is not random; make the seed with a random generator'
>>> str(seed_problem(bytes.fromhex("5eed" * 16)))
"a seed that repeats the 2 bytes '5eed' is not random; make the seed with a random generator"
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

from bridgeko.bridge.errors import BridgeInputError

__all__ = [
    "MIN_SEED_BYTES",
    "SEED_BYTES",
    "SEED_NOT_BYTES",
    "SEED_NOT_HEX",
    "SEED_ONE_VALUE",
    "SEED_PATTERN",
    "SEED_TOO_SHORT",
    "SeedError",
    "check_seed",
    "commitment",
    "new_seed",
    "parse_seed",
    "seed_digest",
    "seed_problem",
    "verify_commitment",
]

SEED_BYTES = 32
"""Length of a seed made by :func:`new_seed` (256 bits)."""

MIN_SEED_BYTES = 16
"""The shortest seed accepted (128 bits): shorter ones could be found by trying them all. A
seed repeating a pattern shorter than this is refused too (see the module's docstring)."""


def N_(template: str) -> str:
    """Marks a message template for translation (``makemessages --keyword=N_``); a no-op.

    The same marker as :func:`bridgeko.competition.messages.N_`, defined here because the bridge
    layer imports nothing from the competition layer."""
    return template


SEED_NOT_BYTES = N_("a seed is bytes, not %(type)s")
SEED_NOT_HEX = N_("not a seed: %(text)s (expected hexadecimal digits, two for each byte)")
SEED_TOO_SHORT = N_(
    "a seed needs at least %(min)s bytes (%(digits)s hex digits), this one has %(count)s"
)
SEED_ONE_VALUE = N_(
    "a seed of %(count)s bytes all equal to %(byte)s is not random; make the seed with a random "
    "generator"
)
SEED_PATTERN = N_(
    "a seed that repeats the %(period)s bytes %(pattern)s is not random; make the seed with a "
    "random generator"
)
"""The templates of :class:`SeedError` (the web layer translates them)."""


class SeedError(BridgeInputError):
    """A seed that breaks the seed rule, or a text that is no seed.

    ``str(error)`` is the English message; :attr:`template` and :attr:`params` are the same
    message as a translatable template and its values (what ``bridgeko.core.i18n.tr`` reads, and
    what :class:`bridgeko.competition.messages.Message` holds)."""

    def __init__(self, template: str, params: Mapping[str, str | int] | None = None) -> None:
        self.template = template
        self.params: dict[str, str | int] = dict(params or {})
        super().__init__(template % self.params if self.params else template)


def _short_period(data: bytes) -> int | None:
    """The shortest pattern (fewer than MIN_SEED_BYTES bytes) that ``data`` repeats at least
    twice over, or None."""
    for period in range(1, min(MIN_SEED_BYTES - 1, len(data) // 2) + 1):
        if data[period:] == data[:-period]:
            return period
    return None


def seed_problem(seed: object) -> SeedError | None:
    """What is wrong with ``seed`` under the seed rule (see the module's docstring), or None."""
    if not isinstance(seed, bytes | bytearray):
        return SeedError(SEED_NOT_BYTES, {"type": type(seed).__name__})
    data = bytes(seed)
    if len(data) < MIN_SEED_BYTES:
        return SeedError(
            SEED_TOO_SHORT,
            {"min": MIN_SEED_BYTES, "digits": 2 * MIN_SEED_BYTES, "count": len(data)},
        )
    period = _short_period(data)
    if period == 1:
        return SeedError(SEED_ONE_VALUE, {"count": len(data), "byte": data[:1].hex()})
    if period is not None:
        return SeedError(SEED_PATTERN, {"period": period, "pattern": repr(data[:period].hex())})
    return None


def check_seed(seed: object) -> bytes:
    """``seed`` as bytes when it keeps the seed rule; :class:`SeedError` naming the problem
    otherwise."""
    problem = seed_problem(seed)
    if problem is not None:
        raise problem
    assert isinstance(seed, bytes | bytearray)
    return bytes(seed)


def new_seed() -> bytes:
    """A fresh secret seed of :data:`SEED_BYTES` bytes from the operating system's CSPRNG."""
    while True:
        seed = secrets.token_bytes(SEED_BYTES)
        if seed_problem(seed) is None:  # refused with a probability below 2^-60
            return seed


def seed_digest(seed: bytes) -> str:
    """The hex SHA-256 of any bytes, the seed rule not applied (to report what a revealed seed
    hashes to); publish :func:`commitment` instead."""
    return hashlib.sha256(bytes(seed)).hexdigest()


def commitment(seed: bytes) -> str:
    """The commitment published before play or the draw: the hex SHA-256 of the seed, which must
    keep the seed rule (:class:`SeedError` otherwise)."""
    return hashlib.sha256(check_seed(seed)).hexdigest()


def verify_commitment(seed: bytes, commitment_hex: str) -> bool:
    """Whether ``seed`` is the seed committed to by ``commitment_hex`` (hex digits, any case,
    spaces around allowed), compared in constant time."""
    expected = hashlib.sha256(bytes(seed)).hexdigest().encode("ascii")
    given = str(commitment_hex).strip().lower().encode("utf-8", "replace")
    return hmac.compare_digest(expected, given)


def parse_seed(text: str) -> bytes:
    """A seed from its hex spelling (spaces and line breaks ignored), checked by the seed rule;
    :class:`SeedError` naming the problem otherwise."""
    digits = "".join(str(text).split())
    try:
        seed = bytes.fromhex(digits)
    except ValueError:
        raise SeedError(SEED_NOT_HEX, {"text": repr(text)}) from None
    return check_seed(seed)
