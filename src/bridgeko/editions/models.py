"""An edition stores its regulations as TOML text; the engine's dataclasses are read from it."""

from __future__ import annotations

from functools import cached_property, lru_cache

from django.db import models
from django.utils.translation import gettext_lazy as _

from bridgeko.competition import regulations as regs


@lru_cache(maxsize=16)
def _regulations(text: str) -> regs.Regulations:
    """The regulations read from ``text``, once per text (they are immutable: frozen dataclasses
    and tuples, safe to share); a page or a service reads them on every request."""
    return regs.loads(text)


class EditionStage(models.TextChoices):
    """Where an edition stands. Stored on the edition and changed only by the services that move
    it (:func:`bridgeko.editions.services.move_stage`, called when the entries are closed or
    reopened and when the draw is held), each change audited; the apps below the draw read it
    instead of asking the draw app."""

    ENTRIES_OPEN = "entries_open", _("Entries open")
    ENTRIES_CLOSED = "entries_closed", _("Entries closed")
    DRAW_HELD = "draw_held", _("Draw held")
    IN_PLAY = "in_play", _("In play")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")
    """R8.1: too few teams entered (the closing of entries cancelled the competition)."""


STAGE_TRANSITIONS: dict[str, frozenset[str]] = {
    EditionStage.ENTRIES_OPEN: frozenset({EditionStage.ENTRIES_CLOSED, EditionStage.CANCELLED}),
    EditionStage.ENTRIES_CLOSED: frozenset({EditionStage.ENTRIES_OPEN, EditionStage.DRAW_HELD}),
    EditionStage.CANCELLED: frozenset({EditionStage.ENTRIES_OPEN}),
    EditionStage.DRAW_HELD: frozenset({EditionStage.IN_PLAY}),
    EditionStage.IN_PLAY: frozenset({EditionStage.FINISHED}),
    EditionStage.FINISHED: frozenset(),
}
"""The stages each stage may move to: closing the entries (or cancelling for too few teams,
R8.1), reopening them while no draw is held, holding the draw, the first match, the final."""

DRAW_HELD_STAGES = frozenset({EditionStage.DRAW_HELD, EditionStage.IN_PLAY, EditionStage.FINISHED})
"""The stages in which the draw has been held."""


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
    stage = models.CharField(
        _("stage"),
        max_length=20,
        choices=EditionStage.choices,
        default=EditionStage.ENTRIES_OPEN,
    )
    """Changed only by :func:`bridgeko.editions.services.move_stage` (audited)."""

    class Meta:
        ordering = ("-year", "slug")
        verbose_name = _("edition")
        verbose_name_plural = _("editions")

    def __str__(self) -> str:
        return self.name

    @property
    def draw_held(self) -> bool:
        """Whether the draw has been held (by the stored stage)."""
        return self.stage in DRAW_HELD_STAGES

    @cached_property
    def regulations(self) -> regs.Regulations:
        """The engine's :class:`~bridgeko.competition.regulations.Regulations` of this edition."""
        return _regulations(self.regulations_toml)
