"""Browser test: a TD imports a segment's results from a PBN file (issue 10, item 3) — uploads a
Windows-1250 file of segment 2 numbered from 1, sees the preview (a stored result that differs
marked), ticks "replace" and confirms; at 390 px (a phone) and 1280 px, in Czech.

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bridgeko.matches import services
from bridgeko.matches.models import BoardResult
from tests.e2e.browser import CHROMIUM, drawn_world
from tests.web.conftest import PASSWORD
from tests.web.test_pbn_import import DATA, name_the_teams

ARTIFACTS = Path(os.environ.get("BRIDGEKO_E2E_ARTIFACTS", "/tmp/bridgeko-e2e"))

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [390, 1280])
def test_td_imports_a_segment_from_a_pbn_file(browser: Any, live_server: Any, width: int) -> None:
    world = drawn_world()
    match = name_the_teams(world)
    services.save_board(
        match=match,
        board=17,
        room="open",
        text="4S N -1",
        version=0,
        user=world.users["td"],
        now=datetime(1999, 4, 10, 9, tzinfo=UTC),
    )

    context = browser.new_context(viewport={"width": width, "height": 900}, locale="cs-CZ")
    context.add_cookies([{"name": "django_language", "value": "cs", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "td")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/e/ko-1999/matches/{match.code}/import/")
    page.set_input_files("#id_file", str(DATA / "scoring-segment-no-room-cp1250.pbn"))
    page.select_option("#id_segment", "2")
    page.click("#upload-form button[type=submit]")
    page.wait_for_load_state()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"pbn-import-preview-{width}.png"), full_page=True)
    rows = page.locator("#preview tbody tr")
    assert rows.count() == 32
    different = page.locator("#preview tr.different")
    assert different.count() == 1
    assert "4S N -1" in different.inner_text() and "liší se" in different.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    page.click("#confirm-form button[type=submit]")  # without "replace": asked to tick
    page.wait_for_load_state()
    assert page.locator("#confirm-form .field-error").count() == 1
    assert BoardResult.objects.filter(match=match).count() == 1
    page.check("#id_replace")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_load_state()
    page.screenshot(path=str(ARTIFACTS / f"pbn-import-done-{width}.png"), full_page=True)
    assert "nových 31, nahrazených 1" in page.locator(".message.success").inner_text()
    assert BoardResult.objects.filter(match=match).count() == 32
