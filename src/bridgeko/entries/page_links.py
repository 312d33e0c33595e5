"""A team's name links to its page on the pages of the apps below this one (the roles of an
edition, a player): :mod:`bridgeko.core.page_links`. No queries."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from bridgeko.core import page_links
from bridgeko.core.page_links import Link


def team_link(request: Any, edition: Any, team_id: int, name: str) -> list[Link]:
    url = reverse("entries:detail", kwargs={"edition": edition.slug, "team": team_id})
    return [Link(name, url)]


page_links.register("team_link", team_link)
