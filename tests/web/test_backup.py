"""``bridgeko backup`` / ``bridgeko restore`` (issue 8, deliverable 7) on the test database.

Database-neutral: the same tests run on SQLite (``make test``) and on PostgreSQL
(``DATABASE_URL=postgres://... pytest tests/web``). The round trip backs up the demo (both
editions, every model of bridgeko populated), empties the database, restores it and compares
every page — the public pages of each edition, anonymous, and every page an organiser can open —
byte for byte (only what changes from one response to the next is blanked: the CSRF
token, masked afresh each time, and the iCalendar file's DTSTAMP, the time it is made).
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from bridgeko.core import backup
from bridgeko.core.backup import BackupError, database_contents, restore_backup, write_backup
from bridgeko.editions.models import Edition
from bridgeko.players.models import Player
from tests.web.conftest import demo_loaded

pytestmark = pytest.mark.slow  # the demo loads two editions and holds a draw (seconds)

CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
DTSTAMP = re.compile(rb"DTSTAMP:[0-9TZ]+")  # the iCalendar file's "made at" (now)
SKIPPED_NAMESPACES = {"admin"}
SKIPPED_NAMES = {"logout", "set_language", "healthz"}
"""``healthz`` reports the server's state now (the database's answer time, free space), not the
data: not a page to compare."""
HEADLINE = ("editions.edition", "entries.team", "players.player", "auth.user")


def _patterns(resolvers: list[Any], prefix: str = "") -> Iterator[tuple[str, set[str]]]:
    """(URL name with namespace, its keyword arguments) of every named URL of the project."""
    for entry in resolvers:
        if isinstance(entry, URLResolver):
            if entry.namespace in SKIPPED_NAMESPACES:
                continue
            space = f"{prefix}{entry.namespace}:" if entry.namespace else prefix
            inner = set(entry.pattern.converters)
            for name, kwargs in _patterns(entry.url_patterns, space):
                yield name, kwargs | inner
        elif isinstance(entry, URLPattern) and entry.name:
            yield f"{prefix}{entry.name}", set(entry.pattern.converters)


def _pages() -> tuple[list[str], list[str]]:
    """(public URL names, other URL names) that take nothing or only an edition."""
    public, other = [], []
    for name, kwargs in sorted(
        set((n, frozenset(k)) for n, k in _patterns(get_resolver().url_patterns))
    ):
        if name in SKIPPED_NAMES or not kwargs <= {"edition"}:
            continue
        (public if name.startswith("public:") else other).append(name)
    return public, other


def _url(name: str, slug: str) -> str:
    try:
        return reverse(name, kwargs={"edition": slug})
    except Exception:
        return reverse(name)


SET_PASSWORD_TOKEN = re.compile(rb"/set-password/([^/]+)/[^/\"<]+/")
"""A one-time set-password link (the roles page, an account without a password): its token
holds the second it was made."""


def _page(response: Any) -> tuple[int, bytes]:
    body = SET_PASSWORD_TOKEN.sub(rb"/set-password/\1/TOKEN/", response.content)
    return response.status_code, DTSTAMP.sub(b"", CSRF.sub(b"", body))


def _render_all() -> dict[str, tuple[int, bytes]]:
    """Every public page of every edition (anonymous, Czech and English) and every page of
    every edition the organiser opens (English): status and body, the CSRF token blanked."""
    public, other = _pages()
    pages = {}
    organiser = Client()
    organiser.cookies["django_language"] = "en"
    organiser.force_login(get_user_model().objects.get(username="organiser"))
    for slug in Edition.objects.order_by("slug").values_list("slug", flat=True):
        for language in ("cs", "en"):
            visitor = Client()
            visitor.cookies["django_language"] = language
            for name in public:
                url = _url(name, slug)
                response = visitor.get(url)
                pages[f"{language} {url}"] = _page(response)
        for name in other:
            url = _url(name, slug)
            response = organiser.get(url)
            pages[f"organiser {url}"] = _page(response)
    return pages


@pytest.fixture
def demo(db: Any) -> None:
    """The demo, plus the rows it leaves empty that point to content types and permissions (the
    rows a backup writes by natural key): a group with a permission, a user's own permission, an
    entry of Django's admin log."""
    demo_loaded()
    organiser = get_user_model().objects.get(username="organiser")
    group = Group.objects.create(name="registrars")
    group.permissions.add(Permission.objects.get(codename="change_player"))
    organiser.user_permissions.add(Permission.objects.get(codename="view_edition"))
    # an Elo import that changed a rating, and an upload waiting for its import
    from bridgeko.players.models import EloImport, EloImportChange, EloUpload, Player

    first = EloImport.objects.order_by("pk").first()
    assert first is not None  # the demo's lists
    player = Player.objects.order_by("pk").first()
    EloImportChange.objects.create(elo_import=first, player=player, before=1500, after=1510)
    EloUpload.objects.create(
        user=organiser,
        edition=Edition.objects.order_by("pk").first(),
        name="elo.csv",
        data=b"id;name;elo\n",
        created_at=first.at,
    )
    LogEntry.objects.create(
        user=organiser,
        content_type=ContentType.objects.get_for_model(Edition),
        object_id="1",
        object_repr="ko-1999",
        action_flag=ADDITION,
    )


