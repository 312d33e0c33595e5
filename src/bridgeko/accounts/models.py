"""Roles are given per edition: ``RoleAssignment(user, edition, role, team)``; the one
site-wide role, the registrar, is a ``RoleAssignment`` without an edition."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    """What a user may do in one edition (the public needs no role: it only reads), or, for the
    registrar, on the whole site."""

    ORGANISER = "organiser", _("Organiser")
    """Everything in the edition."""
    CHIEF_TD = "chief_td", _("Chief tournament director")
    """An organiser role: everything, including roster exceptions and the draw."""
    TD = "td", _("Tournament director")
    """Results, line-ups, penalties and appeals of the matches they direct."""
    APPEALS = "appeals", _("Appeals committee member")
    CAPTAIN = "captain", _("Team captain")
    """Their own team only (``RoleAssignment.team_id``)."""
    REGISTRAR = "registrar", _("Registrar (whole site)")
    """The site-wide role (an assignment without an edition): creates editions and keeps the
    player register and the Elo lists, which every edition shares; gives the registrar role."""


ORGANISER_ROLES: frozenset[str] = frozenset({Role.ORGANISER, Role.CHIEF_TD})
"""Roles that may do everything in an edition."""

SITE_ROLES: frozenset[str] = frozenset({Role.REGISTRAR})
"""Roles held without an edition (``RoleAssignment.edition`` is None); every other role needs
an edition."""


class RoleAssignment(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="role_assignments",
    )
    edition = models.ForeignKey(
        "editions.Edition",
        verbose_name=_("edition"),
        on_delete=models.CASCADE,
        related_name="role_assignments",
        null=True,
        blank=True,
        help_text=_("Empty for a site-wide role (the registrar)."),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    team = models.ForeignKey(
        "entries.Team",
        verbose_name=_("team"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="role_assignments",
        help_text=_("For a captain: their team in this edition."),
    )
    """A lazy foreign key to a model of a higher app (entries), the one documented exception to
    the order of the apps (docs/web-architecture.md): this app never imports the entries app;
    the captain's team is read through this key (``team_id``)."""

    class Meta:
        verbose_name = _("role assignment")
        verbose_name_plural = _("role assignments")
        ordering = ("edition", "role", "user__username")
        constraints = [
            models.UniqueConstraint(
                fields=("user", "edition", "role"),
                condition=models.Q(team__isnull=True),
                name="accounts_unique_role",
            ),
            models.UniqueConstraint(
                fields=("user", "edition", "role", "team"),
                condition=models.Q(team__isnull=False),
                name="accounts_unique_team_role",
            ),
            models.UniqueConstraint(
                fields=("user", "role"),
                condition=models.Q(edition__isnull=True),
                name="accounts_unique_site_role",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(role="registrar", edition__isnull=True)
                    | (~models.Q(role="registrar") & models.Q(edition__isnull=False))
                ),
                name="accounts_site_role_without_edition",
            ),
        ]

    def __str__(self) -> str:
        suffix = f" (team {self.team_id})" if self.team_id else ""
        return f"{self.user} – {self.get_role_display()}{suffix}"


class LanguagePreference(models.Model):
    """The language a user chose on the site (the language switcher): the language of the mail
    they get (:mod:`bridgeko.mail`). Without one, a mail is in the edition's language."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="language_preference",
    )
    language = models.CharField(_("language"), max_length=8)
    updated_at = models.DateTimeField(_("updated"))

    class Meta:
        verbose_name = _("language preference")
        verbose_name_plural = _("language preferences")

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"
