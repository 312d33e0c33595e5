from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EntriesConfig(AppConfig):
    """Django app ``bridgeko.entries`` (label ``entries``); the pure rules it calls live in
    :mod:`bridgeko.competition.entries`, :mod:`bridgeko.competition.rating` and
    :mod:`bridgeko.competition.sanctions`."""

    name = "bridgeko.entries"
    label = "entries"
    verbose_name = _("Team entries")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # dashboard_items; page_links (core.page_links: a team's name links to its page)
        from bridgeko.entries import dashboard_items, page_links  # noqa: F401  (registers providers)