def _state() -> dict[str, Any]:
    """Every row a backup holds, by natural keys (content type and permission ids may differ)."""
    organiser = get_user_model().objects.get(username="organiser")
    return {
        "counts": database_contents(),
        "group": sorted(
            Group.objects.get(name="registrars").permissions.values_list("codename", flat=True)
        ),
        "own": sorted(organiser.user_permissions.values_list("codename", flat=True)),
        "log": list(LogEntry.objects.values_list("content_type__model", "object_repr")),
        "password": organiser.password,
        "editions": list(Edition.objects.order_by("pk").values_list("slug", "created_at")),
    }


def test_round_trip_of_the_demo_gives_every_page_byte_for_byte(demo: None, tmp_path: Path) -> None:
    assert {
        m._meta.label_lower
        for m in backup._models()
        if m._meta.app_label in {"audit", "accounts", "editions", "players", "entries", "draw"}
    } <= set(database_contents()), "every model of bridgeko has rows in the demo"
    public, _other = _pages()
    assert len(public) >= 6
    before = _render_all()
    assert before == _render_all(), "the pages are the same when rendered twice"
    state = _state()  # after the renders: each logs the organiser in (a row of axes' access log)
    assert state["counts"]["editions.edition"] == 3

    result = write_backup(tmp_path / "demo.bridgeko.gz")
    assert result.header.counts == state["counts"]
    assert result.objects == sum(state["counts"].values())
    backup._wipe("default")
    assert database_contents() == {}

    restored = restore_backup(tmp_path / "demo.bridgeko.gz")
    assert restored.objects == result.objects and restored.replaced == {}
    assert _state() == state
    after = _render_all()
    assert after.keys() == before.keys()
    for key in before:
        assert after[key] == before[key], key
    # the ids go on after the restored ones (PostgreSQL's sequences are reset)
    highest = Player.objects.order_by("-pk").values_list("pk", flat=True)[0]
    player = Player.objects.create(federation_id="999999", name="Nový Hráč")
    assert player.pk > highest


def test_restore_refuses_a_database_that_holds_data_naming_what_it_holds(
    demo: None, tmp_path: Path
) -> None:
    write_backup(tmp_path / "b.gz")
    Edition.objects.filter(slug="ko-1998").update(name="Renamed after the backup")
    with pytest.raises(BackupError) as exc:
        restore_backup(tmp_path / "b.gz")
    message = str(exc.value)
    assert "not empty" in message and "3 editions" in message and "--force" in message
    assert Edition.objects.get(slug="ko-1998").name == "Renamed after the backup"


def test_restore_force_replaces_everything_and_ends_every_login(demo: None, tmp_path: Path) -> None:
    state = _state()
    write_backup(tmp_path / "b.gz")
    Edition.objects.filter(slug="ko-1998").update(name="Renamed after the backup")
    Player.objects.create(federation_id="888888", name="Po Záloze")
    get_user_model().objects.create_user(username="later", password="x")
    client = Client()
    client.force_login(get_user_model().objects.get(username="organiser"))
    assert Session.objects.exists()

    result = restore_backup(tmp_path / "b.gz", force=True)
    assert result.replaced["editions.edition"] == 3
    assert result.replaced["players.player"] == state["counts"]["players.player"] + 1
    assert _state() == state
    assert Edition.objects.get(slug="ko-1998").name != "Renamed after the backup"
    assert not Player.objects.filter(federation_id="888888").exists()
    assert not get_user_model().objects.filter(username="later").exists()
    assert not Session.objects.exists()


