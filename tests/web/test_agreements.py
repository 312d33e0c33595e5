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
