"""The rules engine's messages on the web pages, in Czech (the site's default) and in English.

The engine words them in English from templates (``bridgeko.competition.messages``); the pages
translate them with ``bridgeko.core.i18n.tr`` and the project catalogue. The Czech texts below are
written out by hand, not computed by the code under test.
"""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from bridgeko.competition import entries as rules
from bridgeko.competition import sanctions
from bridgeko.competition.messages import Message
from bridgeko.core.errors import ServiceError
from bridgeko.core.i18n import tr, tr_stored
from bridgeko.draw import services as draw_services
from bridgeko.draw.models import Draw, DrawNumber
from bridgeko.entries import services
from bridgeko.entries.models import EntriesClosing, Team
from bridgeko.public import render
from tests.web.conftest import CAPTAIN_TEAM_ID, REPO, World
from tests.web.test_entries import NOW, enter_team, make_players


def _page(client: Any, url: str) -> str:
    """The page in the client's language (a public page: its address without the language,
    redirected to the reader's)."""
    if url.startswith(("/en/", "/cs/")):
        url = url[3:]
    response = client.get(url, follow=True)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.fixture
def organiser(world: World) -> Any:
    return world.users["organiser"]


# ---------------------------------------------------------------- R7 roster problems


@pytest.mark.django_db
def test_R7_1_roster_problem_shown_in_czech(world: World) -> None:
    make_players(7)
    data = {"name": "Sedm", "roster": "\n".join(f"CZ{k:03d}" for k in range(1, 8))}
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    cs = html.unescape(world.client("organiser", "cs").post(url, data).content.decode())
    assert "družstvo má 4 až 6 hráčů; počet hráčů na této soupisce: 7 (R7.1)" in cs
    assert "a team has 4 to 6 players" not in cs
    en = html.unescape(world.client("organiser", "en").post(url, data).content.decode())
    assert "a team has 4 to 6 players; this roster has 7 (R7.1)" in en
    assert not Team.objects.exclude(pk=CAPTAIN_TEAM_ID).exists()  # none entered


@pytest.mark.django_db
def test_R7_3_player_on_two_rosters_in_czech(world: World, organiser: Any) -> None:
    players = make_players(5)
    services.create_team(
        edition=world.edition, name="Orli", roster=players[:4], user=organiser, now=NOW
    )
    url = reverse("entries:create", kwargs={"edition": world.edition.slug})
    roster = "\n".join(f"CZ{k:03d}" for k in (5, 1, 2, 3))
    page = html.unescape(
        world.client("organiser", "cs")
        .post(url, {"name": "Lvi", "roster": roster})
        .content.decode()
    )
    for k in (1, 2, 3):  # named by the federation id, not the database key
        assert f"Hráč {k:03d} (CZ{k:03d}) už je na soupisce družstva Orli (R7.3)" in page


@pytest.mark.django_db
def test_R7_2_frozen_roster_message_in_czech(world: World, organiser: Any) -> None:
    players = make_players(5)
    team = enter_team(world.edition, "Orli", players[:4], organiser)
    with translation.override("cs"), pytest.raises(ServiceError) as info:
        services.update_team(team=team, name="Orli", roster=players[1:5], user=organiser, now=NOW)
    assert info.value.message == (
        "R7.2: soupisku nelze po podání přihlášky měnit; výjimku může povolit jen hlavní "
        "rozhodčí soutěže, a to s odůvodněním"
    )


def test_R15_3_barred_player_in_czech() -> None:
    (problem,) = sanctions.check_not_barred([1, 2, 3, 4], {3}, names={3: "Eva Malá"})
    with translation.override("cs"):
        assert tr(problem) == (
            "Eva Malá (3) má v tomto ročníku zákaz startu za nenastoupení k utkání bez včasné "
            "omluvy (R15.3)"
        )
    with translation.override("en"):
        assert tr(problem) == str(problem)


# ---------------------------------------------------------------- R4.1 fees, R3 conditions


@pytest.mark.django_db
def test_R4_1_fee_reason_and_R3_conditions_shown_in_czech(world: World, organiser: Any) -> None:
    members = make_players(4)
    outsider = make_players(1, member=False, start=50)[0]
    team = services.create_team(
        edition=world.edition, name="Noví", roster=[*members, outsider], user=organiser, now=NOW
    )
    url = reverse("entries:detail", kwargs={"edition": world.edition.slug, "team": team.pk})
    cs = _page(world.client("organiser", "cs"), url)
    assert "R4.1: 1\xa0200 Kč pro družstvo s hráči, kteří nejsou členy ČBS (Hráč 050 (CZ050))" in cs
    assert "přihláška: nedoručeno (R3.1a)" in cs
    assert "konvenční karty: počet ohlášených dvojic: 0;" in cs
    assert "vklad: nedoručeno (R3.1c)" in cs
    assert "not received" not in cs
    en = _page(world.client("organiser", "en"), url)
    assert (
        "R4.1: 1,200 CZK for a team with players who are not ČBS members (Hráč 050 (CZ050))" in en
    )
    assert "entry form: not received (R3.1a)" in en
    dashboard = _page(
        world.client("organiser", "cs"),
        reverse("editions:dashboard", kwargs={"edition": world.edition.slug}),
    )
    assert "přihláška: nedoručeno (R3.1a)" in dashboard


