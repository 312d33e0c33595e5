"""The read side of the entries: an edition's teams with everything the pages show, computed by
the engine, in a fixed handful of queries (no per-row query) for the team pages, the public pages
and the draw; the closing of entries and its reason; the players barred by the previous edition.

Rules come from the engine: R4.1, I4 fee (:func:`~bridgeko.competition.entries.entry_fee`), R3
conditions (:func:`~bridgeko.competition.entries.conditions_met`), R10 team Elo
(:func:`bridgeko.competition.rating.team_elo_for`), R15.3 barred players
(:mod:`bridgeko.competition.sanctions`). The writes are :mod:`bridgeko.entries.services`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bridgeko.competition import entries as rules
from bridgeko.competition import sanctions
from bridgeko.competition.rating import team_elo_for
from bridgeko.core.i18n import tr_stored
from bridgeko.editions.models import Edition
from bridgeko.entries.models import (
    ConventionCard,
    EntriesClosing,
    NoShow,
    Pair,
    RosterEntry,
    Team,
)
from bridgeko.players.models import EloRating, Player


@dataclass(frozen=True, slots=True)
class RosterLine:
    player: Player
    elo: int | None
    """The player's Elo on the edition's list (R10.1); None when not known."""
    barred: bool = False


@dataclass(frozen=True, slots=True)
class TeamInfo:
    """A team with everything the pages show, computed by the engine."""

    team: Team
    roster: tuple[RosterLine, ...]
    pairs: tuple[Pair, ...]
    elo: int
    """R10: the team's rounded Elo."""
    fee: rules.FeeDecision | None
    """R4.1: None when the roster is empty."""
    conditions: rules.ConditionsResult

    @property
    def id(self) -> int:
        return int(self.team.pk)

    @property
    def name(self) -> str:
        return self.team.name

    @property
    def captain(self) -> Player | None:
        return self.roster[0].player if self.roster else None

    @property
    def player_ids(self) -> list[int]:
        return [line.player.pk for line in self.roster]


def _elo_map(edition: Edition, player_ids: Sequence[int]) -> dict[int, int]:
    reference = edition.regulations.rating.reference_date
    return dict(
        EloRating.objects.filter(
            elo_list__reference_date=reference, player_id__in=list(player_ids)
        ).values_list("player_id", "elo")
    )


def _rosters(teams: Sequence[Team]) -> dict[int, list[Player]]:
    out: dict[int, list[Player]] = {t.pk: [] for t in teams}
    for entry in RosterEntry.objects.filter(team__in=list(teams)).select_related("player"):
        out[entry.team_id].append(entry.player)
    return out


def _previous_rosters(edition: Edition) -> dict[str, list[Player]]:
    if edition.previous_id is None:
        return {}
    teams = list(Team.objects.filter(edition_id=edition.previous_id, accepted=True))
    rosters = _rosters(teams)
    return {t.name: rosters[t.pk] for t in teams}


def previous_teams(edition: Edition) -> dict[str, list[int]]:
    """The teams whose entry was accepted in the previous edition ("took part", I4): name ->
    roster (player ids, captain first)."""
    return {name: [p.pk for p in roster] for name, roster in _previous_rosters(edition).items()}


def fee_key(player: Player) -> str:
    """How a player is named to the fee rule: unique, and readable in its reason (R4.1)."""
    return f"{player.name} ({player.federation_id or f'#{player.pk}'})"


def barred_players(edition: Edition) -> set[int]:
    """R15.3: players barred from ``edition`` for a no-show without timely notice in the
    previous edition (the engine decides); a withdrawn record bars nobody."""
    if edition.previous_id is None:
        return set()
    shows = list(NoShow.objects.filter(edition_id=edition.previous_id, withdrawn_at__isnull=True))
    if not shows:
        return set()
    rosters = _rosters(list(Team.objects.filter(pk__in=[s.team_id for s in shows])))
    barred = sanctions.barred_players(
        sanctions.NoShow(
            team=s.team_id,
            roster=[p.pk for p in rosters.get(s.team_id, [])],
            timely_notice=s.timely_notice,
            match=s.match_text,
        )
        for s in shows
    )
    return {int(p) for p in barred}


def conditions_of(team: Team, pairs: Sequence[Pair]) -> rules.EntryConditions:
    """What the organiser recorded of the team's conditions of entry (R3.1), for the engine."""
    return rules.EntryConditions(
        form_received=team.form_received,
        convention_cards={pair.label: pair.card_received for pair in pairs},
        fee_received=team.fee_received,
        fee_paid=team.fee_paid,
    )


def _fee(
    team: Team,
    roster: Sequence[Player],
    previous: Mapping[str, Sequence[Player]],
    edition: Edition,
) -> rules.FeeDecision | None:
    if not roster:
        return None
    override = None
    if team.fee_override_amount is not None:
        override = rules.FeeOverride(team.fee_override_amount, team.fee_override_reason)
    return rules.entry_fee(
        team.name,
        [fee_key(p) for p in roster],
        {fee_key(p): p.member for p in roster},
        {name: [fee_key(p) for p in players] for name, players in previous.items()},
        edition.regulations,
        override=override,
    )


