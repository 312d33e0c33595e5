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
        from bridgeko.draw import dashboard_items, team_matches  # noqa: F401  (registers providers)
