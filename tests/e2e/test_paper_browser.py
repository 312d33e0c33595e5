"""Browser test of the paper forms (issue 11 item 5): the TD opens a match page at 390 px and
1280 px, in Czech and English, finds the "Print (PDF)" links, follows the match record's link
(the browser opens the PDF) and the PDF holds the teams and the results in that language.

Screenshots and the downloaded PDFs are kept in ``test-artifacts/paper-browser/`` at the root of
the checkout (git-ignored; ``BRIDGEKO_TEST_ARTIFACTS`` chooses another folder). Playwright drives
Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tests.e2e.browser import CHROMIUM, artifacts, fits, login, new_page
from tests.web.conftest import World, toml_1999, world  # noqa: F401  (fixtures)

ARTIFACTS = artifacts("paper-browser")
WIDTHS = (390, 1280)
TITLES = {"cs": "Zápis utkání", "en": "Match record"}

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def _played_match(world: World) -> Any:  # noqa: F811
    from bridgeko.matches.models import Match, MatchStatus
    from tests.web.conftest import enter_13_and_draw, extend
    from tests.web.test_matches import play_segment

    extend(world, "drawn", enter_13_and_draw)
    match = Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    play_segment(world, match, 1, "4S N =", "4S N -1")
    return match


@pytest.mark.django_db(transaction=True)
def test_R14_2_td_downloads_the_match_record_from_the_match_page(
    browser: Any,
    live_server: Any,
    world: World,  # noqa: F811
) -> None:
    from playwright.sync_api import expect
    from pypdf import PdfReader

    match = _played_match(world)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url
    for language in ("cs", "en"):
        for width in WIDTHS:
            tag = f"{width}-{language}"
            page = new_page(browser, base, width, language)
            context = page.context
            login(page, base, "td")
            page.goto(f"{base}/e/{world.edition.slug}/matches/{match.code}/")
            links = page.locator("#paper-links a")
            expect(links).to_have_count(2)
            page.screenshot(path=str(ARTIFACTS / f"match-{tag}.png"), full_page=False)
            fits(page, tag)
            # the browser opens the PDF (inline, with its file name): read its answer
            href = links.first.get_attribute("href")
            with page.expect_response(lambda r: r.url.endswith("/record.pdf")) as info:
                links.first.click()
            response = info.value
            assert response.status == 200
            assert response.headers["content-type"] == "application/pdf"
            assert ".pdf" in response.headers["content-disposition"]
            # chromium's PDF viewer stands in for the body: fetch the file itself
            body = context.request.get(f"{base}{href}").body()
            (ARTIFACTS / f"record-{tag}.pdf").write_bytes(body)
            assert body.startswith(b"%PDF-")
            reader = PdfReader(io.BytesIO(body))
            text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
            assert TITLES[language] in text
            assert match.home.name in text and match.visitors.name in text
            assert "420" in text  # 4S made, not vulnerable, in the open room
            context.close()
