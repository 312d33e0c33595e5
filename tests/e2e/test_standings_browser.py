"""Browser test of the standings (issue 10, item 9) and of the scores in the bracket: a 13-team
edition played out except the final, whose two teams failed to appear (I16). At 390 px and
1280 px, in Czech and English: the organiser's standings page asks for the decision on the
shared 1st-2nd place, the decision is made in the browser and the prize list appears; the
public bracket shows the scores; no page is wider than the window.

Screenshots are kept in ``test-artifacts/standings/`` at the root of the checkout (git-ignored;
``BRIDGEKO_TEST_ARTIFACTS`` chooses another folder). Playwright drives Debian's chromium
(/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import CHROMIUM
from tests.web.conftest import PASSWORD, World, toml_1999, world  # noqa: F401  (fixtures)

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("BRIDGEKO_TEST_ARTIFACTS", REPO / "test-artifacts")) / "standings"
WIDTHS = (390, 1280)

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def _finalists_absent(world: World) -> tuple[str, str]:  # noqa: F811
    from bridgeko.draw import no_shows
    from bridgeko.entries.models import Team
    from bridgeko.matches.models import Match
    from tests.web.conftest import enter_13_and_draw, extend
    from tests.web.test_matches import PLAY
    from tests.web.test_standings import play_out

    extend(world, "drawn", enter_13_and_draw)
    play_out(world, stop=frozenset({"F"}))
    final = Match.objects.get(edition=world.edition, code="F")
    names = []
    for pk in (final.home_id, final.visitors_id):
        team = Team.objects.get(pk=pk)
        no_shows.record_no_show(
            team=team, match="F", timely_notice=True, note="", user=world.users["td"], now=PLAY
        )
        names.append(team.name)
    return names[0], names[1]


def _fits(page: Any, what: str) -> None:
    scroll_width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner, (what, scroll_width, inner)


@pytest.mark.django_db(transaction=True)
def test_I16_organiser_decides_the_shared_place_in_the_browser(
    browser: Any,
    live_server: Any,
    world: World,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    home, visitors = _finalists_absent(world)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    slug = world.edition.slug
    base = live_server.url
    for language in ("cs", "en"):
        for width in WIDTHS:
            context = browser.new_context(viewport={"width": width, "height": 900})
            context.add_cookies([{"name": "django_language", "value": language, "url": base}])
            page = context.new_page()
            page.set_default_timeout(15000)
            page.goto(f"{base}/login/")
            page.fill("#id_username", "organiser")
            page.fill("#id_password", PASSWORD)
            page.click("form.form button[type=submit]")
            page.wait_for_selector(".user-menu summary")
            page.click("#nav-standings")
            expect(page.locator("#standings")).to_contain_text(home)
            tag = f"{width}-{language}"
            if language == "cs" and width == 390:
                expect(page.locator("#decide")).to_be_visible()
                page.screenshot(path=str(ARTIFACTS / f"standings-decide-{tag}.png"), full_page=True)
                _fits(page, "standings before")
                page.select_option("#id_place", "1")
                page.select_option("#id_team", label=visitors)
                page.fill("#id_reason", "Omluvili se jako první")
                page.click("#decide button[type=submit]")
            expect(page.locator("#prizes")).to_contain_text(visitors)
            page.screenshot(path=str(ARTIFACTS / f"standings-{tag}.png"), full_page=True)
            _fits(page, f"standings {tag}")
            page.goto(f"{base}/e/{slug}/public/draw/")
            expect(page.locator(".bracket .score").first).to_be_visible()
            page.screenshot(path=str(ARTIFACTS / f"bracket-{tag}.png"), full_page=True)
            _fits(page, f"bracket {tag}")
            page.goto(f"{base}/e/{slug}/public/standings/")
            expect(page.locator("#prizes")).to_contain_text(visitors)
            page.screenshot(path=str(ARTIFACTS / f"public-standings-{tag}.png"), full_page=True)
            _fits(page, f"public standings {tag}")
            page.goto(f"{base}/e/{slug}/match-dates/")
            page.screenshot(path=str(ARTIFACTS / f"match-dates-{tag}.png"), full_page=True)
            _fits(page, f"match dates {tag}")
            context.close()
