"""A quarterfinal with a computer-dealt set (R12.7) for the hand-record and secrecy tests: the
seed committed and stored, the deals stored, their double-dummy tables and pars filled (through
:mod:`bridgeko.boards.handrecords`' JSON functions, the shape the background analysis writes),
some results entered in the open room only. The segment has NOT ended (I15) until
:func:`end_segment`.

Home is the ``captain``'s team of the world, the visitors a team whose captain is
``captain2``; ``chief_td`` holds the chief TD's role."""

from __future__ import annotations

import functools
import html
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.boards.handrecords import dd_to_json, holding_text, par_to_json
from bridgeko.boards.models import BoardDeal, DealSet, SetSource
from bridgeko.bridge import board as board_rules
from bridgeko.bridge.analysis import dd_tables, par_of_table
from bridgeko.bridge.cards import Deal, Seat, Suit
from bridgeko.bridge.commit_reveal import commitment
from bridgeko.bridge.dealing import deal_set
from bridgeko.entries.models import Team
from bridgeko.matches import services
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.web.conftest import CAPTAIN_TEAM_ID, World, make_user

SEED = bytes.fromhex(
    "692c1eeea705ff417ad57e242cd560dc9ec88ecedffef21dbb42b42650690a86"
)  # 32 bytes; its hex has letters, so its case matters
EVENT = "Bridge Open K.O. 1999"
SESSION = "QF1-1"
BOARDS = 16
NOW = datetime(1999, 5, 8, 12, 0, tzinfo=UTC)
OPEN_RESULTS = {1: "4S N =", 2: "3NT E -1", 3: "P", 4: "2HX W +1"}
"""Results entered in the open room only (the closed room still plays)."""


@functools.cache
def _deals() -> dict[int, Deal]:
    return deal_set(SEED, EVENT, SESSION, range(1, BOARDS + 1))


@functools.cache
def _analysis() -> dict[int, tuple[dict[str, Any], dict[str, Any]]]:
    deals = _deals()
    tables = dd_tables([deals[n] for n in sorted(deals)])
    out = {}
    for n, table in zip(sorted(deals), tables, strict=True):
        par = par_of_table(table, board_rules.dealer(n), board_rules.vulnerability(n))
        out[n] = (dd_to_json(table), par_to_json(par))
    return out


@dataclass
class HandWorld:
    world: World
    match: Match
    segment: Segment
    deal_set: DealSet
    deals: dict[int, Deal] = field(default_factory=dict)

    @property
    def edition(self) -> Any:
        return self.world.edition

    def client(self, who: str, language: str = "en") -> Any:
        return self.world.client(who, language)


def make(world: World, *, analysed: int = BOARDS) -> HandWorld:
    """The quarterfinal QF1 of the world edition with its secret set (see the module)."""
    edition = world.edition
    visitors = Team.objects.create(
        edition=edition,
        name="Hosté QF",
        created_at=datetime(1999, 2, 1, 10, tzinfo=UTC),
        late_entry=True,
    )
    for name, role, team in (
        ("captain2", Role.CAPTAIN, visitors.pk),
        ("chief_td", Role.CHIEF_TD, None),
    ):
        if name not in world.users:
            world.users[name] = make_user(name)
        RoleAssignment.objects.create(
            user=world.users[name], edition=edition, role=role, team_id=team
        )
    match = Match.objects.create(
        edition=edition,
        code="QF1",
        position=50,
        round=3,
        stage="quarterfinal",
        home_id=CAPTAIN_TEAM_ID,
        visitors=visitors,
        status=MatchStatus.TO_PLAY,
        updated_at=NOW - timedelta(days=1),
    )
    segment = Segment.objects.create(match=match, number=1, first_board=1, last_board=BOARDS)
    Segment.objects.create(match=match, number=2, first_board=BOARDS + 1, last_board=2 * BOARDS)
    dset = DealSet.objects.create(
        segment=segment,
        source=SetSource.DEALT,
        seed=SEED.hex(),
        commitment=commitment(SEED),
        event=EVENT,
        session=SESSION,
        committed_at=NOW - timedelta(days=2),
        made_at=NOW - timedelta(days=2),
        made_by=world.users["organiser"],
        analysis_started_at=NOW - timedelta(days=2),
        analysis_finished_at=NOW - timedelta(days=2) if analysed >= BOARDS else None,
    )
    deals = _deals()
    analysis = _analysis()
    BoardDeal.objects.bulk_create(
        BoardDeal(
            deal_set=dset,
            board=n,
            deal=deals[n].to_pbn(),
            dd=analysis[n][0] if n <= analysed else None,
            par=analysis[n][1] if n <= analysed else None,
        )
        for n in sorted(deals)
    )
    for board, text in OPEN_RESULTS.items():
        services.save_board(
            match=match,
            board=board,
            room="open",
            text=text,
            version=0,
            user=world.users["td"],
            now=NOW - timedelta(hours=1),
        )
    match.refresh_from_db()
    return HandWorld(world, match, segment, dset, dict(deals))


