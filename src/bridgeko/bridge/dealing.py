"""Computer-dealt boards fit for a championship (R12.7): secure, uniform and reproducible.

The method (version :data:`METHOD`), the one the Big Deal generator uses:

1. The deals are numbered ``0 .. D-1`` with ``D = 52!/(13!)^4`` (:data:`DEAL_COUNT`). A number
   ``n`` is a mixed-radix value of three combination indices, ``n = (i_N * C(39,13) + i_E) *
   C(26,13) + i_S``: North's 13 cards of the 52, East's 13 of the 39 left, South's 13 of the 26
   left (cards in :attr:`Card.index` order, spade ace first); West holds the rest.
   :func:`deal_number` decodes a number, :func:`number_of_deal` is its inverse.
2. For a board, 96-bit values are taken from HMAC-SHA-256 keyed with the secret seed over an
   unambiguous, length-prefixed encoding of (method, event, session, board, counter). A value
   ``>= D`` is rejected and the counter moves on (``counter += 1``) until a value falls below
   ``D`` (about 68 % of them do), so every deal is equally likely.
3. Before play the organiser publishes :func:`commitment` (SHA-256 of the seed); after play the
   seed is revealed and anyone can check it against the commitment and regenerate every board.
   Seeds, commitments and the seed rule (at least 16 bytes, no short repeating pattern) are
   those of :mod:`bridgeko.bridge.commit_reveal`, shared with the draw; the names are
   re-exported here.

Exact definitions, for anyone re-implementing the check:

* message = ``f("bridgeko-deal-v1") | f(event) | f(session) | u32(board) | u32(counter)`` where
  ``f(t) = u32(len(b)) | b`` with ``b`` the UTF-8 bytes of ``t`` in Unicode NFC, and ``u32`` is
  4 bytes big-endian; the value is the first 12 bytes of the HMAC, big-endian.
* A combination index ``i`` of 13 cards among ``F`` free cards (``F`` = 52, 39 or 26, listed in
  ascending card order) cuts the free cards into windows of 13 and groups the combinations by
  how many cards they take from each window, ``(j_1, ..., j_m)``; the groups are ordered
  lexicographically by that tuple, each holding ``prod C(13, j_k)`` combinations. Inside a group
  the index is mixed radix over the windows with the first window least significant, and inside
  a window the rank counts the ``C(13, j)`` subsets in lexicographic order of their positions
  (Python's ``itertools.combinations`` order).

Same inputs, same deals: the result depends only on (seed, event, session, board).

Two implementations of the numbering give the same deals: the scalar one for a single deal
(:func:`deal_number`, :func:`deal_number_indices`, :func:`deal_board`) and a batch one with numpy
for sets (:func:`deal_set_array`, an ``(n, 4, 13)`` array of card indices, the fastest;
:func:`deal_set_seats`, the seat of each card; :func:`deal_numbers_array`). :func:`deal_set`,
:func:`deal_set_indices` and :func:`deal_set_batches` use the batch one too. A third, direct
one (:func:`deal_set_small`) needs neither tables nor numpy: a board or a session starts at once.

>>> seed = bytes(range(32))
>>> deal_board(seed, "Open K.O.", "QF-1", 1) == deal_board(seed, "Open K.O.", "QF-1", 1)
True
>>> deal_number(0).to_pbn()
'N:...AKQJT98765432 ..AKQJT98765432. .AKQJT98765432.. AKQJT98765432...'
>>> number_of_deal(deal_number(DEAL_COUNT - 1)) == DEAL_COUNT - 1
True
"""

from __future__ import annotations

import hmac
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from math import comb
from operator import itemgetter

from bridgeko.bridge.commit_reveal import (
    MIN_SEED_BYTES,
    SEED_BYTES,
    SeedError,
    commitment,
    new_seed,
    parse_seed,
    verify_commitment,
)
from bridgeko.bridge.commit_reveal import check_seed as _check_seed
from bridgeko.bridge.errors import BridgeInputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Self

    import numpy as np
    import numpy.typing as npt

    from bridgeko.bridge.cards import Card, Deal

# numpy is imported by the batch path only, and the card values (:mod:`bridgeko.bridge.cards`)
# by the functions that make them (inside the functions): dealing a board or a session as card
# indices (:func:`deal_set_small`) starts without either.

__all__ = [
    "DEAL_COUNT",
    "MAX_RANGE_BOARDS",
    "METHOD",
    "METHOD_DESCRIPTION",
    "MIN_SEED_BYTES",
    "SEED_BYTES",
    "CardArray",
    "CardIndices",
    "DealHash",
    "DealSetProtocol",
    "SeatArray",
    "SeedError",
    "board_deal_number",
    "board_numbers",
    "card_seats",
    "commitment",
    "deal_board",
    "deal_from_indices",
    "deal_number",
    "deal_number_indices",
    "deal_numbers",
    "deal_numbers_array",
    "deal_numbers_seats",
    "deal_set",
    "deal_set_array",
    "deal_set_batches",
    "deal_set_indices",
    "deal_set_seats",
    "deal_set_small",
    "hmac_sha256",
    "new_seed",
    "number_of_deal",
    "parse_board_range",
    "parse_seed",
    "verify_commitment",
]

METHOD = "bridgeko-deal-v1"
"""Version of the dealing method; part of every hashed message and of the published protocol."""

METHOD_DESCRIPTION = (
    "bridgeko-deal-v1: deals numbered 0..D-1, D = 52!/(13!)^4, n = (iN * C(39,13) + iE) * "
    "C(26,13) + iS with the combination indices of N's 13 of 52, E's 13 of the remaining 39, "
    "S's 13 of the remaining 26 (windows of 13, see bridgeko.bridge.dealing); value = first 12 "
    "bytes big-endian of HMAC-SHA-256(seed, f('bridgeko-deal-v1') | f(event) | f(session) | "
    "u32 board | u32 counter), f(t) = u32 length | UTF-8 NFC bytes, u32 big-endian; values "
    ">= D rejected (counter + 1); commitment = hex SHA-256(seed)"
)
"""A human-readable statement of the method, for the published protocol."""

