"""The forms of the line-up pages: four selects from the team's roster, labelled with the
seats the team takes in each room (R12.2), and the TD's reason for clearing a line-up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from bridgeko.players.models import Player

FIELDS = ("open_first", "open_second", "closed_first", "closed_second")
SEAT_NAMES = {
    "N": pgettext_lazy("seat", "North"),
    "E": pgettext_lazy("seat", "East"),
    "S": pgettext_lazy("seat", "South"),
    "W": pgettext_lazy("seat", "West"),
}
ROOM_NAMES = {"open": _("Open room"), "closed": _("Closed room")}


class LineUpForm(forms.Form):
    """``seats`` maps each field to its seat letter (``open_first`` -> ``N`` for the home
    team); the choices are the roster's players."""

    def __init__(
        self, *args: Any, players: Sequence[Player], seats: dict[str, str], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(str(p.pk), p.name) for p in players]
        self.players = {p.pk: p for p in players}
        for name in FIELDS:
            room = name.split("_")[0]
            self.fields[name] = forms.TypedChoiceField(
                label=f"{ROOM_NAMES[room]}: {SEAT_NAMES[seats[name]]}",
                choices=choices,
                coerce=int,
            )

    def chosen(self) -> dict[str, Player]:
        return {name: self.players[self.cleaned_data[name]] for name in FIELDS}


class ClearLineUpForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2})
    )
