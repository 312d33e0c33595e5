"""Browser test (issue 10, items 3 and 10): a TD opens a match and types the 16 boards of its
first segment with the keyboard only (the result, Tab, the other room's result, Tab: open room →
closed room → next board); each field saves itself, and the NS scores, the board's IMPs, the
segment's IMPs and the running score follow (R12.2-R12.3). A wrong entry is marked on its field.
Screenshots at 1280 px and 390 px are kept in ``test-artifacts/board-entry/`` (git-ignored; the
folder can be moved with ``BRIDGEKO_TEST_ARTIFACTS``).

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bridgeko.bridge.scoring import imps
from bridgeko.matches import services
from bridgeko.matches.models import BoardResult, Match, MatchStatus
from tests.e2e.browser import CHROMIUM, drawn_world
from tests.web.conftest import PASSWORD

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = (
    Path(os.environ.get("BRIDGEKO_TEST_ARTIFACTS") or REPO / "test-artifacts") / "board-entry"
)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

# The 16 boards of segment 1: (open room, closed room), typed as a TD types them.
BOARDS = [
    ("4s n =", "4S N -1"),
    ("3NTX E -2", "3NT E ="),
    ("6HXX W 12", "6H W -1"),
    ("P", "1NT S +1"),
    ("2S S +1", "2S S +1"),
    ("4H N =", "5HX N -1"),
    ("3NT S -1", "3NT N +1"),
    ("P", "P"),
    ("4S E =", "4S E -2"),
    ("1NT N =", "2H W =".replace("W", "E")),
    ("6NT S =", "3NT S +3"),
    ("5DX W -3", "4S N =".replace("N", "S")),
    ("3C N +2", "3C N +2"),
    ("7S N =", "6S N +1"),
    ("2HX E =", "2H E +1"),
    ("4S N +1", "P"),
]


def expected() -> tuple[list[int], int, int]:
    """The IMPs of each board to the home team (home NS in the open room, R12.2) and the
    segment's IMPs of each team, from the engine."""
    per_board = []
    for board, (open_text, closed_text) in enumerate(BOARDS, start=1):
        ns_open = services.ns_score(services.parse_text(open_text), board)
        ns_closed = services.ns_score(services.parse_text(closed_text), board)
        per_board.append(imps(ns_open - ns_closed))
    home = sum(i for i in per_board if i > 0)
    visitors = -sum(i for i in per_board if i < 0)
    return per_board, home, visitors


@pytest.mark.django_db(transaction=True)
def test_R12_3_td_types_16_boards_with_the_keyboard_only(browser: Any, live_server: Any) -> None:
    from playwright.sync_api import expect

    world = drawn_world()
    match = Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    per_board, home, visitors = expected()
    assert home > 0 and visitors > 0  # both teams gain somewhere: the numbers mean something
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    url = f"{live_server.url}/e/ko-1999/matches/{match.code}/"

    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", "td")
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    expect(page.locator(".user-menu summary")).to_have_text("td")
    page.goto(url)
    expect(page.locator("#running-home")).to_have_text("0")
    page.screenshot(path=str(ARTIFACTS / "1-empty-1280.png"), full_page=True)

    # The keyboard only: focus the first field, then type and Tab through the boards.
    page.focus("#open-1")
    for board, (open_text, closed_text) in enumerate(BOARDS, start=1):
        assert page.evaluate("document.activeElement.id") == f"open-{board}"
        page.keyboard.type(open_text)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == f"closed-{board}"
        page.keyboard.type(closed_text)
        page.keyboard.press("Tab")
        if board == 8:  # half-way: the running score so far
            expect(page.locator("#imps-8")).to_have_text(str(per_board[7]))
    assert page.evaluate("document.activeElement.id") == "open-17"  # the next segment

    expect(page.locator("#running-home")).to_have_text(str(home))
    expect(page.locator("#running-visitors")).to_have_text(str(visitors))
    expect(page.locator("#seg-1-home")).to_have_text(str(home))
    expect(page.locator("#seg-1-visitors")).to_have_text(str(visitors))
    for board, value in enumerate(per_board, start=1):
        expect(page.locator(f"#imps-{board}")).to_have_text(str(value))
    expect(page.locator("#open-1")).to_have_value("4S N =")  # normalised
    expect(page.locator("#open-1-ns")).to_have_text("420")
    expect(page.locator("#closed-1-ns")).to_have_text("-50")

    # A wrong entry: marked on its field, with the message next to it; nothing stored.
    page.keyboard.type("8S N =")
    page.keyboard.press("Tab")
    expect(page.locator("#open-17")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#open-17-msg")).to_contain_text("is not a result")
    page.locator("#board-17").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "2-entered-1280.png"), full_page=True)

    # The same page on a phone: one board a row (board, open, closed, IMPs), fits.
    page.set_viewport_size({"width": 390, "height": 900})
    page.goto(url)
    expect(page.locator("#running-home")).to_have_text(str(home))
    wide = page.evaluate(
        "document.querySelector('main').scrollWidth - document.querySelector('main').clientWidth"
    )
    assert wide <= 0, f"main is {wide} px too wide at 390 px"
    table = page.evaluate("document.querySelector('table.boards').getBoundingClientRect().right")
    assert table <= 390
    page.screenshot(path=str(ARTIFACTS / "3-phone-390.png"), full_page=True)
    page.locator("#board-1").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "4-phone-390-viewport.png"))
    # correcting on the phone: the running score follows
    page.fill("#closed-16", "")
    page.focus("#closed-16")
    page.keyboard.type("4S N +1")
    page.keyboard.press("Tab")
    expect(page.locator("#imps-16")).to_have_text("0")
    expect(page.locator("#running-home")).to_have_text(str(home - per_board[15]))
    # in Czech
    context.add_cookies([{"name": "django_language", "value": "cs", "url": live_server.url}])
    page.goto(url)
    expect(page.locator("#segment-1 h2")).to_contain_text("Sestava 1")
    page.screenshot(path=str(ARTIFACTS / "5-phone-390-cs.png"), full_page=True)
    context.close()

    stored = {(r.board, r.room): r.text for r in BoardResult.objects.filter(match=match)}
    assert len(stored) == 32
    assert stored[(3, "open")] == "6HXX W =" or stored[(3, "open")].startswith("6HXX W")
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS
