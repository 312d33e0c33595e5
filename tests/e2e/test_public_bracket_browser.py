"""Browser test of the public bracket (issue 12, item 8): a 13-team edition drawn (three byes in
the scheme for 16), two first-round matches decided and one in progress. At 390 px and 1280 px,
in Czech and English: the bracket shows its three byes and the running score of the match in
progress, the page is no wider than the window (the bracket scrolls sideways inside its own
frame on a phone), the home page shows the match being played, the team page its path, the
embeddable bracket fits its frame; the bracket prints on A4 (a PDF).

Screenshots of the bracket, the home page, the team page and the embedded bracket are kept in
``test-artifacts/public-bracket/`` at the root of the checkout (git-ignored;
``BRIDGEKO_TEST_ARTIFACTS`` chooses another folder). Playwright drives Debian's chromium
(/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from tests.e2e.browser import CHROMIUM, artifacts, fits, new_page
from tests.web.conftest import World, toml_1999, world  # noqa: F401  (fixtures)

ARTIFACTS = artifacts("public-bracket")
WIDTHS = (390, 1280)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def _played(world: World) -> tuple[str, int]:  # noqa: F811
    """13 teams drawn; two matches decided, one in progress: its code and home team."""
    from bridgeko.matches.models import Match
    from tests.web.conftest import enter_13_and_draw, extend
    from tests.web.test_matches import PLAY
    from tests.web.test_public_bracket import decide, start, to_play

    extend(world, "drawn", enter_13_and_draw)
    first, second, live, *_rest = to_play(world.edition)
    decide(world, first, PLAY)
    decide(world, second, PLAY + timedelta(hours=2), home=5, visitors=40)
    start(world, live, 4, segment_done=True)
    live = Match.objects.get(pk=live.pk)
    assert live.home_id is not None
    return live.code, live.home_id


@pytest.mark.django_db(transaction=True)
def test_public_13_team_bracket_with_byes_and_a_live_match_in_the_browser(
    browser: Any,
    live_server: Any,
    world: World,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    code, team = _played(world)
    slug = world.edition.slug
    base = live_server.url
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for language in ("cs", "en"):
        for width in WIDTHS:
            page = new_page(browser, base, width, language)
            tag = f"{width}-{language}"
            root = f"{base}/{language}/e/{slug}/public"

            page.goto(f"{root}/draw/")
            byes = page.locator(".bracket .bracket-match.bye")
            expect(byes).to_have_count(3)
            for k in range(3):
                byes.nth(k).scroll_into_view_if_needed()
                expect(byes.nth(k)).to_be_visible()
                expect(byes.nth(k)).to_contain_text("R11.4")
            score = page.locator(f"#score-{code}")
            expect(score).to_contain_text("47:24")
            expect(score).to_contain_text("20")
            expect(page.locator(f"#match-{code} .chance")).to_have_count(2)
            fits(page, f"bracket {tag}")
            page.screenshot(path=str(ARTIFACTS / f"bracket-{tag}.png"), full_page=True)
            page.locator(".bracket").screenshot(path=str(ARTIFACTS / f"bracket-only-{tag}.png"))

            page.goto(f"{root}/")
            expect(page.locator(f"#now-{code}")).to_contain_text("47:24")
            expect(page.locator("#latest li")).to_have_count(2)
            fits(page, f"home {tag}")
            page.screenshot(path=str(ARTIFACTS / f"home-{tag}.png"), full_page=True)

            page.goto(f"{root}/draw/")
            page.locator(f"#match-{code} .slot.home a").click()
            expect(page).to_have_url(f"{root}/teams/{team}/")
            expect(page.locator(f"#path-{code}")).to_contain_text("47:24")
            fits(page, f"team {tag}")
            page.screenshot(path=str(ARTIFACTS / f"team-{tag}.png"), full_page=True)

            page.goto(f"{root}/embed/bracket/")
            expect(page.locator(".bracket .bracket-match.bye")).to_have_count(3)
            fits(page, f"embed {tag}")
            page.screenshot(path=str(ARTIFACTS / f"embed-{tag}.png"), full_page=True)

            if width == 1280:
                page.goto(f"{root}/draw/")
                page.emulate_media(media="print")
                page.screenshot(path=str(ARTIFACTS / f"print-{tag}.png"), full_page=True)
                page.pdf(path=str(ARTIFACTS / f"bracket-{language}.pdf"), format="A4")
            page.context.close()
