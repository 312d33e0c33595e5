"""Browser test of the boards of a segment (issue 11, R12.7, I8, I15): the organiser commits a
seed for a quarterfinal's segment, makes the set and downloads its DLM file for the dealing
machine; the TD records the end in both rooms on the match page; the public page then shows the
seed and the ``bridgeko verify-deal`` command. At 390 px (a phone) and 1280 px, in Czech and
English; the screenshots go to ``test-artifacts/boards/`` (``BRIDGEKO_TEST_ARTIFACTS`` moves
it).

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridgeko.boards.models import DealSet
from bridgeko.bridge import formats
from bridgeko.bridge.cards import Deal
from bridgeko.entries.models import Team
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.e2e.browser import CHROMIUM, artifacts, drawn_world, login
from tests.web.conftest import World

ARTIFACTS = artifacts("boards")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

TEXT = {
    "cs": {"made": "Sada sestavy 1 je vytvořena", "ended": "skončila", "seed": "Osudí"},
    "en": {"made": "The set of segment 1 is made", "ended": "ended", "seed": "Seed"},
}


def _quarterfinal(world: World) -> Match:
    match = Match.objects.get(edition=world.edition, code="QF1")
    home, visitors = Team.objects.filter(edition=world.edition).order_by("pk")[:2]
    match.home, match.visitors, match.status = home, visitors, MatchStatus.TO_PLAY
    match.save()
    # short segments: the double-dummy analysis runs inline in the live server (the tests'
    # setting), some 0.1-0.6 s a board
    Segment.objects.create(match=match, number=1, first_board=1, last_board=4)
    Segment.objects.create(match=match, number=2, first_board=5, last_board=8)
    return match


def _login(page: Any, url: str, who: str) -> None:
    page.context.clear_cookies()
    login(page, url, who)


def _shot(page: Any, name: str, width: int, lang: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{lang}-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1, name


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["cs", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_R12_7_organiser_commits_makes_downloads_td_ends_public_sees_the_seed(
    browser: Any, live_server: Any, width: int, lang: str
) -> None:
    world = drawn_world()
    _quarterfinal(world)
    base = f"{live_server.url}/e/ko-1999/matches/QF1"
    text = TEXT[lang]

    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(60000)

    def language() -> None:
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])

    # the organiser: commit, make, download
    _login(page, live_server.url, "organiser")
    language()
    page.goto(f"{base}/sets/")
    _shot(page, "boards-match", width, lang)
    page.click("#set-1 a.commit-link")
    page.wait_for_load_state()
    assert page.input_value("#id_event") == "Bridge Open K.O. 1999"
    assert page.input_value("#id_session") == "QF1-S1"
    _shot(page, "boards-commit", width, lang)
    page.click("#commit")
    page.wait_for_load_state()
    deal_set = DealSet.objects.get(segment__match__code="QF1", segment__number=1)
    assert deal_set.commitment in page.inner_text("#commitment")
    page.click("#make-set")
    page.wait_for_load_state()
    assert text["made"] in page.inner_text(".messages")
    _shot(page, "boards-set", width, lang)
    page.select_option("#id_format", "dlm")
    with page.expect_download() as info:
        page.click("#download")
    download = info.value
    assert download.suggested_filename == "ko-1999_QF1_segment-1_boards-1-4.dlm"
    data = Path(download.path()).read_text(encoding="ascii")
    assert "Status=Sealed" in data
    assert formats.from_dlm(data) == {b.board: Deal.from_pbn(b.deal) for b in deal_set.boards.all()}

    # the public page before the end: the commitment, not the seed
    page.context.clear_cookies()
    language()
    page.goto(f"{live_server.url}/e/ko-1999/public/boards/")
    body = page.inner_text("main") if page.locator("main").count() else page.content()
    assert deal_set.commitment in body and deal_set.seed not in page.content()

    # the TD records the end in both rooms
    _login(page, live_server.url, "td")
    language()
    page.goto(f"{base}/")
    page.locator("#end-1-open button").click()
    page.wait_for_load_state()
    page.locator("#end-1-closed button").click()
    page.wait_for_load_state()
    assert text["ended"] in page.inner_text("#segment-end-1")
    page.locator("#segment-end-1").scroll_into_view_if_needed()
    _shot(page, "boards-td-ends", width, lang)

    # the public page after the end: the seed and the command
    page.context.clear_cookies()
    language()
    page.goto(f"{live_server.url}/e/ko-1999/public/boards/")
    assert deal_set.seed in page.inner_text("#set-QF1-1 .seed")
    command = page.inner_text("#set-QF1-1 .verify-command")
    assert command.startswith("bridgeko verify-deal --seed " + deal_set.seed)
    assert text["seed"] in page.inner_text("#set-QF1-1")
    _shot(page, "boards-public", width, lang)
