"""Form helpers shared by every app."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bridgeko.core import l10n
from bridgeko.core.errors import ServiceError


def apply_service_error(form: forms.BaseForm, exc: ServiceError) -> None:
    """Shows a service's user error next to its field (or above the form) and each of its
    detailed ``errors`` (e.g. one per line of a file) below it."""
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, exc.message)
    for detail in exc.errors:
        form.add_error(field, detail)


def sent_back(value: str) -> bytes:
    """An uploaded file a confirmation step sent back in a hidden field (base64)."""
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise forms.ValidationError(
            _("The file was not sent back whole; upload it again.")
        ) from None


class WholeNumberField(forms.IntegerField):
    """A whole number typed as people write it: "60 000" (a space or a non-breaking one),
    "60000", in English also "60,000" (``bridgeko.core.l10n.parse_whole``); shown grouped in
    the reader's format. A text input (a browser's number input refuses "60 000")."""

    widget = forms.TextInput(attrs={"inputmode": "numeric"})
    default_error_messages = {
        "invalid": _("Enter a whole number, e.g. %(example)s."),
    }

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        parsed = l10n.parse_whole(str(value))
        if parsed is None:
            raise forms.ValidationError(
                self.error_messages["invalid"],
                code="invalid",
                params={"example": l10n.number(60000)},
            )
        return parsed

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return l10n.number(value)
        return value

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        # IntegerField would add min/max/step, which a text input does not use
        return forms.Field.widget_attrs(self, widget)
