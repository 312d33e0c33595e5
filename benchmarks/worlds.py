"""Data the benchmarks share (imported by the scripts beside it, inside their set-up, once
Django is set up): an edition's 48-board final between two teams of six, played in both
rooms, with the first segment's line-ups."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

NOW = datetime(1999, 4, 20, 18, 0, tzinfo=UTC)
TEXTS = ["4S N =", "3NT S +1", "4HX E -2", "Pass", "2D W -1", "6C N =", "1NT E =", "5DX S -3"]


def played_final(edition: Any, user: Any, *, round_: int, now: datetime = NOW) -> Any:
    """Two teams of six (``Řeřichy Žďár`` at home, ``Ústí nad Orlicí``), their final ``F``
    of three 16-board segments with every board entered in both rooms through the services,
    and both line-ups of segment 1. Returns the match."""
    from bridgeko.entries.models import Team
    from bridgeko.entries.services import create_team
    from bridgeko.matches import lineups, services
    from bridgeko.matches.models import Match, MatchStatus, Segment
    from bridgeko.players.models import Player

    teams = []
    for t, name in enumerate(("Řeřichy Žďár", "Ústí nad Orlicí")):
        players = [
            Player.objects.create(federation_id=f"B{t}{k}", name=f"Hráč Čížek {t}{k}", club="BK")
            for k in range(6)
        ]
        teams.append(create_team(edition=edition, name=name, roster=players, user=user, now=now))
    Team.objects.filter(pk__in=[t.pk for t in teams]).update(
        fee_paid=1200, fee_received=date(1999, 3, 1)
    )
    match = Match.objects.create(
        edition=edition,
        code="F",
        position=1,
        round=round_,
        stage="final",
        home=teams[0],
        visitors=teams[1],
        status=MatchStatus.TO_PLAY,
    )
    for n in (1, 2, 3):
        Segment.objects.create(match=match, number=n, first_board=16 * n - 15, last_board=16 * n)
    for board in range(1, 49):
        for room, shift in (("open", 0), ("closed", 3)):
            services.save_board(
                match=match,
                board=board,
                room=room,
                text=TEXTS[(board + shift) % len(TEXTS)],
                version=0,
                user=user,
                now=now,
            )
    first = Segment.objects.get(match=match, number=1)
    for side, team in (("visitors", teams[1]), ("home", teams[0])):
        p = lineups.roster_of(team)
        lineups.set_line_up(
            segment=first,
            side=side,
            open_first=p[0],
            open_second=p[1],
            closed_first=p[2],
            closed_second=p[3],
            user=user,
            now=now,
            as_td=True,
        )
    return match
