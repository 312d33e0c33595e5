"""How an audit entry is shown: its action by name, its before/after as a table of field ->
before -> after with readable names and values, and the raw data as real JSON.

Values are formatted for the reader: ``None`` as a dash, booleans as yes/no, ISO dates and
date-times (as the audit log stores them) in the active language's format, lists item by item,
mappings as ``name: value`` lines; role and stage codes by their names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import formats, timezone
from django.utils.translation import pgettext

from bridgeko.accounts.models import Role
from bridgeko.audit.labels import action_label, field_label
from bridgeko.audit.models import AuditEntry
from bridgeko.editions.models import EditionStage

__all__ = ["AuditRow", "DiffRow", "audit_row", "format_value"]

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATETIME = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?")
MAX_ITEMS = 50
"""A longer list shows its first items and how many more there are."""

VALUE_LABELS: dict[str, Mapping[str, Any]] = {
    "role": dict(Role.choices),
    "stage": dict(EditionStage.choices),
}
"""Field -> its stored codes -> their readable names."""


@dataclass(frozen=True, slots=True)
class DiffRow:
    key: str
    label: str
    before: list[str]
    """The value as lines (one for a plain value; one per item of a list or mapping)."""
    after: list[str]
    changed: bool


@dataclass(frozen=True, slots=True)
class AuditRow:
    entry: AuditEntry
    action: str
    diff: list[DiffRow]
    raw_json: str


def _scalar(key: str, value: Any) -> str:
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return pgettext("audit value", "Yes") if value else pgettext("audit value", "No")
    if isinstance(value, str):
        labels = VALUE_LABELS.get(key)
        if labels is not None and value in labels:
            return str(labels[value])
        if _DATE.fullmatch(value):
            try:
                return str(formats.date_format(date.fromisoformat(value), "SHORT_DATE_FORMAT"))
            except ValueError:
                return value
        if _DATETIME.fullmatch(value):
            try:
                moment = datetime.fromisoformat(value)
            except ValueError:
                return value
            if timezone.is_aware(moment):
                moment = timezone.localtime(moment)
            return str(formats.date_format(moment, "SHORT_DATETIME_FORMAT"))
        return value
    return str(value)


def format_value(key: str, value: Any) -> list[str]:
    """``value`` of the field ``key`` as lines of text for the reader."""
    if isinstance(value, list | tuple):
        if not value:
            return ["–"]
        lines = [_inline(key, item) for item in value[:MAX_ITEMS]]
        if len(value) > MAX_ITEMS:
            lines.append(f"… (+{len(value) - MAX_ITEMS})")
        return lines
    if isinstance(value, Mapping):
        if not value:
            return ["–"]
        items = list(value.items())
        lines = [f"{field_label(str(k))}: {_inline(str(k), v)}" for k, v in items[:MAX_ITEMS]]
        if len(items) > MAX_ITEMS:
            lines.append(f"… (+{len(items) - MAX_ITEMS})")
        return lines
    return [_scalar(key, value)]


def _inline(key: str, value: Any) -> str:
    """A value inside a list or mapping, on one line."""
    if isinstance(value, list | tuple):
        return ", ".join(_inline(key, v) for v in value) or "–"
    if isinstance(value, Mapping):
        return "; ".join(f"{field_label(str(k))}: {_inline(str(k), v)}" for k, v in value.items())
    return _scalar(key, value)


def diff_rows(before: Any, after: Any) -> list[DiffRow]:
    """One row per field of ``before`` and ``after`` (mappings), in their order."""
    old = before if isinstance(before, Mapping) else {}
    new = after if isinstance(after, Mapping) else {}
    if not old and not new:
        return []
    keys = list(dict.fromkeys([*old, *new]))
    return [
        DiffRow(
            key=str(key),
            label=field_label(str(key)),
            before=format_value(str(key), old[key]) if key in old else ["–"],
            after=format_value(str(key), new[key]) if key in new else ["–"],
            changed=bool(old) and bool(new) and old.get(key) != new.get(key),
        )
        for key in keys
    ]


def raw_json(entry: AuditEntry) -> str:
    """The entry's before and after as indented JSON (non-ASCII kept as it is)."""
    return json.dumps(
        {"before": entry.before, "after": entry.after},
        ensure_ascii=False,
        indent=2,
        cls=DjangoJSONEncoder,
    )


def audit_row(entry: AuditEntry) -> AuditRow:
    return AuditRow(
        entry=entry,
        action=action_label(entry.action),
        diff=diff_rows(entry.before, entry.after),
        raw_json=raw_json(entry),
    )
