"""Security headers (issue 23, item 4): every page, staff or public, carries a
Content-Security-Policy that allows no inline script and no framing (the embeddable bracket:
any frame), ``X-Content-Type-Options`` and a ``Referrer-Policy``; no template holds an inline
script or an inline event handler, which the policy would block."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from bridgeko.core.security import FRAMEABLE, POLICY
from tests.web.conftest import World

SRC = Path(__file__).resolve().parents[2] / "src" / "bridgeko"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "path"),
    [
        (None, "/login/"),
        (None, "/en/e/ko-1999/public/"),
        (None, "/api/v1/editions/"),
        ("organiser", "/e/ko-1999/dashboard/"),
        ("td", "/e/ko-1999/draw/"),
    ],
)
def test_issue23_every_response_has_the_security_headers(
    world: World, who: str | None, path: str
) -> None:
    client = world.client(who) if who else Client()
    response = client.get(path)
    assert response.status_code == 200, path
    assert response["Content-Security-Policy"] == POLICY
    assert "script-src 'self';" in POLICY and "'unsafe-inline'" not in POLICY.split(";")[1]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_issue23_the_embedded_bracket_alone_may_be_framed(world: World) -> None:
    response = Client().get("/en/e/ko-1999/public/embed/bracket/")
    assert response["Content-Security-Policy"] == FRAMEABLE
    assert FRAMEABLE.replace("frame-ancestors *", "frame-ancestors 'none'") == POLICY


INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+=\"", re.IGNORECASE)


def test_issue23_no_template_holds_inline_script() -> None:
    """The policy blocks inline script: a ``<script>`` without ``src`` or an ``onclick=``-like
    attribute in a template would silently stop working."""
    found = [
        f"{path.relative_to(SRC)}: {match.group(0)}"
        for path in SRC.rglob("*.html")
        for match in INLINE.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []


@pytest.mark.django_db
def test_issue23_healthz_says_the_database_background_and_disk_are_fine(
    settings: object, client: Client
) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    doc = response.json()
    assert doc["ok"] is True
    assert set(doc["checks"]) == {"database", "background", "disk"}
    assert doc["checks"]["database"]["ok"] and doc["checks"]["background"]["mode"] == "inline"
    assert response["Cache-Control"] == "no-store" and not response.cookies
    text = response.content.decode()
    assert "/" not in text.replace("/healthz", "")  # no path, no setting, no secret
    # the data directory short of room: 503, the disk named
    settings.BRIDGEKO_HEALTH_MIN_FREE_BYTES = 1 << 62  # type: ignore[attr-defined]
    full = client.get("/healthz")
    assert full.status_code == 503 and full.json()["checks"]["disk"]["ok"] is False
    assert client.post("/healthz").status_code == 405
