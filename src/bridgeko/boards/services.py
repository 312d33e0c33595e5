"""Every write to the boards of a segment: committing a seed, making the set from it, loading
the deals played from a PBN file, (re)starting the double-dummy analysis. One
``transaction.atomic`` and one audit entry each; **an audit entry never holds a deal, a hand or
the seed** (the commitment, event, session and board numbers are public and enough to undo).

The analysis itself (:func:`analyse_set`) runs in the background (:mod:`bridgeko.core.
background`), never in a request: board by board, each board saved when it is done, so the
progress is the number of boards with a table."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bridgeko.audit.services import record
from bridgeko.boards import handrecords
from bridgeko.boards.models import BoardDeal, DealSet, SetSource
from bridgeko.bridge import commit_reveal, dealing, pbn
from bridgeko.bridge.board import dealer, vulnerability
from bridgeko.bridge.cards import Deal, Seat
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.competition.messages import N_, Message
from bridgeko.competition.regulations import Stage
from bridgeko.core import background, events
from bridgeko.core.errors import ServiceError
from bridgeko.matches.models import BoardResult, LineUp, Segment

MAX_PBN_BYTES = 1_000_000
"""The largest PBN file of deals read (1 MB)."""

STALE_AFTER = timedelta(minutes=10)
"""An analysis started this long ago and not finished is taken as dead (its process stopped):
the organiser may restart it (a set of 36 boards takes some 4 seconds)."""


# ---------------------------------------------------------------------------------------------
# Reading the state


def is_computer_dealt(segment: Segment) -> bool:
    """The segment's stage has computer-dealt boards (R12.7: ``match.screens_stages``)."""
    try:
        stage = Stage(segment.match.stage)
    except ValueError:
        return False
    return stage in segment.match.edition.regulations.match.screens_stages


def default_event(segment: Segment) -> str:
    return str(segment.match.edition.name)


def default_session(segment: Segment) -> str:
    """``QF1-S2``: the match's code and the segment's number."""
    return f"{segment.match.code}-S{segment.number}"


def started(segment: Segment) -> bool:
    """The segment has started: the TD started it, or a line-up or a result of it exists."""
    if segment.started_at is not None or segment.has_totals:
        return True
    if LineUp.objects.filter(segment=segment).exists():
        return True
    return BoardResult.objects.filter(
        match_id=segment.match_id, board__gte=segment.first_board, board__lte=segment.last_board
    ).exists()


def set_of(segment: Segment) -> DealSet | None:
    return DealSet.objects.filter(segment=segment).first()


@dataclass(frozen=True)
class Progress:
    """How far the analysis of a set is."""

    done: int
    total: int
    running: bool
    stale: bool
    error: str

    @property
    def finished(self) -> bool:
        return self.total > 0 and self.done == self.total


def progress(deal_set: DealSet, *, now: datetime | None = None) -> Progress:
    total = deal_set.boards.count()
    done = deal_set.boards.filter(dd__isnull=False).count()
    now = now or timezone.now()
    running = (
        deal_set.analysis_started_at is not None
        and deal_set.analysis_finished_at is None
        and not deal_set.analysis_error
        and done < total
    )
    stale = (
        running
        and deal_set.analysis_started_at is not None
        and (now - deal_set.analysis_started_at > STALE_AFTER)
    )
    return Progress(done, total, running and not stale, stale, deal_set.analysis_error)


def status(segment: Segment, deal_set: DealSet | None, *, now: datetime | None = None) -> str:
    """none / committed / made / analysing / analysed / ended / revealed (for the staff list)."""
    if deal_set is None:
        return "none"
    if segment.ended_at is not None:
        return "revealed" if deal_set.source == SetSource.DEALT else "ended"
    if deal_set.made_at is None:
        return "committed"
    p = progress(deal_set, now=now)
    return "analysed" if p.finished else "made"


def _line(deal_set: DealSet) -> str:
    return str(deal_set.segment)


