"""E-mail to captains (issue 11, item 6; docs/web-mail.md): who gets what, in which language,
written inside the action's transaction (a rolled-back action mails nothing) and sent after the
commit; a failing mail server is recorded and never breaks the request; the outbox page and
``bridgeko send-mail``. Django's locmem backend (``django.core.mail.outbox``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.urls import reverse

from bridgeko.accounts.models import LanguagePreference, Role, RoleAssignment
from bridgeko.accounts.services import remember_language
from bridgeko.audit.models import AuditEntry
from bridgeko.cli import main as cli_main
from bridgeko.core.events import emit
from bridgeko.entries import queries as entry_queries
from bridgeko.entries import services as entry_services
from bridgeko.entries.models import Team
from bridgeko.mail.models import Outbox, Status
from bridgeko.matches import match_admin
from bridgeko.matches import services as match_services
from bridgeko.matches.models import Match, MatchStatus, Segment
from tests.web.conftest import World, extend, make_user
from tests.web.test_draw import enter_13, held
from tests.web.test_entries import IN_TIME, NOW, make_players
from tests.web.test_matches import PLAY

pytestmark = pytest.mark.django_db


class Broken(BaseEmailBackend):
    """A mail server that is down."""

    def send_messages(self, email_messages: Any) -> int:
        raise ConnectionRefusedError(111, "Connection refused")


def captain(world: World, team: Team, name: str, language: str | None) -> Any:
    """A captain's account for ``team`` with an address; ``language``: the one they chose on
    the site (None: none chosen, the edition's language applies)."""
    user = make_user(name, email=f"{name}@example.org", first_name=name.title())
    RoleAssignment.objects.create(user=user, edition=world.edition, role=Role.CAPTAIN, team=team)
    if language is not None:
        remember_language(user=user, language=language, now=NOW)
    return user


@pytest.fixture
def captained(world: World) -> World:
    """Thirteen teams entered, each with a captain: the even teams' captains chose English,
    the odd ones nothing (the edition's language, Czech)."""

    def build(world: World) -> None:
        for k, team in enumerate(enter_13(world)):
            captain(world, team, f"cap{k:02d}", "en" if k % 2 == 0 else None)

    extend(world, "captained", build)
    return world


def to(address: str) -> list[Any]:
    return [m for m in mail.outbox if m.to == [address]]


@pytest.fixture
def drawn_mail(captained: World, django_capture_on_commit_callbacks: Any) -> Iterator[World]:
    with django_capture_on_commit_callbacks(execute=True):
        held(captained)
    yield captained


# ------------------------------------------------------------------------- entry (R3.1)


def _team_with_captain(world: World, language: str | None) -> tuple[Team, Any]:
    organiser = world.users["organiser"]
    players = make_players(4, start=200)
    team = entry_services.create_team(
        edition=world.edition, name="Modří", roster=players, user=organiser, now=NOW
    )
    entry_services.set_pairs(
        team=team,
        pairs=[(players[0], players[1]), (players[2], players[3])],
        user=organiser,
        now=NOW,
    )
    return team, captain(world, team, "modri", language)


def _record_form(world: World, team: Team, *, paid: int = 0) -> None:
    entry_services.record_conditions(
        team=team,
        form_received=IN_TIME,
        fee_received=IN_TIME if paid else None,
        fee_paid=paid,
        cards={},
        user=world.users["organiser"],
        now=NOW,
    )


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("the entry of Modří is confirmed", "Entry fee due", "Still to pay")),
        (None, ("přihláška družstva Modří je potvrzena", "Vklad", "Zbývá zaplatit")),
    ],
)
def test_R3_1_entry_confirmed_mails_the_captain_the_fee_due_in_their_language(
    world: World,
    django_capture_on_commit_callbacks: Any,
    language: str | None,
    words: tuple[str, ...],
) -> None:
    team, _user = _team_with_captain(world, language)
    fee = entry_queries.team_info(team).fee
    assert fee is not None
    with django_capture_on_commit_callbacks(execute=True):
        _record_form(world, team)
    [message] = mail.outbox
    assert message.to == ["modri@example.org"]
    assert words[0] in message.subject
    for word in words[1:]:
        assert word in message.body
    assert f"{fee.amount:,}".replace(",", " ") in message.body.replace("\xa0", " ")
    assert f"/e/ko-1999/my-team/{team.pk}/" in message.body  # the link to the team's page
    row = Outbox.objects.get()
    assert (row.status, row.attempts, row.team, row.event) == (
        Status.SENT,
        1,
        team,
        "entry.confirmed",
    )
    assert row.language == (language or "cs") and row.sent_at is not None
    # Recording the conditions again (the fee now) mails nothing new: the entry was confirmed.
    with django_capture_on_commit_callbacks(execute=True):
        entry_services.record_conditions(
            team=team,
            form_received=IN_TIME,
            fee_received=IN_TIME,
            fee_paid=fee.amount,
            cards={},
            user=world.users["organiser"],
            now=NOW,
        )
    assert len(mail.outbox) == 1


