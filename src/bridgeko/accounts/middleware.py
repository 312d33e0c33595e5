"""Who is acting: the request's user, for the audit entries written by model signals (accounts
changed through Django's admin or any other path, see :mod:`bridgeko.accounts.account_audit`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.http import HttpRequest, HttpResponse

_request: ContextVar[HttpRequest | None] = ContextVar("bridgeko_audit_request", default=None)


def current_actor() -> Any:
    """The logged-in user of the request being served (None outside a request, e.g. a
    command, and for anonymous visitors)."""
    request = _request.get()
    user = getattr(request, "user", None) if request is not None else None
    return user if getattr(user, "is_authenticated", False) else None


@contextmanager
def acting(request: HttpRequest) -> Iterator[None]:
    token = _request.set(request)
    try:
        yield
    finally:
        _request.reset(token)


class AuditActorMiddleware:
    """Makes the request's user the actor of account audit entries written while it is served."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with acting(request):
            return self.get_response(request)
