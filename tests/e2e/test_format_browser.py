"""Browser test (issue 22): the 2001 format's public bracket page — double elimination, the
winners' and losers' matches — on a phone in Czech and on a desktop in English; no page wider
than the window (the bracket scrolls in its own frame). Screenshots in ``test-artifacts/format/``.
Playwright drives Debian's chromium."""

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
    bracket = page.locator(".bracket").inner_text()
    assert all(code in bracket for code in ("R1-M2", "L1-M2", "WF", "LF", "F"))
    page.screenshot(path=str(shots / f"draw-{width}-{language}.png"), full_page=True)
    fits(page, "the double-elimination bracket page")
    page.context.close()
