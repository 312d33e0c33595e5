"""Czech done properly (issue 9): the catalogue is complete and wins over Django's, counts use
the three Czech plural forms, Django's own messages read in Czech, and the reader's language
applies on every page.

The Czech texts below are written out by hand, not computed by the code under test.
"""

from __future__ import annotations

import contextlib
import html
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext, npgettext, pgettext

from bridgeko.competition.messages import NP_, Message, counted
from bridgeko.core.i18n import tr
from bridgeko.editions.models import Edition
from bridgeko.players import elo_csv
from bridgeko.players.services import EloImportError
from tests.web.conftest import REPO, World, demo_loaded

LOCALE = REPO / "src" / "bridgeko" / "locale"

# ---------------------------------------------------------------- reading a catalogue


@dataclass(frozen=True)
class Entry:
    context: str | None
    msgid: str
    plural: str | None
    msgstrs: tuple[str, ...]
    fuzzy: bool


Key = tuple[str | None, str]


def _unquote(lines: list[str]) -> str:
    return "".join(
        bytes(line.strip()[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode()
        for line in lines
    )


def read_po(path: Path) -> dict[Key, Entry]:
    """The entries of a .po/.pot file by (context, msgid); the header and obsolete (``#~``)
    entries left out."""
    entries: dict[Key, Entry] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, list[str]] = {}
        current: list[str] | None = None
        fuzzy = False
        for line in block.splitlines():
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith('"'):
                assert current is not None, block
                current.append(line)
                continue
            keyword, _space, rest = line.partition(" ")
            current = fields.setdefault(keyword, [])
            current.append(rest)
        if "msgid" not in fields:
            continue
        msgid = _unquote(fields["msgid"])
        if not msgid:
            continue  # the header
        plural = _unquote(fields["msgid_plural"]) if "msgid_plural" in fields else None
        if plural is None:
            msgstrs: tuple[str, ...] = (_unquote(fields.get("msgstr", ['""'])),)
        else:
            forms = sorted(k for k in fields if k.startswith("msgstr["))
            msgstrs = tuple(_unquote(fields[k]) for k in forms)
        context = _unquote(fields["msgctxt"]) if "msgctxt" in fields else None
        entries[(context, msgid)] = Entry(context, msgid, plural, msgstrs, fuzzy)
    return entries


def _show(key: Key) -> str:
    return f"{key[0]}|{key[1]}" if key[0] else key[1]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[Key, Entry]:
    """Every message of the code, templates and the engine's ``N_``/``NP_`` templates, as the
    project's ``makemessages`` extracts them (run on a copy of the sources, so the real
    catalogues are not touched)."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.skip("GNU gettext is not installed")
    root = tmp_path_factory.mktemp("messages") / "bridgeko"
    shutil.copytree(
        REPO / "src" / "bridgeko",
        root,
        ignore=shutil.ignore_patterns("locale", "__pycache__", "static", "*.mo", "*.po"),
    )
    (root / "locale" / "cs").mkdir(parents=True)
    with override_settings(LOCALE_PATHS=[root / "locale"]), contextlib.chdir(root):
        call_command(
            "makemessages",
            locale=["cs"],
            keep_pot=True,
            no_location=True,
            no_wrap=True,
            ignore_patterns=["cli/*"],
            verbosity=0,
        )
    return read_po(root / "locale" / "django.pot")


@pytest.fixture(scope="module")
def czech() -> dict[Key, Entry]:
    return read_po(LOCALE / "cs" / "LC_MESSAGES" / "django.po")


def test_czech_header_has_the_three_czech_plural_forms() -> None:
    text = (LOCALE / "cs" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"' in text


def test_every_message_has_its_czech_translation(
    extracted: dict[Key, Entry], czech: dict[Key, Entry]
) -> None:
    """Fails when a template string, a Python ``_()``/``gettext``/``ngettext`` string or an
    engine template (``N_``, ``NP_``) has no Czech text: missing, empty or fuzzy; a counted one
    needs its three forms (1 hráč, 2–4 hráči, 5 hráčů)."""
    assert len(extracted) > 900  # the strings of every app, the engine's included
    missing = [_show(k) for k in extracted if k not in czech]
    assert missing == []
    bad = [
        _show(key)
        for key, entry in extracted.items()
        if czech[key].fuzzy
        or not all(czech[key].msgstrs)
        or (entry.plural is not None and len(czech[key].msgstrs) != 3)
        or czech[key].plural != entry.plural
    ]
    assert bad == []


def test_english_catalogue_holds_the_same_messages(extracted: dict[Key, Entry]) -> None:
    """The English catalogue lists every message too (its msgstr empty = the English source),
    none fuzzy, with the same plural."""
    english = read_po(LOCALE / "en" / "LC_MESSAGES" / "django.po")
    missing = [_show(k) for k in extracted if k not in english]
    assert missing == []
    assert [_show(k) for k, e in english.items() if e.fuzzy] == []
    assert [_show(k) for k, e in extracted.items() if english[k].plural != e.plural] == []


def test_project_translations_win_over_djangos(czech: dict[Key, Entry]) -> None:
    """Each Czech text of the project catalogue is what gettext gives in Czech: none is hidden by
    Django's own catalogues (e.g. the schedule's "Home" column read Django's "Domů")."""
    lost = []
    with translation.override("cs"):
        for key, entry in czech.items():
            if entry.plural is None:
                got = [pgettext(key[0], key[1]) if key[0] else gettext(key[1])]
            else:
                got = [
                    npgettext(key[0], key[1], entry.plural, n)
                    if key[0]
                    else ngettext(key[1], entry.plural, n)
                    for n in (1, 2, 5)
                ]
            if got != list(entry.msgstrs):
                lost.append(_show(key))
    assert lost == []


def test_czech_msgstrs_use_czech_quotes_and_no_stray_punctuation(
    czech: dict[Key, Entry],
) -> None:
    """Czech typographic quotes „…“ (no ASCII "…" inside a Czech text) and no ".;"."""
    ascii_quotes = [_show(k) for k, e in czech.items() if any('"' in s for s in e.msgstrs)]
    assert ascii_quotes == []
    stray = [_show(k) for k, e in czech.items() if any(".;" in s for s in e.msgstrs)]
    assert stray == []


# ---------------------------------------------------------------- plurals


def test_counted_engine_message_uses_the_three_czech_forms() -> None:
    held = NP_(
        "Draw held: %(n)d team, scheme for %(size)d", "Draw held: %(n)d teams, scheme for %(size)d"
    )
    texts = {n: counted(held, "n", {"n": n, "size": 16}) for n in (1, 3, 13)}
    with translation.override("cs"):
        assert [tr(texts[n]) for n in (1, 3, 13)] == [
            "Losování provedeno: 1 družstvo, schéma pro 16",
            "Losování provedeno: 3 družstva, schéma pro 16",
            "Losování provedeno: 13 družstev, schéma pro 16",
        ]
    with translation.override("en"):
        assert tr(texts[1]) == "Draw held: 1 team, scheme for 16"
        assert tr(texts[13]) == "Draw held: 13 teams, scheme for 16"
    assert str(texts[3]) == "Draw held: 3 teams, scheme for 16"  # the English without Django


def test_counted_message_round_trips_through_the_audit_log() -> None:
    from bridgeko.audit.messages import message_from_json, message_to_json

    message = counted(NP_("%(n)s team", "%(n)s teams"), "n", {"n": 4, "x": Message("y")})
    assert message_from_json(message_to_json(message)) == message
    plain = Message("%(n)s", {"n": 1})
    assert "plural" not in message_to_json(plain)
    assert message_from_json(message_to_json(plain)) == plain


def test_elo_file_problems_counted_in_czech() -> None:
    def error(count: int) -> str:
        problems = tuple(elo_csv.Problem(k, "The federation id is missing.") for k in range(count))
        return str(EloImportError(problems))

    with translation.override("cs"):
        assert [error(n) for n in (1, 2, 5)] == [
            "Soubor obsahuje 1 chybu; nic nebylo načteno.",
            "Soubor obsahuje 2 chyby; nic nebylo načteno.",
            "Soubor obsahuje 5 chyb; nic nebylo načteno.",
        ]


def test_imported_players_counted_in_czech() -> None:
    imported = "Imported %(rows)d player (new: %(created)d, with Elo: %(elo)d)."
    plural = "Imported %(rows)d players (new: %(created)d, with Elo: %(elo)d)."
    with translation.override("cs"):
        texts = [
            ngettext(imported, plural, n) % {"rows": n, "created": 0, "elo": n} for n in (1, 4, 5)
        ]
    assert texts == [
        "Načten 1 hráč (z toho nových: 0, s Elo: 1).",
        "Načteni 4 hráči (z toho nových: 0, s Elo: 4).",
        "Načteno 5 hráčů (z toho nových: 0, s Elo: 5).",
    ]


# ---------------------------------------------------------------- Django's own messages in Czech


def test_password_too_short_reads_fully_in_czech() -> None:
    """Django 5.2's wording of the error is missing from Django's Czech catalogue; the project's
    catalogue carries it."""
    with translation.override("cs"), pytest.raises(ValidationError) as info:
        password_validation.validate_password("x1")
    with translation.override("cs"):
        messages = info.value.messages
    assert messages[0] == "Heslo je příliš krátké. Musí mít délku aspoň 8 znaků."
    assert not [m for m in messages if "password" in m.lower() or "character" in m]


@pytest.mark.django_db
def test_login_form_errors_in_czech() -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    page = html.unescape(client.post(reverse("login"), {"username": ""}).content.decode())
    assert "Toto pole je třeba vyplnit." in page and "This field is required" not in page
    page = html.unescape(
        client.post(reverse("login"), {"username": "nikdo", "password": "špatné"}).content.decode()
    )
    assert "Please enter" not in page and "uživatelské jméno a heslo" in page


# ---------------------------------------------------------------- the project's words win


@pytest.fixture
def demo(db: Any) -> Edition:
    demo_loaded()
    return Edition.objects.get(slug="ko-1999")


@pytest.mark.django_db
def test_R14_1_schedule_home_column_reads_domaci(demo: Edition) -> None:
    from bridgeko.accounts.models import Role, RoleAssignment
    from tests.web.conftest import make_user

    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    public = client.get(f"/e/{demo.slug}/public/schedule/", follow=True)
    assert "<th>Domácí</th><th>Hosté</th>" in public.content.decode()
    user = make_user("poradatel-rozpis")
    RoleAssignment.objects.create(user=user, edition=demo, role=Role.ORGANISER)
    client.force_login(user)
    page = client.get(reverse("draw:schedule", kwargs={"edition": demo.slug})).content.decode()
    assert "<th>Domácí</th><th>Hosté</th>" in page and "Domů" not in page


@pytest.mark.django_db
def test_player_name_labelled_jmeno(world: World) -> None:
    from bridgeko.players.models import Player

    with translation.override("cs"):
        assert str(Player._meta.get_field("name").verbose_name) == "jméno"
        assert str(Edition._meta.get_field("name").verbose_name) == "název"


# ---------------------------------------------------------------- one language rule on every page


def _pages(world: World) -> dict[str, str]:
    slug = world.edition.slug
    return {
        "home": "/",
        "audit": reverse("audit:log"),
        "edition": reverse("editions:detail", kwargs={"edition": slug}),
        "dashboard": reverse("editions:dashboard", kwargs={"edition": slug}),
        "public": f"/e/{slug}/public/",  # without its language: redirected to the reader's
    }


def _language(world: World, url: str, cookie: str | None, accept: str | None) -> str:
    client = Client()
    client.force_login(world.users["organiser"])
    if cookie:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    response = client.get(url, follow=True, **headers)
    assert response.status_code == 200, url
    lang = str(response["Content-Language"])
    if "text/html" in response["Content-Type"]:
        assert f'<html lang="{lang}">' in response.content.decode()
    return lang


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["home", "audit", "edition", "dashboard", "public"])
@pytest.mark.parametrize(
    ("cookie", "accept", "expected"),
    [
        (None, "en", "en"),  # the browser's language
        (None, "en-GB,en;q=0.9,cs;q=0.5", "en"),
        ("cs", "en", "cs"),  # the switcher's cookie wins over the browser
        ("en", "cs", "en"),
        (None, None, "cs"),  # nothing expressed: the site default
        (None, "de", "cs"),  # a language the site does not have: the site default
    ],
)
def test_the_readers_language_applies_on_every_page(
    world: World, page: str, cookie: str | None, accept: str | None, expected: str
) -> None:
    assert _language(world, _pages(world)[page], cookie, accept) == expected


@pytest.mark.django_db
def test_edition_language_only_when_the_reader_expressed_nothing(world: World) -> None:
    Edition.objects.filter(pk=world.edition.pk).update(language="en")
    pages = _pages(world)
    for page in ("edition", "dashboard", "public"):
        assert _language(world, pages[page], None, None) == "en"  # the edition's
        assert _language(world, pages[page], None, "cs") == "cs"  # the reader's
        assert _language(world, pages[page], "cs", None) == "cs"
    assert _language(world, pages["home"], None, None) == "cs"  # no edition: the site default
