"""The match record from the captains (R14.2b, issue 21): the winning team's captain submits the
result — the segment totals from the scorecards, or every board's result in both rooms — with a
picture or a PDF of the signed scorecards; the opponents' captain confirms or disputes it; the
TD approves it (the results are then stored through :func:`services.set_segment_totals` or
:func:`services.save_board`, so the bracket moves on) or rejects it with a reason.

Until approved a record is *provisional*: nothing of it is a result of the match, nothing moves
the bracket; :func:`provisional_score` is what the pages show as such. A record received after
the deadline of R14.2b (13:00 on the day of the round's last match) is marked late for the TD
(the regulations fix no sanction: the TD decides, and the decision is recorded with the
approval or the rejection).

Refused with a message, nothing changed: a match whose teams are not known, that is over or
whose results the TD has entered; a second record while one waits; totals or results missing
for a segment or a board; a result the Laws do not allow; totals that contradict the boards; a
tie (an extra segment is played first, R12.5); a record of the team that did not win (R14.2b:
the winning team delivers it); scorecards that are not a PDF, PNG or JPEG, or too large."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext as _

from bridgeko.audit.services import record as audit
from bridgeko.bridge.board import vulnerability
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.bridge.scoring import MAX_IMPS, imps, result_score
from bridgeko.competition import schedule
from bridgeko.competition.messages import N_, Message
from bridgeko.core import l10n
from bridgeko.core.errors import ServiceError
from bridgeko.core.events import emit
from bridgeko.entries import cards
from bridgeko.matches import match_admin, services
from bridgeko.matches.models import (
    ROOMS,
    BoardResult,
    Match,
    MatchStatus,
    RecordStatus,
    RecordSubmission,
    Segment,
)

__all__ = [
    "MAX_BOARD_IMPS",
    "WAITING",
    "answer_deadline",
    "approve",
    "board_rows",
    "confirm",
    "dispute",
    "pending",
    "provisional_score",
    "reject",
    "revoke",
    "submit",
    "unanswered_too_long",
]

WAITING = (RecordStatus.SUBMITTED, RecordStatus.CONFIRMED, RecordStatus.DISPUTED)
MAX_BOARD_IMPS = MAX_IMPS
"""The most IMPs one board can give (the top of the IMP scale): a segment's totals are bounded
by its boards."""
OPEN = (MatchStatus.TO_PLAY, MatchStatus.IN_PROGRESS, MatchStatus.EXTRA_SEGMENT_REQUIRED)


def pending(match: Match) -> RecordSubmission | None:
    """The record that waits (for the opponents or the TD), if any."""
    return (
        RecordSubmission.objects.filter(match=match, status__in=WAITING)
        .order_by("-submitted_at", "-id")
        .first()
    )


def _board_imps(totals: Mapping[tuple[int, str], str]) -> dict[int, int]:
    """Board -> IMPs to the home team, for the boards played in both rooms."""
    out: dict[int, int] = {}
    for (board, room), text in totals.items():
        if room != "open" or (board, "closed") not in totals:
            continue
        vul = vulnerability(board)
        open_score = result_score(services.parse_text(text), vul)
        closed_score = result_score(services.parse_text(totals[(board, "closed")]), vul)
        out[board] = imps(open_score - closed_score)
    return out


def _segment_sums(
    segments: list[Segment], results: Mapping[tuple[int, str], str]
) -> dict[int, tuple[int, int]]:
    per_board = _board_imps(results)
    sums: dict[int, tuple[int, int]] = {}
    for seg in segments:
        home = sum(max(per_board.get(b, 0), 0) for b in seg.board_numbers)
        visitors = sum(max(-per_board.get(b, 0), 0) for b in seg.board_numbers)
        sums[seg.number] = (home, visitors)
    return sums


def provisional_score(submission: RecordSubmission) -> tuple[int, int]:
    """The IMPs of the record (home, visitors): its totals, or the sums of its boards."""
    if submission.totals:
        home = sum(int(v[0]) for v in submission.totals.values())
        visitors = sum(int(v[1]) for v in submission.totals.values())
        return home, visitors
    results = {(int(k.split()[0]), k.split()[1]): v for k, v in submission.boards.items()}
    segments = list(Segment.objects.filter(match=submission.match))
    sums = _segment_sums(segments, results)
    return sum(h for h, _v in sums.values()), sum(v for _h, v in sums.values())


def board_rows(submission: RecordSubmission) -> list[tuple[int, str, str, int | None]]:
    """The record's boards: (board, open room, closed room, IMPs to the home team)."""
    results = {(int(k.split()[0]), k.split()[1]): v for k, v in submission.boards.items()}
    per_board = _board_imps(results)
    return [
        (b, results.get((b, "open"), ""), results.get((b, "closed"), ""), per_board.get(b))
        for b in sorted({b for b, _room in results})
    ]


