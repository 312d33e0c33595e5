"""Every write to a match: one ``transaction.atomic`` per call, one audit entry, the match's row
locked first (``select_for_update``; SQLite writes one transaction at a time), the engine's
checks before anything is saved, and the match's cached state refreshed before the commit —
so that two TDs saving at once never lose a board and a page never shows half a change.

The results of a match come three ways, all ending in :func:`save_board` or
:func:`set_segment_totals`: board by board (the TD's page), a PBN file
(:mod:`bridgeko.matches.pbn_import`) and the totals of a segment from the scorecards.
When a match is decided (or a correction changes its winner) the bracket moves on
(:mod:`bridgeko.matches.bracket_sync`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from bridgeko.audit.services import record, snapshot
from bridgeko.bridge.board import vulnerability
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.bridge.result import BoardResult as TableResult
from bridgeko.bridge.scoring import MAX_IMPS, parse_result, result_score
from bridgeko.competition import match as engine
from bridgeko.competition.match import MatchStatus as EngineStatus
from bridgeko.competition.messages import N_, Message
from bridgeko.competition.regulations import Stage
from bridgeko.core.errors import ServiceError
from bridgeko.core.events import emit
from bridgeko.matches import state as match_state
from bridgeko.matches.models import (
    BoardResult,
    Match,
    MatchStatus,
    Penalty,
    PenaltyKind,
    Segment,
)

ROOMS = ("open", "closed")
SIDES = ("home", "visitors")
EXAMPLES = "4S N =, 3NTX E -2, 6HXX W 12, P"


# ---------------------------------------------------------------------------------------------
# Reading a result


def parse_text(text: str) -> TableResult:
    """A room's result from the TD's quick text (``4S N =``, ``3NTX E -2``, ``6HXX W 12``,
    ``P``); a :class:`ServiceError` naming the text otherwise."""
    try:
        return parse_result(text)
    except BridgeInputError:
        raise ServiceError(
            _(
                "“%(text)s” is not a result. Write the contract, the declarer and the tricks: "
                "%(examples)s."
            )
            % {"text": text.strip(), "examples": EXAMPLES}
        ) from None


def normalised(result: TableResult) -> str:
    """The stored quick text: ``4S N =``, ``3NTX E -2``, ``P`` for a passed-out board."""
    return "P" if result.is_passed_out else str(result)


def ns_score(result: TableResult, board: int) -> int:
    return result_score(result, vulnerability(board))


# ---------------------------------------------------------------------------------------------
# Locking and refreshing


def locked(match: Match) -> Match:
    """The match's row, locked for the rest of the transaction (call inside ``atomic``)."""
    return Match.objects.select_for_update().select_related("edition").get(pk=match.pk)


def _status_of(view: match_state.MatchView, match: Match) -> str:
    state = view.state
    if match.home_id is None or match.visitors_id is None:
        return MatchStatus.PENDING
    if match.status == MatchStatus.NOT_NEEDED:  # only the bracket's sync changes it
        return MatchStatus.NOT_NEEDED
    if state.status is EngineStatus.IN_PROGRESS:
        started = (
            bool(view.facts.results)
            or any(s.has_totals for s in view.facts.segments)
            or bool(view.facts.penalties)
        )
        return MatchStatus.IN_PROGRESS if started else MatchStatus.TO_PLAY
    return MatchStatus(state.status.value)


