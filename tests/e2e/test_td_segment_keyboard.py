"""Browser test (issue 10): a TD runs segment 1 of a match with the KEYBOARD ONLY — no mouse
click anywhere. On the line-up pages the TD gives the line-up of the visitors (they sit first in
segment 1, R12.6) and then of the home team (the arrow keys in the selects, Tab, Enter); on the
match page the line-ups show, and the TD types the 16 boards (open room, Tab, closed room, Tab,
the next board) and sees the running score. The IMPs and the totals are
checked against the engine (``bridgeko.bridge.scoring``, R12.2-R12.3). Once in Czech.
Screenshots at 1280 px and 390 px are kept in ``test-artifacts/td-segment-keyboard/``
(git-ignored; the folder can be moved with ``BRIDGEKO_TEST_ARTIFACTS``).

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bridgeko.bridge.board import vulnerability
from bridgeko.bridge.scoring import parse_result, score_board
from bridgeko.matches import lineups
from bridgeko.matches.models import BoardResult, LineUp, Match, MatchStatus
from tests.e2e.browser import CHROMIUM, drawn_world
from tests.e2e.test_board_entry import BOARDS
from tests.web.conftest import PASSWORD

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = (
    Path(os.environ.get("BRIDGEKO_TEST_ARTIFACTS") or REPO / "test-artifacts")
    / "td-segment-keyboard"
)
FIELDS = ("open_first", "open_second", "closed_first", "closed_second")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def engine() -> tuple[list[int], list[tuple[int, int]]]:
    """From the engine alone: each board's IMPs to the home team (home NS in the open room,
    R12.2) and the running score (home, visitors) after each board (R12.3)."""
    per_board: list[int] = []
    running: list[tuple[int, int]] = []
    home = visitors = 0
    for board, (open_text, closed_text) in enumerate(BOARDS, start=1):
        scored = score_board(
            parse_result(open_text), parse_result(closed_text), vulnerability(board)
        )
        per_board.append(scored.imps)
        home += scored.home_imps
        visitors += scored.away_imps
        running.append((home, visitors))
    return per_board, running


@pytest.mark.django_db(transaction=True)
def test_R12_6_R12_3_td_enters_line_ups_and_16_boards_with_the_keyboard_only(
    browser: Any,
    live_server: Any,
) -> None:
    from playwright.sync_api import expect

    world = drawn_world()
    edition = world.edition
    match = Match.objects.filter(edition=edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None and match.home is not None and match.visitors is not None
    home_players = lineups.roster_of(match.home)[:4]
    guest_players = lineups.roster_of(match.visitors)[:4]
    per_board, running = engine()
    home, visitors = running[-1]
    assert home > 0 and visitors > 0  # both teams gain somewhere: the numbers mean something
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    base = f"{live_server.url}/e/ko-1999/matches/{match.code}/"

    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(15000)

    def active() -> str:
        return str(page.evaluate("document.activeElement.id"))

    def shot(name: str, full: bool = True) -> None:
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)

    # Log in with the keyboard: type, Tab, type, Enter.
    page.goto(f"{live_server.url}/login/")
    page.focus("#id_username")
    page.keyboard.type("td")
    page.keyboard.press("Tab")
    assert active() == "id_password"
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator(".user-menu summary")).to_have_text("td")

    def give_line_up(players: list[Any]) -> None:
        """Choose each player in its select with the arrow keys (the players are
        listed in the roster's order after "—"; the names' Czech letters defeat the
        select's type-ahead in a synthetic keyboard), Tab to the next select, then Tab
        to "Save the line-up" and press Enter."""
        page.focus(f"#id_{FIELDS[0]}")
        for position, (name, player) in enumerate(zip(FIELDS, players, strict=True)):
            assert active() == f"id_{name}"
            for _ in range(position + 1):
                page.keyboard.press("ArrowDown")
            expect(page.locator(f"#id_{name}")).to_have_value(str(player.pk))
            page.keyboard.press("Tab")
        for _ in range(5):  # the button follows the selects
            if active() == "save-line-up":
                break
            page.keyboard.press("Tab")
        assert active() == "save-line-up"
        page.keyboard.press("Enter")
        expect(page.locator(".messages")).to_contain_text("saved")

    # Segment 1: the visitors sit first (R12.6), so the TD starts with their line-up.
    page.goto(f"{base}segments/1/line-up/visitors/")
    expect(page.locator("#seating-order strong").first).to_have_text(match.visitors.name)
    give_line_up(guest_players)
    expect(page.locator("#room-open .seat-E")).to_contain_text(guest_players[0].name)
    shot("1-visitors-line-up-1280")

    # To the home team's page by the TD's link: focus it, Enter.
    page.focus("#other-side")
    page.keyboard.press("Enter")
    expect(page.locator("#line-up-title")).to_contain_text(match.home.name)
    give_line_up(home_players)
    expect(page.locator("#room-open .seat-N")).to_contain_text(home_players[0].name)
    expect(page.locator("#room-closed .seat-N")).to_contain_text(guest_players[2].name)
    shot("2-home-line-up-1280")

    # The match page: both line-ups show in segment 1.
    page.goto(base)
    table = page.locator("#segment-1 .line-up-table")
    for player in home_players + guest_players:
        expect(table).to_contain_text(player.name)
    expect(page.locator("#missing")).not_to_contain_text("Segment 1: line-up of")
    expect(page.locator("#running-home")).to_have_text("0")

    # The 16 boards: open room, Tab, closed room, Tab, the next board.
    page.focus("#open-1")
    for board, (open_text, closed_text) in enumerate(BOARDS, start=1):
        assert active() == f"open-{board}"
        page.keyboard.type(open_text)
        page.keyboard.press("Tab")
        assert active() == f"closed-{board}"
        page.keyboard.type(closed_text)
        page.keyboard.press("Tab")
        if board in (4, 8, 12):  # the running score so far, as the TD sees it
            expect(page.locator(f"#imps-{board}")).to_have_text(str(per_board[board - 1]))
            expect(page.locator("#running-home")).to_have_text(str(running[board - 1][0]))
            expect(page.locator("#running-visitors")).to_have_text(str(running[board - 1][1]))
    assert active() == "open-17"  # on to the next segment

    expect(page.locator("#running-home")).to_have_text(str(home))
    expect(page.locator("#running-visitors")).to_have_text(str(visitors))
    expect(page.locator("#seg-1-home")).to_have_text(str(home))
    expect(page.locator("#seg-1-visitors")).to_have_text(str(visitors))
    page.reload()  # "Still missing" is drawn by the server: segment 1 is complete
    expect(page.locator("#missing")).not_to_contain_text("Segment 1:")
    for board in (1, 2, 3, 10, 16):
        expect(page.locator(f"#imps-{board}")).to_have_text(str(per_board[board - 1]))
    page.locator("#running-score").scroll_into_view_if_needed()
    shot("3-match-1280")

    # On a phone, in Czech (the language cookie, as the other tests do).
    page.set_viewport_size({"width": 390, "height": 900})
    context.add_cookies([{"name": "django_language", "value": "cs", "url": live_server.url}])
    page.goto(base)
    expect(page.locator("#segment-1 h2")).to_contain_text("Sestava 1")
    expect(page.locator("#running-home")).to_have_text(str(home))
    expect(page.locator("#segment-1 .line-up-table")).to_contain_text(home_players[0].name)
    wide = page.evaluate(
        "document.querySelector('main').scrollWidth - document.querySelector('main').clientWidth"
    )
    assert wide <= 0, f"main is {wide} px too wide at 390 px"
    shot("4-match-390-cs")
    page.locator("#segment-1").scroll_into_view_if_needed()
    shot("5-match-390-cs-viewport", full=False)
    page.goto(f"{base}segments/1/line-up/home/")
    expect(page.locator("#room-open .seat-N")).to_contain_text(home_players[0].name)
    shot("6-line-up-390-cs")
    context.close()

    assert LineUp.objects.filter(segment__match=match, segment__number=1).count() == 2
    assert BoardResult.objects.filter(match=match).count() == 32
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS
