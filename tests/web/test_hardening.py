"""Review of the web application (issue 4): security, bad input and what the public sees.

- every URL that is not in the permission registry is read-only (GET/HEAD only);
- CSRF on every form; no ``|safe``/``mark_safe`` on user text; no open redirect;
- the draw's seed never leaks before the draw (pages, JSON, admin filters, audit log);
- a bad URL is a 404, never a 500; uploads that are huge, binary or wrongly encoded give a
  clear message and save nothing;
- a refused write (a stale page: the form recorded, the roster changed, the entries reopened
  meanwhile) leaves nothing half-saved;
- public pages: few queries, no login, no private data (fees, payments, reasons).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.draw import schedule_services
from bridgeko.draw import services as draw_services
from bridgeko.draw.models import Draw
from bridgeko.editions.models import Edition
from bridgeko.entries import queries as entry_queries
from bridgeko.entries import services as entry_services
from bridgeko.entries.models import EntriesClosing, NoShow, Pair, RosterEntry, Team
from bridgeko.players.models import Player
from tests.web.conftest import REPO, World, make_user
from tests.web.test_draw import DRAW_AT, SEED, announce_and_commit, enter_13
from tests.web.test_entries import NOW, enter_team, make_players

pytestmark = pytest.mark.django_db

SRC = REPO / "src" / "bridgeko"
APPS = ("web", "accounts", "audit", "editions", "players", "entries", "draw", "public")

# ---------------------------------------------------------------- every URL is accounted for

NOT_EDITION_PAGES = {"login", "logout", "set_language", "set_password"}
"""Django's own views: they handle POST themselves (CSRF-protected, safe redirects); the
one-time set-password link (a token in the URL) is tested in test_accounts."""
REDIRECTS = {"entries:after_login", "site:in_language"}
"""Read-only views that answer a GET with a redirect (where a user lands after logging in)."""
EXAMPLE_KWARGS: dict[str, dict[str, Any]] = {
    "api:match": {"code": "R1-M1"},
    # hand records (issue 11)
    "public:hand_records": {"code": "R1-M1", "segment": 1},
    "public:hand_records_pdf": {"code": "R1-M1", "segment": 1},  # issue 20: its PDF
    "public:hand_record": {"code": "R1-M1", "board": 1},
    "api:hand_records": {"code": "R1-M1", "segment": 1},
    # the open JSON API (issue 12, item 5)
    "api:team": {"team": 1},
    "api:legacy_match": {"code": "R1-M1"},
    "api:legacy_hand_records": {"code": "R1-M1", "segment": 1},
    # a public address without its language (redirected to the reader's)
    "site:in_language": {"rest": "draw/"},
    "public:match": {"code": "R1-M1"},  # issue 12: anyone reads a match
    # team pages and feeds (issue 12)
    "public:team": {"team": 1},
    "public:team_ics": {"team": 1},
    # results for other programs (issue 20)
    "site:match_pbn": {"code": "R1-M1"},
}
"""Public URLs with kwargs besides the edition: an example value each (a 404 is fine)."""


def _unprotected() -> Iterator[tuple[str, URLPattern]]:
    def walk(patterns: list[Any], namespace: str) -> Iterator[tuple[str, URLPattern]]:
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.app_name == "admin":
                    continue
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                yield from walk(p.url_patterns, ns)
            elif (
                isinstance(p, URLPattern)
                and not hasattr(p.callback, "bridgeko_roles")
                and p.name
                and p.name not in NOT_EDITION_PAGES
            ):
                yield f"{namespace}{p.name}", p

    yield from walk(get_resolver().url_patterns, "")


def test_every_unprotected_url_is_read_only(world: World) -> None:
    """A view without the permission helper must not accept a POST (nothing there may change
    data); the registry of ``test_permissions`` covers every protected one."""
    draw_services.announce_draw(
        edition=world.edition, place="Praha", at=DRAW_AT, user=world.users["organiser"], now=NOW
    )
    names = []
    for name, pattern in _unprotected():
        takes_edition = "edition" in pattern.pattern.regex.groupindex
        kwargs = {"edition": world.edition.slug} if takes_edition else {}
        kwargs |= EXAMPLE_KWARGS.get(name, {})
        url = reverse(name, kwargs=kwargs)
        names.append(name)
        for who in ("anonymous", "organiser"):
            client = world.client(who)
            assert client.post(url, {}).status_code == 405, (name, who)
            expected = (200, 302, 404) if name in REDIRECTS else (200, 404)
            assert client.get(url).status_code in expected, (name, who)
    assert {"home", "editions:detail", "public:home", "public:draw", "api:match"} <= set(names)


def test_protected_read_only_pages_refuse_a_post(world: World) -> None:
    """A protected URL registered for GET only must refuse a POST (it would otherwise be a
    mutating URL the registry does not know)."""
    from tests.web.test_permissions import REGISTRY

    methods: dict[str, set[str]] = {}
    for entry in REGISTRY:
        methods.setdefault(entry.name, set()).add(entry.method)
    client = world.client("organiser")
    checked = 0
    for entry in REGISTRY:
        if methods[entry.name] == {"get"}:
            response = client.post(reverse(entry.name, kwargs=entry.kwargs(world)), {})
            assert response.status_code == 405, entry.name
            checked += 1
    assert checked >= 6


def test_forms_carry_the_csrf_token_and_no_text_is_marked_safe() -> None:
    for app in APPS:
        for template in (SRC / app / "templates").rglob("*.html"):
            text = template.read_text(encoding="utf-8")
            for form in re.findall(r"<form[^>]*>.*?</form>", text, re.S | re.I):
                if re.search(r'method="post"', form, re.I):
                    assert "{% csrf_token %}" in form, template
            assert "|safe" not in text and "autoescape off" not in text, template
        for module in (SRC / app).rglob("*.py"):
            text = module.read_text(encoding="utf-8")
            assert "mark_safe" not in text and "SafeString" not in text, module
            assert "csrf_exempt" not in text, module


def test_a_post_without_the_csrf_token_is_refused(world: World) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["organiser"])
    response = client.post(
        reverse("accounts:roles", kwargs={"edition": world.edition.slug}),
        {"username": "public", "role": "td"},
    )
    assert response.status_code == 403
    assert response.templates[0].name == "403_csrf.html"  # the friendly page, not Django's
    assert not AuditEntry.objects.filter(action="bridgeko.role.assigned").exists()


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil.example"])
def test_no_open_redirect_after_login_or_language_change(world: World, target: str) -> None:
    from tests.web.conftest import PASSWORD

    client = Client()
    response = client.post(
        reverse("login") + "?next=" + target,
        {"username": "td", "password": PASSWORD, "next": target},
    )
    assert response.status_code == 302 and "evil.example" not in response["Location"]
    response = client.post(reverse("set_language"), {"language": "en", "next": target})
    assert "evil.example" not in response.get("Location", "")


# ---------------------------------------------------------------- the seed before the draw


def test_I8_seed_is_nowhere_before_the_draw(world: World) -> None:
    enter_13(world)
    draw = announce_and_commit(world)
    secret = SEED.hex()
    assert Draw.objects.get(pk=draw.pk).seed_hex == secret
    organiser = world.client("organiser")
    slug = world.edition.slug
    for name in ("draw:manage", "draw:schedule", "editions:dashboard", "public:home"):
        page = organiser.get(reverse(name, kwargs={"edition": slug}))
        assert page.status_code == 200 and secret not in page.content.decode(), name
    page = organiser.get(reverse("audit:log"))
    assert secret not in page.content.decode()
    for entry in AuditEntry.objects.all():
        dump = json.dumps([entry.before, entry.after, entry.summary, entry.object_repr])
        assert secret not in dump, entry.action
    # the admin: not on the page, and no filter on the seed (it would reveal it char by char)
    root = Client()
    root.force_login(make_user("root", is_superuser=True, is_staff=True))
    changelist = reverse("admin:draw_draw_changelist")
    assert secret not in root.get(changelist).content.decode()
    probe = root.get(changelist, {"seed_hex__startswith": secret[:2]})
    assert probe.status_code in (302, 400), probe.status_code  # refused, not a yes/no answer
    numbers = reverse("admin:draw_drawnumber_changelist")
    assert root.get(numbers, {"draw__seed_hex__startswith": "0"}).status_code in (302, 400)


# ---------------------------------------------------------------- bad URLs are 404 pages


def test_bad_urls_are_404_pages_never_500(world: World, toml_1999: str) -> None:
    from bridgeko.editions.services import create_edition

    other = create_edition(slug="ko-2000", toml_text=toml_1999, user=world.users["organiser"])
    foreign = Team.objects.create(edition=other, name="Cizí", created_at=NOW)
    organiser = world.client("organiser")
    registrar = world.client("registrar")
    slug = world.edition.slug
    for name in ("detail", "edit", "pairs", "conditions", "fee"):
        url = reverse(f"entries:{name}", kwargs={"edition": slug, "team": foreign.pk})
        response = organiser.get(url)
        assert response.status_code == 404, name
        assert response.templates[0].name == "404.html"
    foreign_show = NoShow.objects.create(edition=other, team=foreign, legacy_match="R1-M1")
    for name, kwargs in (
        ("draw:no_show", {"team": foreign.pk}),
        ("draw:no_show_change", {"no_show": foreign_show.pk}),
    ):
        url = reverse(name, kwargs={"edition": slug, **kwargs})
        response = organiser.get(url)
        assert response.status_code == 404, name
        assert response.templates[0].name == "404.html"
    for url in (
        f"/e/{slug}/teams/abc/",
        f"/e/{slug}/players/x1/",
        "/e/no-such-edition/teams/",
        "/cs/e/no-such-edition/public/draw/",
        "/en/e/no-such-edition/public/draw/protocol.json",
        "/cs/e/no-such-edition/public/schedule.ics",
        "/e/no-such-edition/live.json",
        "/e/no-such-edition/",
        f"/e/{slug}/players/999999/",
        f"/e/{slug}/teams/{10**30}/",  # beyond any database integer: still a 404
        f"/e/{slug}/teams/{10**30}/edit/",
        f"/e/{slug}/players/{10**30}/",
    ):
        client = registrar if "/players/" in url else organiser  # the register is the registrar's
        assert client.get(url).status_code == 404, url
    assert organiser.post(f"/e/{slug}/roles/{10**30}/revoke/").status_code == 404
    response = organiser.post(
        reverse("draw:schedule_match", kwargs={"edition": slug, "match": "R9-M99"}),
        {"start": "1999-04-02T19:00", "location": "x"},
    )
    assert response.status_code == 302  # back to the page with a message, not a 500


# ---------------------------------------------------------------- uploads


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"x = 1\n" * 60_000, "too large for a regulations file"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "must be UTF-8 text"),
        ("[edition]\nname = 'Bridž'\n".encode("cp1250"), "must be UTF-8 text"),
        (b"[edition]\x00name = 1\n", "must be UTF-8 text"),
    ],
)
def test_bad_regulations_upload_gives_a_clear_message(
    world: World, content: bytes, message: str
) -> None:
    count = (Edition.objects.count(), AuditEntry.objects.count())
    page = world.client("registrar").post(
        reverse("editions:create"),
        {"slug": "ko-2001", "upload": SimpleUploadedFile("r.toml", content)},
    )
    assert page.status_code == 200
    errors = page.context["form"].errors["upload"]
    assert any(message in e for e in errors), errors
    assert (Edition.objects.count(), AuditEntry.objects.count()) == count


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "not a text (CSV) file"),
        ("1;Nov\u00e1k;;1500\n".encode("utf-16"), "not a text (CSV) file"),
        (("1;" + "N" * 121 + ";;1500\n").encode(), "Line 1: The name is longer than 120"),
        (("1" * 21 + ";Novák;;1500\n").encode(), "Line 1: The federation id is longer than 20"),
        ("1;Novák;;99999999999\n".encode(), "Line 1: Elo 99999999999 is too large."),
        (("1;Novák;" + "K" * 121 + ";1500\n").encode(), "Line 1: The club is longer than 120"),
    ],
)
def test_bad_elo_upload_gives_a_clear_message(world: World, content: bytes, message: str) -> None:
    count = (Player.objects.count(), AuditEntry.objects.count())
    client = world.client("registrar")
    url = reverse("players:import", kwargs={"edition": world.edition.slug})
    data = {
        "col_federation_id": "1",
        "col_name": "2",
        "col_club": "3",
        "col_elo": "4",
        "has_header": "",
    }
    page = client.post(url, data | {"file": SimpleUploadedFile("elo.csv", content)})
    assert page.status_code == 200
    problems = page.context["problems"]
    assert any(message in p for p in problems), problems
    page = client.post(url, data | {"confirm": "1"})
    assert page.status_code == 200
    assert page.context["form"].errors
    assert (Player.objects.count(), AuditEntry.objects.count()) == count


def test_huge_elo_upload_is_refused(world: World, settings: Any) -> None:
    from bridgeko.players import views

    content = b"1;A;;1500\n" * (views.MAX_UPLOAD // 10 + 1)
    page = world.client("registrar").post(
        reverse("players:import", kwargs={"edition": world.edition.slug}),
        {
            "col_federation_id": "1",
            "col_name": "2",
            "file": SimpleUploadedFile("elo.csv", content),
        },
    )
    assert page.status_code == 200
    assert page.context["form"].errors["file"]
    assert Player.objects.count() == 0


# ---------------------------------------------------------------- refused writes (races)


def test_R7_2_captain_change_refused_when_the_form_was_recorded_meanwhile(
    world: World,
) -> None:
    """The captain's page was loaded before the organiser recorded the entry form: the change
    is refused under the team's lock and nothing is saved."""
    organiser = world.users["organiser"]
    players = make_players(6)
    team = enter_team(world.edition, "Sokol", players[:4], organiser, received=None)
    stale = Team.objects.get(pk=team.pk)
    assert not stale.frozen
    entry_services.record_conditions(
        team=team,
        form_received=NOW.date(),
        fee_received=None,
        fee_paid=0,
        cards={},
        user=organiser,
        now=NOW,
    )
    count = AuditEntry.objects.count()
    with pytest.raises(ServiceError):
        entry_services.update_team(
            team=stale,
            name="Sokol",
            roster=players[:3] + players[4:5],
            user=world.users["td"],
            now=NOW,
        )
    assert list(
        RosterEntry.objects.filter(team=team).order_by("position").values_list("player", flat=True)
    ) == [p.pk for p in players[:4]]
    assert AuditEntry.objects.count() == count


