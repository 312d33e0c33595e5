"""Role services: the organiser gives and takes roles in an edition."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from bridgeko.accounts.models import SITE_ROLES, Role, RoleAssignment
from bridgeko.audit.messages import english
from bridgeko.audit.services import record, snapshot
from bridgeko.competition.messages import N_, Message
from bridgeko.core.errors import ServiceError

ROLE_FIELDS = ("user", "edition", "role")


def assign_role(
    *,
    edition: Any,
    username: str,
    role: str,
    user: Any,
    team_id: int | None = None,
    new_password: str | None = None,
) -> RoleAssignment:
    """Gives ``username`` the ``role`` in ``edition``; a captain needs a team.

    With ``new_password``, an account that does not exist yet is created (in the same
    transaction and audit entry); the password must pass Django's validators."""
    if role not in Role.values:
        raise ServiceError(_("Unknown role."), field="role")
    if (role in SITE_ROLES) != (edition is None):  # the registrar: the whole site, no edition
        raise ServiceError(_("This role is not given in an edition."), field="role")
    username = username.strip()
    target = get_user_model().objects.filter(username=username).first()
    if target is None and not new_password:
        raise ServiceError(
            _("There is no account named %(name)s.") % {"name": username}, field="username"
        )
    if target is None:
        try:
            get_user_model().username_validator(username)
        except ValidationError as exc:
            raise ServiceError(" ".join(exc.messages), field="username") from None
        try:
            validate_password(new_password or "", get_user_model()(username=username))
        except ValidationError as exc:
            raise ServiceError(" ".join(exc.messages), field="new_password") from None
    if role == Role.CAPTAIN and team_id is None:
        raise ServiceError(_("A captain's role needs the team."), field="team_id")
    if role != Role.CAPTAIN:
        team_id = None
    if team_id is not None and not _team_of_edition(edition, team_id):
        raise ServiceError(
            _("There is no team %(team)s in this edition.") % {"team": team_id}, field="team_id"
        )
    if (
        target is not None
        and RoleAssignment.objects.filter(
            user=target, edition=edition, role=role, team=team_id
        ).exists()
    ):
        raise ServiceError(_("This account already has this role."), field="role")
    try:
        return _save_assignment(edition, target, username, role, team_id, new_password, user)
    except IntegrityError:  # a concurrent request gave the role or took the user name
        raise ServiceError(
            _("This account already has this role, or the name was taken meanwhile."),
            field="username",
        ) from None


def _save_assignment(
    edition: Any,
    target: Any,
    username: str,
    role: str,
    team_id: int | None,
    new_password: str | None,
    user: Any,
) -> RoleAssignment:
    with transaction.atomic():
        created = target is None
        if target is None:
            target = get_user_model().objects.create_user(username=username, password=new_password)
        assignment = RoleAssignment.objects.create(
            user=target, edition=edition, role=role, team_id=team_id
        )
        record(
            "bridgeko.role.assigned",
            user=user,
            edition=edition,
            obj=assignment,
            after=_state(assignment) | {"account_created": created},
            summary=Message(
                (
                    N_("%(user)s – %(role)s (team %(team)s)")
                    if assignment.team_id
                    else N_("%(user)s – %(role)s")
                ),
                {
                    "user": str(assignment.user),
                    "role": Message(english(Role(assignment.role).label)),
                    "team": assignment.team_id or "",
                },
            ),
        )
    return assignment


def _state(assignment: RoleAssignment) -> dict[str, Any]:
    """The assignment as the audit log stores it (the team as ``team_id``)."""
    return snapshot(assignment, ROLE_FIELDS) | {"team_id": assignment.team_id}


def _team_of_edition(edition: Any, team_id: int) -> bool:
    """True when ``team_id`` is a team of ``edition`` (a captain acts only for such a team).

    The team's model is the target of the lazy foreign key ``RoleAssignment.team`` (this app is
    below the entries app and does not import it)."""
    team_model = RoleAssignment._meta.get_field("team").related_model
    assert team_model is not None and not isinstance(team_model, str)
    return bool(team_model._default_manager.filter(pk=team_id, edition=edition).exists())


def revoke_role(*, assignment: RoleAssignment, user: Any) -> None:
    """Takes a role away; the last organiser of an edition cannot be removed (checked under a
    lock on the edition's organiser roles, so two organisers removing each other at once cannot
    leave the edition without one)."""
    with transaction.atomic():
        organisers = list(
            # of=self: the model's ordering joins the (nullable) edition, and PostgreSQL refuses
            # FOR UPDATE on the nullable side of an outer join (a site-wide role has no edition)
            RoleAssignment.objects.select_for_update(of=("self",))
            .filter(edition=assignment.edition_id, role__in=(Role.ORGANISER, Role.CHIEF_TD))
            .values_list("pk", flat=True)
        )
        if not RoleAssignment.objects.filter(pk=assignment.pk).exists():
            raise ServiceError(_("This role was removed meanwhile."))
        if assignment.role in (Role.ORGANISER, Role.CHIEF_TD) and not (
            set(organisers) - {assignment.pk}
        ):
            raise ServiceError(_("The edition must keep at least one organiser."))
        before = _state(assignment)
        record(
            "bridgeko.role.revoked",
            user=user,
            edition=assignment.edition,
            obj=assignment,
            before=before,
            summary=Message(
                (
                    N_("%(user)s – %(role)s (team %(team)s)")
                    if assignment.team_id
                    else N_("%(user)s – %(role)s")
                ),
                {
                    "user": str(assignment.user),
                    "role": Message(english(Role(assignment.role).label)),
                    "team": assignment.team_id or "",
                },
            ),
        )
        assignment.delete()
