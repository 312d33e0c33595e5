"""The audited write: validate → one ``transaction.atomic`` → :func:`record` → return.

Every service function that changes data follows this shape::

    def rename_player(*, player: Player, name: str, user: User | None) -> Player:
        name = name.strip()
        if not name:
            raise ServiceError(_("The name must not be empty."), field="name")
        with transaction.atomic():
            before = snapshot(player)
            player.name = name
            player.save()
            record("bridgeko.player.changed", user=user, obj=player,
                   before=before, after=snapshot(player), summary=f"{before['name']} → {name}")
        return player

A :class:`~bridgeko.core.errors.ServiceError` is a user error (translated message, optional form
field); anything else is an internal error (logged, shown as a generic 500 page).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models
from django.forms.models import model_to_dict
from django.utils import timezone

from bridgeko.audit.messages import message_to_json
from bridgeko.audit.models import AuditEntry
from bridgeko.competition.messages import Message


class AuditOutsideTransaction(RuntimeError):
    """:func:`record` was called outside ``transaction.atomic`` (an internal error)."""


def jsonable(value: Any) -> Any:
    """``value`` made JSON-safe the way the audit log stores it (dates as ISO strings)."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def snapshot(obj: models.Model, fields: Iterable[str] | None = None) -> dict[str, Any]:
    """The model's field values as a JSON-safe dict (for ``before``/``after``)."""
    data = model_to_dict(obj, fields=list(fields) if fields is not None else None)
    data["id"] = obj.pk
    return dict(jsonable(data))


def record(
    action: str,
    *,
    user: Any = None,
    edition: Any = None,
    obj: models.Model | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    summary: str | Message = "",
    at: datetime | None = None,
) -> AuditEntry:
    """Writes one audit entry; must run inside the service's ``transaction.atomic``.

    ``action`` is namespaced: ``bridgeko.<object>.<verb>`` (``bridgeko.player.imported``).
    ``user`` may be None (a command run without ``--user``) or an anonymous user.
    ``summary`` is a plain text (data, e.g. a name: shown as stored) or a :class:`Message` worded
    from an English template marked with ``N_``: the entry keeps the English text in ``summary``
    (for search) and the template and params, so that every reader sees it in their language.
    """
    if not action.startswith("bridgeko."):
        raise ValueError(f"audit action must start with 'bridgeko.': {action!r}")
    if not connection.in_atomic_block:
        raise AuditOutsideTransaction(f"{action}: record() must run inside transaction.atomic")
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    if isinstance(summary, Message):
        stored = message_to_json(summary)
        text, template, params = str(summary), stored["template"], stored["params"]
    else:
        text, template, params = summary, "", {}
    return AuditEntry.objects.create(
        action=action,
        at=at or timezone.now(),
        user=user,
        edition=edition,
        object_type=obj._meta.label_lower if obj is not None else "",
        object_id=str(obj.pk) if obj is not None and obj.pk is not None else "",
        object_repr=str(obj)[:200] if obj is not None else "",
        before=jsonable(dict(before)) if before is not None else None,
        after=jsonable(dict(after)) if after is not None else None,
        summary=text,
        summary_template=template,
        summary_params=params,
    )
