"""The deals of a segment (:class:`DealSet`, one per segment) and of each of its boards
(:class:`BoardDeal`).

A computer-dealt set (R12.7) is made from a secret seed whose commitment (SHA-256) is published
before the segment starts; the deals are :func:`bridgeko.bridge.dealing.deal_set` of (seed,
event, session, boards), so anyone can check them with ``bridgeko verify-deal`` once the seed is
revealed. A loaded set holds the deals played, read from a PBN file (matches with hand-dealt
boards), so that hand records exist for them too.

**Secret until the segment has ended in both rooms** (I15, ``Segment.ended_at``): the deals, their
analysis and the seed are shown to the organiser and the chief TD only (:mod:`bridgeko.boards.
secrecy` is the one place that decides)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class SetSource(models.TextChoices):
    DEALT = "dealt", _("computer-dealt")
    LOADED = "loaded", _("deals played, loaded from a file")


class DealSet(models.Model):
    segment = models.OneToOneField(
        "matches.Segment", on_delete=models.CASCADE, related_name="deal_set"
    )
    source = models.CharField(_("source"), max_length=10, choices=SetSource.choices)
    seed = models.CharField(_("seed"), max_length=128, blank=True)
    """The secret seed in hex (computer-dealt sets); secret until the segment has ended."""
    commitment = models.CharField(_("commitment"), max_length=64, blank=True)
    """SHA-256 of the seed, published before the segment starts."""
    event = models.CharField(_("event"), max_length=200, blank=True)
    session = models.CharField(_("session"), max_length=100, blank=True)
    """The dealing inputs besides the seed and the boards (``bridgeko verify-deal``)."""
    committed_at = models.DateTimeField(_("committed"), null=True, blank=True)
    made_at = models.DateTimeField(_("made"), null=True, blank=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    analysis_started_at = models.DateTimeField(null=True, blank=True)
    analysis_finished_at = models.DateTimeField(null=True, blank=True)
    analysis_error = models.TextField(blank=True)

    class Meta:
        verbose_name = _("set of boards")
        verbose_name_plural = _("sets of boards")

    def __str__(self) -> str:
        return str(self.segment)


class BoardDeal(models.Model):
    deal_set = models.ForeignKey(DealSet, on_delete=models.CASCADE, related_name="boards")
    board = models.PositiveSmallIntegerField(_("board"))
    deal = models.CharField(_("deal"), max_length=80)
    """The deal as a PBN Deal value (``N:AKQ.… …``)."""
    dd = models.JSONField(_("double-dummy table"), null=True, blank=True)
    """Tricks by declarer and denomination (filled by the background analysis)."""
    par = models.JSONField(_("par"), null=True, blank=True)

    class Meta:
        ordering = ("deal_set", "board")
        verbose_name = _("deal of a board")
        verbose_name_plural = _("deals of the boards")
        constraints = [
            models.UniqueConstraint(fields=("deal_set", "board"), name="boards_unique_board")
        ]

    def __str__(self) -> str:
        return f"{self.deal_set} #{self.board}"
