"""Czech formats in Czech, English in English (issue 9): dates, times, amounts on real pages;
inputs that accept "60 000" and "5. 3. 1999"; a readable label for every regulations key.

The expected texts are written out here (not produced by the code under test)."""

from __future__ import annotations

import html
import re
from datetime import date
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from bridgeko.competition import regulations as regs
from bridgeko.core import l10n
from bridgeko.draw.models import MatchDate
from bridgeko.editions.forms import (
    FIELD_LABELS,
    SECTION_TITLES,
    STAGE_LABELS,
    EditionEditForm,
    value_text,
)
from bridgeko.editions.models import Edition
from tests.web.conftest import REGULATIONS_1999, World, demo_loaded
from tests.web.test_entries import NOW, make_players

NBSP = "\xa0"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August")


def _text(response: Any) -> str:
    return html.unescape(response.content.decode())


def _visible(page: str) -> str:
    """The page's text without tags and attributes (what a reader sees)."""
    return re.sub(r"<[^>]*>", " ", page)


# --------------------------------------------------------------------------------------------
# Showing: public pages (dates, times), a team's fee (money)
# --------------------------------------------------------------------------------------------


@pytest.fixture
def demo(db: Any) -> Edition:
    demo_loaded()
    return Edition.objects.get(slug="ko-1999")


def _public(edition: Edition, name: str, language: str) -> str:
    with translation.override(language):  # the language is the public page's URL's
        return _text(Client().get(reverse(name, kwargs={"edition": edition.slug})))


@pytest.mark.django_db
def test_R3_2_R14_public_pages_show_dates_in_the_readers_format(demo: Edition) -> None:
    home_cs = _public(demo, "public:home", "cs")
    assert "5. 3. 1999" in home_cs  # the entry deadline (R3.2)
    assert "4. 6. 1999 – 6. 6. 1999" in home_cs  # the finals (R14.3)
    home_en = _public(demo, "public:home", "en")
    assert "5 March 1999" in home_en and "4 June 1999 – 6 June 1999" in home_en
    for page in (home_cs, home_en):
        assert "1999-03-05" not in page and "1999-06-04" not in page

    first = MatchDate.objects.filter(draw__edition=demo).order_by("start").first()
    assert first is not None
    start = timezone.localtime(first.start)
    schedule_cs = _public(demo, "public:schedule", "cs")
    schedule_en = _public(demo, "public:schedule", "en")
    assert f"{start.day}. {start.month}. {start.year} {start.hour}:{start.minute:02d}" in (
        schedule_cs
    )
    month = MONTHS[start.month - 1]
    assert f"{start.day} {month} {start.year}, {start.hour:02d}:{start.minute:02d}" in (schedule_en)
    assert "4. 6. 1999" in schedule_cs and "4 June 1999" in schedule_en
    iso = start.strftime("%Y-%m-%d")
    assert iso not in _visible(schedule_cs) and iso not in _visible(schedule_en)


@pytest.mark.django_db
def test_R4_1_team_fee_as_1_200_Kc_in_czech_and_CZK_1_200_in_english(world: World) -> None:
    organiser = world.users["organiser"]
    from bridgeko.entries import services

    team = services.create_team(
        edition=world.edition,
        name="Noví",
        roster=[*make_players(4), *make_players(1, member=False, start=50)],
        user=organiser,
        now=NOW,
    )
    url = reverse("entries:detail", kwargs={"edition": world.edition.slug, "team": team.pk})
    czech = _text(world.client("organiser", "cs").get(url))
    english = _text(world.client("organiser", "en").get(url))
    assert f"<strong>1{NBSP}200{NBSP}Kč</strong>" in czech  # the fee due (R4.1)
    assert f"R4.1: 1{NBSP}200 Kč pro družstvo" in czech  # the engine's reason
    assert "1200 CZK" not in czech
    assert f"<strong>CZK{NBSP}1,200</strong>" in english
    assert "R4.1: 1,200 CZK for a team" in english
    teams_cs = _text(world.client("organiser", "cs").get(reverse(
        "entries:list", kwargs={"edition": world.edition.slug})))  # fmt: skip
    assert f"1{NBSP}200{NBSP}Kč" in teams_cs


# --------------------------------------------------------------------------------------------
# Reading: the settings form, the fee form
# --------------------------------------------------------------------------------------------


def _settings(world: World, language: str, **changes: Any) -> dict[str, Any]:
    with translation.override(language):
        form = EditionEditForm(edition=world.edition)
        data = {n: f.initial for n, f in form.fields.items() if n != "previous"}
    return data | changes


def _edit_url(world: World) -> str:
    return reverse("editions:edit", kwargs={"edition": world.edition.slug})


def _fresh(world: World) -> regs.Regulations:
    return Edition.objects.get(pk=world.edition.pk).regulations


