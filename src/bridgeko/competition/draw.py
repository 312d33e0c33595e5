"""The draw: scheme size, seeding and a verifiable lot (R9.2, R11, I3, I8, I11).

The draw works on any team-like object with ``id``, ``name`` and ``elo`` (:class:`DrawTeam`) and
imports no models; the web layer passes its teams in and stores the protocol it gets back.

How the lot is made (I8), so that anyone can recompute it:

1. Before the draw the organiser publishes ``commitment(seed)``: the SHA-256 of a secret random
   seed (:func:`new_seed`, 32 bytes from :mod:`secrets`).
2. At the draw the seed is revealed. The *lot* is a random order of all the teams, a
   deterministic function of the seed and the sorted list of team ids only: a Fisher-Yates
   shuffle of the ids (canonical order: integers ascending, then texts ascending) driven by
   uniform integers taken from the HMAC-SHA-256 stream described in :func:`lot_order`.
3. The teams with the N/4 highest Elo get numbers 1..N/4 by decreasing Elo (R11.1, R11.2); the
   other teams take the following numbers in lot order (R11.3). Teams with equal Elo are put in
   lot order too (I3): one recorded random draw decides everything.

The protocol (:func:`protocol_json`) records the inputs, the commitment, the seed and the result;
:func:`verify_protocol` recomputes everything and lists each mismatch in words. A draw made by
hand at the announced place (R11.5) is entered with :func:`manual_draw`; its protocol says
method ``"manual"``.

Python's :mod:`random` module is never used here.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, TypeVar

from bridgeko.competition.bracket import MatchStatus as BracketStatus
from bridgeko.competition.bracket import resolve, standard_scheme
from bridgeko.competition.messages import N_, Message, Param
from bridgeko.competition.regulations import DrawRules, EntryRules, Regulations

__all__ = [
    "FORMAT",
    "METHOD_HMAC",
    "METHOD_MANUAL",
    "DrawEntry",
    "DrawError",
    "DrawInternalError",
    "DrawResult",
    "DrawTeam",
    "ProtocolError",
    "TeamId",
    "VerifyReport",
    "byes",
    "commitment",
    "hold_draw",
    "lot_order",
    "manual_draw",
    "new_seed",
    "protocol_json",
    "scheme_size",
    "seeded_count",
    "verify_protocol",
]

FORMAT = "bridgeko-draw-protocol"
FORMAT_VERSION = 1
METHOD_HMAC = "hmac-sha256-fisher-yates-v1"
METHOD_MANUAL = "manual"
_DOMAIN = b"bridgeko draw lot v1\x00"
_MIN_SEED_BYTES = 16
_SEED_BYTES = 32

_METHOD_TEXT = (
    "Lot: the team ids in canonical order (integers ascending, then texts ascending), encoded "
    "as compact JSON, are shuffled by Fisher-Yates (i from n-1 down to 1, swap i with j uniform "
    "in 0..i). Uniform integers: 8-byte big-endian words taken in order from the blocks "
    "HMAC-SHA-256(key=seed, msg='bridgeko draw lot v1' NUL ids-json NUL counter as 8-byte "
    "big-endian, counter = 0, 1, ...); a word u is used for j in 0..m-1 only when "
    "u < 2^64 - (2^64 mod m) (rejection, no modulo bias), and then j = u mod m. Numbers: the "
    "N/4 teams with the highest Elo get 1..N/4 by decreasing Elo, the others the following "
    "numbers in lot order; equal Elo is ordered by the lot (R11, I3)."
)


TOO_FEW_TEAMS = N_(
    "%(count)s teams entered, fewer than the minimum of %(min)s: the competition is cancelled "
    "(R8.1)"
)
NOT_AN_ENTERED_TEAM = N_("the drawn order names %(team)s, which is not an entered team")
DRAWN_TWICE = N_("the drawn order names %(team)s twice")
TIE_NOT_DRAWN = N_(
    "teams %(teams)s have equal Elo %(elo)s and their order decides a seeded number or the "
    "seeding boundary: they must be in the drawn order (I3); missing: %(missing)s"
)
UNSEEDED_NOT_DRAWN = N_(
    "team %(team)s (%(name)s) is not seeded and must be in the drawn order (R11.3)"
)
"""Message templates of the :class:`DrawError` a user meets (the web layer translates them)."""

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


class DrawError(ValueError):
    """A user error in a draw: too few teams, a seed that does not match the commitment...

    :attr:`detail` is the message as a translatable :class:`Message` (a plain text for most)."""

    def __init__(self, message: str | Message) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


class ProtocolError(DrawError):
    """A draw protocol that cannot be read at all (bad JSON, a missing or malformed key)."""


class DrawInternalError(RuntimeError):
    """A broken invariant of the draw itself (a bug): logged, never shown to a user raw."""


TeamId = int | str
"""A team's id as the caller knows it (a database key or a short code)."""


