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
slice of the cores and of their caches), so the same run also measures the code from before
issue 7 (``--before``, a git revision; the draw then read its byes off a whole resolved scheme,
and resolving copied the candidates of every slot), taken from git into a temporary package, on
the same fields, side by side: the speed-up is robust to the load, and the issue measured that
code at 1.5 s (draw) + 0.8 s (bracket) for 2^16 teams on an idle machine, so
``2.3 s / speed-up`` estimates the idle figure. ``--before ''`` skips it (it is also skipped,
with a note, where git or the revision is missing). The load average and a reference loop,
``sum(range(10**6))``, are printed too.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib.util
import itertools
import os
import subprocess
import sys
import time
import timeit
import types
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from bridgeko.competition.bracket import resolve
from bridgeko.competition.draw import DrawResult, commitment, hold_draw
from bridgeko.competition.scheme import standard_scheme

SEED = hashlib.sha256(b"bridgeko benchmark draw").digest()
TARGET_SECONDS = 0.5
TARGET_GROWTH = 2.3
BEFORE = "9c5b540"
"""The last commit before issue 7 (the code the issue measured)."""
BEFORE_IDLE_SECONDS = 1.5 + 0.8
"""The issue's figure for that code: the draw and the bracket of 2^16 teams on an idle machine."""
REPO = Path(__file__).resolve().parent.parent


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


def load_before(rev: str) -> types.ModuleType | None:
    """The draw module of ``rev`` with the bracket module of ``rev`` under it, from git (the
    other modules they import are today's), or None with a note when git cannot give them."""
    sources: dict[str, str] = {}
    for name in ("bracket", "draw"):
        try:
            sources[name] = subprocess.run(
                ["git", "-C", str(REPO), "show", f"{rev}:src/bridgeko/competition/{name}.py"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            print(f"(no comparison with the code before: git cannot show {rev} here)")
            return None
    package = types.ModuleType("bench_before")
    package.__path__ = []
    sys.modules["bench_before"] = package
    modules: dict[str, types.ModuleType] = {}
    for name in ("bracket", "draw"):
        text = sources[name].replace("bridgeko.competition.bracket", "bench_before.bracket")
        spec = importlib.util.spec_from_loader(f"bench_before.{name}", loader=None)
        assert spec is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        exec(compile(text, f"{rev}:competition/{name}.py", "exec"), module.__dict__)
        modules[name] = module
    return modules["draw"]


def draw_before(old: Any, field: list[Team]) -> Any:
    return old.hold_draw(
        field,
        SEED,
        commitment=old.commitment(SEED),
        drawn_at=datetime(2026, 3, 12, 18, 0, tzinfo=UTC),
        place="benchmark",
    )


def bracket_before(old: Any, result: Any) -> int:
    bracket_module = sys.modules["bench_before.bracket"]
    state = bracket_module.resolve(
        bracket_module.standard_scheme(result.scheme_size), teams=set(result.numbers)
    )
    return len(state.matches)


R = TypeVar("R")


def _cpu(fn: Callable[[], R]) -> tuple[float, R]:
    gc.collect()
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-exp", type=int, default=16, help="largest N = 2^max-exp")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each size (best kept)")
    parser.add_argument(
        "--before", default=BEFORE, help="git revision to compare with ('' for none)"
    )
    args = parser.parse_args()
    old = load_before(args.before) if args.before else None
    exps = list(range(args.max_exp - 6, args.max_exp + 1, 2))
    fields = {k: teams(2**k) for k in exps}
    best_draw = dict.fromkeys(exps, float("inf"))
    best_bracket = dict.fromkeys(exps, float("inf"))
    draw(fields[exps[0]])  # warm up: imports, caches
    before_draw = before_bracket = float("inf")
    for r in range(args.repeat):
        for k in exps if r % 2 == 0 else reversed(exps):
            t_draw, result = _cpu(partial(draw, fields[k]))
            assert isinstance(result, DrawResult)
            t_bracket, matches = _cpu(partial(bracket, result))
            assert matches == 2**k  # 2^k - 1 knockout matches and the 3rd-place match
            best_draw[k] = min(best_draw[k], t_draw)
            best_bracket[k] = min(best_bracket[k], t_bracket)
        if old is not None:  # the code before, on the biggest field, between the runs
            top = exps[-1]
            t_old_draw, old_result = _cpu(partial(draw_before, old, fields[top]))
            assert dict(old_result.numbers) == dict(draw(fields[top]).numbers)  # same draw
            t_old_bracket, _ = _cpu(partial(bracket_before, old, old_result))
            before_draw = min(before_draw, t_old_draw)
            before_bracket = min(before_bracket, t_old_bracket)

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
    if old is not None:
        before = before_draw + before_bracket
        speedup = before / total
        idle = BEFORE_IDLE_SECONDS / speedup
        print(
            f"before ({args.before}), same run: draw {before_draw:.3f} s + bracket "
            f"{before_bracket:.3f} s = {before:.3f} s; now {speedup:.1f}x faster "
            f"(draw {before_draw / best_draw[top]:.1f}x, bracket "
            f"{before_bracket / best_bracket[top]:.1f}x)"
        )
        idle_verdict = "meets" if idle < TARGET_SECONDS else "MISSES"
        print(
            f"estimate for an idle machine (the issue's {BEFORE_IDLE_SECONDS:.1f} s for the code "
            f"before / {speedup:.1f}): {idle:.3f} s, target < {TARGET_SECONDS} s: {idle_verdict}"
        )


if __name__ == "__main__":
    main()
