from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    name = "bridgeko.players"
    label = "players"
    verbose_name = _("Players")
