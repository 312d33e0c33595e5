from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "bridgeko.accounts"
    label = "accounts"
    verbose_name = _("Accounts and roles")

    def ready(self) -> None:
        # the signal receivers: accounts audited, login lockouts audited
        from bridgeko.accounts import account_audit, login  # noqa: F401
