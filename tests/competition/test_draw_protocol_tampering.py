"""A tampered or malformed draw protocol is caught with its exact message (I8).

Each error branch of :mod:`bridgeko.competition.draw_protocol` is reached here by one explicit
change to a protocol the engine wrote, so that its coverage does not depend on what the
property-based tests (``test_I8_verify_never_crashes_on_a_mutated_protocol``) happen to draw.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from bridgeko.competition.draw import (
    METHOD_HMAC,
    METHOD_MANUAL,
    ProtocolError,
    commitment,
    hold_draw,
    manual_draw,
    protocol_json,
)
from bridgeko.competition.draw_protocol import (
    V_DRAWN_ORDER,
    V_LISTED_TWICE,
    V_SEED_NOT_HEX,
    V_SEEDED_NOT_RECOMPUTED,
    V_SEEDED_WRONG,
    V_SEVERAL_NUMBERS,
    V_SIZE_NOT_RECOMPUTED,
    verify_protocol,
)

WHEN = datetime(1999, 3, 12, 18, 0, tzinfo=timezone(timedelta(hours=1)))
SEED = bytes(range(32))
ELOS = [537, 574, 611, 648, 685, 522, 559, 596, 633, 670, 507, 544]
DRAWN = ["T12", "T01", "T07", "T03", "T11", "T02", "T06", "T08"]
"""The unseeded teams of :data:`ELOS` in the order a manual draw took them."""


@dataclass(frozen=True)
class Team:
    id: str
    name: str
    elo: int


TEAMS = [Team(f"T{k:02d}", f"Team {k}", elo) for k, elo in enumerate(ELOS, start=1)]
# With this seed the numbering is 1 T05, 2 T10, 3 T04, 4 T09 (seeded), then the lot:
# 5 T11, 6 T03, 7 T02, 8 T12, 9 T08, 10 T07, 11 T06, 12 T01; a scheme for 16, 4 seeded.
_RANDOM = json.loads(
    protocol_json(hold_draw(TEAMS, SEED, commitment=commitment(SEED), place="P", drawn_at=WHEN))
)
_MANUAL = json.loads(protocol_json(manual_draw(TEAMS, DRAWN, drawn_at=WHEN, place="P")))


def _protocol(method: str) -> dict[str, Any]:
    """A fresh copy of an untouched protocol of the engine (random or manual draw)."""
    doc: dict[str, Any] = copy.deepcopy(_RANDOM if method == METHOD_HMAC else _MANUAL)
    return doc


def test_I8_the_untouched_protocols_verify() -> None:
    """The protocols the tests below change are valid as written: every problem they report
    comes from the change alone."""
    for method in (METHOD_HMAC, METHOD_MANUAL):
        report = verify_protocol(_protocol(method))
        assert report.ok and report.problems == (), method


def _set(path: tuple[str | int, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    """A change that puts ``value`` at ``path`` (keys and list indexes) of the protocol."""

    def change(doc: dict[str, Any]) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param(
            _set(("method",), True),
            "'method' must be the method of the draw, not True",
            id="method-is-a-bool",
        ),
        pytest.param(
            _set(("scheme_size",), True),
            "'scheme_size' must be a whole number, not True",
            id="scheme-size-is-a-bool",
        ),
        pytest.param(
            _set(("seeded",), False),
            "'seeded' must be a whole number, not False",
            id="seeded-is-a-bool",
        ),
        pytest.param(
            _set(("method",), "coin toss"),
            "unknown method of the draw 'coin toss'",
            id="unknown-method",
        ),
        pytest.param(
            _set(("teams", 0), "T01"),
            "team #1 in 'teams' must be an object with id, name and elo",
            id="team-is-a-text",
        ),
        pytest.param(
            _set(("teams", 2), ["T03", "Team 3", 611]),
            "team #3 in 'teams' must be an object with id, name and elo",
            id="team-is-a-list",
        ),
        pytest.param(
            _set(("teams", 0, "name"), 5),
            "team 'T01' in 'teams' needs a text name and a whole-number elo",
            id="name-is-a-number",
        ),
        pytest.param(
            _set(("teams", 0, "elo"), True),
            "team 'T01' in 'teams' needs a text name and a whole-number elo",
            id="elo-is-a-bool",
        ),
        pytest.param(
            _set(("teams", 0, "elo"), "537"),
            "team 'T01' in 'teams' needs a text name and a whole-number elo",
            id="elo-is-a-text",
        ),
        pytest.param(
            _set(("teams", 0, "elo"), 537.5),
            "team 'T01' in 'teams' needs a text name and a whole-number elo",
            id="elo-is-a-fraction",
        ),
        pytest.param(
            _set(("byes", 0), 1),
            "'byes' must be a list of objects with number and team",
            id="bye-is-a-number",
        ),
        pytest.param(
            _set(("byes", 0, "number"), True),
            "'byes' must be a list of objects with number and team",
            id="bye-number-is-a-bool",
        ),
        pytest.param(
            _set(("byes", 0, "number"), "1"),
            "'byes' must be a list of objects with number and team",
            id="bye-number-is-a-text",
        ),
        pytest.param(
            _set(("byes", 0, "number"), None),
            "'byes' must be a list of objects with number and team",
            id="bye-without-number",
        ),
    ],
)
def test_I8_unreadable_field_of_the_protocol_raises_with_its_message(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    """A protocol whose field has the wrong type (a bool where a number or text is needed, a
    team or bye that is not an object, a non-text name, a non-whole Elo or bye number) or an
    unknown method cannot be read: ProtocolError names the field."""
    doc = _protocol(METHOD_HMAC)
    change(doc)
    with pytest.raises(ProtocolError) as info:
        verify_protocol(doc)
    assert str(info.value) == message


def _listed_twice(doc: dict[str, Any]) -> None:
    doc["teams"].append(dict(doc["teams"][0]))


def _two_numbers(doc: dict[str, Any]) -> None:
    doc["numbering"]["12"] = doc["numbering"]["1"]  # T05 takes T01's number as well


def _bad_sizes(doc: dict[str, Any]) -> None:
    doc["rules"]["scheme_sizes"] = [12]


def _minimum_above_the_field(doc: dict[str, Any]) -> None:
    doc["rules"]["min_teams"] = 13


def _divisor_zero(doc: dict[str, Any]) -> None:
    doc["rules"]["seeded_divisor"] = 0


def _seeded_three(doc: dict[str, Any]) -> None:
    doc["seeded"] = 3


def _seed_not_hex(doc: dict[str, Any]) -> None:
    doc["seed"] = "not a hexadecimal seed"


def _stranger_drawn(doc: dict[str, Any]) -> None:
    doc["lot_order"] = [*DRAWN, "T99"]


def _team_not_drawn(doc: dict[str, Any]) -> None:
    doc["lot_order"] = DRAWN[:-1]  # T08 left out


@pytest.mark.parametrize(
    ("method", "change", "template", "problems"),
    [
        pytest.param(
            METHOD_HMAC,
            _listed_twice,
            V_LISTED_TWICE,
            ("team 'T01' is listed twice in the inputs",),
            id="team-listed-twice",
        ),
        pytest.param(
            METHOD_HMAC,
            _two_numbers,
            V_SEVERAL_NUMBERS,
            (
                "team 'T01' (Team 1, Elo 537) has no number",
                "team 'T05' (Team 5, Elo 685) has 2 numbers: 1, 12",
                "unseeded number 12: team 'T05' (Team 5, Elo 685) has a higher Elo than a "
                "seeded team (the lowest seeded Elo is 633) (R11.1)",
                "number 12: the protocol gives 'T05' (Team 5, Elo 685), the draw gives 'T01' "
                "(Team 1, Elo 537)",
            ),
            id="team-with-two-numbers",
        ),
        pytest.param(
            METHOD_HMAC,
            _bad_sizes,
            V_SIZE_NOT_RECOMPUTED,
            (
                "the scheme size cannot be recomputed: a scheme size must be a power of two, "
                "not 12 (R9.1)",
            ),
            id="scheme-size-not-a-power-of-two",
        ),
        pytest.param(
            METHOD_HMAC,
            _minimum_above_the_field,
            V_SIZE_NOT_RECOMPUTED,
            (
                "the scheme size cannot be recomputed: 12 teams entered, fewer than the minimum "
                "of 13: the competition is cancelled (R8.1)",
            ),
            id="fewer-teams-than-the-minimum",
        ),
        pytest.param(
            METHOD_HMAC,
            _divisor_zero,
            V_SEEDED_NOT_RECOMPUTED,
            (
                "the seeded count cannot be recomputed: the seeded divisor must be a whole "
                "number >= 1, not 0",
            ),
            id="seeded-divisor-zero",
        ),
        pytest.param(
            METHOD_HMAC,
            _seeded_three,
            V_SEEDED_WRONG,
            ("the seeded count is recorded as 3; it should be 4 (R11.1)",),
            id="seeded-count-wrong",
        ),
        pytest.param(
            METHOD_HMAC,
            _seed_not_hex,
            V_SEED_NOT_HEX,
            ("the revealed seed is not a hexadecimal text",),
            id="seed-not-hex",
        ),
        pytest.param(
            METHOD_MANUAL,
            _stranger_drawn,
            V_DRAWN_ORDER,
            (
                "the drawn order does not fit: the drawn order names 'T99', which is not an "
                "entered team",
            ),
            id="manual-lot-names-a-stranger",
        ),
        pytest.param(
            METHOD_MANUAL,
            _team_not_drawn,
            V_DRAWN_ORDER,
            (
                "the drawn order does not fit: team 'T08' (Team 8) is not seeded and must be in "
                "the drawn order (R11.3)",
            ),
            id="manual-lot-misses-a-team",
        ),
    ],
)
def test_I8_verify_names_each_tampering_exactly(
    method: str,
    change: Callable[[dict[str, Any]], None],
    template: str,
    problems: tuple[str, ...],
) -> None:
    """One change to a valid protocol (a team listed twice, a team holding two numbers, draw
    rules from which the scheme size (R9.2) or the seeded count (R11.1) cannot be recomputed, a
    wrong seeded count, a seed that is not hex, a manual lot that does not fit the teams) gives
    exactly these problems, the expected template among their messages, and a failed report."""
    doc = _protocol(method)
    change(doc)
    report = verify_protocol(doc)
    assert not report.ok
    assert report.method == method
    assert report.problems == problems
    assert template in [m.template for m in report.details]
    kind = "random draw" if method == METHOD_HMAC else "manual draw"
    assert report.summary == f"{len(problems)} problem(s) in the {kind} protocol of the draw"
