from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "bridgeko.players"
    label = "players"
    verbose_name = _("Players")

    def ready(self) -> None:
        from bridgeko.players import dashboard_items  # noqa: F401  (registers providers)
