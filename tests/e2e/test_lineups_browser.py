"""Browser test (issue 10, item 2): line-ups per segment (R12.6). The visitors' captain (sitting
first in segment 1) follows the link on "My team" and gives the line-up; the home captain then
sees it and gives his; the TD prints the table cards — at 390 px (a phone) and at 1280 px.
Screenshots of every step are kept in ``test-artifacts/lineups/`` (git-ignored; the folder can
be moved with ``BRIDGEKO_TEST_ARTIFACTS``).

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.editions.services import create_edition
from tests.e2e.browser import CHROMIUM
from tests.web.conftest import PASSWORD, REGULATIONS_1999, World, make_user
from tests.web.test_draw import enter_13, held

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BRIDGEKO_TEST_ARTIFACTS") or REPO / "test-artifacts") / "lineups"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_R12_6_captains_give_line_ups_and_the_td_prints_the_cards(
    browser: Any, live_server: Any, width: int
) -> None:
    from playwright.sync_api import expect

    from bridgeko.matches import lineups
    from bridgeko.matches.models import LineUp, Match, MatchStatus

    organiser = make_user("organiser")
    edition = create_edition(
        slug="ko-1999", toml_text=REGULATIONS_1999.read_text(encoding="utf-8"), user=organiser
    )
    world = World(edition=edition, users={"organiser": organiser})
    enter_13(world)
    held(world)
    match = Match.objects.filter(edition=edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None and match.home is not None and match.visitors is not None
    for username, team in (("host", match.home), ("guest", match.visitors)):
        user = make_user(username)
        RoleAssignment.objects.create(user=user, edition=edition, role=Role.CAPTAIN, team=team)
    td = make_user("td")
    RoleAssignment.objects.create(user=td, edition=edition, role=Role.TD)
    home_players = lineups.roster_of(match.home)
    guest_players = lineups.roster_of(match.visitors)
    shots = ARTIFACTS / f"{width}px"
    shots.mkdir(parents=True, exist_ok=True)
    too_wide: list[str] = []

    def login(username: str) -> Any:
        context = browser.new_context(locale="en-GB", viewport={"width": width, "height": 900})
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{live_server.url}/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("form.form button[type=submit]")
        return page

    def shot(page: Any, name: str) -> None:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        wide = page.evaluate("document.querySelector('main').scrollWidth")
        if wide > width:
            too_wide.append(f"{name}: main is {wide} px wide")

    def fill(page: Any, players: list[Any]) -> None:
        for field, player in zip(
            ("open_first", "open_second", "closed_first", "closed_second"),
            players,
            strict=True,
        ):
            page.select_option(f"#id_{field}", str(player.pk))

    # The visitors sit first in segment 1: their captain gives the line-up first.
    guest = login("guest")
    expect(guest.locator("h1")).to_contain_text("My team")
    link = guest.locator("a.match-action").first
    expect(link).to_contain_text("Give the line-up for segment 1 (you sit first)")
    shot(guest, "1-my-team-visitors")
    link.click()
    expect(guest.locator("#seating-order")).to_contain_text(match.visitors.name)
    fill(guest, guest_players)
    shot(guest, "2-visitors-form")
    guest.click("#save-line-up")
    expect(guest.locator(".messages")).to_contain_text("saved")
    expect(guest.locator("#room-open .seat-E")).to_contain_text(guest_players[0].name)
    shot(guest, "3-visitors-saved")

    # The home team sits second: it sees the visitors' line-up, then gives its own.
    host = login("host")
    host.locator("a.match-action").first.click()
    expect(host.locator("#room-open .seat-E")).to_contain_text(guest_players[0].name)
    fill(host, home_players)
    host.click("#save-line-up")
    expect(host.locator(".messages")).to_contain_text("saved")
    expect(host.locator("#room-open .seat-N")).to_contain_text(home_players[0].name)
    shot(host, "4-home-saved")

    # The visitors may no longer change theirs.
    guest.reload()
    expect(guest.locator("#closed")).to_contain_text("only the TD")

    # The TD prints the table cards of both rooms.
    tdp = login("td")
    tdp.goto(f"{live_server.url}/e/ko-1999/matches/{match.code}/segments/1/line-up/home/")
    tdp.click("#slips")
    expect(tdp.locator("#slip-open .N")).to_contain_text(home_players[0].name)
    expect(tdp.locator("#slip-closed .N")).to_contain_text(guest_players[2].name)
    shot(tdp, "5-slips")
    tdp.emulate_media(media="print")
    shot(tdp, "6-slips-print")

    assert LineUp.objects.filter(segment__match=match).count() == 2
    assert too_wide == []
