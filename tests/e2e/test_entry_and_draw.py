"""Browser test: the organiser logs in, enters an eighth team from the register, records its
conditions of entry, closes the entries and holds the draw; the public page shows the numbers.

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

from typing import Any

import pytest

from bridgeko.competition.draw import verify_protocol
from bridgeko.editions.services import create_edition
from tests.e2e.browser import CHROMIUM
from tests.web.conftest import PASSWORD, REGULATIONS_1999, make_user
from tests.web.test_entries import enter_team, make_players

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
def test_organiser_enters_a_team_and_holds_the_draw(browser: Any, live_server: Any) -> None:
    from playwright.sync_api import expect

    from bridgeko.draw.models import Draw
    from bridgeko.entries.models import Team

    organiser = make_user("organiser")
    edition = create_edition(
        slug="ko-1999", toml_text=REGULATIONS_1999.read_text(encoding="utf-8"), user=organiser
    )
    players = make_players(32)
    for k in range(7):
        enter_team(edition, f"Tým {k + 1}", players[4 * k : 4 * k + 4], organiser)
    newcomers = [p.federation_id for p in players[28:32]]
    base = f"{live_server.url}/e/ko-1999"

    context = browser.new_context(locale="en-GB")
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    expect(page.locator(".user-menu summary")).to_have_text("organiser")

    # Enter the eighth team: a roster of four from the register (captain first).
    page.goto(f"{base}/teams/new/")
    page.fill("#q", "Hráč 029")
    page.click("aside form button[type=submit]")
    expect(page.locator("aside table")).to_contain_text(newcomers[0])
    page.fill("#id_name", "Nováčci")
    for k, federation_id in enumerate(newcomers, start=1):
        page.fill(f"#id_player_{k}", federation_id)
    page.click("#team-form button[type=submit]")
    expect(page.locator("h1")).to_have_text("Nováčci")
    expect(page.locator("#team-elo")).to_have_text("531")  # (529+530+531+532)/4 = 530.5

    # Pairs (1-2, 3-4 proposed for a team of four), then the conditions of entry.
    page.click("text=Pairs >> nth=0")
    page.click("main form button[type=submit]")
    page.click("text=Conditions of entry >> nth=0")
    for field in page.locator("input[type=date]").all():
        field.fill("1999-03-01")
    page.fill("#id_fee_paid", "600")
    page.click("main form button[type=submit]")
    expect(page.locator("main")).to_contain_text("Every condition of entry is met in time.")

    # Close the entries: eight teams, the competition goes ahead (R8.1).
    page.goto(f"{base}/entries/closing/")
    page.click("#close-entries")
    expect(page.locator("main")).to_contain_text("8 teams met the conditions")

    # The draw: announce, commit, hold.
    page.goto(f"{base}/draw/")
    page.fill("#id_place", "Bridžový klub Nové Město nad Metují")
    page.fill("#id_at", "1999-03-12T18:00")
    page.click("#announce")
    page.click("#commit")
    commitment = page.locator("#commitment").inner_text()
    page.click("#hold-draw")
    expect(page.locator(".messages")).to_contain_text("The draw is made")

    # The public page, without logging in.
    public = browser.new_page()
    public.goto(f"{base}/public/draw/")
    rows = public.locator("#numbering tbody tr")
    expect(rows).to_have_count(8)
    expect(public.locator("#numbering")).to_contain_text("Nováčci")
    expect(public.locator("#commitment")).to_have_text(commitment)
    expect(public.locator(".bracket-match")).to_have_count(8)  # QF 4, SF 2, F, 3rd

    draw = Draw.objects.get(edition=edition)
    assert verify_protocol(draw.protocol).ok
    assert Team.objects.get(name="Nováčci").accepted is True
