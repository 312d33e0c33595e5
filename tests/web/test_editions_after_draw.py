"""An edition's numbers on the web: the [systems] section (R6, I9) on the edit form and for
editions stored before it existed; edits refused after the draw for the sections the entries
and the draw used; the schedule engine's errors in Czech on the draw pages (R14.1)."""

from __future__ import annotations

import html
import importlib
from dataclasses import replace
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.urls import reverse
from django.utils import translation

from bridgeko.audit.models import AuditEntry
from bridgeko.competition import regulations as regs
from bridgeko.draw.models import MatchDate
from bridgeko.editions import services
from bridgeko.editions.forms import EditionEditForm
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from tests.web.conftest import World, extend
from tests.web.test_draw import announce_and_commit, enter_13, held

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("bridgeko.editions.migrations.0002_regulations_systems_section")


def _edit_data(edition: Edition, **changes: str) -> dict[str, Any]:
    # the form's values in Czech ("5. 3. 1999", "60 000"): read in either language
    with translation.override("cs"):
        form = EditionEditForm(edition=edition)
    data = {name: field.initial for name, field in form.fields.items() if name != "previous"}
    data.update(changes)
    return data


def _edit_url(world: World) -> str:
    return reverse("editions:edit", kwargs={"edition": world.edition.slug})


def _fresh(world: World) -> Edition:
    return Edition.objects.get(pk=world.edition.pk)


# --------------------------------------------------------------------------------------------
# The [systems] section (R6.1, R6.5, I9) on the edit form


def test_R6_systems_section_is_on_the_form_labelled_in_english_and_czech(world: World) -> None:
    form = EditionEditForm(edition=world.edition)
    assert [name for s, _t, name in form.sections if s == "systems"] == [
        ["systems__one_level_minimum", "systems__nt_relay_threshold", "systems__nt_range_limit"]
    ]
    assert [form.fields[f"systems__{k}"].initial for k in ("one_level_minimum",
            "nt_relay_threshold", "nt_range_limit")] == ["12", "16", "5"]  # fmt: skip
    english = html.unescape(world.client("organiser").get(_edit_url(world)).content.decode())
    for text in (
        "Bidding systems",
        "HCP of a hand worth a one-level opening",
        "Relay rule for a 1NT opening below (HCP)",
        "Such a 1NT's range must be less than (points, inclusive)",
        "R6.5, I9",
    ):
        assert text in english, text
    czech = html.unescape(
        world.client("organiser", language="cs").get(_edit_url(world)).content.decode()
    )
    for text in (
        "Dražební systémy",
        "Body (HCP) listu hodného zahájení na prvním stupni",
        "Systém dotazů po zahájení 1 BT s dolní hranicí pod (body)",
        "Rozmezí takového zahájení 1 BT musí být menší než (bodů, včetně krajních)",
    ):
        assert text in czech, text


def test_R6_systems_numbers_are_saved_and_audited(world: World) -> None:
    response = world.client("organiser").post(
        _edit_url(world),
        _edit_data(world.edition, systems__one_level_minimum="11", systems__nt_range_limit="4"),
    )
    assert response.status_code == 302
    edition = _fresh(world)
    assert edition.regulations.systems == regs.SystemRules(11, 16, 4)
    assert "[systems]\none_level_minimum = 11  # R6.1" in edition.regulations_toml
    entry = AuditEntry.objects.get(action="bridgeko.edition.changed")
    assert entry.before["systems"]["one_level_minimum"] == 12
    assert entry.after["systems"]["one_level_minimum"] == 11
    assert set(entry.summary.split(", ")) == {
        "systems.one_level_minimum",
        "systems.nt_range_limit",
    }


def test_R6_bad_systems_number_is_named_next_to_its_field_in_czech(world: World) -> None:
    before = world.edition.regulations_toml
    page = world.client("organiser", language="cs").post(
        _edit_url(world), _edit_data(world.edition, systems__nt_range_limit="1")
    )
    assert page.status_code == 200
    assert page.context["form"].errors["systems__nt_range_limit"] == [
        "musí být celý počet bodů od 2 do 38, ne 1"
    ]
    assert _fresh(world).regulations_toml == before


# --------------------------------------------------------------------------------------------
# Editions stored before the section existed (migration editions.0002)


def _without_systems(text: str) -> str:
    assert "[systems]" in text
    return text[: text.index("[systems]")]


