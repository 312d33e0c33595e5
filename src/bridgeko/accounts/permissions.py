"""The one permission helper: every mutating view is wrapped in :func:`edition_role_required`
(or :func:`organiser_of_any_edition_required` for the few views outside an edition).

- anonymous users are sent to the login page;
- logged-in users without the role get a friendly 403 page;
- superusers may do everything.

The wrapper takes the URL's :class:`~bridgeko.editions.models.Edition` from ``request.edition``
(set, or answered with a 404 when unknown, by the editions app's ``EditionMiddleware``: this app
is below the editions app and never imports it), sets ``request.edition_roles`` and passes the
edition object to the view instead of its slug. ``team_kwarg`` restricts captains to their own
team: the URL kwarg named so
must equal the captain's ``RoleAssignment.team_id`` (organisers pass whatever the team).

The decorated view carries ``view.bridgeko_roles`` so that the permission test can check that
every protected URL is in its registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import HttpRequest, HttpResponse

from bridgeko.accounts.models import ORGANISER_ROLES, Role, RoleAssignment

View = Callable[..., HttpResponse]
ORGANISERS: tuple[str, ...] = tuple(sorted(ORGANISER_ROLES))


def roles_of(user: Any, edition: Any, team_id: int | None = None) -> frozenset[str]:
    """The roles ``user`` holds in ``edition``; a captain's role counts only for ``team_id``
    when one is given."""
    if not getattr(user, "is_authenticated", False) or edition is None:
        return frozenset()
    roles: set[str] = set()
    for role, team in RoleAssignment.objects.filter(user=user, edition=edition).values_list(
        "role", "team_id"
    ):
        if role == Role.CAPTAIN and team_id is not None and team != team_id:
            continue
        roles.add(role)
    return frozenset(roles)


def has_role(user: Any, edition: Any, roles: Iterable[str], team_id: int | None = None) -> bool:
    """True when ``user`` may act with one of ``roles`` in ``edition`` (organisers and
    superusers always may)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    held = roles_of(user, edition, team_id)
    return bool(held & ORGANISER_ROLES) or bool(held & set(roles))


def is_organiser(user: Any, edition: Any) -> bool:
    return has_role(user, edition, ORGANISER_ROLES)


def organises_any_edition(user: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return (
        bool(user.is_superuser)
        or RoleAssignment.objects.filter(user=user, role__in=ORGANISER_ROLES).exists()
    )


def edition_role_required(*roles: str, team_kwarg: str | None = None) -> Callable[[View], View]:
    """Allows the view to users holding one of ``roles`` (organisers always) in the edition
    named by the URL's ``edition`` kwarg; see the module docstring."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            slug = kwargs.pop("edition")
            edition = getattr(request, "edition", None)
            if edition is None or edition.slug != slug:
                raise ImproperlyConfigured(
                    "edition_role_required needs bridgeko.editions.middleware.EditionMiddleware"
                )
            user = request.user
            request.edition_roles = roles_of(user, edition)  # type: ignore[attr-defined]
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            team_id = None
            if team_kwarg is not None and kwargs.get(team_kwarg) is not None:
                team_id = int(kwargs[team_kwarg])
            if not has_role(user, edition, roles, team_id=team_id):
                raise PermissionDenied
            return view(request, edition, *args, **kwargs)

        wrapper.bridgeko_roles = frozenset(roles) | ORGANISER_ROLES  # type: ignore[attr-defined]
        return wrapper

    return decorate


def organiser_of_any_edition_required(view: View) -> View:
    """For views outside an edition (creating an edition, the audit log): superusers and
    organisers of at least one edition."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not organises_any_edition(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    wrapper.bridgeko_roles = ORGANISER_ROLES  # type: ignore[attr-defined]
    return wrapper
