from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DrawConfig(AppConfig):
    """Django app ``bridgeko.draw`` (label ``draw``); the pure draw is
    :mod:`bridgeko.competition.draw`."""

    name = "bridgeko.draw"
    label = "draw"
    verbose_name = _("Draw")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # dashboard_items, team_matches; page_links (core.page_links: the draw's links)
        from bridgeko.draw import (  # noqa: F401  (registers providers)
            dashboard_items,
            page_links,
            team_matches,
        )
