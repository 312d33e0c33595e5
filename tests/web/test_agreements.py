"""Captains agree a date and place themselves (R14.2a, I12; issue 21): a proposal, the other
captain's acceptance, counter-proposal or refusal, a withdrawal; the acceptance is the notice to
the organiser, and the engine's rule of R14.2 decides whether the match moves at once or waits
for the TD's ruling; every step audited; bad input refused with nothing changed."""

from __future__ import annotations

from datetime import datetime

import pytest

from bridgeko.audit.models import AuditEntry
from bridgeko.core.errors import ServiceError
from bridgeko.matches import agreements
from bridgeko.matches.models import DateProposal, Match, MatchStatus, ProposalStatus
from tests.web.conftest import World
from tests.web.test_standings import _dates, _local

TOLD = _local(1999, 3, 14, 10, 0)  # a Sunday: five days before the normal date (19 March)


@pytest.fixture
def match(drawn: World) -> Match:
    _dates(drawn)  # the preliminary dates published: R1 on Friday 19 March 1999 (R14.1)
    found = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert found is not None
    return found


def actions() -> list[str]:
    return list(
        AuditEntry.objects.filter(action__startswith="bridgeko.date.")
        .order_by("pk")
        .values_list("action", flat=True)
    )


def test_R14_2a_an_accepted_proposal_moves_the_match_at_once(drawn: World, match: Match) -> None:
    start = _local(1999, 3, 17, 18, 30)
    proposal = agreements.propose(
        match=match, side="home", start=start, place="Klub Kolín", note="Wednesday?",
        user=drawn.users["captain"], now=TOLD,
    )  # fmt: skip
    assert proposal.status == ProposalStatus.PENDING and agreements.pending(match) == proposal
    match.refresh_from_db()
    assert match.start is None  # nothing moves before the other captain agrees
    done = agreements.accept(proposal=proposal, side="visitors", user=drawn.users["td"], now=TOLD)
    assert done.status == ProposalStatus.ACCEPTED and done.told_at == TOLD
    match.refresh_from_db()
    assert match.start == start and match.location == "Klub Kolín"
    assert actions() == ["bridgeko.date.proposed", "bridgeko.date.accepted"]
    moved = AuditEntry.objects.get(action="bridgeko.match.rescheduled")
    assert (
        moved.after["decision"] == "accepted" and "captains in bridgeko" in moved.after["agreed_by"]
    )
    assert agreements.pending(match) is None


def test_R14_2a_a_counter_proposal_answers_the_first(drawn: World, match: Match) -> None:
    first = agreements.propose(
        match=match, side="home", start=_local(1999, 3, 16, 19, 0), place="Kolín",
        user=None, now=TOLD,
    )  # fmt: skip
    with pytest.raises(ServiceError, match="still waits for an answer"):
        agreements.propose(
            match=match, side="home", start=_local(1999, 3, 17, 19, 0), place="Kolín",
            user=None, now=TOLD,
        )  # fmt: skip
    second = agreements.propose(
        match=match, side="visitors", start=_local(1999, 3, 18, 10, 0),
        online="https://www.realbridge.online/kolin-zdar", user=None, now=TOLD,
    )  # fmt: skip
    first.refresh_from_db()
    assert first.status == ProposalStatus.COUNTERED and agreements.pending(match) == second
    with pytest.raises(ServiceError, match="other team answers"):
        agreements.accept(proposal=second, side="visitors", user=None, now=TOLD)
    agreements.accept(proposal=second, side="home", user=None, now=TOLD)
    match.refresh_from_db()
    assert match.location == "online: https://www.realbridge.online/kolin-zdar"


