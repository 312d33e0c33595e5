"""Player services: create, change, delete, and import the federation's Elo list.

The CSV itself is read by the pure :func:`bridgeko.players.elo_csv.parse`; a file with any
problem imports nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db import IntegrityError, connection, models, transaction
from django.db.models import ProtectedError, RestrictedError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bridgeko.audit.services import record, snapshot
from bridgeko.competition.messages import N_, NP_, Message, counted
from bridgeko.core import l10n
from bridgeko.core.collation import sort_key
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import DRAW_HELD_STAGES, Edition
from bridgeko.players import elo_csv
from bridgeko.players.models import (
    EloImport,
    EloImportChange,
    EloList,
    EloRating,
    EloUpload,
    Player,
    derived_columns,
)

PLAYER_FIELDS = ("federation_id", "name", "club", "member")


def editions_using_player(player: Player) -> list[Edition]:
    """The editions with ``player`` on a team's roster (the register is shared: a change of the
    player changes each of them). Read through the reverse relations, by name: this app is below
    the entries app and does not import it."""
    return list(Edition.objects.filter(teams__roster__player=player).distinct().order_by("pk"))


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
            ngettext(
                "The file has %(count)d problem; nothing was imported.",
                "The file has %(count)d problems; nothing was imported.",
                len(problems),
            )
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


CHUNK = 500
"""Ids per ``IN (...)`` query: SQLite allows 32,766 (older builds 999) variables a statement,
so a list of any length is read and written in chunks."""

BATCH = 5_000
"""Rows a raw ``executemany`` sends at once."""

UPLOAD_MAX_AGE = timedelta(days=1)
"""An uploaded file not imported within this time is removed (:func:`remove_stale_uploads`)."""

MISSING_KEEP = "keep"
MISSING_DROP = "drop"
MISSING_CHOICES = (MISSING_KEEP, MISSING_DROP)


def _chunks(items: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


@dataclass(frozen=True, slots=True)
class ImportSummary:
    reference_date: date
    rows: int
    created: int
    updated: int
    with_elo: int
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    missing: int = 0
    kept_missing: bool = False
    elo_import_id: int | None = None


@dataclass(frozen=True, slots=True)
class EloChange:
    """One player whose rating on the list differs between the list and the file."""

    federation_id: str
    name: str
    before: int | None
    """The rating on the list now (None: not on it)."""
    after: int | None
    """The rating the import gives (None: none)."""
    new_player: bool = False
    """Not yet in the register (the import adds the player)."""


@dataclass(frozen=True, slots=True)
class EloDiff:
    """What importing a file would do to the list of ``reference_date`` (the preview).

    Counted on the list's ratings: *new* — the player has no rating on the list now (or is new
    to the register), *changed* — a different rating (or none in the file), *unchanged* — the
    same, *missing* — on the list now but not in the file."""

    reference_date: date
    had_list: bool
    new: int
    changed: int
    unchanged: int
    missing: int
    new_players: int
    changes: tuple[EloChange, ...]
    """The new and changed players, the first ``limit`` (new players first, then by name)."""
    missing_players: tuple[EloChange, ...]
    """The players missing from the file, the first ``limit``, by name."""
    fixed_by: tuple[str, ...] = ()
    """The editions whose held draw fixes the list (an import would be refused)."""

    @property
    def more_changes(self) -> int:
        return self.new + self.changed - len(self.changes)

    @property
    def more_missing(self) -> int:
        return self.missing - len(self.missing_players)


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


# --- which editions fix a list (R10.1, R11.1) --------------------------------------------------


def editions_using_elo_list(reference_date: date) -> list[Edition]:
    """The editions whose rating reference date is ``reference_date`` (R10.1)."""
    using = []
    for edition in Edition.objects.order_by("year", "slug"):
        try:
            ref = edition.regulations.rating.reference_date
        except Exception:  # stored regulations were valid when saved
            continue
        if ref == reference_date:
            using.append(edition)
    return using


def editions_fixing(reference_date: date, *, lock: bool = False) -> list[Edition]:
    """The editions whose draw has been held and whose rating reference date is
    ``reference_date``: the draw seeded the teams by that list, so it must not change.

    ``lock`` (inside a transaction) locks the rows of every edition using the date, as the draw
    does when it moves the stage, so that no draw is held meanwhile."""
    using = [e.pk for e in editions_using_elo_list(reference_date)]
    rows = Edition.objects.filter(pk__in=using, stage__in=DRAW_HELD_STAGES)
    if lock:
        list(Edition.objects.select_for_update().filter(pk__in=using).values_list("pk"))
    return list(rows.order_by("year", "slug"))


class EloListFixedError(ServiceError):
    """The list of the date is fixed by the held draw of ``editions``."""

    def __init__(self, reference_date: date, editions: Sequence[Edition], *, undo: bool) -> None:
        names = ", ".join(f"{e.name} ({e.slug})" for e in editions)
        params = {"date": l10n.show_date(reference_date), "editions": names}
        if undo:
            message = _(
                "The Elo list of %(date)s is fixed: the draw of %(editions)s has been held "
                "and seeded the teams by it (R10.1, R11.1). The import cannot be undone."
            )
        else:
            message = _(
                "The Elo list of %(date)s is fixed: the draw of %(editions)s has been held "
                "and seeded the teams by it (R10.1, R11.1). Nothing was imported."
            )
        super().__init__(message % params, field=None if undo else "file")
        self.editions = tuple(editions)


def check_not_fixed(reference_date: date, *, undo: bool = False) -> None:
    """Raises :class:`EloListFixedError` when a held draw fixes the list of the date (locks the
    rows of the editions using it: call inside the transaction that writes the list)."""
    fixing = editions_fixing(reference_date, lock=True)
    if fixing:
        raise EloListFixedError(reference_date, fixing, undo=undo)


class MissingChoiceError(ServiceError):
    """The file lacks players of the current list and no choice (keep or drop) was made."""

    def __init__(self, missing: int) -> None:
        super().__init__(
            ngettext(
                "%(count)d player of the current list is not in the file: choose whether "
                "the player keeps the rating or loses it. Nothing was imported.",
                "%(count)d players of the current list are not in the file: choose whether "
                "they keep their ratings or lose them. Nothing was imported.",
                missing,
            )
            % {"count": missing},
            field="missing",
        )
        self.missing = missing


# --- the preview's comparison and the import ---------------------------------------------------


@dataclass(slots=True)
class _Plan:
    """Everything an import changes, by player (computed once for the preview and the import)."""

    elo_list: EloList | None
    existing: dict[str, tuple[int, str, str, bool]]
    """The file's players already in the register, by federation id: (pk, name, club,
    member)."""
    old: dict[int, tuple[int, int]]
    """The list's ratings now: player id -> (rating id, Elo)."""
    missing: list[int]
    """Player ids on the list but not in the file."""

    def elo_of(self, player_id: int | None) -> int | None:
        """The player's rating on the list now (None: not on it)."""
        found = self.old.get(player_id) if player_id is not None else None
        return None if found is None else found[1]


