"""Teams of an edition, their rosters (captain first), pairs, conditions of entry and fees,
the closing of entries and the failures to appear that bar players from the next edition.

Every rule is the engine's (:mod:`bridgeko.competition.entries`); these models only store what
the organiser recorded. Writes go through :mod:`bridgeko.entries.services`.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from bridgeko.core.collation import search_text, sort_key


class Team(models.Model):
    edition = models.ForeignKey(
        "editions.Edition",
        on_delete=models.CASCADE,
        related_name="teams",
        verbose_name=_("edition"),
    )
    name = models.CharField(_("team name"), max_length=120)
    created_at = models.DateTimeField(_("created"))
    # R3.1: the conditions of entry, each with the date it reached the organiser (I12: local day).
    form_received = models.DateField(_("entry form received"), null=True, blank=True)
    """R3.1a; also the moment of entry: from then on the roster is frozen (R7.2)."""
    fee_received = models.DateField(_("fee received"), null=True, blank=True)
    """R3.1c: when the fee was received in full."""
    fee_paid = models.PositiveIntegerField(_("amount paid"), default=0)
    fee_override_amount = models.PositiveIntegerField(_("fee set by the organiser"), null=True)
    fee_override_reason = models.TextField(_("reason for the fee"), blank=True)
    late_entry = models.BooleanField(_("late entry"), default=False)
    """Entered after the entries were closed (an audited exception, not in the draw held)."""
    late_reason = models.TextField(_("reason for the late entry"), blank=True)
    accepted = models.BooleanField(_("entered"), null=True)
    """Set when the entries are closed (I11): met every condition in time or not."""
    # Derived from the name on every save (bridgeko.core.collation): Czech order and search.
    name_key = models.BinaryField(default=b"", editable=False)
    name_search = models.CharField(max_length=120, blank=True, editable=False)

    class Meta:
        ordering = ("edition", "name_key")
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=("edition", "name"), name="entries_team_unique_name")
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Saves, with the Czech sort key and the search column of the name."""
        self.name_key, self.name_search = sort_key(self.name), search_text(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "name_key", "name_search"}
        super().save(*args, **kwargs)

    @property
    def frozen(self) -> bool:
        """R7.2: after entry (the entry form received) the roster is frozen."""
        return self.form_received is not None


class RosterEntry(models.Model):
    """One player on a team's roster; ``position`` 1 is the captain (R7.1)."""

    edition = models.ForeignKey("editions.Edition", on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(
        "players.Player", on_delete=models.PROTECT, related_name="roster_entries"
    )
    position = models.PositiveSmallIntegerField(_("order"))

    class Meta:
        ordering = ("team", "position")
        verbose_name = _("roster entry")
        verbose_name_plural = _("roster entries")
        constraints = [
            # R7.3 also holds in the database (the service checks it first, with a message).
            models.UniqueConstraint(fields=("edition", "player"), name="entries_one_roster"),
            models.UniqueConstraint(fields=("team", "position"), name="entries_roster_order"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.position}. {self.player}"


class Pair(models.Model):
    """A declared pair and when its convention card was received (R3.1b)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="pairs")
    player_a = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey("players.Player", on_delete=models.PROTECT, related_name="+")
    card_received = models.DateField(_("convention card received"), null=True, blank=True)

    class Meta:
        ordering = ("team", "id")
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return f"{self.player_a.name} – {self.player_b.name}"


class EntriesClosing(models.Model):
    """The closing of an edition's entries (R8.1, R9.2, I11), as the engine decided it."""

    edition = models.OneToOneField(
        "editions.Edition", on_delete=models.CASCADE, related_name="entries_closing"
    )
    closed_at = models.DateTimeField(_("closed"))
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancelled = models.BooleanField(_("cancelled"), default=False)
    reason = models.TextField(_("reason"))
    refunds = models.JSONField(_("refunds"), default=list, blank=True)
    """R8.1: ``[{"team": id, "name": ..., "amount": ..., "currency": ...}]`` when cancelled."""

    class Meta:
        verbose_name = _("closing of entries")
        verbose_name_plural = _("closings of entries")

    def __str__(self) -> str:
        return f"{self.edition}: {self.reason}"


class NoShow(models.Model):
    """A team's failure to appear for a match of the bracket (R15.1-R15.3), recorded by a TD.

    ``match`` is the id of a match of the edition's resolved bracket in which the team has a
    slot (``R1-M4``, ``QF2``, ...; never a bye): the draw app checks it
    (:mod:`bridgeko.draw.no_shows`, the only writer), as this app lies below the draw. A record
    made before failures to appear were tied to matches keeps its free text in
    ``legacy_match`` (``match`` empty) and is shown as such. Only a record that is not withdrawn
    bars the team's players from the next edition (R15.3)."""

    edition = models.ForeignKey("editions.Edition", on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="no_shows")
    match = models.CharField(_("match"), max_length=40, blank=True)
    legacy_match = models.CharField(
        _("match (free text of an old record)"), max_length=40, blank=True
    )
    timely_notice = models.BooleanField(_("told the organiser in time"), default=False)
    """R15.3: without timely notice all the team's players are barred from the next edition."""
    note = models.TextField(_("note"), blank=True)
    recorded_at = models.DateTimeField(_("recorded"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    withdrawn_reason = models.TextField(_("reason for the withdrawal"), blank=True)

    class Meta:
        verbose_name = _("failure to appear")
        verbose_name_plural = _("failures to appear")
        constraints = [
            # once per team and match (a withdrawn record does not count)
            models.UniqueConstraint(
                fields=("team", "match"),
                condition=models.Q(withdrawn_at__isnull=True) & ~models.Q(match=""),
                name="no_show_once_per_team_and_match",
            )
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.match_text}"

    @property
    def match_text(self) -> str:
        """The match id, or the free text of an old record."""
        return self.match or self.legacy_match

    @property
    def is_legacy(self) -> bool:
        return not self.match

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class ConventionCard(models.Model):
    """A convention card (R3.1b) uploaded by the captain (or the organiser) for a declared pair.

    The file lies under ``MEDIA_ROOT`` (``cards/<edition>/<team>/<random>.<pdf|png|jpg>``: a
    name of our own, never the uploaded one) and is served only by
    the permission-checked view ``entries:card``. A replacement keeps the old card (and file):
    the old row gets ``replaced_at``/``replaced_by``; the pair's current card is the one not
    replaced. When a pair is no longer declared its cards stay (``pair`` empty,
    ``pair_label`` says whose they were)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="convention_cards")
    pair = models.ForeignKey(
        Pair, on_delete=models.SET_NULL, null=True, blank=True, related_name="cards"
    )
    pair_label = models.CharField(_("pair"), max_length=250)
    file = models.FileField(_("file"), upload_to="cards", max_length=300)
    original_name = models.CharField(_("file name"), max_length=255)
    size = models.PositiveIntegerField(_("size (bytes)"))
    content_type = models.CharField(_("content type"), max_length=40)
    uploaded_at = models.DateTimeField(_("uploaded"))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    replaced_at = models.DateTimeField(_("replaced"), null=True, blank=True)
    replaced_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("team", "pair_label", "-uploaded_at")
        verbose_name = _("convention card")
        verbose_name_plural = _("convention cards")

    def __str__(self) -> str:
        return f"{self.pair_label}: {self.original_name}"

    @property
    def current(self) -> bool:
        return self.replaced_at is None
