"""The audit entry (after pretix's ``LoggingMixin.log_action``)."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _

from bridgeko.audit.messages import message_from_json
from bridgeko.competition.messages import Message
from bridgeko.core.i18n import tr


class AuditEntry(models.Model):
    """Who did what, when, in which edition, to which object; before and after as JSON."""

    action = models.CharField(_("action"), max_length=120, db_index=True)
    """Namespaced code, e.g. ``bridgeko.player.imported``."""
    at = models.DateTimeField(_("when"), db_index=True)
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
        related_name="audit_entries",
    )
    object_type = models.CharField(_("object type"), max_length=100, blank=True)
    object_id = models.CharField(_("object id"), max_length=64, blank=True)
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True, encoder=DjangoJSONEncoder)
    after = models.JSONField(_("after"), null=True, blank=True, encoder=DjangoJSONEncoder)
    summary = models.TextField(_("summary"), blank=True)
    """The summary in English (or a plain text, e.g. a name): what search and filters match."""
    summary_template = models.TextField(_("summary template"), blank=True, default="")
    """The English template the summary was worded from (marked with ``N_``); empty for a plain
    text and for entries written before templates were stored."""
    summary_params = models.JSONField(_("summary params"), default=dict, blank=True)
    """The template's params; a nested message is ``{"template": ..., "params": {...}}``."""

    class Meta:
        ordering = ("-at", "-id")
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=("edition", "-at"))]

    @property
    def summary_message(self) -> Message | None:
        """The summary as a translatable message (None: a plain text, shown as stored)."""
        if not self.summary_template:
            return None
        return message_from_json(
            {"template": self.summary_template, "params": self.summary_params or {}}
        )

    @property
    def display_summary(self) -> str:
        """The summary in the active language (the reader's), else the stored text."""
        message = self.summary_message
        return tr(message) if message is not None else self.summary

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"
