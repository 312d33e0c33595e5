from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublicConfig(AppConfig):
    name = "bridgeko.public"
    label = "public"
    verbose_name = _("Public pages")

    def ready(self) -> None:
        # page_links: the public pages' links on the staff's pages (core.page_links)
        from bridgeko.public import page_links  # noqa: F401
