"""The edition's default language applies on its pages unless the user chose one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


class EditionLanguageMiddleware:
    """After ``LocaleMiddleware``: on a URL with an ``edition`` kwarg, when the user has no
    language cookie (set by the language switcher), the edition's language is activated."""

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
        if not isinstance(slug, str) or settings.LANGUAGE_COOKIE_NAME in request.COOKIES:
            return None
        from bridgeko.editions.models import Edition

        language = Edition.objects.filter(slug=slug).values_list("language", flat=True).first()
        if language in dict(settings.LANGUAGES):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return None
