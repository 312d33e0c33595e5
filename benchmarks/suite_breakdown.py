"""Where the test suite's time goes (issue 19): reads the files that ``BRIDGEKO_TEST_TIMING=DIR``
makes every pytest process write (``tests/timing.py``) and prints, as Markdown tables:

* each worker: its wall time, the time in tests, the rest (start-up, collection, waiting),
  the worlds (``tests/worlds.py``) it built, replayed and took from another worker;
* the time by folder and by file (setup, call, teardown);
* the fixtures by their own setup time (their dependencies apart) and how often they ran;
* the slowest tests.

Usage::

    BRIDGEKO_TEST_TIMING=/tmp/timing make test        # or any pytest run, or .ci/run
    .venv/bin/python benchmarks/suite_breakdown.py /tmp/timing/sqlite [--top 25]
    .venv/bin/python benchmarks/suite_breakdown.py /tmp/timing/postgresql   # .ci/run's 2nd phase

It measures nothing itself: the figures are those of the run that wrote the files.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

PHASES = ("setup", "call", "teardown")


def load(folder: Path) -> list[dict[str, Any]]:
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]
    if not docs:
        raise SystemExit(f"no timing files in {folder} (run pytest with BRIDGEKO_TEST_TIMING)")
    return docs


def table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        cells = [f"{c:.1f}" if isinstance(c, float) else str(c) for c in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def folder_of(nodeid: str) -> str:
    path = nodeid.split("::")[0]
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0] if parts[0] == "src" else "tests/"


def breakdown(docs: list[dict[str, Any]], top: int) -> str:
    out = []
    start = min(d["started"] for d in docs)
    end = max(d["ended"] for d in docs)
    workers = []
    for d in sorted(docs, key=lambda d: str(d["worker"])):
        busy = sum(t.get(p, 0.0) for t in d["tests"].values() for p in PHASES)
        wall = d["ended"] - d["started"]
        made = d.get("worlds", {})
        worlds = "/".join(str(made.get(k, "")) for k in ("built", "replayed", "shared"))
        workers.append((d["worker"], len(d["tests"]), wall, busy, wall - busy, worlds))
    out.append(f"Wall time of the run (first start to last end): {end - start:.0f} s\n")
    out.append(
        table(
            ("worker", "tests", "wall s", "in tests s", "rest s", "worlds built/replayed/shared"),
            workers,
        )
    )

    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    tests: list[tuple[float, str]] = []
    for d in docs:
        for nodeid, t in d["tests"].items():
            entry = files[nodeid.split("::")[0]]
            for k, phase in enumerate(PHASES):
                entry[k] += t.get(phase, 0.0)
            entry[3] += 1
            tests.append((sum(t.get(p, 0.0) for p in PHASES), nodeid))
    folders: dict[str, float] = defaultdict(float)
    for path, (s, c, t, _n) in files.items():
        folders[folder_of(path)] += s + c + t
    total = sum(folders.values())
    out.append(f"\nTime in tests by folder (all workers: {total:.0f} s)\n")
    out.append(
        table(
            ("folder", "s", "share"),
            [
                (f, s, f"{100 * s / total:.0f} %")
                for f, s in sorted(folders.items(), key=lambda x: -x[1])
            ],
        )
    )
    out.append(f"\nThe {top} files that take longest\n")
    rows = sorted(files.items(), key=lambda x: -sum(x[1][:3]))[:top]
    out.append(
        table(
            ("file", "tests", "setup s", "call s", "teardown s", "all s"),
            [(f"`{p}`", n, s, c, t, s + c + t) for p, (s, c, t, n) in rows],
        )
    )
    fixtures: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for d in docs:
        for name, f in d["fixtures"].items():
            fixtures[name][0] += f["count"]
            fixtures[name][1] += f["seconds"]
    out.append(f"\nThe {top} fixtures with the most setup time of their own\n")
    rows_f = sorted(fixtures.items(), key=lambda x: -x[1][1])[:top]
    out.append(
        table(
            ("fixture (scope)", "set up", "s", "s each"),
            [(f"`{n}`", int(c), s, f"{s / c:.3f}" if c else "-") for n, (c, s) in rows_f],
        )
    )
    out.append(f"\nThe {top} slowest tests\n")
    out.append(table(("test", "s"), [(f"`{n}`", s) for s, n in sorted(tests, reverse=True)[:top]]))
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(breakdown(load(args.folder), args.top))


if __name__ == "__main__":
    main()
