"""Browser test: the organiser's outbox (issue 11, item 6) — the mail of the draw listed with
its status, a failed mail with the server's error opened and sent again; at 390 px (a phone) and
1280 px, in Czech and English. Screenshots in ``test-artifacts/mail`` (git-ignored; the folder
can be moved with ``BRIDGEKO_TEST_ARTIFACTS``).

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

from typing import Any

import pytest

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.editions.services import create_edition
from bridgeko.mail.models import Outbox, Status
from tests.e2e.browser import CHROMIUM, artifacts, fits, login, new_page
from tests.web.conftest import REGULATIONS_1999, World, make_user
from tests.web.test_draw import enter_13, held

ARTIFACTS = artifacts("mail")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

TEXT = {
    "cs": {"title": "Odchozí pošta", "failed": "Nepodařilo se", "sent": "Odesláno"},
    "en": {"title": "Outbox", "failed": "Failed", "sent": "Sent"},
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["cs", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_organiser_reads_the_outbox_and_sends_a_failed_mail_again(
    browser: Any, live_server: Any, width: int, language: str
) -> None:
    organiser = make_user("organiser")
    edition = create_edition(
        slug="ko-1999", toml_text=REGULATIONS_1999.read_text(encoding="utf-8"), user=organiser
    )
    world = World(edition=edition, users={"organiser": organiser})
    for k, team in enumerate(enter_13(world)):
        captain = make_user(f"kapitan{k:02d}", email=f"kapitan{k:02d}@example.org")
        RoleAssignment.objects.create(user=captain, edition=edition, role=Role.CAPTAIN, team=team)
    held(world)  # a real commit here: the draw's 13 mails are sent (locmem)
    assert Outbox.objects.filter(status=Status.SENT).count() == 13
    failed = Outbox.objects.order_by("id").first()
    assert failed is not None
    Outbox.objects.filter(pk=failed.pk).update(
        status=Status.FAILED,
        sent_at=None,
        error="SMTPServerDisconnected: Connection unexpectedly closed by smtp.example.org",
    )
    t = TEXT[language]
    shots = ARTIFACTS / f"{language}-{width}"
    shots.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, live_server.url, width, language)
    login(page, live_server.url, "organiser")
    page.goto(f"{live_server.url}/e/ko-1999/outbox/")
    assert page.locator("h1").inner_text() == t["title"]
    assert page.locator(".mail-row").count() == 13
    page.screenshot(path=str(shots / "outbox.png"), full_page=True)
    fits(page, "mail")
    # Only the failed one.
    page.locator("#status-filter a", has_text=t["failed"]).click()
    page.wait_for_load_state()
    assert page.locator(".mail-row").count() == 1
    assert "smtp.example.org" in page.locator(".mail-error").inner_text()
    page.screenshot(path=str(shots / "outbox-failed.png"), full_page=True)
    page.locator(".mail-row h2 a").click()
    page.wait_for_load_state()
    body = page.locator("#mail-body").inner_text()
    assert failed.subject == page.locator("h1").inner_text() and "Los" in body
    assert "vítěz utkání" in body  # the next opponent not known yet, in Czech
    page.screenshot(path=str(shots / "mail-failed.png"), full_page=True)
    fits(page, "mail")
    page.click("#send-again")
    page.wait_for_load_state()
    assert page.locator("#mail-status").inner_text() == t["sent"]
    assert page.locator("#send-again").count() == 0
    page.screenshot(path=str(shots / "mail-sent-again.png"), full_page=True)
    failed.refresh_from_db()
    assert (failed.status, failed.attempts) == (Status.SENT, 2)
