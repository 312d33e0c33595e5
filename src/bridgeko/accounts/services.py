"""Role services: the organiser gives and takes roles in an edition."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from bridgeko.accounts.models import SITE_ROLES, LanguagePreference, Role, RoleAssignment
from bridgeko.audit.messages import english
from bridgeko.audit.services import record, snapshot
from bridgeko.competition.messages import N_, Message
from bridgeko.core.errors import ServiceError

ROLE_FIELDS = ("user", "edition", "role")


@dataclass(frozen=True)
class NewAccount:
    """The account created together with its first role (a new TD or captain): the person's
    e-mail is required; without a password the account gets an unusable one and the person
    sets it through a one-time link (:func:`set_password_link`)."""

    email: str
    first_name: str = ""
    last_name: str = ""
    password: str | None = None


def assign_role(
    *,
    edition: Any,
    username: str,
    role: str,
    user: Any,
    team_id: int | None = None,
    new_account: NewAccount | None = None,
) -> RoleAssignment:
    """Gives ``username`` the ``role`` in ``edition``; a captain needs a team of the edition.

    With ``new_account``, an account that does not exist yet is created (in the same
    transaction and audit entry; the password, if any, must pass Django's validators and is
    never audited). A ``new_account`` for a user name that exists is refused: the role would
    otherwise go to somebody else's account."""
    if role not in Role.values:
        raise ServiceError(_("Unknown role."), field="role")
    if (role in SITE_ROLES) != (edition is None):  # the registrar: the whole site, no edition
        raise ServiceError(_("This role is not given in an edition."), field="role")
    username = username.strip()
    target = get_user_model().objects.filter(username=username).first()
    if target is None and new_account is None:
        raise ServiceError(
            _("There is no account named %(name)s.") % {"name": username}, field="username"
        )
    if target is not None and new_account is not None:
        raise ServiceError(
            _(
                "An account named %(name)s exists already. Leave the fields of a new account "
                "empty to give it the role, or choose another user name for the new account."
            )
            % {"name": username},
            field="username",
        )
    if new_account is not None:
        new_account = _checked_account(username, new_account)
    if role == Role.CAPTAIN and team_id is None:
        raise ServiceError(_("A captain's role needs the team."), field="team")
    if role != Role.CAPTAIN:
        team_id = None
    if team_id is not None and not _team_of_edition(edition, team_id):
        raise ServiceError(
            _("There is no team %(team)s in this edition.") % {"team": team_id}, field="team"
        )
    if (
        target is not None
        and RoleAssignment.objects.filter(
            user=target, edition=edition, role=role, team=team_id
        ).exists()
    ):
        raise ServiceError(_("This account already has this role."), field="role")
    try:
        return _save_assignment(edition, target, username, role, team_id, new_account, user)
    except IntegrityError:  # a concurrent request gave the role or took the user name
        raise ServiceError(
            _("This account already has this role, or the name was taken meanwhile."),
            field="username",
        ) from None


def _checked_account(username: str, account: NewAccount) -> NewAccount:
    """The new account's data, checked: a valid user name, a valid e-mail, a password that
    passes Django's validators (or none)."""
    try:
        get_user_model().username_validator(username)
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), field="username") from None
    email = account.email.strip()
    if not email:
        raise ServiceError(_("Give the e-mail address of the new account."), field="email")
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(_("Enter a valid e-mail address."), field="email") from None
    account = replace(
        account,
        email=email,
        first_name=account.first_name.strip(),
        last_name=account.last_name.strip(),
        password=account.password or None,
    )
    if account.password is not None:
        probe = get_user_model()(
            username=username,
            email=email,
            first_name=account.first_name,
            last_name=account.last_name,
        )
        try:
            validate_password(account.password, probe)
        except ValidationError as exc:
            raise ServiceError(" ".join(exc.messages), field="new_password") from None
    return account


def _save_assignment(
    edition: Any,
    target: Any,
    username: str,
    role: str,
    team_id: int | None,
    new_account: NewAccount | None,
    user: Any,
) -> RoleAssignment:
    with transaction.atomic():
        created = target is None
        if target is None:
            assert new_account is not None
            target = get_user_model().objects.create_user(
                username=username,
                email=new_account.email,
                password=new_account.password,  # None: an unusable password
                first_name=new_account.first_name,
                last_name=new_account.last_name,
            )
        assignment = RoleAssignment.objects.create(
            user=target, edition=edition, role=role, team_id=team_id
        )
        after = _state(assignment) | {"account_created": created}
        if created:
            after["has_password"] = new_account is not None and new_account.password is not None
        record(
            "bridgeko.role.assigned",
            user=user,
            edition=edition,
            obj=assignment,
            after=after,
            summary=_summary(assignment),
        )
    return assignment


def _summary(assignment: RoleAssignment) -> Message:
    """The audit summary: the account, the role and a captain's team by its name."""
    return Message(
        (
            N_("%(user)s – %(role)s (team %(team)s)")
            if assignment.team_id
            else N_("%(user)s – %(role)s")
        ),
        {
            "user": str(assignment.user),
            "role": Message(english(Role(assignment.role).label)),
            "team": _team_name(assignment.team_id),
        },
    )


def _team_name(team_id: int | None) -> str:
    if team_id is None:
        return ""
    team_model = RoleAssignment._meta.get_field("team").related_model
    assert team_model is not None and not isinstance(team_model, str)
    name = team_model._default_manager.filter(pk=team_id).values_list("name", flat=True).first()
    return str(name) if name is not None else str(team_id)


def teams_of(edition: Any) -> list[tuple[int, str]]:
    """The edition's teams as (id, name), by name: what a captain's role is given for.

    The team's model is the target of the lazy foreign key ``RoleAssignment.team`` (this app is
    below the entries app and does not import it)."""
    team_model = RoleAssignment._meta.get_field("team").related_model
    assert team_model is not None and not isinstance(team_model, str)
    return [
        (int(pk), str(name))
        for pk, name in team_model._default_manager.filter(edition=edition)
        .order_by("name", "pk")
        .values_list("pk", "name")
    ]


def set_password_link_path(account: Any) -> str:
    """The path of a one-time link through which ``account`` sets its password (Django's
    password-reset token: it stops working once the password is set, or after
    ``PASSWORD_RESET_TIMEOUT``). Nothing is sent: the organiser hands the link over."""
    return reverse(
        "accounts:set_password",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(account.pk)),
            "token": default_token_generator.make_token(account),
        },
    )


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
            summary=_summary(assignment),
        )
        assignment.delete()


def remember_language(*, user: Any, language: str, now: datetime) -> bool:
    """Stores the language ``user`` chose on the site (the language of the mail they get);
    True when it changed. An unknown code, or an anonymous user, changes nothing."""
    if not getattr(user, "is_authenticated", False) or language not in dict(settings.LANGUAGES):
        return False
    with transaction.atomic():
        pref = LanguagePreference.objects.select_for_update().filter(user=user).first()
        if pref is not None and pref.language == language:
            return False
        before = {"language": pref.language} if pref is not None else {}
        if pref is None:
            pref = LanguagePreference(user=user)
        pref.language, pref.updated_at = language, now
        pref.save()
        record(
            "bridgeko.account.language_set",
            user=user,
            obj=user,
            before=before,
            after={"language": language},
            summary=f"{user.get_username()}: {language}",
            at=now,
        )
    return True


def language_of(user: Any) -> str | None:
    """The language ``user`` chose on the site, or None."""
    pref = LanguagePreference.objects.filter(user=user).first()
    return pref.language if pref is not None else None
