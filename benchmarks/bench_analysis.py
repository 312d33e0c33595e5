"""Double-dummy analysis: bridgeko's adapter beside endplay's bare ``calc_all_tables``.

Run: ``.venv/bin/python benchmarks/bench_analysis.py [--boards 256] [--twice]``

The boards are computer-dealt (:mod:`bridgeko.bridge.dealing`). By default DDS solves them once:
:func:`bridgeko.bridge.analysis.dd_tables` runs on our Deal values with endplay's
``calc_all_tables`` wrapped in a stopwatch, so one run gives both figures on the same deals:

* adapter: the wall time of ``dd_tables`` (conversion to endplay, chunks of 40, results back to
  :class:`~bridgeko.bridge.ddtable.DDTable`);
* bare: the time spent inside endplay's ``calc_all_tables`` for those same deals.

``--twice`` instead solves every chunk twice, once through the adapter and once by calling
``calc_all_tables`` directly on endplay deals built beforehand (order alternating by chunk), and
checks both give the same tables; it takes twice as long (DDS needs ~0.1-0.2 s a board here).

Target: adapter / bare <= 1.10. Par of every board (from the tables) is timed too. On a busy
machine DDS slows down; ``--budget`` (seconds) stops after the chunk that passes it, so that the
run stays under a minute, and the figures say how many boards were analysed.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from endplay.dds import calc_all_tables
from endplay.types import Deal as EndplayDeal

from bridgeko.bridge import analysis
from bridgeko.bridge.analysis import CHUNK, dd_tables, pars
from bridgeko.bridge.board import dealer, vulnerability
from bridgeko.bridge.cards import Deal, Seat, Strain
from bridgeko.bridge.ddtable import DDTable
from bridgeko.bridge.dealing import deal_set

SEED = bytes.fromhex("da7a" * 16)
SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
STRAINS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS, Strain.NOTRUMP)


def _as_list(table: DDTable) -> list[list[int]]:
    """Our table in endplay's ``to_list()`` layout: strains S, H, D, C, NT x seats N, E, S, W."""
    return [[table[seat, strain] for seat in SEATS] for strain in STRAINS]


def once(ours: list[Deal], budget: float) -> tuple[float, float, list[DDTable]]:
    """One solve: the adapter's wall time and the time inside endplay's calc_all_tables.

    Chunk by chunk (CHUNK deals, as the adapter sends them), stopping early once ``budget``
    seconds are spent.
    """
    inside = 0.0

    def timed_calc_all_tables(deals: Any) -> Any:
        nonlocal inside
        t0 = time.perf_counter()
        result = calc_all_tables(deals)
        inside += time.perf_counter() - t0
        return result

    adapter = 0.0
    tables: list[DDTable] = []
    analysis.calc_all_tables = timed_calc_all_tables  # type: ignore[assignment]
    try:
        for start in range(0, len(ours), CHUNK):
            t0 = time.perf_counter()
            tables.extend(dd_tables(ours[start : start + CHUNK]))
            adapter += time.perf_counter() - t0
            if adapter > budget:
                break
    finally:
        analysis.calc_all_tables = calc_all_tables
    return inside, adapter, tables


def twice(ours: list[Deal], budget: float) -> tuple[float, float, list[DDTable]]:
    """Two solves per chunk: bare endplay on prebuilt endplay deals, and the adapter."""
    theirs = [EndplayDeal(d.to_pbn()) for d in ours]
    bare = adapter = 0.0
    tables: list[DDTable] = []
    for k, start in enumerate(range(0, len(ours), CHUNK)):
        order = ("bare", "adapter") if k % 2 == 0 else ("adapter", "bare")
        for which in order:
            t0 = time.perf_counter()
            if which == "bare":
                raw = calc_all_tables(theirs[start : start + CHUNK])
                bare += time.perf_counter() - t0
            else:
                got = dd_tables(ours[start : start + CHUNK])
                adapter += time.perf_counter() - t0
        assert [t.to_list() for t in raw] == [_as_list(t) for t in got]
        tables.extend(got)
        if bare + adapter > budget:
            break
    return bare, adapter, tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=256, help="boards to analyse")
    parser.add_argument("--twice", action="store_true", help="solve each chunk twice (see doc)")
    parser.add_argument(
        "--budget",
        type=float,
        default=50.0,
        help="stop after the chunk that passes this many seconds of solving (default 50)",
    )
    args = parser.parse_args()
    wall = time.perf_counter()
    deals = deal_set(SEED, "Bridge Open K.O. benchmark", "DD", range(1, args.boards + 1))
    ours = list(deals.values())
    bare, adapter, tables = (twice if args.twice else once)(ours, args.budget)

    t0 = time.perf_counter()
    boards = list(deals)[: len(tables)]
    pars(tables, (dealer(b) for b in boards), (vulnerability(b) for b in boards))
    par_time = time.perf_counter() - t0

    n = len(tables)
    mode = "two solves per chunk" if args.twice else "one solve, calc_all_tables timed inside"
    print(f"boards analysed            {n:>8} of {len(ours)}   ({mode})")
    print(f"endplay calc_all_tables    {bare:>8.2f} s  ({1000 * bare / n:.1f} ms/board)")
    print(f"bridgeko dd_tables         {adapter:>8.2f} s  ({1000 * adapter / n:.1f} ms/board)")
    over = adapter - bare
    print(f"adapter overhead           {1000 * over:>8.1f} ms ({1e6 * over / n:.0f} us/board)")
    print(f"ratio adapter / bare       {adapter / bare:>8.4f}   (target <= 1.10)")
    print(f"par of all boards          {par_time:>8.3f} s")
    print(f"benchmark wall time        {time.perf_counter() - wall:>8.1f} s")


if __name__ == "__main__":
    main()