# ---------------------------------------------------------------------------------------------
# Confirmation


class ReplaceNeeded(ServiceError):
    """The segment has a set already: what would be lost (``errors``); the same call with
    ``replace=True`` goes ahead."""


def _what_is_lost(deal_set: DealSet) -> list[str]:
    lines = []
    if deal_set.source == SetSource.DEALT:
        lines.append(
            _("The published commitment %(commitment)s (event “%(event)s”, session “%(session)s”).")
            % {
                "commitment": deal_set.commitment,
                "event": deal_set.event,
                "session": deal_set.session,
            }
        )
    count = deal_set.boards.count()
    if count:
        lines.append(
            ngettext(
                "The deals of %(count)s board and their analysis.",
                "The deals of %(count)s boards and their analysis.",
                count,
            )
            % {"count": count}
        )
    return lines


def _refuse_started(segment: Segment) -> None:
    if started(segment):
        raise ServiceError(
            _(
                "Segment %(number)s of %(match)s has started (line-ups or results exist): its set "
                "of boards can no longer be committed or replaced (R12.7)."
            )
            % {"number": segment.number, "match": segment.match.code}
        )


def _locked_segment(segment: Segment) -> Segment:
    seg = Segment.objects.select_related("match__edition").get(pk=segment.pk)
    # the match row locked: one write to a match at a time (matches.services.locked)
    type(seg.match).objects.select_for_update().filter(pk=seg.match_id).first()
    return seg


def _by(user: Any) -> Any:
    """The user to store as who made a set (none for a command run without ``--user``)."""
    return user if getattr(user, "is_authenticated", False) else None


def _replace_needed(segment: Segment, old: DealSet) -> ReplaceNeeded:
    return ReplaceNeeded(
        _("Segment %(number)s has a set of boards already; replacing it loses:")
        % {"number": segment.number},
        errors=_what_is_lost(old),
    )


def _drop(old: DealSet | None) -> dict[str, Any]:
    """Deletes the set being replaced, if any; its summary for the audit's ``before``."""
    before = _set_summary(old)
    if old is not None:
        old.delete()
    return before


def _record(
    action: str,
    segment: Segment,
    summary: str,
    *,
    user: Any,
    now: datetime,
    after: dict[str, Any],
    before: dict[str, Any] | None = None,
    **values: Any,
) -> None:
    """The audit entry of a set action on ``segment``'s match; ``summary`` (``N_``) gets the
    match code and segment number besides ``values``."""
    record(
        action,
        user=user,
        edition=segment.match.edition,
        obj=segment.match,
        before=before,
        after=after,
        summary=Message(summary, {"match": segment.match.code, "number": segment.number, **values}),
        at=now,
    )


def _set_summary(deal_set: DealSet | None) -> dict[str, Any]:
    """What the audit keeps of a set: public facts only (never the seed, never a deal)."""
    if deal_set is None:
        return {}
    return {
        "source": deal_set.source,
        "commitment": deal_set.commitment,
        "event": deal_set.event,
        "session": deal_set.session,
        "boards": deal_set.boards.count(),
        "made_at": deal_set.made_at,
    }


# ---------------------------------------------------------------------------------------------
# Commit, make


