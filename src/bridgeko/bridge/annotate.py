"""Double-dummy annotation of PBN games: what ``bridgeko analyse`` writes into a file.

Every game with a complete deal gets the double-dummy table (``OptimumResultTable``), the par
score (``OptimumScore``) and the par contracts (``ParContract``) of its deal, for its dealer
and vulnerability (from its tags, else from its board number). A deal played at two tables is
solved once: :func:`deals_to_solve` lists the distinct complete deals, the caller solves them
(:func:`bridgeko.bridge.analysis.dd_tables`, with a progress bar if it likes) and
:func:`annotate` writes the tables into the games. The solver and the par calculation are
parameters, so this module needs no DDS of its own.

>>> from bridgeko.bridge import pbn
>>> from bridgeko.bridge.cards import Deal, Seat, Strain
>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> games = pbn.games_for_board(1, deal)
>>> deals_to_solve(games) == [deal]
True
>>> table = DDTable({(s, t): 7 for s in Seat for t in Strain})
>>> done = annotate(games, [table], par_of=lambda t, d, v: Par(0, ()))
>>> [g["OptimumScore"] for g in done.games], done.solved, len(done.annotations)
(['NS 0', 'NS 0'], 1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bridgeko.bridge import board as _board
from bridgeko.bridge import pbn
from bridgeko.bridge.cards import Deal, Seat, Strain, Vulnerability
from bridgeko.bridge.ddtable import DDTable, Par
from bridgeko.bridge.result import BoardResult

__all__ = [
    "ANNOTATION_TAGS",
    "Annotated",
    "Annotation",
    "ParOf",
    "annotate",
    "dd_dict",
    "deals_to_solve",
    "par_dict",
    "par_items",
    "par_result",
    "par_text",
]

ANNOTATION_TAGS = ("OptimumScore", "ParContract", "OptimumResultTable")
"""The tags :func:`annotate` writes (replacing any the game had)."""

ParOf = Callable[[DDTable, Seat, Vulnerability], Par]
"""The par of a table for a dealer and a vulnerability
(:func:`bridgeko.bridge.analysis.par_of_table`)."""

_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


@dataclass(frozen=True, slots=True)
class Annotation:
    """What was found for one game: its deal's table and, when its dealer and vulnerability
    are known, the par."""

    index: int
    """The position of the game in the list given to :func:`annotate`."""
    board: int | None
    room: str | None
    deal: Deal
    table: DDTable
    par: Par | None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dictionary: board, room, deal (PBN), dd table, par."""
        return {
            "board": self.board,
            "room": self.room,
            "deal": self.deal.to_pbn(),
            "dd": dd_dict(self.table),
            "par": par_dict(self.par) if self.par is not None else None,
        }


@dataclass(frozen=True, slots=True)
class Annotated:
    """The games, those with a complete deal annotated, and what was found for each."""

    games: tuple[pbn.PbnGame, ...]
    annotations: tuple[Annotation, ...]
    solved: int
    """The number of distinct deals solved."""

    @property
    def left(self) -> int:
        """The number of games without a complete deal, left as they were."""
        return len(self.games) - len(self.annotations)


def _complete(games: Sequence[pbn.PbnGame]) -> list[tuple[int, Deal]]:
    out: list[tuple[int, Deal]] = []
    for i, game in enumerate(games):
        deal = game.deal
        if deal is not None and deal.is_complete:
            out.append((i, deal))
    return out


def deals_to_solve(games: Sequence[pbn.PbnGame]) -> list[Deal]:
    """The distinct complete deals of ``games``, in the order they first appear."""
    return list(dict.fromkeys(deal for _i, deal in _complete(games)))


def annotate(
    games: Sequence[pbn.PbnGame], tables: Sequence[DDTable], *, par_of: ParOf | None = None
) -> Annotated:
    """The games with the tables of :func:`deals_to_solve` (same order) and their pars written
    in (the tags of :data:`ANNOTATION_TAGS`); games without a complete deal are left as they
    are. ``par_of`` defaults to :func:`bridgeko.bridge.analysis.par_of_table` (DDS)."""
    if par_of is None:
        from bridgeko.bridge.analysis import par_of_table

        par_of = par_of_table
    deals = deals_to_solve(games)
    if len(tables) != len(deals):
        raise ValueError(f"{len(tables)} tables for {len(deals)} distinct deals")
    table_of = dict(zip(deals, tables, strict=True))
    out = list(games)
    found: list[Annotation] = []
    for i, deal in _complete(games):
        game = games[i]
        table = table_of[deal]
        number = game.board
        seat = game.dealer or (_board.dealer(number) if number is not None else None)
        vul = game.vulnerability or (_board.vulnerability(number) if number is not None else None)
        par = par_of(table, seat, vul) if seat is not None and vul is not None else None
        model = pbn.game_for_board(number or 1, deal, dd=table, par=par)
        for name in ANNOTATION_TAGS:
            tag = model.tag(name)
            if tag is not None:
                game = game.with_tag(tag.name, tag.value, tag.rows)
        out[i] = game
        found.append(Annotation(i, number, game.room, deal, table, par))
    return Annotated(tuple(out), tuple(found), len(deals))


def dd_dict(table: DDTable) -> dict[str, dict[str, int]]:
    """A table as ``{declarer: {strain: tricks}}`` (N, E, S, W x NT, S, H, D, C)."""
    return {s.value: {t.value: table[s, t] for t in _STRAINS} for s in _SEATS}


def par_dict(par: Par) -> dict[str, object]:
    """A par as ``{"score_ns": ..., "contracts": [...]}`` (:func:`par_items`)."""
    return {"score_ns": par.score, "contracts": par_items(par)}


def par_items(par: Par) -> list[str]:
    """Par contracts spelt as in the ParContract tag: ``"NS 4S"``, ``"EW 5DX-2"``."""
    items = []
    for pc in par.contracts:
        seats = "".join(s.value for s in pc.declarers)
        over = f"{pc.over_under:+d}" if pc.over_under else ""
        items.append(f"{seats} {pc.contract}{over}".strip())
    return items


def par_text(par: Par) -> str:
    """The par contracts in one line, ``"; "`` between them."""
    return "; ".join(par_items(par))


def par_result(par: Par, table: DDTable) -> BoardResult:
    """The first par contract played by its first declarer, taking the double-dummy tricks."""
    pc = par.contracts[0]
    if pc.contract.is_passed_out or not pc.declarers or pc.contract.strain is None:
        return BoardResult.passed_out()
    seat = pc.declarers[0]
    return BoardResult(pc.contract, seat, table[seat, pc.contract.strain])
