"""Browser test (issue 21): after a match played by agreement the winning captain submits the
match record with a photo of the signed scorecards (390 px, Czech), the opponents' captain
confirms it (1280 px, English), and the TD approves it in one click; the match is decided.
Screenshots in ``test-artifacts/record/``. Playwright drives Debian's chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridgeko.matches.models import Match, MatchStatus, RecordStatus, RecordSubmission
from tests.e2e.browser import CHROMIUM, artifacts, fits, login, match_with_captains, new_page
from tests.web.test_standings import _local

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
    world, match = match_with_captains()
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


@pytest.mark.django_db(transaction=True)
def test_R14_2b_record_board_by_board_from_a_file_in_the_browser(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The board table fits a phone (390 px, English); the winners send the scoring program's
    PBN file (1280 px, Czech; written by our own writer: the round trip through the page); the
    TD reviews the boards with their IMPs on a phone in Czech."""
    from django.utils import timezone

    from tests.web.test_records import winning_pbn

    monkeypatch.setattr(timezone, "now", lambda: _local(1999, 3, 19, 11, 0))
    world, match = match_with_captains()
    data, (home, visitors) = winning_pbn(match)
    results = tmp_path / "utkani.pbn"
    results.write_bytes(data)
    photo = tmp_path / "zapis.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    shots = artifacts("record")
    shots.mkdir(parents=True, exist_ok=True)
    base, slug = live_server.url, world.edition.slug
    url = f"{base}/e/{slug}/matches/{match.code}/record/home/"

    page = new_page(browser, base, 390, "en")
    login(page, base, "cap-home")
    page.goto(url)
    page.click("#record-boards summary")
    page.fill("#id_b1_open", "4S N =")
    page.screenshot(path=str(shots / "boards-390-en.png"), full_page=True)
    fits(page, "the board table")
    page.context.close()

    page = new_page(browser, base, 1280, "cs")
    login(page, base, "cap-home")
    page.goto(url)
    page.click("#record-boards summary")
    page.set_input_files("#id_results", str(results))
    page.set_input_files("#id_scorecards", str(photo))
    page.click("#record-form button[type=submit]")
    page.wait_for_load_state()
    assert f"{home} : {visitors}" in page.locator("#waiting").inner_text()
    page.screenshot(path=str(shots / "sent-from-file-1280-cs.png"), full_page=True)
    page.context.close()
    sub = RecordSubmission.objects.get(match=match)
    assert len(sub.boards) == 64

    page = new_page(browser, base, 390, "cs")
    login(page, base, "td")
    page.goto(f"{base}/e/{slug}/matches/{match.code}/record-review/")
    assert page.locator(".record-boards tbody tr").count() == 32
    page.screenshot(path=str(shots / "review-boards-390-cs.png"), full_page=True)
    fits(page, "the review with the boards")
    page.context.close()
