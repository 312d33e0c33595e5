"""The chances to win the event (issue 22) against real results nobody here made up: knockouts
of four teams built from the held-out records (``tests/data/imps/matches.csv``, the events of
2013-2018; source and licence in its README).

Those events are round robins, so any two of their teams met: four teams ``a, b, c, d`` of one
event make a real knockout — semifinals ``a v b`` and ``c v d`` and a final between their
winners, each match the teams' own real match. Partway through the semifinals (the chance of
each from its score and boards left, no Elo: the records have none; the final even) the engine
gives each team its chance to win the event; the real results say who did."""

from __future__ import annotations

import csv
import random
from collections import defaultdict
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from bridgeko.competition.chances import DEFAULT, ChanceParams, chance_to_win
from bridgeko.competition.event_chances import MatchChance, event_chances
from bridgeko.competition.scheme import MatchSpec, standard_scheme
from tests.competition.calibration import assert_calibrated

RECORDS = Path(__file__).resolve().parents[2] / "tests" / "data" / "imps" / "matches.csv"
HELD_OUT_FROM = 2013
SHUFFLES = 5
"""Partitions of each event's teams into fours (seeded by the event's name)."""

Matches = dict[frozenset[int], tuple[int, tuple[int, ...]]]


@cache
def events() -> dict[str, Matches]:
    """Event -> {the two teams: (the first team, its IMPs board by board)} (held out only)."""
    out: dict[str, Matches] = defaultdict(dict)
    with RECORDS.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            if int(row["event"][:4]) < HELD_OUT_FROM:
                continue
            pair = frozenset((int(row["team"]), int(row["opponents"])))
            imps = tuple(int(x) for x in row["imps"].split())
            out[row["event"]].setdefault(pair, (int(row["team"]), imps))
    return dict(out)


def imps(matches: Matches, team: int, opponents: int) -> tuple[int, ...]:
    first, board_imps = matches[frozenset((team, opponents))]
    return board_imps if first == team else tuple(-x for x in board_imps)


POINTS = {"half": lambda n: n // 2, "4 boards left": lambda n: n - 4}


def _chance(
    matches: Matches,
    team_of: dict[int, int],
    k: int,
    params: ChanceParams,
    semis: list[MatchSpec],
) -> MatchChance:
    """A semifinal's chance after its first ``k`` boards (no Elo); the final's: even."""

    def chance(match: str, home: int, away: int) -> float:
        if match in (semis[0].id, semis[1].id):
            played = imps(matches, team_of[home], team_of[away])
            return chance_to_win(sum(played[:k]), k, len(played) - k, None, None, params)
        return 0.5  # the final, not begun, between teams of unknown Elo

    return chance


@cache
def predictions(point: str) -> list[tuple[float, float]]:
    """(chance to win the event, 1 if the team did) of each team of each knockout."""
    scheme = standard_scheme(4)
    semis = [m for m in scheme.matches if m.round == 1]
    out: list[tuple[float, float]] = []
    for event, matches in sorted(events().items()):
        rng = random.Random(event)
        teams = sorted({t for pair in matches for t in pair})
        for _shuffle in range(SHUFFLES):
            order = teams[:]
            rng.shuffle(order)
            for i in range(0, len(order) - 3, 4):
                a, b, c, d = order[i : i + 4]
                pairs = [(a, b), (c, d), (a, c), (a, d), (b, c), (b, d)]
                if not all(frozenset(p) in matches for p in pairs):
                    continue
                team_of = {
                    semis[0].home.number: a,  # type: ignore[union-attr]
                    semis[0].away.number: b,  # type: ignore[union-attr]
                    semis[1].home.number: c,  # type: ignore[union-attr]
                    semis[1].away.number: d,  # type: ignore[union-attr]
                }
                first, second = sum(imps(matches, a, b)), sum(imps(matches, c, d))
                if first == 0 or second == 0:
                    continue  # a tie: the records have no extra segment to decide it
                finalists = (a if first > 0 else b, c if second > 0 else d)
                final = sum(imps(matches, *finalists))
                if final == 0:
                    continue
                champion = finalists[0] if final > 0 else finalists[1]
                boards = len(imps(matches, a, b))
                params = replace(DEFAULT, reference_boards=boards)
                k = POINTS[point](boards)

                odds = event_chances(
                    scheme, {}, teams=4, chance=_chance(matches, team_of, k, params, semis)
                )
                assert sum(odds.win.values()) == pytest.approx(1.0)
                for number, team in team_of.items():
                    out.append((odds.win.get(number, 0.0), 1.0 if team == champion else 0.0))
    return out


@pytest.mark.parametrize("point", list(POINTS))
def test_event_chances_calibrated_on_knockouts_built_from_held_out_records(point: str) -> None:
    """In every tenth of [0, 1] with 30 predictions or more, the share of teams that won the
    event is within 3.5 binomial standard errors of the mean chance given, the size-weighted
    mean gap is under 0.04, and the Brier score beats the 0.1875 of giving every team of four
    a quarter."""
    found = predictions(point)
    assert len(found) >= 1000  # 274 knockouts of 4 teams
    assert_calibrated(found, label=point, brier_below=0.1875, gap_below=0.04)
