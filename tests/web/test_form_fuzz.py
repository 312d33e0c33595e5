"""Every POST form the organiser, a TD and a captain reach in the demo, submitted with hostile
values (issue 23, item 6): empty, 100,000 characters, NUL, markup and emoji, 20-digit and
negative numbers, impossible dates. No answer is a server error, and a refused submission writes
nothing (no audit entry: every write of the application records one).

The pages are found as a user finds them: from the dashboard (the captain: *My team*), following
the links of each page inside the site, at most :data:`PER_VIEW` addresses of one view (so every
kind of page, not every match); the forms are read from the pages' HTML, with their fields'
names and defaults. A form is posted once per hostile value, every field but the hidden ones
holding it (hidden fields keep theirs; a file field gets a file of NUL bytes)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import Resolver404, resolve

from bridgeko.audit.models import AuditEntry
from tests.web.conftest import demo_loaded

pytestmark = pytest.mark.slow

SLUG = "ko-1999"
PER_VIEW = 3
"""Addresses of one view visited (three matches — a bye, one played board by board, a walkover —,
three teams ...)."""
SKIPPED_VIEWS = frozenset({"logout", "login"})
"""Posting there ends the session the walk needs, or (a failed login) is audited by design."""
NOT_PAGES = ("pdf", "csv", "ics", "pbn", "json", "download", "export", "backup", "lin", "zip")
"""Views whose answer is a file, not a page with forms (their names say so)."""

LONG = "x" * 100_000
HOSTILE: dict[str, str] = {
    "empty": "",
    "100,000 characters": LONG,
    "NUL": "a\x00b",
    "markup and emoji": "<script>alert(1)</script>\"'& 👍🏽 Řeřicha 𝄞",
    "20 digits": "99999999999999999999",
    "negative": "-99999999999999999999",
    "impossible date": "2999-02-31",
    "not a number": "1e309",
}
"""The values a form is posted with, one at a time in every field."""


@dataclass
class Form:
    action: str
    fields: dict[str, tuple[str, str]] = field(default_factory=dict)
    """name -> (type, default value)."""
    options: dict[str, list[str]] = field(default_factory=dict)


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form" and a.get("method", "get").lower() == "post":
            self._form = Form(a.get("action", ""))
            self.forms.append(self._form)
        elif self._form is not None and tag in ("input", "textarea", "select") and a.get("name"):
            kind = a.get("type", "text").lower() if tag == "input" else tag
            if kind in ("submit", "button", "image", "reset"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                self._form.fields.setdefault(a["name"], (kind, ""))
                return
            self._form.fields[a["name"]] = (kind, a.get("value", ""))
            if tag == "select":
                self._select = a["name"]
        elif tag == "option" and self._form is not None and self._select is not None:
            self._form.options.setdefault(self._select, []).append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def _view(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.view_name


def _pages(client: Client, start: list[str]) -> Iterator[tuple[str, str]]:
    """(address, HTML) of the pages reachable from ``start``, a few of each view."""
    seen: set[str] = set()
    per_view: dict[str, int] = {}
    queue = deque(start)
    while queue:
        path = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        view = _view(path)
        if view is None or view in SKIPPED_VIEWS or any(w in view for w in NOT_PAGES):
            continue
        if per_view.get(view, 0) >= PER_VIEW:
            continue
        per_view[view] = per_view.get(view, 0) + 1
        response = client.get(path)
        assert response.status_code < 500, (path, response.status_code)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        yield path, html
        parser = _Parser()
        parser.feed(html)
        for href in parser.links:
            target = urlsplit(urljoin(path, href))
            if target.netloc or target.scheme not in ("", "http", "https"):
                continue
            if target.path.startswith(("/static/", "/media/", "/admin/")):
                continue
            queue.append(target.path)


def _forms(client: Client, start: list[str]) -> list[tuple[str, Form]]:
    """Each distinct form (by its action and its fields) with the page it is on."""
    found: dict[tuple[str, tuple[str, ...]], tuple[str, Form]] = {}
    for path, html in _pages(client, start):
        parser = _Parser()
        parser.feed(html)
        for form in parser.forms:
            action = urlsplit(urljoin(path, form.action or path)).path
            view = _view(action)
            if view is None or view in SKIPPED_VIEWS:
                continue
            form.action = action
            found.setdefault((action, tuple(sorted(form.fields))), (path, form))
    return list(found.values())


def _data(form: Form, value: str) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name, (kind, default) in form.fields.items():
        if kind == "hidden" or name == "csrfmiddlewaretoken":
            data[name] = default
        elif kind == "file":
            data[name] = SimpleUploadedFile("x.bin", b"\x00" * 64)
        else:
            data[name] = value
    return data


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "start"),
    [
        ("organiser", [f"/e/{SLUG}/dashboard/", "/"]),
        ("td", [f"/e/{SLUG}/dashboard/", f"/e/{SLUG}/matches/"]),
        ("captain", [f"/e/{SLUG}/dashboard/", f"/e/{SLUG}/my-team/"]),
        ("playing captain", [f"/e/{SLUG}/dashboard/", f"/e/{SLUG}/my-team/"]),
    ],
)
def test_issue23_every_form_survives_hostile_values(db: Any, who: str, start: list[str]) -> None:
    from django.contrib.auth import get_user_model

    from bridgeko.accounts.models import Role, RoleAssignment
    from bridgeko.matches.models import Match

    demo_loaded()
    client = Client()
    if who == "playing captain":  # a team still playing: its line-ups, dates and record forms
        match = Match.objects.get(edition__slug=SLUG, code="QF4")
        user = (
            RoleAssignment.objects.filter(
                edition__slug=SLUG, role=Role.CAPTAIN, team_id=match.home_id
            )
            .first()
            .user
        )  # type: ignore[union-attr]
    else:
        user = get_user_model().objects.get(username=who)
    client.force_login(user)
    forms = _forms(client, start)
    least = {"organiser": 25, "td": 15, "captain": 1, "playing captain": 2}[who]
    assert len(forms) >= least, [f.action for _page, f in forms]
    errors = []
    for page, form in forms:
        for kind, value in HOSTILE.items():
            before = AuditEntry.objects.count()
            response = client.post(form.action, _data(form, value))
            if response.status_code >= 500:
                errors.append((form.action, kind, page, response.status_code))
            elif response.status_code not in (301, 302, 303):  # refused: nothing written
                written = AuditEntry.objects.count() - before
                if written:
                    errors.append((form.action, kind, page, f"{written} audit entries"))
    assert errors == []
