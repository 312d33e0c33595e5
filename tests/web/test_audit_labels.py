"""A readable audit log (issue 9, item 3): every action by a translated name, before/after as a
table of field -> before -> after with readable names and values, the raw data as real JSON."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import re
from datetime import UTC, datetime
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from bridgeko.audit.labels import ACTION_LABELS, FIELD_LABELS, action_label, actions_matching
from bridgeko.audit.services import record
from bridgeko.editions.audit_display import diff_rows, format_value
from bridgeko.players import services as players

SRC = Path(__file__).resolve().parents[2] / "src" / "bridgeko"
CODE = re.compile(r"bridgeko\.[a-z_]+\.[a-z_]+")
NOT_ACTIONS = {"bridgeko.players.elo_upload": "the session key of an uploaded Elo file"}


def _is_python_name(text: str) -> bool:
    """``text`` names a module, or an attribute of a module (a dotted path in the settings)."""
    parent, _dot, attr = text.rpartition(".")
    try:
        module = importlib.import_module(parent)
    except ImportError:
        return False
    if hasattr(module, attr):
        return True
    try:
        return importlib.util.find_spec(text) is not None
    except (ImportError, AttributeError):
        return False


def action_codes_in_sources() -> set[str]:
    """Every string of the sources shaped like an action code (``bridgeko.<object>.<verb>``)
    that is not a module path, a signal's ``dispatch_uid`` or a known other key."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        uids = {
            id(kw.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            for kw in node.keywords
            if kw.arg == "dispatch_uid"
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and CODE.fullmatch(node.value)
                and id(node) not in uids
            ):
                found.add(node.value)
    return {code for code in found if code not in NOT_ACTIONS and not _is_python_name(code)}


def test_every_audit_action_in_the_sources_has_a_label_with_czech_text() -> None:
    codes = action_codes_in_sources()
    assert "bridgeko.role.assigned" in codes and "bridgeko.demo.loaded" in codes
    assert sorted(codes - set(ACTION_LABELS)) == []
    for code in ACTION_LABELS:
        with translation.override("en"):
            english = action_label(code)
        with translation.override("cs"):
            czech = action_label(code)
        assert english != code and czech != english, code


def test_every_field_label_has_czech_text() -> None:
    same = {"E-mail", "Id", "Import", "Role"}  # the same word in Czech
    for key, label in FIELD_LABELS.items():
        with translation.override("en"):
            english = str(label)
        with translation.override("cs"):
            czech = str(label)
        assert czech != english or english in same, key


def test_values_are_formatted_for_the_reader() -> None:
    with translation.override("cs"):
        assert format_value("member", True) == ["Ano"]
        assert format_value("member", False) == ["Ne"]
        assert format_value("fee_received", None) == ["–"]
        assert format_value("role", "captain") == ["Kapitán družstva"]
        assert format_value("roster", ["Novák Jan (1)", "Šimek Petr (2)"]) == [
            "Novák Jan (1)",
            "Šimek Petr (2)",
        ]
        assert format_value("numbers", {"Alfa": 1}) == ["Alfa: 1"]
        date_text = format_value("form_received", "1999-03-05")[0]
        assert "1999" in date_text and "-" not in date_text
    with translation.override("en"):
        assert format_value("member", True) == ["Yes"]
        assert format_value("role", "captain") == ["Team captain"]


def test_diff_rows_have_readable_names_and_mark_changes() -> None:
    with translation.override("cs"):
        rows = diff_rows({"name": "Novák Jan", "club": "BK"}, {"name": "Novák Jan", "club": "X"})
        assert [(r.label, r.before, r.after, r.changed) for r in rows] == [
            ("Jméno / název", ["Novák Jan"], ["Novák Jan"], False),
            ("Klub", ["BK"], ["X"], True),
        ]
        created = diff_rows(None, {"odd_key": 1})
        assert [(r.label, r.before, r.after) for r in created] == [("odd_key", ["–"], ["1"])]


def test_actions_match_their_readable_names() -> None:
    with translation.override("cs"):
        assert actions_matching("role") == ["bridgeko.role.assigned", "bridgeko.role.revoked"]
        assert "bridgeko.player.changed" in actions_matching("HRACE")
    with translation.override("en"):
        assert "bridgeko.team.pairs_declared" in actions_matching("pairs")


@pytest.mark.django_db
def test_log_page_shows_names_a_table_and_real_json(world: Any) -> None:
    user = world.users["organiser"]
    player = players.create_player(
        data={"name": "Šimek Petr", "club": "BK Ústí", "member": True},
        user=user,
        edition=world.edition,
    )
    players.update_player(
        player=player,
        data={"name": "Šimek Petr", "club": "BK Praha", "member": False},
        user=user,
        edition=world.edition,
    )
    page = world.client("organiser", "cs").get(reverse("audit:log"), {"action": "bridgeko.player"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Změna údajů hráče" in html and "Zápis hráče do registru" in html
    assert ">bridgeko.player.changed<" not in html  # the code only as a title
    changed = page.context["rows"][0]
    assert changed.action == "Změna údajů hráče"
    club = next(d for d in changed.diff if d.key == "club")
    assert (club.label, club.before, club.after, club.changed) == (
        "Klub",
        ["BK Ústí"],
        ["BK Praha"],
        True,
    )
    member = next(d for d in changed.diff if d.key == "member")
    assert (member.before, member.after) == (["Ano"], ["Ne"])
    raws = re.findall(r'<pre class="audit-json">(.*?)</pre>', html, re.S)
    data = json.loads(unescape(raws[0]))
    assert data["before"]["club"] == "BK Ústí" and data["after"]["club"] == "BK Praha"
    assert "BK Ústí" in unescape(raws[0])  # ensure_ascii=False: no \\u escapes
    assert "JSON" in html and "{&#x27;" not in html  # no Python repr


@pytest.mark.django_db
def test_log_filters_by_readable_name(world: Any) -> None:
    user = world.users["organiser"]
    with transaction.atomic():
        record(
            "bridgeko.role.assigned",
            user=user,
            edition=world.edition,
            after={"role": "td", "at": datetime(1999, 3, 5, 18, tzinfo=UTC).isoformat()},
        )
    players.create_player(data={"name": "Novák Jan"}, user=user, edition=world.edition)
    client = world.client("organiser", "cs")
    found = client.get(reverse("audit:log"), {"action": "přidělení"})
    assert [e.action for e in found.context["page"]] == ["bridgeko.role.assigned"]
    assert "Rozhodčí" in found.content.decode() or "rozhodčí" in found.content.decode()
    by_code = client.get(reverse("audit:log"), {"action": "bridgeko.player"})
    assert [e.action for e in by_code.context["page"]] == ["bridgeko.player.created"]
    english = world.client("organiser", "en").get(reverse("audit:log"), {"action": "role ass"})
    assert [e.action for e in english.context["page"]] == ["bridgeko.role.assigned"]


@pytest.mark.django_db
def test_a_long_value_is_folded_away(world: Any) -> None:
    with transaction.atomic():
        record(
            "bridgeko.team.changed",
            user=world.users["organiser"],
            edition=world.edition,
            after={"roster": [f"Hráč {k} ({k})" for k in range(12)]},
        )
    html = world.client("organiser", "cs").get(reverse("audit:log")).content.decode()
    assert "<summary>Zobrazit vše (12)</summary>" in html and "Hráč 11 (11)" in html
