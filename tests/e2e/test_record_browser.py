"""Browser test (issue 21): after a match played by agreement the winning captain submits the
match record with a photo of the signed scorecards (390 px, Czech), the opponents' captain
confirms it (1280 px, English), and the TD approves it in one click; the match is decided.
Screenshots in ``test-artifacts/record/``. Playwright drives Debian's chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.matches.models import Match, MatchStatus, RecordStatus, RecordSubmission
from tests.e2e.browser import CHROMIUM, artifacts, drawn_world, fits, login, new_page
from tests.web.conftest import make_user
from tests.web.test_standings import _dates, _local

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
def test_R14_2b_captains_record_confirmed_and_approved_in_the_browser(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: _local(1999, 3, 19, 11, 0))
    world = drawn_world()
    _dates(world)
    match = Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    for side, team_id in (("home", match.home_id), ("visitors", match.visitors_id)):
        user = make_user(f"cap-{side}")
        RoleAssignment.objects.create(
            user=user, edition=world.edition, role=Role.CAPTAIN, team_id=team_id
        )
    Match.objects.filter(pk=match.pk).update(start=_local(1999, 3, 18, 18, 0))  # by agreement
    photo = tmp_path / "zapis.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    shots = artifacts("record")
    shots.mkdir(parents=True, exist_ok=True)
    base, slug = live_server.url, world.edition.slug

    page = new_page(browser, base, 390, "cs")
    login(page, base, "cap-home")
    page.goto(f"{base}/e/{slug}/my-team/")
    page.click("text=Odevzdat zápis o utkání (R14.2b)")
    page.wait_for_load_state()
    for name, value in (
        ("s1_home", "40"),
        ("s1_visitors", "12"),
        ("s2_home", "25"),
        ("s2_visitors", "30"),
    ):
        page.fill(f"#id_{name}", value)
    page.set_input_files("#id_scorecards", str(photo))
    page.screenshot(path=str(shots / "submit-390-cs.png"), full_page=True)
    fits(page, "the record form")
    page.click("#record-form button[type=submit]")
    page.wait_for_load_state()
    assert "65 : 42" in page.locator("#waiting").inner_text()
    page.context.close()

    page = new_page(browser, base, 1280, "en")
    login(page, base, "cap-visitors")
    page.goto(f"{base}/e/{slug}/my-team/")
    page.click("text=Confirm or dispute the opponents' record")
    page.wait_for_load_state()
    page.screenshot(path=str(shots / "confirm-1280-en.png"), full_page=True)
    page.click("#answer-form button[value=confirm]")
    page.wait_for_load_state()
    page.context.close()
    assert RecordSubmission.objects.get(match=match).status == RecordStatus.CONFIRMED

    page = new_page(browser, base, 390, "en")
    login(page, base, "td")
    page.goto(f"{base}/e/{slug}/matches/{match.code}/record-review/")
    page.screenshot(path=str(shots / "review-390-en.png"), full_page=True)
    fits(page, "the review")
    page.click("#review-form button[value=approve]")
    page.wait_for_load_state()
    page.context.close()
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED and match.winner == "home"
