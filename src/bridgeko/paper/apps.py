from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PaperConfig(AppConfig):
    """Django app ``bridgeko.paper`` (label ``paper``): above ``boards`` (and the appeals and
    mail apps), below ``public``. No models: it reads the apps below and typesets PDFs."""

    name = "bridgeko.paper"
    label = "paper"
    verbose_name = _("Paper forms")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # team_links: the captain's links to the record and appeal form of each match (My team);
        # page_links: the PDFs' links on the pages of the apps below (core.page_links)
        from bridgeko.paper import page_links, team_links  # noqa: F401