MAX_RANGE_BOARDS = 1_000_000
"""The most boards a range text may name (a guard against a typo like ``1-1000000000``)."""

_C52 = comb(52, 13)
_C39 = comb(39, 13)
_C26 = comb(26, 13)

DEAL_COUNT = _C52 * _C39 * _C26
"""The number of bridge deals: 53,644,737,765,488,792,839,237,440,000."""

_VALUE_BYTES = 12  # 96 bits; DEAL_COUNT / 2**96 = 0.677, so 1.48 hashes per deal on average
_MAX_COUNTER = 2**32 - 1

CardIndices = tuple[int, ...]
"""The cards of one hand as indices 0..51 (see :attr:`Card.index`), ascending."""

DealHash = Callable[[bytes, bytes], bytes]
"""A keyed hash ``(seed, message) -> digest`` (at least 12 bytes); HMAC-SHA-256 by default."""


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA-256 of ``message`` keyed with ``key``: the default :data:`DealHash`."""
    return hmac.digest(key, message, "sha256")


# --- board numbers ---------------------------------------------------------------------------


def parse_board_range(text: str) -> tuple[int, ...]:
    """Board numbers from ``"1-32"``, ``"5"`` or ``"1-16,33-48"`` (ascending, no repeats).

    >>> parse_board_range("1-3,7")
    (1, 2, 3, 7)
    """
    boards: list[int] = []
    for part in text.split(","):
        p = part.strip()
        lo_text, sep, hi_text = p.partition("-")
        try:
            lo = int(lo_text)
            hi = int(hi_text) if sep else lo
        except ValueError:
            raise BridgeInputError(
                f"not a board range: {text!r} (expected e.g. 1-32 or 1-16,33-48)"
            ) from None
        if lo < 1:
            raise BridgeInputError(f"board numbers start at 1, not {lo} (in {text!r})")
        if hi < lo:
            raise BridgeInputError(f"empty board range {p!r}: the first board is after the last")
        if hi - lo >= MAX_RANGE_BOARDS or len(boards) + hi - lo >= MAX_RANGE_BOARDS:
            raise BridgeInputError(f"too many boards in {text!r} (at most {MAX_RANGE_BOARDS:,})")
        boards.extend(range(lo, hi + 1))
    if len(set(boards)) != len(boards):
        raise BridgeInputError(f"a board is listed twice in {text!r}")
    return tuple(sorted(boards))


def board_numbers(boards: Iterable[int]) -> tuple[int, ...]:
    """Checks board numbers (whole numbers from 1 up) and returns them as a tuple."""
    out = tuple(boards)
    for b in out:
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise BridgeInputError(f"a board number is a whole number from 1 up, not {b!r}")
        if b > _MAX_COUNTER:
            raise BridgeInputError(f"board number too large: {b}")
    return out


# --- numbering of deals: tables --------------------------------------------------------------
#
# A combination index of k cards among n free cards (n = 52, 39 or 26, k = 13) is decoded window
# by window: the free cards are cut into windows of 13. The combinations are grouped by how many
# cards fall in each window (a "composition" j_1 + ... + j_m = 13); group g holds prod C(13, j_i)
# combinations and starts at START[g]. Inside a group the index is mixed radix over the windows
# (first window least significant), and inside a window a rank picks one of the C(13, j)
# subsets (in itertools.combinations order) through a precomputed itemgetter. Everything in the
# hot loop is a bisect, a few divmods and C-level tuple picking.

_W = 13  # window size; 52, 39 and 26 are all multiples of it

_Picker = Callable[[Sequence[int]], tuple[int, ...]]


def _picker(offsets: tuple[int, ...]) -> _Picker:
    """A C-level function picking the items at ``offsets`` of a sequence, as a tuple."""
    if len(offsets) >= 2:
        return itemgetter(*offsets)
    # itemgetter(i) would return a bare item; a slice gives a tuple of one (or none).
    first = offsets[0] if offsets else 0
    return itemgetter(slice(first, first + len(offsets)))


class _Tables:
    """The tables of the scalar decoder (a plain class, not a dataclass: making a dataclass costs
    a millisecond at import, paid by every command that deals)."""

    __slots__ = ("flat", "group_of", "groups", "north", "pick", "rank_of", "starts")

    def __init__(
        self,
        pick: tuple[tuple[tuple[tuple[_Picker, _Picker], ...], ...], ...],
        rank_of: tuple[Mapping[tuple[int, ...], int], ...],
        starts: Mapping[int, tuple[int, ...]],
        groups: Mapping[int, tuple[tuple[tuple[int, int], ...], ...]],
        group_of: Mapping[int, Mapping[tuple[int, ...], int]],
        north: tuple[tuple[tuple[tuple[CardIndices, CardIndices], ...], ...], ...],
        flat: Mapping[int, tuple[tuple[int, ...], ...]],
    ) -> None:
        self.pick = pick
        """pick[w][j][rank] = (picker of the chosen, picker of the others) in window w (0-2)."""
        self.rank_of = rank_of
        """rank_of[j][chosen offsets] = rank: the inverse of ``pick``."""
        self.starts = starts
        """starts[m]: first combination index of each composition group, for m windows."""
        self.groups = groups
        """groups[m][g]: ((j_1, C(13, j_1)), ..., (j_m, C(13, j_m))) of composition group g."""
        self.group_of = group_of
        """group_of[m][(j_1, ..., j_m)] = g."""
        self.north = north
        """north[w][j][rank] = (chosen, left) card indices of window w of the full pack."""
        self.flat = flat
        """flat[m][g + 1] = (start, j_1, C(13, j_1), ..., j_m): group g unrolled for the hot
        loop (indexed by ``bisect_right(starts[m], index)``; flat[m][0] is unused)."""


def _sums(m: int, total: int) -> Iterator[tuple[int, ...]]:
    """The tuples of ``m`` numbers 0..13 adding up to ``total``, in lexicographic order (the
    order of ``itertools.product``, without going through the 14**m tuples that do not add up).
    """
    if m == 1:
        if total <= _W:
            yield (total,)
        return
    for j in range(max(0, total - _W * (m - 1)), min(_W, total) + 1):
        if m == 2:
            yield (j, total - j)
        else:
            for rest in _sums(m - 1, total - j):
                yield (j, *rest)


@cache
def _compositions(m: int) -> tuple[tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """The composition groups of a combination index of 13 among ``13 * m`` free cards: the
    first index of each group and its ((j_1, C(13, j_1)), ..., (j_m, C(13, j_m)))."""
    first: list[int] = []
    groups: list[tuple[tuple[int, int], ...]] = []
    total = 0
    pairs = [(j, comb(_W, j)) for j in range(_W + 1)]  # (j, C(13, j))
    for js in _sums(m, _W):
        first.append(total)
        group = tuple([pairs[j] for j in js])
        groups.append(group)
        size = 1
        for _j, c in group:
            size *= c
        total += size
    assert total == comb(m * _W, _W)
    return tuple(first), tuple(groups)


@cache
def _tables() -> _Tables:
    rank_of: list[dict[tuple[int, ...], int]] = []
    subsets: list[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]] = []
    for j in range(_W + 1):
        ranks: dict[tuple[int, ...], int] = {}
        row = []
        for rank, chosen in enumerate(combinations(range(_W), j)):
            row.append((chosen, tuple(i for i in range(_W) if i not in chosen)))
            ranks[chosen] = rank
        subsets.append(tuple(row))
        rank_of.append(ranks)
    # Pickers for windows 0-2 (East picks from 39 free cards, South from 26), the window's
    # offset built in, so that the hot loop needs no slicing. A subset's "others" picker is the
    # picker of the complementary subset: one object each, which keeps the tables small.
    pick = []
    for w in range(3):
        getters = {
            chosen: _picker(tuple(w * _W + i for i in chosen))
            for row in subsets
            for chosen, _others in row
        }
        pick.append(
            tuple(
                tuple((getters[chosen], getters[others]) for chosen, others in row)
                for row in subsets
            )
        )
    starts: dict[int, tuple[int, ...]] = {}
    groups: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}
    group_of: dict[int, dict[tuple[int, ...], int]] = {}
    for m in (2, 3, 4):
        starts[m], groups[m] = _compositions(m)
        group_of[m] = {tuple(j for j, _c in g): i for i, g in enumerate(groups[m])}
    north = tuple(
        tuple(
            tuple(
                (
                    tuple(w * _W + i for i in chosen),
                    tuple(w * _W + i for i in range(_W) if i not in chosen),
                )
                for chosen in combinations(range(_W), j)
            )
            for j in range(_W + 1)
        )
        for w in range(4)
    )
    flat: dict[int, tuple[tuple[int, ...], ...]] = {}
    for m in groups:
        rows: list[tuple[int, ...]] = [()]
        for start, group in zip(starts[m], groups[m], strict=True):
            unrolled = tuple(x for jc in group for x in jc)
            rows.append((start, *unrolled[:-1]))
        flat[m] = tuple(rows)
    return _Tables(tuple(pick), tuple(rank_of), starts, groups, group_of, north, flat)


def _unsplit(tables: _Tables, free: tuple[int, ...], chosen: frozenset[int]) -> int:
    """The combination index of ``chosen`` among ``free``: the inverse of :func:`_split`."""
    m = len(free) // _W
    js: list[int] = []
    ranks: list[int] = []
    for lo in range(0, len(free), _W):
        offsets = tuple(i for i, c in enumerate(free[lo : lo + _W]) if c in chosen)
        js.append(len(offsets))
        ranks.append(tables.rank_of[len(offsets)][offsets])
    g = tables.group_of[m][tuple(js)]
    x = 0
    for (_j, radix), r in zip(reversed(tables.groups[m][g]), reversed(ranks), strict=True):
        x = x * radix + r
    return tables.starts[m][g] + x


_ALL_CARDS: tuple[int, ...] = tuple(range(52))


def deal_number_indices(n: int) -> tuple[CardIndices, CardIndices, CardIndices, CardIndices]:
    """Deal number ``n`` as the card indices of North, East, South and West (the fast path)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < DEAL_COUNT:
        raise BridgeInputError(f"a deal number is a whole number from 0 to {DEAL_COUNT - 1}")
    return _decode(n)