@pytest.mark.django_db
def test_settings_form_shows_values_in_czech_and_in_english(world: World) -> None:
    with translation.override("cs"):
        form = EditionEditForm(edition=world.edition)
        assert form.fields["prizes"].initial == f"60{NBSP}000, 20{NBSP}000, 15{NBSP}000, 5{NBSP}000"
        assert form.fields["entry__deadline"].initial == "5. 3. 1999"
        assert form.fields["schedule__preliminary_start"].initial == "19:00"
        assert form.fields["fees__other"].initial == f"1{NBSP}200"
        assert form.fields["edition__year"].initial == "1999"  # a year is not grouped
    with translation.override("en"):
        form = EditionEditForm(edition=world.edition)
        assert form.fields["prizes"].initial == "60,000; 20,000; 15,000; 5,000"
        assert form.fields["entry__deadline"].initial == "5 March 1999"
    page = _text(world.client("organiser", "cs").get(_edit_url(world)))
    seen = _visible(page)
    for text in ("čtvrtfinále", "semifinále", "utkání o 3. místo", "finále", "pátek", "19:00"):
        assert text in seen, text
    assert 'value="4" selected' in page  # Friday (R14.1)
    for internal in ("match.screens_stages", "quarterfinal", "third_place", "1999-03-05"):
        assert internal not in seen, internal


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "prizes", "deadline"),
    [
        ("cs", "70 000, 20 000, 15 000, 5 000", "4. 3. 1999"),
        ("cs", f"70{NBSP}000, 20{NBSP}000, 15{NBSP}000, 5{NBSP}000", "4.3.1999"),
        ("cs", "70000, 20000, 15000, 5000", "1999-03-04"),
        ("en", "70,000; 20,000; 15,000; 5,000", "4 March 1999"),
        ("en", "70,000, 20,000, 15,000, 5,000", "1999-03-04"),
    ],
)
def test_R5_1_prize_60_000_and_date_5_3_1999_are_read(
    world: World, language: str, prizes: str, deadline: str
) -> None:
    data = _settings(world, language, prizes=prizes, entry__deadline=deadline)
    response = world.client("organiser", language).post(_edit_url(world), data)
    assert response.status_code == 302, response.context["form"].errors
    reg = _fresh(world)
    assert reg.prizes == (70000, 20000, 15000, 5000)
    assert reg.entry.deadline == date(1999, 3, 4)
    assert reg.schedule.preliminary_start.hour == 19  # unchanged values read back unchanged
    assert reg.match.screens_stages == regs.MatchRules().screens_stages


@pytest.mark.django_db
def test_settings_form_saves_readable_choices(world: World) -> None:
    data = _settings(
        world,
        "cs",
        match__screens_stages=["semifinal", "final"],
        schedule__preliminary_weekday="3",
        fees__other="1 500",
        schedule__preliminary_start="18:30",
    )
    response = world.client("organiser", "cs").post(_edit_url(world), data)
    assert response.status_code == 302
    reg = _fresh(world)
    assert reg.match.screens_stages == (regs.Stage.SEMIFINAL, regs.Stage.FINAL)
    assert reg.schedule.preliminary_weekday == 3
    assert reg.fees.other == 1500
    assert str(reg.schedule.preliminary_start) == "18:30:00"


@pytest.mark.django_db
def test_settings_form_names_the_field_and_the_format_of_a_bad_date(world: World) -> None:
    before = world.edition.regulations_toml
    data = _settings(world, "cs", entry__deadline="31. 2. 1999", schedule__finals_end="zítra")
    page = world.client("organiser", "cs").post(_edit_url(world), data)
    assert page.status_code == 200
    errors = page.context["form"].errors
    assert errors["entry__deadline"] == [
        "Toto není datum: „31. 2. 1999“. Zapište ho jako 5. 3. 1999."
    ]
    assert errors["schedule__finals_end"] == [
        "Toto není datum: „zítra“. Zapište ho jako 5. 3. 1999."
    ]
    data = _settings(world, "en", schedule__preliminary_start="7 pm")
    page = world.client("organiser", "en").post(_edit_url(world), data)
    assert page.context["form"].errors["schedule__preliminary_start"] == [
        "Not a time of day: “7 pm”. Write it as 19:00."
    ]
    assert Edition.objects.get(pk=world.edition.pk).regulations_toml == before


@pytest.mark.django_db
def test_settings_form_refuses_60_000_with_a_decimal_comma_in_czech(world: World) -> None:
    """In Czech "60,000" is sixty: not taken for sixty thousand, the engine names the field."""
    data = _settings(world, "cs", fees__other="60,000")
    page = world.client("organiser", "cs").post(_edit_url(world), data)
    assert page.status_code == 200
    assert page.context["form"].errors["fees__other"] == [
        "musí být celé číslo 0 nebo větší, ne „60,000“"
    ]


