"""``bridgeko deal`` beside Big Deal, the reference dealing program (C), on the same boards.

Run: ``BIGDEALX=/path/to/bigdealx .venv/bin/python benchmarks/bench_deal.py [--boards N ...]``

Both programs deal the same number of boards (10,000 and 100,000 by default) and write them as
PBN to a file, end to end from the command line, in turns (``--repeat`` rounds, the best of
each kept). The figure compared is the CPU time (user + system) of the whole process, start-up
included; the wall-clock time is printed too. Target: bridgeko / Big Deal <= 1.0.

Big Deal (https://github.com/hansvanstaveren/BigDeal) is not part of bridgeko: build it with
its Makefile (``make bigdealx``) outside the repository and name the binary in ``BIGDEALX``.
It is run non-interactively: ``-h HASH`` gives it its 160-bit seed (40 hex digits; it implies
``-o``, no entropy asked from the keyboard), ``-n N`` the number of boards, ``-p PREFIX`` the
output file name and ``-f pbn`` the format; a ``.bigdealrc`` in its (temporary) working
directory answers its first-run questions, and its log ``deallog.txt`` goes there too.
Without ``BIGDEALX`` only bridgeko's figures are printed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SEED = hashlib.sha256(b"bridgeko benchmark seed").hexdigest()
EVENT = "Bridge Open K.O. benchmark"
BIGDEAL_HASH = "0123456789abcdef0123456789abcdef01234567"
BIGDEAL_RC = "[BigDeal]\nformats=pbn\naskformats=no\nowner=bridgeko benchmark\n"


def run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Runs a program to its end: (CPU seconds user + system, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def count_boards(path: Path) -> int:
    with path.open("rb") as f:
        return sum(line.startswith(b"[Board ") for line in f)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--repeat", type=int, default=3, help="rounds (the best of each kept)")
    args = ap.parse_args()
    bigdeal = os.environ.get("BIGDEALX")
    if bigdeal and not os.access(bigdeal, os.X_OK):
        raise SystemExit(f"BIGDEALX={bigdeal} is not an executable file")
    if not bigdeal:
        print(
            "no Big Deal binary: set BIGDEALX=/path/to/bigdealx (build it with 'make bigdealx' "
            "from https://github.com/hansvanstaveren/BigDeal); bridgeko's figures only"
        )
    # Bytecode written, as in an installed copy (the environment may forbid it).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="bench-deal-") as tmp:
        work = Path(tmp)
        (work / ".bigdealrc").write_text(BIGDEAL_RC, encoding="ascii")

        def bridgeko(n: int) -> list[str]:
            return [
                *(sys.executable, "-m", "bridgeko.cli", "deal"),
                *("--seed", SEED, "--event", EVENT, "--boards", f"1-{n}"),
                *("-o", str(work / "bridgeko.pbn")),
            ]

        def big_deal(n: int) -> list[str]:
            assert bigdeal is not None
            return [bigdeal, "-h", BIGDEAL_HASH, "-n", str(n), "-p", "bigdeal", "-f", "pbn"]

        run(bridgeko(10), work, env)  # warm-up: bytecode, file cache
        print(f"{'boards':>8} {'program':<9} {'CPU s':>8} {'wall s':>8} {'boards/s':>10} {'MB':>6}")
        for n in args.boards:
            best: dict[str, tuple[float, float]] = {}
            for r in range(args.repeat):
                order = ["bridgeko", "bigdeal"] if r % 2 == 0 else ["bigdeal", "bridgeko"]
                for name in order:
                    if name == "bigdeal" and not bigdeal:
                        continue
                    argv = bridgeko(n) if name == "bridgeko" else big_deal(n)
                    cpu, wall = run(argv, work, env)
                    old = best.get(name, (float("inf"), float("inf")))
                    best[name] = (min(old[0], cpu), min(old[1], wall))
            for name, (cpu, wall) in best.items():
                path = work / f"{name}.pbn"
                boards = count_boards(path)
                if boards != n:
                    raise SystemExit(f"{name} wrote {boards} boards, not {n}")
                size = path.stat().st_size / 1e6
                print(f"{n:>8,} {name:<9} {cpu:>8.3f} {wall:>8.3f} {n / cpu:>10,.0f} {size:>6.1f}")
            if "bigdeal" in best:
                cpu_ratio = best["bridgeko"][0] / best["bigdeal"][0]
                wall_ratio = best["bridgeko"][1] / best["bigdeal"][1]
                verdict = "meets" if cpu_ratio <= 1.0 else "MISSES"
                print(
                    f"{n:>8,} ratio bridgeko/bigdeal: CPU {cpu_ratio:.2f}, wall {wall_ratio:.2f} "
                    f"({verdict} the target <= 1.0)"
                )


if __name__ == "__main__":
    main()