def test_pairs_refused_when_the_roster_changed_meanwhile(world: World) -> None:
    organiser = world.users["organiser"]
    players = make_players(6)
    team = enter_team(world.edition, "Sokol", players[:4], organiser, received=None)
    stale = Team.objects.get(pk=team.pk)
    entry_services.update_team(
        team=team, name="Sokol", roster=players[:3] + players[4:5], user=organiser, now=NOW
    )
    team = stale
    count = (Pair.objects.count(), AuditEntry.objects.count())
    with pytest.raises(ServiceError):  # players[3] left the roster meanwhile
        entry_services.set_pairs(
            team=team,
            pairs=[(players[0], players[1]), (players[2], players[3])],
            user=organiser,
            now=NOW,
        )
    assert (Pair.objects.count(), AuditEntry.objects.count()) == count


def test_draw_refused_when_the_entries_were_reopened_meanwhile(world: World) -> None:
    enter_13(world)
    announce_and_commit(world)
    organiser = world.users["organiser"]
    teams = entry_queries.edition_teams(world.edition, accepted_only=True)
    entry_services.reopen_entries(edition=world.edition, reason="chyba", user=organiser, now=NOW)
    count = AuditEntry.objects.count()
    with pytest.raises(ServiceError):
        draw_services._still_closed(world.edition, teams)
    with pytest.raises(ServiceError):
        draw_services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    assert Draw.objects.get(edition=world.edition).held_at is None
    assert AuditEntry.objects.count() == count
    assert not EntriesClosing.objects.filter(edition=world.edition).exists()


# ---------------------------------------------------------------- public pages


PUBLIC = ("public:home", "public:teams", "public:draw", "public:schedule", "public:standings")


def _public_world(world: World) -> str:
    """An edition with a fee override (amount and reason), payments, a late entry with its
    reason and a held draw with published dates: everything private there is."""
    organiser = world.users["organiser"]
    enter_13(world)
    team = Team.objects.get(edition=world.edition, name="Tým 03")
    entry_services.override_fee(
        team=team, amount=777, reason="Sponzorský dar XYZ", user=organiser, now=NOW
    )
    entry_services.record_conditions(
        team=team,
        form_received=NOW.date(),
        fee_received=NOW.date(),
        fee_paid=4321,
        cards={},
        user=organiser,
        now=NOW,
    )
    late = make_players(4, start=900)
    entry_services.create_team(
        edition=world.edition,
        name="Pozdní",
        roster=late,
        late_reason="Omluva ředitele ABC",
        user=organiser,
        now=NOW,
    )
    announce_and_commit(world)
    draw_services.hold_draw(edition=world.edition, user=organiser, now=DRAW_AT)
    schedule_services.default_schedule(
        edition=world.edition, first_date=DRAW_AT.date(), user=organiser, now=DRAW_AT
    )
    schedule_services.publish_schedule(edition=world.edition, user=organiser, now=DRAW_AT)
    return world.edition.slug


