"""From the table to the spectator (issue 20): the delay from a write of Bridgemate Control
Software's file to the public ``live.json`` moving, while ``bridgeko import-bws --follow`` reads
the file every ``--poll`` seconds (goal: at most 5 s at a 2 s poll).

Run: ``.venv/bin/python benchmarks/bench_bws_follow.py [--poll 2] [--rounds 8]``

Everything runs on 127.0.0.1 in a temporary directory removed at the end: the real settings on a
fresh SQLite database with the demo (``bridgeko.demo``), the application as the README deploys
it (gunicorn on ``bridgeko.web.wsgi``) and the follower as a TD runs it, each a process of its
own, stopped at the end (also on Ctrl+C).

The file: BCS writes each result into the ``.bws`` as it arrives; no program here can write an
Access database, so the sessions's growth is played back from a real file
(``tests/data/bws/LBC-2026-01-26.bws``, a club session): version *k* is the file with only the
first *k* data pages of ``ReceivedData`` in the table's usage map (what Access reads), so each
write adds the results of one page. Only the writes that add a result of the two followed tables
within the followed segment are timed. Each write lands at a random moment of the follower's
poll (a pause of 0-``poll`` s before it) and is written in place (not renamed), as BCS does.

Printed, per write: the delay from the end of the write to the first answer of ``live.json``
(asked every 20 ms, as an open page would but faster) whose version moved; then p50 / p95 / max,
each as a ratio to the poll period, against the goal."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import random
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REAL = REPO / "tests" / "data" / "bws" / "LBC-2026-01-26.bws"
PAGE = 2048
GOAL = 5.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def versions(data: bytes) -> list[bytes]:
    """The file with the first 0, 1, ... n data pages of ReceivedData in its usage map."""
    from access_parser import AccessParser
    from access_parser.parsing_primitives import parse_table_head

    logging.getLogger("access_parser").setLevel(logging.CRITICAL)  # it logs what it skips
    with tempfile.NamedTemporaryFile(suffix=".bws") as copy:
        copy.write(data)
        copy.flush()
        tdef = AccessParser(copy.name).catalog["ReceivedData"]
    pointer = parse_table_head(data[tdef * PAGE : (tdef + 1) * PAGE], version=3).row_page_map
    page, row = pointer >> 8, pointer & 0xFF
    offsets = struct.unpack_from(f"<{row + 1}H", data, page * PAGE + 10)
    at = page * PAGE + (offsets[row] & 0x1FFF)
    end = page * PAGE + (PAGE if row == 0 else offsets[row - 1] & 0x1FFF)
    assert data[at] == 0, "a type-0 usage map"
    bitmap = data[at + 5 : end]
    pages = [i for i in range(len(bitmap) * 8) if bitmap[i // 8] >> (i % 8) & 1]
    out = []
    for k in range(len(pages) + 1):
        copy_ = bytearray(data)
        for index in pages[k:]:
            copy_[at + 5 + index // 8] &= ~(1 << (index % 8)) & 0xFF
        out.append(bytes(copy_))
    return out


def results_of(data: bytes, open_table: int, closed_table: int, boards: range) -> dict[object, str]:
    from bridgeko.bridge import bws

    file = bws.read(data)
    found: dict[object, str] = {}
    for room, table in (("open", open_table), ("closed", closed_table)):
        for board, record in file.latest(1, table).items():
            if board in boards and not record.is_artificial:
                found[(board, room)] = f"{record.id}"
    return found


def live_version(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:  # 127.0.0.1
        return str(json.loads(response.read())["version"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--poll", type=float, default=2.0, help="the follower's period (s)")
    parser.add_argument("--rounds", type=int, default=8, help="writes to time, at most")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory(prefix="bench-bws-") as folder:
        tmp = Path(folder)
        env = dict(
            os.environ, BRIDGEKO_DATA_DIR=str(tmp), DJANGO_SETTINGS_MODULE="bridgeko.web.settings"
        )
        env.pop("DATABASE_URL", None)
        env["BRIDGEKO_SECRET_KEY"] = "bench-bws-follow"
        python = sys.executable
        setup = (
            "import django; django.setup();"
            "from django.core.management import call_command; call_command('migrate', verbosity=0);"
            "from bridgeko.demo import load_demo; load_demo();"
            "from bridgeko.matches.models import Match, BoardResult, Segment;"
            "ms = Match.objects.filter(edition__slug='ko-1999').exclude(home=None)"
            ".exclude(visitors=None).exclude(status__in=('decided', 'walkover'));"
            "s = next(s for m in ms for s in Segment.objects.filter(match=m)"
            " if s.closed_at is None and s.ended_at is None and not BoardResult.objects.filter("
            "match=m, board__gte=s.first_board, board__lte=s.last_board).exists());"
            "print(s.match.code, s.number, s.first_board, s.last_board)"
        )
        done = subprocess.run(
            [python, "-c", setup], env=env, cwd=tmp, capture_output=True, check=True
        )
        code, segment, first, last = done.stdout.decode().split()[-4:]
        boards = range(int(first), int(last) + 1)
        all_versions = versions(REAL.read_bytes())
        target = tmp / "session.bws"
        target.write_bytes(all_versions[0])
        port = free_port()
        gunicorn = [python, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "2"]
        log = (tmp / "gunicorn.log").open("wb")
        started.append(
            subprocess.Popen(
                [*gunicorn, "bridgeko.web.wsgi"],
                env=env,
                cwd=tmp,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        )
        follower_log = (tmp / "follower.log").open("wb")
        cli = [python, "-m", "bridgeko.cli", "import-bws", str(target), "--edition", "ko-1999"]
        cli += ["--match", code, "--segment", segment, "--open", "1", "--closed", "2"]
        cli += ["--follow", f"{args.poll:g}"]
        started.append(
            subprocess.Popen(
                cli,
                env=env,
                cwd=tmp,
                stdout=follower_log,
                stderr=follower_log,
                start_new_session=True,
            )
        )
        url = f"http://127.0.0.1:{port}/e/ko-1999/live.json"
        try:
            for _ in range(200):
                with contextlib.suppress(OSError):
                    live_version(url)
                    break
                time.sleep(0.1)
            time.sleep(args.poll + 0.5)  # the follower's first read (of an empty file)
            delays: list[float] = []
            previous: dict[object, str] = {}
            for data in all_versions[1:]:
                now_results = results_of(data, 1, 2, boards)
                if now_results == previous:
                    continue
                previous = now_results
                time.sleep(rng.uniform(0, args.poll))
                before = live_version(url)
                with target.open("r+b") as handle:  # in place, as BCS writes
                    handle.write(data)
                written = time.monotonic()
                while live_version(url) == before:
                    if time.monotonic() - written > 30:
                        raise SystemExit("live.json did not move within 30 s (see follower.log)")
                    time.sleep(0.02)
                delay = time.monotonic() - written
                delays.append(delay)
                print(
                    f"{len(now_results)} results in the file: live.json moved after {delay:.2f} s"
                )
                if len(delays) >= args.rounds:
                    break
        finally:
            for proc in reversed(started):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=15)
        if not delays:
            print("no write changed the followed tables' results")
            return 1
        p50 = statistics.median(delays)
        p95 = sorted(delays)[max(0, round(0.95 * len(delays)) - 1)]
        worst = max(delays)
        print(f"\n{len(delays)} writes, poll every {args.poll:g} s")
        for name, value in (("p50", p50), ("p95", p95), ("max", worst)):
            print(f"{name}: {value:.2f} s = {value / args.poll:.2f} x the poll period")
        verdict = "met" if worst <= GOAL else "MISSED"
        print(f"goal: at most {GOAL:g} s -> {verdict} (max {worst:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
