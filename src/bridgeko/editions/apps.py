from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EditionsConfig(AppConfig):
    name = "bridgeko.editions"
    label = "editions"
    verbose_name = _("Editions")

    def ready(self) -> None:
        from bridgeko.editions import dashboard_items  # noqa: F401  (registers providers)