def commit_set(
    *,
    segment: Segment,
    event: str,
    session: str,
    user: Any,
    now: datetime,
    by_agreement: bool = False,
    reason: str = "",
    replace: bool = False,
    seed: bytes | None = None,
) -> DealSet:
    """A new secret seed for the segment's computer-dealt set (R12.7, I8): its commitment is
    public at once, the seed stays secret until the segment has ended in both rooms.

    Only for a stage with computer-dealt boards, unless ``by_agreement`` (R12.7: other matches
    by agreement) with a ``reason``. A set the segment has already is replaced only with
    ``replace`` (else :class:`ReplaceNeeded` says what is lost), and never once the segment has
    started. ``seed`` is for the demo and the tests (a fixed seed); it must keep the seed rule."""
    event = " ".join((event or "").split())
    session = " ".join((session or "").split())
    reason = (reason or "").strip()
    if not event:
        raise ServiceError(_("Give the event's name."), field="event")
    if not session:
        raise ServiceError(_("Give the session."), field="session")
    if len(event) > 200 or len(session) > 100:
        raise ServiceError(_("The event or the session is too long."), field="event")
    with transaction.atomic():
        segment = _locked_segment(segment)
        computer = is_computer_dealt(segment)
        if not computer:
            if not by_agreement:
                raise ServiceError(
                    _(
                        "The boards of this stage are not computer-dealt (R12.7); tick “by "
                        "agreement” and give the reason to commit a set anyway."
                    ),
                    field="by_agreement",
                )
            if not reason:
                raise ServiceError(_("Give the reason."), field="reason")
        _refuse_started(segment)
        old = set_of(segment)
        if old is not None and not replace:
            raise _replace_needed(segment, old)
        before = _drop(old)
        secret = commit_reveal.check_seed(seed) if seed is not None else commit_reveal.new_seed()
        deal_set = DealSet.objects.create(
            segment=segment,
            source=SetSource.DEALT,
            seed=secret.hex(),
            commitment=commit_reveal.commitment(secret),
            event=event,
            session=session,
            committed_at=now,
            made_by=_by(user),
        )
        after = _set_summary(deal_set) | {"segment": segment.number}
        if not computer:
            after |= {"by_agreement": True, "reason": reason}
        _record(
            "bridgeko.dealset.committed",
            segment,
            N_("%(match)s, segment %(number)s: seed committed, %(commitment)s"),
            user=user,
            now=now,
            before=before,
            after=after,
            commitment=deal_set.commitment,
        )
    return deal_set


def deal_text(deal: Deal) -> str:
    """The stored value of a deal: the PBN Deal value from North."""
    return deal.to_pbn(Seat.NORTH)


def make_set(*, deal_set: DealSet, user: Any, now: datetime) -> DealSet:
    """The deals of the segment's boards from the committed seed
    (:func:`bridgeko.bridge.dealing.deal_set` of seed, event, session, boards); the analysis
    starts in the background after the commit. Refused once made (commit a new seed to
    replace it, before the segment starts)."""
    with transaction.atomic():
        deal_set = DealSet.objects.select_related("segment__match__edition").get(pk=deal_set.pk)
        segment = _locked_segment(deal_set.segment)
        if deal_set.source != SetSource.DEALT or not deal_set.seed:
            raise ServiceError(_("This set is not dealt from a seed."))
        if deal_set.made_at is not None:
            raise ServiceError(_("The set is made already."))
        boards = list(segment.board_numbers)
        deals = dealing.deal_set(
            commit_reveal.parse_seed(deal_set.seed), deal_set.event, deal_set.session, boards
        )
        BoardDeal.objects.bulk_create(
            BoardDeal(deal_set=deal_set, board=b, deal=deal_text(deals[b])) for b in boards
        )
        deal_set.made_at = now
        deal_set.made_by = _by(user)
        deal_set.analysis_started_at = None
        deal_set.analysis_finished_at = None
        deal_set.analysis_error = ""
        deal_set.save()
        _record(
            "bridgeko.dealset.made",
            segment,
            N_("%(match)s, segment %(number)s: set of %(count)s boards made"),
            user=user,
            now=now,
            after=_set_summary(deal_set)
            | {"segment": segment.number, "first": boards[0], "last": boards[-1]},
            count=len(boards),
        )
        background.after_commit(analyse_set, deal_set.pk)
    return deal_set


# ---------------------------------------------------------------------------------------------
# The deals played, from a PBN file


def _unreadable(exc: pbn.PbnError) -> ServiceError:
    return ServiceError(
        _("The file is not a PBN file that can be read: line %(line)s: %(problem)s")
        % {"line": exc.line, "problem": exc.reason},
        field="file",
    )