def test_stored_edition_without_systems_section_is_completed(world: World) -> None:
    old = _without_systems(world.edition.regulations_toml)
    Edition.objects.filter(pk=world.edition.pk).update(regulations_toml=old)
    with pytest.raises(regs.RegulationsError, match="systems: missing"):
        regs.loads(old)
    broken = Edition.objects.create(
        slug="broken", name="Broken", year=2000, regulations_toml="prizes = [1, 2"
    )
    other = Edition.objects.create(
        slug="edited",
        name="Edited",
        year=2000,
        regulations_toml=regs.dumps(
            replace(world.edition.regulations, systems=regs.SystemRules(10, 15, 4))
        ),
    )
    edited_text = other.regulations_toml

    MIGRATION.add_systems_section(django_apps, None)

    edition = _fresh(world)
    assert edition.regulations_toml.startswith(old)
    assert MIGRATION.MARKER in edition.regulations_toml
    assert edition.regulations.systems == regs.SystemRules(12, 16, 5)  # the 1999 values
    assert edition.regulations.match == world.edition.regulations.match
    assert Edition.objects.get(pk=broken.pk).regulations_toml == "prizes = [1, 2"  # left alone
    assert Edition.objects.get(pk=other.pk).regulations_toml == edited_text  # has its own
    completed = edition.regulations_toml
    MIGRATION.add_systems_section(django_apps, None)  # a second run changes nothing
    assert _fresh(world).regulations_toml == completed

    client = world.client("organiser")
    for url in (
        reverse("editions:detail", kwargs={"edition": edition.slug}),
        _edit_url(world),
        reverse("editions:dashboard", kwargs={"edition": edition.slug}),
    ):
        assert client.get(url).status_code == 200, url

    MIGRATION.remove_systems_section(django_apps, None)
    assert _fresh(world).regulations_toml == old


# --------------------------------------------------------------------------------------------
# After the draw: entry, fees, rating and draw are fixed; the other sections are not


@pytest.fixture
def teams(world: World) -> list[Team]:
    return extend(world, "teams", enter_13)


def _data(current: Edition, /, **sections: dict[str, Any]) -> dict[str, Any]:
    data = regs.to_dict(current.regulations)
    for section, values in sections.items():
        if isinstance(data[section], dict):
            data[section] = data[section] | values
        else:
            data[section] = values["value"]
    return data


def _snapshot(world: World) -> tuple[str, int]:
    return _fresh(world).regulations_toml, AuditEntry.objects.count()


def test_before_the_draw_every_section_can_change(world: World, teams: list[Team]) -> None:
    announce_and_commit(world)  # announced and committed, not held
    assert not services.draw_held(world.edition)
    services.update_edition(
        edition=world.edition,
        data=_data(world.edition, fees={"other": 1500}, draw={"seeded_divisor": 8}),
        user=world.users["organiser"],
    )
    reg = _fresh(world).regulations
    assert (reg.fees.other, reg.draw.seeded_divisor) == (1500, 8)


@pytest.mark.parametrize(
    ("section", "values", "keys"),
    [
        ("entry", {"min_teams": 10}, ["entry.min_teams"]),
        ("entry", {"deadline": "1999-03-06"}, ["entry.deadline"]),
        ("fees", {"other": 1500, "returning": 400}, ["fees.returning", "fees.other"]),
        ("rating", {"default_team_elo": 600}, ["rating.default_team_elo"]),
        ("draw", {"seeded_divisor": 8}, ["draw.seeded_divisor"]),
    ],
)
def test_after_the_draw_its_sections_are_refused_and_nothing_is_saved(
    world: World, teams: list[Team], section: str, values: dict[str, Any], keys: list[str]
) -> None:
    held(world)
    assert services.draw_held(world.edition)
    before = _snapshot(world)
    # an allowed change in the same request is not saved either (all or nothing)
    data = _data(world.edition, **{section: values}, appeals={"deposit": 300})
    with pytest.raises(services.ChangedAfterDrawError) as info:
        services.update_edition(edition=world.edition, data=data, user=world.users["organiser"])
    assert info.value.keys == tuple(keys)
    assert info.value.sections == (section,)
    assert info.value.message == "The draw has been held: nothing was saved."
    (why,) = info.value.errors
    assert why.startswith(f"The section [{section}] ({', '.join(keys)}) can no longer change: ")
    assert why.endswith(str(services.FIXED_AFTER_DRAW[section]) + ".")
    assert _snapshot(world) == before


def test_after_the_draw_several_sections_are_each_named(world: World, teams: list[Team]) -> None:
    held(world)
    before = _snapshot(world)
    data = _data(world.edition, rating={"default_team_elo": 600}, entry={"min_teams": 9})
    with pytest.raises(services.ChangedAfterDrawError) as info:
        services.update_edition(edition=world.edition, data=data, user=world.users["organiser"])
    assert info.value.sections == ("entry", "rating")
    assert [e.split("]")[0] for e in info.value.errors] == [
        "The section [entry",
        "The section [rating",
    ]
    assert _snapshot(world) == before


