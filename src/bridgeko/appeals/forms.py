"""The appeals pages' forms (thin: the services check the rules)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bridgeko.appeals.models import ROOMS, DepositFate, Outcome
from bridgeko.core.forms import WholeNumberField

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
ADJUSTMENT_ROWS = 3


class SettingsForm(forms.Form):
    candidates = forms.CharField(
        label=_("Committee candidates (R16.1): one name a line, in the order of preference"),
        widget=forms.Textarea(attrs={"rows": 8}),
        required=False,
        max_length=20000,
    )
    segment_deadlines = forms.BooleanField(
        label=_(
            "Announced: an appeal about a segment must be lodged within 30 minutes of the end "
            "of that segment (R16.3)"
        ),
        required=False,
    )


class LodgeForm(forms.Form):
    appellant = forms.TypedChoiceField(label=_("Appealing team"), coerce=int)
    segment = forms.TypedChoiceField(
        label=_("Segment"), coerce=int, required=False, empty_value=None
    )
    subject = forms.CharField(
        label=_("Subject of the appeal"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=4000,
    )
    lodged_at = forms.DateTimeField(label=_("Form received by the TD"), widget=DATETIME_WIDGET)
    through_td = forms.CharField(label=_("TD who received the form (R16.2)"), max_length=120)
    deposit_paid = WholeNumberField(label=_("Deposit lodged with the TD"), min_value=0)
    form_received_at = forms.DateTimeField(
        label=_("Form received by the organiser (a match played early, R16.4)"),
        widget=DATETIME_WIDGET,
        required=False,
    )

    def __init__(
        self,
        *args: Any,
        teams: list[tuple[int, str]],
        segments: list[int],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["appellant"].choices = teams  # type: ignore[attr-defined]
        self.fields["segment"].choices = [  # type: ignore[attr-defined]
            ("", _("the whole match")),
            *((n, str(n)) for n in segments),
        ]


class CommitteeForm(forms.Form):
    members = forms.CharField(
        label=_("Members (one name a line)"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=2000,
    )

    def names(self) -> list[str]:
        return [line for line in self.cleaned_data["members"].splitlines() if line.strip()]


class DecisionForm(forms.Form):
    outcome = forms.ChoiceField(
        label=_("Outcome"), choices=Outcome.choices, widget=forms.RadioSelect
    )
    reasons = forms.CharField(
        label=_("Reasons"), widget=forms.Textarea(attrs={"rows": 4}), max_length=8000
    )
    frivolous = forms.BooleanField(label=_("The appeal is frivolous (R16.2)"), required=False)
    deposit = forms.ChoiceField(
        label=_("Deposit"),
        choices=DepositFate.choices,
        widget=forms.RadioSelect,
        initial=DepositFate.RETURNED,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, ADJUSTMENT_ROWS + 1):
            self.fields[f"board{i}"] = forms.IntegerField(
                label=_("Board"), required=False, min_value=1, max_value=999
            )
            self.fields[f"room{i}"] = forms.ChoiceField(
                label=_("Room"), choices=[("", "–"), *ROOMS], required=False
            )
            self.fields[f"result{i}"] = forms.CharField(
                label=_("Adjusted result"),
                required=False,
                max_length=30,
                widget=forms.TextInput(attrs={"placeholder": "4S N -1"}),
            )

    def rows(self) -> list[tuple[Any, Any, Any]]:
        return [
            (self[f"board{i}"], self[f"room{i}"], self[f"result{i}"])
            for i in range(1, ADJUSTMENT_ROWS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for i in range(1, ADJUSTMENT_ROWS + 1):
            parts = [data.get(f"board{i}"), data.get(f"room{i}"), data.get(f"result{i}")]
            if any(parts) and not all(parts):
                self.add_error(f"board{i}", _("Give the board, the room and the adjusted result."))
        return data

    def adjustments(self) -> list[tuple[int, str, str]]:
        data = self.cleaned_data
        return [
            (data[f"board{i}"], data[f"room{i}"], data[f"result{i}"])
            for i in range(1, ADJUSTMENT_ROWS + 1)
            if data.get(f"board{i}") and data.get(f"room{i}") and data.get(f"result{i}")
        ]


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason for the withdrawal"),
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
    )
