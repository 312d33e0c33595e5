from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from bridgeko.accounts.models import SITE_ROLES, Role
from bridgeko.accounts.services import NewAccount

EDITION_ROLE_CHOICES = [(value, label) for value, label in Role.choices if value not in SITE_ROLES]
"""The roles given in an edition (the registrar is given on the site-wide roles page)."""

ACCOUNT_LIST = "accounts"
"""The id of the ``<datalist>`` of existing accounts the user-name box offers (the picker)."""


class AccountForm(forms.Form):
    """An existing account (picked by its user name) or a new one (with the person's name,
    e-mail and, optionally, a password)."""

    username = forms.CharField(
        label=_("Account (user name)"),
        max_length=150,
        widget=forms.TextInput(attrs={"list": ACCOUNT_LIST, "autocomplete": "off"}),
        help_text=_("Choose an existing account, or type the user name of a new one."),
    )
    first_name = forms.CharField(
        label=_("First name (new account)"), max_length=150, required=False
    )
    last_name = forms.CharField(label=_("Surname (new account)"), max_length=150, required=False)
    email = forms.CharField(
        label=_("E-mail (new account)"),
        max_length=254,
        required=False,
        widget=forms.EmailInput,
        help_text=_("Required for a new account; leave the new-account fields empty otherwise."),
    )
    new_password = forms.CharField(
        label=_("Password (new account)"),
        required=False,
        strip=False,
        widget=forms.PasswordInput,
        help_text=_(
            "Optional. Without it the account is created without a password and you get a "
            "one-time link through which the person sets it."
        ),
    )

    NEW_ACCOUNT_FIELDS = ("first_name", "last_name", "email", "new_password")

    def new_account(self) -> NewAccount | None:
        """The new account asked for, or None when every new-account field is empty."""
        data = self.cleaned_data
        if not any(data.get(name) for name in self.NEW_ACCOUNT_FIELDS):
            return None
        return NewAccount(
            email=data.get("email") or "",
            first_name=data.get("first_name") or "",
            last_name=data.get("last_name") or "",
            password=data.get("new_password") or None,
        )


class RoleAssignmentForm(AccountForm):
    role = forms.ChoiceField(label=_("Role"), choices=EDITION_ROLE_CHOICES)
    team = forms.TypedChoiceField(
        label=_("Team (captains only)"), required=False, coerce=int, empty_value=None
    )

    field_order = ("username", "role", "team", *AccountForm.NEW_ACCOUNT_FIELDS)

    def __init__(self, *args: Any, teams: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["team"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "—"), *teams]


class RegistrarForm(AccountForm):
    """Gives the site-wide registrar role (creating editions, the player register)."""