def _check_scorecards(data: bytes, filename: str) -> cards.CardKind:
    limit = int(getattr(settings, "BRIDGEKO_CARD_MAX_BYTES", cards.DEFAULT_MAX_BYTES))
    if not data:
        raise ServiceError(_("Attach the signed scorecards."), field="scorecards")
    if len(data) > limit:
        raise ServiceError(
            _("The scorecards file is too large (at most %(max)s MB).")
            % {"max": limit // (1024 * 1024)},
            field="scorecards",
        )
    kind = cards.sniff(data[:16])
    if kind is None:
        raise ServiceError(
            _("%(name)s is not a PDF, PNG or JPEG picture of the scorecards.")
            % {"name": filename or "?"},
            field="scorecards",
        )
    return kind


def _read_boards(
    segments: list[Segment], boards: Mapping[tuple[int, str], str]
) -> dict[tuple[int, str], str]:
    out: dict[tuple[int, str], str] = {}
    errors: list[str] = []
    for seg in segments:
        for board in seg.board_numbers:
            for room, label in ROOMS:
                text = (boards.get((board, room)) or "").strip()
                if not text:
                    errors.append(
                        _("Board %(board)s, %(room)s: no result.") % {"board": board, "room": label}
                    )
                    continue
                try:
                    out[(board, room)] = services.normalised(services.parse_text(text))
                except (ServiceError, BridgeInputError) as exc:
                    errors.append(
                        _("Board %(board)s, %(room)s: %(error)s")
                        % {"board": board, "room": label, "error": getattr(exc, "message", exc)}
                    )
    if errors:
        raise ServiceError(_("The results are not complete or not valid."), errors=errors)
    return out


def submit(
    *,
    match: Match,
    side: str,
    scorecards: bytes,
    filename: str,
    user: Any,
    now: datetime,
    totals: Mapping[int, tuple[int, int]] | None = None,
    boards: Mapping[tuple[int, str], str] | None = None,
    note: str = "",
) -> RecordSubmission:
    """The winning team's record: ``totals`` (segment -> IMPs home, visitors) and/or ``boards``
    ((board, room) -> quick text) of every segment, and the scorecards' file."""
    if side not in ("home", "visitors"):
        raise ServiceError(_("A side is home or visitors."))
    if not totals and not boards:
        raise ServiceError(_("Give the segment totals or the boards' results."))
    kind = _check_scorecards(scorecards, filename)
    note = (note or "").strip()
    with transaction.atomic():
        match = services.locked(match)
        if match.home_id is None or match.visitors_id is None:
            raise ServiceError(
                _("The teams of match %(code)s are not known yet.") % {"code": match.code}
            )
        if match.status not in OPEN:
            raise ServiceError(_("Match %(code)s is over.") % {"code": match.code})
        if (
            BoardResult.objects.filter(match=match).exists()
            or Segment.objects.filter(match=match, home_imps__isnull=False).exists()
        ):
            raise ServiceError(
                _("The TD has entered results of match %(code)s: the record goes to the TD.")
                % {"code": match.code}
            )
        if pending(match) is not None:
            raise ServiceError(
                _("A record of match %(code)s waits already; withdraw it to submit another.")
                % {"code": match.code}
            )
        segments = list(Segment.objects.filter(match=match).order_by("number"))
        stored_totals: dict[str, list[int]] = {}
        if totals:
            for seg in segments:
                pair = totals.get(seg.number)
                if pair is None:
                    raise ServiceError(
                        _("Give the totals of segment %(number)s.") % {"number": seg.number},
                        field="totals",
                    )
                home, visitors = pair
                most = MAX_BOARD_IMPS * len(seg.board_numbers)
                for value in (home, visitors):
                    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                        raise ServiceError(_("IMPs are a whole number, 0 or more."), field="totals")
                    if value > most:
                        raise ServiceError(
                            _(
                                "Segment %(number)s has %(boards)s boards: at most %(most)s "
                                "IMPs to a team."
                            )
                            % {
                                "number": seg.number,
                                "boards": len(seg.board_numbers),
                                "most": most,
                            },
                            field="totals",
                        )
                stored_totals[str(seg.number)] = [home, visitors]
        results: dict[tuple[int, str], str] = {}
        if boards:
            results = _read_boards(segments, boards)
            sums = _segment_sums(segments, results)
            if totals:
                wrong = [n for n, pair in sums.items() if tuple(stored_totals[str(n)]) != pair]
                if wrong:
                    raise ServiceError(
                        _(
                            "The totals contradict the boards in segment %(segments)s: the "
                            "boards give %(given)s."
                        )
                        % {
                            "segments": ", ".join(str(n) for n in wrong),
                            "given": "; ".join(f"{n}: {sums[n][0]}:{sums[n][1]}" for n in wrong),
                        },
                        field="totals",
                    )
        submission = RecordSubmission(
            match=match,
            side=side,
            submitted_by=user if getattr(user, "pk", None) else None,
            submitted_at=now,
            totals=stored_totals,
            boards={f"{b} {r}": t for (b, r), t in sorted(results.items())},
            note=note,
        )
        home, visitors = provisional_score(submission)
        if home == visitors:
            raise ServiceError(
                _(
                    "The record is a tie (%(home)s:%(visitors)s): an extra segment is played "
                    "first (R12.5)."
                )
                % {"home": home, "visitors": visitors}
            )
        winner = "home" if home > visitors else "visitors"
        if winner != side:
            raise ServiceError(_("The winning team delivers the match record (R14.2b)."))
        _normal, last = match_admin.normal_dates(match)
        if last is not None:
            submission.late = not schedule.record_in_time(now, last, match.edition.regulations)
        submission.scorecards.save(
            f"{match.edition.slug}-{match.code}-{now:%Y%m%d%H%M%S}.{kind.extension}",
            ContentFile(scorecards),
            save=False,
        )
        submission.save()
        _audit("bridgeko.record.submitted", submission, user, now)
        emit("record.submitted", submission=submission, user=user)
    return submission


def _audit(action: str, sub: RecordSubmission, user: Any, now: datetime) -> None:
    home, visitors = provisional_score(sub)
    audit(
        action,
        user=user,
        edition=sub.match.edition,
        obj=sub.match,
        after={
            "record": sub.pk,
            "side": sub.side,
            "totals": sub.totals,
            "boards": sub.boards,
            "status": sub.status,
            "late": sub.late,
            "dispute": sub.dispute,
            "decision_note": sub.decision_note,
            "auto_approved": sub.auto_approved,
            "scorecards": sub.scorecards.name,
        },
        summary=Message(
            {
                "bridgeko.record.submitted": N_("%(match)s: match record submitted (%(score)s)"),
                "bridgeko.record.revoked": N_("%(match)s: match record withdrawn"),
                "bridgeko.record.confirmed": N_("%(match)s: match record confirmed (%(score)s)"),
                "bridgeko.record.disputed": N_("%(match)s: match record disputed"),
                "bridgeko.record.approved": N_("%(match)s: match record approved (%(score)s)"),
                "bridgeko.record.rejected": N_("%(match)s: match record rejected"),
            }[action],
            {"match": sub.match.code, "score": f"{home}:{visitors}"},
        ),
        at=now,
    )


def _fresh(sub: RecordSubmission, statuses: tuple[str, ...]) -> RecordSubmission:
    fresh = RecordSubmission.objects.select_for_update().get(pk=sub.pk)
    if fresh.status not in statuses:
        raise ServiceError(
            _("This record was answered or withdrawn meanwhile (%(status)s).")
            % {"status": fresh.get_status_display()}
        )
    return fresh


def revoke(*, submission: RecordSubmission, side: str, user: Any, now: datetime) -> None:
    """The submitting captain withdraws the record while the opponents have not answered."""
    with transaction.atomic():
        services.locked(submission.match)
        sub = _fresh(submission, (RecordStatus.SUBMITTED,))
        if side != sub.side:
            raise ServiceError(_("Only the team that submitted the record may withdraw it."))
        sub.status = RecordStatus.REVOKED
        sub.save(update_fields=["status"])
        _audit("bridgeko.record.revoked", sub, user, now)
        emit("record.decided", submission=sub, user=user)


def _answer(
    submission: RecordSubmission, side: str, user: Any, now: datetime, status: str, note: str
) -> RecordSubmission:
    with transaction.atomic():
        services.locked(submission.match)
        sub = _fresh(submission, (RecordStatus.SUBMITTED,))
        if side == sub.side:
            raise ServiceError(_("The opponents answer a record, not the team that submitted it."))
        sub.status = status
        sub.answered_by = user if getattr(user, "pk", None) else None
        sub.answered_at = now
        sub.dispute = note
        sub.save(update_fields=["status", "answered_by", "answered_at", "dispute"])
        action = (
            "bridgeko.record.confirmed"
            if status == RecordStatus.CONFIRMED
            else "bridgeko.record.disputed"
        )
        _audit(action, sub, user, now)
        if (
            status == RecordStatus.CONFIRMED
            and not sub.late
            and sub.match.edition.regulations.schedule.record_auto_approve
        ):
            # the edition's rule: a confirmed record in time needs no TD (a late one does)
            _store(sub.match, sub, user, now)
            sub.status = RecordStatus.APPROVED
            sub.auto_approved = True
            sub.decided_at = now
            sub.save(update_fields=["status", "auto_approved", "decided_at"])
            _audit("bridgeko.record.approved", sub, user, now)
        emit("record.answered", submission=sub, user=user)
    return sub


def confirm(
    *, submission: RecordSubmission, side: str, user: Any, now: datetime
) -> RecordSubmission:
    """The opponents' captain confirms the record: it waits for the TD's approval."""
    return _answer(submission, side, user, now, RecordStatus.CONFIRMED, "")


def dispute(
    *, submission: RecordSubmission, side: str, note: str, user: Any, now: datetime
) -> RecordSubmission:
    """The opponents' captain disputes the record, saying why: the TD decides."""
    note = (note or "").strip()
    if not note:
        raise ServiceError(_("Say what is wrong with the record."), field="note")
    return _answer(submission, side, user, now, RecordStatus.DISPUTED, note)


def answer_deadline(submission: RecordSubmission) -> schedule.Deadline:
    """When the opponents' confirmation or dispute is due (the edition's hours)."""
    return schedule.record_answer_deadline(
        submission.submitted_at, submission.match.edition.regulations
    )


def unanswered_too_long(submission: RecordSubmission, now: datetime) -> bool:
    """The opponents have not answered the record in time: the TD may decide on it alone."""
    return submission.status == RecordStatus.SUBMITTED and not answer_deadline(submission).met_by(
        now
    )


def _store(match: Match, sub: RecordSubmission, user: Any, now: datetime) -> None:
    """The record's results become the match's (through the TD's own services)."""
    segments = {s.number: s for s in Segment.objects.filter(match=match)}
    if not sub.boards:
        for number, (home, visitors) in sorted((int(k), v) for k, v in sub.totals.items()):
            services.set_segment_totals(
                segment=segments[number],
                home_imps=int(home),
                visitors_imps=int(visitors),
                user=user,
                now=now,
                confirm=True,
            )
    for key, text in sorted(sub.boards.items(), key=lambda kv: int(kv[0].split()[0])):
        board, room = key.split()
        services.save_board(
            match=match,
            board=int(board),
            room=room,
            text=text,
            version=0,
            user=user,
            now=now,
            confirm=True,
            source="record",
        )


def approve(
    *, submission: RecordSubmission, user: Any, now: datetime, note: str = ""
) -> RecordSubmission:
    """The TD approves the record: its results are stored (the bracket moves on). A record the
    opponents have not answered is approved only once their time is over."""
    with transaction.atomic():
        match = services.locked(submission.match)
        sub = _fresh(submission, WAITING)
        if sub.status == RecordStatus.SUBMITTED and not unanswered_too_long(sub, now):
            raise ServiceError(
                _(
                    "The opponents may still confirm or dispute the record (until %(at)s); "
                    "reject it, or approve it after that."
                )
                % {"at": l10n.show_datetime(answer_deadline(sub).at)}
            )
        _store(match, sub, user, now)
        sub.status = RecordStatus.APPROVED
        sub.decided_by = user if getattr(user, "pk", None) else None
        sub.decided_at = now
        sub.decision_note = (note or "").strip()
        sub.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
        _audit("bridgeko.record.approved", sub, user, now)
        emit("record.decided", submission=sub, user=user)
    return sub


def reject(
    *, submission: RecordSubmission, user: Any, now: datetime, note: str
) -> RecordSubmission:
    """The TD rejects the record, saying why (nothing is stored)."""
    note = (note or "").strip()
    if not note:
        raise ServiceError(_("Give the reason for the rejection."), field="note")
    with transaction.atomic():
        services.locked(submission.match)
        sub = _fresh(submission, WAITING)
        sub.status = RecordStatus.REJECTED
        sub.decided_by = user if getattr(user, "pk", None) else None
        sub.decided_at = now
        sub.decision_note = note
        sub.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
        _audit("bridgeko.record.rejected", sub, user, now)
        emit("record.decided", submission=sub, user=user)
    return sub
