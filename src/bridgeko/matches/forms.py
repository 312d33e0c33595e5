"""The forms of the TD's match page. They check the shape of what is typed; the rules are the
services' (:mod:`bridgeko.matches.services`) and the engine's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bridgeko.matches.models import SIDES, PenaltyKind


class BoardForm(forms.Form):
    """One room's result of one board (the quick text; empty clears it)."""

    text = forms.CharField(label=_("result"), max_length=30, required=False, strip=True)
    version = forms.IntegerField(min_value=0, required=False)
    confirm = forms.BooleanField(required=False)


class TotalsForm(forms.Form):
    """A segment's IMPs from the scorecards (both empty: cleared)."""

    home_imps = forms.IntegerField(label=_("home IMPs"), min_value=0, required=False)
    visitors_imps = forms.IntegerField(label=_("visitors IMPs"), min_value=0, required=False)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


class CloseForm(forms.Form):
    reason = forms.CharField(label=_("reason"), max_length=500)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


class PenaltyForm(forms.Form):
    """A slow-play penalty (boards), a lateness (minutes; another number of removed boards if
    the TD decides so, I6) or a TD adjustment (IMPs)."""

    kind = forms.ChoiceField(label=_("kind"), choices=PenaltyKind.choices)
    segment = forms.TypedChoiceField(label=_("segment"), coerce=int)
    side = forms.ChoiceField(label=_("team"), choices=SIDES)
    boards = forms.IntegerField(
        label=_("boards"),
        min_value=0,
        max_value=999,
        required=False,
        help_text=_(
            "Slow play: the boards not played in time. Lateness: leave empty to remove the "
            "computed number of boards, or give another number."
        ),
    )
    minutes = forms.IntegerField(
        label=_("minutes late"), min_value=0, max_value=10000, required=False
    )
    imps = forms.IntegerField(
        label=_("IMPs"),
        min_value=-999,
        max_value=999,
        required=False,
        help_text=_("TD adjustment: IMPs to the team, negative to deduct."),
    )
    reason = forms.CharField(
        label=_("reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, segments: list[int], sides: list[tuple[str, str]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["segment"].choices = [(n, str(n)) for n in segments]  # type: ignore[attr-defined]
        self.fields["side"].choices = sides  # type: ignore[attr-defined]


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("reason for the withdrawal"), max_length=500)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
