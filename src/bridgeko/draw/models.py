"""The draw of an edition: its announcement (R11.5), the commitment to a secret seed published
before the draw and the seed revealed at it (I8), the numbers (R11), the protocol, and the
dates of the preliminary-round matches (R14.1)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from bridgeko.competition.draw import METHOD_MANUAL


class Draw(models.Model):
    edition = models.OneToOneField(
        "editions.Edition", on_delete=models.CASCADE, related_name="draw"
    )
    place = models.CharField(_("place of the draw"), max_length=200, blank=True)
    scheduled_at = models.DateTimeField(_("time of the draw"), null=True, blank=True)
    announced_at = models.DateTimeField(_("announced"), null=True, blank=True)
    """R11.5: when place and time were announced."""
    seed_hex = models.CharField(_("seed"), max_length=128, blank=True)
    """I8: secret until the draw is held (never shown before :attr:`held_at`)."""
    commitment = models.CharField(_("commitment (SHA-256 of the seed)"), max_length=64, blank=True)
    committed_at = models.DateTimeField(_("commitment published"), null=True, blank=True)
    held_at = models.DateTimeField(_("drawn"), null=True, blank=True)
    method = models.CharField(_("method"), max_length=60, blank=True)
    scheme_size = models.PositiveSmallIntegerField(_("scheme size"), null=True, blank=True)
    seeded = models.PositiveSmallIntegerField(_("seeded teams"), null=True, blank=True)
    protocol = models.TextField(_("protocol (JSON)"), blank=True)
    schedule_published_at = models.DateTimeField(_("dates published"), null=True, blank=True)
    scheme = models.TextField(_("playing scheme (JSON)"), blank=True)
    """The organiser's own playing scheme (R9.1's annex: e.g. double elimination up to the
    semifinals), as the engine's ``scheme_to_dict``; empty: the standard scheme of
    :attr:`scheme_size` (I1)."""

    class Meta:
        verbose_name = _("draw")
        verbose_name_plural = _("draws")

    def __str__(self) -> str:
        return f"{self.edition}: draw"

    @property
    def held(self) -> bool:
        return self.held_at is not None

    @property
    def revealed_seed(self) -> str:
        """The seed, only once the draw is held with it (I8); a draw made by hand used no seed
        (a commitment published before stays a mere hash: nothing was drawn with it)."""
        if self.held_at is None or self.method == METHOD_MANUAL:
            return ""
        return self.seed_hex


class DrawNumber(models.Model):
    draw = models.ForeignKey(Draw, on_delete=models.CASCADE, related_name="numbers")
    number = models.PositiveSmallIntegerField(_("number"))
    team = models.ForeignKey("entries.Team", on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ("draw", "number")
        constraints = [
            models.UniqueConstraint(fields=("draw", "number"), name="draw_unique_number"),
            models.UniqueConstraint(fields=("draw", "team"), name="draw_unique_team"),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.team}"


class MatchDate(models.Model):
    """When and where a preliminary-round match is played (R14.1), editable until published."""

    draw = models.ForeignKey(Draw, on_delete=models.CASCADE, related_name="match_dates")
    match = models.CharField(_("match"), max_length=20)
    """The scheme's match id, e.g. ``R1-M3``."""
    round = models.PositiveSmallIntegerField(_("round"))
    start = models.DateTimeField(_("start"))
    location = models.CharField(_("place"), max_length=200, blank=True)

    class Meta:
        ordering = ("draw", "start", "id")
        constraints = [
            models.UniqueConstraint(fields=("draw", "match"), name="draw_unique_match_date")
        ]

    def __str__(self) -> str:
        return f"{self.match} {self.start:%Y-%m-%d %H:%M}"
