"""The edition of a page: ``request.edition`` for every URL with an ``edition`` kwarg, and the
edition's default language on its pages unless the user chose one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation

from bridgeko.editions.models import Edition


class EditionMiddleware:
    """After ``LocaleMiddleware``: on a URL with an ``edition`` kwarg (a slug) it sets
    ``request.edition`` (404 when there is no such edition), which the permission helper of the
    accounts app reads (so that app never imports this one); and, when the user has no language
    cookie (set by the language switcher), it activates the edition's language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., Any],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        slug = view_kwargs.get("edition")
        if not isinstance(slug, str):
            return None
        edition = Edition.objects.filter(slug=slug).first()
        if edition is None:
            raise Http404("No such edition.")
        request.edition = edition  # type: ignore[attr-defined]
        if settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
            return None
        if edition.language in dict(settings.LANGUAGES):
            translation.activate(edition.language)
            request.LANGUAGE_CODE = edition.language
        return None
