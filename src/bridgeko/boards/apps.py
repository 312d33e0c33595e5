from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BoardsConfig(AppConfig):
    """Django app ``bridgeko.boards`` (label ``boards``): above ``matches``, below ``public``.
    The pure parts are :mod:`bridgeko.bridge.dealing`, :mod:`~bridgeko.bridge.commit_reveal`,
    :mod:`~bridgeko.bridge.analysis` and the file formats of :mod:`bridgeko.bridge`."""

    name = "bridgeko.boards"
    label = "boards"
    verbose_name = _("Boards")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # handrecord_links: the hand records' links on the TD's match page (core.segment_links);
        # page_links: "Boards of this match" on the TD's match page (core.page_links)
        from bridgeko.boards import handrecord_links, page_links  # noqa: F401
