"""Browser test of the dashboard (issue 9) on the demo data: the organiser's and the captain's
dashboards at 390 px and 1280 px, in Czech and English, fit the screen; screenshots are kept
(``BRIDGEKO_SCREENSHOTS`` names the directory, else pytest's temporary one).

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import CHROMIUM

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,  # loads the whole demo
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
def test_dashboard_fits_a_phone_and_a_desktop(
    browser: Any, live_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    from bridgeko.demo import LATE_TEAM
    from bridgeko.editions import views
    from tests.web.conftest import demo_loaded

    demo_loaded("demo-pass")
    # the day after the dates were published: the next matches are still to come
    monkeypatch.setattr(
        views, "clock", lambda: (date(1999, 3, 16), datetime(1999, 3, 16, 12, tzinfo=UTC))
    )
    shots = Path(os.environ.get("BRIDGEKO_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    url = f"{live_server.url}/e/ko-1999/dashboard/"
    for who in ("organiser", "captain"):
        for language in ("cs", "en"):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            page = context.new_page()
            page.set_default_timeout(15000)
            page.goto(f"{live_server.url}/login/")
            page.fill("#id_username", who)
            page.fill("#id_password", "demo-pass")
            page.click("form.form button[type=submit]")
            expect(page.locator(".user-menu summary")).to_have_text(who)
            for width in (390, 1280):
                page.set_viewport_size({"width": width, "height": 900})
                page.goto(url)
                expect(page.locator("#due-matches")).to_be_visible()
                if who == "organiser":
                    expect(page.locator("#due-late_entries")).to_contain_text(LATE_TEAM)
                else:
                    expect(page.locator("#due-late_entries")).to_have_count(0)
                main = page.evaluate(
                    "document.querySelector('main').scrollWidth"
                    " - document.querySelector('main').clientWidth"
                )
                assert main <= 0, f"{who} {language} {width}: main {main} px too wide"
                page.screenshot(
                    path=str(shots / f"dashboard-{who}-{language}-{width}.png"),
                    full_page=True,
                )
            context.close()
