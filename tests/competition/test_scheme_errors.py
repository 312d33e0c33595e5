"""An invalid playing scheme is refused with its exact message (R9.1, I1).

Each error branch of the scheme's reading (:func:`~bridgeko.competition.scheme.scheme_from_dict`)
and validation (the :class:`~bridgeko.competition.scheme.Scheme` constructor) is reached here by
one explicit example, so that its coverage does not depend on what the property-based test
``test_I1_a_mutated_scheme_file_is_refused_with_a_message`` happens to draw.
"""

from __future__ import annotations

from typing import Any

import pytest

from bridgeko.competition import scheme as scheme_module
from bridgeko.competition.scheme import (
    MatchSpec,
    Number,
    Scheme,
    SchemeError,
    Winner,
    scheme_from_dict,
)
from bridgeko.competition.stage import Stage


def _m(mid: str, rnd: Any, stage: str, home: Any, away: Any) -> dict[str, Any]:
    return {"id": mid, "round": rnd, "stage": stage, "home": home, "away": away}


SF = [_m("SF1", 1, "semifinal", 1, 4), _m("SF2", 1, "semifinal", 2, 3)]
F = _m("F", 2, "final", "winner of SF1", "winner of SF2")


def test_R9_1_the_base_scheme_is_valid() -> None:
    """The four-team scheme the examples below change is valid as written: each error comes
    from the change alone."""
    scheme = scheme_from_dict({"size": 4, "matches": [*SF, F], "places": {"1": "winner of F"}})
    assert [m.id for m in scheme] == ["SF1", "SF2", "F"]


@pytest.mark.parametrize(
    ("data", "template", "message"),
    [
        pytest.param(
            [],
            scheme_module.NOT_A_SCHEME,
            "a scheme must be a table/object with 'size' and 'matches'",
            id="list-not-a-table",
        ),
        pytest.param(
            "size = 4",
            scheme_module.NOT_A_SCHEME,
            "a scheme must be a table/object with 'size' and 'matches'",
            id="text-not-a-table",
        ),
        pytest.param(
            {"size": 1, "matches": SF},
            scheme_module.SIZE_TOO_SMALL,
            "the scheme size must be a whole number of at least 2, not 1",
            id="size-one",
        ),
        pytest.param(
            {"size": 4, "matches": [_m("SF1", 0, "semifinal", 1, 4), SF[1]]},
            scheme_module.ROUND_NOT_WHOLE,
            "match SF1: the round must be a whole number >= 1, not 0",
            id="round-zero",
        ),
        pytest.param(
            {"size": 4, "matches": [*SF, _m("F", "2", "final", "winner of SF1", "winner of SF2")]},
            scheme_module.ROUND_NOT_A_NUMBER,
            "match F: 'round' must be a whole number, not '2'",
            id="round-is-a-text",
        ),
        pytest.param(
            {"size": 4, "matches": [*SF, _m("F", True, "final", "winner of SF1", "winner of SF2")]},
            scheme_module.ROUND_NOT_A_NUMBER,
            "match F: 'round' must be a whole number, not True",
            id="round-is-a-bool",
        ),
        pytest.param(
            {"size": 4, "matches": [*SF, _m("F", 2.0, "final", "winner of SF1", "winner of SF2")]},
            scheme_module.ROUND_NOT_A_NUMBER,
            "match F: 'round' must be a whole number, not 2.0",
            id="round-is-a-fraction",
        ),
        pytest.param(
            {"size": 4, "matches": [*SF, _m("F", 2, "final", 1, "winner of SF1")]},
            scheme_module.REF_PLACED_TWICE,
            "match F: 'number 1' is already placed in match SF1",
            id="number-placed-in-two-rounds",
        ),
        pytest.param(
            {"size": 4, "matches": [*SF, F, _m("X", 3, "final", "winner of SF1", "winner of F")]},
            scheme_module.REF_PLACED_TWICE,
            "match X: 'winner of SF1' is already placed in match F",
            id="winner-placed-in-two-rounds",
        ),
        pytest.param(
            {"size": 4, "matches": [*SF, F], "places": {"0": "winner of F"}},
            scheme_module.PLACE_NOT_WHOLE,
            "place 0 must be a whole number >= 1",
            id="place-zero",
        ),
        pytest.param(
            {"size": 4, "matches": [*SF, F], "places": {"1": 3}},
            scheme_module.PLACE_NOT_A_RESULT,
            "place 1: 'number 3' must be the winner or loser of a match",
            id="place-is-a-number",
        ),
        pytest.param(
            {"size": 4, "matches": [*SF, F], "places": {"1": "winner of X"}},
            scheme_module.PLACE_NOT_A_RESULT,
            "place 1: 'winner of X' must be the winner or loser of a match",
            id="place-of-an-unknown-match",
        ),
    ],
)
def test_R9_1_invalid_scheme_file_is_refused_with_its_message(
    data: Any, template: str, message: str
) -> None:
    """A scheme read from plain data (the organiser's annex as JSON/TOML) that is not a table,
    has a size below 2, a round that is not a whole number >= 1, a reference placed in two
    matches of different rounds, or a place that is not >= 1 or not a match result is refused:
    SchemeError gives the message, from its translatable template."""
    with pytest.raises(SchemeError) as info:
        scheme_from_dict(data)
    assert str(info.value) == message
    assert info.value.detail.template == template


