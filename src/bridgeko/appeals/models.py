"""What the appeals procedure stores (R16): the organiser's list of committee candidates per
edition (R16.1), each appeal with its committee and decision, and the board results the
committee adjusted. The rules are checked by :mod:`bridgeko.competition.appeals` in
:mod:`bridgeko.appeals.services`; nothing here is edited by hand."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

ROOMS = (("open", _("open room")), ("closed", _("closed room")))


class AppealSettings(models.Model):
    """The organiser's appeals settings of an edition: the list of players from whom each
    appeal's committee is named (R16.1; one name a line, in the order of preference) and
    whether appeals about a segment must be lodged within 30 minutes of its end (R16.3)."""

    edition = models.OneToOneField("editions.Edition", on_delete=models.CASCADE, related_name="+")
    candidates = models.TextField(_("committee candidates"), blank=True)
    segment_deadlines = models.BooleanField(
        _("appeals about a segment within 30 minutes of its end (announced, R16.3)"),
        default=False,
    )
    updated_at = models.DateTimeField(_("updated"), null=True, blank=True)

    class Meta:
        verbose_name = _("appeals settings")
        verbose_name_plural = _("appeals settings")


class AppealStatus(models.TextChoices):
    LODGED = "lodged", _("lodged")
    COMMITTEE = "committee", _("committee named")
    DECIDED = "decided", _("decided")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Outcome(models.TextChoices):
    """The engine's :class:`bridgeko.competition.appeals.Outcome`."""

    DISMISSED = "dismissed", _("dismissed: the score stands")
    UPHELD = "upheld", _("upheld: the TD's ruling reversed")
    ADJUSTED = "adjusted", _("adjusted: the committee adjusts the result")


class DepositFate(models.TextChoices):
    RETURNED = "returned", _("returned")
    FORFEITED = "forfeited", _("forfeited")


class Appeal(models.Model):
    """An appeal lodged on the form through the TD who directed the match (R16.2), its
    committee (R16.1) and the committee's final decision (R16.5)."""

    edition = models.ForeignKey("editions.Edition", on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("matches.Match", on_delete=models.PROTECT, related_name="+")
    appellant = models.ForeignKey("entries.Team", on_delete=models.PROTECT, related_name="+")
    segment = models.PositiveSmallIntegerField(_("segment"), null=True, blank=True)
    subject = models.TextField(_("subject of the appeal"))
    lodged_at = models.DateTimeField(_("lodged with the TD"))
    through_td = models.CharField(_("TD who received the form"), max_length=120)
    lodged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    deposit = models.PositiveIntegerField(_("deposit"))
    form_received_at = models.DateTimeField(
        _("form received by the organiser"), null=True, blank=True
    )
    status = models.CharField(
        _("state"), max_length=20, choices=AppealStatus.choices, default=AppealStatus.LODGED
    )
    committee = models.JSONField(_("committee"), default=list, blank=True)
    committee_named_at = models.DateTimeField(_("committee named"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=20, choices=Outcome.choices, blank=True)
    reasons = models.TextField(_("reasons"), blank=True)
    deposit_fate = models.CharField(
        _("deposit"), max_length=20, choices=DepositFate.choices, blank=True
    )
    frivolous = models.BooleanField(_("frivolous"), default=False)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    withdrawn_reason = models.TextField(_("reason for the withdrawal"), blank=True)

    class Meta:
        ordering = ("edition", "lodged_at", "id")
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")

    def __str__(self) -> str:
        return f"{self.match.code}: {self.appellant.name}"

    @property
    def is_open(self) -> bool:
        return self.status in (AppealStatus.LODGED, AppealStatus.COMMITTEE)


class AdjustedResult(models.Model):
    """A board result the committee adjusted (the match uses it: it is saved as the room's
    result through :func:`bridgeko.matches.services.save_board`); ``before`` keeps the result
    it replaced."""

    appeal = models.ForeignKey(Appeal, on_delete=models.CASCADE, related_name="adjusted")
    board = models.PositiveSmallIntegerField(_("board"))
    room = models.CharField(_("room"), max_length=10, choices=ROOMS)
    text = models.CharField(_("result"), max_length=30)
    before = models.CharField(_("result before"), max_length=30, blank=True)

    class Meta:
        ordering = ("appeal", "board", "room")
        verbose_name = _("adjusted board result")
        verbose_name_plural = _("adjusted board results")
        constraints = [
            models.UniqueConstraint(
                fields=("appeal", "board", "room"), name="appeals_unique_adjusted"
            )
        ]
