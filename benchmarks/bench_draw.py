"""The draw and the bracket at any size: holding the draw and resolving the bracket grow linearly.

Run: ``.venv/bin/python benchmarks/bench_draw.py [--max-exp 16] [--repeat 3]``

For N = 2^10, 2^12, 2^14 and 2^16 teams (one scheme size each), measured side by side in one run
(the sizes take turns, best of ``--repeat`` kept, CPU time of this process so that other
processes on the same cores count less):

* draw: :func:`bridgeko.competition.draw.hold_draw` of N teams (entries checked, the lot from the
  HMAC stream, seeding by Elo, numbering, the byes and the protocol);
* bracket: :func:`bridgeko.competition.scheme.standard_scheme` for N and
  :func:`bridgeko.competition.bracket.resolve` with the draw's teams (every slot resolved, the
  projected slots pending).

Printed: the times, the time per team, and the growth per doubling of N, ``(t(4N) / t(N))^(1/2)``:
2.0 is linear, more is faster than linear. Targets: the draw and the bracket of 2^16 teams
together under 0.5 s, and a growth per doubling close to 2 (under 2.3, some allowance for the
caches of a bigger working set).

The load of the machine changes the figures a lot (on a shared machine every process gets a
slice of the cores and of their caches): the run also prints the load average and the time of a
reference loop, ``sum(range(10**6))``, which takes about 10-15 ms on an idle machine of today.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import itertools
import os
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bridgeko.competition.bracket import resolve
from bridgeko.competition.draw import DrawResult, commitment, hold_draw
from bridgeko.competition.scheme import standard_scheme

SEED = hashlib.sha256(b"bridgeko benchmark draw").digest()
TARGET_SECONDS = 0.5
TARGET_GROWTH = 2.3


@dataclass(frozen=True, slots=True)
class Team:
    id: int
    name: str
    elo: int


def teams(n: int) -> list[Team]:
    """N teams with Elo 400..999 spread by a fixed permutation (many equal Elo: ties, I3)."""
    return [Team(k, f"Team {k}", 400 + (k * 7919) % 600) for k in range(1, n + 1)]


def draw(field: list[Team]) -> DrawResult[Team]:
    return hold_draw(
        field,
        SEED,
        commitment=commitment(SEED),
        drawn_at=datetime(2026, 3, 12, 18, 0, tzinfo=UTC),
        place="benchmark",
    )


def bracket(result: DrawResult[Team]) -> int:
    state = resolve(standard_scheme(result.scheme_size), teams=set(result.numbers))
    return len(state.matches)


def _cpu(fn: Callable[[], object]) -> tuple[float, object]:
    gc.collect()
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-exp", type=int, default=16, help="largest N = 2^max-exp")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each size (best kept)")
    args = parser.parse_args()
    exps = list(range(args.max_exp - 6, args.max_exp + 1, 2))
    fields = {k: teams(2**k) for k in exps}
    best_draw = dict.fromkeys(exps, float("inf"))
    best_bracket = dict.fromkeys(exps, float("inf"))
    draw(fields[exps[0]])  # warm up: imports, caches
    for r in range(args.repeat):
        for k in exps if r % 2 == 0 else reversed(exps):
            t_draw, result = _cpu(lambda k=k: draw(fields[k]))  # type: ignore[misc]
            assert isinstance(result, DrawResult)
            t_bracket, matches = _cpu(lambda result=result: bracket(result))  # type: ignore[misc]
            assert matches == 2**k  # 2^k - 1 knockout matches and the 3rd-place match
            best_draw[k] = min(best_draw[k], t_draw)
            best_bracket[k] = min(best_bracket[k], t_bracket)

    print(f"{'teams':>8} {'draw':>10} {'bracket':>10} {'total':>10} {'per team':>10}")
    for k in exps:
        total = best_draw[k] + best_bracket[k]
        print(
            f"{2**k:>8,} {best_draw[k] * 1e3:>8.1f}ms {best_bracket[k] * 1e3:>8.1f}ms "
            f"{total * 1e3:>8.1f}ms {total / 2**k * 1e6:>8.2f}us"
        )
    print()
    print("growth per doubling of N ((t(4N)/t(N))^(1/2); 2.0 = linear):")
    for a, b in itertools.pairwise(exps):
        growth = [
            (times[b] / times[a]) ** 0.5 for times in (best_draw, best_bracket) if times[a] > 0
        ]
        totals = (best_draw[b] + best_bracket[b]) / (best_draw[a] + best_bracket[a])
        print(
            f"  2^{a} -> 2^{b}: draw {growth[0]:.2f}, bracket {growth[1]:.2f}, "
            f"total {totals**0.5:.2f} (target < {TARGET_GROWTH})"
        )
    top = exps[-1]
    total = best_draw[top] + best_bracket[top]
    verdict = "meets" if total < TARGET_SECONDS else "MISSES"
    reference = min(timeit.repeat("sum(range(10**6))", number=1, repeat=5))
    print()
    print(
        f"machine: load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; reference "
        f"loop sum(range(10**6)) {reference * 1e3:.1f} ms (about 10-15 ms when idle)"
    )
    print(
        f"2^{top} teams: draw + bracket {total:.3f} s CPU, target < {TARGET_SECONDS} s: {verdict}"
    )


if __name__ == "__main__":
    main()
