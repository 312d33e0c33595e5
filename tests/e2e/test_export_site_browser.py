"""Browser test of the static export (issue 12, item 4): the exported site of a 13-team edition
with its draw held, opened from the disk (``file://``) in chromium: the root ``index.html``
leads to the edition's home, the public nav's link reaches the bracket with its byes, the style
sheet applies, the language link switches to the other language's page. Screenshots in
``test-artifacts/export/``. Playwright drives Debian's chromium; never ``playwright install``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.browser import CHROMIUM, artifacts, drawn_world

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.mark.django_db
def test_public_export_site_opens_from_the_disk_and_reaches_the_bracket(
    browser: Any, tmp_path: Path, db: Any
) -> None:
    from playwright.sync_api import expect

    from bridgeko.cli import main

    world = drawn_world()
    slug = world.edition.slug
    root = tmp_path / "site"
    assert main(["export-site", str(root), "--quiet"]) == 0
    shots = artifacts("export")
    shots.mkdir(parents=True, exist_ok=True)
    language = world.edition.language
    other = "en" if language == "cs" else "cs"
    for width in (390, 1280):
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        page.set_default_timeout(15000)
        page.goto((root / "index.html").as_uri())
        page.wait_for_url(f"**/{language}/e/{slug}/public/index.html")
        page.click(".public-nav a[href$='draw/index.html']")
        page.wait_for_url(f"**/{language}/e/{slug}/public/draw/index.html")
        expect(page.locator(".bracket").first).to_be_visible()
        assert page.locator(".bracket").first.inner_text().strip()
        # the exported style sheets loaded (a missing file leaves the link's sheet null)
        assert page.evaluate(
            "[...document.querySelectorAll('link[rel=stylesheet]')].every(l => l.sheet !== null)"
        )
        page.screenshot(path=str(shots / f"bracket-file-{width}.png"), full_page=True)
        page.click(f"nav.language a[hreflang='{other}']")
        page.wait_for_url(f"**/{other}/e/{slug}/public/draw/index.html")
        expect(page.locator(".bracket").first).to_be_visible()
        page.context.close()
