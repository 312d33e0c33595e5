"""The matches of an edition and what happened in them.

Stored are only the facts — the teams, the segments (their boards, or their totals from the
scorecards), the line-ups, each room's result of each board, the penalties and adjustments; the
state of a match (running score, winner, extra segments needed) is computed by
:func:`bridgeko.competition.match.match_state` and kept on :class:`Match` as a cache that the
services refresh in the transaction that changes a fact (:mod:`bridgeko.matches.services`)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

SIDES = (("home", _("home")), ("visitors", _("visitors")))
ROOMS = (("open", _("open room")), ("closed", _("closed room")))


class MatchStatus(models.TextChoices):
    PENDING = "pending", _("teams not known yet")
    BYE = "bye", _("bye")
    TO_PLAY = "to_play", _("to be played")
    IN_PROGRESS = "in_progress", _("in progress")
    EXTRA_SEGMENT_REQUIRED = "extra_segment_required", _("tied: extra segment")
    DECIDED = "decided", _("decided")
    WALKOVER = "walkover", _("walkover")
    NO_WINNER = "no_winner", _("no winner")
    NOT_NEEDED = "not_needed", _("not needed: the unbeaten team won the final")


class Match(models.Model):
    """One match of the edition's bracket (``code`` is the scheme's id: ``R1-M3``, ``QF2``,
    ``F``). The teams are filled in as the bracket resolves; home is the scheme's home slot (I2)
    unless the chief TD swapped them (``swapped``, with a reason) before the start."""

    edition = models.ForeignKey("editions.Edition", on_delete=models.CASCADE, related_name="+")
    code = models.CharField(_("match"), max_length=20)
    position = models.PositiveSmallIntegerField(_("order in the scheme"))
    round = models.PositiveSmallIntegerField(_("round"))
    stage = models.CharField(_("stage"), max_length=20)
    home = models.ForeignKey(
        "entries.Team", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    visitors = models.ForeignKey(
        "entries.Team", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    swapped = models.BooleanField(_("home and visitors swapped"), default=False)
    swap_reason = models.TextField(_("reason for the swap"), blank=True)
    start = models.DateTimeField(_("start"), null=True, blank=True)
    """Set when the match is rescheduled (R14.2) or has no date in the draw's schedule."""
    location = models.CharField(_("place"), max_length=200, blank=True)
    # The computed state (a cache refreshed by the services; never edited by hand).
    status = models.CharField(
        _("status"), max_length=30, choices=MatchStatus.choices, default=MatchStatus.PENDING
    )
    winner = models.CharField(_("winner"), max_length=10, choices=SIDES, blank=True)
    home_total = models.IntegerField(_("home total"), default=0)
    visitors_total = models.IntegerField(_("visitors total"), default=0)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    """Raised by every change of the match or its facts (a cheap ETag for pages and the API)."""
    updated_at = models.DateTimeField(_("updated"), null=True, blank=True)

    class Meta:
        ordering = ("edition", "position")
        verbose_name = pgettext_lazy("bridge", "match")
        verbose_name_plural = pgettext_lazy("bridge", "matches")
        constraints = [
            models.UniqueConstraint(fields=("edition", "code"), name="matches_unique_code")
        ]

    def __str__(self) -> str:
        return self.code

    def team(self, side: str) -> object:
        return self.home if side == "home" else self.visitors

    @property
    def is_over(self) -> bool:
        return self.status in (
            MatchStatus.DECIDED,
            MatchStatus.WALKOVER,
            MatchStatus.NO_WINNER,
            MatchStatus.NOT_NEEDED,
        )


