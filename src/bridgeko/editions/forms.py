"""Edition forms: create from a regulations file; edit every number (generated from the
engine's ``to_dict`` so a new key in the regulations appears here without code changes)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bridgeko.competition import regulations as regs
from bridgeko.editions.models import Edition
from bridgeko.editions.services import bundled_files

SECTION_TITLES = {
    "edition": _("Edition"),
    "entry": _("Entry"),
    "fees": _("Fees"),
    "prizes": _("Prizes"),
    "rating": _("Rating"),
    "draw": _("Draw"),
    "match": _("Match"),
    "penalties": _("Penalties"),
    "schedule": _("Schedule"),
    "appeals": _("Appeals"),
}
SECTION_ORDER = tuple(SECTION_TITLES)


class EditionCreateForm(forms.Form):
    slug = forms.SlugField(
        label=_("Short name"), max_length=50, help_text=_("Used in addresses, e.g. ko-2000.")
    )
    bundled = forms.ChoiceField(label=_("Regulations file"), required=False)
    upload = forms.FileField(
        label=_("… or upload a TOML file"),
        required=False,
        help_text=_("Copy editions/bridge-open-ko-1999.toml and change its numbers."),
    )
    previous = forms.ModelChoiceField(
        label=_("Previous edition"), queryset=Edition.objects.all(), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.name, p.name) for p in bundled_files()]
        self.fields["bundled"].choices = choices  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("upload")
        bundled = data.get("bundled")
        if upload and bundled:
            raise forms.ValidationError(_("Choose a file or upload one, not both."))
        if upload:
            try:
                data["toml_text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("upload", _("The file must be UTF-8 text."))
        elif bundled:
            path = {p.name: p for p in bundled_files()}[bundled]
            data["toml_text"] = path.read_text(encoding="utf-8")
        else:
            raise forms.ValidationError(_("Choose a regulations file or upload one."))
        return data


def field_name(section: str, key: str | None) -> str:
    return f"{section}__{key}" if key else section


def problem_field(key: str) -> str | None:
    """The form field of a regulations problem's key (``match.boards`` → ``match__boards``,
    ``prizes[2]`` → ``prizes``)."""
    if not key:
        return None
    base = key.split("[", 1)[0]
    return base.replace(".", "__", 1)


def _as_text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _from_text(text: str, like: Any) -> Any:
    """The form text turned back into the type of the current value; anything that does not
    fit stays text so the engine names the problem."""
    text = text.strip()
    if isinstance(like, bool):
        return text
    if isinstance(like, int):
        try:
            return int(text)
        except ValueError:
            return text
    if isinstance(like, list):
        items = [t.strip() for t in text.split(",") if t.strip()]
        if all(isinstance(v, int) for v in like):
            return [_from_text(t, 0) for t in items]
        return items
    return text


class EditionEditForm(forms.Form):
    """One text field per regulations key, in sections; ``to_data()`` rebuilds the dict."""

    previous = forms.ModelChoiceField(
        label=_("Previous edition"),
        queryset=Edition.objects.none(),
        required=False,
        help_text=_("For returning-team fees and bans."),
    )

    def __init__(self, *args: Any, edition: Edition, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        super().__init__(*args, **kwargs)
        self.edition = edition
        prev = self.fields["previous"]
        prev.queryset = Edition.objects.exclude(pk=edition.pk)  # type: ignore[attr-defined]
        prev.initial = edition.previous_id
        self.current = regs.to_dict(edition.regulations)
        self.sections: list[tuple[str, str, list[str]]] = []
        for section in SECTION_ORDER:
            value = self.current.get(section)
            if value is None:
                continue
            names: list[str] = []
            items = value.items() if isinstance(value, dict) else [(None, value)]
            for key, item in items:
                name = field_name(section, key)
                help_text = _("Comma-separated.") if isinstance(item, list) else ""
                self.fields[name] = forms.CharField(
                    label=key or section,
                    initial=_as_text(item),
                    required=False,
                    help_text=help_text,
                )
                names.append(name)
            self.sections.append((section, str(SECTION_TITLES[section]), names))

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for section, value in self.current.items():
            if isinstance(value, dict):
                data[section] = {
                    key: _from_text(self.cleaned_data.get(field_name(section, key), ""), item)
                    for key, item in value.items()
                }
            else:
                data[section] = _from_text(self.cleaned_data.get(section, ""), value)
        return data

    def section_fields(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[n] for n in names]) for _s, title, names in self.sections]
