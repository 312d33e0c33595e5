"""The forms of the standings page (the organiser's decision on a place) and of a match's
date and home team (rescheduling by agreement, R14.2; swapping home and visitors, I2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
REASON_WIDGET = forms.Textarea(attrs={"rows": 2})


class DecisionForm(forms.Form):
    """The organiser decides a place the regulations do not decide (I16)."""

    place = forms.TypedChoiceField(label=_("Place"), coerce=int)
    team = forms.TypedChoiceField(label=_("Team"), coerce=int)
    reason = forms.CharField(label=_("Reason"), widget=REASON_WIDGET, max_length=2000)

    def __init__(
        self,
        *args: Any,
        places: Sequence[int] = (),
        teams: Sequence[tuple[int, str]] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["place"].choices = [(p, f"{p}.") for p in places]  # type: ignore[attr-defined]
        self.fields["team"].choices = list(teams)  # type: ignore[attr-defined]


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=REASON_WIDGET, max_length=2000)


class RescheduleForm(forms.Form):
    start = forms.DateTimeField(label=_("New start"), widget=DATETIME_WIDGET)
    location = forms.CharField(label=_("Place"), max_length=200, required=False)
    agreed_by = forms.CharField(
        label=_("Agreed by"),
        max_length=500,
        help_text=_("Who agreed to the new time for each team, and how (R14.2)."),
    )
    notice_received_at = forms.DateTimeField(
        label=_("Notice received by the organiser"),
        widget=DATETIME_WIDGET,
        help_text=_("R14.2a: by the end of the day before the normal date."),
    )
    reason = forms.CharField(label=_("Note"), widget=REASON_WIDGET, max_length=2000, required=False)
    ruling = forms.ChoiceField(
        label=_("The TD's ruling"),
        required=False,
        choices=[
            ("", _("— only when R14.2 is not met —")),
            ("allow", _("The TD allows it")),
            ("refuse", _("The TD refuses it")),
        ],
        help_text=_("When R14.2 is not met, the TD decides and the ruling is recorded (I12)."),
    )