def test_after_the_draw_the_other_sections_still_change(world: World, teams: list[Team]) -> None:
    held(world)
    before = AuditEntry.objects.filter(action="bridgeko.edition.changed").count()
    data = _data(
        world.edition,
        match={"segment_minutes": 125},
        penalties={"lateness_imps_per_board": 2},
        schedule={"dates_published_within_days": 21},
        appeals={"deposit": 300},
        prizes={"value": [70000, 20000, 15000, 5000]},
        systems={"one_level_minimum": 11},
        edition={"venue": "Hradec Králové"},
    )
    services.update_edition(edition=world.edition, data=data, user=world.users["organiser"])
    reg = _fresh(world).regulations
    assert reg.match.segment_minutes == 125
    assert reg.penalties.lateness_imps_per_board == 2
    assert reg.schedule.dates_published_within_days == 21
    assert reg.appeals.deposit == 300
    assert reg.prizes == (70000, 20000, 15000, 5000)
    assert reg.systems.one_level_minimum == 11
    assert reg.edition.venue == "Hradec Králové"
    entries = AuditEntry.objects.filter(action="bridgeko.edition.changed")
    assert entries.count() == before + 1
    assert "systems.one_level_minimum" in entries.latest("pk").summary
    # the same numbers again: no fixed section changed, so this is allowed too
    services.update_edition(edition=world.edition, data=data, user=world.users["organiser"])


def test_after_the_draw_the_edit_page_says_why(world: World, teams: list[Team]) -> None:
    held(world)
    before = _snapshot(world)
    client = world.client("organiser")
    page = client.get(_edit_url(world))
    assert "the numbers of the sections Entry, Fees, Rating and Draw can no longer change" in (
        html.unescape(page.content.decode())
    )
    page = client.post(
        _edit_url(world), _edit_data(world.edition, draw__seeded_divisor="8", fees__other="9")
    )
    assert page.status_code == 200
    errors = page.context["form"].errors
    assert errors["draw__seeded_divisor"] == ["Fixed since the draw was held."]
    assert errors["fees__other"] == ["Fixed since the draw was held."]
    assert errors["__all__"] == [
        "The draw has been held: nothing was saved.",
        "The section [fees] (fees.other) can no longer change: the entry fees were decided by "
        "it (R4.1).",
        "The section [draw] (draw.seeded_divisor) can no longer change: the draw was made by it "
        "(R9, R11).",
    ]
    assert _snapshot(world) == before

    page = world.client("organiser", language="cs").post(
        _edit_url(world), _edit_data(world.edition, rating__default_team_elo="600")
    )
    assert page.context["form"].errors["__all__"] == [
        "Losování už proběhlo: nic nebylo uloženo.",
        "Oddíl [rating] (rating.default_team_elo) už nelze měnit: losování nasadilo družstva "
        "podle Ela, které určují (R10, R11.1).",
    ]
    assert page.context["form"].errors["rating__default_team_elo"] == ["Od losování nelze měnit."]
    assert _snapshot(world) == before

    response = client.post(_edit_url(world), _edit_data(world.edition, appeals__deposit="250"))
    assert response.status_code == 302
    assert _fresh(world).regulations.appeals.deposit == 250


# --------------------------------------------------------------------------------------------
# The schedule engine's errors, translated on the draw's pages (R14.1)


def test_R14_1_schedule_error_in_czech(world: World, teams: list[Team]) -> None:
    held(world)  # Friday 12 March 1999
    url = reverse("draw:schedule_defaults", kwargs={"edition": world.edition.slug})
    page = world.client("organiser", language="cs").post(
        url, {"first_date": "1999-03-01"}, follow=True
    )
    text = html.unescape(page.content.decode())
    assert "první kolo rozehrávky (1. 3. 1999) nemůže být před losováním (12. 3. 1999)" in text
    assert "cannot be before the draw" not in text
    page = world.client("organiser").post(url, {"first_date": "1999-06-01"}, follow=True)
    text = html.unescape(page.content.decode())
    assert (
        "preliminary round 1 on 4 June 1999 is not before the finals (4 June 1999); choose an "
        "earlier first date (R14.1)" in text
    )
    assert MatchDate.objects.count() == 0


def test_I12_after_the_draw_the_time_zone_is_fixed(world: World, teams: list[Team]) -> None:
    held(world)
    before = _snapshot(world)
    data = _data(world.edition, edition={"timezone": "Europe/London", "venue": "Náchod"})
    with pytest.raises(services.ChangedAfterDrawError) as info:
        services.update_edition(edition=world.edition, data=data, user=world.users["organiser"])
    assert info.value.keys == ("edition.timezone",)
    (why,) = info.value.errors
    assert why.startswith("The section [edition] (edition.timezone) can no longer change: ")
    assert why.endswith(str(services.FIXED_AFTER_DRAW["edition.timezone"]) + ".")
    assert _snapshot(world) == before


def test_R4_1_after_the_draw_the_previous_edition_is_fixed(world: World, teams: list[Team]) -> None:
    held(world)
    other = services.create_edition(
        slug="ko-1997",
        toml_text=world.edition.regulations_toml,
        user=world.users["organiser"],
    )
    before = _snapshot(world)
    data = _data(world.edition, appeals={"deposit": 300})
    with pytest.raises(services.ServiceError, match="previous edition can no longer change") as e:
        services.update_edition(
            edition=world.edition, data=data, user=world.users["organiser"], previous=other
        )
    assert e.value.field == "previous"
    assert _snapshot(world) == before