def test_public_pages_show_no_private_data(world: World) -> None:
    slug = _public_world(world)
    client = Client()
    texts = []
    for name in (*PUBLIC, "public:protocol", "public:schedule_ics"):
        response = client.get(reverse(name, kwargs={"edition": slug}))
        assert response.status_code == 200, name
        texts.append(response.content.decode())
    # the language switcher's CSRF token is random text: it may hold "777" by chance
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", "\n".join(texts))
    for private in ("777", "4321", "Sponzorský dar XYZ", "Omluva ředitele ABC", "1200", "1500"):
        assert private not in text, private


@pytest.mark.parametrize("name", [*PUBLIC, "public:protocol", "public:schedule_ics"])
def test_public_pages_need_a_handful_of_queries(
    world: World, name: str, django_assert_max_num_queries: Any
) -> None:
    slug = _public_world(world)
    client = Client()
    with django_assert_max_num_queries(12):
        response = client.get(reverse(name, kwargs={"edition": slug}))
    assert response.status_code == 200


# ---------------------------------------------------------------- accounts and secrets


def test_audit_filter_offers_only_the_accounts_of_ones_editions(
    world: World, toml_1999: str
) -> None:
    from bridgeko.accounts.models import Role, RoleAssignment
    from bridgeko.editions.services import create_edition

    stranger = make_user("stranger")
    other = create_edition(slug="ko-2000", toml_text=toml_1999, user=stranger)
    RoleAssignment.objects.create(user=make_user("cizi-td"), edition=other, role=Role.TD)
    page = world.client("organiser").get(reverse("audit:log"))
    offered = {u.username for u in page.context["form"].fields["user"].queryset}
    assert {"organiser", "td", "captain", "appeals"} <= offered
    assert not {"stranger", "cizi-td", "public"} & offered


