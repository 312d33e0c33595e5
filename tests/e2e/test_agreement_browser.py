"""Browser test (issue 21): two captains agree a match's date — the home captain proposes from
My team, the visitors' captain answers from My team and accepts; the match is moved. At 390 px
in Czech for one captain and 1280 px in English for the other (and the other way round); no
page wider than the window. Screenshots in ``test-artifacts/agreement/``.

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

from typing import Any

import pytest

from bridgeko.matches.models import DateProposal, ProposalStatus
from tests.e2e.browser import CHROMIUM, artifacts, fits, login, match_with_captains, new_page
from tests.web.test_standings import _local

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("home_view", "visitors_view"), [((390, "cs"), (1280, "en")), ((1280, "en"), (390, "cs"))]
)
def test_R14_2a_two_captains_agree_a_date_in_the_browser(
    browser: Any,
    live_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    home_view: tuple[int, str],
    visitors_view: tuple[int, str],
) -> None:
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: _local(1999, 3, 14, 10, 0))
    world, match = match_with_captains()
    shots = artifacts("agreement")
    shots.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    words = {
        "cs": {"agree": "Dohodnout jiný termín", "answer": "Soupeř navrhuje", "accept": "Přijmout"},
        "en": {
            "agree": "Agree another date",
            "answer": "The opponents propose",
            "accept": "Accept",
        },
    }
    width, language = home_view
    page = new_page(browser, base, width, language)
    login(page, base, "cap-home")
    page.goto(f"{base}/e/{world.edition.slug}/my-team/")
    page.click(f"text={words[language]['agree']}")
    page.wait_for_load_state()
    page.fill("#id_start", "1999-03-17T18:30")
    page.fill("#id_place", "Klub Kolín, Husova 12")
    page.fill("#id_note", "Středa večer?")
    page.screenshot(path=str(shots / f"propose-{width}-{language}.png"), full_page=True)
    fits(page, "the proposal form")
    page.click("#propose-form button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("#waiting").count() == 1
    page.context.close()
    assert DateProposal.objects.get(match=match).status == ProposalStatus.PENDING

    width, language = visitors_view
    page = new_page(browser, base, width, language)
    login(page, base, "cap-visitors")
    page.goto(f"{base}/e/{world.edition.slug}/my-team/")
    page.click(f"text={words[language]['answer']}")
    page.wait_for_load_state()
    assert "Klub Kolín" in page.locator("#waiting").inner_text()
    page.screenshot(path=str(shots / f"answer-{width}-{language}.png"), full_page=True)
    fits(page, "the answer")
    page.click("#answer-form button[value=accept]")
    page.wait_for_load_state()
    page.screenshot(path=str(shots / f"agreed-{width}-{language}.png"), full_page=True)
    page.context.close()
    match.refresh_from_db()
    assert match.start == _local(1999, 3, 17, 18, 30)
    assert DateProposal.objects.get(match=match).status == ProposalStatus.ACCEPTED
