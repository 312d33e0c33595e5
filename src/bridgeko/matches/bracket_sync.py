"""The bracket moving on (R13, I2, I7, I16): the matches of the edition created from the
engine's scheme when the draw is held, their teams filled in as the matches feeding them are
decided, and a later correction carried through everything that depends on it.

The bracket is the engine's graph of winner/loser references (:mod:`bridgeko.competition.
scheme`); nothing here knows the rounds of today's format. A change that would replace a team
in a match that already has results, line-ups or penalties is refused with the list of what it
affects (:class:`ConfirmationNeeded`) until the TD confirms it; every change of teams is
audited with the teams before and after."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.audit.services import record
from bridgeko.competition import bracket
from bridgeko.competition import match as engine
from bridgeko.competition.messages import N_, Message
from bridgeko.competition.regulations import Stage
from bridgeko.core import bracket_hooks
from bridgeko.core.errors import ServiceError
from bridgeko.core.events import emit
from bridgeko.draw import display
from bridgeko.draw.models import Draw, DrawNumber
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.matches.models import BoardResult, LineUp, Match, MatchStatus, Penalty, Segment


@dataclass(frozen=True, slots=True)
class Affected:
    """A match whose team would change although it has been played (or prepared)."""

    code: str
    side: str
    before: str
    after: str


class ConfirmationNeeded(ServiceError):
    """The change would replace a team in matches that were played on; the TD must confirm."""

    def __init__(self, affected: list[Affected]) -> None:
        lines = [
            _("%(code)s: %(side)s %(before)s would be replaced by %(after)s")
            % {
                "code": a.code,
                "side": _("home") if a.side == "home" else _("visitors"),
                "before": a.before,
                "after": a.after or _("(not known)"),
            }
            for a in affected
        ]
        super().__init__(
            _(
                "This changes a winner who has played on. Confirm to carry the change through "
                "the bracket; the results already entered stay and must be checked."
            ),
            errors=lines,
        )
        self.affected = affected


def scheme_of(draw: Draw) -> bracket.Scheme | None:
    """The drawn scheme: the engine's graph of winner/loser references (item 12: nothing here
    assumes today's format)."""
    return display.scheme_of(draw)


def held_draw(edition: Edition) -> Draw | None:
    return Draw.objects.filter(edition=edition, held_at__isnull=False).first()


def _numbers(draw: Draw) -> dict[int, Team]:
    return {n.number: n.team for n in DrawNumber.objects.filter(draw=draw).select_related("team")}


def _winner_number(m: Match, number_of: dict[int, int]) -> int | bool | None:
    """The draw number of the winner; None for no winner (I16); False while undecided."""
    if m.status == MatchStatus.NO_WINNER:
        return None
    if m.status not in (MatchStatus.DECIDED, MatchStatus.WALKOVER) or not m.winner:
        return False
    team_id = m.home_id if m.winner == "home" else m.visitors_id
    return number_of.get(team_id, False) if team_id is not None else False


@bracket_hooks.register_results
def results(edition: Edition) -> dict[str, int | None]:
    """Match id -> winning draw number (None: I16) of the decided matches (two queries)."""
    numbers = DrawNumber.objects.filter(draw__edition=edition, draw__held_at__isnull=False)
    number_of = {n.team_id: n.number for n in numbers}
    out: dict[str, int | None] = {}
    for m in Match.objects.filter(edition=edition).exclude(status=MatchStatus.BYE):
        won = _winner_number(m, number_of)
        if won is not False:
            out[m.code] = won
    return out


def has_facts(m: Match) -> bool:
    """Something was recorded in the match: a result, segment totals, a line-up or a penalty
    (one query)."""
    pk = OuterRef("pk")
    return (
        Match.objects.filter(pk=m.pk)
        .filter(
            Exists(BoardResult.objects.filter(match=pk))
            | Exists(Segment.objects.filter(match=pk, home_imps__isnull=False))
            | Exists(LineUp.objects.filter(segment__match=pk))
            | Exists(Penalty.objects.filter(match=pk))
        )
        .exists()
    )


def _create_segments(m: Match, edition: Edition) -> None:
    if Segment.objects.filter(match=m).exists():
        return
    plan = engine.segments_for_stage(Stage(m.stage), edition.regulations)  # R1.3, R12.1
    Segment.objects.bulk_create(
        Segment(match=m, number=s.number, first_board=s.first_board, last_board=s.last_board)
        for s in plan
    )


