"""Edition forms: create from a regulations file; edit every number (generated from the
engine's ``to_dict`` so a new key in the regulations appears here without code changes)."""

from __future__ import annotations

import re
from datetime import date, time
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from bridgeko.competition import regulations as regs
from bridgeko.core import l10n
from bridgeko.core.i18n import tr
from bridgeko.core.search import SEARCH_MAX_LENGTH
from bridgeko.editions.models import Edition
from bridgeko.editions.services import bundled_files

MAX_TOML_BYTES = 256 * 1024
"""A regulations file is a few kilobytes; anything far larger is not one (read no further)."""

SECTION_TITLES = {
    "edition": pgettext_lazy("regulations section", "Edition"),
    "entry": pgettext_lazy("regulations section", "Entry"),
    "fees": pgettext_lazy("regulations section", "Fees"),
    "prizes": pgettext_lazy("regulations section", "Prizes"),
    "rating": pgettext_lazy("regulations section", "Rating"),
    "draw": pgettext_lazy("regulations section", "Draw"),
    "match": pgettext_lazy("regulations section", "Match"),
    "penalties": pgettext_lazy("regulations section", "Penalties"),
    "schedule": pgettext_lazy("regulations section", "Schedule"),
    "appeals": pgettext_lazy("regulations section", "Appeals"),
    "systems": pgettext_lazy("regulations section", "Bidding systems"),
    "format": pgettext_lazy("regulations section", "Format"),
}
SECTION_ORDER = tuple(SECTION_TITLES)