def test_a_proposal_declined_or_withdrawn_changes_no_date(drawn: World, match: Match) -> None:
    one = agreements.propose(
        match=match, side="home", start=_local(1999, 3, 16, 19, 0), place="Kolín",
        user=None, now=TOLD,
    )  # fmt: skip
    with pytest.raises(ServiceError, match="Only the team that proposed"):
        agreements.revoke(proposal=one, side="visitors", user=None, now=TOLD)
    agreements.decline(proposal=one, side="visitors", user=None, now=TOLD, note="We work late.")
    with pytest.raises(ServiceError, match="answered or withdrawn meanwhile"):
        agreements.accept(proposal=one, side="visitors", user=None, now=TOLD)
    two = agreements.propose(
        match=match, side="home", start=_local(1999, 3, 17, 19, 0), place="Kolín",
        user=None, now=TOLD,
    )  # fmt: skip
    agreements.revoke(proposal=two, side="home", user=None, now=TOLD)
    match.refresh_from_db()
    assert match.start is None
    assert [p.status for p in DateProposal.objects.filter(match=match).order_by("pk")] == [
        ProposalStatus.DECLINED,
        ProposalStatus.REVOKED,
    ]
    assert actions() == [
        "bridgeko.date.proposed",
        "bridgeko.date.declined",
        "bridgeko.date.proposed",
        "bridgeko.date.revoked",
    ]


def test_I12_an_agreement_told_too_late_waits_for_the_tds_ruling(
    drawn: World, match: Match
) -> None:
    late = _local(1999, 3, 19, 8, 0)  # the normal day itself: after the end of the day before
    start = _local(1999, 3, 19, 10, 0)
    one = agreements.propose(
        match=match, side="home", start=start, place="Kolín", user=None, now=late
    )
    done = agreements.accept(proposal=one, side="visitors", user=None, now=late)
    assert done.status == ProposalStatus.AWAITING_TD
    match.refresh_from_db()
    assert match.start is None
    with pytest.raises(ServiceError, match="reason"):
        agreements.decide(proposal=done, allowed=True, reason=" ", user=drawn.users["td"], now=late)
    ruled = agreements.decide(
        proposal=done, allowed=True, reason="Both teams asked in good faith.",
        user=drawn.users["td"], now=late,
    )  # fmt: skip
    assert ruled.status == ProposalStatus.ACCEPTED and ruled.decided_by == drawn.users["td"]
    match.refresh_from_db()
    assert match.start == start
    moved = AuditEntry.objects.get(action="bridgeko.match.rescheduled")
    assert moved.after["decision"] == "td_allowed"
    assert actions()[-1] == "bridgeko.date.ruled"


@pytest.mark.parametrize(
    ("start", "extra", "problem"),
    [
        (_local(1999, 3, 13, 19, 0), {"place": "Kolín"}, "in the past"),
        (_local(1999, 3, 19, 19, 0), {"place": "Kolín"}, "after the round's deadline"),
        (_local(1999, 3, 17, 19, 0), {"place": "x" * 201}, "place is too long"),
        (_local(1999, 3, 17, 19, 0), {"online": "realbridge"}, "starting with https://"),
        (_local(1999, 3, 17, 19, 0), {}, "Give the place, or the link"),
        (_local(1999, 3, 17, 19, 0), {"place": "Kolín", "note": "x" * 1001}, "note is too long"),
    ],
)
def test_a_proposal_the_rules_do_not_allow_is_refused(
    drawn: World, match: Match, start: datetime, extra: dict[str, str], problem: str
) -> None:
    with pytest.raises(ServiceError, match=problem):
        agreements.propose(match=match, side="home", start=start, user=None, now=TOLD, **extra)
    assert not DateProposal.objects.exists() and actions() == []


# --- the captains' pages ----------------------------------------------------------------------


def _captains(drawn: World, match: Match) -> tuple[str, str]:
    """The logins of both captains of ``match`` (made for the teams that have none)."""
    from bridgeko.accounts.models import Role, RoleAssignment
    from tests.web.conftest import make_user

    names = []
    for side, team_id in (("home", match.home_id), ("visitors", match.visitors_id)):
        held = (
            RoleAssignment.objects.filter(edition=drawn.edition, role=Role.CAPTAIN, team_id=team_id)
            .select_related("user")
            .first()
        )
        if held is None:
            user = make_user(f"cap-{side}")
            RoleAssignment.objects.create(
                user=user, edition=drawn.edition, role=Role.CAPTAIN, team_id=team_id
            )
            drawn.users[f"cap-{side}"] = user
            names.append(f"cap-{side}")
        else:
            key = next(k for k, u in drawn.users.items() if u.pk == held.user_id)
            names.append(key)
    return names[0], names[1]


