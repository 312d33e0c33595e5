"""The forms of the boards pages: their shape only; the rules are the services'."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from bridgeko.boards.services import MAX_PBN_BYTES
from bridgeko.core.forms import sent_back


class CommitForm(forms.Form):
    event = forms.CharField(label=gettext_lazy("event"), max_length=200)
    session = forms.CharField(label=gettext_lazy("session"), max_length=100)
    by_agreement = forms.BooleanField(
        label=gettext_lazy("Computer-dealt by agreement (R12.7)"), required=False
    )
    reason = forms.CharField(label=gettext_lazy("reason"), max_length=500, required=False)
    replace = forms.BooleanField(
        label=gettext_lazy("Replace the set: what is listed above is lost"), required=False
    )


class DownloadForm(forms.Form):
    format = forms.ChoiceField(
        label=gettext_lazy("file"),
        choices=(
            ("pbn", gettext_lazy("PBN (any dealing program)")),
            ("dup", gettext_lazy("DUP (Duplimate)")),
            ("dlm", gettext_lazy("DLM (Duplimate)")),
        ),
    )
    first = forms.IntegerField(label=gettext_lazy("first board"), min_value=1, required=False)
    last = forms.IntegerField(label=gettext_lazy("last board"), min_value=1, required=False)
    copies = forms.IntegerField(
        label=gettext_lazy("copies of each board (DUP)"),
        min_value=0,
        max_value=99,
        initial=1,
        required=False,
    )
    show = forms.BooleanField(
        label=gettext_lazy("Show the hands on the machine's screen (DUP, DLM; else sealed)"),
        required=False,
    )
    bigdeal = forms.BooleanField(
        label=gettext_lazy(
            "As Big Deal writes it (DUP: boards counted from 1, copies 0 unless given; "
            "DLM: Big Deal's headline)"
        ),
        required=False,
    )


class LoadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("PBN file"))

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size is not None and upload.size > MAX_PBN_BYTES:
            raise forms.ValidationError(
                _("The file is too large (%(size)s kB; at most %(max)s kB).")
                % {"size": upload.size // 1000, "max": MAX_PBN_BYTES // 1000}
            )
        data: bytes = upload.read()
        return data


class LoadConfirmForm(forms.Form):
    """The file sent back (base64) with the confirmation that the set is to be replaced."""

    pbn = forms.CharField(widget=forms.HiddenInput, max_length=MAX_PBN_BYTES * 4 // 3 + 8)
    replace = forms.BooleanField(
        label=gettext_lazy("Replace the set: what is listed above is lost"), required=True
    )

    def clean_pbn(self) -> bytes:
        return sent_back(self.cleaned_data["pbn"])