@pytest.mark.django_db
def test_I4_fee_override_reason_in_czech(world: World, organiser: Any) -> None:
    team = services.create_team(
        edition=world.edition, name="Noví", roster=make_players(4), user=organiser, now=NOW
    )
    services.override_fee(team=team, amount=300, reason="sponzor", user=organiser, now=NOW)
    url = reverse("entries:fee", kwargs={"edition": world.edition.slug, "team": team.pk})
    cs = _page(world.client("organiser", "cs"), url)
    assert (
        "rozhodnutí pořadatele (I4): 300 Kč místo 600 Kč (podle pravidel: "
        "R4.1: 600 Kč pro nové družstvo složené jen ze členů ČBS) — sponzor"
    ) in cs


@pytest.mark.django_db
def test_I4_override_without_reason_refused_in_czech(world: World, organiser: Any) -> None:
    team = services.create_team(
        edition=world.edition, name="Noví", roster=make_players(4), user=organiser, now=NOW
    )
    with translation.override("cs"), pytest.raises(ServiceError) as info:
        services.override_fee(team=team, amount=0, reason=" ", user=organiser, now=NOW)
    assert info.value.message == "změna vkladu rozhodnutím pořadatele musí být odůvodněna (I4)"


@pytest.mark.django_db
def test_R3_2_late_condition_in_czech(world: World, organiser: Any) -> None:
    from datetime import date

    team = enter_team(
        world.edition, "Pozdní", make_players(4), organiser, received=date(1999, 3, 6)
    )
    url = reverse("entries:detail", kwargs={"edition": world.edition.slug, "team": team.pk})
    cs = _page(world.client("organiser", "cs"), url)
    assert "přihláška: doručeno 6. 3. 1999, po uzávěrce 5. 3. 1999 (R3.2)" in cs


# ---------------------------------------------------------------- R8.1 closing reason


@pytest.mark.django_db
def test_R8_1_closing_reason_in_czech(world: World, organiser: Any) -> None:
    enter_team(world.edition, "Orli", make_players(4), organiser)
    closing = services.close_entries(edition=world.edition, user=organiser, now=NOW)
    assert closing.cancelled
    czech = (
        "R8.1: podmínky účasti do 5. 3. 1999 splnila družstva v počtu 1, tedy méně než 8: "
        "soutěž se ruší a vklady budou vráceny"
    )
    public = reverse("public:home", kwargs={"edition": world.edition.slug})
    assert czech in _page(world.client("anonymous", "cs"), public)
    english = closing.reason.replace("1999-03-05", "5 March 1999")  # the reader's format
    assert english in _page(world.client("anonymous", "en"), public)
    for name in ("entries:closing", "entries:list"):
        url = reverse(name, kwargs={"edition": world.edition.slug})
        assert czech in _page(world.client("organiser", "cs"), url)
    # A stored reason the engine no longer words the same way is shown as stored.
    EntriesClosing.objects.filter(pk=closing.pk).update(reason="R8.1: decided by hand")
    render.forget()  # written past the services (no audit entry): the kept page is dropped
    assert "R8.1: decided by hand" in _page(world.client("anonymous", "cs"), public)


def test_tr_stored_translates_only_an_exact_match() -> None:
    candidate = Message(rules.NOT_RECEIVED)
    with translation.override("cs"):
        assert tr_stored("not received", candidate) == "nedoručeno"
        assert tr_stored("something else", candidate) == "something else"
        assert tr("plain text") == "plain text"
        assert tr(None) == ""


# ---------------------------------------------------------------- R11.3, I3 manual draw


@pytest.mark.django_db
def test_R11_3_manual_draw_error_in_czech(world: World) -> None:
    from tests.web.test_draw import DRAW_AT, enter_13

    teams = enter_13(world)
    draw_services.announce_draw(
        edition=world.edition, place="Klub", at=DRAW_AT, user=world.users["organiser"], now=NOW
    )
    drawn = [t.name for t in reversed(teams[4:])][:-1]  # Tým 04 (unseeded) left out
    url = reverse("draw:manual", kwargs={"edition": world.edition.slug})
    data = {"drawn_at": "1999-03-12 18:00", "drawn_order": "\n".join(drawn)}
    response = world.client("organiser", "cs").post(url, data)
    page = html.unescape(response.content.decode())
    assert (
        f"družstvo {teams[4].pk} (Tým 04) není nasazené a musí být v pořadí z losování (R11.3)"
    ) in page
    assert DrawNumber.objects.count() == 0


