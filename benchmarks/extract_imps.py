"""Re-extracts ``tests/data/imps/matches.csv``: the IMPs of every board of real team matches.

Run: ``.venv/bin/python benchmarks/extract_imps.py VALET_GIT_DIR [--out FILE]`` (the default
``FILE`` is ``tests/data/imps/matches.csv``).

``VALET_GIT_DIR`` is a git directory of https://github.com/valet-bridge/valet (Apache-2.0; the
commit used is in ``tests/data/imps/README.md``). Its ``data/*/scores*.txt`` files are board
results scraped from the official results of World and European team championships and two
national leagues, one line a table: ``round|board|N|E|S|W|contract|declarer|tricks|lead``, with
players as numbers. They say nothing of teams, so the teams are inferred:

* the two players of a side at a table are teammates;
* two-table matches: if the North-South pair of table 1 and the East-West pair of table 2 of a
  round are of the same team, the other two pairs are of one team too (repeated until nothing
  changes);
* a team in which two players ever faced each other is dropped (nothing is merged wrongly then).

Each board is then scored with the project's own scoring (:func:`bridgeko.bridge.scoring.score`,
the WBF IMP scale of :func:`~bridgeko.bridge.scoring.imps`, vulnerability by board number) and
the IMPs of the team listed first are written; only matches with every board of their round are
kept. The network and the mirror are not needed by the tests: they read the committed CSV.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

from bridgeko.bridge.board import vulnerability
from bridgeko.bridge.cards import Seat
from bridgeko.bridge.scoring import imps, score

EVENTS: tuple[str, ...] = (
    "data/2005-World/Men/scores.txt",
    "data/2005-World/Women/scores.txt",
    "data/2006-Euro/Men/scores.txt",
    "data/2006-Euro/Women/scores.txt",
    "data/2007-World/Men/scores.txt",
    "data/2007-World/Women/scores.txt",
    "data/2008-Euro/Men/scoresA.txt",
    "data/2008-Euro/Men/scoresB.txt",
    "data/2008-Euro/Women/scores.txt",
    "data/2008-Mind/Men/scoresA.txt",
    "data/2008-Mind/Men/scoresB.txt",
    "data/2008-Mind/Men/scoresC.txt",
    "data/2008-Mind/Men/scoresD.txt",
    "data/2008-Mind/Women/scoresE.txt",
    "data/2008-Mind/Women/scoresF.txt",
    "data/2008-Mind/Women/scoresG.txt",
    "data/2009-18 Bundesliga/scores1.txt",
    "data/2009-18 Bundesliga/scores2.txt",
    "data/2009-18 Bundesliga/scores3a.txt",
    "data/2009-18 Bundesliga/scores3b.txt",
    "data/2009-18 Bundesliga/scores3c.txt",
    "data/2009-World/Men/scores.txt",
    "data/2009-World/Women/scores.txt",
    "data/2010-Euro/Men/scoresA.txt",
    "data/2010-Euro/Men/scoresB.txt",
    "data/2010-Euro/Women/scores.txt",
    "data/2011-World/Men/scores.txt",
    "data/2011-World/Women/scores.txt",
    "data/2012-Euro/Women/scores.txt",
    "data/2012-Mind/Men/scoresA.txt",
    "data/2012-Mind/Men/scoresB.txt",
    "data/2012-Mind/Men/scoresC.txt",
    "data/2012-Mind/Men/scoresD.txt",
    "data/2012-Mind/Women/scoresE.txt",
    "data/2012-Mind/Women/scoresF.txt",
    "data/2012-Mind/Women/scoresG.txt",
    "data/2012-Polish-League/scores.txt",
    "data/2013-Polish-League/scores.txt",
    "data/2013-World/Men/scores.txt",
    "data/2013-World/Women/scores.txt",
    "data/2014-Euro/Men/scoresA.txt",
    "data/2014-Euro/Men/scoresB.txt",
    "data/2014-Euro/Women/scores.txt",
    "data/2014-Polish-League/scores.txt",
    "data/2015-Polish-League/scores.txt",
    "data/2015-World/Men/scores.txt",
    "data/2015-World/Women/scores.txt",
    "data/2018-Euro/Men/scores.txt",
    "data/2018-Euro/Seniors/scores.txt",
    "data/2018-Euro/Women/scores.txt",
)
"""The team events (round robins of two-table matches). Left out: the 2004 Olympiad and the 2012
European men (the teams cannot be inferred: no partnership ever changes), the Bundesliga's
all-seasons file (the seasons' files are in), the 2018 Open (pairs and board-a-match)."""

_SEATS = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}
_UNKNOWN_PLAYER = "999"

Table = tuple[str, str, str, str]  # N, E, S, W
Row = tuple[int, int, Table, str, str, int]  # round, board, table, contract, declarer, tricks


