"""Configuration read from the environment, as small pure functions (tested without Django).

``settings.py`` calls these; nothing here imports Django.

Environment variables (all optional):

``BRIDGEKO_DATA_DIR``
    Where the SQLite database and the generated secret key live. Default: ``<repo>/data`` when
    running from a source checkout (a ``pyproject.toml`` two levels above ``src/bridgeko``),
    otherwise ``~/.local/share/bridgeko``. ``data/`` is gitignored.
``DATABASE_URL``
    ``postgres://user:pass@host:port/dbname`` selects PostgreSQL; unset means SQLite.
``BRIDGEKO_SECRET_KEY``
    The secret key; unset means one is generated on first run into ``<data>/secret_key``
    (mode 0600).
``BRIDGEKO_DEBUG``
    ``1`` turns DEBUG on (never in production).
``BRIDGEKO_ENV``
    ``production`` turns on HSTS, secure cookies and the SSL redirect; default ``development``.
``BRIDGEKO_ALLOWED_HOSTS``
    Comma-separated host names (production must set it).
``BRIDGEKO_SSL_REDIRECT``
    ``0`` disables the SSL redirect in production (when a proxy already redirects).
``BRIDGEKO_PROXY_SSL_HEADER``
    ``1`` trusts ``X-Forwarded-Proto: https`` from a reverse proxy.
``BRIDGEKO_HSTS_SECONDS``
    HSTS max-age in production; default one year.
``BRIDGEKO_SERVE_STATIC``
    ``0`` stops the application serving /static/ itself (when a web server does it).
``BRIDGEKO_LOGIN_FAILURES``
    Wrong passwords in a row, for one account or from one address, after which logging in is
    refused for a while; default 5.
``BRIDGEKO_LOGIN_LOCKOUT_MINUTES``
    How long logging in is refused then (even with the right password); default 15.
``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``,
``EMAIL_USE_SSL``, ``EMAIL_TIMEOUT``, ``DEFAULT_FROM_EMAIL``, ``EMAIL_BACKEND``
    The mail to captains (:func:`email_settings`): the SMTP server; without ``EMAIL_HOST`` the
    mail is printed on the console (development, the demo).
``BRIDGEKO_SITE_URL``
    The site's address as captains reach it (``https://ko.example.org``), for the links in the
    mail; default ``http://localhost:8000``.
``BRIDGEKO_CLIENT_IP_HEADER``
    Behind a reverse proxy: the request header in which the proxy passes the client's address
    (e.g. ``X-Real-IP``), so that a lockout by address locks the client, not the proxy. Unset:
    the connection's address.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

SECRET_KEY_FILE = "secret_key"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


class ConfigError(ValueError):
    """A wrong value in the environment; the message names the variable."""


def flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    """A yes/no environment variable (1/0, true/false, yes/no, on/off)."""
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name}: expected 1 or 0, not {raw!r}")


def source_root() -> Path | None:
    """The repository root when running from a source checkout, else None."""
    root = Path(__file__).resolve().parents[3]
    return root if (root / "pyproject.toml").is_file() and (root / "src").is_dir() else None


def data_dir(env: Mapping[str, str], home: Path | None = None) -> Path:
    """The data directory (not created here)."""
    configured = env.get("BRIDGEKO_DATA_DIR")
    if configured:
        return Path(configured).expanduser()
    root = source_root()
    if root is not None:
        return root / "data"
    return (home or Path.home()) / ".local" / "share" / "bridgeko"


def database_from_url(url: str) -> dict[str, Any]:
    """Django's DATABASES["default"] for ``postgres://user:pass@host:port/db?opt=value``.

    ``sqlite:////absolute/path.sqlite3`` is accepted too.

    >>> database_from_url("postgres://u:p%40ss@db.example:6543/ko")["PASSWORD"]
    'p@ss'
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ConfigError("DATABASE_URL: the database name is missing (…/dbname)")
        try:
            port = parts.port
        except ValueError as exc:
            raise ConfigError(f"DATABASE_URL: bad port ({exc})") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": unquote(parts.hostname or ""),
            "PORT": str(port) if port else "",
            "OPTIONS": dict(parse_qsl(parts.query)),
            "CONN_MAX_AGE": 60,
        }
    if scheme == "sqlite":
        path = unquote(parts.path)
        if not path:
            raise ConfigError("DATABASE_URL: sqlite:///path needs a path")
        return sqlite_database(Path(path))
    raise ConfigError(
        f"DATABASE_URL: unsupported scheme {parts.scheme!r} (use postgres:// or sqlite:///)"
    )


def sqlite_database(path: Path) -> dict[str, Any]:
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
    }


def secret_key(env: Mapping[str, str], directory: Path) -> str:
    """``BRIDGEKO_SECRET_KEY``, or the key stored in ``directory``, generated on first use.

    The file is created with mode 0600 (never readable by other users).
    """
    configured = env.get("BRIDGEKO_SECRET_KEY")
    if configured:
        return configured
    path = directory / SECRET_KEY_FILE
    try:
        key = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        key = ""
    if key:
        _owner_only(path)
        return key
    directory.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    if path.exists():  # an empty file (a crash while it was written): write a new key
        path.unlink()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    os.chmod(path, 0o600)
    return key


def _owner_only(path: Path) -> None:
    """A key file readable by others (copied, or made by an older version) is made 0600."""
    try:
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
    except OSError:  # not ours to change: the key still works
        pass


def host_list(env: Mapping[str, str], name: str) -> list[str]:
    return [h.strip() for h in env.get(name, "").split(",") if h.strip()]


def positive_int(env: Mapping[str, str], name: str, default: int) -> int:
    """A whole number of at least 1 from the environment (``default`` when unset)."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or len(raw) > 9 or int(raw) < 1:
        raise ConfigError(f"{name}: expected a whole number of at least 1, not {raw!r}")
    return int(raw)


SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE_BACKEND = "django.core.mail.backends.console.EmailBackend"


def email_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """Django's mail settings (the mail to captains, :mod:`bridgeko.mail`) from ``EMAIL_HOST``,
    ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``,
    ``EMAIL_USE_SSL``, ``EMAIL_TIMEOUT`` and ``DEFAULT_FROM_EMAIL``. With ``EMAIL_HOST`` set the
    mail goes to that SMTP server; without it (development, the demo) it is printed on the
    console. ``EMAIL_BACKEND`` (a Django backend's dotted path) overrides the choice."""
    host = env.get("EMAIL_HOST", "").strip()
    use_tls = flag(env, "EMAIL_USE_TLS", False)
    use_ssl = flag(env, "EMAIL_USE_SSL", False)
    if use_tls and use_ssl:
        raise ConfigError("EMAIL_USE_TLS and EMAIL_USE_SSL: set only one of them")
    backend = env.get("EMAIL_BACKEND", "").strip() or (SMTP_BACKEND if host else CONSOLE_BACKEND)
    default_port = 465 if use_ssl else 587 if use_tls else 25
    return {
        "EMAIL_BACKEND": backend,
        "EMAIL_HOST": host or "localhost",
        "EMAIL_PORT": positive_int(env, "EMAIL_PORT", default_port),
        "EMAIL_HOST_USER": env.get("EMAIL_HOST_USER", ""),
        "EMAIL_HOST_PASSWORD": env.get("EMAIL_HOST_PASSWORD", ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
        "EMAIL_TIMEOUT": positive_int(env, "EMAIL_TIMEOUT", 20),
        "DEFAULT_FROM_EMAIL": env.get("DEFAULT_FROM_EMAIL", "").strip() or "bridgeko@localhost",
    }