def test_secret_key_file_made_owner_only_and_empty_file_replaced(tmp_path: Any) -> None:
    from bridgeko.core import config

    directory = tmp_path / "data"
    directory.mkdir()
    path = directory / config.SECRET_KEY_FILE
    path.write_text("k" * 60 + "\n", encoding="ascii")
    path.chmod(0o644)
    assert config.secret_key({}, directory) == "k" * 60
    assert path.stat().st_mode & 0o777 == 0o600
    path.write_text("", encoding="ascii")
    key = config.secret_key({}, directory)
    assert len(key) >= 50 and path.read_text(encoding="ascii").strip() == key
    assert path.stat().st_mode & 0o777 == 0o600


# ---------------------------------------------------------------- values the database cannot hold


def test_too_large_amounts_are_form_errors_not_database_errors(world: World) -> None:
    team = enter_team(world.edition, "Sokol", make_players(4), world.users["organiser"])
    client = world.client("organiser")
    kwargs = {"edition": world.edition.slug, "team": team.pk}
    count = AuditEntry.objects.count()
    page = client.post(reverse("entries:fee", kwargs=kwargs), {"amount": "99999999999"})
    assert page.status_code == 200 and page.context["form"].errors["amount"]
    page = client.post(reverse("entries:conditions", kwargs=kwargs), {"fee_paid": "99999999999"})
    assert page.status_code == 200 and page.context["form"].errors["fee_paid"]
    assert AuditEntry.objects.count() == count


def test_edition_name_and_year_must_fit_the_edition_row(world: World, toml_1999: str) -> None:
    from bridgeko.editions.forms import EditionEditForm

    count = (Edition.objects.count(), AuditEntry.objects.count())
    client = world.client("registrar")
    long_name = toml_1999.replace('name = "', 'name = "' + "X" * 200, 1)
    page = client.post(
        reverse("editions:create"),
        {"slug": "dlouhy", "upload": SimpleUploadedFile("r.toml", long_name.encode())},
    )
    assert page.status_code == 200
    assert "longer than 200 characters" in page.content.decode()
    form = EditionEditForm(edition=world.edition)
    data = {name: field.initial for name, field in form.fields.items() if name != "previous"}
    page = world.client("organiser").post(
        reverse("editions:edit", kwargs={"edition": world.edition.slug}),
        data | {"edition__year": "123456789012"},
    )
    assert page.status_code == 200
    assert page.context["form"].errors["edition__year"]
    assert (Edition.objects.count(), AuditEntry.objects.count()) == count


