"""Storing a :class:`~bridgeko.competition.messages.Message` in the audit log as JSON.

A message is stored as ``{"template": <English template>, "params": {...}}`` (a counted one also
``"plural"`` and ``"count"``); a param is a text,
a number or, for a nested message, the same shape again. The reader's language is applied only
when the entry is shown (:attr:`bridgeko.audit.models.AuditEntry.display_summary`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation

from bridgeko.competition.messages import Message, Param

__all__ = ["english", "message_from_json", "message_to_json"]


def english(text: Any) -> str:
    """A lazily translated text (e.g. a choice label ``_("Team captain")``) in English: its
    msgid, so that it can be a param ``Message(english(label))`` translated when shown."""
    with translation.override("en"):
        return str(text)


def _param_to_json(value: Param) -> Any:
    if isinstance(value, Message):
        return message_to_json(value)
    if isinstance(value, bool) or not isinstance(value, int | str):
        return str(value)  # e.g. a Decimal or a date: kept as its English text
    return value


def message_to_json(message: Message) -> dict[str, Any]:
    """``message`` as JSON-safe data (its template and params, nested messages included)."""
    data: dict[str, Any] = {
        "template": message.template,
        "params": {str(k): _param_to_json(v) for k, v in message.params.items()},
    }
    if message.plural:  # a counted message (NP_): its plural template and the count's param
        data["plural"] = message.plural
        data["count"] = message.count
    return data


def _param_from_json(value: Any) -> Param:
    if isinstance(value, Mapping) and isinstance(value.get("template"), str):
        return message_from_json(value)
    if isinstance(value, int | str) and not isinstance(value, bool):
        return value
    return str(value)


def message_from_json(data: Mapping[str, Any]) -> Message:
    """The message stored by :func:`message_to_json`."""
    params = data.get("params") or {}
    return Message(
        str(data["template"]),
        {str(k): _param_from_json(v) for k, v in params.items()},
        plural=str(data.get("plural") or ""),
        count=str(data.get("count") or ""),
    )
