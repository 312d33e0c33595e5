"""Edition services: create from a regulations file, edit the numbers, link the previous edition.

Every rule check is the engine's (:mod:`bridgeko.competition.regulations`); this module maps
its :class:`~bridgeko.competition.regulations.RegulationsError` to a :class:`ServiceError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.audit.messages import english
from bridgeko.audit.services import record
from bridgeko.competition import regulations as regs
from bridgeko.competition.messages import N_, Message
from bridgeko.core.config import source_root
from bridgeko.core.errors import ServiceError
from bridgeko.core.i18n import tr
from bridgeko.editions.models import (
    DRAW_HELD_STAGES,
    STAGE_TRANSITIONS,
    Edition,
    EditionStage,
)

SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,49}$")


class RegulationsServiceError(ServiceError):
    """The regulations have mistakes: ``problems`` lists each with its key."""

    def __init__(self, problems: tuple[regs.RegulationsProblem, ...]) -> None:
        super().__init__(
            _("The regulations have mistakes; nothing was saved."),
            errors=[tr(p) for p in problems],  # each problem in the user's language
        )
        self.problems = problems


FIXED_AFTER_DRAW = {
    "entry": gettext_lazy("the entries were closed and the draw made under it (R3, R7, R8)"),
    "fees": gettext_lazy("the entry fees were decided by it (R4.1)"),
    "rating": gettext_lazy("the draw seeded the teams by the Elo it sets (R10, R11.1)"),
    "draw": gettext_lazy("the draw was made by it (R9, R11)"),
    "format.template": gettext_lazy("the draw placed the teams in its scheme (R9)"),
    "edition.timezone": gettext_lazy(
        "the entry deadline and the time of the draw were read in it (I12)"
    ),
}
"""The sections (or single keys) of the regulations the entries and the draw used, and why each
is fixed once the draw is held; the rest (match, penalties, schedule, appeals, prizes, systems,
the edition's name and language) stays editable."""


def _fixed_rule(key: str) -> str | None:
    """The entry of :data:`FIXED_AFTER_DRAW` that fixes the dotted ``key``, if any."""
    if key in FIXED_AFTER_DRAW:
        return key
    section = key.split(".", 1)[0]
    return section if section in FIXED_AFTER_DRAW else None


class ChangedAfterDrawError(ServiceError):
    """An edit of the numbers the entries and the draw were based on, after the draw was held:
    ``keys`` lists the dotted keys changed, ``sections`` their sections."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = tuple(keys)
        self.sections = tuple(dict.fromkeys(k.split(".", 1)[0] for k in keys))
        rules = dict.fromkeys(_fixed_rule(k) or k for k in keys)
        super().__init__(
            _("The draw has been held: nothing was saved."),
            errors=[
                _("The section [%(section)s] (%(keys)s) can no longer change: %(why)s.")
                % {
                    "section": rule.split(".", 1)[0],
                    "keys": ", ".join(k for k in self.keys if _fixed_rule(k) == rule),
                    "why": FIXED_AFTER_DRAW[rule],
                }
                for rule in rules
            ],
        )


def draw_held(edition: Edition, *, lock: bool = False) -> bool:
    """Whether the draw of ``edition`` has been held, read from the edition's stored stage (the
    draw app moves it when it holds the draw). ``lock`` (inside a transaction) locks the
    edition's row, as the draw does when it moves the stage."""
    rows = Edition.objects.filter(pk=edition.pk)
    if lock:
        rows = rows.select_for_update()
    return rows.values_list("stage", flat=True).first() in DRAW_HELD_STAGES


class StageError(ServiceError):
    """A move of the edition's stage that the order of the stages does not allow."""


def move_stage(*, edition: Edition, to: str, user: Any, at: datetime | None = None) -> Edition:
    """Moves ``edition`` to the stage ``to`` (an :class:`EditionStage`), audited as
    ``bridgeko.edition.stage_changed``; only the moves of :data:`STAGE_TRANSITIONS` are allowed
    (:class:`StageError` otherwise, nothing saved).

    Called by the services that move the edition: closing the entries (or cancelling, R8.1) and
    reopening them, holding the draw; the edition's row is locked, so that the caller's
    transaction sees the stage no concurrent request changed. ``edition.stage`` is updated."""
    target = EditionStage(to)
    with transaction.atomic():
        current = (
            Edition.objects.select_for_update()
            .filter(pk=edition.pk)
            .values_list("stage", flat=True)
            .get()
        )
        if target not in STAGE_TRANSITIONS[current]:
            raise StageError(
                _("The edition is at the stage “%(stage)s”; it cannot move to “%(to)s”.")
                % {"stage": EditionStage(current).label, "to": target.label}
            )
        Edition.objects.filter(pk=edition.pk).update(stage=target)
        edition.stage = target
        record(
            "bridgeko.edition.stage_changed",
            user=user,
            edition=edition,
            obj=edition,
            before={"stage": current},
            after={"stage": str(target)},
            summary=Message(
                N_("Stage: %(from)s → %(to)s"),
                {
                    "from": Message(english(EditionStage(current).label)),
                    "to": Message(english(target.label)),
                },
            ),
            at=at,
        )
    return edition


def editions_dir() -> Path | None:
    """The directory of bundled regulations files (``editions/`` of the source checkout, or
    ``BRIDGEKO_EDITIONS_DIR``)."""
    configured = getattr(settings, "BRIDGEKO_EDITIONS_DIR", None)
    if configured:
        return Path(configured)
    root = source_root()
    return root / "editions" if root is not None else None


