"""Fixtures for the web tests: an edition made from the 1999 regulations and one user per role.

The data directory is a temporary one: pytest runs with ``bridgeko.web.settings_test`` (the real
settings with a fresh temp dir as the data directory unless ``BRIDGEKO_DATA_DIR`` is set), so no
test writes into the repository.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import import_module
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.core.management.color import no_style
from django.db import connection
from django.test import Client
from django.utils import translation

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.editions.models import Edition
from bridgeko.editions.services import create_edition
from bridgeko.entries.models import Team
from tests.worlds import once

T = TypeVar("T")
REPO = Path(__file__).resolve().parents[2]
REGULATIONS_1999 = REPO / "editions" / "bridge-open-ko-1999.toml"
CAPTAIN_TEAM_ID = 7
"""The team the ``captain`` user captains in the ``world`` edition."""
PASSWORD = "correct-horse-battery-staple"

ROLE_USERS = (
    "anonymous",
    "public",
    "captain",
    "appeals",
    "td",
    "organiser",
    "registrar",
    "superuser",
)
"""Who the permission test visits every mutating URL as: the edition's roles are held in the
``world`` edition only; ``registrar`` holds the site-wide role (an assignment without an
edition), ``superuser`` is Django's."""


@dataclass
class World:
    edition: Edition
    users: dict[str, Any]
    logins: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    """The session data of each user's first login in this test (see :meth:`client`)."""

    def client(self, who: str, language: str = "en") -> Client:
        """A client logged in as ``who`` that chose ``language`` (the tests read English).

        The first client of a user in a test logs in (``force_login``: the session, the login
        time, axes' access log); each further one gets a session of its own holding the same
        login — what logging in again would store, without its writes (the permission walks
        open a client per URL and role)."""
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        if who == "anonymous":
            return client
        user = self.users[who]
        known = self.logins.get(who)
        if known is None or known.get(HASH_SESSION_KEY) != user.get_session_auth_hash():
            client.force_login(user)
            self.logins[who] = dict(client.session.items())
            return client
        session = import_module(settings.SESSION_ENGINE).SessionStore()
        session.update(known)
        session.save()
        # the test client sends every cookie it holds: the name and the key are all it needs
        client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
        return client


@pytest.fixture(autouse=True)
def _fast_passwords(settings: Any) -> None:
    """The default hasher costs ~0.3 s a user; tests need no strong hashes."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Service messages are asserted in English (the site's default language is Czech)."""
    with translation.override("en"):
        yield


def make_user(username: str, **extra: Any) -> Any:
    return get_user_model().objects.create_user(username=username, password=PASSWORD, **extra)


@pytest.fixture
def toml_1999() -> str:
    return REGULATIONS_1999.read_text(encoding="utf-8")


@pytest.fixture
def world(db: Any, toml_1999: str) -> World:
    return once(("world", toml_1999), lambda: build_world(toml_1999))


def build_world(toml_1999: str) -> World:
    """Edition ``ko-1999`` of ``toml_1999`` made by ``organiser``, one user per role (see
    :data:`ROLE_USERS`) and the captain's team."""
    organiser = make_user("organiser")
    edition = create_edition(slug="ko-1999", toml_text=toml_1999, user=organiser)
    users = {"organiser": organiser, "public": make_user("public")}
    # The captain's team: RoleAssignment.team is a foreign key. Created without roster and
    # late (as if entered after the closing by the chief TD), so that it takes part in nothing
    # the tests count: not in the closing of entries, not in the draw.
    Team.objects.create(
        pk=CAPTAIN_TEAM_ID,
        edition=edition,
        name="Kapitáni",
        created_at=datetime(1999, 2, 1, 10, tzinfo=UTC),
        late_entry=True,
        late_reason="the captain's team of the test world",
    )
    # Its id was given, so PostgreSQL's sequence did not move: set it after the row, or the
    # seventh team a test enters would get id 7 again (SQLite takes the largest id + 1 itself).
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Team]):
            cursor.execute(sql)
    for name, role, team in (
        ("captain", Role.CAPTAIN, CAPTAIN_TEAM_ID),
        ("appeals", Role.APPEALS, None),
        ("td", Role.TD, None),
    ):
        users[name] = make_user(name)
        RoleAssignment.objects.create(user=users[name], edition=edition, role=role, team_id=team)
    users["registrar"] = make_user("registrar")
    RoleAssignment.objects.create(user=users["registrar"], edition=None, role=Role.REGISTRAR)
    users["superuser"] = make_user("superuser", is_superuser=True, is_staff=True)
    return World(edition=edition, users=users)


def extend(world: World, key: Any, build: Callable[[World], T]) -> T:
    """``build(world)`` once per worker (:func:`tests.worlds.once`): afterwards its rows are
    replayed and ``world`` takes the state the building left it in (its edition as the services
    changed it), so every fixture of the test sees the same world."""

    def building() -> tuple[World, T]:
        return world, build(world)

    built, value = once((key, world.edition.pk), building)
    if built is not world:
        vars(world).update(vars(built))
    return value


def enter_13_and_draw(world: World) -> World:
    from tests.web.test_draw import enter_13, held

    enter_13(world)
    held(world)
    return world


@pytest.fixture
def drawn(world: World) -> World:
    """The world with 13 teams entered and the draw held: its matches exist (issue 10)."""
    extend(world, "drawn", enter_13_and_draw)
    return world


DEMO_PASSWORD = "demo-pass"


def demo_loaded(password: str = DEMO_PASSWORD) -> list[Any]:
    """:func:`bridgeko.demo.load_demo` (two editions, one played: seconds) loaded once per
    worker and replayed; the logins' passwords are then (re)set to ``password``, as the loader
    does on a database that has the demo. Returns the logins."""
    from bridgeko import demo

    once("demo", lambda: demo.load_demo(DEMO_PASSWORD))
    return demo.load_demo(password)[1]