def _gzip_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    with gzip.open(path, "wb") as out:
        for line in lines:
            out.write((json.dumps(line) + "\n").encode())
    return path


def _lines(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rb") as handle:
        return [json.loads(line) for line in handle]


def _damaged(tmp_path: Path, good: Path) -> dict[str, tuple[Path, str]]:
    """Damaged copies of a good backup: (file, what the message says)."""
    lines = _lines(good)
    data = good.read_bytes()
    header = lines[0]
    files = {}
    files["missing"] = (tmp_path / "none.gz", "no such file")
    (tmp_path / "plain.txt").write_text("hello\n")
    files["not gzip"] = (tmp_path / "plain.txt", "not a bridgeko backup")
    (tmp_path / "cut.gz").write_bytes(data[: len(data) // 2])
    files["cut short"] = (tmp_path / "cut.gz", "cut short")
    (tmp_path / "flipped.gz").write_bytes(
        data[:-12] + bytes(b ^ 0xFF for b in data[-12:-8]) + data[-8:]
    )
    files["damaged gzip"] = (tmp_path / "flipped.gz", "damaged")
    middle = len(data) // 2
    (tmp_path / "middle.gz").write_bytes(
        data[:middle] + bytes([data[middle] ^ 0x55]) + data[middle + 1 :]
    )
    files["a byte changed"] = (tmp_path / "middle.gz", "damaged")
    crc = data[:-8] + bytes(b ^ 0xFF for b in data[-8:-4]) + data[-4:]
    (tmp_path / "crc.gz").write_bytes(crc)
    files["wrong checksum"] = (tmp_path / "crc.gz", "damaged")
    with gzip.open(tmp_path / "text.gz", "wb") as out:
        out.write(b"just some text\n")
    files["gzip of text"] = (tmp_path / "text.gz", "not a bridgeko backup")
    files["other JSON"] = (
        _gzip_lines(tmp_path / "other.gz", [{"model": "x"}]),
        "not a bridgeko backup",
    )
    newer = {**header, "format_version": backup.FORMAT_VERSION + 1, "bridgeko": "9.0"}
    files["newer format"] = (
        _gzip_lines(tmp_path / "newer.gz", [newer, *lines[1:]]),
        "newer bridgeko",
    )
    future = {
        **header,
        "migrations": {
            **header["migrations"],
            "editions": [*header["migrations"]["editions"], "9999_future"],
        },
    }
    files["newer migrations"] = (
        _gzip_lines(tmp_path / "future.gz", [future, *lines[1:]]),
        "editions.9999_future",
    )
    past = {**header, "migrations": {**header["migrations"], "editions": ["0001_initial"]}}
    files["older migrations"] = (
        _gzip_lines(tmp_path / "past.gz", [past, *lines[1:]]),
        "older bridgeko",
    )
    files["no end mark"] = (_gzip_lines(tmp_path / "noend.gz", lines[:-1]), "cut short")
    files["a row lost"] = (
        _gzip_lines(tmp_path / "lost.gz", [*lines[:5], *lines[6:]]),
        "does not match",
    )
    last_row = max(i for i, line in enumerate(lines) if "model" in line and i > 0)
    unknown = [*lines[:last_row], lines[last_row] | {"model": "players.nomodel"}]
    unknown += lines[last_row + 1 :]  # (the uploaded files come after the rows)
    files["unknown table"] = (_gzip_lines(tmp_path / "badrow.gz", unknown), "players.nomodel")
    files["escaping file"] = (
        _gzip_lines(
            tmp_path / "escape.gz",
            [*lines[:-1], {"file": "../x", "data": ""}, {**lines[-1], "files": 1}],
        ),
        "damaged file entry",
    )
    return files


def test_a_damaged_or_foreign_file_is_refused_and_changes_nothing(
    demo: None, tmp_path: Path
) -> None:
    good = tmp_path / "good.gz"
    write_backup(good)
    state = _state()
    for what, (path, words) in _damaged(tmp_path, good).items():
        for force in (False, True):
            with pytest.raises(BackupError) as exc:
                restore_backup(path, force=force)
            assert words in str(exc.value), (what, str(exc.value))
            assert "\n" not in str(exc.value), what
            assert _state() == state, what


def test_a_row_that_breaks_a_constraint_rolls_the_whole_restore_back(
    demo: None, tmp_path: Path
) -> None:
    """A forced restore that fails half-way leaves the data that was there."""
    good = tmp_path / "good.gz"
    write_backup(good)
    lines = _lines(good)
    rosters = [i for i, line in enumerate(lines) if line.get("model") == "entries.rosterentry"]
    broken = [dict(line) for line in lines]
    broken[rosters[-1]] = {
        **broken[rosters[-1]],
        "fields": {**broken[rosters[-1]]["fields"], "team": 987654},
    }
    path = _gzip_lines(tmp_path / "broken.gz", broken)
    players = [i for i, line in enumerate(lines) if line.get("model") == "players.player"]
    unknown_field = [dict(line) for line in lines]
    unknown_field[players[-1]] = {**lines[players[-1]], "fields": {"nonsense": 1}}
    path2 = _gzip_lines(tmp_path / "unknown-field.gz", unknown_field)
    Edition.objects.filter(slug="ko-1998").update(name="Still here")
    state = _state()
    for damaged, words in ((path, "inconsistent"), (path2, "cannot be loaded")):
        with pytest.raises(BackupError, match=words):
            restore_backup(damaged, force=True)
        assert _state() == state
        assert Edition.objects.get(slug="ko-1998").name == "Still here"


def test_backup_is_written_whole_or_not_at_all(
    demo: None, tmp_path: Path, monkeypatch: Any
) -> None:
    target = tmp_path / "b.gz"
    target.write_bytes(b"the previous backup")

    def failing(model: Any, using: str) -> Iterator[dict[str, Any]]:
        raise OSError(28, "No space left on device")
        yield {}

    monkeypatch.setattr(backup, "_serialised", failing)
    with pytest.raises(BackupError, match="No space left"):
        write_backup(target)
    assert target.read_bytes() == b"the previous backup"
    assert [p.name for p in tmp_path.iterdir()] == ["b.gz"]  # no temporary file left


def test_backup_file_is_private_and_names_version_and_schema(demo: None, tmp_path: Path) -> None:
    result = write_backup(tmp_path / "b.gz")
    assert (tmp_path / "b.gz").stat().st_mode & 0o777 == 0o600
    header = backup.read_header(tmp_path / "b.gz")
    assert header.bridgeko and header.migrations["editions"][0] == "0001_initial"
    assert header.counts == database_contents() == result.header.counts
    models = {line.get("model") for line in _lines(tmp_path / "b.gz")}
    assert not models & {"sessions.session", "contenttypes.contenttype", "auth.permission"}


def test_uploaded_files_under_media_root_round_trip(
    demo: None, tmp_path: Path, settings: Any
) -> None:
    media = tmp_path / "media"
    (media / "logos").mkdir(parents=True)
    (media / "logos" / "ko.png").write_bytes(b"\x89PNG fake")
    settings.MEDIA_ROOT = str(media)
    result = write_backup(tmp_path / "b.gz")
    assert result.files == 1
    (media / "logos" / "ko.png").unlink()
    restore_backup(tmp_path / "b.gz", force=True)
    assert (media / "logos" / "ko.png").read_bytes() == b"\x89PNG fake"
    line = _lines(tmp_path / "b.gz")[-2]
    assert base64.b64decode(line["data"]) == b"\x89PNG fake"


def test_every_model_is_in_a_backup_except_those_migrate_makes_and_logins() -> None:
    labels = {m._meta.label_lower for m in backup._models()}
    everything = {m._meta.label_lower for m in apps.get_models() if not m._meta.proxy}
    assert everything - labels == set(backup.EXCLUDED_MODELS)
    assert set(HEADLINE) <= labels