class DrawTeam(Protocol):
    """What the draw needs of a team; any object with these attributes will do."""

    @property
    def id(self) -> TeamId: ...

    @property
    def name(self) -> str: ...

    @property
    def elo(self) -> int:
        """The team's rounded Elo (R10)."""
        ...


@dataclass(frozen=True, slots=True)
class DrawEntry:
    """A plain team value (used when a protocol is read back)."""

    id: TeamId
    name: str
    elo: int


T = TypeVar("T", bound=DrawTeam)


# ---------------------------------------------------------------------------------------------
# Scheme size and seeded count


def _default_min_teams() -> int:
    for f in fields(EntryRules):
        if f.name == "min_teams":
            value = f.default
            if isinstance(value, int):
                return value
    raise DrawInternalError("EntryRules.min_teams has no default")  # pragma: no cover


@dataclass(frozen=True, slots=True)
class _Rules:
    scheme_sizes: tuple[int, ...]
    seeded_divisor: int
    min_teams: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "scheme_sizes": list(self.scheme_sizes),
            "seeded_divisor": self.seeded_divisor,
            "min_teams": self.min_teams,
        }


def _rules(
    regulations: Regulations | DrawRules | None, min_teams: int | None
) -> tuple[_Rules, str | None]:
    edition: str | None = None
    if isinstance(regulations, Regulations):
        draw_rules = regulations.draw
        minimum = regulations.entry.min_teams
        edition = regulations.edition.name
    else:
        draw_rules = regulations if regulations is not None else DrawRules()
        minimum = _default_min_teams()
    if min_teams is not None:
        minimum = min_teams
    return _Rules(tuple(draw_rules.scheme_sizes), draw_rules.seeded_divisor, minimum), edition


def scheme_size(
    n_teams: int,
    *,
    min_teams: int | None = None,
    scheme_sizes: Sequence[int] | None = None,
) -> int:
    """The size of the scheme for ``n_teams`` entered teams (R9.2, I11).

    The smallest of ``scheme_sizes`` (the annex's schemes, DrawRules' 8, 16 and 32 by default)
    that holds every team, else the smallest power of two not below ``n_teams``. Fewer than
    ``min_teams`` (EntryRules' 8 by default, R8.1) raise :class:`DrawError`.

    >>> [scheme_size(n) for n in (8, 9, 16, 17, 32, 33, 64, 65)]
    [8, 16, 16, 32, 32, 64, 64, 128]
    """
    minimum = _default_min_teams() if min_teams is None else min_teams
    sizes = DrawRules().scheme_sizes if scheme_sizes is None else tuple(scheme_sizes)
    if isinstance(n_teams, bool) or not isinstance(n_teams, int):
        raise DrawError(f"the number of teams must be a whole number, not {n_teams!r}")
    for s in sizes:
        if isinstance(s, bool) or not isinstance(s, int) or s < 2 or s & (s - 1):
            raise DrawError(f"a scheme size must be a power of two, not {s!r} (R9.1)")
    if n_teams < max(minimum, 2):
        raise DrawError(Message(TOO_FEW_TEAMS, {"count": n_teams, "min": minimum}))
    for s in sorted(sizes):
        if s >= n_teams:
            return s
    return 1 << (n_teams - 1).bit_length()  # R9.2, I11: the smallest 2^k not below n