def test_R14_2a_two_captains_agree_a_date_on_their_pages(
    drawn: World, match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.urls import reverse
    from django.utils import timezone

    monkeypatch.setattr(timezone, "now", lambda: TOLD)
    home, visitors = _captains(drawn, match)
    slug = drawn.edition.slug
    url = {
        side: reverse("matches:date", kwargs={"edition": slug, "code": match.code, "side": side})
        for side in ("home", "visitors")
    }
    home_client, visitors_client = drawn.client(home), drawn.client(visitors)
    assert home_client.get(url["visitors"]).status_code == 403  # the other team's page
    page = home_client.get(url["home"]).content.decode()
    assert 'id="propose-form"' in page
    sent = home_client.post(
        url["home"],
        {"action": "propose", "start": "1999-03-17T18:30", "place": "Klub Kolín", "note": "Ok?"},
    )
    assert sent.status_code == 302
    proposal = DateProposal.objects.get(match=match)
    # the opponents see it on My team and on the dashboard
    from bridgeko.core import team_matches

    team = match.visitors
    assert team is not None
    found = team_matches.matches(drawn.edition, team)
    labels = [a.label for m in found if m.id == match.code for a in m.actions]
    assert any("The opponents propose" in label for label in labels)
    board = visitors_client.get(reverse("editions:dashboard", kwargs={"edition": slug}))
    assert "the opponents propose another date" in board.content.decode()
    # the home captain cannot accept their own proposal
    own = home_client.post(url["home"], {"action": "accept", "proposal": proposal.pk})
    assert "other team answers" in own.content.decode()
    done = visitors_client.post(url["visitors"], {"action": "accept", "proposal": proposal.pk})
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.start == _local(1999, 3, 17, 18, 30) and match.location == "Klub Kolín"
    bad = home_client.post(
        url["home"], {"action": "propose", "start": "1999-03-13T18:30", "place": "Kolín"}
    )
    assert "in the past" in bad.content.decode()
    assert DateProposal.objects.filter(match=match).count() == 1


def test_I12_the_td_rules_on_a_late_agreement_from_the_dashboard(
    drawn: World, match: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.urls import reverse

    late = _local(1999, 3, 19, 8, 0)
    one = agreements.propose(
        match=match, side="home", start=_local(1999, 3, 19, 10, 0), place="Kolín",
        user=None, now=late,
    )  # fmt: skip
    agreements.accept(proposal=one, side="visitors", user=None, now=late)
    td = drawn.client("td")
    slug = drawn.edition.slug
    board = td.get(reverse("editions:dashboard", kwargs={"edition": slug})).content.decode()
    ruling = reverse("matches:date_ruling", kwargs={"edition": slug, "code": match.code})
    assert ruling in board
    assert td.post(ruling, {"allowed": "0", "reason": ""}).status_code == 200  # a reason needed
    assert td.post(ruling, {"allowed": "0", "reason": "Too late."}).status_code == 302
    one.refresh_from_db()
    assert one.status == ProposalStatus.REFUSED and one.decision_note == "Too late."
    match.refresh_from_db()
    assert match.start is None


def test_R14_2a_each_step_is_mailed_to_whom_it_concerns(drawn: World, match: Match) -> None:
    from bridgeko.accounts.models import Role, RoleAssignment
    from bridgeko.mail.models import Outbox

    home, visitors = _captains(drawn, match)
    for name in (home, visitors, "organiser"):
        user = drawn.users[name]
        user.email = f"{name}@example.org"
        user.save()
    assert RoleAssignment.objects.filter(
        user=drawn.users["organiser"], edition=drawn.edition, role=Role.ORGANISER
    ).exists()
    one = agreements.propose(
        match=match, side="home", start=_local(1999, 3, 17, 19, 0), place="Kolín",
        user=drawn.users[home], now=TOLD,
    )  # fmt: skip
    proposed = Outbox.objects.filter(event="date.proposed")
    assert [m.to for m in proposed] == [f"{visitors}@example.org"]  # the other captain
    assert "Kolín" in proposed[0].body and "/date/visitors/" in proposed[0].body
    agreements.accept(proposal=one, side="visitors", user=drawn.users[visitors], now=TOLD)
    answered = sorted(m.to for m in Outbox.objects.filter(event="date.answered"))
    assert answered == sorted(f"{n}@example.org" for n in (home, visitors, "organiser"))
    assert Outbox.objects.filter(event="match.rescheduled").count() == 2  # both captains