# The label of each regulations key and the clause it comes from; a key missing here is shown
# under its own name (so a key added to the engine still appears in the form).
FIELD_LABELS = {
    "edition.name": (_("Display name"), ""),
    "edition.year": (_("Year"), ""),
    "edition.organiser": (_("Organiser"), "R1.1"),
    "edition.venue": (_("Venue of the preliminary rounds"), "R14.1"),
    "edition.language": (_("Default language"), ""),
    "edition.currency": (_("Currency"), "R4.1"),
    "edition.timezone": (_("Time zone of the deadlines"), "I12"),
    "entry.deadline": (_("Entry deadline"), "R3.2"),
    "entry.min_players": (_("Fewest players in a team"), "R7.1"),
    "entry.max_players": (_("Most players in a team"), "R7.1"),
    "entry.min_teams": (_("Fewest teams (else the edition is cancelled)"), "R8.1"),
    "fees.returning": (_("Fee of a returning team"), "R4.1"),
    "fees.members_only": (_("Fee of a new team of federation members"), "R4.1"),
    "fees.other": (_("Fee of any other team"), "R4.1"),
    "fees.returning_same_players": (_("Same players that make a returning team"), "R4.1, I4"),
    "fees.returning_same_players_with_captain": (
        _("… or this many including the previous captain"),
        "R4.1, I4",
    ),
    "prizes": (_("Prize money for 1st, 2nd, 3rd … place"), "R5.1"),
    "rating.reference_date": (_("Date of the Elo list"), "R10.1"),
    "rating.default_team_elo": (_("Elo of a team without any known Elo"), "R10.2"),
    "draw.scheme_sizes": (_("Scheme sizes"), "R9.2, I11"),
    "draw.seeded_divisor": (_("Seeded teams: N divided by"), "R11.1"),
    "match.boards": (_("Boards of a match"), "R1.3, R12.1"),
    "match.final_boards": (_("Boards of the final"), "R1.3, R12.1"),
    "match.stage_boards": (_("Boards of a match in a stage of its own"), "R1.3"),
    "match.stage_segment_boards": (_("Boards of a segment in a stage of its own"), "R1.3"),
    "fees.per_player": (_("The fees are per player"), "R4.1"),
    "format.template": (_("Format of the knockout"), ""),
    "format.prizes_per_player": (_("The prizes are per player"), "R5.1"),
    "match.segment_boards": (_("Boards of a segment"), "R1.3, R12.1"),
    "match.extra_segment_boards": (_("Boards of an extra segment after a tie"), "R12.5"),
    "match.screens_stages": (_("Stages played with screens"), "R12.7"),
    "match.segment_minutes": (_("Minutes for a segment"), "R12.8"),
    "match.segment_minutes_screens": (_("Minutes for a segment with screens"), "R12.8"),
    "match.extra_segment_minutes": (_("Minutes for an extra segment"), "R12.8"),
    "match.extra_segment_minutes_screens": (
        _("Minutes for an extra segment with screens"),
        "R12.8",
    ),
    "penalties.slow_play_imps_per_board": (_("IMPs per board not played in time"), "R12.8"),
    "penalties.lateness_minutes_per_board": (_("Minutes late that remove one board"), "R12.9"),
    "penalties.lateness_imps_per_board": (_("IMPs per removed board"), "R12.9"),
    "schedule.finals_start": (_("First day of the finals"), "R14.3"),
    "schedule.finals_end": (_("Last day of the finals"), "R14.3"),
    "schedule.preliminary_weekday": (_("Weekday of preliminary rounds"), "R14.1"),
    "schedule.preliminary_start": (_("Start of preliminary rounds"), "R14.1"),
    "schedule.dates_published_within_days": (
        _("Days after the draw to publish the match dates"),
        "R14.1",
    ),
    "schedule.reschedule_notice_days": (_("Days of notice for a rescheduled match"), "R14.2a"),
    "schedule.result_record_deadline": (_("Results recorded by (time)"), "R14.2b"),
    "schedule.record_confirm_hours": (
        _("Hours for the opponents to confirm a match record"),
        "R14.2b",
    ),
    "schedule.record_auto_approve": (
        _("Approve a confirmed match record without the TD"),
        "R14.2b",
    ),
    "appeals.deadline_minutes": (_("Minutes to appeal after the match"), "R16.3"),
    "appeals.deposit": (_("Appeal deposit"), "R16.2"),
    "appeals.committee_size": (_("Members of the appeals committee"), "R16.1"),
    "appeals.early_match_form_deadline": (
        _("Form deadline for matches played early (time)"),
        "R16.4",
    ),
    "systems.one_level_minimum": (_("HCP of a hand worth a one-level opening"), "R6.1"),
    "systems.nt_relay_threshold": (_("Relay rule for a 1NT opening below (HCP)"), "R6.5"),
    "systems.nt_range_limit": (
        _("Such a 1NT's range must be less than (points, inclusive)"),
        "R6.5, I9",
    ),
}


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
            raw = upload.read(MAX_TOML_BYTES + 1)
            if len(raw) > MAX_TOML_BYTES:
                self.add_error(
                    "upload",
                    _("The file is too large for a regulations file (at most %(kb)d kB).")
                    % {"kb": MAX_TOML_BYTES // 1024},
                )
                return data
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("upload", _("The file must be UTF-8 text."))
                return data
            if "\x00" in text:
                self.add_error("upload", _("The file must be UTF-8 text."))
                return data
            data["toml_text"] = text
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


# Readable values: the stages of the knockout (``match.screens_stages``) and the languages.
STAGE_LABELS = {
    regs.Stage.PRELIMINARY: pgettext_lazy("stage of the knockout", "preliminary rounds"),
    regs.Stage.QUARTERFINAL: pgettext_lazy("stage of the knockout", "quarterfinals"),
    regs.Stage.SEMIFINAL: pgettext_lazy("stage of the knockout", "semifinals"),
    regs.Stage.THIRD_PLACE: pgettext_lazy("stage of the knockout", "match for 3rd place"),
    regs.Stage.FINAL: pgettext_lazy("stage of the knockout", "final"),
}
LANGUAGE_LABELS = {"cs": _("Czech"), "en": _("English")}
TEMPLATE_LABELS = {
    "single": _("Single knockout (I1)"),
    "double": _("Double elimination up to and including the semifinal"),
    "double-reset": _(
        "Double elimination with a second final if the unbeaten team loses the first"
    ),
    "single-plate": _("Single knockout with a plate for the first-round losers"),
    "single-placement": _("Single knockout with matches for 5th-8th place"),
}
STAGE_TABLE_KEYS = frozenset({"match.stage_boards", "match.stage_segment_boards"})
MONEY_KEYS = frozenset(
    {"prizes", "fees.returning", "fees.members_only", "fees.other", "appeals.deposit"}
)
"""Amounts of money: shown grouped ("60 000"), the currency named in the help text."""


def value_text(key: str, value: Any) -> str:
    """A regulations value as a reader reads it, in the active language: "5. 3. 1999", "19:00",
    "60 000, 20 000", "čtvrtfinále, semifinále", "pátek", "ano"."""
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if key == "schedule.preliminary_weekday" and isinstance(value, int):
        return str(WEEKDAYS.get(value, value))
    if key == "edition.language" and value in LANGUAGE_LABELS:
        return str(LANGUAGE_LABELS[value])
    if key in STAGE_TABLE_KEYS and isinstance(value, tuple):
        return "; ".join(f"{STAGE_LABELS[stage]}: {number}" for stage, number in value)
    if key == "format.template" and value in TEMPLATE_LABELS:
        return str(TEMPLATE_LABELS[value])
    if isinstance(value, regs.Stage):
        return str(STAGE_LABELS[value])
    if isinstance(value, date):
        return l10n.show_date(value)
    if isinstance(value, time):
        return l10n.show_time(value)
    if isinstance(value, int):
        return l10n.number(value) if key in MONEY_KEYS else str(value)
    if isinstance(value, tuple | list):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return l10n.show_whole_list(list(value), group=key in MONEY_KEYS)
        return ", ".join(value_text(key, v) for v in value)
    return str(value)


def field_label(key: str) -> str:
    """The readable label of a dotted key (its own name when it has none)."""
    return str(FIELD_LABELS[key][0]) if key in FIELD_LABELS else key


_DOTTED_KEY = re.compile(r"\b[a-z_]+\.[a-z_]+\b")


def readable_keys(text: str) -> str:
    """An engine message with each dotted key it names replaced by the key's quoted label
    ("must not be more than entry.max_players (6)" → "… than “Most players in a team” (6)")."""

    def label(match: re.Match[str]) -> str:
        key = match.group(0)
        if key not in FIELD_LABELS:
            return key
        return str(pgettext("quoted text", "“%(text)s”") % {"text": field_label(key)})

    return _DOTTED_KEY.sub(label, text)


def problem_text(problem: regs.RegulationsProblem, *, on_field: bool) -> str:
    """A problem of the regulations as the edit page shows it: next to its field without the
    key (the field's label is there), above the form with the key's label; other keys the
    message names by their labels."""
    if on_field and problem.detail is not None:
        return readable_keys(tr(problem.detail))
    return readable_keys(tr(problem))


class _Kind:
    TEXT, WHOLE, WHOLE_LIST, DATE, TIME, BOOL, STAGES, WEEKDAY, LANGUAGE = range(9)
    STAGE_TABLE, TEMPLATE = 9, 10


def _kind(key: str, value: Any) -> int:
    if key == "match.screens_stages":
        return _Kind.STAGES
    if key in STAGE_TABLE_KEYS:
        return _Kind.STAGE_TABLE
    if key == "format.template":
        return _Kind.TEMPLATE
    if key == "schedule.preliminary_weekday":
        return _Kind.WEEKDAY
    if key == "edition.language":
        return _Kind.LANGUAGE
    if isinstance(value, bool):
        return _Kind.BOOL
    if isinstance(value, int):
        return _Kind.WHOLE
    if isinstance(value, date):
        return _Kind.DATE
    if isinstance(value, time):
        return _Kind.TIME
    if isinstance(value, tuple | list):
        return _Kind.WHOLE_LIST
    return _Kind.TEXT


_EXAMPLE_DATE = date(1999, 3, 5)
_EXAMPLE_TIME = time(19, 0)


def _stage_table(text: str) -> dict[str, Any] | None:
    """ "finále: 8; semifinále: 48" (stage names in either language, or the engine's own) →
    ``{"final": 8, "semifinal": 48}``; a number that is not whole stays text (the engine names
    it); None when a part cannot be read."""
    names: dict[str, str] = {}
    for stage, label in STAGE_LABELS.items():
        names[stage.value] = stage.value
        for language in ("cs", "en"):
            with translation.override(language):
                names[str(label).casefold()] = stage.value
    table: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in re.split(r"[;,]", text))):
        name, sep, number = part.rpartition(":") if ":" in part else part.rpartition("=")
        value = names.get(name.strip().casefold())
        if not sep or value is None:
            return None
        parsed = l10n.parse_whole(number.strip())
        table[value] = number.strip() if parsed is None else parsed
    return table


