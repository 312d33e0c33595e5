"""``bridgeko backup`` / ``bridgeko restore`` end to end: the installed command in subprocesses,
each with its own data directory (SQLite; ``DATABASE_URL`` is removed from their environment).

The database-neutral round trip (pages compared byte for byte) is in ``test_backup.py``.
"""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.shared import copy_of

REPO = Path(__file__).resolve().parents[2]
BRIDGEKO = [sys.executable, "-m", "bridgeko.cli"]

pytestmark = pytest.mark.slow  # every command is a process that sets Django up (~1 s each)

WRITER = """
import os, sys, time
import django
django.setup()
from django.db import transaction
from bridgeko.audit.services import record
from bridgeko.players.models import Player
for n in range(int(sys.argv[1])):
    with transaction.atomic():
        player = Player.objects.create(federation_id=f"W{n:05d}", name=f"Writer {n}")
        record("bridgeko.test.written", obj=player, summary=player.name)
    time.sleep(0.002)
"""
"""Writes pairs of rows, each in one transaction: a player and its audit entry."""


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL"}}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return env | {"BRIDGEKO_DATA_DIR": str(data_dir), "BRIDGEKO_DEMO_NO_SERVE": "1"}


def _run(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*BRIDGEKO, *args],
        cwd=REPO,
        env=_env(data_dir),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _table_rows(data_dir: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table a backup holds (not content types, permissions, migrations)."""
    skipped = {"django_content_type", "auth_permission", "django_migrations", "sqlite_sequence"}
    with sqlite3.connect(data_dir / "bridgeko.sqlite3") as db:
        tables = [
            name
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if name not in skipped
        ]
        return {t: sorted(db.execute(f'SELECT * FROM "{t}"'), key=repr) for t in tables}


def _one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bridgeko: "), result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with the demo loaded (the database a server would run on): loaded once
    per run by ``python -m bridgeko.demo``, each worker's module gets a copy of it."""

    def load(data_dir: Path) -> None:
        loaded = subprocess.run(
            [sys.executable, "-m", "bridgeko.demo"],
            cwd=REPO,
            env=_env(data_dir),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert loaded.returncode == 0, loaded.stderr

    return copy_of(tmp_path_factory, "demo-data-dir", load)


def test_backup_then_restore_into_an_empty_data_directory(live: Path, tmp_path: Path) -> None:
    file = tmp_path / "ko-1999.bridgeko.gz"
    made = _run(live, "backup", str(file))
    assert made.returncode == 0, made.stderr
    assert "3 editions" in made.stdout and "34 teams" in made.stdout
    assert file.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == [file.name]  # no temporary file left

    fresh = tmp_path / "other-machine"
    restored = _run(fresh, "restore", str(file))
    assert restored.returncode == 0, restored.stderr
    assert "3 editions" in restored.stdout and "logs in again" in restored.stdout
    expected = _table_rows(live)
    expected["django_session"] = []
    assert _table_rows(fresh) == expected


def test_restore_refuses_a_database_with_data_and_force_replaces_it(
    live: Path, tmp_path: Path
) -> None:
    file = tmp_path / "b.gz"
    assert _run(live, "backup", str(file)).returncode == 0
    other = tmp_path / "other"
    assert _run(other, "restore", str(file)).returncode == 0
    with sqlite3.connect(other / "bridgeko.sqlite3") as db:
        db.execute("UPDATE editions_edition SET name='Changed' WHERE slug='ko-1998'")
    changed = _table_rows(other)

    refused = _run(other, "restore", str(file))
    message = _one_line_error(refused)
    assert "not empty" in message and "3 editions" in message and "--force" in message
    assert _table_rows(other) == changed

    forced = _run(other, "restore", "--force", str(file))
    assert forced.returncode == 0, forced.stderr
    assert "Replaced what the database held: 3 editions" in forced.stdout
    expected = _table_rows(live)
    expected["django_session"] = []
    assert _table_rows(other) == expected


def test_bad_files_end_in_one_line_and_exit_2_changing_nothing(live: Path, tmp_path: Path) -> None:
    file = tmp_path / "b.gz"
    assert _run(live, "backup", str(file)).returncode == 0
    data = file.read_bytes()
    (tmp_path / "cut.gz").write_bytes(data[: len(data) * 2 // 3])
    (tmp_path / "text.txt").write_text("not a backup\n")
    with gzip.open(tmp_path / "json.gz", "wt") as out:
        out.write(json.dumps({"format": "something-else"}) + "\n")
    target = tmp_path / "target"
    assert _run(target, "restore", str(file)).returncode == 0
    before = _table_rows(target)
    cases = {  # (each damage with and without --force: test_backup.py)
        "cut.gz": ("cut short", ["--force"]),
        "text.txt": ("not a bridgeko backup", []),
        "json.gz": ("not a bridgeko backup", ["--force"]),
        "missing.gz": ("no such file", []),
    }
    for name, (words, extra) in cases.items():
        message = _one_line_error(_run(target, "restore", *extra, str(tmp_path / name)))
        assert words in message, (name, message)
        assert _table_rows(target) == before, name
    message = _one_line_error(_run(live, "backup", str(tmp_path / "no" / "such" / "dir.gz")))
    assert "no such directory" in message


def test_backup_is_one_moment_while_another_process_writes(live: Path, tmp_path: Path) -> None:
    """Each write adds a player and its audit entry in one transaction: every backup taken while
    they are written holds as many of the one as of the other (the audit entries are read first,
    the players later, so a backup that were not a snapshot would catch more players)."""
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, "400"],
        cwd=REPO,
        env=_env(live) | {"DJANGO_SETTINGS_MODULE": "bridgeko.web.settings"},
        stderr=subprocess.PIPE,
        text=True,
    )
    files = []
    try:
        for n in range(4):
            time.sleep(0.2)
            files.append(tmp_path / f"b{n}.gz")
            made = _run(live, "backup", str(files[-1]))
            assert made.returncode == 0, made.stderr
    finally:
        _out, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    seen = set()
    for file in files:
        with gzip.open(file, "rt", encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle]
        players = sum(
            1
            for r in rows
            if r.get("model") == "players.player" and r["fields"]["federation_id"][0] == "W"
        )
        entries = sum(
            1
            for r in rows
            if r.get("model") == "audit.auditentry"
            and r["fields"]["action"] == "bridgeko.test.written"
        )
        assert players == entries, file.name
        seen.add(players)
    assert len(seen) > 1, "the backups were taken while the writer wrote"


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_backup_and_restore_help_say_what_they_do_with_an_example(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    from bridgeko.cli import main

    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    assert f"usage: bridgeko {command}" in out and "FILE" in out
    assert "example: " in out and "bridgeko.gz" in out
    if command == "restore":
        assert "--force" in out and "replace everything" in " ".join(out.split())
