"""Forms of the entries pages; every check of a rule is the service's (engine's)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bridgeko.core.errors import ServiceError
from bridgeko.core.forms import WholeNumberField
from bridgeko.entries.models import Pair, Team
from bridgeko.players.models import Player

DATE_WIDGET = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
MAX_PAIRS = 3


class TeamForm(forms.Form):
    """A team's name and roster: one box per player (as many as ``max_players``, R7.1), each
    completed from the register; the first is the captain."""

    name = forms.CharField(label=_("Team name"), max_length=120)
    roster = forms.CharField(
        label=_("Roster, captain first"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "One player per line, the captain first (R7.1): the federation id, or the name as in "
            "the register. 4 to 6 players."
        ),
    )
    """Alternative to the boxes (one player per line), for pasting a list."""
    exception_reason = forms.CharField(
        label=_("Reason for the exception (chief TD, R7.2)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Needed to change the roster after entry."),
    )
    late_reason = forms.CharField(
        label=_("Reason for the late entry (chief TD)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Needed once the entries are closed."),
    )

    def __init__(self, *args: Any, slots: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.slots = slots
        for k in range(1, slots + 1):
            self.fields[f"player_{k}"] = forms.CharField(
                label=_("Captain") if k == 1 else _("Player %(k)d") % {"k": k},
                required=False,
                max_length=200,
                widget=forms.TextInput(attrs={"list": "register", "autocomplete": "off"}),
            )

    def clean(self) -> dict[str, Any]:
        """R7.1: the first box is the captain's. Leaving it empty while filling others is an
        error on that box, never a silent promotion of player 2 to captain."""
        data = super().clean() or {}
        pasted = (data.get("roster") or "").strip()
        boxes = [(data.get(f"player_{k}") or "").strip() for k in range(1, self.slots + 1)]
        if not pasted and not boxes[0] and any(boxes[1:]):
            self.add_error(
                "player_1",
                _("The captain goes on the first line (R7.1): fill it in or move the captain up."),
            )
        return data

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{k}"] for k in range(1, self.slots + 1)]

    def roster_lines(self) -> list[str]:
        pasted = self.cleaned_data.get("roster") or ""
        lines = [line.strip() for line in pasted.splitlines() if line.strip()]
        if lines:
            return lines
        boxes = (self.cleaned_data.get(f"player_{k}") or "" for k in range(1, self.slots + 1))
        return [value.strip() for value in boxes if value.strip()]


def player_label(player: Player) -> str:
    """How a player is written in a roster box (read back by ``resolve_player``)."""
    return f"{player.name} ({player.federation_id})" if player.federation_id else f"#{player.pk}"


class PairsForm(forms.Form):
    """Up to three declared pairs, chosen from the roster (R3.1b)."""

    def __init__(self, *args: Any, roster: list[Player], pairs: list[Pair], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(str(p.pk), p.name) for p in roster]
        initial: list[tuple[int, int]] = [(p.player_a_id, p.player_b_id) for p in pairs]
        if not initial and len(roster) == 4:  # a team of 4 is two pairs: propose 1-2, 3-4
            initial = [(roster[0].pk, roster[1].pk), (roster[2].pk, roster[3].pk)]
        self.by_id = {p.pk: p for p in roster}
        for k in range(1, MAX_PAIRS + 1):
            a, b = initial[k - 1] if k <= len(initial) else ("", "")
            for side, value in (("a", a), ("b", b)):
                self.fields[f"pair{k}_{side}"] = forms.ChoiceField(
                    label=_("Pair %(k)d, player %(side)s") % {"k": k, "side": side.upper()},
                    choices=choices,
                    required=False,
                    initial=str(value),
                )

    def pairs(self) -> list[tuple[Player, Player]]:
        out: list[tuple[Player, Player]] = []
        for k in range(1, MAX_PAIRS + 1):
            a, b = self.cleaned_data.get(f"pair{k}_a"), self.cleaned_data.get(f"pair{k}_b")
            if a and b:
                out.append((self.by_id[int(a)], self.by_id[int(b)]))
            elif a or b:
                raise ServiceError(_("Pair %(k)d needs two players.") % {"k": k}, field="pairs")
        return out


MAX_AMOUNT = 2_147_483_647
"""The largest amount the database stores (a PositiveIntegerField); more is a form error."""


class ConditionsForm(forms.Form):
    form_received = forms.DateField(
        label=_("Entry form received (R3.1a)"),
        required=False,
        widget=DATE_WIDGET,
        help_text=_("From then on the roster is frozen (R7.2)."),
    )
    fee_received = forms.DateField(
        label=_("Entry fee received (R3.1c)"), required=False, widget=DATE_WIDGET
    )
    fee_paid = WholeNumberField(
        label=_("Amount received"), min_value=0, max_value=MAX_AMOUNT, initial=0
    )

    def __init__(self, *args: Any, team: Team, pairs: list[Pair], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pair_objects = pairs
        for pair in pairs:
            self.fields[f"card_{pair.pk}"] = forms.DateField(
                label=_("Convention card of %(pair)s received (R3.1b)") % {"pair": pair.label},
                required=False,
                widget=DATE_WIDGET,
                initial=pair.card_received,
            )
        self.fields["form_received"].initial = team.form_received
        self.fields["fee_received"].initial = team.fee_received
        self.fields["fee_paid"].initial = team.fee_paid

    def cards(self) -> dict[int, Any]:
        return {p.pk: self.cleaned_data.get(f"card_{p.pk}") for p in self.pair_objects}


class FeeForm(forms.Form):
    amount = WholeNumberField(
        label=_("Fee decided by the organiser"),
        min_value=0,
        max_value=MAX_AMOUNT,
        required=False,
        help_text=_("Leave empty to return to the fee of R4.1."),
    )
    reason = forms.CharField(
        label=_("Reason (I4)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))


class CardForm(forms.Form):
    """A pair's convention card (R3.1b); what the file is, is the service's check (by content)."""

    file = forms.FileField(
        label=_("Convention card (PDF, PNG or JPEG)"),
        widget=forms.ClearableFileInput(
            attrs={"accept": ".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"}
        ),
    )
    replace = forms.BooleanField(
        label=_("Replace the current card (it is kept in the history)"), required=False
    )