class EditionEditForm(forms.Form):
    """One field per regulations key, in sections; values shown and read in the reader's
    format ("5. 3. 1999", "60 000", "19:00"); ``to_data()`` rebuilds the engine's dict."""

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
        reg = edition.regulations
        self.current = regs.to_dict(reg)
        self.kinds: dict[str, tuple[str, int]] = {}  # field name -> (dotted key, kind)
        self.sections: list[tuple[str, str, list[str]]] = []
        currency = l10n.currency_name(reg.edition.currency)
        for section in SECTION_ORDER:
            value = self.current.get(section)
            if value is None:
                continue
            names: list[str] = []
            for key in value if isinstance(value, dict) else [None]:
                name = field_name(section, key)
                dotted = f"{section}.{key}" if key else section
                typed = regs.value_of(reg, dotted)
                kind = _kind(dotted, typed)
                label, clause = FIELD_LABELS.get(dotted, (dotted, ""))
                help_parts = [clause]
                if dotted in MONEY_KEYS:
                    help_parts.append(currency)
                self.fields[name] = self._field(kind, label, dotted, typed, help_parts)
                self.kinds[name] = (dotted, kind)
                names.append(name)
            self.sections.append((section, str(SECTION_TITLES[section]), names))

    @staticmethod
    def _field(kind: int, label: Any, key: str, value: Any, help_parts: list[str]) -> forms.Field:
        def help_text() -> str:
            return " · ".join(str(p) for p in help_parts if p)

        if kind == _Kind.STAGES:
            return forms.MultipleChoiceField(
                label=label,
                choices=[(s.value, STAGE_LABELS[s]) for s in regs.Stage],
                initial=[s.value for s in value],
                required=False,
                widget=forms.CheckboxSelectMultiple,
                help_text=help_text(),
            )
        if kind == _Kind.WEEKDAY:
            return forms.TypedChoiceField(
                label=label,
                choices=[(str(n), WEEKDAYS[n]) for n in range(7)],
                coerce=int,
                initial=str(value),
                help_text=help_text(),
            )
        if kind == _Kind.LANGUAGE:
            return forms.ChoiceField(
                label=label,
                choices=list(LANGUAGE_LABELS.items()),
                initial=value,
                help_text=help_text(),
            )
        if kind == _Kind.TEMPLATE:
            return forms.ChoiceField(
                label=label,
                choices=list(TEMPLATE_LABELS.items()),
                initial=value,
                help_text=help_text(),
            )
        if kind == _Kind.STAGE_TABLE:
            help_parts.append(
                str(_("e.g. %(example)s") % {"example": f"{STAGE_LABELS[regs.Stage.FINAL]}: 8"})
            )
        if kind == _Kind.BOOL:
            return forms.BooleanField(
                label=label, initial=value, required=False, help_text=help_text()
            )
        attrs: dict[str, str] = {}
        if kind in (_Kind.WHOLE, _Kind.WHOLE_LIST):
            attrs["inputmode"] = "numeric"
        if kind == _Kind.WHOLE_LIST:
            help_parts.append(str(_("separated by commas or semicolons")))
        if kind == _Kind.DATE:
            help_parts.append(
                str(_("e.g. %(example)s") % {"example": l10n.show_date(_EXAMPLE_DATE)})
            )
        if kind == _Kind.TIME:
            help_parts.append(
                str(_("e.g. %(example)s") % {"example": l10n.show_time(_EXAMPLE_TIME)})
            )
        return forms.CharField(
            label=label,
            initial=value_text(key, value),
            required=False,
            widget=forms.TextInput(attrs=attrs),
            help_text=help_text(),
        )

    def clean(self) -> dict[str, Any]:
        """Reads every value in the reader's format into the engine's types: a whole number
        or a list of them that cannot be read stays text (the engine names the problem); a
        date or time that cannot be read is an error here, saying how to write it."""
        data = super().clean() or {}
        self.values: dict[str, Any] = {}
        for name, (_key, kind) in self.kinds.items():
            raw = data.get(name)
            text = raw.strip() if isinstance(raw, str) else ""
            value: Any = raw
            if kind == _Kind.WHOLE:
                parsed = l10n.parse_whole(text)
                value = text if parsed is None else parsed
            elif kind == _Kind.WHOLE_LIST:
                value = l10n.parse_whole_list(text)
            elif kind == _Kind.DATE:
                value = l10n.parse_date(text)
                if value is None:
                    self.add_error(
                        name,
                        _("Not a date: “%(value)s”. Write it as %(example)s.")
                        % {"value": text, "example": l10n.show_date(_EXAMPLE_DATE)},
                    )
            elif kind == _Kind.TIME:
                value = l10n.parse_time(text)
                if value is None:
                    self.add_error(
                        name,
                        _("Not a time of day: “%(value)s”. Write it as %(example)s.")
                        % {"value": text, "example": l10n.show_time(_EXAMPLE_TIME)},
                    )
            elif kind == _Kind.STAGES:
                value = list(raw or [])
            elif kind == _Kind.STAGE_TABLE:
                value = _stage_table(text)
                if value is None:
                    self.add_error(
                        name,
                        _(
                            "Write each stage and its number as “%(example)s”, separated by "
                            "semicolons."
                        )
                        % {"example": f"{STAGE_LABELS[regs.Stage.FINAL]}: 8"},
                    )
            elif kind == _Kind.TEXT:
                value = text
            self.values[name] = value
        return data

    def to_data(self) -> dict[str, Any]:
        """The values read by :meth:`clean`, in the shape of ``regulations.to_dict``."""
        data: dict[str, Any] = {}
        for section, value in self.current.items():
            if isinstance(value, dict):
                data[section] = {
                    key: self.values.get(field_name(section, key), "") for key in value
                }
            else:
                data[section] = self.values.get(section, "")
        return data

    def section_fields(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[n] for n in names]) for _s, title, names in self.sections]


class AuditFilterForm(forms.Form):
    action = forms.CharField(
        label=_("Action"),
        required=False,
        max_length=SEARCH_MAX_LENGTH,  # a longer prefix matches nothing (and fails on SQLite)
        help_text=pgettext_lazy("audit filter", "a part of its name, e.g. “role”"),
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
