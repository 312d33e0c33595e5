"""The one permission helper: every mutating view is wrapped in :func:`edition_role_required`,
:func:`registrar_required` (what every edition shares: creating editions, the player register and
the Elo lists, the site-wide roles) or :func:`organiser_of_any_edition_required` (the audit log).

- anonymous users are sent to the login page;
- logged-in users without the role get a friendly 403 page;
- superusers may do everything;
- an edition's roles count in that edition only: an organiser of one edition is a stranger in
  every other, and none of them changes the shared register (issue 8: an organiser of 1998 could
  rename a player on a 1999 roster, create an edition and through it replace the 1999 Elo list);
- the registrar (a site-wide ``RoleAssignment`` without an edition) keeps the shared data and
  reads every edition's register pages, but has no role in an edition's own data.

A view that takes an object by its id from the URL (a team, a role assignment, a match) looks
it up *in the URL's edition* (``get_object_or_404(Team, pk=..., edition=edition)``): the edition
checked here is then the edition of the object changed (another edition's object is a 404).

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
from django.db.models import Q
from django.http import HttpRequest, HttpResponse

from bridgeko.accounts.models import ORGANISER_ROLES, SITE_ROLES, Role, RoleAssignment

View = Callable[..., HttpResponse]
ORGANISERS: tuple[str, ...] = tuple(sorted(ORGANISER_ROLES))
REGISTRAR = str(Role.REGISTRAR)


def is_registrar(user: Any) -> bool:
    """True for a superuser and for a holder of the site-wide registrar role."""
    if not getattr(user, "is_authenticated", False):
        return False
    return (
        bool(user.is_superuser)
        or RoleAssignment.objects.filter(
            user=user, edition__isnull=True, role=Role.REGISTRAR
        ).exists()
    )


def roles_of(user: Any, edition: Any, team_id: int | None = None) -> frozenset[str]:
    """The roles ``user`` holds in ``edition`` and the site-wide roles (``registrar``); a
    captain's role counts only for ``team_id`` when one is given."""
    if not getattr(user, "is_authenticated", False) or edition is None:
        return frozenset()
    roles: set[str] = set()
    for role, team in RoleAssignment.objects.filter(
        Q(edition=edition) | Q(edition__isnull=True, role__in=SITE_ROLES), user=user
    ).values_list("role", "team_id"):
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
    """An organiser (or chief TD) of ``edition``, or a superuser."""
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
    named by the URL's ``edition`` kwarg; ``REGISTRAR`` among ``roles`` lets the site-wide
    registrar in too (the register's read-only pages). See the module docstring."""

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
            if team_id is None:  # the roles just read (one query less on every page)
                held = request.edition_roles  # type: ignore[attr-defined]
                allowed = user.is_superuser or bool(held & (ORGANISER_ROLES | set(roles)))
            else:
                allowed = has_role(user, edition, roles, team_id=team_id)
            if not allowed:
                raise PermissionDenied
            return view(request, edition, *args, **kwargs)

        wrapper.bridgeko_roles = frozenset(roles) | ORGANISER_ROLES  # type: ignore[attr-defined]
        return wrapper

    return decorate


def registrar_required(view: View) -> View:
    """For what every edition shares (creating an edition, the player register and its Elo
    lists, the site-wide roles): superusers and registrars only, never an edition's organiser.

    Under an edition's URL (``e/<edition>/players/...``) the edition (found by
    ``EditionMiddleware``) is passed to the view instead of its slug, as by
    :func:`edition_role_required`; it names the page the change was made from, not the limit of
    what it changes (the service audits it under every edition it touches)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        edition = None
        if "edition" in kwargs:
            slug = kwargs.pop("edition")
            edition = getattr(request, "edition", None)
            if edition is None or edition.slug != slug:
                raise ImproperlyConfigured(
                    "registrar_required needs bridgeko.editions.middleware.EditionMiddleware"
                )
            request.edition_roles = roles_of(request.user, edition)  # type: ignore[attr-defined]
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_registrar(request.user):
            raise PermissionDenied
        if edition is not None:
            return view(request, edition, *args, **kwargs)
        return view(request, *args, **kwargs)

    wrapper.bridgeko_roles = SITE_ROLES  # type: ignore[attr-defined]
    return wrapper


def organiser_of_any_edition_required(view: View) -> View:
    """For the audit log (outside an edition): superusers, registrars and organisers of at
    least one edition (each sees the entries of the editions they organise; a registrar also
    the site-wide ones)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (organises_any_edition(request.user) or is_registrar(request.user)):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    wrapper.bridgeko_roles = ORGANISER_ROLES | SITE_ROLES  # type: ignore[attr-defined]
    return wrapper
