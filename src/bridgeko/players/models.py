"""The player register (shared by every edition) and the federation's Elo lists by date."""

from __future__ import annotations

from datetime import date

from django.db import models
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    federation_id = models.CharField(
        _("federation id"), max_length=20, null=True, blank=True, unique=True
    )
    """The federation's membership/Elo number; optional, unique when set (None when unknown)."""
    name = models.CharField(_("name"), max_length=120)
    """As the federation writes it: "Surname Given-name"."""
    club = models.CharField(_("club"), max_length=120, blank=True)
    member = models.BooleanField(_("federation member"), default=False)
    """A member of the federation (R4.1: a team of members only pays the lower fee)."""

    class Meta:
        ordering = ("name", "federation_id")
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.name} ({self.federation_id})" if self.federation_id else self.name

    def elo_at(self, reference_date: date) -> int | None:
        """The player's Elo on the list of ``reference_date`` (None: not on it, R10.1)."""
        return (
            EloRating.objects.filter(player=self, elo_list__reference_date=reference_date)
            .values_list("elo", flat=True)
            .first()
        )


class EloList(models.Model):
    """The federation's Elo list of one reference date (an edition uses
    ``rating.reference_date``, R10.1). Importing the same date again replaces it."""

    reference_date = models.DateField(_("reference date"), unique=True)
    source_name = models.CharField(_("file"), max_length=200, blank=True)
    imported_at = models.DateTimeField(_("imported"))

    class Meta:
        ordering = ("-reference_date",)
        verbose_name = _("Elo list")
        verbose_name_plural = _("Elo lists")

    def __str__(self) -> str:
        return f"Elo {self.reference_date.isoformat()}"


class EloRating(models.Model):
    elo_list = models.ForeignKey(
        EloList, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("Elo list")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    elo = models.PositiveIntegerField(_("Elo"))

    class Meta:
        verbose_name = _("Elo rating")
        verbose_name_plural = _("Elo ratings")
        constraints = [
            models.UniqueConstraint(fields=("elo_list", "player"), name="players_one_elo_per_list")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.elo}"