def _pbn_deals(data: bytes, segment: Segment) -> dict[int, Deal]:
    """Board -> deal from a PBN file of the segment (boards numbered as in the match, or from
    1); a :class:`ServiceError` naming the problem (and its line) otherwise."""
    if len(data) > MAX_PBN_BYTES:
        raise ServiceError(
            _("The file is too large (%(size)s kB; at most %(max)s kB).")
            % {"size": len(data) // 1000, "max": MAX_PBN_BYTES // 1000},
            field="file",
        )
    try:
        text = pbn.decode(data)
        games = pbn.parse(text).games
    except pbn.PbnError as exc:
        raise _unreadable(exc) from None
    except BridgeInputError as exc:
        raise ServiceError(
            _("The file cannot be read: %(problem)s") % {"problem": str(exc)}, field="file"
        ) from None
    found: dict[int, tuple[Deal, int]] = {}
    errors: list[str] = []
    for game in games:
        try:
            number, deal = game.board, game.deal
        except pbn.PbnError as exc:
            raise _unreadable(exc) from None
        if number is None or deal is None:
            continue
        if not deal.is_complete:
            errors.append(
                _("Line %(line)s: board %(board)s is not a complete deal.")
                % {"line": game.line, "board": number}
            )
            continue
        seen = found.get(number)
        if seen is not None and seen[0] != deal:
            errors.append(
                _(
                    "Line %(line)s: board %(board)s has another deal than on line %(first)s "
                    "(two different deals for one board)."
                )
                % {"line": game.line, "board": number, "first": seen[1]}
            )
            continue
        found.setdefault(number, (deal, game.line))
    if errors:
        raise ServiceError(_("The file's deals cannot be loaded."), field="file", errors=errors)
    if not found:
        raise ServiceError(_("The file holds no deal."), field="file")
    wanted = list(segment.board_numbers)
    numbers = set(found)
    if not numbers <= set(wanted) and numbers <= set(range(1, len(wanted) + 1)):
        # a file of the segment numbered from 1
        found = {wanted[n - 1]: v for n, v in found.items()}
        numbers = set(found)
    outside = sorted(numbers - set(wanted))
    missing = sorted(set(wanted) - numbers)
    problems = []
    if outside:
        problems.append(
            _("Boards not in segment %(number)s (boards %(first)s–%(last)s): %(boards)s.")
            % {
                "number": segment.number,
                "first": segment.first_board,
                "last": segment.last_board,
                "boards": ", ".join(map(str, outside)),
            }
        )
    if missing:
        problems.append(
            _("Boards missing from the file: %(boards)s.")
            % {"boards": ", ".join(map(str, missing))}
        )
    if problems:
        raise ServiceError(
            _("The file does not hold the boards of the segment."), field="file", errors=problems
        )
    return {b: d for b, (d, _line) in found.items()}


def load_set(
    *, segment: Segment, data: bytes, user: Any, now: datetime, replace: bool = False
) -> DealSet:
    """The deals played in the segment, read from a PBN file (matches whose boards are not
    computer-dealt): a set with source "loaded", analysed in the background afterwards. A
    loaded set is replaced only with ``replace`` (:class:`ReplaceNeeded` otherwise); a
    computer-dealt set is never replaced by a file."""
    deals = _pbn_deals(data, segment)
    with transaction.atomic():
        segment = _locked_segment(segment)
        old = set_of(segment)
        if old is not None:
            if old.source == SetSource.DEALT:
                raise ServiceError(
                    _(
                        "The segment's boards are computer-dealt from a committed seed; they are "
                        "not replaced by a file."
                    )
                )
            if not replace:
                raise _replace_needed(segment, old)
        before = _drop(old)
        deal_set = DealSet.objects.create(
            segment=segment,
            source=SetSource.LOADED,
            made_at=now,
            made_by=_by(user),
        )
        BoardDeal.objects.bulk_create(
            BoardDeal(deal_set=deal_set, board=b, deal=deal_text(d))
            for b, d in sorted(deals.items())
        )
        _record(
            "bridgeko.dealset.loaded",
            segment,
            N_("%(match)s, segment %(number)s: deals of %(count)s boards loaded from a file"),
            user=user,
            now=now,
            before=before,
            after=_set_summary(deal_set) | {"segment": segment.number},
            count=len(deals),
        )
        background.after_commit(analyse_set, deal_set.pk)
    return deal_set


# ---------------------------------------------------------------------------------------------
# Double-dummy analysis (background)


def analyse_set(set_id: int) -> None:
    """Fills the double-dummy table and par of every board of the set that has none, board by
    board (each saved when done); records the start, the end or the error on the set. Run in
    the background (:func:`bridgeko.core.background.after_commit`) or by
    ``bridgeko analyse-pending``."""
    from bridgeko.bridge import analysis  # endplay: only where the analysis runs

    pending = BoardDeal.objects.filter(deal_set_id=set_id, dd__isnull=True)
    if not pending.exists():
        return  # nothing to do (analysed already, or the set is gone): the state stays
    DealSet.objects.filter(pk=set_id).update(
        analysis_started_at=timezone.now(), analysis_finished_at=None, analysis_error=""
    )
    edition_id = (
        DealSet.objects.filter(pk=set_id).values_list("segment__match__edition_id", flat=True)
    ).first()
    try:
        for board in pending.order_by("board"):
            table = analysis.dd_table(Deal.from_pbn(board.deal))
            par = analysis.par_of_table(table, dealer(board.board), vulnerability(board.board))
            BoardDeal.objects.filter(pk=board.pk).update(
                dd=handrecords.dd_to_json(table), par=handrecords.par_to_json(par)
            )
            # not audited board by board: the public pages' export listens (issue 12)
            events.emit("boards.analysed", edition_id=edition_id, user=None)
    except Exception as exc:
        DealSet.objects.filter(pk=set_id).update(
            analysis_error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        raise
    DealSet.objects.filter(pk=set_id).update(analysis_finished_at=timezone.now())


def restart_analysis(*, deal_set: DealSet, user: Any, now: datetime) -> DealSet:
    """The organiser restarts a failed or stale analysis (the boards done stay done)."""
    with transaction.atomic():
        deal_set = (
            DealSet.objects.select_for_update()
            .select_related("segment__match__edition")
            .get(pk=deal_set.pk)
        )
        p = progress(deal_set, now=now)
        if p.running:
            raise ServiceError(_("The analysis is running; wait for it to finish."))
        if p.finished and not p.error:
            raise ServiceError(_("The analysis is complete."))
        if p.total == 0:
            raise ServiceError(_("The set has no deals yet."))
        error = deal_set.analysis_error
        deal_set.analysis_error = ""
        deal_set.analysis_started_at = None
        deal_set.analysis_finished_at = None
        deal_set.save(
            update_fields=["analysis_error", "analysis_started_at", "analysis_finished_at"]
        )
        segment = deal_set.segment
        _record(
            "bridgeko.dealset.analysis_restarted",
            segment,
            N_("%(match)s, segment %(number)s: analysis restarted (%(done)s of %(total)s)"),
            user=user,
            now=now,
            before={"segment": segment.number, "done": p.done, "error": error},
            after={"segment": segment.number},
            done=p.done,
            total=p.total,
        )
        background.after_commit(analyse_set, deal_set.pk)
    return deal_set


def pending_sets(edition_slug: str | None = None) -> list[int]:
    """The sets with deals not fully analysed (for ``bridgeko analyse-pending``)."""
    query = DealSet.objects.filter(boards__dd__isnull=True)
    if edition_slug is not None:
        query = query.filter(segment__match__edition__slug=edition_slug)
    return sorted(set(query.filter(~Q(boards=None)).values_list("pk", flat=True)))