def _kind(new_player: bool, before: int | None, after: int | None) -> str:
    """How the preview counts a player of the file: "new" (new to the register, or a rating
    where the list had none), "changed" (another rating, or none) or "unchanged"."""
    if new_player or (before is None and after is not None):
        return "new"
    return "changed" if before != after else "unchanged"


def _plan(reference_date: date, rows: Sequence[elo_csv.EloRow], *, lock: bool = False) -> _Plan:
    players = Player.objects.select_for_update() if lock else Player.objects.all()
    existing: dict[str, tuple[int, str, str, bool]] = {}
    for chunk in _chunks([r.federation_id for r in rows]):
        for pk, fed_id, name, club, member in players.filter(
            federation_id__in=list(chunk)
        ).values_list("pk", "federation_id", "name", "club", "member"):
            existing[str(fed_id)] = (pk, name, club, member)
    lists = EloList.objects.select_for_update() if lock else EloList.objects.all()
    elo_list = lists.filter(reference_date=reference_date).first()
    old: dict[int, tuple[int, int]] = {}
    if elo_list is not None:
        old = {
            player_id: (rating_id, elo)
            for rating_id, player_id, elo in EloRating.objects.filter(
                elo_list=elo_list
            ).values_list("pk", "player_id", "elo")
        }
    in_file = {known[0] for known in existing.values()}
    missing = [pid for pid in old if pid not in in_file]
    return _Plan(elo_list, existing, old, missing)


