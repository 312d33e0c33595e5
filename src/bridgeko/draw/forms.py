from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class AnnounceForm(forms.Form):
    place = forms.CharField(label=_("Place of the draw"), max_length=200)
    at = forms.DateTimeField(label=_("Time of the draw"), widget=DATETIME_WIDGET)


class ManualDrawForm(forms.Form):
    drawn_at = forms.DateTimeField(label=_("Drawn at"), widget=DATETIME_WIDGET)
    drawn_order = forms.CharField(
        label=_("Teams in the order drawn"),
        widget=forms.Textarea(attrs={"rows": 8}),
        help_text=_(
            "One team name per line: every unseeded team, and the seeded teams of equal Elo "
            "whose order was drawn (I3)."
        ),
    )


class SchemeForm(forms.Form):
    scheme = forms.CharField(
        label=_("Playing scheme (JSON or TOML)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "Only for a scheme of your own (R9.1: the annex of the regulations), e.g. double "
            "elimination up to the semifinals: every match with its id, round, stage and its "
            "two slots (a number, “winner of X” or “loser of X”), and the places. Empty: the "
            "standard scheme (I1)."
        ),
    )


class DefaultsForm(forms.Form):
    first_date = forms.DateField(
        label=_("First preliminary round on or after"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class MatchDateForm(forms.Form):
    start = forms.DateTimeField(label=_("Start"), widget=DATETIME_WIDGET)
    location = forms.CharField(label=_("Place"), max_length=200, required=False)


class NoShowForm(forms.Form):
    """A failure to appear (R15.2): one of the matches the team plays, never a typed text."""

    match = forms.ChoiceField(label=_("Match"), widget=forms.RadioSelect)
    timely_notice = forms.BooleanField(
        label=_("The team told the organiser and the opponents in time (R15.1)"), required=False
    )
    note = forms.CharField(
        label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args: Any, matches: Sequence[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["match"].choices = list(matches)  # type: ignore[attr-defined]


class NoShowCorrectForm(NoShowForm):
    reason = forms.CharField(
        label=_("Reason for the correction"), widget=forms.Textarea(attrs={"rows": 2})
    )


class NoShowWithdrawForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason for the withdrawal"), widget=forms.Textarea(attrs={"rows": 2})
    )
