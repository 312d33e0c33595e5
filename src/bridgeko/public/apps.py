from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublicConfig(AppConfig):
    name = "bridgeko.public"
    label = "public"
    verbose_name = _("Public pages")

    def ready(self) -> None:
        # page_links: the public pages' links on the staff's pages (core.page_links)
        from django.db.models.signals import post_save

        from bridgeko.audit.models import AuditEntry
        from bridgeko.core import events
        from bridgeko.public import page_links  # noqa: F401

        # The static export (BRIDGEKO_PUBLIC_DIR): every committed change is an audit entry (the
        # architecture's rule); the double-dummy analysis, which is not audited board by board,
        # tells its progress by an event.
        post_save.connect(_audited, sender=AuditEntry, dispatch_uid="public-export-audit")
        events.subscribe("boards.analysed", _analysed)
        # the chances to win the event (public.event_odds): recomputed after a result or the
        # draw, in the background; the export follows them
        events.subscribe("match.result", _result)
        events.subscribe("draw.held", _drawn)
        events.subscribe("odds.updated", _analysed)


def _audited(sender: Any, instance: Any, created: bool = False, **kwargs: Any) -> None:
    if created and not kwargs.get("raw"):
        from bridgeko.public.export import schedule_export

        schedule_export(instance.edition_id)


def _analysed(*, edition_id: int, **kwargs: Any) -> None:
    from bridgeko.public.export import schedule_export

    schedule_export(edition_id)


def _result(*, match: Any, **kwargs: Any) -> None:
    from bridgeko.public.event_odds import schedule

    schedule(match.edition_id)


def _drawn(*, edition: Any, **kwargs: Any) -> None:
    from bridgeko.public.event_odds import schedule

    schedule(edition.pk)
