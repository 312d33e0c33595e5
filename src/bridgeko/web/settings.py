"""Django settings, read from the environment (the variables: :mod:`bridgeko.core.config`)."""

from __future__ import annotations

import contextlib
import os
from datetime import timedelta
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from bridgeko.core import config

ENV: dict[str, str] = dict(os.environ)  # the tests' settings: bridgeko.web.settings_test
BASE_DIR = Path(__file__).resolve().parent.parent  # src/bridgeko
DATA_DIR = config.data_dir(ENV)

PRODUCTION = ENV.get("BRIDGEKO_ENV", "development").strip().lower() == "production"
DEBUG = config.flag(ENV, "BRIDGEKO_DEBUG", False) and not PRODUCTION
SECRET_KEY = config.secret_key(ENV, DATA_DIR)
ALLOWED_HOSTS = config.host_list(ENV, "BRIDGEKO_ALLOWED_HOSTS") or (
    [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = config.host_list(ENV, "BRIDGEKO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",  # runserver leaves /static/ to WhiteNoise, as in production
    "django.contrib.staticfiles",
    "axes",  # login throttling (below)
    "corsheaders",  # CORS open for reading on /api/ only (below)
    "bridgeko.core",
    "bridgeko.web",
    "bridgeko.audit",
    "bridgeko.accounts",
    "bridgeko.editions",
    "bridgeko.players",
    "bridgeko.entries",
    "bridgeko.draw",
    "bridgeko.matches",
    "bridgeko.boards",
    "bridgeko.appeals",
    "bridgeko.mail",
    "bridgeko.paper",
    "bridgeko.public",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "bridgeko.core.security.ContentSecurityPolicyMiddleware",  # no inline script, no framing
    "corsheaders.middleware.CorsMiddleware",  # before anything that answers: /api/ only
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "bridgeko.web.middleware.RequestSizeLimitMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "bridgeko.editions.middleware.EditionMiddleware",
    "bridgeko.accounts.middleware.AuditActorMiddleware",
    "bridgeko.web.middleware.MethodNotAllowedMiddleware",  # an empty 405 -> the friendly page
    "axes.middleware.AxesMiddleware",  # last: turns a lockout into bridgeko's lockout page
]

# The open JSON API (issue 12, item 5; docs/api.md): any site may read it from a browser —
# GET and HEAD with If-None-Match, no credentials (the API sets and reads no cookie) — and
# read its ETag. Nothing outside /api/ gets a CORS header.
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_ALLOW_HEADERS = ("accept", "if-none-match", "if-modified-since")
CORS_EXPOSE_HEADERS = ("ETag", "Last-Modified")
CORS_PREFLIGHT_MAX_AGE = 86400

ROOT_URLCONF = "bridgeko.web.urls"
WSGI_APPLICATION = "bridgeko.web.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "bridgeko.web.context_processors.site",
            ],
        },
    },
]

if ENV.get("DATABASE_URL"):
    DATABASES = {"default": config.database_from_url(ENV["DATABASE_URL"])}
else:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {"default": config.sqlite_database(DATA_DIR / "bridgeko.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Logins are throttled (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one account
# or from one address (each counted on its own), logging in is refused for AXES_COOLOFF_TIME,
# even with the right password; the page says so (bridgeko.accounts.login.locked_out) and the
# lockout is written into the audit log (bridgeko.accounts.login.on_user_locked_out).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out login
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = config.positive_int(ENV, "BRIDGEKO_LOGIN_FAILURES", 5)
AXES_COOLOFF_TIME = timedelta(
    minutes=config.positive_int(ENV, "BRIDGEKO_LOGIN_LOCKOUT_MINUTES", 15)
)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # by account, and by address, separately
AXES_RESET_ON_SUCCESS = True  # a right password (before a lockout) starts the count anew ...
AXES_HANDLER = "bridgeko.accounts.login.AccountResetHandler"  # ... for that account only
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # refused attempts do not prolong it
AXES_LOCKOUT_CALLABLE = "bridgeko.accounts.login.locked_out"
AXES_CLIENT_IP_CALLABLE = "bridgeko.accounts.login.client_ip"
CLIENT_IP_HEADER = ENV.get("BRIDGEKO_CLIENT_IP_HEADER", "").strip()
AXES_ENABLE_ADMIN = False  # bridgeko registers the attempts itself (unlocking is audited)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "entries:after_login"  # captain → My team, organiser → dashboard
LOGOUT_REDIRECT_URL = "home"

# Internationalisation: Czech (the authority) and English; an edition's default language applies
# on its pages unless the user chose one (EditionMiddleware).
LANGUAGE_CODE = "cs"
LANGUAGES = [("cs", _("Czech")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "Europe/Prague"
# Czech formats in Czech ("5. 3. 1999", "19:00", "1 200 Kč"), English in English ("5 March 1999");
# no automatic thousand separator (ids, years, form values): amounts use the |money filter.
FORMAT_MODULE_PATH = ["bridgeko.core.formats"]

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "static"
# WhiteNoise serves /static/ (unless BRIDGEKO_SERVE_STATIC=0: a web server does): the files
# collected into STATIC_ROOT (``collectstatic``; ``make demo`` does it at start) under hashed
# names, compressed (gzip, brotli when installed), cached for ten years; before they are
# collected (a fresh checkout, the tests, ``bridgeko serve``) the apps' files under their plain
# names, found by Django's finders (see bridgeko.core.staticfiles).
SERVE_STATIC = config.flag(ENV, "BRIDGEKO_SERVE_STATIC", True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "bridgeko.core.staticfiles.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
if SERVE_STATIC:
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    with contextlib.suppress(OSError):  # WhiteNoise warns about a missing STATIC_ROOT
        STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# Uploaded files (the captains' convention cards, R3.1b) lie under MEDIA_ROOT: default
# <data>/media, beside the SQLite database; BRIDGEKO_MEDIA_DIR moves them. They are never served
# as static files: only the permission-checked view entries:card sends one (MEDIA_URL is not
# routed). `bridgeko backup` includes them. Back the folder up with the database.
MEDIA_ROOT = Path(ENV.get("BRIDGEKO_MEDIA_DIR", "").strip() or DATA_DIR / "media")
MEDIA_URL = "/media/"
BRIDGEKO_CARD_MAX_BYTES = config.positive_int(ENV, "BRIDGEKO_CARD_MAX_BYTES", 5 * 1024 * 1024)
# How work that must not run in a request runs (bridgeko.core.background): "thread" or "inline".
BRIDGEKO_BACKGROUND = ENV.get("BRIDGEKO_BACKGROUND", "thread")
# The chances to win the event (public.event_odds): runs of the simulation where they are not
# computed exactly (double elimination before its brackets meet).
# /healthz fails below this much free space in the data directory (bridgeko.core.health).
BRIDGEKO_HEALTH_MIN_FREE_BYTES = (
    config.positive_int(ENV, "BRIDGEKO_HEALTH_MIN_FREE_MB", 200) * 1024 * 1024
)
BRIDGEKO_EVENT_CHANCES_RUNS = config.positive_int(ENV, "BRIDGEKO_EVENT_CHANCES_RUNS", 4000)

# Mail to captains (bridgeko.mail): SMTP from EMAIL_HOST & co., else the console (development,
# the demo); the tests use Django's locmem backend. Links in the mail start with BRIDGEKO_SITE_URL.
_EMAIL = config.email_settings(ENV)
EMAIL_BACKEND = _EMAIL["EMAIL_BACKEND"]
EMAIL_HOST = _EMAIL["EMAIL_HOST"]
EMAIL_PORT = _EMAIL["EMAIL_PORT"]
EMAIL_HOST_USER = _EMAIL["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _EMAIL["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _EMAIL["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _EMAIL["EMAIL_USE_SSL"]
EMAIL_TIMEOUT = _EMAIL["EMAIL_TIMEOUT"]
DEFAULT_FROM_EMAIL = _EMAIL["DEFAULT_FROM_EMAIL"]
BRIDGEKO_SITE_URL = ENV.get("BRIDGEKO_SITE_URL", "").strip() or "http://localhost:8000"
# The public pages as static files, re-exported after every change (bridgeko export-site;
# README "Publishing the results site"): the target directory, or "" (no export).
BRIDGEKO_PUBLIC_DIR = ENV.get("BRIDGEKO_PUBLIC_DIR", "").strip()

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "bridgeko.web.views.csrf_failure"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

if PRODUCTION:
    SECURE_SSL_REDIRECT = config.flag(ENV, "BRIDGEKO_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(ENV.get("BRIDGEKO_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    if config.flag(ENV, "BRIDGEKO_PROXY_SSL_HEADER", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"bridgeko": {"handlers": ["console"], "level": "INFO"}},
}
