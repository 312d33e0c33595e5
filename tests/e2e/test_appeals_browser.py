"""Browser test (issue 11, item 4): the appeals procedure (R16). The TD lodges the visitors'
appeal from the match page, the organiser names the committee from the list and enters its
decision (an adjusted board result), and the visitors' captain sees it on "My team" — at 390 px
(a phone) and 1280 px, in Czech and English. Screenshots of every step are kept in
``test-artifacts/appeals/`` (git-ignored; the folder can be moved with
``BRIDGEKO_TEST_ARTIFACTS``).

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from bridgeko.accounts.models import Role, RoleAssignment
from tests.e2e.browser import CHROMIUM, artifacts, drawn_world, new_page
from tests.e2e.browser import login as browser_login
from tests.web.conftest import make_user
from tests.web.test_matches import play_segment

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("width", "language"), [(390, "cs"), (1280, "cs"), (390, "en"), (1280, "en")]
)
def test_R16_td_lodges_organiser_decides_captain_sees_it(
    browser: Any, live_server: Any, width: int, language: str
) -> None:
    from playwright.sync_api import expect

    from bridgeko.appeals import services as appeals
    from bridgeko.appeals.models import Appeal
    from bridgeko.matches import services
    from bridgeko.matches.models import BoardResult, Match, MatchStatus, Segment

    world = drawn_world()
    edition, organiser, td = world.edition, world.users["organiser"], world.users["td"]
    td.first_name, td.last_name = "Pavel", "Rozhodčí"
    td.save(update_fields=["first_name", "last_name"])
    match = Match.objects.filter(edition=edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None and match.home is not None and match.visitors is not None
    captain = make_user("guest")
    RoleAssignment.objects.create(
        user=captain, edition=edition, role=Role.CAPTAIN, team=match.visitors
    )
    play_segment(world, match, 1, "4S N =", "4S N -1")
    play_segment(world, match, 2, "3NT S =", "3NT S =")
    now = timezone.now()
    for segment in Segment.objects.filter(match=match):
        for room in ("open", "closed"):
            services.mark_room_end(
                segment=segment, room=room, at=now - timedelta(minutes=10), user=td, now=now
            )
    appeals.save_settings(
        edition=edition,
        candidates_text="Karel Soudný\nEva Moudrá\nJan Rozvážný\nPetr Klidný",
        segment_deadlines=False,
        user=organiser,
        now=now,
    )
    shots = artifacts("appeals") / f"{language}-{width}px"
    shots.mkdir(parents=True, exist_ok=True)
    too_wide: list[str] = []

    def login(username: str) -> Any:
        page = new_page(browser, live_server.url, width, language)
        browser_login(page, live_server.url, username)
        return page

    def shot(page: Any, name: str) -> None:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
        wide = page.evaluate("document.querySelector('main').scrollWidth")
        if wide > width:
            too_wide.append(f"{name}: main is {wide} px wide")

    # The TD lodges the visitors' appeal from the match page.
    tdp = login("td")
    tdp.goto(f"{live_server.url}/e/ko-1999/matches/{match.code}/")
    tdp.locator("#match-extra-links a").first.click()
    expect(tdp.locator("#appeal-deadlines")).to_contain_text("R16.3")
    tdp.select_option("#id_appellant", str(match.visitors.pk))
    tdp.fill("#id_subject", "Board 5: misinformation")
    shot(tdp, "1-lodge")
    tdp.click("#lodge button[type=submit]")
    expect(tdp.locator("#appeal-state")).to_be_visible()
    shot(tdp, "2-lodged")
    appeal = Appeal.objects.get()

    # The organiser names the suggested committee and enters its decision.
    org = login("organiser")
    org.goto(f"{live_server.url}/e/ko-1999/appeals/{appeal.pk}/")
    expect(org.locator("#suggestion")).to_contain_text("Karel Soudný")
    shot(org, "3-committee")
    org.click("#name-committee button[type=submit]")
    expect(org.locator("#appeal-committee")).to_contain_text("Jan Rozvážný")
    org.click("#decide-link")
    org.check("input[name=outcome][value=adjusted]")
    org.fill("#id_reasons", "Damaged by the misinformation.")
    org.fill("#id_board1", "5")
    org.select_option("#id_room1", "closed")
    org.fill("#id_result1", "4S N -2")
    shot(org, "4-decision-form")
    org.click("#decision button[type=submit]")
    expect(org.locator("#finality")).to_contain_text("R16.5")
    expect(org.locator(".adjusted-result")).to_contain_text("4S N -2")
    shot(org, "5-decided")
    org.goto(f"{live_server.url}/e/ko-1999/appeals/")
    shot(org, "6-list")

    # The visitors' captain sees the decision on My team.
    guest = login("guest")
    link = guest.locator("a.match-action", has_text=match.visitors.name)
    expect(link).to_contain_text("rozhodnuto" if language == "cs" else "decided")
    shot(guest, "7-my-team")
    link.click()
    expect(guest.locator(".adjusted-result")).to_contain_text("4S N -2")
    shot(guest, "8-captain-appeal")

    appeal.refresh_from_db()
    assert appeal.status == "decided"
    assert BoardResult.objects.get(match=match, board=5, room="closed").text == "4S N -2"
    assert too_wide == []
