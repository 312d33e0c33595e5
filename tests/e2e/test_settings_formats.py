"""Browser test: the edition's settings page in Czech and in English at 1280 px and 390 px
(screenshots kept in ``BRIDGEKO_SCREENSHOTS`` or pytest's temporary directory); the organiser
types the prizes as "70 000, …" and a date as "4. 3. 1999" and they are saved.

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bridgeko.editions.models import Edition
from bridgeko.editions.services import create_edition
from tests.e2e.browser import CHROMIUM
from tests.web.conftest import PASSWORD, REGULATIONS_1999, make_user

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
def test_settings_page_in_czech_and_english_reads_czech_numbers_and_dates(
    browser: Any, live_server: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("BRIDGEKO_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    organiser = make_user("organiser")
    create_edition(
        slug="ko-1999", toml_text=REGULATIONS_1999.read_text(encoding="utf-8"), user=organiser
    )
    url = f"{live_server.url}/e/ko-1999/settings/"

    for language in ("cs", "en"):
        for width in (1280, 390):
            context = browser.new_context(viewport={"width": width, "height": 900})
            context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            page = context.new_page()
            page.set_default_timeout(15000)
            page.goto(f"{live_server.url}/login/")
            page.fill("#id_username", "organiser")
            page.fill("#id_password", PASSWORD)
            page.click("form.form button[type=submit]")
            page.goto(url)
            deadline = page.locator("#id_entry__deadline")
            expect(deadline).to_have_value("5. 3. 1999" if language == "cs" else "5 March 1999")
            page.screenshot(path=str(shots / f"settings-{language}-{width}.png"), full_page=True)
            text = page.locator("main").inner_text()
            assert "match.screens_stages" not in text and "quarterfinal\n" not in text
            context.close()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "django_language", "value": "cs", "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.goto(url)
    page.fill("#id_prizes", "70 000, 20 000, 15 000, 5 000")
    page.fill("#id_entry__deadline", "4. 3. 1999")
    page.get_by_label("semifinále").uncheck()
    page.click("form.form button[type=submit]")
    expect(page.locator("h1")).to_have_text("Bridge Open K.O. 1999")
    expect(page.locator("main")).to_contain_text("4. 3. 1999")
    reg = Edition.objects.get(slug="ko-1999").regulations
    assert reg.prizes == (70000, 20000, 15000, 5000)
    assert str(reg.entry.deadline) == "1999-03-04"
    assert [s.value for s in reg.match.screens_stages] == ["quarterfinal", "third_place", "final"]