@pytest.mark.django_db
def test_I8_public_draw_page_shows_the_engines_check_in_czech(world: World) -> None:
    from tests.web.test_draw import enter_13, held

    enter_13(world)
    draw = held(world)
    url = reverse("public:draw", kwargs={"edition": world.edition.slug})
    page = _page(world.client("anonymous", "cs"), url)
    assert (
        "Zkontrolováno tímto programem: Bridge Open K.O. 1999: družstev 13, schéma pro 16, "
        "nasazeno 4; osudí odpovídá otisku, pořadí losu i čísla přepočítána"
    ) in page
    en = _page(world.client("anonymous", "en"), url)
    assert "Checked by this program: Bridge Open K.O. 1999: 13 teams, scheme for 16" in en
    doc = json.loads(draw.protocol)
    doc["scheme_size"] = 32
    Draw.objects.filter(pk=draw.pk).update(protocol=json.dumps(doc))
    render.forget()  # written past the services (no audit entry): the kept page is dropped
    page = _page(world.client("anonymous", "cs"), url)
    assert "velikost schématu je zapsána jako 32; počtu družstev 13 odpovídá 16 (R9.2)" in page
    assert "počet problémů v protokolu (náhodné losování, Bridge Open K.O. 1999): " in page


# ---------------------------------------------------------------- the catalogue


def _engine_templates() -> list[str]:
    out: list[str] = []
    modules = sorted((REPO / "src" / "bridgeko" / "competition").glob("*.py"))
    modules.append(REPO / "src" / "bridgeko" / "bridge" / "commit_reveal.py")  # the seed rule
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        out += [
            str(node.args[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "N_"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ]
    return out


def test_every_engine_template_has_a_czech_translation() -> None:
    """Each N_() template of the engine is in the project catalogue with a Czech msgstr that
    keeps exactly its placeholders (no fuzzy entry)."""
    po = Path(REPO / "src" / "bridgeko" / "locale" / "cs" / "LC_MESSAGES" / "django.po")
    text = po.read_text(encoding="utf-8")
    assert "fuzzy" not in text
    entries = {}
    for block in text.split("\n\n"):
        found = re.search(r'^msgid "(.*)"\nmsgstr "(.*)"$', block, re.M)
        if found:
            entries[found[1].replace('\\"', '"')] = found[2].replace('\\"', '"')
    templates = _engine_templates()
    assert len(templates) >= 65
    for template in templates:
        assert template in entries, template
        translated = entries[template]
        assert translated, template
        placeholders = sorted(re.findall(r"%\([a-z_]+\)s", template))
        assert sorted(re.findall(r"%\([a-z_]+\)s", translated)) == placeholders, template


def _catalogue(path: Path) -> dict[str, str]:
    text = path.read_text(encoding="utf-8")
    return dict(re.findall(r'^msgid "(.+)"\nmsgstr "(.*)"$', text, re.M))


def test_one_translation_layout() -> None:
    """One catalogue per language, the project's (``src/bridgeko/locale``): no app keeps its own
    (``<app>/locale``), so no message is translated in two catalogues, and no msgid (with its
    context) appears twice in it."""
    src = REPO / "src" / "bridgeko"
    assert sorted(p.relative_to(src).as_posix() for p in src.rglob("django.po")) == [
        "locale/cs/LC_MESSAGES/django.po",
        "locale/en/LC_MESSAGES/django.po",
    ]
    for language in ("cs", "en"):
        text = (src / "locale" / language / "LC_MESSAGES" / "django.po").read_text("utf-8")
        keys = re.findall(r'^(?:msgctxt "(.*)"\n)?msgid "(.+)"$', text, re.M)
        assert len(keys) == len(set(keys)), language
        assert (src / "locale" / language / "LC_MESSAGES" / "django.mo").is_file()


# ---------------------------------------------------------------- errors of the matches screens


def test_R12_6_match_and_seating_errors_shown_in_czech() -> None:
    """What a matches screen will show: ``tr(error.detail)`` in the reader's language."""
    from bridgeko.competition import match, seating
    from bridgeko.competition.regulations import MatchRules, PenaltyRules, Stage

    with pytest.raises(match.MatchError) as decided:
        match.match_state(
            Stage.PRELIMINARY,
            MatchRules(),
            PenaltyRules(),
            segments=[match.SegmentResult(1, 30, 20), match.SegmentResult(2, 15, 20)],
            adjustments=[match.Adjustment(3, match.Side.HOME, 3, "R12.8")],
        )
    line_up = seating.LineUp(seating.Pair.of("Ann", "Bob"), seating.Pair.of("Cid", "Dan"))
    with pytest.raises(seating.SeatingError) as roster:
        seating.check_line_up(line_up, ["Ann", "Bob", "Cid"], match.Side.VISITORS)
    with translation.override("cs"):
        assert tr(decided.value.detail) == (
            "sestava 3 má záznam (pokuty nebo úpravy výsledku), ale utkání bylo rozhodnuto už "
            "po sestavě 2 (45:40)"
        )
        assert tr(roster.value.detail) == (
            "obsazení, které zadali hosté, uvádí hráče, kteří nejsou na jejich soupisce: Dan"
        )
    with translation.override("en"):
        assert tr(decided.value.detail) == str(decided.value)
        assert tr(roster.value.detail) == (
            "the visitors team's line-up names players not on its roster: Dan"
        )
