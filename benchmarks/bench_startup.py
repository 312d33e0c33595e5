"""Start-up cost of the ``bridgeko`` commands: CPU time above a bare ``python -c pass``.

Run: ``.venv/bin/python benchmarks/bench_startup.py [--repeat R]``

Each command runs in its own process (the ``bridgeko`` console script) in its cheapest form
(``bridgeko --help``, ``score 4S 10``, ``deal`` of one board to stdout, ``verify-draw`` of a
small protocol ...); the runs take turns with a bare ``python -c pass`` (``--repeat`` rounds).
The figure is the CPU time (user + system, ``getrusage(RUSAGE_CHILDREN)``) of the process minus
that of the bare interpreter, the minimum and the median of the rounds; the ratio is the minimum
over the target of 0.05 s. Bytecode is written first, as in an installed copy (the environment
may forbid it).

Every command that does not need the web application is listed. ``analyse`` and ``showcase``
solve deals double dummy: they load the DDS solver (endplay), whose own start-up is part of
their work; they are printed below the line, not bound by the target. The web commands
(``serve``, ``manage``, ``import-elo``) load Django and are not measured.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

TARGET = 0.05
SEED = hashlib.sha256(b"bridgeko start-up benchmark").hexdigest()
ONE_BOARD = (
    '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
)


def cpu_of(argv: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one run of ``argv``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def draw_protocol(path: Path) -> None:
    """A small published draw protocol (10 teams) for ``verify-draw``."""
    from dataclasses import dataclass

    from bridgeko.competition.draw import commitment, hold_draw, protocol_json

    @dataclass(frozen=True)
    class Team:
        id: int
        name: str
        elo: int

    seed = hashlib.sha256(b"bridgeko start-up benchmark draw").digest()
    result = hold_draw(
        [Team(k, f"Team {k}", 480 + 13 * k) for k in range(1, 11)],
        seed,
        commitment=commitment(seed),
        drawn_at=datetime(1999, 3, 12, 17, 0, tzinfo=UTC),
        place="Praha",
        edition="Bridge Open K.O. 1999",
    )
    path.write_text(protocol_json(result), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=30, help="rounds (default 30)")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # The commitment as bridgeko publishes it: the last word of deal's summary.
    argv = [sys.executable, "-m", "bridgeko.cli", "deal", "--seed", SEED, "--event", "E"]
    dealt = subprocess.run(
        [*argv, "--boards", "1", "-o", os.devnull],
        capture_output=True,
        text=True,
        check=True,
    )
    commitment = dealt.stderr.split()[-1]
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        work = Path(tmp)
        protocol = work / "draw.json"
        draw_protocol(protocol)
        board = work / "board.pbn"
        board.write_text(ONE_BOARD, encoding="ascii")
        one = ("--seed", SEED, "--event", "Open", "--boards")
        bound: dict[str, list[str]] = {
            "--help": ["--help"],
            "score 4S 10": ["score", "4S", "10"],
            "imps 420": ["imps", "420"],
            "board-imps '4S N =' '4S N -1' --board 3": [
                *("board-imps", "4S N =", "4S N -1", "--board", "3")
            ],
            "deal --commit": ["deal", "--commit"],
            "deal 1 board, PBN to stdout": ["deal", *one, "1"],
            "deal 16 boards, PBN to stdout": ["deal", *one, "1-16"],
            "deal 99 boards, DLM to stdout": ["deal", *one, "1-99", "--format", "dlm"],
            "verify-deal of 1 board": ["verify-deal", *one, "1", "--commitment", commitment],
            "verify-draw (10 teams)": ["verify-draw", str(protocol)],
            "bracket 16": ["bracket", "16"],
        }
        solver: dict[str, list[str]] = {
            "analyse --help": ["analyse", "--help"],
            "analyse of 1 board": ["analyse", str(board)],
            "showcase (16 boards)": ["showcase"],
        }
        # The console script, as a user runs it (``python -m bridgeko.cli`` when there is none).
        console = Path(sys.executable).with_name("bridgeko")
        script = [str(console)] if console.exists() else [sys.executable, "-m", "bridgeko.cli"]
        runs = {"bare python": [sys.executable, "-c", "pass"]}
        runs.update({name: [*script, *argv] for name, argv in {**bound, **solver}.items()})
        for name, argv in runs.items():  # warm-up: bytecode written, files cached; and checked
            done = subprocess.run(argv, env=env, capture_output=True)
            if done.returncode != 0:
                raise SystemExit(f"{name} fails: {done.stderr.decode(errors='replace')}")
        times: dict[str, list[float]] = {name: [] for name in runs}
        for r in range(args.repeat):
            names = list(runs) if r % 2 == 0 else list(reversed(runs))
            for name in names:
                if name in solver and name != "analyse --help" and r >= 5:
                    continue  # double dummy takes its time: a few rounds are enough
                times[name].append(cpu_of(runs[name], env))
    bare_min = min(times["bare python"])
    bare_median = statistics.median(times["bare python"])
    print(f"bare python -c pass: {bare_min:.3f} s CPU (median {bare_median:.3f} s)")
    print(f"CPU above bare python, {args.repeat} rounds; target {TARGET:.2f} s")
    print(f"{'command':<42} {'min s':>7} {'median s':>9} {'min/target':>11}")
    worst = 0.0

    def line(name: str) -> float:
        low = min(times[name]) - bare_min
        mid = statistics.median(times[name]) - bare_median
        print(f"{name:<42} {low:>7.3f} {mid:>9.3f} {low / TARGET:>10.2f}x")
        return low

    for name in bound:
        worst = max(worst, line(name))
    print("-- with the double-dummy solver (endplay), not bound by the target:")
    for name in solver:
        line(name)
    verdict = "meet" if worst <= TARGET else "DO NOT meet"
    print(f"worst bound command: {worst:.3f} s = {worst / TARGET:.2f}x the target ({verdict} it)")


if __name__ == "__main__":
    main()
