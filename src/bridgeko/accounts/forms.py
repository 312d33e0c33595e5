from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from bridgeko.accounts.models import SITE_ROLES, Role

EDITION_ROLE_CHOICES = [(value, label) for value, label in Role.choices if value not in SITE_ROLES]
"""The roles given in an edition (the registrar is given on the site-wide roles page)."""


class RoleAssignmentForm(forms.Form):
    username = forms.CharField(label=_("Account (user name)"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=EDITION_ROLE_CHOICES)
    team_id = forms.IntegerField(label=_("Team (captains only)"), required=False, min_value=1)
    new_password = forms.CharField(
        label=_("Password of a new account"),
        required=False,
        widget=forms.PasswordInput,
        help_text=_("Only when the account does not exist yet: it is created with this password."),
    )


class RegistrarForm(forms.Form):
    """Gives the site-wide registrar role (creating editions, the player register)."""

    username = forms.CharField(label=_("Account (user name)"), max_length=150)
    new_password = forms.CharField(
        label=_("Password of a new account"),
        required=False,
        widget=forms.PasswordInput,
        help_text=_("Only when the account does not exist yet: it is created with this password."),
    )