def bundled_files() -> list[Path]:
    """The ``*.toml`` regulations files one may create an edition from."""
    directory = editions_dir()
    return sorted(directory.glob("*.toml")) if directory and directory.is_dir() else []


def parse_regulations(text: str) -> regs.Regulations:
    """The engine's parser, its errors turned into a :class:`RegulationsServiceError`."""
    try:
        return _storable(regs.loads(text))
    except regs.RegulationsError as exc:
        raise RegulationsServiceError(exc.problems) from None


MAX_YEAR = 9999
"""The largest year an edition's pages can show (dates have four-digit years)."""


def _storable(reg: regs.Regulations) -> regs.Regulations:
    """The name and year are copied into the edition's row: they must fit its columns."""
    longest = Edition._meta.get_field("name").max_length or 0
    if len(reg.edition.name) > longest:
        raise ServiceError(
            _("The name of the edition is longer than %(max)d characters.") % {"max": longest},
            field="edition__name",
        )
    if reg.edition.year > MAX_YEAR:
        raise ServiceError(
            _("The year must have at most four digits, not %(year)d.") % {"year": reg.edition.year},
            field="edition__year",
        )
    return reg


def create_edition(
    *, slug: str, toml_text: str, user: Any, previous: Edition | None = None
) -> Edition:
    """Creates an edition from regulations text; its creator becomes its organiser."""
    slug = slug.strip().lower()
    if not SLUG_RE.match(slug):
        raise ServiceError(
            _("Use lower-case letters, digits and hyphens (at most 50), e.g. ko-2000."),
            field="slug",
        )
    reg = parse_regulations(toml_text)
    taken = ServiceError(_("An edition with this short name already exists."), field="slug")
    if Edition.objects.filter(slug=slug).exists():
        raise taken
    try:
        return _create_edition(slug, toml_text, reg, user, previous)
    except IntegrityError:  # a concurrent request took the slug
        raise taken from None


def _create_edition(
    slug: str, toml_text: str, reg: regs.Regulations, user: Any, previous: Edition | None
) -> Edition:
    with transaction.atomic():
        edition = Edition.objects.create(
            slug=slug,
            name=reg.edition.name,
            year=reg.edition.year,
            language=reg.edition.language,
            regulations_toml=toml_text,
            previous=previous,
        )
        if getattr(user, "is_authenticated", False):
            RoleAssignment.objects.create(user=user, edition=edition, role=Role.ORGANISER)
        record(
            "bridgeko.edition.created",
            user=user,
            edition=edition,
            obj=edition,
            after={"slug": slug, "previous": previous.slug if previous else None}
            | {"regulations": regs.to_dict(reg)},
            summary=Message(N_("Edition %(name)s created"), {"name": reg.edition.name}),
        )
    return edition


def update_edition(
    *,
    edition: Edition,
    data: Mapping[str, Any],
    user: Any,
    previous: Edition | None = None,
) -> Edition:
    """Replaces the regulations by ``data`` (the shape of ``regulations.to_dict``) and sets
    the previous edition.

    Once the draw is held, the sections the entries and the draw used
    (:data:`FIXED_AFTER_DRAW`) are refused with a :class:`ChangedAfterDrawError`; the others
    can still change."""
    try:
        reg = _storable(regs.from_dict(data))
    except regs.RegulationsError as exc:
        raise RegulationsServiceError(exc.problems) from None
    if previous is not None and (previous.pk == edition.pk or _is_descendant(previous, edition)):
        raise ServiceError(
            _("The previous edition must be an earlier edition, not this one or a later one."),
            field="previous",
        )
    with transaction.atomic():
        edition = Edition.objects.select_for_update().get(pk=edition.pk)
        old = regs.to_dict(edition.regulations)
        new = regs.to_dict(reg)
        changed = _changed_keys(old, new)
        fixed = [k for k in changed if _fixed_rule(k) is not None]
        if fixed and edition.draw_held:  # the stage of the locked row
            raise ChangedAfterDrawError(fixed)
        if previous != edition.previous and edition.draw_held:
            raise ServiceError(
                _(
                    "The draw has been held: the previous edition can no longer change "
                    "(it decided the returning teams' fees, R4.1, and the bans, R15.3)."
                ),
                field="previous",
            )
        before = {"previous": edition.previous.slug if edition.previous else None} | old
        edition.regulations_toml = regs.dumps(reg)
        edition.name = reg.edition.name
        edition.year = reg.edition.year
        edition.language = reg.edition.language
        edition.previous = previous
        edition.save()
        edition.__dict__.pop("regulations", None)
        record(
            "bridgeko.edition.changed",
            user=user,
            edition=edition,
            obj=edition,
            before=before,
            after={"previous": previous.slug if previous else None} | new,
            summary=", ".join(changed) or Message(N_("no change to the numbers")),
        )
    return edition


def _is_descendant(candidate: Edition, edition: Edition) -> bool:
    """True when ``candidate`` follows ``edition`` through the previous-edition links."""
    seen: set[int] = set()
    current: Edition | None = candidate
    while current is not None and current.pk not in seen:
        if current.previous_id == edition.pk:
            return True
        seen.add(current.pk)
        current = current.previous
    return False


def _changed_keys(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for section, value in new.items():
        if isinstance(value, Mapping):
            for key, item in value.items():
                if old.get(section, {}).get(key) != item:
                    out.append(f"{section}.{key}")
        elif old.get(section) != value:
            out.append(section)
    return out