def _spec(mid: Any, stage: Any = Stage.SEMIFINAL, rnd: Any = 1) -> MatchSpec:
    return MatchSpec(mid, rnd, stage, Number(1), Number(2))


@pytest.mark.parametrize(
    ("size", "matches", "template", "message"),
    [
        pytest.param(
            True,
            (_spec("F"),),
            scheme_module.SIZE_TOO_SMALL,
            "the scheme size must be a whole number of at least 2, not True",
            id="size-is-a-bool",
        ),
        pytest.param(
            4,
            (),
            scheme_module.NO_MATCHES,
            "the scheme has no matches",
            id="no-matches",
        ),
        pytest.param(
            2,
            (_spec(""),),
            scheme_module.MATCH_WITHOUT_ID,
            "a match needs a non-empty id, not ''",
            id="empty-id",
        ),
        pytest.param(
            2,
            (_spec("  "),),
            scheme_module.MATCH_WITHOUT_ID,
            "a match needs a non-empty id, not '  '",
            id="blank-id",
        ),
        pytest.param(
            2,
            (_spec(None),),
            scheme_module.MATCH_WITHOUT_ID,
            "a match needs a non-empty id, not None",
            id="id-is-none",
        ),
        pytest.param(
            2,
            (_spec("F", rnd=True),),
            scheme_module.ROUND_NOT_WHOLE,
            "match F: the round must be a whole number >= 1, not True",
            id="round-is-a-bool",
        ),
        pytest.param(
            2,
            (_spec("F", stage="final"),),
            scheme_module.STAGE_UNKNOWN,
            "match F: unknown stage 'final'",
            id="stage-is-a-text",
        ),
    ],
)
def test_R9_1_scheme_built_in_code_is_validated_with_its_message(
    size: Any, matches: tuple[MatchSpec, ...], template: str, message: str
) -> None:
    """The Scheme constructor validates what no file can give it (scheme_from_dict refuses
    those first): a bool size, no matches at all, a match without an id, a bool round, a stage
    that is not a Stage."""
    with pytest.raises(SchemeError) as info:
        Scheme(size, matches)
    assert str(info.value) == message
    assert info.value.detail.template == template


def test_R9_1_a_scheme_built_in_code_with_valid_parts_is_accepted() -> None:
    """The counterpart of the examples above: the same two-team scheme with an id, a Stage and
    a whole round is valid, and its place refers to its result."""
    scheme = Scheme(2, (_spec("F", stage=Stage.FINAL),), ((1, Winner("F")),))
    assert scheme.match("F").round_name == "final"
