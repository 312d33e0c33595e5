"""Browser test of the public match page (issue 12, items 1, 2 and 8): a spectator keeps the page
of a quarterfinal in progress open; the TD saves board results (through the service, as the TD's
page does) and each appears on the open page WITHOUT a reload — measured from the commit to the
row showing, ten times, the slowest at most 2 seconds (the 95th percentile of ten is their
maximum). Then the match page and a board page after play at 360/390 px and 1280 px, in Czech
and English: no page wider than the window, screenshots kept, the A4 print as a PDF.

Screenshots are kept in ``test-artifacts/public-match/`` at the root of the checkout
(git-ignored; ``BRIDGEKO_TEST_ARTIFACTS`` chooses another folder). Playwright drives Debian's
chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest

from bridgeko.matches import services
from bridgeko.public.freshness import edition_version
from tests.e2e.browser import CHROMIUM, artifacts, fits, new_page
from tests.web import handrecord_world as hw_
from tests.web.conftest import World, toml_1999, world  # noqa: F401  (fixtures)

ARTIFACTS = artifacts("public-match")
WIDTHS = (390, 1280)
RUNS = 10
LIMIT = 2.0
"""Seconds from the commit of a result to its showing on an open page (issue 12, item 2)."""

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

CLOSED = {n: "4S N -1" if n % 3 else "3NT S =" for n in range(1, 17)}
OPEN = {n: "4S N =" if n % 2 else "2H W +1" for n in range(5, 17)}


def _save(hw: hw_.HandWorld, board: int, room: str, text: str) -> None:
    services.save_board(
        match=hw.match,
        board=board,
        room=room,
        text=text,
        version=0,
        user=hw.world.users["td"],
        now=hw_.NOW + timedelta(minutes=board),
    )


@pytest.mark.django_db(transaction=True)
def test_issue12_saved_result_shows_on_an_open_match_page_within_2_seconds(
    browser: Any,
    live_server: Any,
    world: World,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    hw = hw_.make(world)
    for board, text in OPEN.items():
        _save(hw, board, "open", text)
    hw_.enter_closed_room(hw, CLOSED)
    hw_.end_segment(hw)  # segment 1 played and ended: its deals are public (I15)
    slug = world.edition.slug
    base = live_server.url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, base, 390, "en")
    page.goto(f"{base}/en/e/{slug}/public/matches/QF1/")
    expect(page.locator("#match-status")).to_contain_text("segment 2")
    expect(page.locator("#chances")).to_be_visible()
    timings = []
    for i in range(RUNS):
        board = 17 + i
        _save(hw, board, "open", "3NT N =")  # one room only: nothing shows yet
        token = edition_version(world.edition).token
        page.wait_for_function("t => document.body.getAttribute('data-version') === t", arg=token)
        assert page.locator(f"#board-{board} td.room").count() == 0
        _save(hw, board, "closed", "3NT N -1")
        committed = time.monotonic()
        page.wait_for_selector(f"#board-{board} td.room", timeout=5000)
        timings.append(time.monotonic() - committed)
    expect(page.locator("#boards-played")).to_contain_text(f"{16 + RUNS} of 32")
    print("seconds from commit to display:", [round(t, 3) for t in timings])
    assert max(timings) <= LIMIT, timings  # the 95th percentile of ten: the slowest
    page.context.close()

    for language in ("cs", "en"):
        for width in (360, *WIDTHS):
            page = new_page(browser, base, width, language)
            tag = f"{width}-{language}"
            page.goto(f"{base}/{language}/e/{slug}/public/matches/QF1/")
            expect(page.locator("table.pm-boards")).to_have_count(2)
            fits(page, f"match {tag}")
            if width != 360:
                page.screenshot(path=str(ARTIFACTS / f"match-{tag}.png"), full_page=True)
            page.click("#board-1 th a")  # the board page after play
            expect(page.locator("table.hr-results tbody tr")).to_have_count(2)
            expect(page.locator("table.hr-dd")).to_be_visible()
            fits(page, f"board {tag}")
            if width != 360:
                page.screenshot(path=str(ARTIFACTS / f"board-{tag}.png"), full_page=True)
            page.click("#match-link")  # and back to the match
            expect(page.locator("#match-head")).to_be_visible()
            if width == 1280:
                page.emulate_media(media="print")
                page.screenshot(path=str(ARTIFACTS / f"print-{tag}.png"), full_page=True)
                page.pdf(path=str(ARTIFACTS / f"match-{language}.pdf"), format="A4")
            page.context.close()
