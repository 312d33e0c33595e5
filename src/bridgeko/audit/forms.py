from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from bridgeko.editions.models import Edition


class AuditFilterForm(forms.Form):
    action = forms.CharField(
        label=_("Action"), required=False, help_text=_("e.g. bridgeko.player (prefix)")
    )
    user = forms.ModelChoiceField(
        label=_("User"), queryset=get_user_model().objects.none(), required=False
    )
    edition = forms.ModelChoiceField(
        label=_("Edition"), queryset=Edition.objects.none(), required=False
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: Any, editions: Any, users: Any = None, **kwargs: Any) -> None:
        """``users``: the accounts the reader may see (default: those holding a role in one of
        ``editions``); an organiser does not learn the accounts of other editions."""
        super().__init__(*args, **kwargs)
        self.fields["edition"].queryset = editions  # type: ignore[attr-defined]
        if users is None:
            users = get_user_model().objects.filter(role_assignments__edition__in=editions)
        self.fields["user"].queryset = users.distinct().order_by(  # type: ignore[attr-defined]
            "username"
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The end is before the start."))
        return data
