"""What the browser tests share: an edition with its draw held, the folder of their
screenshots, a page in a language and width, the login, and the check that a page is no wider
than the window."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.editions.services import create_edition
from tests.web.conftest import PASSWORD, REGULATIONS_1999, World, make_user
from tests.web.test_draw import enter_13, held
from tests.worlds import once

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Debian's chromium, with the switches that keep it off this machine's closed network."""


def drawn_world() -> World:
    """Edition ``ko-1999`` (the 1999 regulations) made by ``organiser``, ``td`` its TD, 13
    teams entered and the draw held (built once per worker: :func:`tests.worlds.once`)."""
    return once("e2e-drawn", _drawn_world)


def _drawn_world() -> World:
    organiser = make_user("organiser")
    edition = create_edition(
        slug="ko-1999", toml_text=REGULATIONS_1999.read_text(encoding="utf-8"), user=organiser
    )
    td = make_user("td")
    RoleAssignment.objects.create(user=td, edition=edition, role=Role.TD)
    world = World(edition=edition, users={"organiser": organiser, "td": td})
    enter_13(world)
    held(world)
    return world


def match_with_captains() -> tuple[World, Any]:
    """:func:`drawn_world` with the match dates published and the first match still to play,
    whose captains ``cap-home`` and ``cap-visitors`` log in (the agreement and record tests)."""
    from bridgeko.matches.models import Match, MatchStatus
    from tests.web.test_standings import _dates

    world = drawn_world()
    _dates(world)
    match = Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None
    for side, team_id in (("home", match.home_id), ("visitors", match.visitors_id)):
        user = make_user(f"cap-{side}")
        RoleAssignment.objects.create(
            user=user, edition=world.edition, role=Role.CAPTAIN, team_id=team_id
        )
    return world, match


def artifacts(name: str) -> Path:
    """``test-artifacts/<name>`` at the root of the checkout (git-ignored;
    ``BRIDGEKO_TEST_ARTIFACTS`` chooses another folder for all of them)."""
    return Path(os.environ.get("BRIDGEKO_TEST_ARTIFACTS") or REPO / "test-artifacts") / name


def new_page(browser: Any, base: str, width: int, language: str) -> Any:
    """A page in a context of its own, ``width`` px wide, in ``language`` (its cookie)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def login(page: Any, base: str, username: str) -> None:
    """Logs ``username`` in (the tests' password) and waits until it is."""
    page.goto(f"{base}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")
    page.wait_for_selector(".user-menu summary")


def fits(page: Any, what: str) -> None:
    """The page is no wider than the window (no sideways scrolling)."""
    scroll_width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll_width <= inner, (what, scroll_width, inner)
