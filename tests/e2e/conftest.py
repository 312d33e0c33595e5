"""What every browser test gets: one chromium per worker (started by the first browser test,
closed at the end of the run), each test's windows closed after it, fast password hashes.

``BRIDGEKO_NO_SCREENSHOTS=1`` takes no screenshots (they are for people to look at; nothing is
asserted on them): ``make test-db`` sets it, the PostgreSQL phase of ``.ci/run`` would take
the same pictures again as the SQLite phase, at a third of its browser tests' time.

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.browser import ARGS, CHROMIUM

# Playwright's sync API runs an event loop in the test's thread; the ORM calls made there
# between its steps are not inside that loop.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


SCREENSHOTS = not os.environ.get("BRIDGEKO_NO_SCREENSHOTS")


@pytest.fixture(scope="session")
def _chromium() -> Iterator[Any]:
    from playwright.sync_api import Locator, Page, sync_playwright

    if not SCREENSHOTS:
        for kind in (Page, Locator):
            kind.screenshot = lambda self, *args, **kwargs: b""  # type: ignore[method-assign]

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def browser(_chromium: Any) -> Iterator[Any]:
    """The worker's chromium; the contexts (windows, cookies) a test opens are closed after
    it, so the next test starts with none."""
    yield _chromium
    for context in list(_chromium.contexts):
        context.close()


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