def test_R14_1_dates_not_changed_after_a_concurrent_publication(
    world: World, monkeypatch: Any
) -> None:
    """The page checked "not published" just before another organiser published the dates:
    the change is refused under the draw's lock and nothing is saved."""
    from datetime import datetime

    from bridgeko.draw.models import MatchDate
    from tests.web.test_draw import held

    enter_13(world)
    held(world)
    organiser = world.users["organiser"]
    schedule_services.default_schedule(
        edition=world.edition, first_date=DRAW_AT.date(), user=organiser, now=DRAW_AT
    )
    stale = Draw.objects.get(edition=world.edition)
    schedule_services.publish_schedule(edition=world.edition, user=organiser, now=DRAW_AT)
    monkeypatch.setattr(schedule_services, "_schedule_editable", lambda edition: stale)
    row = MatchDate.objects.filter(draw=stale).first()
    assert row is not None
    count = AuditEntry.objects.count()
    with pytest.raises(ServiceError):
        schedule_services.set_match_date(
            edition=world.edition,
            match=row.match,
            start=datetime(1999, 4, 1, 18, 0, tzinfo=DRAW_AT.tzinfo),
            location="Jinde",
            user=organiser,
            now=DRAW_AT,
        )
    with pytest.raises(ServiceError):
        schedule_services.default_schedule(
            edition=world.edition, first_date=DRAW_AT.date(), user=organiser, now=DRAW_AT
        )
    with pytest.raises(ServiceError):
        schedule_services.publish_schedule(edition=world.edition, user=organiser, now=DRAW_AT)
    assert MatchDate.objects.get(pk=row.pk).location == row.location
    assert AuditEntry.objects.count() == count


def test_I8_draw_made_by_hand_after_a_commitment_shows_no_seed(world: World) -> None:
    """The commitment was published, then the draw was made by hand: the page says so and
    does not present the unused seed as the seed of the draw."""
    teams = enter_13(world)
    draw = announce_and_commit(world)
    draw_services.enter_manual_draw(
        edition=world.edition,
        drawn_order=[t.pk for t in reversed(teams[4:])],
        drawn_at=DRAW_AT,
        user=world.users["organiser"],
        now=NOW,
    )
    draw = Draw.objects.get(pk=draw.pk)
    assert draw.held and draw.revealed_seed == ""
    page = world.client("anonymous").get(
        reverse("public:draw", kwargs={"edition": world.edition.slug})
    )
    text = page.content.decode()
    assert SEED.hex() not in text
    assert "made by hand" in text


def test_R8_1_team_refused_when_the_entries_closed_meanwhile(
    world: World, monkeypatch: Any
) -> None:
    """The entry was checked as on time just before the entries were closed: it is refused
    under the edition's lock (it would be neither accepted nor a late entry)."""
    organiser = world.users["organiser"]
    enter_team(world.edition, "Sokol", make_players(4), organiser)
    entry_services.close_entries(edition=world.edition, user=organiser, now=NOW)
    real = entry_queries.closing_of
    calls = iter([None])  # the first look (before the transaction) sees the entries open
    monkeypatch.setattr(entry_services, "closing_of", lambda edition: next(calls, real(edition)))
    count = (Team.objects.count(), AuditEntry.objects.count())
    with pytest.raises(ServiceError):
        entry_services.create_team(
            edition=world.edition,
            name="Pozdní",
            roster=make_players(4, start=500),
            user=organiser,
            now=NOW,
        )
    assert (Team.objects.count(), AuditEntry.objects.count()) == count


def test_a_request_body_above_the_limit_is_refused_before_it_is_read(
    world: World, settings: Any
) -> None:
    settings.BRIDGEKO_MAX_REQUEST_BYTES = 1024
    page = world.client("organiser").post(
        reverse("players:import", kwargs={"edition": world.edition.slug}),
        {
            "col_federation_id": "1",
            "col_name": "2",
            "file": SimpleUploadedFile("e.csv", b"x" * 4096),
        },
    )
    assert page.status_code == 413
    assert "at most 0 MB" not in page.content.decode()  # rounded down, but never shown as 0
    assert Player.objects.count() == 0
    czech = world.client("organiser", language="cs").post(
        reverse("players:import", kwargs={"edition": world.edition.slug}),
        {"file": SimpleUploadedFile("e.csv", b"x" * 4096)},
    )
    assert czech.status_code == 413
    assert "Aplikace přijímá soubory nejvýše 1 MB" in czech.content.decode()