_Decoded = tuple[CardIndices, CardIndices, CardIndices, CardIndices]


@cache
def _decoder() -> Callable[[int], _Decoded]:
    """The hot loop of dealing, unrolled, with every table bound to a local name."""
    t = _tables()
    pick0, pick1, pick2 = t.pick
    north = t.north
    nw0, nw1, nw2, nw3 = north
    starts4, starts3, starts2 = t.starts[4], t.starts[3], t.starts[2]
    flat4, flat3, flat2 = t.flat[4], t.flat[3], t.flat[2]
    c26, c39 = _C26, _C39

    def decode(n: int) -> _Decoded:
        rest, x_s = divmod(n, c26)
        x, x_e = divmod(rest, c39)
        # North: 13 of the 52 cards, 4 windows of the full pack (tables of absolute indices).
        start, j0, c0, j1, c1, j2, c2, j3 = flat4[bisect_right(starts4, x)]
        x -= start
        x, r0 = divmod(x, c0)
        x, r1 = divmod(x, c1)
        r3, r2 = divmod(x, c2)
        n0, f0 = nw0[j0][r0]
        n1, f1 = nw1[j1][r1]
        n2, f2 = nw2[j2][r2]
        n3, f3 = nw3[j3][r3]
        free = f0 + f1 + f2 + f3
        # East: 13 of the 39 left, 3 windows.
        start, j0, c0, j1, c1, j2 = flat3[bisect_right(starts3, x_e)]
        x = x_e - start
        x, r0 = divmod(x, c0)
        r2, r1 = divmod(x, c1)
        take0, keep0 = pick0[j0][r0]
        take1, keep1 = pick1[j1][r1]
        take2, keep2 = pick2[j2][r2]
        east = take0(free) + take1(free) + take2(free)
        free = keep0(free) + keep1(free) + keep2(free)
        # South: 13 of the 26 left, 2 windows; West holds the rest.
        start, j0, c0, j1 = flat2[bisect_right(starts2, x_s)]
        x = x_s - start
        r1, r0 = divmod(x, c0)
        take0, keep0 = pick0[j0][r0]
        take1, keep1 = pick1[j1][r1]
        return n0 + n1 + n2 + n3, east, take0(free) + take1(free), keep0(free) + keep1(free)

    return decode


