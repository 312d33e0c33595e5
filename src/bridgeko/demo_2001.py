"""The demo's 2001 edition (issue 22): the next format of the same event, from its own
regulations file (``editions/bridge-open-ko-2001.toml``) — double elimination up to and
including the semifinal, a final of 64 boards in 8-board sets, fees and prizes per player.

Twelve teams of four, entries closed, the draw held (fixed seed) in the 16-number scheme with
four byes, the Friday dates published; every match of both brackets played (segment totals from
the scorecards, results from a seeded generator: the same every run) up to the final, which is
scheduled on the finals weekend and under way: its first two 8-board sets in, the third being
played board by board. The losers'-bracket finalist is a team already once beaten.

Loaded through the same services as the web pages, by :func:`bridgeko.demo.load_demo`, in a
transaction of its own (a demo database made before this edition existed gains it at the next
start)."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

SLUG = "ko-2001"
TEAMS = (
    "Sokol Hradec Králové",
    "Pražští kouzelníci",
    "Brněnští draci",
    "Impas Olomouc",
    "Východočeši",
    "Krkonošské kvarteto",
    "Metuje",
    "Zlatá Praha",
    "Jihočeští pikoví",
    "Moravská slavia",
    "Náchodské srdce",
    "Trumfové eso",
)
SEED = 2001
FINAL_SETS_PLAYED = 2
"""The final's 8-board sets complete; the next one is in progress (:data:`FINAL_BOARDS_IN`)."""
FINAL_BOARDS_IN = 5
"""Boards of the set in progress entered in both rooms."""


def _at(day: date, hour: int = 12, minute: int = 0) -> datetime:
    from bridgeko.demo import _at as at

    return at(day, hour, minute)


def load_2001(organiser: Any, td: Any, players: list[Any], seed: bytes, *, elo: bytes) -> Any:
    """The 2001 edition, drawn and in play (see the module), with the Elo list ``elo`` (the
    demo's CSV); returns it."""
    from bridgeko.demo import _enter, _regulations_dir
    from bridgeko.draw import schedule_services
    from bridgeko.draw import services as draw
    from bridgeko.editions.models import EditionStage
    from bridgeko.editions.services import create_edition, move_stage
    from bridgeko.entries import queries as entry_queries
    from bridgeko.entries import services as entries
    from bridgeko.players import elo_csv as csv_format
    from bridgeko.players.services import import_elo

    text = (_regulations_dir() / "bridge-open-ko-2001.toml").read_text(encoding="utf-8")
    edition = create_edition(slug=SLUG, toml_text=text, user=organiser)
    import_elo(
        edition=edition,
        data=elo,
        columns=csv_format.Columns(
            federation_id="id", name="jmeno", club="klub", member="clen", elo="elo"
        ),
        user=organiser,
        source_name="elo-2000-06-30.csv",
    )
    barred = entry_queries.barred_players(edition)
    pool = [p for p in players if p.pk not in barred]
    for k, name in enumerate(TEAMS):
        _enter(edition, name, pool[4 * k : 4 * k + 4], organiser, date(2001, 2, 5 + 2 * k))
    entries.close_entries(edition=edition, user=organiser, now=_at(date(2001, 3, 5), 9))
    draw.announce_draw(
        edition=edition,
        place="Bridžový klub Nové Město nad Metují",
        at=_at(date(2001, 3, 9), 18),
        user=organiser,
        now=_at(date(2001, 2, 26)),
    )
    draw.publish_commitment(
        edition=edition, user=organiser, now=_at(date(2001, 3, 5), 10), seed=seed
    )
    draw.hold_draw(edition=edition, user=organiser, now=_at(date(2001, 3, 9), 18))
    schedule_services.default_schedule(
        edition=edition, first_date=date(2001, 3, 10), user=organiser, now=_at(date(2001, 3, 10))
    )
    schedule_services.publish_schedule(edition=edition, user=organiser, now=_at(date(2001, 3, 12)))
    move_stage(
        edition=edition, to=EditionStage.IN_PLAY, user=organiser, at=_at(date(2001, 3, 16), 18)
    )
    play_2001(edition, td)
    return edition


def play_2001(edition: Any, td: Any) -> None:
    """Every match with both teams known, round by round, from its segment totals (the
    scorecards); then the final: :data:`FINAL_SETS_PLAYED` sets of 8 boards by their totals,
    the next set board by board, :data:`FINAL_BOARDS_IN` boards in."""
    from bridgeko.demo_play import Player, Results, _decide, _start
    from bridgeko.matches.models import Match, MatchStatus

    reg = edition.regulations
    player = Player(edition, td, Results(random.Random(SEED)))
    finals = _at(reg.schedule.finals_start, 10)
    for _round in range(30):
        ready = [
            m
            for m in Match.objects.filter(edition=edition, status=MatchStatus.TO_PLAY).order_by(
                "round", "position"
            )
            if m.home_id is not None and m.visitors_id is not None and m.code != "F"
        ]
        if not ready:
            break
        for match in ready:
            start = _start(match, finals)
            for k, segment in enumerate(match.segments.filter(is_extra=False)):
                home, visitors = player.gen.totals()
                player.totals(
                    match.code, segment.number, home, visitors, start + timedelta(hours=2 * k + 2)
                )
            _decide(player, match.code, start + timedelta(hours=5))
    final = player.match("F")
    assert final.home_id is not None and final.visitors_id is not None
    start = _start(final, finals + timedelta(days=1))
    segments = list(final.segments.filter(is_extra=False))
    for k, segment in enumerate(segments[:FINAL_SETS_PLAYED]):
        home, visitors = player.gen.totals()
        player.totals("F", segment.number, home // 2, visitors // 2, start + timedelta(hours=k + 1))
    current = segments[FINAL_SETS_PLAYED]
    player.boards(
        "F",
        current.board_numbers[:FINAL_BOARDS_IN],
        start + timedelta(hours=FINAL_SETS_PLAYED + 1),
    )
