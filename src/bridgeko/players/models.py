"""The player register (shared by every edition) and the federation's Elo lists by date."""

from __future__ import annotations

import uuid
from datetime import date
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from bridgeko.core.collation import search_text, sort_key


class Player(models.Model):
    federation_id = models.CharField(
        _("federation id"), max_length=20, null=True, blank=True, unique=True
    )
    """The federation's membership/Elo number; optional, unique when set (None when unknown)."""
    name = models.CharField(pgettext_lazy("person", "name"), max_length=120)
    """As the federation writes it: "Surname Given-name" (a person's name: "jméno", not "název")."""
    club = models.CharField(_("club"), max_length=120, blank=True)
    member = models.BooleanField(_("federation member"), default=False)
    """A member of the federation (R4.1: a team of members only pays the lower fee)."""
    # Derived from name/club on every save (bridgeko.core.collation): Czech order and search.
    name_key = models.BinaryField(default=b"", editable=False, db_index=True)
    name_search = models.CharField(max_length=120, blank=True, editable=False)
    club_search = models.CharField(max_length=120, blank=True, editable=False)

    class Meta:
        ordering = ("name_key", "federation_id")
        verbose_name = _("player")
        verbose_name_plural = _("players")

    DERIVED_FIELDS = ("name_key", "name_search", "club_search")

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Saves, with the Czech sort key and the search columns of the name and club."""
        self.name_key, self.name_search, self.club_search = derived_columns(self.name, self.club)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, *self.DERIVED_FIELDS}
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return f"{self.name} ({self.federation_id})" if self.federation_id else self.name

    def elo_at(self, reference_date: date) -> int | None:
        """The player's Elo on the list of ``reference_date`` (None: not on it, R10.1)."""
        return (
            EloRating.objects.filter(player=self, elo_list__reference_date=reference_date)
            .values_list("elo", flat=True)
            .first()
        )


def derived_columns(name: str, club: str) -> tuple[bytes, str, str]:
    """``(name_key, name_search, club_search)`` of a player (also for raw inserts)."""
    return sort_key(name), search_text(name), search_text(club)


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


class EloImport(models.Model):
    """One import of the Elo list of a date: who, when, what it changed and what the list was
    before, so that it can be undone (the previous ratings of the players it changed are its
    :class:`EloImportChange` rows; the audit entry of the import names this row)."""

    reference_date = models.DateField(_("reference date"), db_index=True)
    at = models.DateTimeField(_("imported"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    edition = models.ForeignKey(
        "editions.Edition",
        verbose_name=_("edition"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    source_name = models.CharField(_("file"), max_length=200, blank=True)
    had_list = models.BooleanField(_("a list existed before"), default=False)
    """False: the import made the list of this date (undoing it removes the list)."""
    previous_source_name = models.CharField(_("previous file"), max_length=200, blank=True)
    previous_imported_at = models.DateTimeField(_("previous import"), null=True, blank=True)
    kept_missing = models.BooleanField(_("kept the ratings of missing players"), default=False)
    new = models.PositiveIntegerField(_("new ratings"), default=0)
    changed = models.PositiveIntegerField(_("changed ratings"), default=0)
    unchanged = models.PositiveIntegerField(_("unchanged ratings"), default=0)
    missing = models.PositiveIntegerField(_("players missing from the file"), default=0)
    undone_at = models.DateTimeField(_("import undone"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("import undone by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ("-at", "-id")
        verbose_name = _("Elo list import")
        verbose_name_plural = _("Elo list imports")

    def __str__(self) -> str:
        return f"Elo {self.reference_date.isoformat()} {self.at:%Y-%m-%d %H:%M}"


class EloImportChange(models.Model):
    """A player's rating on the list before and after one import (None: not on the list)."""

    elo_import = models.ForeignKey(EloImport, on_delete=models.CASCADE, related_name="changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    before = models.PositiveIntegerField(null=True, blank=True)
    after = models.PositiveIntegerField(null=True, blank=True)


class EloUpload(models.Model):
    """An uploaded Elo file waiting between the preview and the import (never in the session);
    removed by the import, and after :data:`bridgeko.players.services.UPLOAD_MAX_AGE`."""

    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    edition = models.ForeignKey("editions.Edition", on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=200, blank=True)
    data = models.BinaryField()
    created_at = models.DateTimeField(db_index=True)