def refresh(
    match: Match, *, now: datetime, facts: match_state.Facts | None = None
) -> match_state.MatchView:
    """Recompute the match from its facts and store the cached state (status, totals, winner);
    creates the next extra segment when the match is tied after its boards (R12.5, I5) and
    removes extra segments a correction made unnecessary while nothing was recorded in them.
    Call inside the transaction that changed a fact, with the match locked. ``facts``: the
    facts as they are now, when the caller has them (loaded under the lock and brought up to
    date with its change): saves loading them again."""
    regulations = match.edition.regulations
    view = match_state.compute(facts or match_state.load(match), regulations)
    state = view.state
    segments = view.facts.segments
    if state.status is EngineStatus.EXTRA_SEGMENT_REQUIRED and state.next_segment is not None:
        nxt = state.next_segment
        if not any(s.number == nxt.number for s in segments):
            Segment.objects.create(
                match=match,
                number=nxt.number,
                first_board=nxt.first_board,
                last_board=nxt.last_board,
                is_extra=True,
            )
            view = match_state.compute(match_state.load(match), regulations)
    else:
        needed = len(state.lines) + (1 if state.next_segment is not None else 0)
        prescribed = len(engine.segments_for_stage(Stage(match.stage), regulations))
        spare = [
            s
            for s in segments
            if s.is_extra and s.number > max(needed, prescribed) and _empty(s, view)
        ]
        if spare:
            Segment.objects.filter(pk__in=[s.pk for s in spare]).delete()
            view = match_state.compute(match_state.load(match), regulations)
    state = view.state
    winner = state.winner.value if state.winner is not None else ""
    status = _status_of(view, match)
    if match.home_id is None or match.visitors_id is None:
        winner = ""
    if status == MatchStatus.NOT_NEEDED:
        winner = match.winner
    decided = status in (MatchStatus.DECIDED, MatchStatus.WALKOVER, MatchStatus.NO_WINNER)
    match.status = status
    match.winner = winner
    match.home_total = state.home_total
    match.visitors_total = state.visitors_total
    match.decided_at = (match.decided_at or now) if decided else None
    match.version += 1
    match.updated_at = now
    match.save(
        update_fields=[
            "status",
            "winner",
            "home_total",
            "visitors_total",
            "decided_at",
            "version",
            "updated_at",
        ]
    )
    return view


def _empty(segment: Segment, view: match_state.MatchView) -> bool:
    has_results = any(
        (n, room) in view.facts.results for n in segment.board_numbers for room in ROOMS
    )
    has_line_ups = segment.line_ups.exists()
    return not (has_results or segment.has_totals or has_line_ups)


def _after_change(
    match: Match, *, before_winner: str, user: Any, now: datetime, confirm: bool
) -> None:
    """Moves the bracket on when the match's winner changed (and checks what that affects)."""
    if match.winner == before_winner and match.status != MatchStatus.NO_WINNER:
        return
    from bridgeko.matches import bracket_sync

    bracket_sync.sync(match.edition, user=user, now=now, confirm=confirm, changed=match.code)


Mark = tuple[frozenset[int], str, int, int]
"""What the captains are told about (:func:`_tell_result`): the complete segments, the status
and the totals of a match."""
DECIDED = (MatchStatus.DECIDED, MatchStatus.WALKOVER, MatchStatus.NO_WINNER)


def _mark(match: Match, view: match_state.MatchView) -> Mark:
    done = frozenset(s.segment.number for s in view.segments if s.complete)
    return done, match.status, match.home_total, match.visitors_total


def _tell_result(before: Mark, match: Match, view: match_state.MatchView, user: Any) -> None:
    """``match.result`` for the captains' mail — not on every board: when a segment's result
    became complete, the match was decided, or a decided match's score changed (a correction)."""
    after = _mark(match, view)
    decided = after[1] in DECIDED
    if (
        after[0] - before[0]
        or (decided and before[1] not in DECIDED)
        or (decided and after[2:] != before[2:])
    ):
        emit("match.result", match=match, user=user)


def _view(match: Match, facts: match_state.Facts | None = None) -> match_state.MatchView:
    """The match computed from ``facts`` (loaded when not given); nothing stored."""
    return match_state.compute(facts or match_state.load(match), match.edition.regulations)


def _with_segment(facts: match_state.Facts, segment: Segment) -> match_state.Facts:
    """``facts`` with ``segment`` (just saved) in place of its stored copy."""
    facts.segments = [segment if s.pk == segment.pk else s for s in facts.segments]
    return facts


def _stored_order(penalty: Penalty) -> tuple[int, datetime, int]:
    """The order :func:`bridgeko.matches.state.load` gives the penalties."""
    return penalty.segment, penalty.created_at, penalty.pk


def _changed(
    match: Match,
    mark: Mark,
    *,
    action: str,
    after: dict[str, Any],
    summary: Message,
    user: Any,
    now: datetime,
    confirm: bool,
    before: dict[str, Any] | None = None,
    facts: match_state.Facts | None = None,
) -> match_state.MatchView:
    """What follows every change of a match's facts (the match locked, the change saved): the
    match recomputed (:func:`refresh`, from ``facts`` when the caller has them up to date), the
    audit entry ``action``, the bracket moved on if the winner changed, the captains told of
    the result (``mark``: what they knew before the change). Returns the match's view."""
    before_winner = match.winner
    view = refresh(match, now=now, facts=facts)
    record(
        action,
        user=user,
        edition=match.edition,
        obj=match,
        before=before,
        after=after,
        summary=summary,
        at=now,
    )
    _after_change(match, before_winner=before_winner, user=user, now=now, confirm=confirm)
    _tell_result(mark, match, view, user)
    return view


def _playable(match: Match) -> None:
    if match.home_id is None or match.visitors_id is None:
        raise ServiceError(
            _("The teams of match %(code)s are not known yet.") % {"code": match.code}
        )


def _segment_of(view: match_state.MatchView, board: int) -> match_state.SegmentView:
    for seg in view.segments:
        if seg.segment.first_board <= board <= seg.segment.last_board:
            return seg
    raise ServiceError(
        _("Match %(code)s has no board %(board)s.") % {"code": view.match.code, "board": board},
        field="board",
    )


# ---------------------------------------------------------------------------------------------
# Board by board


class BoardConflict(ServiceError):
    """The board was changed by someone else since the editor loaded it: both values shown."""

    def __init__(
        self, *, board: int, room: str, yours: str, theirs: str, by: str, version: int
    ) -> None:
        super().__init__(
            _(
                "Board %(board)s, %(room)s: %(by)s saved “%(theirs)s” meanwhile; your “%(yours)s” "
                "was not saved. Check the board and save again."
            )
            % {
                "board": board,
                "room": _("open room") if room == "open" else _("closed room"),
                "by": by or _("someone else"),
                "theirs": theirs or _("(no result)"),
                "yours": yours or _("(no result)"),
            },
            field=f"{room}-{board}",
        )
        self.board = board
        self.room = room
        self.yours = yours
        self.theirs = theirs
        self.version = version


@dataclass(frozen=True, slots=True)
class Saved:
    """What :func:`save_board` did: the stored result (None: cleared) and the match after it."""

    result: BoardResult | None
    match: Match
    view: match_state.MatchView


def _who(result: BoardResult | None) -> str:
    if result is None or result.entered_by is None:
        return ""
    user = result.entered_by
    return user.get_full_name() or user.get_username()


