"""Browser test (issue 9, item 7): a captain logs in, lands on "My team", reaches it again from
the menu, declares the pairs and uploads a convention card (R3.1b) — at 390 px (a phone) and at
1280 px. Screenshots of every step are kept in ``test-artifacts/captain/`` (git-ignored; the
folder can be moved with ``BRIDGEKO_TEST_ARTIFACTS``).

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.editions.services import create_edition
from bridgeko.entries import services
from bridgeko.entries import views as entry_views
from tests.e2e.browser import CHROMIUM
from tests.web.conftest import PASSWORD, REGULATIONS_1999, make_user
from tests.web.test_entries import NOW, make_players

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BRIDGEKO_TEST_ARTIFACTS") or REPO / "test-artifacts") / "captain"
PDF = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


class _Clock:
    """``django.utils.timezone`` as the entries views see it: 1 March 1999, before the entry
    deadline of the 1999 regulations (R3.2), so the captain may still declare."""

    @staticmethod
    def now() -> datetime:
        return datetime(1999, 3, 1, 12, tzinfo=UTC)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_captain_declares_pairs_and_uploads_a_card(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, width: int
) -> None:
    from playwright.sync_api import expect

    from bridgeko.entries.models import ConventionCard, Pair

    monkeypatch.setattr(entry_views, "timezone", _Clock)
    organiser = make_user("organiser")
    edition = create_edition(
        slug="ko-1999", toml_text=REGULATIONS_1999.read_text(encoding="utf-8"), user=organiser
    )
    team = services.create_team(
        edition=edition, name="Orli", roster=make_players(4), user=organiser, now=NOW
    )
    captain = make_user("kapitan")
    RoleAssignment.objects.create(user=captain, edition=edition, role=Role.CAPTAIN, team=team)
    card = tmp_path / "Karta Orli.pdf"
    card.write_bytes(PDF)
    shots = ARTIFACTS / f"{width}px"
    shots.mkdir(parents=True, exist_ok=True)
    too_wide: list[str] = []

    context = browser.new_context(locale="en-GB", viewport={"width": width, "height": 900})
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)

    def shot(name: str) -> None:
        # a click that navigates may still be loading the next page: wait for its main part
        page.wait_for_load_state()
        page.wait_for_selector("main")
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        wide = page.evaluate("document.querySelector('main').scrollWidth")
        if wide > width:
            too_wide.append(f"{name}: main is {wide} px wide")

    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "kapitan")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    # After logging in a captain lands on My team.
    expect(page.locator("h1")).to_have_text("My team: Orli")
    shot("1-after-login")

    # From another page, My team again through the user menu.
    page.goto(f"{live_server.url}/e/ko-1999/")
    page.click(".user-menu summary")
    page.click(".user-menu a.my-team")
    expect(page.locator("h1")).to_have_text("My team: Orli")
    expect(page.locator("#pairs")).to_contain_text("No pairs declared.")
    shot("2-my-team")

    # Declare the pairs (1-2, 3-4 proposed for a team of four).
    page.click("#declare-pairs")
    shot("3-pairs-form")
    page.click("main form button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Pairs saved.")
    expect(page.locator("li.pair")).to_have_count(2)

    # Upload the first pair's convention card.
    page.locator("a.card-upload").first.click()
    page.set_input_files("#id_file", str(card))
    shot("4-card-form")
    page.click("#upload-card")
    expect(page.locator(".messages")).to_contain_text("is saved")
    expect(page.locator("li.pair").first).to_contain_text("Karta Orli.pdf")
    expect(page.locator("li.pair").first).to_contain_text("Replace the card")
    shot("5-card-listed")

    assert Pair.objects.filter(team=team).count() == 2
    stored = ConventionCard.objects.get()
    assert (stored.original_name, stored.size) == ("Karta Orli.pdf", len(PDF))
    assert too_wide == []
