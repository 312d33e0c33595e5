"""Browser tests of the layout (issue 9): at 390 px (a phone) and 1280 px (a desktop), in
English and Czech, no page is wider than the window, the bracket's last round is reachable by
scrolling the bracket's own frame, and printing (A4) hides the navigation and fits the bracket.

Screenshots are kept as test artifacts in ``test-artifacts/layout/`` at the root of the checkout
(git-ignored; ``BRIDGEKO_TEST_ARTIFACTS`` chooses another folder). Playwright drives Debian's
chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import CHROMIUM

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BRIDGEKO_TEST_ARTIFACTS", REPO / "test-artifacts")) / "layout"
PASSWORD = "test-password"
WIDTHS = (390, 1280)
A4_PORTRAIT_CSS_PX = 794  # 210 mm at 96 px per inch

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.fixture
def demo(transactional_db: Any) -> str:
    from tests.web.conftest import demo_loaded

    demo_loaded(PASSWORD)
    return "ko-1999"


def _pages(slug: str) -> list[tuple[str, str]]:
    from bridgeko.entries.models import Team

    team = Team.objects.filter(edition__slug=slug, accepted=True).order_by("name").first()
    assert team is not None
    return [
        ("public-home", f"/e/{slug}/public/"),
        ("public-teams", f"/e/{slug}/public/teams/"),
        ("public-draw", f"/e/{slug}/public/draw/"),
        ("public-schedule", f"/e/{slug}/public/schedule/"),
        ("dashboard", f"/e/{slug}/dashboard/"),
        ("team", f"/e/{slug}/teams/{team.pk}/"),
        ("players", f"/e/{slug}/players/"),
        ("draw-manage", f"/e/{slug}/draw/"),
        ("audit-log", "/audit/"),
        ("print-teams", f"/e/{slug}/print/teams/"),
        ("print-draw", f"/e/{slug}/print/draw/"),
    ]


def _context(browser: Any, base: str, width: int, language: str) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base}/login/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_selector(".user-menu summary")
    return context, page


def _page_width(page: Any) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def _last_round_reachable(page: Any) -> None:
    """Scroll the bracket's own frame to its end: the last round's box is then inside the
    window (and the page itself did not scroll sideways)."""
    frame = page.locator(".bracket")
    frame.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    page.wait_for_timeout(100)
    box = page.locator(".bracket-round").last.bounding_box()
    width = page.evaluate("window.innerWidth")
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (box, width)
    assert page.evaluate("window.scrollX") == 0


@pytest.mark.django_db(transaction=True)
def test_pages_fit_phone_and_desktop_and_the_bracket_scrolls(
    live_server: Any, demo: str, browser: Any
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pages = _pages(demo)
    for language in ("en", "cs"):
        for width in WIDTHS:
            context, page = _context(browser, live_server.url, width, language)
            violations: list[str] = []  # issue 23: the Content-Security-Policy blocks nothing
            page.on(
                "console",
                lambda m, found=violations: (
                    found.append(m.text) if "Content Security Policy" in m.text else None
                ),
            )
            try:
                for name, path in pages:
                    response = page.goto(f"{live_server.url}{path}")
                    assert response is not None and response.status == 200, (name, language)
                    page.screenshot(
                        path=str(ARTIFACTS / f"{name}-{width}-{language}.png"), full_page=True
                    )
                    scroll_width, inner = _page_width(page)
                    assert scroll_width <= inner, (name, width, language, scroll_width)
                    if name in ("public-draw", "print-draw"):
                        _last_round_reachable(page)
                        page.screenshot(
                            path=str(ARTIFACTS / f"{name}-{width}-{language}-scrolled.png")
                        )
                if width == 390:  # the header's menu opens inside the window
                    page.click(".user-menu summary")
                    box = page.locator(".menu ul").bounding_box()
                    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
                else:  # the language switcher works without inline script (actions.js)
                    other = "cs" if language == "en" else "en"
                    page.goto(f"{live_server.url}/e/{demo}/dashboard/")
                    page.select_option("#language", other)
                    page.wait_for_function(f"document.documentElement.lang === '{other}'")
                assert violations == [], violations
            finally:
                context.close()


@pytest.mark.django_db(transaction=True)
def test_print_hides_the_navigation_and_fits_the_bracket_on_a4(
    live_server: Any, demo: str, browser: Any
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context, page = _context(browser, live_server.url, A4_PORTRAIT_CSS_PX, "en")
    try:
        for name, path in (
            ("public-draw", f"/e/{demo}/public/draw/"),
            ("print-draw", f"/e/{demo}/print/draw/"),
            ("print-teams", f"/e/{demo}/print/teams/"),
            ("print-fees", f"/e/{demo}/print/fees/"),
            ("players", f"/e/{demo}/players/"),
        ):
            page.goto(f"{live_server.url}{path}")
            page.emulate_media(media="print")
            assert not page.locator(".site-header").is_visible()
            assert not page.locator("nav").first.is_visible()
            assert page.locator("form").count() == 0 or not page.locator("form").first.is_visible()
            assert page.locator(".print-header").is_visible()
            header = page.locator(".print-header").inner_text()  # the date: the browser
            assert "Printed" in header and str(datetime.now(UTC).year) in header
            scroll_width, inner = _page_width(page)
            assert scroll_width <= inner, (name, scroll_width)
            if page.locator(".bracket").count():
                fits = page.locator(".bracket").evaluate("el => el.scrollWidth <= el.clientWidth")
                assert fits, name
                last = page.locator(".bracket-round").last.bounding_box()
                assert last is not None and last["x"] + last["width"] <= inner
            for table in page.locator("main table").all():
                assert table.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), name
            pdf = page.pdf(format="A4", path=str(ARTIFACTS / f"{name}-print.pdf"))
            assert pdf.startswith(b"%PDF")
            page.screenshot(path=str(ARTIFACTS / f"{name}-print.png"), full_page=True)
            page.emulate_media(media="screen")
    finally:
        context.close()
