"""The draw: scheme size, seeding and a verifiable lot (R9.2, R11, I3, I8, I11).

The draw works on any team-like object with ``id``, ``name`` and ``elo`` (:class:`DrawTeam`) and
imports no models; the web layer passes its teams in and stores the protocol it gets back.

How the lot is made (I8), so that anyone can recompute it:

1. Before the draw the organiser publishes ``commitment(seed)``: the SHA-256 of a secret random
   seed (:func:`new_seed`, 32 bytes from :mod:`secrets`). Seeds, commitments and the seed rule
   (at least 16 bytes, no short repeating pattern) are those of
   :mod:`bridgeko.bridge.commit_reveal`, shared with computer dealing.
2. At the draw the seed is revealed. The *lot* is a random order of all the teams, a
   deterministic function of the seed and the sorted list of team ids only: a Fisher-Yates
   shuffle of the ids (canonical order: integers ascending, then texts ascending) driven by
   uniform integers taken from the HMAC-SHA-256 stream described in :func:`lot_order`.
3. The teams with the N/4 highest Elo get numbers 1..N/4 by decreasing Elo (R11.1, R11.2); the
   other teams take the following numbers in lot order (R11.3). Teams with equal Elo are put in
   lot order too (I3): one recorded random draw decides everything.

The protocol (:func:`protocol_json`) records the inputs, the commitment, the seed and the result;
:func:`~bridgeko.competition.draw_protocol.verify_protocol` (module
:mod:`bridgeko.competition.draw_protocol`, its names re-exported here) recomputes everything and
lists each mismatch in words. A draw made by
hand at the announced place (R11.5) is entered with :func:`manual_draw`; its protocol says
method ``"manual"``.

Python's :mod:`random` module is never used here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from operator import itemgetter

from bridgeko.bridge import commit_reveal
from bridgeko.bridge.commit_reveal import new_seed as new_seed
from bridgeko.competition import _gc
from bridgeko.competition.messages import N_, Message
from bridgeko.competition.sizes import standard_byes

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any, Generic, NamedTuple, Protocol, TypeVar

    # re-exported lazily (module __getattr__ below): draw_protocol imports this
    from bridgeko.competition.draw_protocol import (
        V_BYE_HOLDER,
        V_BYES_NUMBERS,
        V_CHECKED_MANUAL,
        V_CHECKED_RANDOM,
        V_COMMITTED_LATE,
        V_DRAWN_ORDER,
        V_LISTED_TWICE,
        V_LOT_DIFFERS,
        V_MANUAL_DRAW,
        V_NO_NUMBER,
        V_NOBODY,
        V_NUMBER_DIFFERS,
        V_NUMBER_OUTSIDE,
        V_NUMBER_UNKNOWN_TEAM,
        V_RANDOM_DRAW,
        V_SEED_MISMATCH,
        V_SEED_NOT_HEX,
        V_SEED_NOT_RANDOM,
        V_SEED_SHORT,
        V_SEEDED_NOT_RECOMPUTED,
        V_SEEDED_ORDER,
        V_SEEDED_WRONG,
        V_SEVERAL_NUMBERS,
        V_SIZE_NOT_RECOMPUTED,
        V_SIZE_WRONG,
        V_SUMMARY_OK,
        V_SUMMARY_OK_NO_EDITION,
        V_SUMMARY_PROBLEMS,
        V_SUMMARY_PROBLEMS_NO_EDITION,
        V_TEAM_TEXT,
        V_UNSEEDED_HIGHER,
        VerifyReport,
        verify_protocol,
    )

    # The regulations (TOML, time zones, a dozen dataclasses) are imported when a draw needs their
    # defaults, not here: ``bridgeko verify-draw`` reads the rules from the protocol (start-up
    # time). Their names stay reachable here through the module __getattr__ below.
    from bridgeko.competition.regulations import DrawRules, Regulations
else:
    # typing is for the type checker; at run time plain stand-ins do, and ``bridgeko
    # verify-draw`` does not import typing (start-up time). DrawTeam is never instantiated nor
    # given to isinstance; DrawResult[X] still works, as list[X] does.
    from collections import namedtuple
    from types import GenericAlias

    Protocol = object

    class _Parameterised:
        """What DrawResult takes of typing.Generic: DrawResult[X] (a types.GenericAlias)."""

        __slots__ = ()
        __class_getitem__ = classmethod(GenericAlias)

    Generic = _Parameterised


__all__ = [
    "FORMAT",
    "METHOD_HMAC",
    "METHOD_MANUAL",
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


if TYPE_CHECKING:

    class DrawEntry(NamedTuple):
        """A plain team value (used when a protocol is read back); a named tuple, cheap to make
        for a big field."""

        id: TeamId
        name: str
        elo: int

    T = TypeVar("T", bound=DrawTeam)
else:  # the same, without typing (typing.NamedTuple makes this very namedtuple)
    DrawEntry = namedtuple("DrawEntry", ("id", "name", "elo"))
    DrawEntry.__doc__ = """A plain team value (used when a protocol is read back); a named
    tuple, cheap to make for a big field."""
    T = "T"  # DrawResult's type parameter, by name


# ---------------------------------------------------------------------------------------------
# Scheme size and seeded count


def _default_min_teams() -> int:
    from bridgeko.competition.regulations import EntryRules

    for f in fields(EntryRules):
        if f.name == "min_teams":
            value = f.default
            if isinstance(value, int):
                return value
    raise DrawInternalError("EntryRules.min_teams has no default")  # pragma: no cover


def _default_draw_rules() -> DrawRules:
    from bridgeko.competition.regulations import DrawRules

    return DrawRules()


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
    from bridgeko.competition.regulations import Regulations

    edition: str | None = None
    if isinstance(regulations, Regulations):
        draw_rules = regulations.draw
        minimum = regulations.entry.min_teams
        edition = regulations.edition.name
    else:
        draw_rules = regulations if regulations is not None else _default_draw_rules()
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
    sizes = _default_draw_rules().scheme_sizes if scheme_sizes is None else tuple(scheme_sizes)
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
    divisor = _default_draw_rules().seeded_divisor if seeded_divisor is None else seeded_divisor
    if isinstance(divisor, bool) or not isinstance(divisor, int) or divisor < 1:
        raise DrawError(f"the seeded divisor must be a whole number >= 1, not {divisor!r}")
    return min(size // divisor, n_teams)


def byes(size: int, n_teams: int) -> tuple[int, ...]:
    """Numbers whose first-round opponent is missing and who go straight on (R11.4, I1).

    Those of the standard scheme (:func:`bridgeko.competition.scheme.standard_byes`, the same
    as the bracket's :func:`~bridgeko.competition.bracket.resolve` gives), so the draw and the
    bracket give the byes in one place; worked out without building the scheme.
    """
    if size < 4 or not 0 <= n_teams <= size:
        return ()
    return standard_byes(size, n_teams)


# ---------------------------------------------------------------------------------------------
# Verifiable randomness (I8)


def _checked_seed(seed: bytes) -> bytes:
    """``seed`` under the seed rule of :mod:`bridgeko.bridge.commit_reveal`; a
    :class:`DrawError` carrying the rule's message otherwise."""
    try:
        return commit_reveal.check_seed(seed)
    except commit_reveal.SeedError as exc:
        raise DrawError(Message(exc.template, exc.params)) from None


def commitment(seed: bytes) -> str:
    """The published commitment to a seed (:func:`bridgeko.bridge.commit_reveal.commitment`:
    the SHA-256 of its bytes, as 64 hex digits); a seed that breaks the seed rule raises
    :class:`DrawError`."""
    return commit_reveal.commitment(_checked_seed(seed))


def _canonical_ids(ids: Iterable[TeamId]) -> list[TeamId]:
    """``ids`` in canonical order: integers ascending, then texts ascending."""
    numbers: list[TeamId] = []
    texts: list[TeamId] = []
    for tid in ids:
        (numbers if isinstance(tid, int) else texts).append(tid)
    numbers.sort()
    texts.sort()
    return numbers + texts


def _canonical_entries(entries: Iterable[DrawEntry]) -> list[DrawEntry]:
    """``entries`` by their ids in canonical order (:func:`_canonical_ids`; stable)."""
    numbers: list[DrawEntry] = []
    texts: list[DrawEntry] = []
    for e in entries:
        (numbers if isinstance(e.id, int) else texts).append(e)
    by_id = itemgetter(0)  # DrawEntry.id
    numbers.sort(key=by_id)
    texts.sort(key=by_id)
    return numbers + texts


def _ids_json(ids: Sequence[TeamId]) -> bytes:
    return json.dumps(list(ids), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


_WORDS = struct.Struct(">4Q").unpack  # a 32-byte HMAC block as four 8-byte big-endian words
_2_64 = 1 << 64


def lot_order(seed: bytes, team_ids: Sequence[TeamId]) -> list[TeamId]:
    """The order of the lot: a function of the seed and the *set* of team ids only (I8).

    The ids are put in canonical order (integers ascending, then texts ascending), then
    shuffled by Fisher-Yates with uniform integers from the HMAC-SHA-256 stream keyed by the
    seed (see the module's docstring and the protocol's ``method_description``): 8-byte
    big-endian words of the blocks HMAC(seed, domain || ids || counter), counter = 0, 1, ...;
    a word u gives j in 0..m-1 only when u < 2^64 - (2^64 mod m) (no modulo bias), j = u mod m.
    """
    ids = _canonical_ids(team_ids)
    if len(set(ids)) != len(ids):
        raise DrawError("team ids must be unique")
    return _shuffled(seed, ids)


def _shuffled(seed: bytes, ids: list[TeamId]) -> list[TeamId]:
    """Fisher-Yates of ``ids`` (canonical, distinct) with the HMAC stream of :func:`lot_order`."""
    copy = hmac.new(bytes(seed), _DOMAIN + _ids_json(ids) + b"\x00", hashlib.sha256).copy
    order = list(ids)
    words: tuple[int, ...] = ()
    used = 0
    counter = 0
    for i in range(len(order) - 1, 0, -1):
        m = i + 1
        # A word below 2^64 - 2^32 is below the limit 2^64 - (2^64 mod m) for any m <= 2^32:
        # the exact limit is worked out only for the rare words above it.
        sure = _SURE if m <= _2_32 else 0
        while True:
            if used == len(words):
                mac = copy()
                mac.update(counter.to_bytes(8, "big"))
                words, used, counter = _WORDS(mac.digest()), 0, counter + 1
            u = words[used]
            used += 1
            if u < sure or u < _2_64 - _2_64 % m:
                break
        j = u % m
        order[i], order[j] = order[j], order[i]
    return order


_2_32 = 1 << 32
_SURE = _2_64 - _2_32


# ---------------------------------------------------------------------------------------------
# Numbering


def _number(
    teams: Sequence[DrawEntry],
    position: Mapping[TeamId, int],
    seeded: int,
    in_order: Sequence[TeamId] | None = None,
) -> list[TeamId]:
    """Team ids by number (index 0 = number 1): R11.1-R11.3 with I3 ties in lot order.

    ``position`` (each team's place in the lot or the drawn order) is different for every team;
    ``in_order`` may give the ids already sorted by it (the lot itself).
    """
    by_id = {t.id: t for t in teams}
    ordered_ids = in_order if in_order is not None else sorted(by_id, key=position.__getitem__)
    # Decreasing Elo, equal Elo in lot order: the sort is stable, also with reverse=True.
    by_elo = sorted(map(by_id.__getitem__, ordered_ids), key=_ELO, reverse=True)
    top = [t.id for t in by_elo[:seeded]]  # R11.1, R11.2, I3
    top_set = set(top)
    return top + [i for i in ordered_ids if i not in top_set]  # R11.3


_ELO = itemgetter(2)  # DrawEntry.elo


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
    append, add, new, entry = out.append, seen.add, tuple.__new__, DrawEntry
    for t in teams:
        tid, name, elo = t.id, t.name, t.elo
        # The usual exact types first (a big field), then the general checks.
        if (tid.__class__ is not int and tid.__class__ is not str) and (
            isinstance(tid, bool) or not isinstance(tid, int | str)
        ):
            raise DrawError(f"a team id must be a whole number or a text, not {tid!r}")
        if tid in seen:
            raise DrawError(f"team id {tid!r} appears twice")
        add(tid)
        if name.__class__ is not str and not isinstance(name, str):
            raise DrawError(f"team {tid!r}: the name must be a text, not {name!r}")
        if elo.__class__ is not int and (isinstance(elo, bool) or not isinstance(elo, int)):
            raise DrawError(
                f"team {tid!r} ({name}): the Elo must be a whole number (rounded, R10.1), "
                f"not {elo!r}"
            )
        append(new(entry, (tid, name, elo)))
    return _canonical_entries(out)


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
        "numbering": dict(zip(map(str, range(1, len(numbering) + 1)), numbering, strict=True)),
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
    refused, and so is a seed that breaks the seed rule of
    :mod:`bridgeko.bridge.commit_reveal` (fewer than 16 bytes, one byte value, a short
    repeating pattern), with the rule's message as :attr:`DrawError.detail`. ``regulations``
    (a :class:`Regulations` or just its :class:`DrawRules`) gives the
    scheme sizes, the seeded divisor and, with a full Regulations, the minimum number of teams
    and the edition's name. ``drawn_at`` (time-zone aware) and ``place`` go into the protocol,
    and so does ``committed_at``, when the commitment was published (it must be before the draw).
    """
    seed = _checked_seed(seed)
    if not commit_reveal.verify_commitment(seed, str(commitment)):
        raise DrawError("the seed does not match the published commitment (I8)")
    given = commit_reveal.commitment(seed)
    drawn_text = _check_drawn_at(drawn_at)
    committed_text: str | None = None
    if committed_at is not None:
        committed_text = _check_time(committed_at, "of the commitment")
        if committed_at.astimezone(UTC) >= drawn_at.astimezone(UTC):  # real time (I8)
            raise DrawError("the commitment must be published before the draw (I8)")
    with _gc.paused():  # many small values, no cycles (see _gc)
        rules, reg_edition = _rules(regulations, min_teams)
        entries = _entries(teams)
        size = scheme_size(len(entries), min_teams=rules.min_teams, scheme_sizes=rules.scheme_sizes)
        seeded = seeded_count(size, len(entries), seeded_divisor=rules.seeded_divisor)
        lot = _shuffled(seed, [e.id for e in entries])  # entries: canonical order, distinct ids
        position = dict(zip(lot, range(len(lot)), strict=True))
        numbering = _number(entries, position, seeded, in_order=lot)
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
    if len(numbering) != len(by_id) or by_id.keys() != set(numbering):
        raise DrawInternalError("the numbering does not give every team exactly one number")
    numbers = dict(enumerate(map(by_id.__getitem__, numbering), start=1))
    return DrawResult(
        numbers=numbers,
        scheme_size=size,
        seeded=seeded,
        byes=tuple(int(b["number"]) for b in doc["byes"]),  # computed once, by _protocol
        lot=tuple(map(by_id.__getitem__, lot)),
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
    for k, e in enumerate(_canonical_entries(entries)):
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
    with _gc.paused():  # many small values, no cycles (see _gc)
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


_PROTOCOL_NAMES = frozenset(
    {
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
    }
)
"""The names of draw_protocol re-exported here (lazily)."""

_REGULATIONS_NAMES = frozenset({"DrawRules", "EntryRules", "Regulations"})
"""The names of regulations this module imported before it was made light (still here, lazily)."""


def __getattr__(name: str) -> Any:
    """The names of :mod:`bridgeko.competition.draw_protocol` (reading and verifying a
    protocol), re-exported here for the code that imports them from the draw; loaded when first
    asked for, as that module imports this one."""
    if name in _PROTOCOL_NAMES:
        from bridgeko.competition import draw_protocol

        return getattr(draw_protocol, name)
    if name in _REGULATIONS_NAMES:
        from bridgeko.competition import regulations

        return getattr(regulations, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _PROTOCOL_NAMES | _REGULATIONS_NAMES)
