"""Time to make each paper form (issue 11): reading the data and typesetting the PDF with Typst.

Run: ``.venv/bin/python benchmarks/bench_paper.py [--repeat 20]``

The script sets up its own database (the real settings on a fresh temporary SQLite file,
migrated, as ``bench_matches.py`` does): the 1999 edition, two teams of six players with their
fees paid, a 48-board final (three segments of 16) with every board entered in both rooms, the
line-ups of its first segment and the 16 deals of that segment with a double-dummy table and
par. Then, in Czech, for each form (:mod:`bridgeko.paper.documents` + :func:`bridgeko.paper.
render.render`):

* ``data``: reading the database and building the template's data;
* ``typeset``: Typst turning the template and the data into the PDF;
* the PDF's size and pages.

Printed: the medians over ``--repeat`` runs after a warm-up, side by side, the ratio of the
whole to a target of 500 ms a document, and the first (cold) typesetting of the process, which
reads the fonts. The times depend on the machine's load; the script never fails on a time.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
REGULATIONS = REPO / "editions" / "bridge-open-ko-1999.toml"
TARGET_MS = 500.0
NOW = datetime(1999, 6, 6, 9, 0, tzinfo=UTC)


def setup_django(data_dir: str) -> None:
    os.environ.pop("DATABASE_URL", None)
    os.environ["BRIDGEKO_DATA_DIR"] = data_dir
    os.environ["DJANGO_SETTINGS_MODULE"] = "bridgeko.web.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def build_world() -> dict[str, Any]:
    """The edition, two teams, a played 48-board final, line-ups and deals (see the module)."""
    from django.contrib.auth import get_user_model

    from bridgeko.boards.models import BoardDeal, DealSet
    from bridgeko.bridge.analysis import dd_table, par_of_table
    from bridgeko.bridge.annotate import dd_dict, par_dict
    from bridgeko.bridge.board import dealer, vulnerability
    from bridgeko.bridge.dealing import deal_set
    from bridgeko.editions.services import create_edition
    from bridgeko.matches.models import Segment

    user = get_user_model().objects.create_superuser("bench", password="x")
    edition = create_edition(slug="ko-1999", toml_text=REGULATIONS.read_text(), user=user)
    import worlds  # benchmarks/worlds.py, beside this script

    match = worlds.played_final(edition, user, round_=4, now=NOW)
    first = Segment.objects.get(match=match, number=1)
    made = DealSet.objects.create(segment=first, source="dealt")
    for board, deal in deal_set(bytes(range(7, 39)), "Bench", "F", range(1, 17)).items():
        table = dd_table(deal)
        par = par_of_table(table, dealer(board), vulnerability(board))
        BoardDeal.objects.create(
            deal_set=made, board=board, deal=deal.to_pbn(), dd=dd_dict(table), par=par_dict(par)
        )
    return {"edition": edition, "match": match, "segment": first, "team": match.home}


def cases(world: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    from bridgeko.boards.models import BoardDeal
    from bridgeko.entries.queries import team_info
    from bridgeko.matches import standings
    from bridgeko.paper import documents

    edition, match, segment, team = (world[k] for k in ("edition", "match", "segment", "team"))
    today = date(1999, 6, 6)
    return {
        "entry form": lambda: documents.entry_form(edition, team_info(team), today),
        "table cards, slips": lambda: documents.line_up_cards(edition, match, segment, today),
        "match record (48)": lambda: documents.match_record(edition, match, today),
        "appeal form": lambda: documents.appeal_form(edition, match, today),
        "hand records (16)": lambda: documents.hand_records(
            edition,
            match,
            segment,
            list(BoardDeal.objects.filter(deal_set__segment=segment).order_by("board")),
            today,
        ),
        "fee receipt": lambda: documents.receipt(edition, team_info(team), today),
        "prize list": lambda: documents.prize_list(edition, standings.summary(edition), today),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data_dir:
        setup_django(data_dir)
        from django.utils import translation
        from pypdf import PdfReader

        from bridgeko.paper.render import render

        translation.activate("cs")
        world = build_world()
        todo = cases(world)
        first = todo["entry form"]()
        start = time.perf_counter()
        render(first.template, first.data)
        cold = (time.perf_counter() - start) * 1000
        print(f"first typesetting of the process (reads the fonts): {cold:.0f} ms")
        print(
            f"{'form':<20} {'data ms':>8} {'typeset ms':>11} {'total ms':>9} "
            f"{'/ target':>9} {'pages':>6} {'kB':>6}"
        )
        for name, build in todo.items():
            doc = build()
            pdf = render(doc.template, doc.data)  # warm-up
            data_ms, typeset_ms = [], []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                doc = build()
                t1 = time.perf_counter()
                pdf = render(doc.template, doc.data)
                t2 = time.perf_counter()
                data_ms.append((t1 - t0) * 1000)
                typeset_ms.append((t2 - t1) * 1000)
            d, t = statistics.median(data_ms), statistics.median(typeset_ms)
            pages = len(PdfReader(io.BytesIO(pdf)).pages)
            print(
                f"{name:<20} {d:8.1f} {t:11.1f} {d + t:9.1f} {(d + t) / TARGET_MS:9.2f} "
                f"{pages:6d} {len(pdf) / 1024:6.0f}"
            )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "src"))
    sys.exit(main())