def _names(player_ids: Sequence[int]) -> dict[int, tuple[str, str]]:
    names: dict[int, tuple[str, str]] = {}
    for chunk in _chunks(player_ids):
        for pk, fed_id, name in Player.objects.filter(pk__in=list(chunk)).values_list(
            "pk", "federation_id", "name"
        ):
            names[pk] = (fed_id or "", name)
    return names


def diff_elo(reference_date: date, rows: Sequence[elo_csv.EloRow], *, limit: int = 200) -> EloDiff:
    """What importing ``rows`` as the list of ``reference_date`` would change (nothing saved)."""
    plan = _plan(reference_date, rows)
    new = changed = unchanged = new_players = 0
    changes: list[EloChange] = []
    for row in rows:
        player = plan.existing.get(row.federation_id)
        before = plan.elo_of(None if player is None else player[0])
        new_players += player is None
        kind = _kind(player is None, before, row.elo)
        if kind == "unchanged":
            unchanged += 1
            continue
        if kind == "new":
            new += 1
        else:
            changed += 1
        changes.append(
            EloChange(row.federation_id, row.name, before, row.elo, new_player=player is None)
        )
    changes.sort(key=lambda c: (not c.new_player, sort_key(c.name), c.federation_id))
    names = _names(plan.missing)
    missing = sorted(
        (EloChange(*names.get(pid, ("", "?")), plan.old[pid][1], None) for pid in plan.missing),
        key=lambda c: (sort_key(c.name), c.federation_id),
    )
    return EloDiff(
        reference_date=reference_date,
        had_list=plan.elo_list is not None,
        new=new,
        changed=changed,
        unchanged=unchanged,
        missing=len(missing),
        new_players=new_players,
        changes=tuple(changes[:limit]),
        missing_players=tuple(missing[:limit]),
        fixed_by=tuple(f"{e.name} ({e.slug})" for e in editions_fixing(reference_date)),
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
    missing: str | None = None,
) -> ImportSummary:
    """Imports the Elo list of the edition's ``rating.reference_date`` (R10.1).

    Players are matched by federation id: new ones are created, known ones get the file's name,
    club and membership; the file's ratings replace those of its players on the list of that
    date. Players on the list but not in the file: ``missing="keep"`` keeps their ratings,
    ``"drop"`` removes them; without a choice such a file is refused (:class:`MissingChoiceError`).
    Refused once a held draw fixes the list (:class:`EloListFixedError`). Any problem: nothing
    is imported. Every import can be undone (:func:`undo_import`).
    """
    if missing is not None and missing not in MISSING_CHOICES:
        raise ServiceError(
            _("Choose whether the missing players keep their ratings."), field="missing"
        )
    result = elo_csv.parse(
        data, columns, encoding=encoding, has_header=has_header, limits=register_limits()
    )
    if result.problems:
        raise EloImportError(result.problems)
    try:
        return _import_rows(edition, result, columns, user, source_name, missing)
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
    missing_choice: str | None,
) -> ImportSummary:
    reference_date = edition.regulations.rating.reference_date
    with transaction.atomic():
        check_not_fixed(reference_date)
        plan = _plan(reference_date, result.rows, lock=True)
        if plan.missing and missing_choice is None:
            raise MissingChoiceError(len(plan.missing))
        keep = missing_choice == MISSING_KEEP
        created = updated = 0
        new_players: list[tuple[str, str, str, bool]] = []
        changed_players: list[tuple[str, str, bool, int]] = []
        for row in result.rows:
            known = plan.existing.get(row.federation_id)
            club = row.club if columns.club is not None else ""
            member = bool(row.member)
            if known is None:
                new_players.append((row.federation_id, row.name, club, member))
                created += 1
                continue
            updated += 1
            pk, name, old_club, old_member = known
            if columns.club is None:
                club = old_club
            if row.member is None:
                member = old_member
            if (row.name, club, member) != (name, old_club, old_member):
                changed_players.append((row.name, club, member, pk))
        _insert(
            Player,
            ("federation_id", "name", "club", "member", *Player.DERIVED_FIELDS),
            ((*row, *derived_columns(row[1], row[2])) for row in new_players),
        )
        _update_players(changed_players)
        # the new players' pks, read back by federation id
        ids: dict[str, int] = {}
        for chunk in _chunks([p[0] for p in new_players]):
            for fed_id, pk in Player.objects.filter(federation_id__in=list(chunk)).values_list(
                "federation_id", "pk"
            ):
                ids[str(fed_id)] = pk
        ids.update({fed_id: known[0] for fed_id, known in plan.existing.items()})

        elo_list = plan.elo_list
        now = timezone.now()
        before_audit = None
        if elo_list is None:
            elo_list = EloList.objects.create(
                reference_date=reference_date, source_name=source_name[:200], imported_at=now
            )
            previous_source, previous_at = "", None
        else:
            before_audit = {"reference_date": reference_date, "ratings": len(plan.old)}
            previous_source, previous_at = elo_list.source_name, elo_list.imported_at
            elo_list.source_name = source_name[:200]
            elo_list.imported_at = now
            elo_list.save(update_fields=["source_name", "imported_at"])

        # What changes, player by player: (before, after), None meaning "not on the list".
        changes: dict[int, tuple[int | None, int | None]] = {}
        new = changed = unchanged = 0
        for row in result.rows:
            pid = ids[row.federation_id]
            before = plan.elo_of(pid)
            if before != row.elo:
                changes[pid] = (before, row.elo)
            kind = _kind(row.federation_id not in plan.existing, before, row.elo)
            if kind == "new":
                new += 1
            elif kind == "changed":
                changed += 1
            else:
                unchanged += 1
        if not keep:
            for pid in plan.missing:
                changes[pid] = (plan.old[pid][1], None)
        _apply(elo_list, plan.old, changes)

        elo_import = EloImport.objects.create(
            reference_date=reference_date,
            at=now,
            user=user if getattr(user, "is_authenticated", False) else None,
            edition=edition,
            source_name=source_name[:200],
            had_list=plan.elo_list is not None,
            previous_source_name=previous_source,
            previous_imported_at=previous_at,
            kept_missing=keep,
            new=new,
            changed=changed,
            unchanged=unchanged,
            missing=len(plan.missing),
        )
        if plan.elo_list is not None:  # a first list is undone by removing it
            _insert(
                EloImportChange,
                ("elo_import", "player", "before", "after"),
                ((elo_import.pk, pid, b, a) for pid, (b, a) in changes.items()),
            )
        with_elo = sum(1 for r in result.rows if r.elo is not None)
        summary = ImportSummary(
            reference_date,
            len(result.rows),
            created,
            updated,
            with_elo,
            new=new,
            changed=changed,
            unchanged=unchanged,
            missing=len(plan.missing),
            kept_missing=keep,
            elo_import_id=elo_import.pk,
        )
        record_shared(
            "bridgeko.player.imported",
            user=user,
            edition=edition,
            touched=editions_using_elo_list(reference_date),
            obj=elo_list,
            before=before_audit,
            after={
                "reference_date": reference_date,
                "file": source_name,
                "encoding": result.encoding,
                "rows": summary.rows,
                "created": created,
                "updated": updated,
                "ratings": EloRating.objects.filter(elo_list=elo_list).count(),
                "new": new,
                "changed": changed,
                "unchanged": unchanged,
                "missing": len(plan.missing),
                "missing_players": (
                    (MISSING_KEEP if keep else MISSING_DROP) if plan.missing else None
                ),
                "import": elo_import.pk,
                "undo": f"players.EloImport {elo_import.pk}: the ratings before the import",
            },
            summary=counted(
                NP_(
                    "Elo list of %(date)s: %(rows)d player (new: %(created)d), ratings changed: "
                    "%(changed)d, missing from the file: %(missing)d (%(choice)s)",
                    "Elo list of %(date)s: %(rows)d players (new: %(created)d), ratings changed: "
                    "%(changed)d, missing from the file: %(missing)d (%(choice)s)",
                ),
                "rows",
                {
                    "date": reference_date.isoformat(),
                    "rows": summary.rows,
                    "created": created,
                    "changed": changed,
                    "missing": len(plan.missing),
                    "choice": Message(N_("ratings kept") if keep else N_("ratings removed")),
                },
            ),
        )
    return summary