@pytest.mark.django_db
def test_R4_1_fee_decided_by_the_organiser_typed_with_a_space(world: World) -> None:
    from bridgeko.entries import services

    team = services.create_team(
        edition=world.edition, name="Orli", roster=make_players(4), user=world.users["organiser"],
        now=NOW,
    )  # fmt: skip
    url = reverse("entries:fee", kwargs={"edition": world.edition.slug, "team": team.pk})
    client = world.client("organiser", "cs")
    response = client.post(url, {"amount": "1 500", "reason": "dohoda"})
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.fee_override_amount == 1500
    page = client.post(url, {"amount": "1,5", "reason": "x"})
    assert page.context["form"].errors["amount"] == [f"Zadejte celé číslo, např. 60{NBSP}000."]
    english = world.client("organiser", "en").post(url, {"amount": "2,000", "reason": "deal"})
    assert english.status_code == 302
    team.refresh_from_db()
    assert team.fee_override_amount == 2000


# --------------------------------------------------------------------------------------------
# Labels: every key of the regulations, every value
# --------------------------------------------------------------------------------------------


def test_every_regulations_key_has_a_label_with_its_czech_translation() -> None:
    missing, untranslated = [], []
    for key in regs.all_keys():
        if key not in FIELD_LABELS:
            missing.append(key)
            continue
        label = FIELD_LABELS[key][0]
        with translation.override("en"):
            english = str(label)
        with translation.override("cs"):
            czech = str(label)
        if czech == english:
            untranslated.append(key)
    assert missing == [] and untranslated == []
    sections = {key.split(".")[0] for key in regs.all_keys() if "." in key}
    assert sections <= set(SECTION_TITLES)
    with translation.override("cs"):
        assert {str(v) for v in SECTION_TITLES.values()}.isdisjoint({"Entry", "Fees", "Draw"})


def test_every_stage_and_value_reads_as_text_in_czech() -> None:
    reg = regs.load(REGULATIONS_1999)
    assert set(STAGE_LABELS) == set(regs.Stage)
    with translation.override("cs"):
        assert value_text("match.screens_stages", reg.match.screens_stages) == (
            "čtvrtfinále, semifinále, utkání o 3. místo, finále"
        )
        assert value_text("schedule.preliminary_weekday", 4) == "pátek"
        assert value_text("edition.language", "cs") == "čeština"
        assert value_text("x.flag", True) == "ano"
        texts = {key: value_text(key, regs.value_of(reg, key)) for key in regs.all_keys()}
    stage_values = {s.value for s in regs.Stage}
    for key, text in texts.items():
        assert not re.search(r"\d{4}-\d\d-\d\d", text), (key, text)
        assert not any(v in text for v in stage_values), (key, text)
    with translation.override("en"):
        assert value_text("match.screens_stages", reg.match.screens_stages) == (
            "quarterfinals, semifinals, match for 3rd place, final"
        )


# --------------------------------------------------------------------------------------------
# The helpers (bridgeko.core.l10n)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "text", "number"),
    [
        ("cs", "60 000", 60000),
        ("cs", f"60{NBSP}000", 60000),
        ("cs", "60\u202f000", 60000),
        ("cs", "60000", 60000),
        ("cs", " 1999 ", 1999),
        ("cs", "60,000", None),
        ("cs", "6 00", None),
        ("cs", "x", None),
        ("cs", "9" * 100, None),
        ("en", "60,000", 60000),
        ("en", "1,200,000", 1200000),
        ("en", "60 000", 60000),
        ("en", "60,00", None),
    ],
)
def test_whole_numbers_are_read_as_people_type_them(
    language: str, text: str, number: int | None
) -> None:
    with translation.override(language):
        assert l10n.parse_whole(text) == number


def test_money_dates_and_times_in_czech_and_english() -> None:
    with translation.override("cs"):
        assert l10n.money(1200, "CZK") == f"1{NBSP}200{NBSP}Kč"
        assert l10n.money(300, "EUR") == f"300{NBSP}€"
        assert l10n.show_date(date(1999, 3, 5)) == "5. 3. 1999"
        assert l10n.parse_date("5. 3. 1999") == l10n.parse_date("5.3.1999") == date(1999, 3, 5)
        assert l10n.parse_date("1999-03-05") == date(1999, 3, 5)
        assert l10n.parse_date("3/5/1999") is None  # which day is it?
        assert str(l10n.parse_time("19:00")) == "19:00:00"
    with translation.override("en"):
        assert l10n.money(1200, "CZK") == f"CZK{NBSP}1,200"
        assert l10n.show_date(date(1999, 3, 5)) == "5 March 1999"
        assert l10n.parse_date("5 March 1999") == date(1999, 3, 5)
        assert l10n.parse_date("5. 3. 1999") == date(1999, 3, 5)
