"""Server time of the matches' hot paths: saving one board of a 48-board match, reading the match.

Run: ``.venv/bin/python benchmarks/bench_matches.py [--repeat 50]``

The script sets up its own database: the real settings (:mod:`bridgeko.web.settings`) with a
fresh temporary data directory, i.e. a new SQLite file (``DATABASE_URL`` is ignored: nothing is
ever written to a configured database), migrated, with an edition made from the 1999
regulations and a final (48 boards, three segments of 16, R1.3) between two teams.

Measured (a list of named cases, :data:`CASES`; a new page, e.g. the TD's match page, is one
more entry), each with the match's first 16 boards entered in both rooms and then with all 48:

* ``save_board``: :func:`bridgeko.matches.services.save_board` of one room of one board (the text
  changes back and forth, each save from the version stored): locking the match, the engine's
  checks, the audit entry, the refresh of the match's cached state;
* ``state.view``: :func:`bridgeko.matches.state.view` (loading the facts and the engine's state);
* ``api GET`` / ``api 304``: the JSON API of the match through Django's whole stack (test
  client: middleware, URL routing, the view, the JSON), and the same with ``If-None-Match``.
* ``TD page``: the TD's match page (``matches:detail``) through the whole stack as a logged-in
  TD: every board with its two entry fields, the segment tools, the penalties;
* ``save JSON``: the page's board field saving itself (``matches:save_board`` posted with
  ``Accept: application/json``) as a logged-in TD: the service's save and the JSON answer.

Printed per case: the median and the 95th percentile of the wall time (``perf_counter``, the
server's time: no network) over ``--repeat`` runs after a warm-up, the median CPU time of the
process (``process_time``: without the wait for the disk, whose ``fsync`` at each commit is most
of a save's wall time on a real disk — ``--data-dir /dev/shm`` leaves it out — and without the
wait for a busy machine's cores), the ratio of the median to the target of 50 ms, and the number
of database queries of one run. The load average and a reference loop are printed too: on a
loaded machine every time grows. The number of queries must not
grow with the boards: the script ends with status 1 when it does (never on a time: the load of
the machine changes the times, not the queries).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
REGULATIONS = REPO / "editions" / "bridge-open-ko-1999.toml"
TARGET_MS = 50.0
START = datetime(1999, 5, 1, 9, 0, tzinfo=UTC)


def setup_django(data_dir: str) -> None:
    """The real settings on a fresh SQLite database in ``data_dir``, migrated."""
    os.environ.pop("DATABASE_URL", None)
    os.environ["BRIDGEKO_DATA_DIR"] = data_dir
    os.environ["DJANGO_SETTINGS_MODULE"] = "bridgeko.web.settings"
    import django

    django.setup()
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host "testserver" is allowed
    call_command("migrate", verbosity=0, interactive=False)


@dataclass
class Bench:
    """The database's objects the cases use."""

    match: Any
    user: Any
    url: str
    clock: list[datetime]
    page_url: str = ""
    td: Any = None

    def now(self) -> datetime:
        self.clock[0] += timedelta(seconds=1)
        return self.clock[0]


def build() -> Bench:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.urls import reverse

    from bridgeko.competition import match as engine
    from bridgeko.competition.regulations import Stage
    from bridgeko.editions.services import create_edition
    from bridgeko.entries.models import Team
    from bridgeko.matches import services
    from bridgeko.matches.models import Match, Segment

    user = get_user_model().objects.create_user(username="td")  # no password: no hashing
    edition = create_edition(
        slug="bench", toml_text=REGULATIONS.read_text(encoding="utf-8"), user=user
    )
    home = Team.objects.create(edition=edition, name="Domácí", created_at=START)
    visitors = Team.objects.create(edition=edition, name="Hosté", created_at=START)
    match = Match.objects.create(
        edition=edition,
        code="F",
        position=1,
        round=1,
        stage=Stage.FINAL.value,
        home=home,
        visitors=visitors,
        updated_at=START,
    )
    Segment.objects.bulk_create(
        Segment(match=match, number=s.number, first_board=s.first_board, last_board=s.last_board)
        for s in engine.segments_for_stage(Stage.FINAL, edition.regulations)
    )
    with transaction.atomic():
        services.refresh(services.locked(match), now=START)
    from bridgeko.accounts.models import Role, RoleAssignment

    td = get_user_model().objects.create_user(username="td-page")
    RoleAssignment.objects.create(user=td, edition=edition, role=Role.TD)
    url = reverse("api:match", kwargs={"edition": edition.slug, "code": match.code})
    page_url = reverse("matches:detail", kwargs={"edition": edition.slug, "code": match.code})
    return Bench(match=match, user=user, url=url, clock=[START], page_url=page_url, td=td)


def fill(bench: Bench, boards: range) -> None:
    """Both rooms of ``boards`` through the service (home gains on every board)."""
    from bridgeko.matches import services

    for board in boards:
        for room, text in (("open", "4S N ="), ("closed", "4S N -1")):
            services.save_board(
                match=bench.match,
                board=board,
                room=room,
                text=text,
                version=0,
                user=bench.user,
                now=bench.now(),
            )


# ---------------------------------------------------------------------------------- the cases


def case_save_board(bench: Bench) -> Callable[[], Any]:
    from bridgeko.matches import services
    from bridgeko.matches.models import BoardResult

    texts = ("4S N =", "4S N +1")
    state = {"k": 0, "version": BoardResult.objects.get(match=bench.match, board=1, room="open")}

    def run() -> Any:
        state["k"] += 1
        current = state["version"]
        saved = services.save_board(
            match=bench.match,
            board=1,
            room="open",
            text=texts[state["k"] % 2],
            version=current.version,
            user=bench.user,
            now=bench.now(),
        )
        state["version"] = saved.result
        return saved

    return run


