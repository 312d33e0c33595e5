"""The demo stays a demo (issue 8, deliverable 8): ``python -m bridgeko.demo`` refuses, with one
line and exit code 2, to run in production mode or against a database holding editions it did
not make (the demo's editions carry the audit mark ``bridgeko.demo.loaded``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bridgeko import demo
from bridgeko.audit.models import AuditEntry
from bridgeko.editions.services import create_edition
from tests.web.conftest import demo_loaded, make_user

REPO = Path(__file__).resolve().parents[2]


def test_demo_refuses_production_mode_before_touching_the_database(tmp_path: Path) -> None:
    env = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE"}
    }
    env |= {
        "BRIDGEKO_DATA_DIR": str(tmp_path),
        "BRIDGEKO_DEMO_NO_SERVE": "1",
        "BRIDGEKO_ENV": "production",
        "BRIDGEKO_ALLOWED_HOSTS": "bridge.example.org",
    }
    run = subprocess.run(
        [sys.executable, "-m", "bridgeko.demo"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith("bridgeko demo: refused: BRIDGEKO_ENV=production")
    assert "Traceback" not in run.stderr and run.stdout == ""
    assert not (tmp_path / "bridgeko.sqlite3").exists()


@pytest.mark.django_db
def test_demo_refuses_a_database_with_editions_it_did_not_make(toml_1999: str, capsys: Any) -> None:
    assert demo.foreign_editions() == [] and demo.refusal() is None  # empty: fine
    organiser = make_user("real-organiser")
    # a real edition, even one with the demo's slug, is someone's data
    create_edition(slug="ko-1999", toml_text=toml_1999, user=organiser)
    create_edition(slug="ko-2027", toml_text=toml_1999, user=organiser)
    assert demo.foreign_editions() == ["ko-1999", "ko-2027"]
    entries = AuditEntry.objects.count()
    assert demo.main() == 2
    err = capsys.readouterr().err
    assert err == (
        "bridgeko demo: refused: the database holds editions the demo did not make "
        "(ko-1999, ko-2027); run it with an empty BRIDGEKO_DATA_DIR (and no DATABASE_URL)\n"
    )
    assert AuditEntry.objects.count() == entries  # nothing written, no password reset


@pytest.mark.slow
@pytest.mark.django_db
def test_demo_runs_again_on_its_own_database_but_not_with_a_real_edition(
    toml_1999: str,
) -> None:
    demo_loaded()
    marks = AuditEntry.objects.filter(action=demo.DEMO_MARKER)
    assert sorted(marks.values_list("edition__slug", flat=True)) == [
        "ko-1998",
        "ko-1999",
        "ko-2001",
    ]
    assert demo.refusal() is None
    create_edition(slug="real", toml_text=toml_1999, user=make_user("someone"))
    assert demo.foreign_editions() == ["real"]
    reason = demo.refusal()
    assert reason is not None and "(real)" in reason
