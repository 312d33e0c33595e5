from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from bridgeko.players.models import Player


class PlayerForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Player
        fields = ("federation_id", "name", "club", "member")

    def validate_unique(self) -> None:
        """The service checks the federation id (one place for the rule)."""


ENCODING_CHOICES = [
    ("", _("Detect (UTF-8, else Windows-1250)")),
    ("utf-8", "UTF-8"),
    ("cp1250", "Windows-1250"),
]


MISSING_CHOICES = [
    ("keep", _("Keep their ratings (the file only adds and changes ratings)")),
    ("drop", _("Remove their ratings (the file replaces the whole list)")),
]


class EloImportForm(forms.Form):
    """Step 1 (upload and preview). Columns are numbers from 1 or header names."""

    file = forms.FileField(label=_("Elo list (CSV, separated by semicolons)"), required=False)
    encoding = forms.ChoiceField(label=_("Encoding"), choices=ENCODING_CHOICES, required=False)
    has_header = forms.BooleanField(label=_("The first line is a header"), required=False)
    col_federation_id = forms.CharField(label=_("Column of the federation id"), max_length=60)
    col_name = forms.CharField(label=_("Column of the name"), max_length=60)
    col_elo = forms.CharField(label=_("Column of the Elo"), max_length=60, required=False)
    col_club = forms.CharField(label=_("Column of the club"), max_length=60, required=False)
    col_member = forms.CharField(label=_("Column of the membership"), max_length=60, required=False)
    missing = forms.ChoiceField(
        label=_("Players of the current list who are not in the file"),
        choices=MISSING_CHOICES,
        widget=forms.RadioSelect,
        required=False,
    )
    """Asked (and required by the import) only when the file lacks players of the list."""

    def columns(self) -> dict[str, str | None]:
        data = self.cleaned_data
        return {
            "federation_id": data["col_federation_id"],
            "name": data["col_name"],
            "elo": data.get("col_elo") or None,
            "club": data.get("col_club") or None,
            "member": data.get("col_member") or None,
        }


ELO_IMPORT_INITIAL = {
    "has_header": True,
    "col_federation_id": "1",
    "col_name": "2",
    "col_club": "3",
    "col_elo": "4",
}
