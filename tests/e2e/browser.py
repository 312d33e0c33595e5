"""What the browser tests of issue 11 share: the folder of their screenshots, a page in a
language and width, the login, and the check that a page is no wider than the window."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.web.conftest import PASSWORD

REPO = Path(__file__).resolve().parents[2]


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
