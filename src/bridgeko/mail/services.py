"""Writing and sending the mail to captains.

:func:`queue` writes one :class:`~bridgeko.mail.models.Outbox` row per recipient, in the
recipient's language, inside the transaction of the action that caused it (the listeners of
:mod:`bridgeko.mail.listeners` run in a savepoint of it), and schedules :func:`send` after the
commit (:func:`bridgeko.core.background.after_commit`): in a background thread, so the request
never waits for the mail server, and an error of the server only marks the row failed
(``bridgeko send-mail --retry-failed`` or the outbox page's "send again" try again).

Who gets a team's mail: every account holding the captain's role for the team
(``accounts.RoleAssignment``) with an e-mail address. A captain's language is the one they
chose on the site (``accounts.LanguagePreference``), else the edition's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.accounts.services import language_of
from bridgeko.audit.services import record
from bridgeko.competition.schedule import zone
from bridgeko.core import background
from bridgeko.core.errors import ServiceError
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.mail.models import Outbox, Status

ERROR_MAX = 2000
"""The stored error of a failed mail is cut to this many characters."""


@dataclass(frozen=True, slots=True)
class Recipient:
    user: Any
    email: str
    language: str


def site_url(path: str) -> str:
    """The absolute address of ``path`` on the site (``BRIDGEKO_SITE_URL``)."""
    base = str(getattr(settings, "BRIDGEKO_SITE_URL", "http://localhost:8000")).rstrip("/")
    return base + path


def link(name: str, **kwargs: Any) -> str:
    return site_url(reverse(name, kwargs=kwargs))


def languages() -> set[str]:
    return {code for code, _name in settings.LANGUAGES}


def tidy(text: str) -> str:
    """A rendered text mail: no blank lines in a row nor at the ends, no spaces at line ends
    (but the signature's "-- ")."""
    lines = [line if line == "-- " else line.rstrip() for line in text.strip().splitlines()]
    out: list[str] = []
    for line in lines:
        if line or (out and out[-1]):
            out.append(line)
    return "\n".join(out).strip() + "\n"


def captains(team: Team, edition: Edition) -> list[Recipient]:
    """The captains of ``team`` who have an e-mail address, each with their language."""
    out = []
    assignments = RoleAssignment.objects.filter(team=team, role=Role.CAPTAIN).select_related("user")
    default = edition.language if edition.language in languages() else settings.LANGUAGE_CODE
    for assignment in assignments.order_by("user__username"):
        user = assignment.user
        if not user.is_active or not user.email:
            continue
        out.append(Recipient(user, user.email, language_of(user) or default))
    return out


def organisers(edition: Edition) -> list[Recipient]:
    """The edition's organisers and chief TDs who have an e-mail address, each in their
    language (what they are told: an agreement of the captains, R14.2a)."""
    out = []
    default = edition.language if edition.language in languages() else settings.LANGUAGE_CODE
    seen: set[int] = set()
    held = RoleAssignment.objects.filter(
        edition=edition, role__in=(Role.ORGANISER, Role.CHIEF_TD)
    ).select_related("user")
    for assignment in held.order_by("user__username"):
        user = assignment.user
        if user.pk in seen or not user.is_active or not user.email:
            continue
        seen.add(user.pk)
        out.append(Recipient(user, user.email, language_of(user) or default))
    return out


def queue(
    *,
    edition: Edition,
    event: str,
    template: str,
    teams: Iterable[Team],
    context: Callable[[Team], Mapping[str, Any]],
    match: Any = None,
    now: datetime | None = None,
    people: Iterable[tuple[Team, Recipient]] | None = None,
) -> list[Outbox]:
    """Writes the mail ``template`` (``mail/email/<template>.txt`` and ``..._subject.txt``) to
    the captains of ``teams``, each in their language: ``context(team)`` is called with that
    language active (and the edition's time zone), so what it words is in the reader's language.
    ``people`` adds other recipients (the organisers), each with the team ``context`` is
    called with.
    Sending follows the commit. Call inside the action's transaction."""
    now = now or timezone.now()
    rows: list[Outbox] = []
    recipients = [(team, person) for team in teams for person in captains(team, edition)]
    recipients += list(people or ())
    for team, person in recipients:
        with (
            translation.override(person.language),
            timezone.override(zone(edition.regulations)),
        ):
            data = {"edition": edition, "team": team, "recipient": person.user}
            data |= dict(context(team))
            subject = render_to_string(f"mail/email/{template}_subject.txt", data)
            body = render_to_string(f"mail/email/{template}.txt", data)
        rows.append(
            Outbox.objects.create(
                edition=edition,
                event=event,
                recipient=person.user,
                to=person.email,
                language=person.language,
                subject=" ".join(subject.split())[:250],
                body=tidy(body),
                team=team,
                match=match,
                created_at=now,
            )
        )
    if rows:
        background.after_commit(send, [row.pk for row in rows])
    return rows


def send(ids: Sequence[int]) -> tuple[int, int]:
    """Sends the rows ``ids`` that are not sent yet; (sent, failed). Never raises for a mail
    server's error: the row is marked failed with the error."""
    connection = get_connection(fail_silently=False)
    sent = failed = 0
    for pk in ids:
        done = deliver(pk, connection)
        if done is True:
            sent += 1
        elif done is False:
            failed += 1
    return sent, failed


def deliver(pk: int, connection: Any = None) -> bool | None:
    """Sends one row: True sent, False failed (the error stored), None when it was sent
    already or another process is sending it (each attempt is claimed first)."""
    row = Outbox.objects.filter(pk=pk).first()
    if row is None or row.status == Status.SENT:
        return None
    claimed = Outbox.objects.filter(pk=pk, status=row.status, attempts=row.attempts).update(
        attempts=row.attempts + 1
    )
    if not claimed:
        return None
    message = EmailMessage(
        row.subject,
        row.body,
        settings.DEFAULT_FROM_EMAIL,
        [row.to],
        connection=connection,
        headers={"Content-Language": row.language},
    )
    try:
        message.send()
    except Exception as exc:  # the mail server's error, whatever it is, is stored
        error = f"{type(exc).__name__}: {exc}"[:ERROR_MAX]
        Outbox.objects.filter(pk=pk).update(status=Status.FAILED, error=error)
        return False
    Outbox.objects.filter(pk=pk).update(status=Status.SENT, error="", sent_at=timezone.now())
    return True


def pending(*, retry_failed: bool) -> list[int]:
    """The rows still to send, oldest first (and the failed ones with ``retry_failed``)."""
    statuses = [Status.QUEUED, Status.FAILED] if retry_failed else [Status.QUEUED]
    rows = Outbox.objects.filter(status__in=statuses).order_by("created_at", "id")
    return list(rows.values_list("pk", flat=True))


def send_again(*, row: Outbox, user: Any, now: datetime) -> Outbox:
    """The organiser sends a failed mail again (audited); the sending follows the commit."""
    with transaction.atomic():
        row = Outbox.objects.select_for_update().get(pk=row.pk)
        if row.status != Status.FAILED:
            raise ServiceError(_("Only a mail that failed can be sent again."))
        record(
            "bridgeko.mail.resent",
            user=user,
            edition=row.edition,
            obj=row,
            before={"status": row.status, "error": row.error, "attempts": row.attempts},
            after={"status": Status.QUEUED, "to": row.to},
            summary=f"{row.to}: {row.subject}",
            at=now,
        )
        row.status = Status.QUEUED
        row.save(update_fields=["status"])
        background.after_commit(send, [row.pk])
    return row
