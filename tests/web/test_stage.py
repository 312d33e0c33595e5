"""The edition's stage, stored on the edition (entries open → entries closed → draw held → in play
→ finished, or cancelled): moved only by the services that move it, each move audited; the apps
below the draw read it instead of asking the draw app."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.competition import regulations as regs
from bridgeko.core.errors import ServiceError
from bridgeko.draw.models import Draw
from bridgeko.editions.models import Edition, EditionStage
from bridgeko.editions.services import StageError, draw_held, move_stage, update_edition
from bridgeko.entries import services as entry_services
from bridgeko.entries.models import EntriesClosing
from tests.web.conftest import World
from tests.web.test_draw import DRAW_AT, enter_13, held
from tests.web.test_entries import NOW, enter_team, make_players

FILL_FROM_CLOSING = importlib.import_module(
    "bridgeko.entries.migrations.0002_edition_stage_from_closing"
)
FILL_FROM_DRAW = importlib.import_module("bridgeko.draw.migrations.0002_edition_stage_from_draw")


def _stage(world: World) -> str:
    return Edition.objects.get(pk=world.edition.pk).stage


def _moves(world: World) -> list[tuple[str, str]]:
    return [
        (e.before["stage"], e.after["stage"])
        for e in AuditEntry.objects.filter(
            edition=world.edition, action="bridgeko.edition.stage_changed"
        ).order_by("at", "id")
    ]


def test_a_new_edition_has_its_entries_open(world: World) -> None:
    assert _stage(world) == EditionStage.ENTRIES_OPEN
    assert not world.edition.draw_held


def test_closing_reopening_and_the_draw_move_the_stage_each_audited(world: World) -> None:
    organiser = world.users["organiser"]
    enter_13(world)  # closes the entries
    assert _stage(world) == EditionStage.ENTRIES_CLOSED
    entry_services.reopen_entries(edition=world.edition, reason="chyba", user=organiser, now=NOW)
    assert _stage(world) == EditionStage.ENTRIES_OPEN
    entry_services.close_entries(edition=world.edition, user=organiser, now=NOW)
    held(world)
    assert _stage(world) == EditionStage.DRAW_HELD
    assert _moves(world) == [
        ("entries_open", "entries_closed"),
        ("entries_closed", "entries_open"),
        ("entries_open", "entries_closed"),
        ("entries_closed", "draw_held"),
    ]
    entry = AuditEntry.objects.filter(action="bridgeko.edition.stage_changed").first()  # newest
    assert entry is not None and entry.display_summary == "Stage: Entries closed → Draw held"


def test_R8_1_too_few_teams_cancel_the_edition(world: World) -> None:
    organiser = world.users["organiser"]
    enter_team(world.edition, "Sám", make_players(4), organiser)
    closing = entry_services.close_entries(edition=world.edition, user=organiser, now=NOW)
    assert closing.cancelled
    assert _stage(world) == EditionStage.CANCELLED
    entry_services.reopen_entries(edition=world.edition, reason="omyl", user=organiser, now=NOW)
    assert _stage(world) == EditionStage.ENTRIES_OPEN


def test_only_the_allowed_moves_happen_and_a_refused_one_saves_nothing(world: World) -> None:
    organiser = world.users["organiser"]
    count = AuditEntry.objects.count()
    for wrong in (EditionStage.DRAW_HELD, EditionStage.IN_PLAY, EditionStage.FINISHED):
        with pytest.raises(StageError, match="Entries open"):
            move_stage(edition=world.edition, to=wrong, user=organiser)
    assert isinstance(StageError("x"), ServiceError)
    assert _stage(world) == EditionStage.ENTRIES_OPEN
    assert AuditEntry.objects.count() == count
    with pytest.raises(ValueError):
        move_stage(edition=world.edition, to="nowhere", user=organiser)


def test_the_draw_held_edition_moves_to_in_play_then_finished(world: World) -> None:
    organiser = world.users["organiser"]
    enter_13(world)
    held(world)
    with pytest.raises(StageError):
        move_stage(edition=world.edition, to=EditionStage.FINISHED, user=organiser)
    move_stage(edition=world.edition, to=EditionStage.IN_PLAY, user=organiser, at=DRAW_AT)
    assert world.edition.stage == _stage(world) == EditionStage.IN_PLAY
    assert draw_held(world.edition)  # in play: the draw was held
    move_stage(edition=world.edition, to=EditionStage.FINISHED, user=organiser)
    assert _stage(world) == EditionStage.FINISHED
    for anywhere in EditionStage:
        with pytest.raises(StageError):
            move_stage(edition=world.edition, to=anywhere, user=organiser)
    assert _moves(world)[-2:] == [("draw_held", "in_play"), ("in_play", "finished")]


def test_the_lower_apps_read_the_stage_not_the_draw(world: World) -> None:
    """The editions and entries apps decide "the draw is held" by the stage alone: with the
    stage set and no draw at all, the fixed sections and the reopening are refused."""
    organiser = world.users["organiser"]
    enter_13(world)
    Edition.objects.filter(pk=world.edition.pk).update(stage=EditionStage.DRAW_HELD)
    assert not Draw.objects.filter(edition=world.edition).exists()
    data = regs.to_dict(world.edition.regulations)
    data["fees"]["other"] += 100
    with pytest.raises(ServiceError, match="The draw has been held"):
        update_edition(edition=world.edition, data=data, user=organiser)
    with pytest.raises(ServiceError, match="draw has been made"):
        entry_services.reopen_entries(
            edition=world.edition, reason="chyba", user=organiser, now=NOW
        )
    assert EntriesClosing.objects.filter(edition=world.edition).exists()


def test_the_edition_page_shows_the_stage(world: World) -> None:
    url = reverse("editions:detail", kwargs={"edition": world.edition.slug})
    assert "Entries open" in world.client("anonymous").get(url).content.decode()
    enter_13(world)
    held(world)
    assert "Draw held" in world.client("anonymous").get(url).content.decode()
    czech = world.client("anonymous", "cs").get(url).content.decode()
    assert "Los proveden" in czech


def test_the_data_migrations_fill_the_stage_of_stored_editions(world: World) -> None:
    """Editions stored before the stage existed: closed, cancelled, drawn."""
    enter_13(world)
    held(world)
    cancelled = Edition.objects.create(
        slug="zruseno", name="Zrušeno", year=2000, regulations_toml=world.edition.regulations_toml
    )
    EntriesClosing.objects.create(
        edition=cancelled, closed_at=NOW, cancelled=True, reason="too few teams"
    )
    fresh = Edition.objects.create(
        slug="nove", name="Nové", year=2001, regulations_toml=world.edition.regulations_toml
    )
    Edition.objects.update(stage=EditionStage.ENTRIES_OPEN)  # as editions.0003 left them

    FILL_FROM_CLOSING.forward(django_apps, None)
    FILL_FROM_DRAW.forward(django_apps, None)

    stages = dict(Edition.objects.values_list("slug", "stage"))
    assert stages == {
        world.edition.slug: "draw_held",
        "zruseno": "cancelled",
        "nove": "entries_open",
    }
    assert Edition.objects.get(pk=fresh.pk).stage == EditionStage.ENTRIES_OPEN
