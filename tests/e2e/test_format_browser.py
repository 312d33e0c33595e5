"""Browser tests (issue 22): the 2001 format — double elimination, the final in 8-board sets,
prizes per player — as its users meet it, on a phone in Czech and on a desktop in English: the
registrar creates the edition from its regulations file, the organiser sees the scheme drawn
before the draw and holds it, the public bracket draws the winners' and the losers' bracket with
each team's chance to win the event, the team page gives its own, and once played through the
prize list pays each player. No page is wider than the window (a bracket scrolls in its own
frame). Screenshots in ``test-artifacts/format/``; Playwright drives Debian's chromium."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import CHROMIUM, artifacts, fits, new_page

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "language"), [(390, "cs"), (1280, "en")])
def test_issue22_double_elimination_bracket_in_the_browser(
    browser: Any, live_server: Any, width: int, language: str
) -> None:
    from tests.web.conftest import build_world, enter_13_and_draw
    from tests.web.test_format_2001 import text_2001

    world = build_world(text_2001())
    enter_13_and_draw(world)
    shots = artifacts("format")
    shots.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, live_server.url, width, language)
    page.goto(f"{live_server.url}/{language}/e/{world.edition.slug}/public/draw/")
    bracket = page.locator(".bracket-sections").inner_text()
    assert all(code in bracket for code in ("R1-M2", "L1-M2", "WF", "LF", "F"))
    page.screenshot(path=str(shots / f"draw-{width}-{language}.png"), full_page=True)
    fits(page, "the double-elimination bracket page")
    page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "language"), [(390, "cs"), (1280, "en")])
def test_issue22_the_2001_edition_from_its_file_to_the_prize_list_in_the_browser(
    browser: Any, live_server: Any, settings: Any, tmp_path: Any, width: int, language: str
) -> None:
    from playwright.sync_api import expect

    from bridgeko.accounts.models import Role, RoleAssignment
    from bridgeko.editions.models import Edition
    from bridgeko.entries.models import Team
    from tests.e2e.browser import login
    from tests.web.conftest import World, make_user
    from tests.web.test_draw import announce_and_commit, enter_13
    from tests.web.test_format_2001 import _play_everything, text_2001

    settings.BRIDGEKO_EVENT_CHANCES_RUNS = 400  # double elimination: simulated, kept short here
    czech = language == "cs"
    shots = artifacts("format")
    shots.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    registrar, organiser, td = make_user("registrar"), make_user("organiser"), make_user("td")
    RoleAssignment.objects.create(user=registrar, edition=None, role=Role.REGISTRAR)

    # The registrar creates the edition from its regulations file (the 2001 file, its dates
    # moved onto the tests' calendar).
    page = new_page(browser, base, width, language)
    login(page, base, "registrar")
    regulations = tmp_path / "ko-2001.toml"
    regulations.write_text(text_2001(), encoding="utf-8")
    page.goto(f"{base}/e/new/")
    page.fill("#id_slug", "ko-2001")
    page.set_input_files("#id_upload", str(regulations))
    page.locator("form.form button[type=submit]").click()
    page.wait_for_url("**/e/ko-2001/**")
    edition = Edition.objects.get(slug="ko-2001")
    assert edition.regulations.format.template == "double"
    page.context.close()
    for user, role in ((organiser, Role.ORGANISER), (td, Role.TD)):
        RoleAssignment.objects.get_or_create(user=user, edition=edition, role=role)
    world = World(edition=edition, users={"organiser": organiser, "td": td})
    enter_13(world)
    announce_and_commit(world)

    # Before the draw the organiser sees the scheme the draw will make, and holds it.
    page = new_page(browser, base, width, language)
    login(page, base, "organiser")
    page.goto(f"{base}/e/ko-2001/draw/")
    preview = page.locator("#scheme-preview")
    expect(preview).to_contain_text("Pavouk poražených" if czech else "Losers' bracket")
    expect(preview).to_contain_text("číslo 13" if czech else "number 13")
    page.screenshot(path=str(shots / f"preview-{width}-{language}.png"), full_page=True)
    fits(page, "the draw page with the scheme drawn before the draw")
    page.locator("#hold-draw").click()
    expect(page.locator(".messages")).to_be_visible()
    page.context.close()

    # The first round played: the public bracket with both brackets and the chances.
    _play_everything(world, rounds=1)
    page = new_page(browser, base, width, language)
    page.goto(f"{base}/{language}/e/ko-2001/public/draw/")
    sections = page.locator(".bracket-sections").inner_text()
    assert all(code in sections for code in ("R1-M2", "L1-M2", "WF", "LF", "F"))
    expect(page.locator("#section-losers")).to_have_text(
        "Pavouk poražených" if czech else "Losers' bracket"
    )
    odds = page.locator("#event-odds tbody tr")
    expect(odds.first).to_be_visible()
    percents = [
        int(t.rsplit(" ", 1)[0])
        for t in page.locator("#event-odds tbody tr td:nth-child(3)").all_inner_texts()
    ]
    assert 95 <= sum(percents) <= 105 and len(percents) >= 8  # whole percents of a sum of 1
    page.screenshot(path=str(shots / f"bracket-chances-{width}-{language}.png"), full_page=True)
    fits(page, "the double-elimination bracket with the chances")
    favourite = page.locator("#event-odds tbody tr td:nth-child(2) a").first
    favourite.click()
    expect(page.locator("#team-odds")).to_contain_text(
        "Vítězství v soutěži" if czech else "To win the event"
    )
    page.screenshot(path=str(shots / f"team-chances-{width}-{language}.png"), full_page=True)
    fits(page, "the team page with its chances")

    # Played through: the prize list pays each player (R5.1, 2001).
    _play_everything(world)
    page.goto(f"{base}/{language}/e/ko-2001/public/standings/")
    prizes = page.locator("main").inner_text()
    assert ("za hráče" if czech else "a player") in prizes
    champion = Team.objects.get(edition=edition, pk=_champion(edition))
    assert champion.name in prizes
    page.screenshot(path=str(shots / f"prizes-{width}-{language}.png"), full_page=True)
    fits(page, "the standings with prizes per player")
    page.goto(f"{base}/{language}/e/ko-2001/public/draw/")
    expect(page.locator("#event-odds")).to_have_count(0)  # the event is decided
    page.context.close()


def _champion(edition: Any) -> int:
    from bridgeko.matches.models import Match

    final = Match.objects.get(edition=edition, code="F")
    assert final.winner in ("home", "visitors")
    return int(final.home_id if final.winner == "home" else final.visitors_id)
