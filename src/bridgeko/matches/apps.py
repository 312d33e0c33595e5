from importlib import import_module

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
        # bracket_sync registers the bracket hooks; bracket_info the scores and dates the draw
        # app's pages show (core.match_info); standings_items the dashboard's decision item;
        # lineup_links the captain's line-up links on My team; agreement_links the date links
        # and the dashboard's waiting proposals (issue 21)
        from bridgeko.matches import (  # noqa: F401
            bracket_info,
            bracket_sync,
            lineup_links,
            standings_items,
        )

        # after the line-up links: a captain's links for a match list the line-up first
        import_module("bridgeko.matches.agreement_links")
