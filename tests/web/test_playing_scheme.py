"""Nothing assumes today's format (issue 10 item 12): an edition with its own playing scheme
(R9.1's annex) — double elimination up to the semifinals — and a 64-board final in 8-board
segments is played through the same services: the matches follow the scheme's winner/loser
references, the segments come from the regulations."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.draw import services as draw_services
from bridgeko.editions.services import create_edition
from bridgeko.entries import services as entry_services
from bridgeko.matches import services
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.web.conftest import World
from tests.web.test_draw import DRAW_AT, SEED
from tests.web.test_entries import NOW, enter_team, make_players
from tests.web.test_matches import PLAY

DOUBLE_ELIMINATION = {
    "name": "Double elimination up to the semifinals",
    "size": 8,
    "matches": [
        {"id": "W1", "round": 1, "stage": "preliminary", "home": 1, "away": 8},
        {"id": "W2", "round": 1, "stage": "preliminary", "home": 4, "away": 5},
        {"id": "W3", "round": 1, "stage": "preliminary", "home": 2, "away": 7},
        {"id": "W4", "round": 1, "stage": "preliminary", "home": 3, "away": 6},
        {
            "id": "W5",
            "round": 2,
            "stage": "preliminary",
            "home": "winner of W1",
            "away": "winner of W2",
        },
        {
            "id": "W6",
            "round": 2,
            "stage": "preliminary",
            "home": "winner of W3",
            "away": "winner of W4",
        },
        {
            "id": "L1",
            "round": 2,
            "stage": "preliminary",
            "home": "loser of W1",
            "away": "loser of W2",
        },
        {
            "id": "L2",
            "round": 2,
            "stage": "preliminary",
            "home": "loser of W3",
            "away": "loser of W4",
        },
        {
            "id": "L3",
            "round": 3,
            "stage": "preliminary",
            "home": "loser of W5",
            "away": "winner of L2",
        },
        {
            "id": "L4",
            "round": 3,
            "stage": "preliminary",
            "home": "loser of W6",
            "away": "winner of L1",
        },
        {
            "id": "SF1",
            "round": 4,
            "stage": "semifinal",
            "home": "winner of W5",
            "away": "winner of L3",
        },
        {
            "id": "SF2",
            "round": 4,
            "stage": "semifinal",
            "home": "winner of W6",
            "away": "winner of L4",
        },
        {"id": "F", "round": 5, "stage": "final", "home": "winner of SF1", "away": "winner of SF2"},
        {
            "id": "3RD",
            "round": 5,
            "stage": "third_place",
            "home": "loser of SF1",
            "away": "loser of SF2",
        },
    ],
    "places": {"1": "winner of F", "2": "loser of F", "3": "winner of 3RD", "4": "loser of 3RD"},
}


@pytest.fixture
def double(world: World, toml_1999: str) -> Any:
    text = toml_1999.replace("final_boards = 48", "final_boards = 64").replace(
        "segment_boards = 16", "segment_boards = 8"
    )
    organiser = world.users["organiser"]
    edition = create_edition(slug="double", toml_text=text, user=organiser)
    for k in range(8):
        enter_team(
            edition, f"D{k}", make_players(4, elo=[800 - 10 * k] * 4, start=100 + 4 * k), organiser
        )
    entry_services.close_entries(edition=edition, user=organiser, now=NOW)
    draw_services.set_scheme(
        edition=edition, text=json.dumps(DOUBLE_ELIMINATION), user=organiser, now=NOW
    )
    draw_services.announce_draw(edition=edition, place="Praha", at=DRAW_AT, user=organiser, now=NOW)
    draw_services.publish_commitment(edition=edition, user=organiser, now=NOW, seed=SEED)
    draw_services.hold_draw(edition=edition, user=organiser, now=DRAW_AT)
    return edition


def _win_home(match: Match, world: World) -> None:
    for seg in Segment.objects.filter(match=match).order_by("number"):
        services.set_segment_totals(
            segment=seg,
            home_imps=20 if seg.number == 1 else 0,
            visitors_imps=0,
            user=world.users["organiser"],
            now=PLAY,
        )


def test_double_elimination_and_a_64_board_final_in_8_board_segments(
    world: World, double: Any
) -> None:
    matches = {m.code: m for m in Match.objects.filter(edition=double)}
    assert list(matches) == [s["id"] for s in DOUBLE_ELIMINATION["matches"]]
    w1 = matches["W1"]
    assert [(s.first_board, s.last_board) for s in w1.segments.all()] == [
        (1, 8),
        (9, 16),
        (17, 24),
        (25, 32),
    ]
    for code in ("W1", "W2", "W3", "W4"):
        _win_home(Match.objects.get(edition=double, code=code), world)
    w1.refresh_from_db()
    l1 = Match.objects.get(edition=double, code="L1")
    assert l1.status == MatchStatus.TO_PLAY
    assert l1.home_id == w1.visitors_id  # the loser of W1 plays on in the losers' bracket
    order = ["W5", "W6", "L1", "L2", "L3", "L4", "SF1", "SF2", "F", "3RD"]
    for code in order:
        _win_home(Match.objects.get(edition=double, code=code), world)
    final = Match.objects.get(edition=double, code="F")
    assert final.status == MatchStatus.DECIDED
    assert final.segments.count() == 8  # 64 boards in 8-board segments
    assert final.segments.last().last_board == 64
    assert final.home_id == Match.objects.get(edition=double, code="SF1").home_id


def test_R9_1_scheme_refused_when_bad_or_after_the_draw(world: World, double: Any) -> None:
    organiser = world.users["organiser"]
    with pytest.raises(ServiceError):
        draw_services.set_scheme(edition=double, text="{}", user=organiser, now=NOW)
    edition = create_edition(slug="other", toml_text=double.regulations_toml, user=organiser)
    with pytest.raises(ServiceError) as bad:
        draw_services.set_scheme(edition=edition, text="[[match]\nid=", user=organiser, now=NOW)
    assert bad.value.field == "scheme"
    bad_ref = dict(
        DOUBLE_ELIMINATION, matches=[{**DOUBLE_ELIMINATION["matches"][0], "home": "winner of X"}]
    )
    with pytest.raises(ServiceError):
        draw_services.set_scheme(edition=edition, text=json.dumps(bad_ref), user=organiser, now=NOW)
    assert AuditEntry.objects.filter(action="bridgeko.draw.scheme_set").count() == 1


def test_scheme_form_on_the_draw_page(world: World) -> None:
    client = world.client("organiser")
    url = reverse("draw:scheme", kwargs={"edition": world.edition.slug})
    page = client.post(url, {"scheme": "not a scheme"})
    assert page.status_code == 200 and "neither JSON nor TOML" in page.content.decode()
    ok = client.post(url, {"scheme": json.dumps(DOUBLE_ELIMINATION)})
    assert ok.status_code == 302
    shown = client.get(reverse("draw:manage", kwargs={"edition": world.edition.slug}))
    assert "Double elimination up to the semifinals" in shown.content.decode()
    assert world.client("td").post(url, {"scheme": ""}).status_code == 403
