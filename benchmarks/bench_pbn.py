"""PBN export and import speed, games per second, beside baselines measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_pbn.py [--boards N] [--repeat R]``

The games are those ``bridgeko deal --format pbn`` writes (one table a board: the 15 mandatory
tags, dealer's hand first). Loops, interleaved, best of ``--repeat``:

write
* ``pbn.dumps``: the export writer (fast paths: a Deal value already canonical is checked as
  text, not parsed; plain values quoted without escaping);
* general path: the same games through the general export spelling of every mandatory tag
  (``_export_value``: parses the Deal into cards and writes it back), as the writer did before
  the fast paths;
* ``str.join`` of the same export lines: the floor (no formatting left to do);
* ``game_for_board``: making the games from Deal values (what the CLI does before writing).

read
* ``pbn.parse``: reading the export text back (lexing, tags, checking every game's values);
* ``re.findall`` of the tag pairs: the floor (lexing only, nothing checked).
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable

from bridgeko.bridge import pbn
from bridgeko.bridge.dealing import deal_set

SEED = bytes.fromhex("5eed" * 16)
EVENT = "Bridge Open K.O. benchmark"
_TAGS = re.compile(r'\[(\w+) "([^"]*)"\]')


def general_dumps(games: list[pbn.PbnGame]) -> str:
    """Export through the general path for every mandatory tag (the writer before 2026-11)."""
    lines = ["% PBN 2.1", "% EXPORT"]
    for k, game in enumerate(games):
        if k:
            lines.append("")
        by_name = {t.name: t for t in reversed(game.tags)}
        for name in pbn.MANDATORY_TAGS:
            tag = by_name.get(name, pbn.TagPair(name, "?"))
            lines.extend(pbn._emit(tag, pbn._export_value(game, name)))
        rest = [t for t in game.tags if t.name not in pbn.MANDATORY_TAGS]
        for t in sorted(rest, key=lambda t: t.name):
            lines.extend(pbn._emit(t))
    return "\r\n".join(lines) + "\r\n"


def best(fn: Callable[[], object], results: list[float]) -> None:
    t = time.perf_counter()
    fn()
    results.append(time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    n = args.boards
    deals = deal_set(SEED, EVENT, "F-1", range(1, n + 1))

    def make() -> list[pbn.PbnGame]:
        return [
            pbn.game_for_board(b, d, event=EVENT, site="Praha", date="1999.06.04")
            for b, d in deals.items()
        ]

    games = make()
    text = pbn.dumps(games)
    if general_dumps(games) != text:
        raise SystemExit("the general path writes different text: the benchmark is void")
    lines = text.split("\r\n")[:-1]
    loops: dict[str, Callable[[], object]] = {
        "write: pbn.dumps": lambda: pbn.dumps(games),
        "write: general path (before)": lambda: general_dumps(games),
        "write: str.join floor": lambda: "\r\n".join(lines) + "\r\n",
        "make: game_for_board": make,
        "read: pbn.parse": lambda: pbn.parse(text),
        "read: re.findall floor": lambda: _TAGS.findall(text),
    }
    times: dict[str, list[float]] = {name: [] for name in loops}
    for _ in range(args.repeat):
        for name, fn in loops.items():
            pbn._deal_from_text.cache_clear()
            best(fn, times[name])
    rate = {name: n / min(ts) for name, ts in times.items()}
    print(f"{n} games ({len(text) / n:.0f} bytes each), best of {args.repeat}:")
    for name, r in rate.items():
        print(f"  {name:<30} {r:>10,.0f} games/s")
    print(
        f"write: {rate['write: pbn.dumps'] / rate['write: general path (before)']:.1f}x the "
        f"general path; {rate['write: str.join floor'] / rate['write: pbn.dumps']:.1f}x slower "
        f"than str.join"
    )
    print(
        f"read: {rate['read: re.findall floor'] / rate['read: pbn.parse']:.1f}x slower than "
        f"re.findall of the tags"
    )


if __name__ == "__main__":
    main()
