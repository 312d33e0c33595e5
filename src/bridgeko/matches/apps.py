from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    """Django app ``bridgeko.matches`` (label ``matches``); the pure rules are
    :mod:`bridgeko.competition.match`, :mod:`~bridgeko.competition.seating` and
    :mod:`~bridgeko.competition.bracket`."""

    name = "bridgeko.matches"
    label = "matches"
    verbose_name = _("Matches")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from bridgeko.matches import (
            bracket_sync,  # noqa: F401  (registers the bracket hooks)
            lineup_links,  # noqa: F401  (the captain's line-up links)
        )
