"""The audit entry (after pretix's ``LoggingMixin.log_action``)."""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils.translation import gettext_lazy as _


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

    class Meta:
        ordering = ("-at", "-id")
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [models.Index(fields=("edition", "-at"))]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"