def test_a_rolled_back_action_mails_nothing(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    team, _user = _team_with_captain(world, "en")
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        _record_form(world, team)
        assert Outbox.objects.count() == 1  # written inside the action's transaction
        raise RuntimeError("the action fails after the service")
    assert Outbox.objects.count() == 0 and mail.outbox == [] and callbacks == []
    team.refresh_from_db()
    assert team.form_received is None


def test_a_captain_without_an_address_gets_nothing_and_the_action_goes_on(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    team, user = _team_with_captain(world, None)
    user.email = ""
    user.save()
    with django_capture_on_commit_callbacks(execute=True):
        _record_form(world, team)
    team.refresh_from_db()
    assert team.form_received == IN_TIME and mail.outbox == [] and not Outbox.objects.exists()


def _match_to_play(world: World) -> Match:
    """A match of the edition still to play, its teams known."""
    match = Match.objects.filter(edition=world.edition, status=MatchStatus.TO_PLAY).first()
    assert match is not None and match.home is not None and match.visitors is not None
    return match


# ------------------------------------------------------------------------- draw (R11)


def test_R11_draw_held_mails_every_captain_the_first_match_in_their_language(
    drawn_mail: World,
) -> None:
    world = drawn_mail
    assert len(mail.outbox) == 13 and Outbox.objects.filter(event="draw.held").count() == 13
    match = _match_to_play(world)
    for team, side, other in (
        (match.home, "home", match.visitors),
        (match.visitors, "visitors", match.home),
    ):
        address = RoleAssignment.objects.get(team=team, role=Role.CAPTAIN).user.email
        [message] = to(address)
        row = Outbox.objects.get(to=address)
        assert team.name in message.subject and other.name in message.body
        if row.language == "en":
            assert "The draw of" in message.body and "Your first match" in message.body
            assert f"{side} – against {other.name}" in message.body
        else:
            assert "Los soutěže" in message.body and "Vaše první utkání" in message.body
            czech = "domácí" if side == "home" else "hosté"
            assert f"{czech} – proti {other.name}" in message.body
    assert {r.language for r in Outbox.objects.all()} == {"cs", "en"}
    # A team with a bye (R11.4) is told so.
    number_one = Team.objects.get(edition=world.edition, name="Tým 00")
    address = RoleAssignment.objects.get(team=number_one, role=Role.CAPTAIN).user.email
    [message] = to(address)
    assert "startovní číslo 1." in message.body or "number 1" in message.body


def test_R14_1_published_dates_are_mailed_to_every_captain(
    drawn_mail: World, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.web.test_standings import _dates

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _dates(drawn_mail)
    rows = Outbox.objects.filter(event="schedule.published")
    assert rows.count() == 13 == len(mail.outbox)
    english = rows.filter(language="en").first()
    assert english is not None and "19 March 1999" in english.body
    czech = rows.filter(language="cs").first()
    assert czech is not None and "19. 3. 1999" in czech.body


# ------------------------------------------------------------------ match date (R14.2)


def test_R14_2_a_new_date_is_mailed_to_both_captains(
    drawn_mail: World, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.web.test_standings import _dates, _local

    _dates(drawn_mail)
    mail.outbox.clear()
    match = _match_to_play(drawn_mail)
    with django_capture_on_commit_callbacks(execute=True):
        match_admin.reschedule(
            match=match,
            start=_local(1999, 3, 17, 18, 0),
            location="Hradec Králové",
            agreed_by="both captains",
            reason="",
            user=drawn_mail.users["td"],
            now=PLAY,
            notice_received_at=_local(1999, 3, 18, 12, 0),
        )
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        RoleAssignment.objects.get(team=t, role=Role.CAPTAIN).user.email
        for t in (match.home, match.visitors)
    )
    for message in mail.outbox:
        assert match.code in message.subject and "Hradec Králové" in message.body
        assert "17 March 1999, 18:00" in message.body or "17. 3. 1999 18:00" in message.body


# ------------------------------------------------------------------- results (R12, R13)


def test_a_result_is_mailed_when_a_segment_is_complete_not_on_every_board(
    drawn_mail: World, django_capture_on_commit_callbacks: Any
) -> None:
    mail.outbox.clear()
    td = drawn_mail.users["td"]
    match = _match_to_play(drawn_mail)
    segments = list(Segment.objects.filter(match=match).order_by("number"))
    first = segments[0]

    def open_room(text: str, version: int) -> None:
        match_services.save_board(
            match=match,
            board=first.first_board,
            room="open",
            text=text,
            version=version,
            user=td,
            now=PLAY,
        )

    with django_capture_on_commit_callbacks(execute=True):
        open_room("4S N =", 0)
    assert mail.outbox == []  # one board: no mail
    with django_capture_on_commit_callbacks(execute=True):
        open_room("", 1)  # cleared: the segment's totals instead
        match_services.set_segment_totals(
            segment=first, home_imps=30, visitors_imps=12, user=td, now=PLAY
        )
    assert len(mail.outbox) == 2  # both captains
    assert all("30:12" in m.body for m in mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        for seg in segments[1:]:
            match_services.set_segment_totals(
                segment=seg, home_imps=0, visitors_imps=0, user=td, now=PLAY
            )
    match.refresh_from_db()
    assert match.status == MatchStatus.DECIDED
    decided = [m for m in mail.outbox if "decided" in m.subject or "rozhodnuto" in m.subject]
    assert len(decided) == 2
    assert Outbox.objects.filter(event="match.result", match=match).count() == 2 * len(segments)


# ------------------------------------------------------------------------ appeals (R16)


def test_R16_appeal_decision_is_mailed_to_both_captains(
    drawn_mail: World, django_capture_on_commit_callbacks: Any
) -> None:
    mail.outbox.clear()
    match = _match_to_play(drawn_mail)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        emit(
            "appeal.decided",
            match=match,
            appellant=match.home,
            outcome="dismissed",
            deposit="forfeited",
            reasons="No damage.",
            user=None,
        )
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        row = Outbox.objects.get(to=message.to[0], event="appeal.decided")
        assert "No damage." in message.body and "R16.5" in message.body
        if row.language == "en":
            assert "the score stands" in message.body and "forfeited" in message.body
        else:
            assert "výsledek platí" in message.body and "propadá" in message.body


# ------------------------------------------------------------- failures and the outbox


def test_a_mail_server_down_marks_the_mail_failed_and_the_request_succeeds(
    world: World, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.EMAIL_BACKEND = "tests.web.test_mail.Broken"
    team, _user = _team_with_captain(world, "en")
    client = world.client("organiser")
    url = reverse("entries:conditions", kwargs={"edition": world.edition.slug, "team": team.pk})
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"form_received": "1999-02-20", "fee_paid": "0"})
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.form_received is not None  # the action stands
    row = Outbox.objects.get()
    assert row.status == Status.FAILED and "Connection refused" in row.error
    assert row.attempts == 1 and row.sent_at is None
    # The organiser sees it on the outbox page and sends it again once the server is up.
    page = client.get(reverse("mail:outbox", kwargs={"edition": world.edition.slug}))
    text = page.content.decode()
    assert page.status_code == 200 and "Connection refused" in text and row.subject in text
    failed_only = client.get(
        reverse("mail:outbox", kwargs={"edition": world.edition.slug}), {"status": "sent"}
    ).content.decode()
    assert row.subject not in failed_only
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    again = reverse("mail:send_again", kwargs={"edition": world.edition.slug, "mail": row.pk})
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(again)
    assert response.status_code == 302
    row.refresh_from_db()
    assert (row.status, row.attempts, row.error) == (Status.SENT, 2, "")
    assert len(mail.outbox) == 1
    assert AuditEntry.objects.filter(action="bridgeko.mail.resent").count() == 1
    detail = client.get(
        reverse("mail:detail", kwargs={"edition": world.edition.slug, "mail": row.pk})
    )
    assert "Entry fee due" in detail.content.decode()
    # A sent mail is not sent again.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(again)
    assert len(mail.outbox) == 1


def test_send_mail_command_sends_the_queued_and_with_retry_the_failed(
    world: World, settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    team, _user = _team_with_captain(world, "en")
    _record_form(world, team)  # no commit in this test: the mail stays queued
    assert Outbox.objects.get().status == Status.QUEUED and mail.outbox == []
    settings.EMAIL_BACKEND = "tests.web.test_mail.Broken"
    assert cli_main(["send-mail"]) == 1
    out, err = capsys.readouterr()
    assert out == "0 sent, 1 failed\n" and "Connection refused" in err
    assert cli_main(["send-mail"]) == 0  # the failed one waits for --retry-failed
    assert capsys.readouterr().out == "nothing to send\n"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert cli_main(["send-mail", "--retry-failed"]) == 0
    assert capsys.readouterr().out == "1 sent, 0 failed\n"
    assert Outbox.objects.get().status == Status.SENT and len(mail.outbox) == 1


def test_the_language_switcher_sets_the_language_of_the_mail(
    world: World, django_capture_on_commit_callbacks: Any
) -> None:
    team, user = _team_with_captain(world, None)
    client = world.client("organiser")
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert LanguagePreference.objects.get(user=user).language == "en"
    with django_capture_on_commit_callbacks(execute=True):
        _record_form(world, team)
    [message] = mail.outbox
    assert "Entry fee due" in message.body
    client.post(reverse("set_language"), {"language": "cs", "next": "/"})
    assert LanguagePreference.objects.get(user=user).language == "cs"
    assert AuditEntry.objects.filter(action="bridgeko.account.language_set").count() == 2


def test_the_outbox_page_is_the_organisers_and_shows_the_body(
    drawn_mail: World,
) -> None:
    world = drawn_mail
    url = reverse("mail:outbox", kwargs={"edition": world.edition.slug})
    page = world.client("organiser").get(url)
    text = page.content.decode()
    assert page.status_code == 200 and text.count('class="mail-row"') == 13
    assert world.client("captain").get(url).status_code == 403
    czech = world.client("organiser", "cs").get(url, {"status": "sent"}).content.decode()
    assert "Odchozí pošta" in czech and "Odesláno (13)" in czech
    row = Outbox.objects.filter(language="cs").first()
    assert row is not None
    detail = world.client("organiser").get(
        reverse("mail:detail", kwargs={"edition": world.edition.slug, "mail": row.pk})
    )
    assert row.body.splitlines()[0] in detail.content.decode()
    assert (
        world.client("organiser").get(url, {"status": "nonsense", "page": "x"}).status_code == 200
    )


def test_settings_read_the_smtp_server_from_the_environment() -> None:
    from bridgeko.core import config

    console = config.email_settings({})
    assert console["EMAIL_BACKEND"] == config.CONSOLE_BACKEND
    smtp = config.email_settings(
        {
            "EMAIL_HOST": "smtp.example.org",
            "EMAIL_USE_TLS": "1",
            "EMAIL_HOST_USER": "ko",
            "EMAIL_HOST_PASSWORD": "secret",
            "DEFAULT_FROM_EMAIL": "KO <ko@example.org>",
        }
    )
    assert smtp["EMAIL_BACKEND"] == config.SMTP_BACKEND
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"], smtp["EMAIL_USE_TLS"]) == (
        "smtp.example.org",
        587,
        True,
    )
    assert smtp["DEFAULT_FROM_EMAIL"] == "KO <ko@example.org>"
    with pytest.raises(config.ConfigError, match="EMAIL_USE_TLS and EMAIL_USE_SSL"):
        config.email_settings({"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"})
    with pytest.raises(config.ConfigError, match="EMAIL_PORT"):
        config.email_settings({"EMAIL_PORT": "x"})


def test_R15_2_a_walkover_is_mailed_to_both_captains(
    drawn_mail: World, django_capture_on_commit_callbacks: Any
) -> None:
    from bridgeko.draw import no_shows

    mail.outbox.clear()
    match = _match_to_play(drawn_mail)
    with django_capture_on_commit_callbacks(execute=True):
        no_shows.record_no_show(
            team=match.visitors,
            match=match.code,
            timely_notice=False,
            note="",
            user=drawn_mail.users["organiser"],
            now=PLAY,
        )
    match.refresh_from_db()
    assert match.status == MatchStatus.WALKOVER
    rows = Outbox.objects.filter(event="match.result", match=match)
    assert rows.count() == 2 == len(mail.outbox)
    assert all(match.home.name in r.body and match.code in r.subject for r in rows)
    assert all("R15.2" in r.body and "IMP" not in r.subject for r in rows)
