r"""PBN text of freshly dealt boards, fast: what ``bridgeko deal`` writes.

The games are those of :func:`bridgeko.bridge.pbn.game_for_board` with nothing played yet (the
15 tags of the mandatory set, the dealer's hand first in the Deal tag) written as
:func:`bridgeko.bridge.pbn.iter_dumps` writes them, byte for byte (the tests compare the two),
but made from card indices instead of Card, Deal and PbnGame objects: a batch of deals from
:func:`bridgeko.bridge.dealing.deal_set_batches` becomes text with a few numpy operations
(:func:`deal_values`), and a board or a session from
:func:`bridgeko.bridge.dealing.deal_set_small` needs neither numpy nor the PBN model
(:func:`deal_value`), so that a command dealing one board starts at once.

>>> from bridgeko.bridge.dealing import deal_set_small
>>> hands = deal_set_small(bytes(range(32)), "Open", "QF-1", [2])[0]
>>> writer = DealtPbn(event="Open")
>>> text = writer.header() + writer.games([2], [deal_value(hands, 2)])
>>> text.split("\r\n")[2:4], text.split("\r\n")[12][:9]
(['[Event "Open"]', '[Site "?"]'], '[Deal "E:')
"""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from bridgeko.bridge.dealing import CardArray

__all__ = ["DealtPbn", "deal_value", "deal_values", "hand_text"]

_RANKS = "AKQJT98765432"
_SEATS = "NESW"
_VULNERABLE = (
    "None", "NS", "EW", "All", "NS", "EW", "All", "None",
    "EW", "All", "None", "NS", "All", "None", "NS", "EW",
)  # fmt: skip
"""The vulnerability of boards 1 to 16 (:func:`bridgeko.bridge.board.vulnerability`, as a test
checks): the board module is not imported, to keep the start-up light."""
_NEWLINE = "\r\n"
_ESCAPED = frozenset('\\"\r\n\t\v\f')


def hand_text(cards: Sequence[int]) -> str:
    """The PBN spelling (``"AK2.QJ..T98765"``) of a hand given as ascending card indices
    (:attr:`bridgeko.bridge.cards.Card.index`: spade ace 0 ... club two 51); ``"-"`` if empty.

    >>> hand_text([0, 1, 12, 13, 14, 39, 40])
    'AK2.AK..AK'
    """
    if not cards:
        return "-"
    suits: list[list[str]] = [[], [], [], []]
    for c in cards:
        suits[c // 13].append(_RANKS[c % 13])
    return ".".join("".join(s) for s in suits)


def deal_value(hands: Sequence[Sequence[int]], board: int) -> str:
    """The Deal tag value of ``board``: the hands (card indices of N, E, S, W) from its
    dealer's on, as :func:`bridgeko.bridge.pbn.game_for_board` writes it."""
    first = (board - 1) % 4
    texts = [hand_text(hands[(first + i) % 4]) for i in range(4)]
    return f"{_SEATS[first]}:{' '.join(texts)}"


def deal_values(cards: CardArray, boards: Sequence[int]) -> list[str]:
    """:func:`deal_value` of every deal of a card array (complete deals, ``(n, 4, 13)``) and
    its board, computed for the whole array at once (numpy)."""
    import numpy as np

    n = len(cards)
    if n != len(boards):
        raise ValueError(f"{n} deals for {len(boards)} boards")
    if n == 0:
        return []
    index = np.asarray(cards, dtype=np.intp)
    # A complete hand is 16 characters: 13 ranks and 3 dots. The k-th card of a hand (ascending
    # index) goes after as many dots as its suit number: at k + suit.
    text = np.full((n, 4, 16), ord("."), dtype=np.uint8)
    ranks = np.frombuffer(_RANKS.encode("ascii"), dtype=np.uint8)
    np.put_along_axis(text, np.arange(13) + index // 13, ranks[index % 13], axis=2)
    first = (np.asarray(boards, dtype=np.intp) - 1) % 4
    order = (first[:, None] + np.arange(4)) % 4
    text = np.take_along_axis(text, order[:, :, None], axis=1)
    width = 2 + 4 * 16 + 3  # "N:" and four hands with a space between
    out = np.full((n, width), ord(" "), dtype=np.uint8)
    out[:, 0] = np.frombuffer(_SEATS.encode("ascii"), dtype=np.uint8)[first]
    out[:, 1] = ord(":")
    for i in range(4):
        out[:, 2 + 17 * i : 18 + 17 * i] = text[:, i]
    joined = out.tobytes().decode("ascii")
    return [joined[k : k + width] for k in range(0, n * width, width)]


def _quote(value: str) -> str:
    """:func:`bridgeko.bridge.pbn._quote`: a plain value between quotes, anything else by it."""
    if value.startswith("#") or not _ESCAPED.isdisjoint(value):
        from bridgeko.bridge import pbn

        return pbn._quote(value)
    return f'"{value}"'


class DealtPbn:
    """Writes the PBN export text of dealt boards, a piece at a time.

    ``note`` is PBN commentary put before the first game (how the set was dealt).
    """

    def __init__(
        self, *, event: str = "", site: str = "", date: str = "", note: str | None = None
    ) -> None:
        nl = _NEWLINE
        self._first = True
        self._note = ""
        if note is not None:
            text = note.replace("{", "(").replace("}", ")")
            self._note = nl.join(("{" + text + "}").split("\n")) + nl
        self._head = (
            f"[Event {_quote(event or '?')}]{nl}[Site {_quote(site or '?')}]{nl}"
            f"[Date {_quote(date or '?')}]{nl}[Board "
        )
        players = "".join(f'[{seat} "?"]{nl}' for seat in ("West", "North", "East", "South"))
        self._middle = tuple(
            f"]{nl}{players}[Dealer {_quote(_SEATS[b % 4])}]{nl}"
            f"[Vulnerable {_quote(_VULNERABLE[b])}]{nl}[Deal "
            for b in range(16)
        )
        self._tail = f"]{nl}" + "".join(
            f"[{name} {_quote(value)}]{nl}"
            for name, value in (
                ("Scoring", "IMP"),
                ("Declarer", "?"),
                ("Contract", "?"),
                ("Result", "?"),
            )
        )

    @staticmethod
    def header() -> str:
        """The first lines of the file."""
        return f"% PBN 2.1{_NEWLINE}% EXPORT{_NEWLINE}"

    def games(self, boards: Sequence[int], values: Sequence[str]) -> str:
        """The text of the games of ``boards`` with the Deal values ``values``
        (:func:`deal_value`, :func:`deal_values`), following the games written before."""
        if len(boards) != len(values):
            raise ValueError(f"{len(values)} deals for {len(boards)} boards")
        if not boards:
            return ""
        head, middle, tail = self._head, self._middle, self._tail
        nl = _NEWLINE
        parts = [
            f'{nl}{head}"{b}"{middle[(b - 1) % 16]}"{v}"{tail}'
            for b, v in zip(boards, values, strict=True)
        ]
        if self._first:
            self._first = False
            parts[0] = self._note + parts[0][len(nl) :]
        return "".join(parts)
