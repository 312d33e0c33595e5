"""Browser test: the auction and the play a LIN or Bridgemate file gave, on the public hand
record of a board after the end of its segment (issue 20, I15); at 390 px and 1280 px, in
Czech and English; no page wider than the window.

Screenshots in ``test-artifacts/play-record/``. Playwright drives Debian's chromium."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from bridgeko.matches import services
from tests.e2e.browser import CHROMIUM, artifacts, fits, new_page
from tests.web import handrecord_world as hw_
from tests.web.conftest import World, toml_1999, world  # noqa: F401  (fixtures)

ARTIFACTS = artifacts("play-record")
# board 1 (North deals, the hand-record world's open room: 4S N =); the first two tricks
AUCTION = "1S P 2NT! P 3S P 4S P P P"
PLAY = "CA C5 C4 C3 C2 CQ C7 CK"  # East leads the ace of clubs; North wins the second

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
def test_I15_auction_and_play_on_the_public_hand_record(
    browser: Any,
    live_server: Any,
    world: World,  # noqa: F811
) -> None:
    hw = hw_.make(world)
    with transaction.atomic():
        services.set_play_record(match=hw.match, board=1, room="open", auction=AUCTION, play=PLAY)
    hw_.end_segment(hw)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    url = f"{live_server.url}/e/{world.edition.slug}/public/matches/QF1/hand-records/1/"
    words = {"cs": ("Dražba", "pas", "Sever"), "en": ("Auction", "pass", "North")}
    for language in ("cs", "en"):
        for width in (390, 1280):
            page = new_page(browser, live_server.url, width, language)
            page.goto(url)
            section = page.locator("#play-open")
            caption, passed, north = words[language]
            assert caption in section.locator("caption").inner_text()
            assert north in section.locator("thead").inner_text()
            cells = section.locator("tbody td")
            assert passed in cells.all_inner_texts()
            assert "*" in section.locator("tbody").inner_text()  # 2NT alerted
            assert section.locator(".hr-tricks li").count() == 2
            page.locator("#play-open").scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"board-{width}-{language}.png"), full_page=True)
            fits(page, f"board 1 {width} {language}")
            page.context.close()
