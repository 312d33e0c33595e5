"""The regulations' problems (``bridgeko.competition.regulations``) and the schedule's deadline
on the edition and draw pages, in Czech. The Czech texts are written out by hand here."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from bridgeko.competition import regulations as regs
from bridgeko.competition import schedule
from bridgeko.core.i18n import tr
from bridgeko.editions.forms import EditionEditForm
from bridgeko.editions.models import Edition
from tests.web.conftest import World


def _edit_data(world: World, **changes: str) -> dict[str, Any]:
    # the form's values in Czech ("5. 3. 1999", "60 000"): read in either language
    with translation.override("cs"):
        form = EditionEditForm(edition=world.edition)
    data = {name: field.initial for name, field in form.fields.items() if name != "previous"}
    data.update(changes)
    return data


def test_problem_keeps_its_english_text_and_gains_a_template() -> None:
    with pytest.raises(regs.RegulationsError) as info:
        regs.loads(
            "[match]\nboards = 'x'\n"  # one bad value, every other key missing
        )
    problem = next(p for p in info.value.problems if p.key == "match.boards")
    assert str(problem) == "match.boards: must be a positive whole number, not 'x'"
    assert problem.message == "must be a positive whole number, not 'x'"
    assert problem.detail is not None and problem.detail.template == regs.NOT_POSITIVE_INT
    assert str(problem.text) == str(problem)
    # equality ignores the template (problems built by hand still compare equal)
    assert problem == regs.RegulationsProblem("match.boards", problem.message)


def test_problem_in_czech() -> None:
    with pytest.raises(regs.RegulationsError) as info:
        regs.loads("[match]\nboards = 'x'\nbogus = 1\n")
    problems = {p.key: p for p in info.value.problems}
    with translation.override("cs"):
        assert tr(problems["match.boards"]) == "match.boards: musí být kladné celé číslo, ne „x“"
        assert tr(problems["match.bogus"]) == "neznámý klíč „match.bogus“"
        assert tr(problems["prizes"]) == "prizes: chybí"
    with translation.override("en"):
        # the engine's own text keeps Python's quotes; the reader gets the language's quotes
        assert tr(problems["match.boards"]) == str(problems["match.boards"]).replace("'x'", "“x”")


def test_edit_page_shows_the_problem_next_to_the_field_in_czech(world: World) -> None:
    client = world.client("organiser", language="cs")
    before = world.edition.regulations_toml
    page = client.post(
        reverse("editions:edit", kwargs={"edition": world.edition.slug}),
        _edit_data(world, match__boards="x", entry__min_players="9"),
    )
    assert page.status_code == 200
    errors = page.context["form"].errors
    # next to its field without the key; another key named by its label (issue 9)
    assert errors["match__boards"] == ["musí být kladné celé číslo, ne „x“"]
    assert errors["entry__min_players"] == [
        "nesmí být víc než „Největší počet hráčů družstva“ (6), ne 9"
    ]
    text = html.unescape(page.content.decode())
    assert "musí být kladné celé číslo" in text and "must be" not in text
    assert Edition.objects.get(pk=world.edition.pk).regulations_toml == before


def test_create_page_lists_the_problems_of_an_upload_in_czech(world: World, toml_1999: str) -> None:
    broken = toml_1999.replace("deadline = 1999-03-05", "deadline = 5")
    page = world.client("registrar", language="cs").post(
        reverse("editions:create"),
        {"slug": "rozbita", "upload": SimpleUploadedFile("r.toml", broken.encode())},
    )
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert "entry.deadline: není datum (pište RRRR-MM-DD): 5" in text
    assert not Edition.objects.filter(slug="rozbita").exists()


def test_schedule_deadline_text_in_czech(world: World) -> None:
    reg = world.edition.regulations
    deadline = schedule.dates_publication_deadline(reg.entry.deadline, reg)
    with translation.override("cs"):
        text = tr(deadline.detail)
    assert text.startswith("zveřejnit termíny utkání rozehrávky do ")
    assert text.endswith("(R14.1)")


def test_R14_1_dashboard_deadline_in_czech(world: World) -> None:
    from tests.web.test_draw import enter_13, held

    enter_13(world)
    held(world)
    client = world.client("organiser", language="cs")
    page = client.get(reverse("editions:dashboard", kwargs={"edition": world.edition.slug}))
    text = html.unescape(page.content.decode())
    # the draw on 12 March 1999; the dates within 14 days (R14.1), by the end of that day (I12)
    assert "zveřejnit termíny utkání rozehrávky do 26. 3. 1999 23:59 CET (R14.1)" in text
    assert "publish the dates" not in text