def enter_closed_room(hw: HandWorld, results: dict[int, str]) -> None:
    for board, text in results.items():
        services.save_board(
            match=hw.match,
            board=board,
            room="closed",
            text=text,
            version=0,
            user=hw.world.users["td"],
            now=NOW - timedelta(minutes=30),
        )


def end_segment(hw: HandWorld) -> None:
    """The TD records the end of the segment in both rooms (I15): the deals become public."""
    for room, minutes in (("open", 20), ("closed", 10)):
        services.mark_room_end(
            segment=hw.segment,
            room=room,
            at=NOW - timedelta(minutes=minutes),
            user=hw.world.users["td"],
            now=NOW,
        )
    hw.segment.refresh_from_db()
    hw.match.refresh_from_db()


# ---------------------------------------------------------------------------------------------
# What must not appear: the secrets in every form the pages, the JSON, the PDFs may write them


def secret_strings(hw: HandWorld) -> dict[str, str]:
    """Needle -> what it is. Matched against a response body as it is and against its text
    with tags removed, entities unescaped and all white space dropped (:func:`flatten`)."""
    needles: dict[str, str] = {}
    seed = hw.deal_set.seed
    needles[seed.lower()] = "the seed (hex)"
    needles[seed.upper()] = "the seed (HEX)"
    for n, deal in hw.deals.items():
        for first in Seat:
            pbn = deal.to_pbn(first)
            needles[pbn] = f"board {n}: the deal (PBN)"
            needles[pbn[2:]] = f"board {n}: the four hands (PBN)"
            needles[_squash(pbn[2:])] = f"board {n}: the four hands (PBN, no spaces)"
        for seat in Seat:
            hand = deal[seat]
            needles[hand.to_pbn()] = f"board {n}: {seat.name}'s hand (PBN)"
            shown_ten = "".join(s.symbol + holding_text(hand.holding(s)) for s in Suit)  # ♠AKQ10…♥…
            shown_t = "".join(
                s.symbol + ("".join(r.char for r in hand.holding(s)) or "—") for s in Suit
            )
            needles[shown_ten] = f"board {n}: {seat.name}'s hand as shown (♠AKQ10…)"
            needles[shown_t] = f"board {n}: {seat.name}'s hand as shown (♠AKQT…)"
            for suit in Suit:
                ranks = hand.holding(suit)
                if len(ranks) >= 3:  # shorter holdings are too common as text
                    needles[suit.symbol + holding_text(ranks)] = (
                        f"board {n}: {seat.name}'s {suit.name.lower()} as shown"
                    )
    return needles


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@functools.cache
def _squashed(needle: str) -> str:
    """A needle without white space (the same needles are searched in thousands of bodies)."""
    return _squash(needle)


_TAG = re.compile(r"<[^>]*>")


def flatten(body: str) -> str:
    """The text of an HTML (or any) body: tags removed, entities unescaped, no white space."""
    return _squash(html.unescape(_TAG.sub("", body)))


def leaks(body: str, needles: dict[str, str]) -> list[str]:
    """What of ``needles`` appears in ``body`` (as it is, or flattened, or JSON-escaped)."""
    flat = flatten(body)
    try:  # a JSON body that escapes ♠ as \u2660
        unescaped = json.dumps(json.loads(body), ensure_ascii=False)
    except ValueError:
        unescaped = ""
    found = []
    for needle, what in needles.items():
        squashed = _squashed(needle)
        if needle in body or squashed in flat or (unescaped and needle in unescaped):
            found.append(what)
    return sorted(set(found))