def seeded_count(size: int, n_teams: int, *, seeded_divisor: int | None = None) -> int:
    """How many teams are seeded: N/4 (R11.1), never more than the teams there are."""
    divisor = DrawRules().seeded_divisor if seeded_divisor is None else seeded_divisor
    if isinstance(divisor, bool) or not isinstance(divisor, int) or divisor < 1:
        raise DrawError(f"the seeded divisor must be a whole number >= 1, not {divisor!r}")
    return min(size // divisor, n_teams)


def byes(size: int, n_teams: int) -> tuple[int, ...]:
    """Numbers whose first-round opponent is missing and who go straight on (R11.4, I1).

    Read off the standard scheme (:func:`bridgeko.competition.bracket.resolve`), so the draw
    and the bracket give the byes in one place.
    """
    if size < 4 or not 0 <= n_teams <= size:
        return ()
    state = resolve(standard_scheme(size), teams=n_teams)
    first = (m for m in state.matches if m.spec.round == 1)
    return tuple(
        sorted(m.winner.number for m in first if m.status is BracketStatus.BYE and m.winner.number)
    )


# ---------------------------------------------------------------------------------------------
# Verifiable randomness (I8)


def new_seed() -> bytes:
    """A fresh secret seed for a draw: 32 bytes from the operating system's CSPRNG."""
    return secrets.token_bytes(_SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The published commitment to a seed: the SHA-256 of its bytes, as 64 hex digits."""
    return _sha256_hex(seed)


def _sha256_hex(seed: bytes) -> str:
    if not isinstance(seed, bytes | bytearray):
        raise DrawError("the seed must be bytes")
    return hashlib.sha256(bytes(seed)).hexdigest()


def _id_key(team_id: TeamId) -> tuple[int, int, str]:
    if isinstance(team_id, int):
        return (0, team_id, "")
    return (1, 0, team_id)


def _canonical_ids(ids: Sequence[TeamId]) -> list[TeamId]:
    return sorted(ids, key=_id_key)


def _ids_json(ids: Sequence[TeamId]) -> bytes:
    return json.dumps(list(ids), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class _Stream:
    """Uniform integers from HMAC-SHA-256(seed, domain || ids || counter), no modulo bias."""

    def __init__(self, seed: bytes, ids_json: bytes) -> None:
        self._mac = hmac.new(seed, _DOMAIN + ids_json + b"\x00", hashlib.sha256)
        self._words = self._generate()

    def _generate(self) -> Iterator[int]:
        counter = 0
        while True:
            mac = self._mac.copy()
            mac.update(counter.to_bytes(8, "big"))
            block = mac.digest()
            for k in range(0, 32, 8):
                yield int.from_bytes(block[k : k + 8], "big")
            counter += 1

    def below(self, m: int) -> int:
        """A uniform integer in 0..m-1."""
        limit = (1 << 64) - ((1 << 64) % m)
        for u in self._words:
            if u < limit:
                return u % m
        raise DrawInternalError("the random stream ended")  # pragma: no cover


def lot_order(seed: bytes, team_ids: Sequence[TeamId]) -> list[TeamId]:
    """The order of the lot: a function of the seed and the *set* of team ids only (I8).

    The ids are put in canonical order (integers ascending, then texts ascending), then
    shuffled by Fisher-Yates with uniform integers from the HMAC-SHA-256 stream keyed by the
    seed (see the module's docstring and the protocol's ``method_description``).
    """
    ids = _canonical_ids(team_ids)
    if len(set(ids)) != len(ids):
        raise DrawError("team ids must be unique")
    stream = _Stream(bytes(seed), _ids_json(ids))
    order = list(ids)
    for i in range(len(order) - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


# ---------------------------------------------------------------------------------------------
# Numbering


def _number(
    teams: Sequence[DrawEntry], position: Mapping[TeamId, int], seeded: int
) -> list[TeamId]:
    """Team ids by number (index 0 = number 1): R11.1-R11.3 with I3 ties in lot order."""
    by_elo = sorted(teams, key=lambda t: (-t.elo, position[t.id]))
    top = [t.id for t in by_elo[:seeded]]  # R11.1, R11.2, I3
    top_set = set(top)
    rest = sorted((t.id for t in teams if t.id not in top_set), key=lambda i: position[i])
    return top + rest  # R11.3


def _ties_that_matter(teams: Sequence[DrawEntry], seeded: int) -> list[list[DrawEntry]]:
    """Groups of equal Elo whose order decides a seeded number or the seeding boundary (I3)."""
    by_elo = sorted(teams, key=lambda t: -t.elo)
    groups: list[list[DrawEntry]] = []
    start = 0
    while start < len(by_elo):
        end = start
        while end < len(by_elo) and by_elo[end].elo == by_elo[start].elo:
            end += 1
        if end - start > 1 and start < seeded:
            groups.append(by_elo[start:end])
        start = end
    return groups


def _entries(teams: Sequence[DrawTeam]) -> list[DrawEntry]:
    out: list[DrawEntry] = []
    seen: set[TeamId] = set()
    for t in teams:
        tid, name, elo = t.id, t.name, t.elo
        if isinstance(tid, bool) or not isinstance(tid, int | str):
            raise DrawError(f"a team id must be a whole number or a text, not {tid!r}")
        if tid in seen:
            raise DrawError(f"team id {tid!r} appears twice")
        seen.add(tid)
        if not isinstance(name, str):
            raise DrawError(f"team {tid!r}: the name must be a text, not {name!r}")
        if isinstance(elo, bool) or not isinstance(elo, int):
            raise DrawError(
                f"team {tid!r} ({name}): the Elo must be a whole number (rounded, R10.1), "
                f"not {elo!r}"
            )
        out.append(DrawEntry(tid, name, elo))
    return sorted(out, key=lambda e: _id_key(e.id))


# ---------------------------------------------------------------------------------------------
# Holding the draw


@dataclass(frozen=True, slots=True)
class DrawResult(Generic[T]):
    """The outcome of a draw: numbers and the protocol to publish."""

    numbers: Mapping[int, T]
    """Draw number -> team, numbers 1..len(teams) (the highest numbers missing, R11.4)."""
    scheme_size: int
    seeded: int
    """Numbers 1..seeded went by Elo (R11.1)."""
    byes: tuple[int, ...]
    """Numbers without a first-round opponent (R11.4)."""
    lot: tuple[T, ...]
    """The recorded lot: all teams for the engine's draw, the drawn order for a manual one."""
    protocol: dict[str, Any]

    def number_of(self, team_id: TeamId) -> int:
        for n, t in self.numbers.items():
            if t.id == team_id:
                return n
        raise DrawError(f"team {team_id!r} took no part in the draw")


def _check_time(value: datetime, what: str) -> str:
    if not isinstance(value, datetime):
        raise DrawError(f"the time {what} must be a date and time")
    if value.tzinfo is None or value.utcoffset() is None:
        raise DrawError(f"the time {what} must include its time zone")
    return value.isoformat()


def _check_drawn_at(drawn_at: datetime) -> str:
    return _check_time(drawn_at, "of the draw")


def _protocol(
    *,
    method: str,
    edition: str,
    drawn_at: str,
    committed_at: str | None = None,
    place: str,
    rules: _Rules,
    entries: Sequence[DrawEntry],
    size: int,
    seeded: int,
    commit: str | None,
    seed_hex: str | None,
    lot: Sequence[TeamId],
    numbering: Sequence[TeamId],
) -> dict[str, Any]:
    names = {e.id: e.name for e in entries}
    bye_numbers = byes(size, len(entries))
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "method": method,
        "method_description": _METHOD_TEXT
        if method == METHOD_HMAC
        else "Unseeded teams drawn by hand at the announced place (R11.5); the lot order below "
        "is the order in which they were drawn.",
        "edition": edition,
        "drawn_at": drawn_at,
        "place": place,
        "rules": rules.as_dict(),
        "teams": [{"id": e.id, "name": e.name, "elo": e.elo} for e in entries],
        "scheme_size": size,
        "seeded": seeded,
        "commitment": commit,
        "committed_at": committed_at,
        "seed": seed_hex,
        "lot_order": list(lot),
        "numbering": {str(n): tid for n, tid in enumerate(numbering, start=1)},
        "byes": [
            {"number": n, "team": numbering[n - 1], "name": names[numbering[n - 1]]}
            for n in bye_numbers
        ],
    }


def hold_draw(
    teams: Sequence[T],
    seed: bytes,
    *,
    commitment: str,
    regulations: Regulations | DrawRules | None = None,
    min_teams: int | None = None,
    edition: str | None = None,
    drawn_at: datetime,
    place: str,
    committed_at: datetime | None = None,
) -> DrawResult[T]:
    """Holds the draw for ``teams`` with the revealed ``seed`` (R11, I3, I8).

    ``commitment`` is the hash published before the draw; a seed that does not match it is
    refused. ``regulations`` (a :class:`Regulations` or just its :class:`DrawRules`) gives the
    scheme sizes, the seeded divisor and, with a full Regulations, the minimum number of teams
    and the edition's name. ``drawn_at`` (time-zone aware) and ``place`` go into the protocol,
    and so does ``committed_at``, when the commitment was published (it must be before the draw).
    """
    given = _sha256_hex(seed)
    if len(seed) < _MIN_SEED_BYTES:
        raise DrawError(f"the seed must be at least {_MIN_SEED_BYTES} bytes, not {len(seed)}")
    if given != str(commitment).strip().lower():  # public values: no timing concern
        raise DrawError("the seed does not match the published commitment (I8)")
    drawn_text = _check_drawn_at(drawn_at)
    committed_text: str | None = None
    if committed_at is not None:
        committed_text = _check_time(committed_at, "of the commitment")
        if committed_at.astimezone(UTC) >= drawn_at.astimezone(UTC):  # real time (I8)
            raise DrawError("the commitment must be published before the draw (I8)")
    rules, reg_edition = _rules(regulations, min_teams)
    entries = _entries(teams)
    size = scheme_size(len(entries), min_teams=rules.min_teams, scheme_sizes=rules.scheme_sizes)
    seeded = seeded_count(size, len(entries), seeded_divisor=rules.seeded_divisor)
    lot = lot_order(bytes(seed), [e.id for e in entries])
    position = {tid: k for k, tid in enumerate(lot)}
    numbering = _number(entries, position, seeded)
    doc = _protocol(
        method=METHOD_HMAC,
        edition=edition if edition is not None else (reg_edition or ""),
        drawn_at=drawn_text,
        committed_at=committed_text,
        place=place,
        rules=rules,
        entries=entries,
        size=size,
        seeded=seeded,
        commit=given,
        seed_hex=bytes(seed).hex(),
        lot=lot,
        numbering=numbering,
    )
    return _result(teams, numbering, lot, size, seeded, doc)


def _result(
    teams: Sequence[T],
    numbering: Sequence[TeamId],
    lot: Sequence[TeamId],
    size: int,
    seeded: int,
    doc: dict[str, Any],
) -> DrawResult[T]:
    by_id = {t.id: t for t in teams}
    if sorted(numbering, key=_id_key) != sorted(by_id, key=_id_key):
        raise DrawInternalError("the numbering does not give every team exactly one number")
    numbers = {n: by_id[tid] for n, tid in enumerate(numbering, start=1)}
    return DrawResult(
        numbers=numbers,
        scheme_size=size,
        seeded=seeded,
        byes=tuple(int(b["number"]) for b in doc["byes"]),  # computed once, by _protocol
        lot=tuple(by_id[tid] for tid in lot),
        protocol=doc,
    )


def _manual_positions(
    entries: Sequence[DrawEntry], drawn_order: Sequence[TeamId], seeded: int
) -> dict[TeamId, int]:
    known = {e.id: e for e in entries}
    position: dict[TeamId, int] = {}
    for k, tid in enumerate(drawn_order):
        if tid not in known:
            raise DrawError(Message(NOT_AN_ENTERED_TEAM, {"team": repr(tid)}))
        if tid in position:
            raise DrawError(Message(DRAWN_TWICE, {"team": repr(tid)}))
        position[tid] = k
    # Teams not drawn by hand sort after the drawn ones (only allowed where it cannot matter).
    for k, e in enumerate(sorted(entries, key=lambda e: _id_key(e.id))):
        position.setdefault(e.id, len(drawn_order) + k)
    drawn = set(drawn_order)
    for group in _ties_that_matter(entries, seeded):
        missing = [e for e in group if e.id not in drawn]
        if missing:
            raise DrawError(
                Message(
                    TIE_NOT_DRAWN,
                    {
                        "teams": ", ".join(repr(e.id) for e in group),
                        "elo": group[0].elo,
                        "missing": ", ".join(repr(e.id) for e in missing),
                    },
                )
            )
    numbering = _number(entries, position, seeded)
    for tid in numbering[seeded:]:
        if tid not in drawn:
            raise DrawError(
                Message(UNSEEDED_NOT_DRAWN, {"team": repr(tid), "name": known[tid].name})
            )
    return position


def manual_draw(
    teams: Sequence[T],
    drawn_order: Sequence[TeamId],
    *,
    regulations: Regulations | DrawRules | None = None,
    min_teams: int | None = None,
    edition: str | None = None,
    drawn_at: datetime,
    place: str,
) -> DrawResult[T]:
    """Enters a draw made by hand at the announced place (R11.5, I8).

    ``drawn_order`` lists team ids in the order they were drawn: every unseeded team, and every
    team whose order among equal Elo decides a seeded number or the seeding boundary (I3); it may
    also list the other seeded teams (the whole field), which changes nothing.
    """
    rules, reg_edition = _rules(regulations, min_teams)
    entries = _entries(teams)
    size = scheme_size(len(entries), min_teams=rules.min_teams, scheme_sizes=rules.scheme_sizes)
    seeded = seeded_count(size, len(entries), seeded_divisor=rules.seeded_divisor)
    position = _manual_positions(entries, list(drawn_order), seeded)
    numbering = _number(entries, position, seeded)
    doc = _protocol(
        method=METHOD_MANUAL,
        edition=edition if edition is not None else (reg_edition or ""),
        drawn_at=_check_drawn_at(drawn_at),
        place=place,
        rules=rules,
        entries=entries,
        size=size,
        seeded=seeded,
        commit=None,
        seed_hex=None,
        lot=list(drawn_order),
        numbering=numbering,
    )
    return _result(teams, numbering, list(drawn_order), size, seeded, doc)


def protocol_json(result: DrawResult[Any] | Mapping[str, Any]) -> str:
    """The protocol as stable, pretty JSON (the same draw always gives the same text)."""
    doc = result.protocol if isinstance(result, DrawResult) else result
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------
# Verification


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
    entries = sorted(by_id.values(), key=lambda e: _id_key(e.id))
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
        if seed is not None and len(seed) < _MIN_SEED_BYTES:
            problems.append(Message(V_SEED_SHORT, {"count": len(seed), "min": _MIN_SEED_BYTES}))
        if p.committed_at is not None and p.drawn_at is not None and p.committed_at >= p.drawn_at:
            problems.append(Message(V_COMMITTED_LATE))
        if seed is not None:
            digest = commitment(seed)
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
