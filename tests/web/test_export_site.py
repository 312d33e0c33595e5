"""``bridgeko export-site DIR`` (issue 12, item 4): the public site as static files with
relative links and its assets, incremental, re-exported after every change when
``BRIDGEKO_PUBLIC_DIR`` is set. The secrecy of the export is in ``test_secrecy.py``."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from django.test import override_settings
from django.utils import translation

from bridgeko.cli import main
from bridgeko.matches import services
from bridgeko.public import export
from tests.web import handrecord_world as hw_
from tests.web.conftest import World

pytestmark = pytest.mark.django_db

LINK_ATTRS = {"href", "src", "action", "data-live"}


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is not None and (name in LINK_ATTRS or name.startswith("data-")):
                self.links.append((name, value))


def _links(path: Path) -> list[tuple[str, str]]:
    parser = _Links()
    parser.feed(path.read_text("utf-8"))
    return parser.links


def _html_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


def _export(tmp: Path, *args: str, capsys: Any = None) -> tuple[int, str, str]:
    code = main(["export-site", str(tmp), *args])
    if capsys is None:
        return code, "", ""
    out, err = capsys.readouterr()
    return code, out, err


def _summary(out: str) -> dict[str, int]:
    return {k: int(v) for v, k in re.findall(r"(\d+) (written|unchanged|removed|skipped)", out)}


@pytest.fixture
def ended(world: World) -> hw_.HandWorld:
    hw = hw_.make(world)
    hw_.enter_closed_room(hw, {1: "4S N ="})
    hw_.end_segment(hw)
    return hw


def test_public_export_site_every_relative_link_resolves_and_no_absolute_path_remains(
    ended: hw_.HandWorld, tmp_path: Path, capsys: Any
) -> None:
    root = tmp_path / "site"
    code, out, err = _export(root, capsys=capsys)
    assert code == 0, err
    slug = ended.edition.slug
    assert out.startswith(f"{root}: ") and "written" in out
    files = _html_files(root)
    assert len(files) > 2 * 16  # both languages, the hand record of every board
    broken = []
    for page in files:
        for attr, value in _links(page):
            assert not value.startswith("/"), (page, attr, value)
            parts = urlsplit(value)
            if attr not in LINK_ATTRS or parts.scheme or value.startswith("#") or not parts.path:
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if not target.is_file():
                broken.append(f"{page.relative_to(root)}: {attr}={value}")
    assert broken == []
    # the pages, both languages, the hand records of the ended segment, the assets, live.json
    for name in (
        "index.html",
        f"cs/e/{slug}/public/index.html",
        f"en/e/{slug}/public/index.html",
        f"en/e/{slug}/public/draw/index.html",
        f"cs/e/{slug}/public/standings/index.html",
        f"en/e/{slug}/public/matches/QF1/segments/1/hand-records/index.html",
        f"en/e/{slug}/public/matches/QF1/segments/1/hand-records.pdf",  # issue 20
        f"cs/e/{slug}/public/matches/QF1/segments/1/hand-records.pdf",
        f"en/e/{slug}/public/matches/QF1/hand-records/16/index.html",
        f"cs/e/{slug}/public/matches/QF1/hand-records/1/index.html",
        "static/bridgeko/style.css",
        "static/bridgeko/live.js",
        "static/bridgeko/handrecords.css",
        f"e/{slug}/live.json",
        export.MANIFEST,
    ):
        assert (root / name).is_file(), name
    # the segment 2 has no set: nothing of it; the pages link the live file relatively
    assert not (root / f"en/e/{slug}/public/matches/QF1/segments/2").exists()
    home = root / f"en/e/{slug}/public/index.html"
    links = dict(_links(home))
    assert links["data-live"] == "../../../../e/ko-1999/live.json"
    assert (home.parent / links["data-live"]).is_file()
    live = json.loads((root / f"e/{slug}/live.json").read_text())
    assert live["version"] == home.read_text().split('data-version="')[1].split('"')[0]
    # one edition: the root redirects to its home in the edition's language
    index = (root / "index.html").read_text()
    assert f'url={ended.edition.language}/e/{slug}/public/index.html"' in index
    # the log-in link (no BRIDGEKO_SITE_URL configured) is dropped, its text stays
    text = home.read_text()
    assert "Log in</a>" in text and "/accounts/login" not in text


def test_public_export_site_bytes_are_the_servers_bytes_but_for_the_links(
    ended: hw_.HandWorld, tmp_path: Path
) -> None:
    assert _export(tmp_path)[0] == 0
    slug = ended.edition.slug
    with translation.override("en"):
        url = f"/en/e/{slug}/public/matches/QF1/hand-records/3/"
    served = ended.client("anonymous").get(url).content.decode()
    written = (tmp_path / export.file_of(url)).read_text()
    strip = re.compile(r'\s(?:href|src|data-live|action)="[^"]*"')
    assert strip.sub("", served) == strip.sub("", written)


@override_settings(BRIDGEKO_SITE_URL="https://ko.example.org")
def test_public_export_site_links_other_pages_on_the_configured_site(
    ended: hw_.HandWorld, tmp_path: Path
) -> None:
    assert _export(tmp_path, "--edition", ended.edition.slug)[0] == 0
    home = (tmp_path / f"en/e/{ended.edition.slug}/public/index.html").read_text()
    assert 'href="https://ko.example.org/' in home
    assert re.search(r'href="https://ko\.example\.org/[^"]*login', home)


def test_public_export_site_is_incremental(
    ended: hw_.HandWorld, tmp_path: Path, capsys: Any
) -> None:
    slug = ended.edition.slug
    code, out, _err = _export(tmp_path, capsys=capsys)
    assert code == 0
    first = _summary(out)
    assert first["written"] > 30 and first["removed"] == 0
    stamps = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    # nothing changed: nothing written
    code, out, _err = _export(tmp_path, capsys=capsys)
    assert code == 0
    again = _summary(out)
    # (the assets only the reused match pages link — handrecords.css, public-match.css — are
    # not looked at again: not counted)
    assert again["written"] == 0 and again["unchanged"] >= first["written"] - 2
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()} == stamps

    # a board saved: the match's pages, every page's "updated" stamp and live.json change;
    # the assets and the manifest's other files do not
    services.save_board(
        match=ended.match,
        board=17,
        room="open",
        text="3NT S =",
        version=0,
        user=ended.world.users["td"],
        now=hw_.NOW,
    )
    summary = export.export_site(tmp_path, [ended.edition])
    assert f"e/{slug}/live.json" in summary.written_files
    assert f"en/e/{slug}/public/matches/QF1/hand-records/1/index.html" in summary.written_files
    assert summary.reused == 0  # the match changed: its pages rendered again
    assert not any(name.startswith("static/") for name in summary.written_files)

    # a change elsewhere in the edition: the match's pages are not rendered again, only
    # restamped, and equal what the server sends
    services.save_board(
        match=ended.match,
        board=18,
        room="open",
        text="3NT S =",
        version=0,
        user=ended.world.users["td"],
        now=hw_.NOW,
    )
    ended.match.refresh_from_db()
    tokens = export._match_tokens(ended.edition)
    manifest = json.loads((tmp_path / export.MANIFEST).read_text())
    manifest["editions"][slug]["matches"]["QF1"] = tokens["QF1"]  # as if it had not changed
    (tmp_path / export.MANIFEST).write_text(json.dumps(manifest))
    summary = export.export_site(tmp_path, [ended.edition])
    # the match page, the set, its PDF, its 16 boards; both languages
    assert summary.reused == 2 * (3 + 16)
    url = f"/en/e/{slug}/public/matches/QF1/segments/1/hand-records/"
    served = ended.client("anonymous").get(url).content.decode()
    version = re.search(r'data-version="([^"]*)"', served)
    assert version is not None
    written = (tmp_path / export.file_of(url)).read_text()
    assert f'data-version="{version.group(1)}"' in written
    status = re.search(r'<p class="live-status".*?</p>', served, re.S)
    assert status is not None and status.group(0) in written


def test_public_export_site_removes_only_its_own_files_of_pages_gone(
    ended: hw_.HandWorld, tmp_path: Path
) -> None:
    assert _export(tmp_path)[0] == 0
    mine = tmp_path / "notes.txt"
    mine.write_text("the club's own file")
    old = tmp_path / "en/e/ko-1999/public/old/index.html"
    old.parent.mkdir(parents=True)
    old.write_text("gone")
    manifest = json.loads((tmp_path / export.MANIFEST).read_text())
    manifest["editions"]["ko-1999"]["urls"]["/en/e/ko-1999/public/old/"] = (
        "en/e/ko-1999/public/old/index.html"
    )
    manifest["files"]["en/e/ko-1999/public/old/index.html"] = "0" * 64
    (tmp_path / export.MANIFEST).write_text(json.dumps(manifest))
    summary = export.export_site(tmp_path, [ended.edition])
    assert summary.removed == 1 and summary.written == 0
    assert not old.exists() and not old.parent.exists()
    assert mine.read_text() == "the club's own file"


def test_public_export_site_skips_a_page_that_is_not_public_with_a_warning(
    world: World, tmp_path: Path, capsys: Any
) -> None:
    hw = hw_.make(world)  # the set is secret: no hand record is listed nor written
    code, out, err = _export(tmp_path, capsys=capsys)
    assert code == 0
    assert not list(tmp_path.rglob("hand-records/1/index.html"))
    # the draw is not held: its protocol is a 404, skipped with a warning, never written
    assert f"skipped /cs/e/{hw.edition.slug}/public/draw/protocol.json: 404" in err
    assert not (tmp_path / f"cs/e/{hw.edition.slug}/public/draw/protocol.json").exists()
    assert _summary(out)["skipped"] >= 2
    code, out, err = _export(tmp_path, "--quiet", capsys=capsys)
    assert code == 0 and err == ""


def _one_line_error(code: int, err: str) -> str:
    assert code == 2
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bridgeko: "), err
    return lines[0]


def test_public_export_site_unknown_edition_or_unwritable_directory_is_a_clear_message(
    world: World, tmp_path: Path, capsys: Any
) -> None:
    code, _out, err = _export(tmp_path / "a", "--edition", "no-such", capsys=capsys)
    assert "no edition no-such" in _one_line_error(code, err)
    assert "ko-1999" in err and not (tmp_path / "a").exists()
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _out, err = _export(blocker / "site", capsys=capsys)
    assert "cannot create" in _one_line_error(code, err)
    code, _out, err = _export(blocker, capsys=capsys)
    assert "not a directory" in _one_line_error(code, err)


def test_public_export_site_without_editions_says_so(db: Any, tmp_path: Path, capsys: Any) -> None:
    code, _out, err = _export(tmp_path, capsys=capsys)
    assert "no edition to export" in _one_line_error(code, err)


def test_public_export_site_after_every_change_when_a_directory_is_configured(
    world: World, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    hw = hw_.make(world, analysed=14)
    slug = hw.edition.slug
    live = tmp_path / f"e/{slug}/live.json"
    with override_settings(BRIDGEKO_PUBLIC_DIR=str(tmp_path)):
        with django_capture_on_commit_callbacks(execute=True):
            services.save_board(
                match=hw.match,
                board=2,
                room="closed",
                text="3NT S =",
                version=0,
                user=hw.world.users["td"],
                now=hw_.NOW,
            )
        first = json.loads(live.read_text())["version"]
        assert (tmp_path / f"cs/e/{slug}/public/index.html").is_file()
        # the background analysis (not audited) stores a board: exported again
        from bridgeko.boards.services import analyse_set

        with django_capture_on_commit_callbacks(execute=True):
            analyse_set(hw.deal_set.pk)
        second = json.loads(live.read_text())["version"]
        assert first.split(".")[1] == "14" and second.split(".")[1] == "16"
    # not configured: nothing is exported
    with (
        override_settings(BRIDGEKO_PUBLIC_DIR=""),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.save_board(
            match=hw.match,
            board=3,
            room="closed",
            text="3NT S =",
            version=0,
            user=hw.world.users["td"],
            now=hw_.NOW + timedelta(minutes=1),
        )
    assert json.loads(live.read_text())["version"] == second


def test_public_export_coalesces_a_change_made_while_an_export_runs(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edition = world.edition
    calls: list[int] = []

    def fake(where: Any, editions: list[Any], **kwargs: Any) -> export.Summary:
        calls.append(len(calls))
        if len(calls) == 1:  # a change arrives while the first export runs
            world.edition.name = world.edition.name + "!"
            from bridgeko.audit.services import record

            record("bridgeko.test.changed", obj=world.edition, summary="x")
            export._export_job(edition.pk)  # another thread's job: marks the edition dirty
            export._export_job(edition.pk)
        return export.Summary()

    monkeypatch.setattr(export, "export_site", fake)
    with override_settings(BRIDGEKO_PUBLIC_DIR=str(tmp_path)):
        export._export_job(edition.pk)
        assert calls == [0, 1]  # once more after it, not three times
        export._export_job(edition.pk)  # nothing changed since: not exported again
        assert calls == [0, 1]
