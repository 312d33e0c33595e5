"""What the players app contributes to the organiser's dashboard: the Elo list of the edition's
reference date (R10.1)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.accounts.permissions import is_registrar
from bridgeko.core import dashboard, l10n
from bridgeko.editions.models import Edition
from bridgeko.players.models import EloList


@dashboard.register
def elo_list(
    edition: Edition, viewer: dashboard.Viewer, today: date, now: datetime
) -> Iterator[dashboard.Item]:
    if not viewer.organiser:
        return
    reg = edition.regulations
    ref = reg.rating.reference_date
    if not EloList.objects.filter(reference_date=ref).exists():
        registrar = is_registrar(
            viewer.user
        )  # the Elo lists are shared: the registrar imports them
        detail = _("Team Elo uses the federation's list of this date (R10.1).")
        if not registrar:
            detail += " " + _("Ask the registrar to import it.")
        yield dashboard.Item(
            _("Import the Elo list of %(date)s") % {"date": l10n.show_date(ref)},
            detail=detail,
            url=reverse("players:import", kwargs={"edition": edition.slug}) if registrar else "",
            due=reg.entry.deadline,
            source="players",
        )