def _apply(
    elo_list: EloList,
    old: Mapping[int, tuple[int, int]],
    changes: Mapping[int, tuple[int | None, int | None]],
) -> None:
    """Writes ``changes`` (player id -> (before, after)) to the list's ratings, in chunks: the
    changed ratings are deleted and written anew (far faster than ``bulk_update`` for a list of
    hundreds of thousands)."""
    remove = [old[pid][0] for pid in changes if pid in old]
    for chunk in _chunks(remove):
        EloRating.objects.filter(pk__in=list(chunk)).delete()
    _insert(
        EloRating,
        ("elo_list", "player", "elo"),
        ((elo_list.pk, pid, after) for pid, (_b, after) in changes.items() if after is not None),
    )


def _column(model: type[models.Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return connection.ops.quote_name(str(field.column))


def _insert(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[tuple[Any, ...]]
) -> None:
    """Inserts plain rows (no model instances: ``bulk_create`` spends minutes on the hundreds of
    thousands of rows of a federation's list), in batches of :data:`BATCH`."""
    columns = ", ".join(_column(model, f) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    table = connection.ops.quote_name(model._meta.db_table)
    sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
    with connection.cursor() as cursor:
        batch: list[tuple[Any, ...]] = []
        for row in rows:
            batch.append(row)
            if len(batch) >= BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


def _update_players(rows: Sequence[tuple[str, str, bool, int]]) -> None:
    """Sets (name, club, member) of the players with the given pks (and the sort key and
    search columns derived from them)."""
    fields = ("name", "club", "member", *Player.DERIVED_FIELDS)
    sets = ", ".join(f"{_column(Player, f)} = %s" for f in fields)
    table = connection.ops.quote_name(Player._meta.db_table)
    sql = f"UPDATE {table} SET {sets} WHERE {_column(Player, 'id')} = %s"
    with connection.cursor() as cursor:
        for chunk in _chunks(rows, BATCH):
            cursor.executemany(
                sql,
                [
                    (name, club, member, *derived_columns(name, club), pk)
                    for name, club, member, pk in chunk
                ],
            )


# --- undo ---------------------------------------------------------------------------------------


def last_import(reference_date: date) -> EloImport | None:
    """The import of the date that an undo would take back (the latest one not undone)."""
    return (
        EloImport.objects.filter(reference_date=reference_date, undone_at__isnull=True)
        .order_by("-at", "-id")
        .first()
    )


@dataclass(frozen=True, slots=True)
class UndoPlan:
    elo_import: EloImport
    removes_list: bool
    """The import made the list: undoing it removes the list (``ratings`` ratings)."""
    ratings: int
    changes: tuple[EloChange, ...]
    """What the undo does to the list, player by player (the first ``limit``): ``before`` is
    the rating now, ``after`` the rating restored."""
    total: int

    @property
    def more(self) -> int:
        return self.total - len(self.changes)


def plan_undo(elo_import: EloImport, *, limit: int = 200) -> UndoPlan:
    """What undoing ``elo_import`` would do (the confirmation page); nothing saved."""
    elo_list = EloList.objects.filter(reference_date=elo_import.reference_date).first()
    ratings = 0 if elo_list is None else EloRating.objects.filter(elo_list=elo_list).count()
    rows = (
        elo_import.changes.select_related("player")
        .order_by("player__name_key", "player__federation_id")
        .values_list("player__federation_id", "player__name", "after", "before")
    )
    total = rows.count()
    changes = tuple(
        EloChange(fed_id or "", name, now, restored) for fed_id, name, now, restored in rows[:limit]
    )
    return UndoPlan(elo_import, not elo_import.had_list, ratings, changes, total)


def undo_import(*, elo_import: EloImport, user: Any, edition: Edition | None = None) -> EloImport:
    """Takes back ``elo_import``: the list of its date becomes what it was before (the players
    the import added or renamed stay in the register). Only the latest import of a date not yet
    undone can be undone, and not once a held draw fixes the list."""
    with transaction.atomic():
        elo_import = EloImport.objects.select_for_update().get(pk=elo_import.pk)
        reference_date = elo_import.reference_date
        check_not_fixed(reference_date, undo=True)
        latest = last_import(reference_date)
        if elo_import.undone_at is not None or latest is None or latest.pk != elo_import.pk:
            raise ServiceError(
                _(
                    "Only the latest import of a list that has not been undone can be undone; "
                    "nothing was changed."
                )
            )
        elo_list = EloList.objects.select_for_update().filter(reference_date=reference_date).first()
        restored = 0
        if elo_list is not None and not elo_import.had_list:
            restored = EloRating.objects.filter(elo_list=elo_list).count()
            elo_list.delete()
        elif elo_list is not None:
            old = {
                pid: (rid, elo)
                for rid, pid, elo in EloRating.objects.filter(elo_list=elo_list).values_list(
                    "pk", "player_id", "elo"
                )
            }
            changes = {
                pid: (after, before)
                for pid, before, after in elo_import.changes.values_list(
                    "player_id", "before", "after"
                )
            }
            _apply(elo_list, old, changes)
            restored = len(changes)
            elo_list.source_name = elo_import.previous_source_name
            elo_list.imported_at = elo_import.previous_imported_at or elo_list.imported_at
            elo_list.save(update_fields=["source_name", "imported_at"])
        elo_import.undone_at = timezone.now()
        elo_import.undone_by = user if getattr(user, "is_authenticated", False) else None
        elo_import.save(update_fields=["undone_at", "undone_by"])
        record_shared(
            "bridgeko.player.import_undone",
            user=user,
            edition=edition,
            touched=editions_using_elo_list(reference_date),
            obj=elo_import,
            before={"reference_date": reference_date, "file": elo_import.source_name},
            after={
                "reference_date": reference_date,
                "file": elo_import.previous_source_name,
                "list_removed": not elo_import.had_list,
                "ratings_restored": restored,
            },
            summary=counted(
                NP_(
                    "Import of the Elo list of %(date)s undone (%(count)d rating restored)",
                    "Import of the Elo list of %(date)s undone (%(count)d ratings restored)",
                ),
                "count",
                {"date": reference_date.isoformat(), "count": restored},
            ),
        )
    return elo_import


# --- uploads waiting between preview and import -------------------------------------------------


def remove_stale_uploads(now: datetime | None = None) -> int:
    """Removes uploaded files older than :data:`UPLOAD_MAX_AGE`; returns how many."""
    cutoff = (now or timezone.now()) - UPLOAD_MAX_AGE
    deleted, _per_model = EloUpload.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def keep_upload(*, user: Any, edition: Edition, name: str, data: bytes) -> EloUpload:
    """Stores an uploaded file until the import (replacing the user's earlier one for the
    edition) and removes stale ones."""
    remove_stale_uploads()
    EloUpload.objects.filter(user=user, edition=edition).delete()
    return EloUpload.objects.create(
        user=user, edition=edition, name=name[:200], data=data, created_at=timezone.now()
    )


def find_upload(*, user: Any, edition: Edition, token: str) -> EloUpload | None:
    try:
        key = uuid.UUID(str(token))
    except ValueError:
        return None
    return EloUpload.objects.filter(
        token=key, user=user, edition=edition, created_at__gte=timezone.now() - UPLOAD_MAX_AGE
    ).first()
