"""Each team's chance to win the event and to reach each round (issue 22), for the bracket,
the team pages and the API.

Computed in the background (:func:`bridgeko.core.background.after_commit`) once a result is
recorded or the draw is held (the events ``match.result`` and ``draw.held``), never while a
page is served: :func:`refresh` reads the bracket as the public pages show it, gives each match
still to play its chance to win from the match model (:mod:`bridgeko.competition.chances`:
the live score and boards left of a match in progress, the two teams' Elo and the stage's
boards for a match not begun) and hands them to :func:`bridgeko.competition.event_chances.
event_chances` (exact for a knockout, simulated for double elimination: deterministic, the seed
is the results' fingerprint). The result is one row per edition (:class:`EventOdds`).

A page reads the row in one query (:func:`for_bracket`) and shows it only when it was computed
from the results the page shows (its ``basis``); otherwise it says the chances are being
updated. Each computation bumps the row's ``serial``, which is part of the public pages'
version (:mod:`bridgeko.public.freshness`): a page cached without the new chances is
refreshed.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.competition import bracket as engine
from bridgeko.competition import chances, event_chances
from bridgeko.core import background, bracket_hooks
from bridgeko.draw import display
from bridgeko.draw import services as draw_services
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.public.models import EventOdds

log = logging.getLogger("bridgeko.public")

__all__ = ["Odds", "TeamOdds", "for_bracket", "refresh", "schedule"]


def runs() -> int:
    """Runs of the simulation (double elimination): ``BRIDGEKO_EVENT_CHANCES_RUNS``."""
    return int(getattr(settings, "BRIDGEKO_EVENT_CHANCES_RUNS", event_chances.RUNS))


def schedule(edition_id: int) -> None:
    """Recomputes the edition's chances once the current transaction commits."""
    background.after_commit(refresh, edition_id)


def refresh(edition_id: int) -> EventOdds | None:
    """Computes and stores the edition's chances from its bracket now (none before the draw or
    when the results contradict the scheme); returns the row."""
    edition = Edition.objects.filter(pk=edition_id).first()
    if edition is None:
        return None
    draw = draw_services.draw_of(edition)
    numbers = display.numbers_of(draw) if draw is not None and draw.held else {}
    scheme = display.scheme_of(draw) if draw is not None and numbers else None
    if draw is None or scheme is None:
        EventOdds.objects.filter(edition=edition).delete()
        return None
    rounds = display.bracket_rounds(draw, numbers, live=True)
    results = bracket_hooks.results(edition)
    reg = edition.regulations
    elos = entry_queries.team_elos(edition, [t.pk for t in numbers.values()])
    elo_of = {n: elos.get(t.pk) for n, t in numbers.items()}
    params = chances.params_for(reg)
    live: dict[str, tuple[int | None, int | None, float]] = {}
    for r in rounds:
        for m in r.matches:
            now = m.score.live if m.score is not None else None
            if now is not None and now.chance_home is not None:
                live[m.id] = (m.home.number, m.away.number, now.chance_home)

    def chance(match_id: str, home: int, away: int) -> float:
        running = live.get(match_id)
        if running is not None and running[:2] == (home, away):
            return running[2]
        boards = reg.match.boards_of(scheme.match(match_id).stage)
        return chances.chance_to_win(0, 0, boards, elo_of.get(home), elo_of.get(away), params)

    basis = display.results_basis(rounds)
    try:
        odds = event_chances.event_chances(
            scheme,
            results,
            teams=set(numbers),
            chance=chance,
            runs=runs(),
            seed=int(basis[:8], 16),
        )
    except engine.BracketError:  # results that contradict the scheme: the staff pages say so
        log.warning("event chances of %s not computed: the bracket does not resolve", edition)
        return None
    teams: dict[str, dict[str, Any]] = {}
    for number, team in numbers.items():
        reach = {str(rnd): round(by[number], 6) for rnd, by in odds.reach.items() if number in by}
        places = {
            str(place): round(by[number], 6) for place, by in odds.places.items() if number in by
        }
        in_match = {mid: round(by[number], 6) for mid, by in odds.matches.items() if number in by}
        teams[str(team.pk)] = {
            "number": number,
            "win": round(odds.win.get(number, 0.0), 6),
            "places": places,
            "reach": reach,
            "matches": in_match,
        }
    with transaction.atomic():
        row, _created = EventOdds.objects.select_for_update().get_or_create(
            edition=edition,
            defaults={"basis": basis, "computed_at": timezone.now(), "runs": odds.runs},
        )
        row.basis, row.computed_at, row.runs = basis, timezone.now(), odds.runs
        row.data = {"teams": teams}
        row.serial = F("serial") + 1
        row.save()
        row.refresh_from_db(fields=["serial"])
    from bridgeko.core import events

    events.emit("odds.updated", edition_id=edition.pk)
    return row


@dataclass(frozen=True, slots=True)
class TeamOdds:
    """One team's chances, as fractions (0-1)."""

    team_id: int
    number: int
    win: float
    places: Mapping[int, float]
    reach: Mapping[int, float]
    matches: Mapping[str, float]
    """Match id -> the chance to play in it."""


