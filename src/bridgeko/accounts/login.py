"""Login throttling with django-axes (settings: ``AXES_*`` in :mod:`bridgeko.web.settings`).

After ``AXES_FAILURE_LIMIT`` wrong passwords for one account or from one address, logging in is
refused for ``AXES_COOLOFF_TIME`` (even with the right password). :func:`locked_out` is the page
shown then (the login page with the reason, HTTP 429); :func:`on_user_locked_out` writes the
lockout into bridgeko's audit log (one site-wide entry per lockout, see
:func:`bridgeko.accounts.account_audit.record_lockout`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from bridgeko.accounts.account_audit import record_lockout

MAX_USERNAME = 150


def cool_off() -> timedelta:
    value = settings.AXES_COOLOFF_TIME
    return value if isinstance(value, timedelta) else timedelta(minutes=15)


def cool_off_minutes() -> int:
    return max(1, round(cool_off().total_seconds() / 60))


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: the header a trusted reverse proxy sets
    (``BRIDGEKO_CLIENT_IP_HEADER``), else the connection's address."""
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    if header:
        key = "HTTP_" + header.upper().replace("-", "_")
        value = str(request.META.get(key, "")).split(",")[0].strip()
        if value:
            return value[:45]
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None


class AccountResetHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """Axes' database handler (``AXES_HANDLER``), except that a successful login forgets the
    failed logins *for that account* only. Axes' own reset also forgets every failure from the
    client's address, so that anyone holding one valid account could log in with it after every
    few guesses and guess another account's password without limit."""

    def reset_user_attempts(self, request: Any, credentials: Any = None) -> int:
        username = get_client_username(request, credentials)
        if not username:
            return 0
        count, _ = AccessAttempt.objects.filter(username=username).delete()
        return int(count)


def lockout_message(minutes: int) -> str:
    return ngettext(
        "Too many wrong passwords for this account or from this address. Logging in is "
        "refused for %(minutes)s minute; until then even the right password is not accepted.",
        "Too many wrong passwords for this account or from this address. Logging in is "
        "refused for %(minutes)s minutes; until then even the right password is not accepted.",
        minutes,
    ) % {"minutes": minutes}


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The login page with the lockout's reason (axes' ``AXES_LOCKOUT_CALLABLE``), HTTP 429."""
    username = ""
    if isinstance(credentials, dict):
        username = str(credentials.get("username") or "")[:MAX_USERNAME]
    form = AuthenticationForm(request, initial={"username": username})
    return render(
        request,
        "accounts/locked_out.html",
        {
            "form": form,
            "lockout_message": lockout_message(cool_off_minutes()),
            "next": request.POST.get("next", "") if request.method == "POST" else "",
        },
        status=429,
    )


@receiver(user_locked_out, dispatch_uid="bridgeko.accounts.login.on_user_locked_out")
def on_user_locked_out(
    sender: Any, request: Any = None, username: Any = None, ip_address: Any = None, **kw: Any
) -> None:
    """Axes locked an account or an address out: a site-wide audit entry (once per lockout)."""
    record_lockout(
        username=str(username)[:MAX_USERNAME] if username else "",
        ip_address=str(ip_address) if ip_address else "",
        cool_off=cool_off(),
        limit=int(settings.AXES_FAILURE_LIMIT),
    )
