from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MailConfig(AppConfig):
    name = "bridgeko.mail"
    label = "mail"
    verbose_name = _("E-mail to captains")

    def ready(self) -> None:
        from bridgeko.mail import listeners

        listeners.subscribe_all()
