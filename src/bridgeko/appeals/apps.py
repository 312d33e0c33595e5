from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AppealsConfig(AppConfig):
    """Django app ``bridgeko.appeals`` (label ``appeals``); the pure rules are
    :mod:`bridgeko.competition.appeals`."""

    name = "bridgeko.appeals"
    label = "appeals"
    verbose_name = _("Appeals")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # links: the state of a team's appeals on My team (core.team_matches) and the TD's
        # "Lodge an appeal" on the match page (core.page_links)
        from bridgeko.appeals import links  # noqa: F401