def save_board(
    *,
    match: Match,
    board: int,
    room: str,
    text: str,
    version: int,
    user: Any,
    now: datetime,
    confirm: bool = False,
    source: str = "",
) -> Saved:
    """Stores one room's result of one board (``text`` empty: clears it).

    ``version`` is the version the editor saw (0: no result yet); a different stored version
    raises :class:`BoardConflict` with both values — never a silent overwrite. A board removed
    for lateness (R12.9) or of a segment entered as totals takes no result."""
    if room not in ROOMS:
        raise ServiceError(_("A room is open or closed, not %(room)s.") % {"room": room})
    text = (text or "").strip()
    parsed = parse_text(text) if text else None
    with transaction.atomic():
        match = locked(match)
        _playable(match)
        view = _view(match)
        if match.status == MatchStatus.WALKOVER or view.facts.absent:
            raise ServiceError(
                _("Match %(code)s was decided without play (R15.2).") % {"code": match.code}
            )
        seg = _segment_of(view, board)
        if seg.segment.has_totals:
            raise ServiceError(
                _(
                    "Segment %(number)s is entered as totals from the scorecards; clear the totals "
                    "to enter its boards."
                )
                % {"number": seg.segment.number}
            )
        if board in seg.removed:
            raise ServiceError(
                _("Board %(board)s was removed for lateness (R12.9) and takes no result.")
                % {"board": board},
                field=f"{room}-{board}",
            )
        current = view.facts.results.get((board, room))
        stored_version = current.version if current is not None else 0
        new_text = normalised(parsed) if parsed is not None else ""
        if stored_version != version:
            theirs = current.text if current is not None else ""
            if theirs != new_text:
                raise BoardConflict(
                    board=board,
                    room=room,
                    yours=new_text,
                    theirs=theirs,
                    by=_who(current),
                    version=stored_version,
                )
        if current is not None and current.text == new_text:
            return Saved(current, match, view)  # nothing changes
        if current is None and parsed is None:
            return Saved(None, match, view)
        mark = _mark(match, view)
        before = {"text": current.text, "version": current.version} if current else {}
        if current is not None and (current.auction or current.play):
            before |= {"auction": current.auction, "play": current.play}
        if parsed is None:
            assert current is not None
            current.delete()
            result = None
            after: dict[str, Any] = {}
        else:
            if current is None:
                result = BoardResult(match=match, board=board, room=room, version=1)
            else:
                result = current
                result.version = current.version + 1
            result.text = new_text
            result.auction = result.play = ""  # they were the old result's
            result.ns_score = ns_score(parsed, board)
            result.entered_by = user if getattr(user, "is_authenticated", False) else None
            result.entered_at = now
            result.save()
            after = {"text": result.text, "ns_score": result.ns_score, "version": result.version}
        facts = view.facts  # loaded under the lock: only this board's room changed
        if result is None:
            facts.results.pop((board, room), None)
        else:
            facts.results[(board, room)] = result
        view = _changed(
            match,
            mark,
            action="bridgeko.board.saved" if result is not None else "bridgeko.board.cleared",
            before=before | {"board": board, "room": room},
            after=after | {"board": board, "room": room} | ({"source": source} if source else {}),
            summary=Message(
                N_("%(match)s, board %(board)s, %(room)s room: %(text)s"),
                {"match": match.code, "board": board, "room": room, "text": new_text or "—"},
            ),
            user=user,
            now=now,
            confirm=confirm,
            facts=facts,
        )
    return Saved(result, match, view)


