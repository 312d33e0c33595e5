"""``bridgeko showcase``: a short tour of dealing, commitment, double dummy and scoring."""

from __future__ import annotations

import argparse

from bridgeko.cli.common import progress

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds ``showcase`` to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "showcase",
        help="a short demonstration: deal, commit, analyse, score",
        description=(
            "A short tour for a newcomer: deals a 16-board set from a fresh seed, prints the "
            "commitment, analyses the boards double dummy (tables and par) and scores a few "
            "results in two rooms with their IMPs."
        ),
    )
    p.add_argument(
        "--event",
        default="bridgeko showcase",
        metavar="NAME",
        help="the event name to deal for (default: %(default)s)",
    )
    p.set_defaults(handler=cmd_showcase)


def cmd_showcase(args: argparse.Namespace) -> int:
    from bridgeko.bridge import analysis, dealing  # endplay: loaded only when the tour runs
    from bridgeko.bridge.annotate import par_result, par_text
    from bridgeko.bridge.board import dealer, vulnerability
    from bridgeko.bridge.cards import Seat, Strain
    from bridgeko.bridge.contract import Contract
    from bridgeko.bridge.result import BoardResult
    from bridgeko.bridge.scoring import score_board

    strains = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
    event, session = args.event, "demo"
    boards = tuple(range(1, 17))
    print("1. A secret seed is made and its commitment published before play (R12.7):")
    seed = dealing.new_seed()
    published = dealing.commitment(seed)
    print(f"   commitment {published}")
    print(f"2. 16 boards are dealt from the seed for {event!r}, session {session!r}:")
    deals = dealing.deal_set(seed, event, session, boards)
    for b in boards[:2]:
        print(f"   board {b:>2}: {deals[b].to_pbn(first=dealer(b))}")
    print("   ...")
    print("3. Double-dummy analysis: tricks for each declarer and strain, and par:")
    with progress(len(boards), "double dummy") as update:
        tables = analysis.dd_tables([deals[b] for b in boards], progress=update)
    pars = [
        analysis.par(t, dealer(b), vulnerability(b)) for b, t in zip(boards, tables, strict=True)
    ]
    print(
        "   board  vul   North declaring: "
        + " ".join(f"{s.value:>2}" for s in strains)
        + "   par (NS)"
    )
    for b, t, p in zip(boards, tables, pars, strict=True):
        north = " ".join(f"{t[Seat.NORTH, s]:>2}" for s in strains)
        pad = " " * 17
        print(f"   {b:>5}  {vulnerability(b).value:<4} {pad} {north}   {p.score:+5d} {par_text(p)}")
    print("4. Scoring two rooms: the open room bids the par contract, the closed room 3NT by")
    print("   South; both take the double-dummy tricks (home team NS in the open room, R12.2):")
    total = 0
    for b, t, p in list(zip(boards, tables, pars, strict=True))[:4]:
        open_room = par_result(p, t)
        closed_room = BoardResult(Contract.parse("3NT"), Seat.SOUTH, t[Seat.SOUTH, Strain.NOTRUMP])
        bs = score_board(open_room, closed_room, vulnerability(b))
        total += bs.imps
        print(
            f"   board {b:>2}: open {open_room!s:<12} NS {bs.open_ns:+5d}   "
            f"closed {closed_room!s:<12} NS {bs.closed_ns:+5d}   IMPs {bs.imps:+d}"
        )
    print(f"   home team, 4 boards: {total:+d} IMPs")
    print("5. After play the seed is revealed; anyone can check every board with:")
    print(
        f"   bridgeko verify-deal --seed {seed.hex()} --commitment {published} "
        f"--event {event!r} --session {session} --boards 1-16 [FILE.pbn]"
    )
    return 0
