"""The outbox: one row per mail to one recipient, written inside the transaction of the action
that caused it (a rolled-back action mails nothing) and sent after the commit
(:mod:`bridgeko.mail.services`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Status(models.TextChoices):
    QUEUED = "queued", pgettext_lazy("mail", "Queued")
    SENT = "sent", pgettext_lazy("mail", "Sent")
    FAILED = "failed", pgettext_lazy("mail", "Failed")


class Event(models.TextChoices):
    """What caused a mail (the events of :mod:`bridgeko.core.events`)."""

    ENTRY = "entry.confirmed", _("Entry confirmed")
    DRAW = "draw.held", _("Draw held")
    SCHEDULE = "schedule.published", _("Schedule published")
    RESCHEDULED = "match.rescheduled", _("Match rescheduled")
    RESULT = "match.result", _("Match result")
    APPEAL = "appeal.decided", _("Appeal decided")
    DATE_PROPOSED = "date.proposed", _("Another date proposed")
    DATE_ANSWERED = "date.answered", _("Proposed date answered")
    RECORD_SUBMITTED = "record.submitted", _("Match record submitted")
    RECORD_ANSWERED = "record.answered", _("Match record answered")
    RECORD_DECIDED = "record.decided", _("Match record approved, rejected or withdrawn")


class Outbox(models.Model):
    edition = models.ForeignKey(
        "editions.Edition", on_delete=models.CASCADE, related_name="+", verbose_name=_("edition")
    )
    event = models.CharField(_("event"), max_length=40, choices=Event.choices)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recipient"),
    )
    to = models.EmailField(_("address"))
    language = models.CharField(_("language"), max_length=8)
    subject = models.CharField(_("subject"), max_length=250)
    body = models.TextField(_("text"))
    team = models.ForeignKey(
        "entries.Team",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("team"),
    )
    match = models.ForeignKey(
        "matches.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(_("created"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.TextField(_("error"), blank=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        verbose_name = _("mail")
        verbose_name_plural = _("outbox")
        indexes = [models.Index(fields=("status",), name="mail_outbox_status")]

    def __str__(self) -> str:
        return f"{self.to}: {self.subject}"
