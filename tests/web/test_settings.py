"""Settings from the environment: data directory, DATABASE_URL, secret key file, check --deploy.

The tests run with ``bridgeko.web.settings_test``; the real settings (``bridgeko.web.settings``)
are checked through ``manage.py`` in a subprocess without the tests' environment.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from bridgeko.core import config

REPO = Path(__file__).resolve().parents[2]
PRINT_DB = (
    "from django.conf import settings as s; d = s.DATABASES['default']; "
    "print(d['ENGINE'], d['NAME'])"
)


def test_tests_do_not_write_into_the_repo() -> None:
    assert os.environ["DJANGO_SETTINGS_MODULE"] == "bridgeko.web.settings_test"
    assert not Path(settings.DATA_DIR).resolve().is_relative_to(REPO)


def test_test_settings_make_a_data_dir_per_process_and_remove_it_at_exit() -> None:
    code = (
        "import os, django; from django.conf import settings as s; django.setup(); "
        "print(s.DATA_DIR, s.DATA_DIR.is_dir(), 'BRIDGEKO_DATA_DIR' in os.environ)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRIDGEKO_", "DJANGO_"))}
    env["DJANGO_SETTINGS_MODULE"] = "bridgeko.web.settings_test"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    data_dir, existed, leaked = done.stdout.split()
    assert (existed, leaked) == ("True", "False"), done.stderr
    assert not Path(data_dir).resolve().is_relative_to(REPO)
    assert Path(data_dir) != Path(settings.DATA_DIR)
    assert not Path(data_dir).exists()  # removed when the process ended


def test_sqlite_in_the_data_directory_by_default(tmp_path: Path) -> None:
    code = PRINT_DB
    done = _manage(tmp_path, {}, "shell", "-c", code)
    engine, name = done.stdout.split()[-2:]
    assert engine == "django.db.backends.sqlite3", done.stderr
    assert Path(name) == tmp_path / "bridgeko.sqlite3"


def test_postgres_when_database_url_is_set(tmp_path: Path) -> None:
    code = PRINT_DB
    url = {"DATABASE_URL": "postgres://ko@db.example.org:5432/bridgeko"}
    done = _manage(tmp_path, url, "shell", "-c", code)
    assert done.stdout.split()[-2:] == ["django.db.backends.postgresql", "bridgeko"], done.stderr


def test_data_dir_from_env_else_repo_data(tmp_path: Path) -> None:
    assert config.data_dir({"BRIDGEKO_DATA_DIR": str(tmp_path)}) == tmp_path
    assert config.data_dir({}) == REPO / "data"  # a source checkout


def test_database_url_postgres() -> None:
    db = config.database_from_url("postgres://ko%20user:p%40ss:w@db.example.org:6543/bridge_ko")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "bridge_ko",
        "ko user",
        "p@ss:w",
        "db.example.org",
        "6543",
    )


def test_database_url_minimal_and_options() -> None:
    db = config.database_from_url("postgresql://postgres@127.0.0.1/postgres?sslmode=require")
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["PORT"]) == ("postgres", "postgres", "", "")
    assert db["OPTIONS"] == {"sslmode": "require"}


@pytest.mark.parametrize("url", ["mysql://u@h/db", "postgres://u@h/", "postgres://u@h:notaport/db"])
def test_database_url_errors_name_the_variable(url: str) -> None:
    with pytest.raises(config.ConfigError, match="DATABASE_URL"):
        config.database_from_url(url)


def test_secret_key_generated_once_with_mode_0600(tmp_path: Path) -> None:
    key = config.secret_key({}, tmp_path / "data")
    path = tmp_path / "data" / config.SECRET_KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(key) >= 50
    assert config.secret_key({}, tmp_path / "data") == key  # read back, not regenerated


def test_secret_key_from_env_writes_nothing(tmp_path: Path) -> None:
    assert config.secret_key({"BRIDGEKO_SECRET_KEY": "s" * 60}, tmp_path) == "s" * 60
    assert not (tmp_path / config.SECRET_KEY_FILE).exists()


def test_flag_rejects_nonsense() -> None:
    assert config.flag({"X": "1"}, "X", False) is True
    assert config.flag({}, "X", True) is True
    with pytest.raises(config.ConfigError, match="X"):
        config.flag({"X": "maybe"}, "X", False)


def _manage(tmp_path: Path, extra: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("BRIDGEKO_", "DJANGO_", "PYTEST_")) and k != "DATABASE_URL"
    }
    env |= {"BRIDGEKO_DATA_DIR": str(tmp_path)} | extra
    return subprocess.run(
        [sys.executable, str(REPO / "manage.py"), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_clean_in_production(tmp_path: Path) -> None:
    done = _manage(
        tmp_path,
        {"BRIDGEKO_ENV": "production", "BRIDGEKO_ALLOWED_HOSTS": "ko.example.org"},
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr and "issues" in done.stdout
    assert "no issues" in done.stdout
    key = tmp_path / config.SECRET_KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_debug_only_with_flag_and_never_in_production(tmp_path: Path) -> None:
    code = "from django.conf import settings; print(settings.DEBUG)"
    env = {"BRIDGEKO_DEBUG": "1", "BRIDGEKO_ENV": "production"}
    done = _manage(tmp_path, env, "shell", "-c", code)
    assert done.stdout.split()[-1] == "False", done.stderr
    done = _manage(tmp_path, {"BRIDGEKO_DEBUG": "1"}, "shell", "-c", code)
    assert done.stdout.split()[-1] == "True", done.stderr


def test_production_security_settings_and_configurable_ssl_redirect(tmp_path: Path) -> None:
    code = (
        "from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT, "
        "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0, s.ALLOWED_HOSTS)"
    )
    prod = {"BRIDGEKO_ENV": "production", "BRIDGEKO_ALLOWED_HOSTS": "a.example, b.example"}
    done = _manage(tmp_path, prod, "shell", "-c", code)
    assert done.stdout.splitlines()[-1] == "True True True True ['a.example', 'b.example']"
    done = _manage(tmp_path, prod | {"BRIDGEKO_SSL_REDIRECT": "0"}, "shell", "-c", code)
    assert done.stdout.splitlines()[-1].startswith("False True True True")