def set_play_record(*, match: Match, board: int, room: str, auction: str, play: str) -> bool:
    """Stores the auction and the play a file gave for a stored result (inside the caller's
    transaction, which audits the import); True when they changed."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("set_play_record runs inside the caller's transaction")
    changed = BoardResult.objects.filter(match=match, board=board, room=room).exclude(
        auction=auction, play=play
    )
    return changed.update(auction=auction, play=play) > 0


# ---------------------------------------------------------------------------------------------
# Segment totals from the scorecards


def set_segment_totals(
    *,
    segment: Segment,
    home_imps: int | None,
    visitors_imps: int | None,
    user: Any,
    now: datetime,
    confirm: bool = False,
) -> Segment:
    """The IMPs of a segment when only the scorecards are at hand (both None: cleared, the
    boards count again). Refused while boards of the segment are entered one by one."""
    if (home_imps is None) != (visitors_imps is None):
        raise ServiceError(_("Give the IMPs of both teams, or neither."))
    for value in (home_imps, visitors_imps):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < 0
        ):
            raise ServiceError(_("IMPs are a whole number, 0 or more."))
    with transaction.atomic():
        match = locked(segment.match)
        _playable(match)
        segment = Segment.objects.get(pk=segment.pk)
        most = MAX_IMPS * len(segment.board_numbers)
        for field_name, value in (("home_imps", home_imps), ("visitors_imps", visitors_imps)):
            if value is not None and value > most:
                raise ServiceError(
                    _(
                        "At most %(most)s IMPs in segment %(number)s: %(boards)s boards of at "
                        "most %(each)s IMPs each."
                    )
                    % {
                        "most": most,
                        "number": segment.number,
                        "boards": len(segment.board_numbers),
                        "each": MAX_IMPS,
                    },
                    field=field_name,
                )
        facts = match_state.load(match)
        boards = [n for n in segment.board_numbers for room in ROOMS if (n, room) in facts.results]
        if boards and home_imps is not None:
            raise ServiceError(
                _(
                    "Boards of segment %(number)s are entered one by one (%(count)s results); "
                    "the totals come from them."
                )
                % {"number": segment.number, "count": len(boards)}
            )
        before = snapshot(segment, ["home_imps", "visitors_imps"])
        mark = _mark(match, _view(match, facts))
        segment.home_imps, segment.visitors_imps = home_imps, visitors_imps
        segment.save(update_fields=["home_imps", "visitors_imps"])
        _changed(
            match,
            mark,
            action="bridgeko.segment.totals",
            before=before | {"segment": segment.number},
            after=snapshot(segment, ["home_imps", "visitors_imps"]) | {"segment": segment.number},
            summary=Message(
                N_("%(match)s, segment %(number)s: %(home)s:%(visitors)s IMPs"),
                {
                    "match": match.code,
                    "number": segment.number,
                    "home": "—" if home_imps is None else home_imps,
                    "visitors": "—" if visitors_imps is None else visitors_imps,
                },
            ),
            user=user,
            now=now,
            confirm=confirm,
            facts=_with_segment(facts, segment),
        )
    return segment


def close_segment(
    *, segment: Segment, reason: str, user: Any, now: datetime, confirm: bool = False
) -> Segment:
    """The TD closes a segment whose missing boards were not played (they score nothing)."""
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Give the reason."), field="reason")
    with transaction.atomic():
        match = locked(segment.match)
        segment = Segment.objects.get(pk=segment.pk)
        view = _view(match)
        seg = next(s for s in view.segments if s.segment.pk == segment.pk)
        mark = _mark(match, view)
        segment.closed_at = now
        segment.save(update_fields=["closed_at"])
        _changed(
            match,
            mark,
            action="bridgeko.segment.closed",
            before={"segment": segment.number, "missing": seg.missing},
            after={"segment": segment.number, "closed_at": now, "reason": reason},
            summary=Message(
                N_("%(match)s, segment %(number)s closed: %(reason)s"),
                {"match": match.code, "number": segment.number, "reason": reason},
            ),
            user=user,
            now=now,
            confirm=confirm,
            facts=_with_segment(view.facts, segment),
        )
    return segment


# ---------------------------------------------------------------------------------------------
# Penalties and adjustments (R12.8, R12.9, I6, I13)


PENALTY_FIELDS = (
    "segment",
    "kind",
    "side",
    "boards",
    "minutes",
    "imps",
    "reason",
    "withdrawn_at",
    "withdrawn_reason",
)


def add_penalty(
    *,
    match: Match,
    segment: int,
    kind: str,
    side: str,
    reason: str,
    user: Any,
    now: datetime,
    boards: int | None = None,
    minutes: int | None = None,
    imps: int | None = None,
    confirm: bool = False,
) -> Penalty:
    """Records a slow-play penalty (``boards``), a lateness (``minutes``; ``boards`` when the
    TD removes another number than the computed one, I6) or an adjustment (``imps``), each with
    a reason; the engine checks it against the match before it is saved."""
    if kind not in PenaltyKind.values:
        raise ServiceError(_("Unknown kind of penalty: %(kind)s.") % {"kind": kind}, field="kind")
    if side not in SIDES:
        raise ServiceError(_("Choose the team."), field="side")
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give the reason."), field="reason")
    if kind == PenaltyKind.SLOW_PLAY and boards is None:
        raise ServiceError(_("Give the number of boards not played in time."), field="boards")
    if kind == PenaltyKind.LATENESS and minutes is None:
        raise ServiceError(_("Give the minutes late."), field="minutes")
    if kind == PenaltyKind.ADJUSTMENT and not imps:
        raise ServiceError(_("Give the IMPs (negative to deduct)."), field="imps")
    with transaction.atomic():
        match = locked(match)
        _playable(match)
        facts = match_state.load(match)
        numbers = {s.number for s in facts.segments}
        if segment not in numbers:
            raise ServiceError(
                _("Match %(code)s has no segment %(number)s.")
                % {"code": match.code, "number": segment},
                field="segment",
            )
        penalty = Penalty(
            match=match,
            segment=segment,
            kind=kind,
            side=side,
            boards=boards if kind != PenaltyKind.ADJUSTMENT else None,
            minutes=minutes if kind == PenaltyKind.LATENESS else None,
            imps=imps if kind == PenaltyKind.ADJUSTMENT else None,
            reason=reason,
            created_by=user if getattr(user, "is_authenticated", False) else None,
            created_at=now,
        )
        match_state.compute(facts, match.edition.regulations, penalties=[*facts.penalties, penalty])
        mark = _mark(match, _view(match, facts))
        penalty.save()
        facts.penalties = sorted([*facts.penalties, penalty], key=_stored_order)
        _changed(
            match,
            mark,
            action="bridgeko.penalty.added",
            after=snapshot(penalty, PENALTY_FIELDS),
            summary=Message(
                N_("%(match)s, segment %(number)s: %(kind)s (%(side)s) — %(reason)s"),
                {
                    "match": match.code,
                    "number": segment,
                    "kind": str(PenaltyKind(kind).label),
                    "side": side,
                    "reason": reason,
                },
            ),
            user=user,
            now=now,
            confirm=confirm,
            facts=facts,
        )
    return penalty


def withdraw_penalty(
    *, penalty: Penalty, reason: str, user: Any, now: datetime, confirm: bool = False
) -> Penalty:
    """Withdraws a penalty or adjustment (kept, with the reason; it no longer counts)."""
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError(_("Give the reason."), field="reason")
    with transaction.atomic():
        match = locked(penalty.match)
        penalty = Penalty.objects.get(pk=penalty.pk)
        if penalty.withdrawn_at is not None:
            raise ServiceError(_("This penalty has been withdrawn already."))
        facts = match_state.load(match)
        match_state.compute(
            facts,
            match.edition.regulations,
            penalties=[p for p in facts.penalties if p.pk != penalty.pk],
        )
        before = snapshot(penalty, PENALTY_FIELDS)
        mark = _mark(match, _view(match, facts))
        penalty.withdrawn_at = now
        penalty.withdrawn_reason = reason
        penalty.save(update_fields=["withdrawn_at", "withdrawn_reason"])
        facts.penalties = [p for p in facts.penalties if p.pk != penalty.pk]
        facts.withdrawn = sorted([*facts.withdrawn, penalty], key=_stored_order)
        _changed(
            match,
            mark,
            action="bridgeko.penalty.withdrawn",
            before=before,
            after=snapshot(penalty, PENALTY_FIELDS),
            summary=Message(
                N_("%(match)s: penalty withdrawn — %(reason)s"),
                {"match": match.code, "reason": reason},
            ),
            user=user,
            now=now,
            confirm=confirm,
            facts=facts,
        )
    return penalty


# ---------------------------------------------------------------------------------------------
# The end of a segment in each room (I15): the appeal deadline runs from it, and the deals of a
# computer-dealt set stay secret until the segment has ended in both rooms.


def mark_room_end(
    *, segment: Segment, room: str, at: datetime | None, user: Any, now: datetime
) -> Segment:
    """The TD records that the last board of ``segment`` was completed in ``room`` at ``at``
    (None clears a mistaken record). The time cannot lie in the future."""
    if room not in ROOMS:
        raise ServiceError(_("Unknown room."), field="room")
    if at is not None and at > now:
        raise ServiceError(_("The end of a segment cannot lie in the future."), field="at")
    field = f"{room}_ended_at"
    with transaction.atomic():
        match = locked(segment.match)
        segment = Segment.objects.get(pk=segment.pk)
        before = getattr(segment, field)
        if before == at:
            return segment
        setattr(segment, field, at)
        segment.save(update_fields=[field])
        match.version += 1
        match.updated_at = now
        match.save(update_fields=["version", "updated_at"])
        record(
            "bridgeko.segment.room_ended",
            user=user,
            edition=match.edition,
            obj=match,
            before={"segment": segment.number, "room": room, "ended_at": before},
            after={"segment": segment.number, "room": room, "ended_at": at},
            summary=Message(
                N_("%(match)s, segment %(number)s: end in the open room recorded")
                if room == "open"
                else N_("%(match)s, segment %(number)s: end in the closed room recorded"),
                {"match": match.code, "number": segment.number},
            ),
            at=now,
        )
    return segment
