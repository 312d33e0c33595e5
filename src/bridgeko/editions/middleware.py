"""The edition of a page: ``request.edition`` for every URL with an ``edition`` kwarg, and the
edition's default language on its pages when the reader expressed no choice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from bridgeko.editions.models import Edition


def reader_chose_language(request: HttpRequest) -> bool:
    """Whether the reader expressed a language the site has: the language cookie (the switcher in
    the header) or the browser's ``Accept-Language`` — the same sources, in the same order, as
    Django's ``LocaleMiddleware`` reads before it falls back to the site default."""
    choices = [request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")]
    for code, _quality in parse_accept_lang_header(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        if code == "*":
            break
        choices.append(code)
    for code in choices:
        if not code:
            continue
        try:
            translation.get_supported_language_variant(code)
        except LookupError:
            continue
        return True
    return False


class EditionMiddleware:
    """After ``LocaleMiddleware``: on a URL with an ``edition`` kwarg (a slug) it sets
    ``request.edition`` (404 when there is no such edition), which the permission helper of the
    accounts app reads (so that app never imports this one).

    Language: one rule on every page — the reader's choice (the language cookie, else the
    browser's ``Accept-Language``), as ``LocaleMiddleware`` already applied it. Only when the
    reader expressed nothing does an edition page use the edition's language instead of the site
    default."""

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
        if translation.get_language_from_path(request.path_info) is not None:
            return None  # a public page: the language is the URL's
        if reader_chose_language(request):
            return None
        if edition.language in dict(settings.LANGUAGES):
            translation.activate(edition.language)
            request.LANGUAGE_CODE = edition.language
        return None