def sync(
    edition: Edition,
    *,
    user: Any = None,
    now: datetime | None = None,
    confirm: bool = False,
    changed: str | None = None,
) -> list[Match]:
    """Creates the edition's matches from the scheme (once the draw is held) and fills in their
    teams from the resolved bracket, round by round, so that a decided match puts its winner
    (and a semifinal its loser) into the next slot. Call inside a transaction."""
    from bridgeko.matches.services import refresh

    now = now or timezone.now()
    draw = held_draw(edition)
    scheme = scheme_of(draw) if draw is not None else None
    if draw is None or scheme is None:
        return []
    numbers = _numbers(draw)
    number_of = {team.pk: n for n, team in numbers.items()}
    rows = {m.code: m for m in Match.objects.select_for_update().filter(edition=edition)}
    created: list[str] = []
    for position, spec in enumerate(scheme.matches, 1):
        if spec.id not in rows:
            rows[spec.id] = Match.objects.create(
                edition=edition,
                code=spec.id,
                position=position,
                round=spec.round,
                stage=spec.stage.value,
                updated_at=now,
            )
            created.append(spec.id)
    teams_of = {t.pk: t for t in numbers.values()}
    affected: list[Affected] = []
    moved: dict[str, dict[str, Any]] = {}
    res: dict[str, int | None] = {}
    for round_no in range(1, scheme.round_count + 1):
        state = bracket.resolve(scheme, res, teams=set(numbers))
        for spec in scheme.round(round_no):
            ms = state.match(spec.id)
            m = rows[spec.id]
            home = numbers[ms.home.number].pk if ms.home.number is not None else None
            away = numbers[ms.away.number].pk if ms.away.number is not None else None
            bye = ms.status is bracket.MatchStatus.BYE
            # a second final the unbeaten team made unnecessary by winning the first: no
            # segments, not played, its winner the engine's (the away slot: that team)
            not_needed = ms.status is bracket.MatchStatus.NOT_NEEDED
            if m.swapped:
                home, away = away, home
            if (m.home_id, m.visitors_id) != (home, away):
                if (m.home_id is not None or m.visitors_id is not None) and has_facts(m):
                    for side, old, new in (
                        ("home", m.home_id, home),
                        ("visitors", m.visitors_id, away),
                    ):
                        if old is not None and old != new:
                            affected.append(
                                Affected(
                                    m.code,
                                    side,
                                    teams_of[old].name if old in teams_of else str(old),
                                    teams_of[new].name if new in teams_of else "",
                                )
                            )
                moved[m.code] = {
                    "before": [m.home_id, m.visitors_id],
                    "after": [home, away],
                }
                m.home_id, m.visitors_id = home, away
                m.save(update_fields=["home", "visitors"])
                if home is not None and away is not None and not not_needed:
                    _create_segments(m, edition)
                refresh(m, now=now)
            if not_needed:
                if m.status != MatchStatus.NOT_NEEDED or m.winner != "visitors":
                    m.status, m.winner = MatchStatus.NOT_NEEDED, "visitors"
                    m.save(update_fields=["status", "winner"])
            elif m.status == MatchStatus.NOT_NEEDED:  # a corrected first final: needed now
                m.status, m.winner = MatchStatus.TO_PLAY, ""
                _create_segments(m, edition)
                refresh(m, now=now)
            if bye:
                present = home if home is not None else away
                winner = "home" if present == home else "visitors"
                if m.status != MatchStatus.BYE or m.winner != winner:
                    m.status, m.winner = MatchStatus.BYE, winner if present is not None else ""
                    m.save(update_fields=["status", "winner"])
            won = _winner_number(m, number_of)
            if won is not False and not bye and not not_needed:
                res[spec.id] = won
    if affected and not confirm:
        raise ConfirmationNeeded(affected)
    if created or moved:
        record(
            "bridgeko.bracket.moved",
            user=user,
            edition=edition,
            before={code: change["before"] for code, change in moved.items()},
            after={code: change["after"] for code, change in moved.items()}
            | ({"created": created} if created else {})
            | ({"changed": changed} if changed else {}),
            summary=Message(
                N_("Bracket: %(created)s matches created, %(moved)s matches with new teams"),
                {"created": len(created), "moved": len(moved)},
            ),
            at=now,
        )
    return [rows[s.id] for s in scheme.matches]


@bracket_hooks.on_change
def on_change(
    edition: Edition, *, match: str | None = None, user: Any = None, now: datetime | None = None
) -> None:
    """The draw app's news: the draw was held, or a failure to appear changed (R15.2)."""
    from bridgeko.matches.services import locked, refresh

    now = now or timezone.now()
    with transaction.atomic():
        if match:
            m = Match.objects.filter(edition=edition, code=match).first()
            if m is not None:
                status, m = m.status, locked(m)
                refresh(m, now=now)
                if m.status != status and m.status in (MatchStatus.WALKOVER, MatchStatus.NO_WINNER):
                    emit("match.result", match=m, user=user)  # R15.2: the captains' mail
        sync(edition, user=user, now=now, changed=match)
