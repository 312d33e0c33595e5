"""Player services: create, change, delete, and import the federation's Elo list.

The CSV itself is read by the pure :func:`bridgeko.players.elo_csv.parse`; a file with any
problem imports nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import ProtectedError, RestrictedError
from django.utils import timezone
from django.utils.translation import gettext as _

from bridgeko.audit.services import record, snapshot
from bridgeko.competition.messages import N_, Message
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.players import elo_csv
from bridgeko.players.models import EloList, EloRating, Player

PLAYER_FIELDS = ("federation_id", "name", "club", "member")


def editions_using_player(player: Player) -> list[Edition]:
    """The editions with ``player`` on a team's roster (the register is shared: a change of the
    player changes each of them). Read through the reverse relations, by name: this app is below
    the entries app and does not import it."""
    return list(Edition.objects.filter(teams__roster__player=player).distinct().order_by("pk"))


def editions_using_elo_list(reference_date: date) -> list[Edition]:
    """The editions whose rating uses the Elo list of ``reference_date`` (R10.1)."""
    return [
        edition
        for edition in Edition.objects.order_by("pk")
        if edition.regulations.rating.reference_date == reference_date
    ]


def record_shared(
    action: str, *, edition: Edition | None, touched: list[Edition], **entry: Any
) -> None:
    """Audits a change of the shared register under every edition it touches and under the
    edition it was made from (``edition``: the page's), one entry each; with neither, one
    site-wide entry (without an edition). Issue 8: such a change was audited under the page's
    edition only, out of sight of the other editions' organisers."""
    editions: dict[int, Edition] = {e.pk: e for e in touched}
    if edition is not None:
        editions.setdefault(edition.pk, edition)
    if not editions:
        record(action, edition=None, **entry)
    for one in sorted(editions.values(), key=lambda e: e.pk):
        record(action, edition=one, **entry)


def problem_text(problem: elo_csv.Problem) -> str:
    """The problem, translated, with its line number."""
    message = _(problem.template) % dict(problem.params)
    if problem.line:
        return _("Line %(line)d: %(message)s") % {"line": problem.line, "message": message}
    return message


class EloImportError(ServiceError):
    """The Elo file has problems; ``errors`` lists each (with its line), nothing was imported."""

    def __init__(self, problems: tuple[elo_csv.Problem, ...]) -> None:
        super().__init__(
            _("The file has %(count)d problem(s); nothing was imported.")
            % {"count": len(problems)},
            field="file",
            errors=[problem_text(p) for p in problems],
        )
        self.problems = problems


def _clean(data: Mapping[str, Any]) -> dict[str, Any]:
    fed_id = str(data.get("federation_id") or "").strip() or None
    name = str(data.get("name") or "").strip()
    if not name:
        raise ServiceError(_("The name must not be empty."), field="name")
    return {
        "federation_id": fed_id,
        "name": name,
        "club": str(data.get("club") or "").strip(),
        "member": bool(data.get("member")),
    }


def _check_unique_id(fed_id: str | None, exclude: int | None = None) -> None:
    if fed_id is None:
        return
    others = Player.objects.filter(federation_id=fed_id)
    if exclude is not None:
        others = others.exclude(pk=exclude)
    clash = others.first()
    if clash is not None:
        raise ServiceError(
            _("Federation id %(id)s already belongs to %(name)s.")
            % {"id": fed_id, "name": clash.name},
            field="federation_id",
        )


def create_player(*, data: Mapping[str, Any], user: Any, edition: Edition | None = None) -> Player:
    values = _clean(data)
    _check_unique_id(values["federation_id"])
    try:
        with transaction.atomic():
            player = Player.objects.create(**values)
            record_shared(
                "bridgeko.player.created",
                user=user,
                edition=edition,
                touched=[],
                obj=player,
                after=snapshot(player, PLAYER_FIELDS),
                summary=str(player),
            )
    except IntegrityError:  # a concurrent create with the same id
        raise ServiceError(
            _("This federation id is already used."), field="federation_id"
        ) from None
    return player


def update_player(
    *, player: Player, data: Mapping[str, Any], user: Any, edition: Edition | None = None
) -> Player:
    values = _clean(data)
    _check_unique_id(values["federation_id"], exclude=player.pk)
    try:
        return _update_player(player, values, user, edition)
    except IntegrityError:  # a concurrent change took the id
        raise ServiceError(
            _("This federation id is already used."), field="federation_id"
        ) from None


def _update_player(
    player: Player, values: Mapping[str, Any], user: Any, edition: Edition | None
) -> Player:
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        before = snapshot(player, PLAYER_FIELDS)
        for key, value in values.items():
            setattr(player, key, value)
        player.save()
        after = snapshot(player, PLAYER_FIELDS)
        record_shared(
            "bridgeko.player.changed",
            user=user,
            edition=edition,
            touched=editions_using_player(player),
            obj=player,
            before=before,
            after=after,
            summary=", ".join(k for k in PLAYER_FIELDS if before[k] != after[k]),
        )
    return player


def delete_player(*, player: Player, user: Any, edition: Edition | None = None) -> None:
    """Deletes a player who is on no roster (other apps protect their references)."""
    try:
        with transaction.atomic():
            record_shared(
                "bridgeko.player.deleted",
                user=user,
                edition=edition,
                touched=editions_using_player(player),
                obj=player,
                before=snapshot(player, PLAYER_FIELDS),
                summary=str(player),
            )
            player.delete()
    except (ProtectedError, RestrictedError):
        raise ServiceError(
            _("%(name)s is still used (e.g. on a team's roster) and cannot be deleted.")
            % {"name": player.name}
        ) from None


@dataclass(frozen=True, slots=True)
class ImportSummary:
    reference_date: date
    rows: int
    created: int
    updated: int
    with_elo: int


def register_limits() -> elo_csv.Limits:
    """What the player register can store, from the model's fields (so that a too-long name is
    a problem of its line, not a database error)."""

    def length(name: str) -> int:
        field = Player._meta.get_field(name)
        assert isinstance(field, models.CharField)
        return int(field.max_length or 0)

    return elo_csv.Limits(
        federation_id=length("federation_id"),
        name=length("name"),
        club=length("club"),
        elo=2_147_483_647,  # PositiveIntegerField on every backend
    )


def preview_elo(
    data: bytes,
    columns: elo_csv.Columns,
    *,
    encoding: str | None = None,
    has_header: bool = True,
) -> elo_csv.ParseResult:
    """Parses without saving (the preview step)."""
    return elo_csv.parse(
        data, columns, encoding=encoding, has_header=has_header, limits=register_limits()
    )


def import_elo(
    *,
    edition: Edition,
    data: bytes,
    columns: elo_csv.Columns,
    user: Any,
    encoding: str | None = None,
    has_header: bool = True,
    source_name: str = "",
) -> ImportSummary:
    """Imports the Elo list of the edition's ``rating.reference_date`` (R10.1).

    Players are matched by federation id: new ones are created, known ones get the file's name,
    club and membership. The list of that date is replaced. Any problem: nothing is imported.
    """
    result = elo_csv.parse(
        data, columns, encoding=encoding, has_header=has_header, limits=register_limits()
    )
    if result.problems:
        raise EloImportError(result.problems)
    try:
        return _import_rows(edition, result, columns, user, source_name)
    except IntegrityError:  # a concurrent import or player change took an id
        raise ServiceError(
            _("Another import or change of the register ran meanwhile; nothing was imported.")
        ) from None


def _import_rows(
    edition: Edition,
    result: elo_csv.ParseResult,
    columns: elo_csv.Columns,
    user: Any,
    source_name: str,
) -> ImportSummary:
    reference_date = edition.regulations.rating.reference_date
    with transaction.atomic():
        existing = {
            p.federation_id: p
            for p in Player.objects.select_for_update().filter(
                federation_id__in=[r.federation_id for r in result.rows]
            )
        }
        created = updated = 0
        players: list[tuple[Player, elo_csv.EloRow]] = []
        for row in result.rows:
            player = existing.get(row.federation_id)
            if player is None:
                player = Player(federation_id=row.federation_id)
                created += 1
            else:
                updated += 1
            player.name = row.name
            if columns.club is not None:
                player.club = row.club
            if row.member is not None:
                player.member = row.member
            players.append((player, row))
        Player.objects.bulk_create([p for p, _r in players if p.pk is None])
        Player.objects.bulk_update(
            [p for p, _r in players if p.federation_id in existing], ["name", "club", "member"]
        )
        # bulk_create does not set pks on every backend: read them back by federation id.
        ids = dict(
            Player.objects.filter(
                federation_id__in=[r.federation_id for r in result.rows]
            ).values_list("federation_id", "pk")
        )
        old = EloList.objects.filter(reference_date=reference_date).first()
        before = None
        if old is not None:
            before = {"reference_date": reference_date, "ratings": old.ratings.count()}
            old.delete()
        elo_list = EloList.objects.create(
            reference_date=reference_date,
            source_name=source_name[:200],
            imported_at=timezone.now(),
        )
        ratings = [
            EloRating(elo_list=elo_list, player_id=ids[row.federation_id], elo=row.elo)
            for _p, row in players
            if row.elo is not None
        ]
        EloRating.objects.bulk_create(ratings)
        summary = ImportSummary(reference_date, len(result.rows), created, updated, len(ratings))
        record_shared(
            "bridgeko.player.imported",
            user=user,
            edition=edition,
            touched=editions_using_elo_list(reference_date),
            obj=elo_list,
            before=before,
            after={
                "reference_date": reference_date,
                "file": source_name,
                "encoding": result.encoding,
                "rows": summary.rows,
                "created": created,
                "updated": updated,
                "ratings": len(ratings),
            },
            summary=Message(
                N_("Elo list of %(date)s: %(rows)d players (%(created)d new)"),
                {"date": reference_date.isoformat(), "rows": summary.rows, "created": created},
            ),
        )
    return summary