class Segment(models.Model):
    """A segment (*sestava*) of a match: its boards, counted through the match (R12.1), or an
    extra segment after a tie (R12.5). ``home_imps``/``visitors_imps`` hold the totals from the
    scorecards when the boards are not entered one by one; ``closed_at`` marks a segment the TD
    closed with boards missing (not played)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="segments")
    number = models.PositiveSmallIntegerField(_("segment"))
    first_board = models.PositiveSmallIntegerField(_("first board"))
    last_board = models.PositiveSmallIntegerField(_("last board"))
    is_extra = models.BooleanField(_("extra segment"), default=False)
    home_imps = models.PositiveIntegerField(_("home IMPs"), null=True, blank=True)
    visitors_imps = models.PositiveIntegerField(_("visitors IMPs"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed by the TD"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    open_ended_at = models.DateTimeField(_("ended in the open room"), null=True, blank=True)
    closed_ended_at = models.DateTimeField(_("ended in the closed room"), null=True, blank=True)

    class Meta:
        ordering = ("match", "number")
        verbose_name = _("segment")
        verbose_name_plural = _("segments")
        constraints = [
            models.UniqueConstraint(fields=("match", "number"), name="matches_unique_segment")
        ]

    def __str__(self) -> str:
        return f"{self.match.code}/{self.number}"

    @property
    def board_numbers(self) -> range:
        return range(self.first_board, self.last_board + 1)

    @property
    def ended_at(self) -> datetime | None:
        """The end of the segment (I15): the last board completed in both rooms, as recorded by
        the TD; None until both rooms have ended. Its deals stay secret until then."""
        if self.open_ended_at is None or self.closed_ended_at is None:
            return None
        return max(self.open_ended_at, self.closed_ended_at)

    @property
    def has_totals(self) -> bool:
        return self.home_imps is not None and self.visitors_imps is not None


class LineUp(models.Model):
    """A team's line-up for a segment (R12.6): its pair in the open room and its pair in the
    closed room. ``*_first`` sits North (or East), ``*_second`` South (or West); which line
    a team takes in each room follows R12.2 (home NS in the open room)."""

    segment = models.ForeignKey(Segment, on_delete=models.CASCADE, related_name="line_ups")
    side = models.CharField(_("team"), max_length=10, choices=SIDES)
    open_first = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    open_second = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    closed_first = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    closed_second = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    entered_at = models.DateTimeField(_("entered"))

    class Meta:
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        constraints = [
            models.UniqueConstraint(fields=("segment", "side"), name="matches_unique_line_up")
        ]


class BoardResult(models.Model):
    """One room's result of one board (the TD's quick text, normalised: ``4S N =``, ``Pass``),
    with North-South's score. ``version`` starts at 1 and rises with every change: an edit made
    from an older version is refused with both values (several TDs at once)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="board_results")
    board = models.PositiveSmallIntegerField(_("board"))
    room = models.CharField(_("room"), max_length=10, choices=ROOMS)
    text = models.CharField(_("result"), max_length=30)
    ns_score = models.IntegerField(_("NS score"))
    auction = models.TextField(_("auction"), blank=True)
    """The calls from the dealer on (``1S P 2S P P P``; ``!`` after an alerted call), when a
    file gave them (LIN, BBO/RealBridge); cleared when the result is changed by hand."""
    play = models.TextField(_("play"), blank=True)
    """The cards played from the opening lead on (``HA H2 H5 H9 ...``), when a file gave them."""
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    entered_at = models.DateTimeField(_("entered"))

    class Meta:
        ordering = ("match", "board", "room")
        verbose_name = _("board result")
        verbose_name_plural = _("board results")
        constraints = [
            models.UniqueConstraint(
                fields=("match", "board", "room"), name="matches_unique_board_result"
            )
        ]

    def __str__(self) -> str:
        return f"{self.match.code} {self.board} {self.room}: {self.text}"


class PenaltyKind(models.TextChoices):
    SLOW_PLAY = "slow_play", _("slow play (R12.8)")
    LATENESS = "lateness", _("lateness (R12.9)")
    ADJUSTMENT = "adjustment", _("TD adjustment")


