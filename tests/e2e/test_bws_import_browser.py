"""Browser test: a TD imports a segment's results from a real Bridgemate file (issue 20) — chooses
the tables of the two rooms, sees the preview (boards of the file outside the segment listed),
confirms, and switches on the server's following of the file; at 390 px (a phone) in Czech and
at 1280 px in English, the page no wider than the window.

Playwright drives Debian's chromium (/usr/bin/chromium); never ``playwright install``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridgeko.matches.models import BoardResult, BridgemateTables
from tests.e2e.browser import CHROMIUM, artifacts, drawn_world, fits, login, new_page
from tests.web.test_pbn_import import name_the_teams

REAL = Path(__file__).resolve().parents[1] / "data" / "bws" / "LBC-2026-01-26.bws"

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

WORDS = {
    "cs": {
        "import": "Importovat 32 výsledků",
        "done": "nových 32",
        "follow": "Server soubor sleduje",
    },
    "en": {
        "import": "Import 32 results",
        "done": "32 new",
        "follow": "The server follows the file",
    },
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("width", "language"), [(390, "cs"), (1280, "en")])
def test_td_imports_a_segment_from_bridgemate_and_follows_the_file(
    browser: Any, live_server: Any, width: int, language: str, tmp_path: Path
) -> None:
    world = drawn_world()
    match = name_the_teams(world)
    words = WORDS[language]
    shots = artifacts("bws-import")
    shots.mkdir(parents=True, exist_ok=True)
    page = new_page(browser, live_server.url, width, language)
    login(page, live_server.url, "td")
    page.goto(f"{live_server.url}/e/ko-1999/matches/{match.code}/")
    page.click(f"a[href$='/matches/{match.code}/import-bws/']")
    page.wait_for_load_state()
    page.set_input_files("#id_file", str(REAL))
    page.fill("#id_open_table", "1")
    page.fill("#id_closed_table", "2")
    page.select_option("#id_segment", "1")
    page.click("#upload-form button[type=submit]")
    page.wait_for_load_state()
    page.screenshot(path=str(shots / f"preview-{width}-{language}.png"), full_page=True)
    assert page.locator("#preview tbody tr").count() == 32
    assert page.locator("#problems li").count() == 11 + 2  # boards 17-27; a warning a table
    fits(page, "the preview")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_load_state()
    assert words["done"] in page.locator(".message.success").inner_text()
    assert BoardResult.objects.filter(match=match).count() == 32
    copy = tmp_path / "QF.bws"
    copy.write_bytes(REAL.read_bytes())
    page.fill("#follow_path", str(copy))
    page.check("#follow_follow")
    page.click("#follow-form button[type=submit]")
    page.wait_for_load_state()
    assert words["follow"] in page.locator(".message.success").inner_text()
    assert page.locator("#follower").count() == 1
    page.screenshot(path=str(shots / f"follow-{width}-{language}.png"), full_page=True)
    fits(page, "the follower")
    row = BridgemateTables.objects.get(match=match)
    assert row.follow and row.path == str(copy) and row.segment == 1
