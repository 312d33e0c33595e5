"""The final standings and the prize list of an edition (R1.2, R5.1, I7, I16), and the
organiser's decisions on the places the regulations do not decide.

The standings are the engine's (:meth:`bridgeko.competition.bracket.BracketState.standings` of
the bracket resolved with the results so far), mapped from draw numbers to teams; the prizes are
the engine's :func:`bridgeko.competition.prizes.prize_list` with the edition's regulations.
Places 1-4 are decided by play (R1.2); when they are not (both finalists failed to appear: the
engine's standings share 1st-2nd, I16), ``prize_list`` refuses the shared place and the
organiser records who takes which place, with a reason (:class:`PlaceDecision`,
:func:`decide_place`). A decision names a place of such a shared group and a team of it; the
last place of a group follows from the others."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from bridgeko.audit.services import record
from bridgeko.competition import bracket, prizes
from bridgeko.competition.messages import N_, Message
from bridgeko.core import bracket_hooks
from bridgeko.core.errors import ServiceError
from bridgeko.core.i18n import tr
from bridgeko.draw.models import DrawNumber
from bridgeko.editions.models import Edition
from bridgeko.entries.models import RosterEntry, Team
from bridgeko.matches import bracket_sync
from bridgeko.matches.models import PlaceDecision

__all__ = [
    "AwardView",
    "PlacingView",
    "Standings",
    "decide_place",
    "prize_list",
    "standings",
    "summary",
    "withdraw_decision",
]


@dataclass(frozen=True, slots=True)
class PlacingView:
    """A final place, possibly shared ("5-8"), and the teams holding it."""

    first: int
    last: int
    teams: tuple[Team, ...]
    decision: PlaceDecision | None = None
    """The organiser's decision that gave this place (I16)."""
    needs_decision: bool = False
    """Shared although play decides these places (R1.2): the organiser decides."""
    implied: bool = False
    """The place left over once the organiser decided the others of its group."""

    @property
    def place(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"

    @property
    def shared(self) -> bool:
        return len(self.teams) > 1


@dataclass(frozen=True, slots=True)
class AwardView:
    """One team's prize (R5.1); a shared place shares its prizes equally (I7)."""

    place: str
    team: Team
    amount: int
    currency: str
    per_player: bool = False
    """``amount`` is each player's (the 2001 edition, ``format.prizes_per_player``)."""
    players: int = 0
    """The players of the team's roster (who share a prize per player)."""

    @property
    def total(self) -> int:
        """What the team receives in all."""
        return self.amount * self.players if self.per_player else self.amount


@dataclass(slots=True)
class Standings:
    """Everything the standings page shows."""

    placings: list[PlacingView] = field(default_factory=list)
    finished: bool = False
    """Every match of the bracket is decided (the final and the 3rd-place match among them)."""
    awards: list[AwardView] | None = None
    """The prize list; None until finished and every needed decision is recorded."""
    error: str = ""
    """The engine's objection to the prize list (should not happen once decided)."""
    decisions: list[PlaceDecision] = field(default_factory=list)
    """Every decision recorded (also those the current standings no longer use)."""

    @property
    def needed(self) -> list[PlacingView]:
        return [p for p in self.placings if p.needs_decision]

    @property
    def unused(self) -> list[PlaceDecision]:
        used = {p.decision.pk for p in self.placings if p.decision is not None}
        return [d for d in self.decisions if d.pk not in used]


def _engine_state(edition: Edition) -> tuple[bracket.BracketState, dict[int, Team]] | None:
    draw = bracket_sync.held_draw(edition)
    scheme = bracket_sync.scheme_of(draw) if draw is not None else None
    if draw is None or scheme is None:
        return None
    numbers = {
        n.number: n.team for n in DrawNumber.objects.filter(draw=draw).select_related("team")
    }
    try:
        state = bracket.resolve(scheme, bracket_hooks.results(edition), teams=set(numbers))
    except bracket.BracketError:
        return None
    return state, numbers


def _decided_by_play(placing: bracket.Placing) -> bool:
    """Whether the regulations decide this placing: not a group sharing places 1-4 (R1.2)."""
    return (
        len(placing.numbers) == 1
        or placing.first > prizes.PLACES_DECIDED_BY_PLAY  # I7: shared from 5th on
    )


def _apply(
    placing: bracket.Placing, teams: list[Team], decisions: list[PlaceDecision]
) -> list[PlacingView]:
    """A shared group of places 1-4 with the organiser's decisions applied: each decided place
    on its own; when one place and one team are left, it is theirs."""
    ids = {t.pk for t in teams}
    chosen = [d for d in decisions if placing.first <= d.place <= placing.last and d.team_id in ids]
    out = [PlacingView(d.place, d.place, (d.team,), decision=d) for d in chosen]
    places = [
        p for p in range(placing.first, placing.last + 1) if p not in {d.place for d in chosen}
    ]
    left = [t for t in teams if t.pk not in {d.team_id for d in chosen}]
    if len(places) == 1 and len(left) == 1:
        out.append(PlacingView(places[0], places[0], (left[0],), implied=bool(chosen)))
    elif places:
        out.append(PlacingView(places[0], places[-1], tuple(left), needs_decision=True))
    return out


def summary(edition: Edition) -> Standings:
    """The standings known so far (I7), with the organiser's decisions applied, and the prize
    list once every match is decided (R5.1)."""
    decisions = list(
        PlaceDecision.objects.filter(edition=edition).select_related("team", "decided_by")
    )
    result = Standings(decisions=decisions)
    found = _engine_state(edition)
    if found is None:
        return result
    state, numbers = found
    placings: list[PlacingView] = []
    for placing in state.standings():
        teams = sorted(
            (numbers[n] for n in placing.numbers if n in numbers), key=lambda t: bytes(t.name_key)
        )
        if _decided_by_play(placing):
            placings.append(PlacingView(placing.first, placing.last, tuple(teams)))
        else:
            placings.extend(_apply(placing, teams, decisions))
    result.placings = sorted(placings, key=lambda p: p.first)
    result.finished = state.finished
    if result.finished and not result.needed:
        by_place: dict[int, Team | list[Team]] = {
            p.first: (list(p.teams) if p.shared else p.teams[0]) for p in result.placings
        }
        label = {p.first: p.place for p in result.placings}
        try:
            awards = prizes.prize_list(by_place, edition.regulations)
        except prizes.PrizeError as exc:
            result.error = tr(exc.detail)
        else:
            per_player = edition.regulations.format.prizes_per_player
            result.awards = [
                AwardView(
                    label[a.place],
                    a.team,
                    a.amount,
                    a.currency,
                    per_player,
                    RosterEntry.objects.filter(team=a.team).count() if per_player else 0,
                )
                for a in awards
            ]
    return result


def standings(edition: Edition) -> list[PlacingView]:
    """The final places known so far, best first (I7), the organiser's decisions applied."""
    return summary(edition).placings


def prize_list(edition: Edition) -> list[AwardView] | None:
    """The prizes (R5.1) once every match is decided and every place the regulations do not
    decide has the organiser's decision; None before. Raises :class:`ServiceError` with the
    engine's message if the standings cannot give a prize list."""
    result = summary(edition)
    if result.error:
        raise ServiceError(result.error)
    return result.awards


# ---------------------------------------------------------------------------------------------
# The organiser's decisions (I16: places the regulations do not decide)


def _open_group(edition: Edition, place: int) -> tuple[bracket.Placing, list[Team]]:
    """The shared group of places 1-4 holding ``place``, whose places are not all decided."""
    found = _engine_state(edition)
    if found is not None:
        state, numbers = found
        for placing in state.standings():
            if placing.first <= place <= placing.last:
                if _decided_by_play(placing):
                    break
                return placing, [numbers[n] for n in placing.numbers if n in numbers]
    raise ServiceError(
        _(
            "Place %(place)s is decided by play (R1.2, I7) or not known yet: there is nothing "
            "for the organiser to decide."
        )
        % {"place": place},
        field="place",
    )


def decide_place(
    *, edition: Edition, place: int, team: Team, reason: str, user: Any, now: datetime
) -> PlaceDecision:
    """Records the organiser's decision that ``team`` takes ``place``, a place the regulations
    do not decide (a group sharing places 1-4, e.g. both finalists absent, I16), with a reason.
    Refused for a place play decides, a team outside the group, a place or team decided
    already."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give the reason."), field="reason")
    with transaction.atomic():
        Edition.objects.select_for_update().filter(pk=edition.pk).first()
        placing, teams = _open_group(edition, place)
        if team.pk not in {t.pk for t in teams}:
            raise ServiceError(
                _("%(team)s does not share places %(first)s–%(last)s.")
                % {"team": team.name, "first": placing.first, "last": placing.last},
                field="team",
            )
        decisions = list(PlaceDecision.objects.filter(edition=edition).select_related("team"))
        views = _apply(placing, teams, decisions)
        open_places = [v for v in views if v.needs_decision]
        if not open_places or not open_places[0].first <= place <= open_places[0].last:
            raise ServiceError(
                _("Place %(place)s is decided already; withdraw that decision first.")
                % {"place": place},
                field="place",
            )
        if team.pk not in {t.pk for t in open_places[0].teams}:
            raise ServiceError(
                _("%(team)s has a place already; withdraw that decision first.")
                % {"team": team.name},
                field="team",
            )
        # A decision left from other standings (a result corrected since) for this place or
        # this team gives way to this one (kept in the audit entry).
        stale = [d for d in decisions if d.place == place or d.team_id == team.pk]
        PlaceDecision.objects.filter(pk__in=[d.pk for d in stale]).delete()
        decision = PlaceDecision.objects.create(
            edition=edition,
            place=place,
            team=team,
            reason=reason,
            decided_by=user if getattr(user, "is_authenticated", False) else None,
            decided_at=now,
        )
        record(
            "bridgeko.place.decided",
            user=user,
            edition=edition,
            obj=decision,
            before=(
                {"replaced": [{"place": d.place, "team": d.team.name} for d in stale]}
                if stale
                else None
            ),
            after={"place": place, "team": team.name, "team_id": team.pk, "reason": reason},
            summary=Message(
                N_("Place %(place)s: %(team)s — %(reason)s"),
                {"place": place, "team": team.name, "reason": reason},
            ),
            at=now,
        )
    return decision


def withdraw_decision(*, decision: PlaceDecision, reason: str, user: Any, now: datetime) -> None:
    """Withdraws an organiser's decision on a place (the audit log keeps it, with the reason)."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give the reason."), field="reason")
    with transaction.atomic():
        row = (
            PlaceDecision.objects.select_for_update()
            .select_related("team", "edition")
            .filter(pk=decision.pk)
            .first()
        )
        if row is None:
            raise ServiceError(_("This decision has been withdrawn already."))
        before = {
            "place": row.place,
            "team": row.team.name,
            "team_id": row.team_id,
            "reason": row.reason,
        }
        record(
            "bridgeko.place.withdrawn",
            user=user,
            edition=row.edition,
            obj=row,
            before=before,
            after={"withdrawn_reason": reason},
            summary=Message(
                N_("Decision on place %(place)s withdrawn (%(team)s) — %(reason)s"),
                {"place": row.place, "team": row.team.name, "reason": reason},
            ),
            at=now,
        )
        row.delete()
