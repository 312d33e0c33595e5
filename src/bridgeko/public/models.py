"""What the public pages keep of their own: each edition's chances to win the event, computed
in the background after a result (:mod:`bridgeko.public.event_odds`), never while a page is
served. Derived data, not audited (like the double-dummy analysis): it is recomputed from the
results at any time."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class EventOdds(models.Model):
    """The chances of an edition's teams to win the event and to reach each round, as of the
    results in ``basis``."""

    edition = models.OneToOneField(
        "editions.Edition", on_delete=models.CASCADE, related_name="event_odds"
    )
    basis = models.CharField(
        _("results computed from"),
        max_length=64,
        help_text=_("A fingerprint of the decided matches the chances start from."),
    )
    serial = models.PositiveIntegerField(default=0)
    """Counts the computations: part of the public pages' version (their ``ETag``)."""
    computed_at = models.DateTimeField(_("computed at"))
    runs = models.PositiveIntegerField(_("runs of the simulation"), default=0)
    """0: computed exactly."""
    data = models.JSONField(default=dict)
    """``{"teams": {team id: {"number", "win", "places": {place: p}, "reach": {round: p}}}}``."""

    class Meta:
        verbose_name = _("chances to win the event")
        verbose_name_plural = _("chances to win the event")

    def __str__(self) -> str:
        return f"{self.edition_id}: {self.basis[:8]}"