class Penalty(models.Model):
    """A slow-play penalty (R12.8), a lateness (R12.9, I6: the boards removed are computed from
    ``minutes`` unless the TD set ``boards``) or a TD adjustment of ``imps``; each with a reason.
    A withdrawn record stays (with its reason) and no longer counts."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="penalties")
    segment = models.PositiveSmallIntegerField(_("segment"))
    kind = models.CharField(_("kind"), max_length=20, choices=PenaltyKind.choices)
    side = models.CharField(_("team"), max_length=10, choices=SIDES)
    boards = models.PositiveSmallIntegerField(_("boards"), null=True, blank=True)
    minutes = models.PositiveIntegerField(_("minutes late"), null=True, blank=True)
    imps = models.IntegerField(_("IMPs"), null=True, blank=True)
    reason = models.TextField(_("reason"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("recorded"))
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    withdrawn_reason = models.TextField(_("reason for the withdrawal"), blank=True)

    class Meta:
        ordering = ("match", "segment", "created_at", "id")
        verbose_name = _("penalty or adjustment")
        verbose_name_plural = _("penalties and adjustments")


class PlaceDecision(models.Model):
    """A final place the regulations do not decide (e.g. both finalists failed to appear: the
    standings share 1st-2nd), decided by the organiser with a reason (R5.1, I7, I16)."""

    edition = models.ForeignKey("editions.Edition", on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField(_("place"))
    team = models.ForeignKey("entries.Team", on_delete=models.PROTECT, related_name="+")
    reason = models.TextField(_("reason"))
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided"))

    class Meta:
        ordering = ("edition", "place")
        verbose_name = _("decision on a place")
        verbose_name_plural = _("decisions on places")
        constraints = [
            models.UniqueConstraint(fields=("edition", "place"), name="matches_unique_place"),
            models.UniqueConstraint(fields=("edition", "team"), name="matches_unique_placed_team"),
        ]


class BridgemateTables(models.Model):
    """Which tables of a Bridgemate (BCS ``.bws``) file are a match's rooms, as the TD chose
    them (issue 20; remembered per match), and the file the follower re-reads while a segment is
    played (``follow``): when it last read it, what it stored, what went wrong."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="bridgemate")
    section = models.CharField(
        _("section"), max_length=10, blank=True, help_text=_("its letter (A) or number")
    )
    open_table = models.PositiveSmallIntegerField(_("table of the open room"))
    closed_table = models.PositiveSmallIntegerField(_("table of the closed room"))
    segment = models.PositiveSmallIntegerField(_("segment"), null=True, blank=True)
    path = models.CharField(_("file on the server"), max_length=500, blank=True)
    follow = models.BooleanField(_("follow the file"), default=False)
    seen = models.JSONField(default=dict, blank=True)
    """``"board room"`` -> the ID of the record last stored or seen (a later record of the same
    board and table is a correction made at the table)."""
    read_at = models.DateTimeField(_("last read"), null=True, blank=True)
    stored_at = models.DateTimeField(_("last stored"), null=True, blank=True)
    problem = models.TextField(_("problem"), blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    updated_at = models.DateTimeField(_("updated"))

    class Meta:
        verbose_name = _("Bridgemate tables of a match")
        verbose_name_plural = _("Bridgemate tables of matches")

    def __str__(self) -> str:
        return f"{self.match.code}: {self.open_table}/{self.closed_table}"


class ProposalStatus(models.TextChoices):
    PENDING = "pending", _("waiting for the other captain")
    AWAITING_TD = "awaiting_td", _("agreed late: waiting for the TD (I12)")
    ACCEPTED = "accepted", _("agreed: the match's date")
    DECLINED = "declined", _("declined")
    COUNTERED = "countered", _("answered with another proposal")
    REVOKED = "revoked", _("withdrawn")
    REFUSED = "refused", _("refused by the TD")
    OVERTAKEN = "overtaken", _("no longer possible (the match started or moved)")


class DateProposal(models.Model):
    """A captain's proposal to play a match at another date, time and place, or online (R14.2a,
    issue 21), and what became of it: the other captain accepts (the app tells the organiser
    at once: ``told_at``), counter-proposes or declines; the proposer may withdraw it while it
    waits; an agreement the regulations' notice does not cover waits for the TD's ruling (I12)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="date_proposals")
    side = models.CharField(_("proposed by"), max_length=10, choices=SIDES)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    start = models.DateTimeField(_("start"))
    place = models.CharField(_("place"), max_length=200, blank=True)
    online = models.URLField(_("link to play online"), max_length=500, blank=True)
    note = models.TextField(_("note"), blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=ProposalStatus.choices, default=ProposalStatus.PENDING
    )
    created_at = models.DateTimeField(_("proposed"))
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    answer_note = models.TextField(_("answer"), blank=True)
    told_at = models.DateTimeField(_("organiser told"), null=True, blank=True)
    """When the organiser was told of the agreement (R14.2a: the notice): the acceptance."""
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided by the TD"), null=True, blank=True)
    decision_note = models.TextField(_("TD's reason"), blank=True)

    class Meta:
        ordering = ("match", "-created_at", "-id")
        verbose_name = _("proposed date")
        verbose_name_plural = _("proposed dates")

    def __str__(self) -> str:
        return f"{self.match.code}: {self.start:%Y-%m-%d %H:%M} ({self.status})"

    @property
    def other_side(self) -> str:
        return "visitors" if self.side == "home" else "home"


class RecordStatus(models.TextChoices):
    SUBMITTED = "submitted", _("waiting for the opponents' confirmation")
    CONFIRMED = "confirmed", _("confirmed: waiting for the TD's approval")
    DISPUTED = "disputed", _("disputed: the TD decides")
    APPROVED = "approved", _("approved by the TD")
    REJECTED = "rejected", _("rejected by the TD")
    REVOKED = "revoked", _("withdrawn")


class RecordSubmission(models.Model):
    """The match record a captain submits (R14.2b, issue 21): the segment totals from the
    scorecards or the boards' results, with a picture or PDF of the signed scorecards. The
    opponents confirm or dispute; the TD approves (the results are then stored through the
    board and totals services) or rejects. Until approved it is provisional: shown as such,
    never moving the bracket on. ``late``: received after the record deadline (R14.2b)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="record_submissions")
    side = models.CharField(_("submitted by"), max_length=10, choices=SIDES)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    submitted_at = models.DateTimeField(_("submitted"))
    totals = models.JSONField(_("segment totals"), default=dict, blank=True)
    """Segment number (text) -> [home IMPs, visitors IMPs]."""
    boards = models.JSONField(_("results"), default=dict, blank=True)
    """``"board room"`` -> the quick text (``4S N =``)."""
    scorecards = models.FileField(_("scorecards"), upload_to="scorecards", max_length=300)
    note = models.TextField(_("note"), blank=True)
    late = models.BooleanField(_("after the deadline (R14.2b)"), default=False)
    status = models.CharField(
        _("status"), max_length=20, choices=RecordStatus.choices, default=RecordStatus.SUBMITTED
    )
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    dispute = models.TextField(_("the opponents' objection"), blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided by the TD"), null=True, blank=True)
    decision_note = models.TextField(_("TD's reason"), blank=True)
    auto_approved = models.BooleanField(
        _("approved without the TD (the edition's rule)"), default=False
    )

    class Meta:
        ordering = ("match", "-submitted_at", "-id")
        verbose_name = _("match record submitted")
        verbose_name_plural = _("match records submitted")

    def __str__(self) -> str:
        return f"{self.match.code}: {self.side} {self.submitted_at:%Y-%m-%d %H:%M} ({self.status})"