class _Teams:
    """Union-find over player numbers."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self._parent.setdefault(x, x)
        while self._parent[x] != x:
            self._parent[x] = self._parent[self._parent[x]]
            x = self._parent[x]
        return x

    def union(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self._parent[max(ra, rb)] = min(ra, rb)
        return True

    def members(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = defaultdict(set)
        for x in list(self._parent):
            out[self.find(x)].add(x)
        return out


def _rows(text: str) -> list[Row]:
    rows: list[Row] = []
    for line in text.splitlines():
        t = line.strip().split("|")
        if len(t) < 9 or _UNKNOWN_PLAYER in t[2:6]:
            continue
        try:
            rows.append((int(t[0]), int(t[1]), (t[2], t[3], t[4], t[5]), t[6], t[7], int(t[8])))
        except ValueError:
            continue
    return rows


def ns_score(board: int, contract: str, declarer: str, tricks: int) -> int:
    """North-South's score of a table result, by the project's scoring."""
    if contract.upper() in ("P", "PASS"):
        return 0
    seat = _SEATS[declarer.upper()]
    points = score(contract, tricks, vulnerability(board).is_vulnerable(seat))
    return points if seat in (Seat.NORTH, Seat.SOUTH) else -points


def _infer_teams(rows: list[Row]) -> tuple[_Teams, set[str]]:
    teams = _Teams()
    faced: set[tuple[str, str]] = set()
    tables: dict[int, set[Table]] = defaultdict(set)
    for rnd, _board, (n, e, s, w), *_ in rows:
        teams.union(n, s)
        teams.union(e, w)
        faced.update((x, y) for x in (n, s) for y in (e, w))
        tables[rnd].add((n, e, s, w))
    changed = True
    while changed:
        changed = False
        for round_tables in tables.values():
            for t1 in round_tables:
                for t2 in round_tables:
                    same = teams.find(t1[0]) == teams.find(t2[1])
                    if t1 != t2 and same and teams.find(t1[0]) != teams.find(t1[1]):
                        changed |= teams.union(t1[1], t2[0])
    bad = {
        root
        for root, members in teams.members().items()
        if any((x, y) in faced for x in members for y in members)
    }
    return teams, bad


def event_matches(text: str) -> list[tuple[int, int, int, list[int]]]:
    """``(round, team, team, IMPs of the first team board by board)`` of one event's scores."""
    rows = _rows(text)
    teams, bad = _infer_teams(rows)
    number = {root: i + 1 for i, root in enumerate(sorted(teams.members(), key=int))}
    by_board: dict[tuple[int, int], list[Row]] = defaultdict(list)
    for row in rows:
        by_board[(row[0], row[1])].append(row)
    boards: dict[tuple[int, str, str], dict[int, int]] = defaultdict(dict)
    for (rnd, board), results in by_board.items():
        for r1 in results:
            a, b = teams.find(r1[2][0]), teams.find(r1[2][1])
            if a in bad or b in bad or a == b or number[a] > number[b]:
                continue
            others = [
                r2 for r2 in results if teams.find(r2[2][0]) == b and teams.find(r2[2][1]) == a
            ]
            if len(others) != 1:
                continue
            r2 = others[0]
            diff = ns_score(board, *r1[3:]) - ns_score(board, *r2[3:])
            boards[(rnd, a, b)][board] = imps(diff)
    boards_in_round = {
        rnd: Counter(len(v) for (r, _a, _b), v in boards.items() if r == rnd).most_common(1)[0][0]
        for rnd in {k[0] for k in boards}
    }
    out: list[tuple[int, int, int, list[int]]] = []
    for (rnd, a, b), by_number in sorted(
        boards.items(), key=lambda kv: (kv[0][0], number[kv[0][1]], number[kv[0][2]])
    ):
        if len(by_number) == boards_in_round[rnd]:
            out.append((rnd, number[a], number[b], [by_number[k] for k in sorted(by_number)]))
    return out


def extract(git_dir: Path, events: Iterable[str] = EVENTS) -> list[list[str]]:
    table: list[list[str]] = []
    for path in events:
        text = subprocess.run(
            ["git", "--git-dir", str(git_dir), "show", f"HEAD:{path}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        name = path.removeprefix("data/").rsplit("/", 1)[0]
        part = path.rsplit("/", 1)[1].removeprefix("scores").removesuffix(".txt")
        event = f"{name}{'/' + part if part else ''}"
        for rnd, a, b, boards in event_matches(text):
            table.append([event, str(rnd), str(a), str(b), " ".join(map(str, boards))])
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--out", type=Path, default=Path("tests/data/imps/matches.csv"))
    args = parser.parse_args()
    table = extract(args.git_dir)
    with args.out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["event", "round", "team", "opponents", "imps"])
        writer.writerows(table)
    boards = sum(len(row[4].split()) for row in table)
    print(f"{len(table)} matches, {boards} boards -> {args.out}")


if __name__ == "__main__":
    main()