@dataclass(frozen=True, slots=True)
class Odds:
    """The chances the page may show (computed from the results it shows)."""

    computed_at: Any
    runs: int
    teams: Mapping[int, TeamOdds]
    """Team id -> its chances."""

    @property
    def exact(self) -> bool:
        return self.runs == 0

    def still_in(self) -> list[TeamOdds]:
        """The teams with a chance to win, the likeliest first."""
        return sorted(
            (t for t in self.teams.values() if t.win > 0), key=lambda t: (-t.win, t.number)
        )


@dataclass(frozen=True, slots=True)
class Shown:
    """What a page shows: the chances (None: none to show) and whether they are being
    recomputed after a new result (``updating``)."""

    odds: Odds | None
    updating: bool


_kicked: set[tuple[int, str]] = set()


def _kick(edition_id: int, basis: str) -> None:
    """Chances missing or older than the results (an edition stored before they existed, a
    computation lost with its process): computed in a background thread, once per results in
    this process. Never in the ``inline`` mode (tests, commands): a page does no such work."""
    if background.mode() != "thread" or (edition_id, basis) in _kicked:
        return
    _kicked.add((edition_id, basis))
    background.start(refresh, edition_id)


def for_bracket(edition: Edition, rounds: list[display.RoundView]) -> Shown:
    """The stored chances for the bracket ``rounds`` (one query): shown when computed from the
    same results (``updating`` otherwise; nothing before the draw or once the event is won)."""
    if not rounds:
        return Shown(None, False)
    row = EventOdds.objects.filter(edition=edition).first()
    basis = display.results_basis(rounds)
    if row is None or row.basis != basis:
        _kick(edition.pk, basis)
        return Shown(None, True)
    teams = {}
    for key, doc in (row.data.get("teams") or {}).items():
        teams[int(key)] = TeamOdds(
            int(key),
            int(doc["number"]),
            float(doc["win"]),
            {int(p): float(v) for p, v in doc.get("places", {}).items()},
            {int(r): float(v) for r, v in doc.get("reach", {}).items()},
            {str(m): float(v) for m, v in doc.get("matches", {}).items()},
        )
    odds = Odds(row.computed_at, row.runs, teams)
    if not any(0.0 < t.win < 1.0 for t in teams.values()):
        return Shown(None, False)  # the event is decided: nothing left to predict
    return Shown(odds, False)


@dataclass(frozen=True, slots=True)
class Row:
    """A line of the bracket page's table of chances."""

    number: int
    team: Any
    win: int
    """Percent."""
    final: int | None
    """Percent of playing the final: finishing 1st or 2nd (None: the scheme ranks no 2nd)."""


def _final(odds: Odds, team: TeamOdds) -> int | None:
    """The team's chance to play the final (1st or 2nd), in percent; None where the scheme
    ranks no 2nd place."""
    if not any(2 in t.places for t in odds.teams.values()):
        return None
    return display.percent(min(1.0, team.win + team.places.get(2, 0.0)))


def table(shown: Shown, numbers: Mapping[int, Any]) -> list[Row]:
    """The teams with a chance to win, the likeliest first, for the bracket page."""
    if shown.odds is None:
        return []
    return [
        Row(t.number, numbers.get(t.number), display.percent(t.win), _final(shown.odds, t))
        for t in shown.odds.still_in()
    ]


@dataclass(frozen=True, slots=True)
class TeamView:
    """A team's chances for its page: percents of winning, of each place decided by play and
    of reaching each round it has not reached yet (with the round's title)."""

    win: int
    final: int | None
    """Percent of playing the final (1st or 2nd; None: the scheme ranks no 2nd)."""
    places: list[tuple[int, int]]
    reach: list[tuple[str, int]]


def for_team(shown: Shown, team_id: int, rounds: list[display.RoundView]) -> TeamView | None:
    """The team's chances (None: nothing to show — no chances, or the team is out)."""
    if shown.odds is None:
        return None
    odds = shown.odds.teams.get(team_id)
    if odds is None or not any(p > 0 for p in odds.places.values()):
        return None
    return TeamView(
        display.percent(odds.win),
        _final(shown.odds, odds),
        [(place, display.percent(p)) for place, p in sorted(odds.places.items()) if p > 0],
        [
            (title, display.percent(p))
            for title, ids in _columns(rounds)
            if 0 < (p := min(1.0, sum(odds.matches.get(m, 0.0) for m in ids))) < 1
        ],
    )


def _columns(rounds: list[display.RoundView]) -> list[tuple[str, list[str]]]:
    """The drawing's columns as a team reaches them (title, match ids), in the order drawn: a
    column of the final and the 3rd-place match is two (reaching the final is not reaching the
    match for 3rd place)."""
    out: list[tuple[str, list[str]]] = []
    for section in display.sections(rounds):
        for column in section.columns:
            third = [m.id for m in column.matches if m.stage == "third_place"]
            others = [m.id for m in column.matches if m.stage != "third_place"]
            if others:
                title = column.title
                if third and any(m.stage == "final" for m in column.matches):
                    title = _("Final")
                out.append((title, others))
            if third:
                out.append((_("Match for 3rd place"), third))
    return out