def case_view(bench: Bench) -> Callable[[], Any]:
    from bridgeko.matches import state
    from bridgeko.matches.models import Match

    match = Match.objects.select_related("edition", "home", "visitors").get(pk=bench.match.pk)
    return lambda: state.view(match)


def case_api(bench: Bench) -> Callable[[], Any]:
    from django.test import Client

    client = Client()

    def run() -> Any:
        response = client.get(bench.url)
        assert response.status_code == 200, response.status_code
        return response

    return run


def case_api_304(bench: Bench) -> Callable[[], Any]:
    from django.test import Client

    client = Client()
    etag = client.get(bench.url)["ETag"]

    def run() -> Any:
        response = client.get(bench.url, headers={"If-None-Match": etag})
        assert response.status_code == 304, response.status_code
        return response

    return run


def case_td_page(bench: Bench) -> Callable[[], Any]:
    """The TD's match page (``matches:detail``) through the whole stack, as a logged-in TD:
    every board with its two entry fields, the segment tools, the penalties."""
    from django.test import Client

    client = Client()
    client.force_login(bench.td)

    def run() -> Any:
        response = client.get(bench.page_url)
        assert response.status_code == 200, response.status_code
        return response

    return run


def case_save_board_json(bench: Bench) -> Callable[[], Any]:
    """The page's board field saving itself: ``matches:save_board`` posted by the page's
    script (JSON), as a logged-in TD, through the whole stack."""
    from django.test import Client
    from django.urls import reverse

    from bridgeko.matches.models import BoardResult

    client = Client()
    client.force_login(bench.td)
    url = reverse(
        "matches:save_board",
        kwargs={"edition": "bench", "code": bench.match.code, "board": 2, "room": "open"},
    )
    texts = ("4S N =", "4S N +1")
    state = {"k": 0, "version": BoardResult.objects.get(match=bench.match, board=2, room="open")}

    def run() -> Any:
        state["k"] += 1
        response = client.post(
            url,
            {"text": texts[state["k"] % 2], "version": state["version"].version},
            headers={"Accept": "application/json"},
        )
        assert response.status_code == 200, (response.status_code, response.content)
        state["version"].version = response.json()["version"]
        return response

    return run


CASES: list[tuple[str, Callable[[Bench], Callable[[], Any]]]] = [
    ("save_board", case_save_board),
    ("state.view", case_view),
    ("api GET", case_api),
    ("api 304", case_api_304),
    ("TD page", case_td_page),
    ("save JSON", case_save_board_json),
]
"""(name, factory): the factory prepares one case on the current data and returns the call to
time. A new case is one more line."""


# ---------------------------------------------------------------------------------- measuring


@dataclass(frozen=True)
class Figure:
    name: str
    boards: int
    median_ms: float
    p95_ms: float
    cpu_ms: float
    """The median CPU time of this process (waiting for the disk or for the cores not counted)."""
    queries: int


def queries_of(run: Callable[[], Any]) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        run()
    return len(ctx.captured_queries)


def measure(name: str, boards: int, run: Callable[[], Any], repeat: int) -> Figure:
    for _ in range(3):  # warm-up (imports, template and translation caches)
        run()
    times, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        cpu.append((time.process_time() - start_cpu) * 1000)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[min(len(times) - 1, max(0, round(0.95 * len(times)) - 1))]
    return Figure(
        name, boards, statistics.median(times), p95, statistics.median(cpu), queries_of(run)
    )


def reference_ms() -> float:
    """``sum(range(10**6))``, best of 5: how fast this machine is right now."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        sum(range(10**6))
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=50, help="timed runs per case (default 50)")
    ap.add_argument(
        "--data-dir",
        default=None,
        help="where to make the temporary data directory (default: the system's temporary "
        "directory); /dev/shm leaves out the time of writing to the disk",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bridgeko-bench-", dir=args.data_dir) as data_dir:
        setup_django(data_dir)
        from django.utils import translation

        translation.activate("en")
        bench = build()
        figures: list[Figure] = []
        filled = 0
        for boards in (16, 48):
            fill(bench, range(filled + 1, boards + 1))
            filled = boards
            for name, factory in CASES:
                figures.append(measure(name, boards, factory(bench), args.repeat))
        from bridgeko.matches.models import Match

        match = Match.objects.get(pk=bench.match.pk)
        print(
            f"Final of 48 boards (SQLite in {data_dir}, {args.repeat} runs a case); the match "
            f"is now {match.status}, {match.home_total}:{match.visitors_total}."
        )
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(
            f"Load average {load:.2f} on {os.cpu_count()} cores; reference loop "
            f"sum(range(10**6)) {reference_ms():.1f} ms."
        )
        print(
            f"{'case':<12} {'boards':>6} {'median ms':>10} {'p95 ms':>8} {'cpu ms':>7} "
            f"{'/ target':>9} {'queries':>8}"
        )
        for f in figures:
            print(
                f"{f.name:<12} {f.boards:>6} {f.median_ms:>10.2f} {f.p95_ms:>8.2f} "
                f"{f.cpu_ms:>7.2f} {f.median_ms / TARGET_MS:>9.2f} {f.queries:>8}"
            )
        grows = []
        for name, _factory in CASES:
            counts = [f.queries for f in figures if f.name == name]
            if len(set(counts)) > 1:
                grows.append(f"{name}: {counts}")
        print(f"Target: under {TARGET_MS:.0f} ms each (ratio under 1.00).")
        if grows:
            print("The number of queries grows with the boards: " + "; ".join(grows))
            return 1
        print("The number of queries does not grow with the boards (16 and 48 equal).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
