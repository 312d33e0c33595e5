"""Reading and verifying a published draw protocol (I8).

A protocol is the JSON document :func:`bridgeko.competition.draw.hold_draw` or
:func:`~bridgeko.competition.draw.manual_draw` returns (``DrawResult.protocol``, as text
:func:`~bridgeko.competition.draw.protocol_json`). :func:`verify_protocol` reads it back and
recomputes the draw from its inputs only: the revealed seed against the commitment and the seed
rule (:mod:`bridgeko.bridge.commit_reveal`), the lot, the seeding by Elo (R11), the scheme size
(R9.2), the seeded count (R11.1) and the byes (R11.4). Every mismatch is listed in words, each as
a translatable :class:`~bridgeko.competition.messages.Message` (the ``V_*`` templates below).

A document that cannot be read at all raises
:class:`~bridgeko.competition.draw.ProtocolError`.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from bridgeko.bridge import commit_reveal
from bridgeko.competition.draw import (
    FORMAT,
    FORMAT_VERSION,
    METHOD_HMAC,
    METHOD_MANUAL,
    DrawEntry,
    DrawError,
    ProtocolError,
    TeamId,
    _canonical_entries,
    _manual_positions,
    _number,
    _Rules,
    byes,
    lot_order,
    scheme_size,
    seeded_count,
)
from bridgeko.competition.messages import N_, Message, Param

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "V_BYES_NUMBERS",
    "V_BYE_HOLDER",
    "V_CHECKED_MANUAL",
    "V_CHECKED_RANDOM",
    "V_COMMITTED_LATE",
    "V_DRAWN_ORDER",
    "V_LISTED_TWICE",
    "V_LOT_DIFFERS",
    "V_MANUAL_DRAW",
    "V_NOBODY",
    "V_NO_NUMBER",
    "V_NUMBER_DIFFERS",
    "V_NUMBER_OUTSIDE",
    "V_NUMBER_UNKNOWN_TEAM",
    "V_RANDOM_DRAW",
    "V_SEEDED_NOT_RECOMPUTED",
    "V_SEEDED_ORDER",
    "V_SEEDED_WRONG",
    "V_SEED_MISMATCH",
    "V_SEED_NOT_HEX",
    "V_SEED_NOT_RANDOM",
    "V_SEED_SHORT",
    "V_SEVERAL_NUMBERS",
    "V_SIZE_NOT_RECOMPUTED",
    "V_SIZE_WRONG",
    "V_SUMMARY_OK",
    "V_SUMMARY_OK_NO_EDITION",
    "V_SUMMARY_PROBLEMS",
    "V_SUMMARY_PROBLEMS_NO_EDITION",
    "V_TEAM_TEXT",
    "V_UNSEEDED_HIGHER",
    "VerifyReport",
    "verify_protocol",
]

# The problems of :func:`verify_protocol` (templates; VerifyReport.details holds them filled in).
V_TEAM_TEXT = N_("%(team)s (%(name)s, Elo %(elo)s)")
V_LISTED_TWICE = N_("team %(team)s is listed twice in the inputs")
V_NUMBER_UNKNOWN_TEAM = N_("number %(number)s is given to %(team)s, which is not among the teams")
V_NUMBER_OUTSIDE = N_(
    "number %(number)s is outside 1..%(n)s: with %(n)s teams the highest numbers of the scheme "
    "are missing (R11.4)"
)
V_NO_NUMBER = N_("team %(team)s has no number")
V_SEVERAL_NUMBERS = N_("team %(team)s has %(count)s numbers: %(numbers)s")
V_SIZE_NOT_RECOMPUTED = N_("the scheme size cannot be recomputed: %(error)s")
V_SIZE_WRONG = N_("the scheme size is recorded as %(recorded)s; %(n)s teams give %(size)s (R9.2)")
V_SEEDED_NOT_RECOMPUTED = N_("the seeded count cannot be recomputed: %(error)s")
V_SEEDED_WRONG = N_("the seeded count is recorded as %(recorded)s; it should be %(seeded)s (R11.1)")
V_SEED_NOT_HEX = N_("the revealed seed is not a hexadecimal text")
V_SEED_SHORT = N_("the revealed seed has %(count)s bytes; a draw needs at least %(min)s")
V_SEED_NOT_RANDOM = N_("the revealed seed is refused: %(problem)s (I8)")
V_COMMITTED_LATE = N_("the commitment was published after the draw, not before it (I8)")
V_SEED_MISMATCH = N_(
    "the revealed seed does not match the commitment: SHA-256 of the seed is %(digest)s, the "
    "published commitment is %(commitment)s (I8)"
)
V_LOT_DIFFERS = N_(
    "the recorded lot order differs from the one the seed gives, first at position %(position)s"
)
V_DRAWN_ORDER = N_("the drawn order does not fit: %(error)s")
V_SEEDED_ORDER = N_(
    "seeded number %(a)s %(team_a)s has a lower Elo than number %(b)s %(team_b)s (R11.2)"
)
V_UNSEEDED_HIGHER = N_(
    "unseeded number %(number)s: team %(team)s has a higher Elo than a seeded team "
    "(the lowest seeded Elo is %(lowest)s) (R11.1)"
)
V_NOBODY = N_("nobody")
V_NUMBER_DIFFERS = N_("number %(number)s: the protocol gives %(given)s, the draw gives %(want)s")
V_BYES_NUMBERS = N_(
    "the byes are recorded for numbers %(recorded)s; %(n)s teams in a scheme for %(size)s give "
    "%(expected)s (R11.4)"
)
V_BYE_HOLDER = N_(
    "the bye of number %(number)s names %(team)s, but number %(number)s is %(holder)s"
)
V_RANDOM_DRAW = N_("random draw")
V_MANUAL_DRAW = N_("manual draw")
V_SUMMARY_PROBLEMS = N_("%(count)s problem(s) in the %(kind)s protocol of %(edition)s")
V_SUMMARY_PROBLEMS_NO_EDITION = N_("%(count)s problem(s) in the %(kind)s protocol of the draw")
V_CHECKED_RANDOM = N_("seed matches the commitment, lot and numbering recomputed")
V_CHECKED_MANUAL = N_("seeding by Elo and numbering in drawn order checked (made by hand)")
V_SUMMARY_OK = N_("%(edition)s: %(n)s teams, scheme for %(size)s, %(seeded)s seeded; %(checked)s")
V_SUMMARY_OK_NO_EDITION = N_(
    "draw: %(n)s teams, scheme for %(size)s, %(seeded)s seeded; %(checked)s"
)


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """The outcome of :func:`verify_protocol`."""

    ok: bool
    problems: tuple[str, ...]
    """Every mismatch, in words; empty when ``ok``."""
    method: str
    summary: str
    """One line: what was checked (when ok) or how many problems were found."""
    details: tuple[Message, ...] = field(default=(), compare=False, repr=False)
    """:attr:`problems` as translatable messages (same order)."""
    summary_detail: Message | None = field(default=None, compare=False, repr=False)
    """:attr:`summary` as a translatable message."""


def _need(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in doc:
        raise ProtocolError(f"the protocol has no '{key}' ({what})")
    value = doc[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise ProtocolError(f"'{key}' must be {what}, not {value!r}")
    if not isinstance(value, kind):
        raise ProtocolError(f"'{key}' must be {what}, not {value!r}")
    return value


def _read_id(value: Any, where: str) -> TeamId:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ProtocolError(f"{where}: a team id must be a whole number or a text, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class _Parsed:
    method: str
    edition: str
    rules: _Rules
    teams: list[DrawEntry]
    scheme_size: int
    seeded: int
    commitment: str | None
    seed_hex: str | None
    lot: list[TeamId]
    numbering: dict[int, TeamId]
    byes: list[tuple[int, TeamId]]
    drawn_at: datetime
    committed_at: datetime | None


def _read_time(doc: Mapping[str, Any], key: str) -> datetime:
    raw = doc.get(key)
    value: datetime | None = None
    if isinstance(raw, str):
        try:
            value = datetime.fromisoformat(raw)
        except ValueError:
            value = None
    if value is None or value.utcoffset() is None:
        raise ProtocolError(f"'{key}' must be a date and time with its time zone (ISO 8601)")
    return value


def _parse(doc: Mapping[str, Any]) -> _Parsed:
    if doc.get("format") != FORMAT:
        raise ProtocolError(f"not a draw protocol: 'format' must be {FORMAT!r}")
    version = doc.get("version")
    if version != FORMAT_VERSION:
        raise ProtocolError(f"unknown protocol version {version!r} (this program reads 1)")
    method = _need(doc, "method", str, "the method of the draw")
    if method not in (METHOD_HMAC, METHOD_MANUAL):
        raise ProtocolError(f"unknown method of the draw {method!r}")
    raw_rules = _need(doc, "rules", dict, "the draw rules")
    sizes = raw_rules.get("scheme_sizes")
    divisor = raw_rules.get("seeded_divisor")
    minimum = raw_rules.get("min_teams")
    if (
        not isinstance(sizes, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in sizes)
        or isinstance(divisor, bool)
        or not isinstance(divisor, int)
        or isinstance(minimum, bool)
        or not isinstance(minimum, int)
    ):
        raise ProtocolError("'rules' must give scheme_sizes (list), seeded_divisor and min_teams")
    teams: list[DrawEntry] = []
    for k, item in enumerate(_need(doc, "teams", list, "the list of teams"), start=1):
        if not isinstance(item, dict):
            raise ProtocolError(f"team #{k} in 'teams' must be an object with id, name and elo")
        tid = _read_id(item.get("id"), f"team #{k}")
        name = item.get("name")
        elo = item.get("elo")
        if not isinstance(name, str) or isinstance(elo, bool) or not isinstance(elo, int):
            raise ProtocolError(f"team {tid!r} in 'teams' needs a text name and a whole-number elo")
        teams.append(DrawEntry(tid, name, elo))
    numbering: dict[int, TeamId] = {}
    for key, value in _need(doc, "numbering", dict, "number -> team id").items():
        try:
            number = int(key)
        except ValueError:
            raise ProtocolError(f"'numbering' has a key {key!r} that is not a number") from None
        numbering[number] = _read_id(value, f"number {number}")
    lot = [_read_id(v, "lot_order") for v in _need(doc, "lot_order", list, "a list of team ids")]
    bye_list: list[tuple[int, TeamId]] = []
    for item in _need(doc, "byes", list, "a list of byes"):
        if not isinstance(item, dict) or isinstance(item.get("number"), bool):
            raise ProtocolError("'byes' must be a list of objects with number and team")
        bye_no = item.get("number")
        if not isinstance(bye_no, int):
            raise ProtocolError("'byes' must be a list of objects with number and team")
        bye_list.append((bye_no, _read_id(item.get("team"), f"bye {bye_no}")))
    commit = doc.get("commitment")
    seed_hex = doc.get("seed")
    if method == METHOD_HMAC and (not isinstance(commit, str) or not isinstance(seed_hex, str)):
        raise ProtocolError("a random draw's protocol needs 'commitment' and 'seed' texts")
    edition = doc.get("edition")
    return _Parsed(
        method=method,
        edition=edition if isinstance(edition, str) else "",
        rules=_Rules(tuple(sizes), divisor, minimum),
        teams=teams,
        scheme_size=_need(doc, "scheme_size", int, "a whole number"),
        seeded=_need(doc, "seeded", int, "a whole number"),
        commitment=commit if isinstance(commit, str) else None,
        seed_hex=seed_hex if isinstance(seed_hex, str) else None,
        lot=lot,
        numbering=numbering,
        byes=bye_list,
        drawn_at=_read_time(doc, "drawn_at"),
        committed_at=_read_time(doc, "committed_at") if doc.get("committed_at") else None,
    )


def _seed_refused(seed: bytes) -> Message | None:
    """The seed rule (:func:`bridgeko.bridge.commit_reveal.seed_problem`) as a problem of the
    protocol, or None."""
    problem = commit_reveal.seed_problem(seed)
    if problem is None:
        return None
    if problem.template == commit_reveal.SEED_TOO_SHORT:
        return Message(V_SEED_SHORT, {"count": len(seed), "min": commit_reveal.MIN_SEED_BYTES})
    return Message(V_SEED_NOT_RANDOM, {"problem": Message(problem.template, problem.params)})


def _team_text(tid: TeamId, names: Mapping[TeamId, DrawEntry]) -> Message:
    e = names.get(tid)
    if e is None:
        return Message(repr(tid))
    return Message(V_TEAM_TEXT, {"team": repr(tid), "name": e.name, "elo": e.elo})


def verify_protocol(doc: Mapping[str, Any] | str) -> VerifyReport:
    """Recomputes a draw from its protocol and lists every mismatch in words (I8).

    For a random draw: the seed against the commitment, the lot from the seed and the team ids,
    the numbering from the inputs (Elo) and the lot, the scheme size, the seeded count and the
    byes. For a manual draw: the seeding part (1..N/4 by Elo, ties in drawn order), the
    following numbers in drawn order, and that every team has exactly one number.

    A document that cannot be read at all raises :class:`ProtocolError`.
    """
    if isinstance(doc, str):
        try:
            data: Any = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise ProtocolError(f"the protocol is not valid JSON: {exc}") from None
    else:
        data = doc
    if not isinstance(data, Mapping):
        raise ProtocolError("the protocol must be a JSON object")
    p = _parse(data)
    problems: list[Message] = []
    by_id: dict[TeamId, DrawEntry] = {}
    for e in p.teams:
        if e.id in by_id:
            problems.append(Message(V_LISTED_TWICE, {"team": repr(e.id)}))
        by_id[e.id] = e
    entries = _canonical_entries(by_id.values())
    n = len(entries)

    # Every team exactly one number, numbers 1..n (R11.4: the highest numbers are missing).
    holders: dict[TeamId, list[int]] = {}
    for number, tid in sorted(p.numbering.items()):
        if tid not in by_id:
            problems.append(Message(V_NUMBER_UNKNOWN_TEAM, {"number": number, "team": repr(tid)}))
        holders.setdefault(tid, []).append(number)
        if not 1 <= number <= n:
            problems.append(Message(V_NUMBER_OUTSIDE, {"number": number, "n": n}))
    for e in entries:
        got = holders.get(e.id, [])
        if not got:
            problems.append(Message(V_NO_NUMBER, {"team": _team_text(e.id, by_id)}))
        elif len(got) > 1:
            problems.append(
                Message(
                    V_SEVERAL_NUMBERS,
                    {
                        "team": _team_text(e.id, by_id),
                        "count": len(got),
                        "numbers": ", ".join(map(str, got)),
                    },
                )
            )

    # Scheme size and seeded count from the recorded rules.
    try:
        size = scheme_size(n, min_teams=p.rules.min_teams, scheme_sizes=p.rules.scheme_sizes)
    except DrawError as exc:
        problems.append(Message(V_SIZE_NOT_RECOMPUTED, {"error": exc.detail}))
        size = p.scheme_size
    if size != p.scheme_size:
        problems.append(Message(V_SIZE_WRONG, {"recorded": p.scheme_size, "n": n, "size": size}))
    try:
        seeded = seeded_count(size, n, seeded_divisor=p.rules.seeded_divisor)
    except DrawError as exc:
        problems.append(Message(V_SEEDED_NOT_RECOMPUTED, {"error": exc.detail}))
        seeded = p.seeded
    if seeded != p.seeded:
        problems.append(Message(V_SEEDED_WRONG, {"recorded": p.seeded, "seeded": seeded}))

    # The lot.
    position: dict[TeamId, int] | None = None
    if p.method == METHOD_HMAC:
        assert p.commitment is not None and p.seed_hex is not None
        try:
            seed = bytes.fromhex(p.seed_hex)
        except ValueError:
            seed = None
            problems.append(Message(V_SEED_NOT_HEX))
        if seed is not None:
            refused = _seed_refused(seed)
            if refused is not None:
                problems.append(refused)
        if p.committed_at is not None and p.drawn_at is not None and p.committed_at >= p.drawn_at:
            problems.append(Message(V_COMMITTED_LATE))
        if seed is not None:
            digest = commit_reveal.seed_digest(seed)
            if digest != p.commitment.strip().lower():
                problems.append(
                    Message(V_SEED_MISMATCH, {"digest": digest, "commitment": p.commitment})
                )
            lot = lot_order(seed, list(by_id))
            if lot != p.lot:
                first = next(
                    (k for k, (a, b) in enumerate(zip(lot, p.lot, strict=False)) if a != b),
                    min(len(lot), len(p.lot)),
                )
                problems.append(Message(V_LOT_DIFFERS, {"position": first + 1}))
            position = {tid: k for k, tid in enumerate(lot)}
    else:
        try:
            position = _manual_positions(entries, p.lot, seeded)
        except DrawError as exc:
            problems.append(Message(V_DRAWN_ORDER, {"error": exc.detail}))

    # The seeding in words (R11.1, R11.2), then number by number.
    seeded_nums = [k for k in range(1, min(seeded, n) + 1) if p.numbering.get(k) in by_id]
    for a, b in itertools.pairwise(seeded_nums):
        ea, eb = by_id[p.numbering[a]], by_id[p.numbering[b]]
        if ea.elo < eb.elo:
            problems.append(
                Message(
                    V_SEEDED_ORDER,
                    {
                        "a": a,
                        "team_a": _team_text(ea.id, by_id),
                        "b": b,
                        "team_b": _team_text(eb.id, by_id),
                    },
                )
            )
    if seeded_nums:
        lowest = min(by_id[p.numbering[k]].elo for k in seeded_nums)
        for k in range(seeded + 1, n + 1):
            holder = p.numbering.get(k)
            if holder is not None and holder in by_id and by_id[holder].elo > lowest:
                problems.append(
                    Message(
                        V_UNSEEDED_HIGHER,
                        {"number": k, "team": _team_text(holder, by_id), "lowest": lowest},
                    )
                )
    if position is not None:
        expected = _number(entries, position, seeded)
        for k, tid in enumerate(expected, start=1):
            got_id = p.numbering.get(k)
            if got_id != tid:
                given = Message(V_NOBODY) if got_id is None else _team_text(got_id, by_id)
                want = _team_text(tid, by_id)
                problems.append(
                    Message(V_NUMBER_DIFFERS, {"number": k, "given": given, "want": want})
                )
    # Byes (R11.4).
    expected_byes = [(k, p.numbering.get(k)) for k in byes(size, n)]
    recorded_nums = [num for num, _ in p.byes]
    expected_nums = [num for num, _ in expected_byes]
    if recorded_nums != expected_nums:
        problems.append(
            Message(
                V_BYES_NUMBERS,
                {
                    "recorded": str(recorded_nums),
                    "n": n,
                    "size": size,
                    "expected": str(expected_nums),
                },
            )
        )
    else:
        for (num, tid), (_, holder_id) in zip(p.byes, expected_byes, strict=True):
            if tid != holder_id:
                problems.append(
                    Message(
                        V_BYE_HOLDER,
                        {"number": num, "team": repr(tid), "holder": repr(holder_id)},
                    )
                )

    kind = Message(V_RANDOM_DRAW if p.method == METHOD_HMAC else V_MANUAL_DRAW)
    if problems:
        params: dict[str, Param] = {"count": len(problems), "kind": kind}
        if p.edition:
            params["edition"] = p.edition
        summary = Message(
            V_SUMMARY_PROBLEMS if p.edition else V_SUMMARY_PROBLEMS_NO_EDITION, params
        )
        return VerifyReport(
            False,
            tuple(str(m) for m in problems),
            p.method,
            str(summary),
            tuple(problems),
            summary,
        )
    checked = Message(V_CHECKED_RANDOM if p.method == METHOD_HMAC else V_CHECKED_MANUAL)
    params = {"n": n, "size": size, "seeded": seeded, "checked": checked}
    if p.edition:
        params["edition"] = p.edition
    summary = Message(V_SUMMARY_OK if p.edition else V_SUMMARY_OK_NO_EDITION, params)
    return VerifyReport(True, (), p.method, str(summary), (), summary)