def edition_teams(
    edition: Edition, *, accepted_only: bool = False, team_ids: Sequence[int] | None = None
) -> list[TeamInfo]:
    """The edition's teams (in the Czech order of their names) with rosters, Elo (R10), fee
    (R4.1) and the state of their conditions of entry (R3) — in at most 9 queries whatever the
    number of teams."""
    reg = edition.regulations
    qs = Team.objects.filter(edition=edition)
    if accepted_only:
        qs = qs.filter(accepted=True)
    if team_ids is not None:
        qs = qs.filter(pk__in=list(team_ids))
    teams = list(qs.order_by("name_key"))
    if not teams:
        return []
    rosters = _rosters(teams)
    pairs: dict[int, list[Pair]] = {t.pk: [] for t in teams}
    for pair in Pair.objects.filter(team__in=teams).select_related("player_a", "player_b"):
        pairs[pair.team_id].append(pair)
    elo = _elo_map(edition, [p.pk for r in rosters.values() for p in r])
    previous = _previous_rosters(edition)
    barred = barred_players(edition)
    out: list[TeamInfo] = []
    fees_due: dict[int, int] = {}
    for team in teams:
        roster = rosters[team.pk]
        fee = _fee(team, roster, previous, edition)
        if fee is not None:
            fees_due[team.pk] = fee.amount
        conditions = rules.conditions_met(
            conditions_of(team, pairs[team.pk]),
            reg.entry.deadline,
            reg.edition.timezone,
            min_pairs=reg.entry.min_players // 2,  # R7.1: a team of 4 players is 2 pairs
            fee_due=fees_due.get(team.pk),
        )
        lines = tuple(RosterLine(p, elo.get(p.pk), p.pk in barred) for p in roster)
        out.append(
            TeamInfo(
                team=team,
                roster=lines,
                pairs=tuple(pairs[team.pk]),
                elo=team_elo_for([line.elo for line in lines], reg),  # R10
                fee=fee,
                conditions=conditions,
            )
        )
    return out


def team_elos(edition: Edition, team_ids: Sequence[int]) -> dict[int, int]:
    """Team id -> the team's Elo (R10), as :func:`edition_teams` computes it, in 2 queries
    (rosters, Elo) whatever the number of teams: for the chances of matches in progress."""
    ids = [t for t in team_ids if t is not None]
    if not ids:
        return {}
    players: dict[int, list[int]] = {t: [] for t in ids}
    rows = RosterEntry.objects.filter(team_id__in=ids).values_list("team_id", "player_id")
    for team_id, player_id in rows:
        players[team_id].append(player_id)
    elo = _elo_map(edition, [p for ps in players.values() for p in ps])
    reg = edition.regulations
    return {t: team_elo_for([elo.get(p) for p in ps], reg) for t, ps in players.items()}


def team_info(team: Team) -> TeamInfo:
    return edition_teams(team.edition, team_ids=[team.pk])[0]


def closing_of(edition: Edition) -> EntriesClosing | None:
    return EntriesClosing.objects.filter(edition=edition).first()


def closing_reason_text(closing: EntriesClosing) -> str:
    """The reason of the closing (R8.1) in the active language. It is stored in English as the
    engine worded it; it is translated when the engine words the stored decision (the number of
    teams entered, the edition's regulations) the same way, else shown as stored."""
    entered = Team.objects.filter(
        edition_id=closing.edition_id, accepted=True, late_entry=False
    ).count()
    return tr_stored(closing.reason, rules.closing_reason(entered, closing.edition.regulations))


def captained_teams(user: Any, edition: Edition | None = None) -> list[Team]:
    """The teams ``user`` captains (a captain's role), in ``edition`` or in every edition (the
    newest edition first)."""
    if not getattr(user, "is_authenticated", False):
        return []
    qs = Team.objects.filter(
        role_assignments__user=user, role_assignments__role="captain"
    ).select_related("edition")
    if edition is not None:
        qs = qs.filter(edition=edition)
    return list(qs.distinct().order_by("-edition__year", "edition__slug", "name"))


@dataclass(frozen=True, slots=True)
class PairCards:
    """A declared pair with its current convention card (None: none uploaded) and the cards
    it replaced, newest first."""

    pair: Pair
    card: ConventionCard | None
    replaced: tuple[ConventionCard, ...]


def pair_cards(team: Team, pairs: Sequence[Pair]) -> list[PairCards]:
    """Each pair of ``pairs`` with its convention cards (one query)."""
    by_pair: dict[int, list[ConventionCard]] = {p.pk: [] for p in pairs}
    for card in ConventionCard.objects.filter(team=team, pair__in=list(pairs)).order_by(
        "-uploaded_at", "-pk"
    ):
        if card.pair_id is not None:
            by_pair[card.pair_id].append(card)
    out = []
    for pair in pairs:
        cards = by_pair[pair.pk]
        current = next((c for c in cards if c.replaced_at is None), None)
        out.append(PairCards(pair, current, tuple(c for c in cards if c is not current)))
    return out


def former_pairs_cards(team: Team) -> list[ConventionCard]:
    """Cards of pairs no longer declared (kept, never deleted)."""
    cards = ConventionCard.objects.filter(team=team, pair__isnull=True)
    return list(cards.order_by("-uploaded_at"))
