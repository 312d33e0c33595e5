"""An edition stores its regulations as TOML text; the engine's dataclasses are read from it."""

from __future__ import annotations

from functools import cached_property

from django.db import models
from django.utils.translation import gettext_lazy as _

from bridgeko.competition import regulations as regs


class Edition(models.Model):
    slug = models.SlugField(_("short name"), max_length=50, unique=True)
    """Used in URLs and commands, e.g. ``ko-1999``."""
    name = models.CharField(_("name"), max_length=200)
    year = models.PositiveIntegerField(_("year"))
    language = models.CharField(
        _("default language"), max_length=8, default="cs", help_text=_("cs or en")
    )
    """Copied from ``[edition] language`` of the regulations on every save (kept for speed)."""
    regulations_toml = models.TextField(_("regulations (TOML)"))
    previous = models.ForeignKey(
        "self",
        verbose_name=_("previous edition"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="next_editions",
        help_text=_("For returning-team fees and bans."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ("-year", "slug")
        verbose_name = _("edition")
        verbose_name_plural = _("editions")

    def __str__(self) -> str:
        return self.name

    @cached_property
    def regulations(self) -> regs.Regulations:
        """The engine's :class:`~bridgeko.competition.regulations.Regulations` of this edition."""
        return regs.loads(self.regulations_toml)