def _decode(n: int) -> _Decoded:
    return _decoder()(n)


# --- numbering of deals: the direct path (no tables) -----------------------------------------
#
# The same numbering for a few deals, computed from binomial coefficients: nothing to build
# before the first deal (the tables of :func:`_decoder` take a third of a second, numpy's import
# and tables as long), some 30 microseconds a deal after.

_BINOMIAL: tuple[tuple[int, ...], ...] = tuple(
    tuple(comb(n, k) for k in range(_W + 1)) for n in range(_W + 1)
)


def _choose_direct(free: tuple[int, ...], index: int) -> tuple[CardIndices, tuple[int, ...]]:
    """The cards of combination ``index`` of 13 among ``free`` (13, 26, 39 or 52 of them, in
    ascending order) and the cards left."""
    starts, groups = _compositions(len(free) // _W)
    g = bisect_right(starts, index) - 1
    x = index - starts[g]
    chosen: list[int] = []
    left: list[int] = []
    binomial = _BINOMIAL
    for w, (j, radix) in enumerate(groups[g]):
        x, rank = divmod(x, radix)  # the first window least significant
        # The rank-th subset of j of the window's 13 cards in itertools.combinations order:
        # of the subsets still possible, those with the card at offset c come first.
        slot = j
        for c, card in enumerate(free[w * _W : (w + 1) * _W]):
            if slot and rank < (count := binomial[_W - 1 - c][slot - 1]):
                chosen.append(card)
                slot -= 1
            else:
                if slot:
                    rank -= count
                left.append(card)
    return tuple(chosen), tuple(left)


def _decode_direct(n: int) -> _Decoded:
    """:func:`_decode` without its tables: the same card indices of N, E, S and W."""
    rest, x_s = divmod(n, _C26)
    x_n, x_e = divmod(rest, _C39)
    north, free = _choose_direct(_ALL_CARDS, x_n)
    east, free = _choose_direct(free, x_e)
    south, west = _choose_direct(free, x_s)
    return north, east, south, west


# --- numbering of deals: the batch path (numpy) ----------------------------------------------
#
# The same numbering, decoded for many deals at once; :func:`_decoder` stays the path for one
# deal. The 96-bit numbers arrive as 12 bytes each (big-endian), are cut into 16-bit limbs and
# split by long division into the three combination indices (each below C(52,13) < 2**40, so
# int64 from there on). A combination index is decoded as in the scalar path: its composition
# group by a searchsorted over the group starts, the windows' ranks by divmod with the group's
# radices, and each window's (j, rank) becomes a 13-bit mask (bit i = offset i chosen) through
# one table of all 2**13 window subsets.
#
# North's windows are the suits, so its masks are its holdings. East's 39-bit position mask
# (three windows of the free cards) is cut into the positions of each suit's free cards (they
# are consecutive, the free cards being in ascending order) and each piece is deposited onto
# that suit's free cards, a bit-deposit ("pdep") read from a table holding, for every 13-bit
# free mask F, the 2**popcount(F) ways to choose among its cards (3**13 entries in all). South
# is deposited the same way onto what N and E left; West holds the rest. So the batch works on
# (deals, 4 suits) arrays of holdings, never on one value per card until the output.

if TYPE_CHECKING:
    CardArray = npt.NDArray[np.int8]
    """Deals as card indices: shape ``(n, 4, 13)``, hands in the order N, E, S, W, each
    ascending."""

    SeatArray = npt.NDArray[np.int8]
    """Deals as the seat of each card: shape ``(n, 52)``, 0 = North, 1 = East, 2 = South,
    3 = West (column ``c`` is the card of :attr:`Card.index` ``c``)."""

    _Int64s = npt.NDArray[np.int64]


def __getattr__(name: str) -> object:
    """``CardArray`` and ``SeatArray`` at run time (numpy is imported on first use)."""
    if name in ("CardArray", "SeatArray"):
        import numpy as np
        import numpy.typing as npt

        return npt.NDArray[np.int8]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_LIMB_BITS = 16
_LIMBS = _VALUE_BYTES * 8 // _LIMB_BITS
_SUIT_MASK = (1 << _W) - 1


class _ArrayTables:
    """The tables of the batch decoder (a plain class: see :class:`_Tables`)."""

    __slots__ = ("bits", "deposit", "deposit_at", "first", "masks", "popcount", "radix", "starts")

    def __init__(
        self,
        masks: _Int64s,
        starts: Mapping[int, _Int64s],
        first: Mapping[int, _Int64s],
        radix: Mapping[int, _Int64s],
        popcount: _Int64s,
        deposit_at: _Int64s,
        deposit: npt.NDArray[np.uint16],
        bits: npt.NDArray[np.int8],
    ) -> None:
        self.masks = masks
        """masks[id]: the 13-bit mask of window subset ``id`` (all 2**13 of them, by size j then
        in itertools.combinations order, so that ``id = first id of size j + rank``)."""
        self.starts = starts
        """starts[m]: first combination index of each composition group, for m windows."""
        self.first = first
        """first[m][g, w]: the id of rank 0 of window w's subset size in composition group g."""
        self.radix = radix
        """radix[m][g, w] = C(13, j_w) of composition group g."""
        self.popcount = popcount
        """popcount[mask]: the number of bits set in a 13-bit mask."""
        self.deposit_at = deposit_at
        """deposit_at[F]: where the deposits onto the 13-bit free mask F start in ``deposit``."""
        self.deposit = deposit
        """deposit[deposit_at[F] + p]: the bits of p put on the set bits of F, lowest first."""
        self.bits = bits
        """bits[mask, i]: bit i of a 13-bit mask, 0 or 1."""


@cache
def _array_tables() -> _ArrayTables:
    import numpy as np

    masks: list[int] = []
    first_of_size: list[int] = []
    for j in range(_W + 1):
        first_of_size.append(len(masks))
        masks.extend(sum(1 << i for i in chosen) for chosen in combinations(range(_W), j))
    starts: dict[int, _Int64s] = {}
    first: dict[int, _Int64s] = {}
    radix: dict[int, _Int64s] = {}
    for m in (2, 3, 4):
        group_starts, groups = _compositions(m)
        starts[m] = np.array(group_starts, dtype=np.int64)
        first[m] = np.array([[first_of_size[j] for j, _c in g] for g in groups], dtype=np.int64)
        radix[m] = np.array([[c for _j, c in g] for g in groups], dtype=np.int64)
    every = np.arange(1 << _W, dtype=np.uint16)
    bits = ((every[:, None] >> np.arange(_W, dtype=np.uint16)) & 1).astype(np.int8)
    popcount = bits.sum(axis=1, dtype=np.int64)
    sizes = np.int64(1) << popcount
    deposit_at = np.cumsum(sizes) - sizes
    deposit = np.empty(int(sizes.sum()), dtype=np.uint16)
    for k in range(_W + 1):
        free = np.flatnonzero(popcount == k)  # the masks with k cards, C(13, k) of them
        where = np.nonzero(bits[free])[1].reshape(len(free), k).astype(np.uint16)  # lowest first
        p = np.arange(1 << k, dtype=np.uint16)
        put = np.zeros((len(free), 1 << k), dtype=np.uint16)
        for i in range(k):  # bit i of p goes to the i-th card of the free mask
            put |= ((p >> i) & 1)[None, :] << where[:, i][:, None]
        deposit[deposit_at[free][:, None] + p] = put
    return _ArrayTables(
        np.array(masks, dtype=np.int64), starts, first, radix, popcount, deposit_at, deposit, bits
    )


def _window_masks(at: _ArrayTables, m: int, index: _Int64s) -> _Int64s:
    """Combination indices of 13 among ``13 * m`` free cards as ``(n, m)`` window masks."""
    import numpy as np

    starts = at.starts[m]
    g = np.searchsorted(starts, index, side="right") - 1
    x = index - starts[g]
    first = at.first[m][g]
    radix = at.radix[m][g]
    ids = np.empty_like(first)
    for w in range(m - 1):  # mixed radix, the first window least significant
        x, r = np.divmod(x, radix[:, w])
        ids[:, w] = first[:, w] + r
    ids[:, m - 1] = first[:, m - 1] + x
    return at.masks[ids]


def _divmod_limbs(limbs: _Int64s, d: int) -> tuple[_Int64s, _Int64s]:
    """Long division of numbers given as 16-bit limbs (most significant first) by ``d < 2**47``:
    the quotients as limbs and the remainders."""
    import numpy as np

    q = np.empty_like(limbs)
    r = np.zeros(len(limbs), dtype=np.int64)
    for k in range(limbs.shape[1]):
        q[:, k], r = np.divmod((r << _LIMB_BITS) | limbs[:, k], d)
    return q, r


def _split_values(values: bytes) -> tuple[_Int64s, _Int64s, _Int64s]:
    """The combination indices of N, E and S of deal numbers given as 12 big-endian bytes each."""
    import numpy as np

    limbs = np.frombuffer(values, dtype=">u2").reshape(-1, _LIMBS).astype(np.int64)
    rest, i_s = _divmod_limbs(limbs, _C26)
    rest, i_e = _divmod_limbs(rest, _C39)
    # What is left is below C(52,13) < 2**40: it fits in the last three limbs.
    i_n = (rest[:, -3] << (2 * _LIMB_BITS)) | (rest[:, -2] << _LIMB_BITS) | rest[:, -1]
    return i_n, i_e, i_s


def _deposit(at: _ArrayTables, free: _Int64s, chosen: _Int64s) -> _Int64s:
    """Per suit, the free cards (``(n, 4)`` masks) chosen by ``chosen``, a mask over the
    positions of all the free cards in ascending order (the suits' free cards one after the
    other)."""
    import numpy as np

    k = at.popcount[free]
    below = np.cumsum(k, axis=1) - k  # position of each suit's first free card
    piece = (chosen[:, None] >> below) & ((1 << k) - 1)
    return at.deposit[at.deposit_at[free] + piece].astype(np.int64)


def _holdings(values: bytes) -> _Int64s:
    """Deals numbered by 12-byte big-endian values (each below DEAL_COUNT): ``(n, 4, 4)``
    13-bit masks, ``[deal, seat N/E/S/W, suit S/H/D/C]``, bit i = the card ``13 * suit + i``."""
    import numpy as np

    at = _array_tables()
    i_n, i_e, i_s = _split_values(values)
    north = _window_masks(at, 4, i_n)  # North's windows are the suits
    e = _window_masks(at, 3, i_e)
    s = _window_masks(at, 2, i_s)
    free = north ^ _SUIT_MASK
    east = _deposit(at, free, e[:, 0] | (e[:, 1] << _W) | (e[:, 2] << (2 * _W)))
    free ^= east
    south = _deposit(at, free, s[:, 0] | (s[:, 1] << _W))
    return np.stack((north, east, south, free ^ south), axis=1)


def _seats_of(holdings: _Int64s) -> SeatArray:
    bits = _array_tables().bits
    seats = bits[holdings[:, 1]] + 2 * bits[holdings[:, 2]] + 3 * bits[holdings[:, 3]]
    return seats.reshape(len(holdings), 4 * _W)


def _cards_of(seats: SeatArray) -> CardArray:
    import numpy as np

    # A stable sort by seat lists each seat's cards in ascending order (radix sort for int8).
    order = np.argsort(seats, axis=1, kind="stable")
    return order.astype(np.int8).reshape(len(seats), 4, _W)


def _values_of(numbers: Iterable[int]) -> bytes:
    data = bytearray()
    for n in numbers:
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n < DEAL_COUNT:
            raise BridgeInputError(f"a deal number is a whole number from 0 to {DEAL_COUNT - 1}")
        data += n.to_bytes(_VALUE_BYTES, "big")
    return bytes(data)


def deal_numbers_array(numbers: Iterable[int]) -> CardArray:
    """Deals numbered ``numbers`` decoded at once: the batch form of :func:`deal_number_indices`.

    Row ``k`` of the ``(n, 4, 13)`` result holds the card indices of N, E, S and W (ascending)
    of the deal numbered ``numbers[k]``.
    """
    return _cards_of(_seats_of(_holdings(_values_of(numbers))))


def deal_numbers_seats(numbers: Iterable[int]) -> SeatArray:
    """Deals numbered ``numbers`` as the ``(n, 52)`` seat of every card (0 = N ... 3 = W)."""
    return _seats_of(_holdings(_values_of(numbers)))


def card_seats(deals: CardArray) -> SeatArray:
    """The seat of every card (0 = N, 1 = E, 2 = S, 3 = W) of a card array: shape ``(n, 52)``."""
    import numpy as np

    hands = np.asarray(deals, dtype=np.intp).reshape(-1, 4 * _W)
    seats = np.empty(hands.shape, dtype=np.int8)
    np.put_along_axis(seats, hands, np.repeat(np.arange(4, dtype=np.int8), _W)[None, :], axis=1)
    return seats


class _SuitCards(dict[int, "frozenset[Card]"]):
    """``13-bit mask + 8192 * suit`` -> the frozenset of those cards, filled on first use.

    Hands are built as unions of these: a union reuses the cards' stored hashes, which is most
    of the cost of a :class:`Deal` built card by card."""

    def __missing__(self, key: int) -> frozenset[Card]:
        from bridgeko.bridge.cards import FULL_PACK

        suit, mask = divmod(key, 1 << _W)
        cards = frozenset(FULL_PACK[_W * suit + i] for i in range(_W) if mask >> i & 1)
        self[key] = cards
        return cards


@cache
def _suit_cards() -> _SuitCards:
    return _SuitCards()


def _deals_of(holdings: _Int64s) -> list[Deal]:
    """:class:`Deal` values of ``(n, 4, 4)`` holdings (see :func:`_holdings`)."""
    import numpy as np

    from bridgeko.bridge.cards import Deal, Hand

    keys = (holdings + (np.arange(4, dtype=np.int64) << _W)).reshape(-1, 16).tolist()
    c = _suit_cards()
    return [
        Deal(
            Hand(c[n0].union(c[n1], c[n2], c[n3])),
            Hand(c[e0].union(c[e1], c[e2], c[e3])),
            Hand(c[s0].union(c[s1], c[s2], c[s3])),
            Hand(c[w0].union(c[w1], c[w2], c[w3])),
        )
        for n0, n1, n2, n3, e0, e1, e2, e3, s0, s1, s2, s3, w0, w1, w2, w3 in keys
    ]


def deal_from_indices(hands: Sequence[Sequence[int]]) -> Deal:
    """A :class:`Deal` from the card indices of North, East, South and West."""
    from bridgeko.bridge.cards import FULL_PACK, Deal, Hand

    n, e, s, w = (Hand(frozenset(FULL_PACK[i] for i in h)) for h in hands)
    return Deal(n, e, s, w)


def deal_number(n: int) -> Deal:
    """The deal numbered ``n`` (``0 <= n < DEAL_COUNT``)."""
    return deal_from_indices(deal_number_indices(n))


def number_of_deal(deal: Deal) -> int:
    """The number of a complete deal: the inverse of :func:`deal_number`."""
    from bridgeko.bridge.cards import Seat

    if not deal.is_complete:
        raise BridgeInputError("only a complete deal (13 cards in each hand) has a deal number")
    t = _tables()
    free = _ALL_CARDS
    indices: list[int] = []
    for seat in (Seat.NORTH, Seat.EAST, Seat.SOUTH):
        held = frozenset(c.index for c in deal[seat].cards)
        indices.append(_unsplit(t, free, held))
        free = tuple(c for c in free if c not in held)
    n_index, e_index, s_index = indices
    return (n_index * _C39 + e_index) * _C26 + s_index


# --- hashing ---------------------------------------------------------------------------------


def _text_field(name: str, value: str) -> bytes:
    if not isinstance(value, str):
        raise BridgeInputError(f"the {name} is text, not {type(value).__name__}")
    data = unicodedata.normalize("NFC", value).encode("utf-8")
    return len(data).to_bytes(4, "big") + data


def _prefix(event: str, session: str) -> bytes:
    """The message up to the board number: method tag, event, session (length-prefixed)."""
    tag = METHOD.encode("ascii")
    return (
        len(tag).to_bytes(4, "big")
        + tag
        + _text_field("event", event)
        + _text_field("session", str(session))
    )


def _numbers(
    seed: bytes, prefix: bytes, boards: tuple[int, ...], hash_fn: DealHash | None
) -> Iterator[int]:
    """The deal number of each board: the first 96-bit hash value below DEAL_COUNT."""
    if hash_fn is None:
        # HMAC-SHA-256 of (prefix | board | counter): the keyed state after the prefix is
        # computed once and copied for every value.
        copy = hmac.new(seed, prefix, "sha256").copy
        for board in boards:
            head = board.to_bytes(4, "big")
            counter = 0
            while True:
                h = copy()
                h.update(head + counter.to_bytes(4, "big"))
                value = int.from_bytes(h.digest()[:_VALUE_BYTES], "big")
                if value < DEAL_COUNT:
                    yield value
                    break
                counter += 1
                if counter > _MAX_COUNTER:  # pragma: no cover - probability 0.32 ** 2**32
                    raise RuntimeError("no hash value below the deal count in 2**32 tries")
    else:
        for board in boards:
            head = prefix + board.to_bytes(4, "big")
            for counter in range(_MAX_COUNTER + 1):
                digest = hash_fn(seed, head + counter.to_bytes(4, "big"))
                if len(digest) < _VALUE_BYTES:
                    raise BridgeInputError(f"the deal hash must give at least {_VALUE_BYTES} bytes")
                value = int.from_bytes(digest[:_VALUE_BYTES], "big")
                if value < DEAL_COUNT:
                    yield value
                    break
            else:  # pragma: no cover
                raise RuntimeError("no hash value below the deal count in 2**32 tries")


_BATCH = 4096
"""Deals decoded per numpy batch: large enough to amortise numpy's per-call cost, small enough
to keep the intermediate arrays in the cache."""

_LIMIT = DEAL_COUNT.to_bytes(_VALUE_BYTES, "big")


def _value_batches(
    seed: bytes, prefix: bytes, boards: tuple[int, ...], hash_fn: DealHash | None
) -> Iterator[bytes]:
    """The deal numbers of the boards as 12 big-endian bytes each, ``_BATCH`` boards at a time.

    The same values as :func:`_numbers`: a 12-byte big-endian string compares as its number, so
    ``value < DEAL_COUNT`` is tested on the bytes, and ``board << 32 | counter`` written as 8
    bytes is ``u32(board) | u32(counter)``.
    """
    if hash_fn is not None:
        for start in range(0, len(boards), _BATCH):
            part = _numbers(seed, prefix, boards[start : start + _BATCH], hash_fn)
            yield b"".join(v.to_bytes(_VALUE_BYTES, "big") for v in part)
        return
    copy = hmac.new(seed, prefix, "sha256").copy
    limit = _LIMIT
    for start in range(0, len(boards), _BATCH):
        out = bytearray()
        for board in boards[start : start + _BATCH]:
            message = board << 32
            while True:
                h = copy()
                h.update(message.to_bytes(8, "big"))
                value = h.digest()[:_VALUE_BYTES]
                if value < limit:
                    out += value
                    break
                message += 1
                if not message & _MAX_COUNTER:  # pragma: no cover - probability 0.32 ** 2**32
                    raise RuntimeError("no hash value below the deal count in 2**32 tries")
        yield bytes(out)


def _set_batches(
    seed: bytes, event: str, session: str, boards: Iterable[int], hash_fn: DealHash | None
) -> tuple[tuple[int, ...], Iterator[bytes]]:
    """The checked boards and their deal numbers in batches (inputs checked at once)."""
    nums = board_numbers(boards)
    return nums, _value_batches(_check_seed(seed), _prefix(event, session), nums, hash_fn)


def deal_numbers(
    seed: bytes,
    event: str,
    session: str,
    boards: Iterable[int],
    *,
    hash_fn: DealHash | None = None,
) -> Iterator[int]:
    """The deal number chosen by ``seed`` for each of ``boards`` of (event, session), lazily.

    This is the hashing half of dealing (no decoding). ``hash_fn`` replaces HMAC-SHA-256 (for
    tests); it is called as ``hash_fn(seed, message)``.
    """
    return _numbers(_check_seed(seed), _prefix(event, session), board_numbers(boards), hash_fn)


def board_deal_number(
    seed: bytes,
    event: str,
    session: str,
    board: int,
    *,
    hash_fn: DealHash | None = None,
) -> int:
    """The deal number chosen by ``seed`` for ``board`` of (event, session)."""
    return next(deal_numbers(seed, event, session, (board,), hash_fn=hash_fn))


def deal_board(
    seed: bytes,
    event: str,
    session: str,
    board: int,
    *,
    hash_fn: DealHash | None = None,
) -> Deal:
    """The computer-dealt deal of ``board`` in (event, session), reproducible from its inputs."""
    # R12.7: computer-dealt boards for the quarterfinals, semifinals, 3rd-place match and final.
    return deal_number(board_deal_number(seed, event, session, board, hash_fn=hash_fn))


def deal_set(
    seed: bytes,
    event: str,
    session: str,
    boards: Iterable[int],
    *,
    hash_fn: DealHash | None = None,
) -> dict[int, Deal]:
    """The deals of ``boards`` in (event, session): board number -> deal."""
    # R12.7: computer-dealt boards for the quarterfinals, semifinals, 3rd-place match and final.
    nums, batches = _set_batches(seed, event, session, boards, hash_fn)
    deals = [d for values in batches for d in _deals_of(_holdings(values))]
    return dict(zip(nums, deals, strict=True))


def deal_set_array(
    seed: bytes,
    event: str,
    session: str,
    boards: Iterable[int],
    *,
    hash_fn: DealHash | None = None,
) -> CardArray:
    """The deals of ``boards`` as one ``(n, 4, 13)`` card array: the batch path, the fastest.

    Row ``k`` holds the card indices of N, E, S and W (each ascending) of the ``k``-th board
    given; the same deals as :func:`deal_set` and :func:`deal_set_indices`.
    """
    # R12.7: computer-dealt boards for the quarterfinals, semifinals, 3rd-place match and final.
    import numpy as np

    parts = list(deal_set_batches(seed, event, session, boards, hash_fn=hash_fn))
    return np.concatenate(parts) if parts else np.empty((0, 4, _W), dtype=np.int8)


def deal_set_batches(
    seed: bytes,
    event: str,
    session: str,
    boards: Iterable[int],
    *,
    hash_fn: DealHash | None = None,
) -> Iterator[CardArray]:
    """:func:`deal_set_array` a batch (at most 4096 deals) at a time, for streaming a long set.

    The inputs are checked at once; the batches joined are :func:`deal_set_array`.
    """
    # R12.7: computer-dealt boards for the quarterfinals, semifinals, 3rd-place match and final.
    _nums, batches = _set_batches(seed, event, session, boards, hash_fn)
    return (_cards_of(_seats_of(_holdings(values))) for values in batches)


def deal_set_seats(
    seed: bytes,
    event: str,
    session: str,
    boards: Iterable[int],
    *,
    hash_fn: DealHash | None = None,
) -> SeatArray:
    """The deals of ``boards`` as one ``(n, 52)`` array of the seat of each card (0 = N, 1 = E,
    2 = S, 3 = W), row ``k`` for the ``k``-th board given (statistics)."""
    # R12.7: computer-dealt boards for the quarterfinals, semifinals, 3rd-place match and final.
    import numpy as np

    _nums, batches = _set_batches(seed, event, session, boards, hash_fn)
    parts = [_seats_of(_holdings(values)) for values in batches]
    return np.concatenate(parts) if parts else np.empty((0, 4 * _W), dtype=np.int8)


def deal_set_indices(
    seed: bytes,
    event: str,
    session: str,
    boards: Iterable[int],
    *,
    hash_fn: DealHash | None = None,
) -> Iterator[_Decoded]:
    """The deals of ``boards`` as card indices of N, E, S, W, lazily (one batch at a time).

    Same deals as :func:`deal_set`, without building Card objects; :func:`deal_set_array` gives
    them as one array, faster still.
    """
    _nums, batches = _set_batches(seed, event, session, boards, hash_fn)
    return _indices(batches)


def deal_set_small(
    seed: bytes,
    event: str,
    session: str,
    boards: Iterable[int],
    *,
    hash_fn: DealHash | None = None,
) -> list[_Decoded]:
    """The deals of a few ``boards`` (a session) as card indices of N, E, S, W, in order.

    Same deals as :func:`deal_set_indices`, decoded one at a time without tables and without
    numpy (:func:`_decode_direct`): nothing to set up, so one board or a session is dealt in
    a few milliseconds, but each deal costs some 20 times what it costs in a batch. For
    thousands of boards use :func:`deal_set_indices` or :func:`deal_set_batches`.
    """
    # R12.7: computer-dealt boards for the quarterfinals, semifinals, 3rd-place match and final.
    return [_decode_direct(n) for n in deal_numbers(seed, event, session, boards, hash_fn=hash_fn)]


def _indices(batches: Iterator[bytes]) -> Iterator[_Decoded]:
    for values in batches:
        hands = map(tuple, _cards_of(_seats_of(_holdings(values))).reshape(-1, _W).tolist())
        yield from zip(hands, hands, hands, hands, strict=True)  # N, E, S, W of each deal


# --- what the organiser publishes ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealSetProtocol:
    """What is published about a set of computer-dealt boards (R12.7).

    Before play: event, session, boards, commitment and method. After play the seed is revealed
    (``seed_hex``) so that anyone can :meth:`verify` it and regenerate the boards.
    """

    event: str
    session: str
    boards: tuple[int, ...]
    commitment: str
    """Hex SHA-256 of the secret seed."""
    method: str = METHOD
    """The dealing method version (:data:`METHOD`)."""
    seed_hex: str | None = field(default=None)
    """The revealed seed, once play is over; None before."""

    @classmethod
    def create(cls, seed: bytes, event: str, session: str, boards: Iterable[int]) -> Self:
        """The protocol of a new set, seed not revealed."""
        return cls(event, session, board_numbers(boards), commitment(seed))

    def revealed(self, seed: bytes) -> DealSetProtocol:
        """This protocol with the seed revealed; the seed must match the commitment."""
        if not verify_commitment(seed, self.commitment):
            raise BridgeInputError("the seed does not match the published commitment")
        return DealSetProtocol(
            self.event, self.session, self.boards, self.commitment, self.method, seed.hex()
        )

    def verify(self, deals: Mapping[int, Deal]) -> list[int]:
        """Boards whose deal differs from the regenerated one (empty when all match).

        Needs the revealed seed; a board of the set missing from ``deals`` counts as a mismatch.
        """
        if self.seed_hex is None:
            raise BridgeInputError("the seed has not been revealed yet")
        if self.method != METHOD:
            raise BridgeInputError(f"unknown dealing method {self.method!r} (expected {METHOD})")
        seed = parse_seed(self.seed_hex)
        if not verify_commitment(seed, self.commitment):
            raise BridgeInputError("the revealed seed does not match the published commitment")
        expected = deal_set(seed, self.event, self.session, self.boards)
        return [b for b in self.boards if deals.get(b) != expected[b]]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {
            "event": self.event,
            "session": self.session,
            "boards": list(self.boards),
            "commitment": self.commitment,
            "method": self.method,
            "method_description": METHOD_DESCRIPTION,
            "seed": self.seed_hex,
        }
