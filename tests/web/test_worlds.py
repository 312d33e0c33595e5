"""The worlds the tests build once per worker (``tests/worlds.py``, issue 19): a replayed world
is the built one — every row of every table, the files, the mail, the returned objects — and a
world is replayed only on the rows, settings and patches it was built on."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.db import transaction

from bridgeko.draw.models import Draw
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from tests import worlds
from tests.web.conftest import (
    REGULATIONS_1999,
    World,
    build_world,
    enter_13_and_draw,
    make_user,
)

_keys = itertools.count()


def _key() -> tuple[str, int]:
    """A key no other test uses: the recordings are the worker's."""
    return ("test_worlds", next(_keys))


class Builder:
    """Draws the world's 13 teams, writes a convention card's file, sends a mail, removes a
    user of the world and one of its own: rows added, changed (the edition) and removed, a
    sequence past the largest id, a file, a mail."""

    def __init__(self, world: World, media: Path, *, draw: bool = True) -> None:
        self.world, self.media, self.draw, self.calls = world, media, draw, 0

    def __call__(self) -> Edition:
        self.calls += 1
        if self.draw:
            enter_13_and_draw(self.world)
        else:  # only the edition changed (a quicker world)
            Edition.objects.filter(pk=self.world.edition.pk).update(name="Ročník 1999")
        (self.media / "cards").mkdir(parents=True, exist_ok=True)
        (self.media / "cards" / "karta.pdf").write_bytes(b"%PDF-1.4 karta")
        mail.send_mail("Los", "Los se konal.", "td@example.org", ["kapitan@example.org"])
        get_user_model().objects.filter(username="public").delete()
        make_user("passing").delete()  # SQLite's sequence is now past the largest id
        return self.world.edition


@pytest.mark.django_db
def test_replayed_world_is_the_built_world_row_for_row(
    world: World, settings: Any, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = tmp_path
    build, key = Builder(world, tmp_path), _key()
    before = worlds.dump()
    start = transaction.savepoint()
    built = worlds.once(key, build)
    rows, card, sent = (
        worlds.dump(),
        (tmp_path / "cards" / "karta.pdf").read_bytes(),
        mail.outbox[:],
    )
    assert worlds.diff(before, rows), "the building changed nothing"
    transaction.savepoint_rollback(start)
    (tmp_path / "cards" / "karta.pdf").unlink()
    mail.outbox.clear()
    assert worlds.dump() == before

    replayed = worlds.once(key, build)
    assert build.calls == 1
    assert worlds.dump() == rows  # every table, SQLite's sequences too
    assert (tmp_path / "cards" / "karta.pdf").read_bytes() == card
    assert [(m.subject, m.to) for m in mail.outbox] == [(m.subject, m.to) for m in sent]
    assert replayed is not built and replayed == built
    assert (replayed.stage, replayed.created_at) == (built.stage, built.created_at)
    assert Team.objects.filter(edition=replayed, accepted=True).count() == 13
    assert Draw.objects.get(edition=replayed).held_at is not None


@pytest.mark.django_db
def test_world_is_built_again_on_other_rows_settings_or_patches(
    world: World, settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.MEDIA_ROOT = tmp_path
    build, key = Builder(world, tmp_path, draw=False), _key()

    def once_and_undo() -> None:
        start = transaction.savepoint()
        worlds.once(key, build)
        transaction.savepoint_rollback(start)

    once_and_undo()
    once_and_undo()
    assert build.calls == 1  # replayed
    make_user("another")  # other rows under it
    once_and_undo()
    assert build.calls == 2
    Edition.objects.filter(pk=world.edition.pk).update(name="Jiný ročník")  # a changed row
    once_and_undo()
    assert build.calls == 3
    settings.BRIDGEKO_SITE_URL = "https://example.org"
    once_and_undo()
    assert build.calls == 4
    from bridgeko.entries import services

    monkeypatch.setattr(services, "close_entries", services.close_entries)
    once_and_undo()
    assert build.calls == 5
    once_and_undo()
    assert build.calls == 5  # the same rows, settings and patches: replayed


@pytest.mark.django_db(transaction=True)
def test_committed_world_is_replayed_after_the_database_was_emptied() -> None:
    """A browser test's world: committed, then the test's end empties every table and makes the
    content types again (with new ids); the next test gets the same rows back."""
    text = REGULATIONS_1999.read_text(encoding="utf-8")
    calls: list[int] = []

    def build() -> World:
        calls.append(1)
        return build_world(text)

    key = _key()
    built = worlds.once(key, build)
    rows = worlds.dump()
    call_command("flush", interactive=False, verbosity=0)
    assert not Edition.objects.exists()
    replayed = worlds.once(key, build)
    assert calls == [1]
    again = worlds.dump()
    for table in set(rows) - worlds.UNKEYED:
        assert again[table] == rows[table], table
    assert replayed.edition == built.edition and replayed.users.keys() == built.users.keys()
    assert Team.objects.get(edition=replayed.edition).name == "Kapitáni"
    make_user("after-the-replay")  # the sequences moved on past the replayed rows


@pytest.mark.django_db
def test_world_built_by_one_worker_is_replayed_by_another(
    world: World, settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under pytest-xdist a recording is written to the run's shared folder: a worker that
    has not built the world (here: the same process with its recordings forgotten) reads it
    there instead of building it, and gets the same rows and files."""
    media = tmp_path / "media"
    settings.MEDIA_ROOT = media
    monkeypatch.setattr(worlds, "shared", tmp_path / "shared")
    worlds.shared.mkdir()  # type: ignore[union-attr]
    build, key = Builder(world, media, draw=False), _key()
    start = transaction.savepoint()
    worlds.once(key, build)
    rows = worlds.dump()
    transaction.savepoint_rollback(start)
    assert len(list((tmp_path / "shared").glob("*.pickle"))) == 1
    (media / "cards" / "karta.pdf").unlink()

    taken = worlds.stats["shared"]
    kept = dict(worlds._recorded)
    worlds.forget()  # the other worker's memory (not monkeypatched: a patch is in the key)
    try:
        worlds.once(key, build)
    finally:
        worlds._recorded.update(kept)
    assert build.calls == 1
    assert worlds.stats["shared"] == taken + 1
    assert worlds.dump() == rows
    assert (media / "cards" / "karta.pdf").read_bytes() == b"%PDF-1.4 karta"
