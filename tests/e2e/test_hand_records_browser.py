"""Browser test of the public hand records (issue 11, item 3): after the end of a quarterfinal
segment (I15), a spectator opens the hand-record index, the set and one board, and walks to the
next board; at 390 px and 1280 px, in Czech and English; no page is wider than the window; the
print layout (A4) is made as a PDF. Before the end the same address is a 404.

Screenshots are kept in ``test-artifacts/hand-records/`` at the root of the checkout
(git-ignored; ``BRIDGEKO_TEST_ARTIFACTS`` chooses another folder). Playwright drives Debian's
chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.browser import CHROMIUM, artifacts, fits, new_page
from tests.web import handrecord_world as hw_
from tests.web.conftest import World, toml_1999, world  # noqa: F401  (fixtures)

ARTIFACTS = artifacts("hand-records")
WIDTHS = (390, 1280)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
def test_I15_public_hand_records_in_the_browser(
    browser: Any,
    live_server: Any,
    world: World,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    hw = hw_.make(world, analysed=14)  # two boards still being analysed
    hw_.enter_closed_room(hw, {1: "4S N -1", 2: "3NT E -1", 3: "1NT S =", 4: "2H W +1"})
    slug = world.edition.slug
    base = live_server.url
    board_url = f"{base}/e/{slug}/public/matches/QF1/hand-records/1/"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context()
    page = context.new_page()
    assert page.goto(board_url).status == 404  # secret until the end (I15)
    context.close()
    hw_.end_segment(hw)
    for language in ("cs", "en"):
        for width in WIDTHS:
            page = new_page(browser, base, width, language)
            tag = f"{width}-{language}"
            page.goto(f"{base}/e/{slug}/public/")
            page.click(".public-nav a[href$='/public/hand-records/']")
            page.click("#hand-record-list a[href$='/hand-records/']")
            expect(page.locator(".hr-board")).to_have_count(16)
            expect(page.locator("#analysis-progress")).to_contain_text("14")
            page.screenshot(path=str(ARTIFACTS / f"set-{tag}.png"), full_page=True)
            fits(page, f"set {tag}")
            page.click("#board-1 .hr-no")
            expect(page.locator(".hr-hand.hr-n")).to_be_visible()
            expect(page.locator("table.hr-dd")).to_be_visible()
            expect(page.locator("table.hr-results tbody tr")).to_have_count(2)
            page.screenshot(path=str(ARTIFACTS / f"board-{tag}.png"), full_page=True)
            fits(page, f"board {tag}")
            page.click(".hr-nav a[rel=next]")
            # the public pages carry the reader's language in the address (issue 12)
            expect(page).to_have_url(
                board_url.replace("/1/", "/2/").replace(base, f"{base}/{language}")
            )
            if width == 1280:
                page.emulate_media(media="print")
                page.goto(f"{base}/e/{slug}/public/matches/QF1/segments/1/hand-records/")
                page.screenshot(path=str(ARTIFACTS / f"print-{tag}.png"), full_page=True)
                page.pdf(path=str(ARTIFACTS / f"set-{language}.pdf"), format="A4")
            page.context.close()
