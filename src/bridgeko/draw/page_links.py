"""The draw's links on the pages of the entries app below it (:mod:`bridgeko.core.page_links`).
No queries; the pages show them where they did before (each view checks its permission)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.core import page_links
from bridgeko.core.page_links import Link


def print_index(request: Any, edition: Any) -> list[Link]:
    url = reverse("draw:print_index", kwargs={"edition": edition.slug})
    return [Link(_("Printable lists"), url)]


def no_show(request: Any, edition: Any, team: Any) -> list[Link]:
    url = reverse("draw:no_show", kwargs={"edition": edition.slug, "team": team.pk})
    return [Link(_("Failure to appear"), url)]


page_links.register("teams", print_index, position=20)
page_links.register("team_actions", no_show)
