"""The boards of a segment (issue 11, R12.7, I8, I15): a seed committed before play and its
commitment public at once, the set made from it, the files for the dealing machine, the seed
revealed after the segment has ended in both rooms and checked by ``bridgeko verify-deal``; the
deals played loaded from a PBN file; the double-dummy analysis in the background."""

from __future__ import annotations

import shlex
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from bridgeko.audit.models import AuditEntry
from bridgeko.boards import downloads, services
from bridgeko.boards.models import BoardDeal, DealSet
from bridgeko.bridge import commit_reveal, dealing, formats, pbn
from bridgeko.bridge.cards import Deal
from bridgeko.core.errors import ServiceError
from bridgeko.matches import services as match_services
from bridgeko.matches.models import Match, Segment
from tests.web.conftest import World

NOW = datetime(1999, 4, 16, 16, 0, tzinfo=UTC)
SEED = bytes.fromhex("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")


def _quarterfinal(world: World) -> Match:
    match = Match.objects.get(edition=world.edition, code="QF1")
    Segment.objects.get_or_create(match=match, number=1, first_board=1, last_board=16)
    Segment.objects.get_or_create(match=match, number=2, first_board=17, last_board=32)
    return match


def _segment(match: Match, number: int = 1) -> Segment:
    return Segment.objects.select_related("match__edition").get(match=match, number=number)


def _committed(drawn: World, number: int = 1) -> DealSet:
    seg = _segment(_quarterfinal(drawn), number)
    return services.commit_set(
        segment=seg,
        event="Bridge Open K.O. 1999",
        session=f"QF1-S{number}",
        user=drawn.users["organiser"],
        now=NOW,
        seed=SEED,
    )


def _made(drawn: World, capture: Any, number: int = 1) -> DealSet:
    deal_set = _committed(drawn, number)
    with capture(execute=True):
        services.make_set(deal_set=deal_set, user=drawn.users["organiser"], now=NOW)
    deal_set.refresh_from_db()
    return deal_set


def _end(segment: Segment, user: Any) -> Segment:
    for room in ("open", "closed"):
        segment = match_services.mark_room_end(
            segment=segment, room=room, at=NOW, user=user, now=NOW + timedelta(minutes=1)
        )
    return segment


def _no_secret_in_audit(deal_set: DealSet) -> None:
    text = " ".join(
        str(v) for e in AuditEntry.objects.all() for v in (e.before, e.after, e.summary)
    )
    assert not deal_set.seed or deal_set.seed not in text
    for b in BoardDeal.objects.filter(deal_set=deal_set):
        for hand in b.deal[2:].split():
            assert hand not in text


# ---------------------------------------------------------------------------------------------
# Commit and make


def test_R12_7_commit_publishes_the_commitment_and_keeps_the_seed_secret(drawn: World) -> None:
    deal_set = _committed(drawn)
    assert deal_set.commitment == commit_reveal.commitment(SEED)
    assert deal_set.seed == SEED.hex() and deal_set.made_at is None
    entry = AuditEntry.objects.get(action="bridgeko.dealset.committed")
    assert entry.after["commitment"] == deal_set.commitment
    assert SEED.hex() not in str(entry.after) + str(entry.summary)
    # the public page shows the commitment at once, never the seed before the end
    page = drawn.client("anonymous").get(
        reverse("public:boards", kwargs={"edition": drawn.edition.slug})
    )
    text = page.content.decode()
    assert deal_set.commitment in text and SEED.hex() not in text
    assert "Set-Cookie" not in page.headers


def test_R12_7_a_new_seed_is_random_by_default(drawn: World) -> None:
    seg = _segment(_quarterfinal(drawn))
    a = services.commit_set(segment=seg, event="E", session="S", user=None, now=NOW)
    b = services.commit_set(segment=seg, event="E", session="S", user=None, now=NOW, replace=True)
    assert a.seed != b.seed and len(b.seed) == 64


def test_R12_7_other_stages_only_by_agreement_with_a_reason(drawn: World) -> None:
    seg = Segment.objects.select_related("match__edition").get(
        match__edition=drawn.edition, match__code="R1-M2", number=1
    )
    with pytest.raises(ServiceError) as refused:
        services.commit_set(segment=seg, event="E", session="S", user=None, now=NOW)
    assert refused.value.field == "by_agreement"
    with pytest.raises(ServiceError) as no_reason:
        services.commit_set(
            segment=seg, event="E", session="S", user=None, now=NOW, by_agreement=True
        )
    assert no_reason.value.field == "reason"
    deal_set = services.commit_set(
        segment=seg,
        event="E",
        session="S",
        user=None,
        now=NOW,
        by_agreement=True,
        reason="Both captains asked for it.",
    )
    assert deal_set.commitment
    entry = AuditEntry.objects.get(action="bridgeko.dealset.committed")
    assert entry.after["by_agreement"] is True


def test_R12_7_make_deals_the_segments_boards_from_the_seed(
    drawn: World, django_capture_on_commit_callbacks: Any
) -> None:
    deal_set = _made(drawn, django_capture_on_commit_callbacks, number=2)
    expected = dealing.deal_set(SEED, "Bridge Open K.O. 1999", "QF1-S2", range(17, 33))
    stored = {b.board: Deal.from_pbn(b.deal) for b in deal_set.boards.all()}
    assert stored == expected
    # the analysis ran after the commit (inline in the tests): every board has a table and par
    assert all(b.dd is not None and b.par is not None for b in deal_set.boards.all())
    assert deal_set.analysis_finished_at is not None and not deal_set.analysis_error
    p = services.progress(deal_set)
    assert (p.done, p.total, p.finished) == (16, 16, True)
    with pytest.raises(ServiceError):
        services.make_set(deal_set=deal_set, user=None, now=NOW)
    _no_secret_in_audit(deal_set)


def test_R12_7_replacing_asks_first_and_is_refused_once_the_segment_started(
    drawn: World, django_capture_on_commit_callbacks: Any
) -> None:
    deal_set = _made(drawn, django_capture_on_commit_callbacks)
    seg = deal_set.segment
    with pytest.raises(services.ReplaceNeeded) as ask:
        services.commit_set(segment=seg, event="E", session="S", user=None, now=NOW)
    assert any(deal_set.commitment in line for line in ask.value.errors)
    assert any("16 boards" in line for line in ask.value.errors)
    Segment.objects.filter(pk=seg.pk).update(started_at=NOW)
    with pytest.raises(ServiceError) as refused:
        services.commit_set(segment=seg, event="E", session="S", user=None, now=NOW, replace=True)
    assert "has started" in refused.value.message
    assert DealSet.objects.get(segment=seg).commitment == deal_set.commitment


def test_replacement_is_audited_with_what_undoes_it(
    drawn: World, django_capture_on_commit_callbacks: Any
) -> None:
    old = _made(drawn, django_capture_on_commit_callbacks)
    services.commit_set(
        segment=old.segment, event="E2", session="S2", user=None, now=NOW, replace=True
    )
    entry = AuditEntry.objects.filter(action="bridgeko.dealset.committed").latest("pk")
    assert entry.before["commitment"] == old.commitment
    assert (entry.before["event"], entry.before["session"]) == (old.event, old.session)
    assert old.seed not in str(entry.before)


# ---------------------------------------------------------------------------------------------
# Downloads


def test_R12_7_downloads_read_back_to_the_same_deals(
    drawn: World, django_capture_on_commit_callbacks: Any
) -> None:
    deal_set = _made(drawn, django_capture_on_commit_callbacks)
    expected = {b.board: Deal.from_pbn(b.deal) for b in deal_set.boards.all()}
    pbn_file = downloads.make(deal_set, "pbn")
    assert pbn_file.filename == "ko-1999_QF1_segment-1_boards-1-16.pbn"
    games = pbn.parse(pbn_file.content.decode("utf-8")).games
    assert {g.board: g.deal for g in games} == expected
    dup = downloads.make(deal_set, "dup", copies=4)
    assert formats.from_dup(dup.content) == expected
    assert dup.content[151:153] == b"4 "  # copies of each board
    dlm = downloads.make(deal_set, "dlm", show=True, first=3, last=8)
    assert "Status=Show" in dlm.content.decode()
    assert formats.from_dlm(dlm.content.decode()) == {b: expected[b] for b in range(3, 9)}
    assert "Status=Sealed" in downloads.make(deal_set, "dlm").content.decode()
    with pytest.raises(ServiceError):
        downloads.make(deal_set, "pbn", first=10, last=40)


def test_R12_7_downloads_sealed_and_as_big_deal_writes_them(
    drawn: World, django_capture_on_commit_callbacks: Any
) -> None:
    deal_set = _made(drawn, django_capture_on_commit_callbacks)
    expected = {b.board: Deal.from_pbn(b.deal) for b in deal_set.boards.all()}
    sealed = downloads.make(deal_set, "dup").content
    shown = downloads.make(deal_set, "dup", show=True).content
    assert sealed[78:146] == b" " * 68 and shown[78:146] != b" " * 68  # board 1's hands' text
    assert formats.from_dup(sealed) == expected == formats.from_dup(shown)
    assert sealed[146:156] == b"YN1  1 16 "  # the set's own range, 1 copy
    bigdeal = downloads.make(deal_set, "dup", bigdeal=True).content
    assert bigdeal == formats.to_dup(expected, copies=0, style="bigdeal", sealed=True)
    assert bigdeal[146:156] == b"YN1  0 16 "  # Big Deal's dupblind: copies 0
    dlm = downloads.make(deal_set, "dlm", bigdeal=True).content.decode()
    assert "Headline=Generated by Big Deal version 2.0" in dlm
    deal_set.segment.match.edition.name = "Bridžový Open"
    plain = downloads.make(deal_set, "dlm").content.decode()
    assert "Bridzovy Open" in plain and "?" not in plain.split("Headline=")[1].split("\r")[0]


def test_R12_7_dlm_cannot_number_boards_above_99(
    drawn: World, django_capture_on_commit_callbacks: Any
) -> None:
    match = _quarterfinal(drawn)
    seg = Segment.objects.create(match=match, number=9, first_board=97, last_board=100)
    seg = _segment(match, 9)
    deal_set = services.commit_set(segment=seg, event="E", session="S", user=None, now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        services.make_set(deal_set=deal_set, user=None, now=NOW)
    with pytest.raises(ServiceError) as refused:
        downloads.make(deal_set, "dlm")
    assert "DLM" in refused.value.message
    assert downloads.make(deal_set, "dup").content  # DUP numbers up to 999


# ---------------------------------------------------------------------------------------------
# Reveal and verify


def test_I15_seed_revealed_after_both_rooms_ended_and_verify_deal_accepts_it(
    drawn: World, django_capture_on_commit_callbacks: Any, tmp_path: Path
) -> None:
    from bridgeko.cli import main

    deal_set = _made(drawn, django_capture_on_commit_callbacks)
    url = reverse("public:boards", kwargs={"edition": drawn.edition.slug})
    seg = match_services.mark_room_end(
        segment=deal_set.segment, room="open", at=NOW, user=None, now=NOW
    )
    assert SEED.hex() not in drawn.client("anonymous").get(url).content.decode()
    _end(seg, drawn.users["td"])
    text = drawn.client("anonymous").get(url).content.decode()
    assert SEED.hex() in text
    command = (
        f"bridgeko verify-deal --seed {SEED.hex()} --event 'Bridge Open K.O. 1999' "
        f"--session QF1-S1 --boards 1-16 --commitment {deal_set.commitment}"
    )
    assert command in text.replace("&#x27;", "'")
    path = tmp_path / "set.pbn"
    path.write_bytes(downloads.make(deal_set, "pbn").content)
    assert main([*shlex.split(command)[1:], str(path)]) == 0
    # a file of other deals fails the check
    other = services.commit_set(
        segment=_segment(deal_set.segment.match, 2), event="X", session="Y", user=None, now=NOW
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.make_set(deal_set=other, user=None, now=NOW)
    path.write_bytes(downloads.make(other, "pbn").content)
    assert main([*shlex.split(command)[1:], str(path)]) == 1


def test_I15_deals_are_shown_to_the_organiser_only_before_the_end(
    drawn: World, django_capture_on_commit_callbacks: Any
) -> None:
    deal_set = _made(drawn, django_capture_on_commit_callbacks)
    kwargs = {"edition": drawn.edition.slug, "code": "QF1", "segment": 1}
    hand = BoardDeal.objects.filter(deal_set=deal_set).first().deal[2:].split()[0]  # type: ignore[union-attr]
    url = reverse("boards:set", kwargs=kwargs)
    organiser = drawn.client("organiser").get(url).content.decode()
    assert SEED.hex() in organiser
    td = drawn.client("td").get(url)
    assert td.status_code == 200
    text = td.content.decode()
    assert SEED.hex() not in text and deal_set.commitment in text
    assert "deals-secret" in text
    progress = drawn.client("td").get(reverse("boards:progress", kwargs=kwargs)).json()
    assert progress == {"done": 16, "total": 16, "running": False, "stale": False, "failed": False}
    assert drawn.client("td").get(reverse("boards:download", kwargs=kwargs)).status_code == 403
    for who in ("td", "appeals", "captain"):
        page = drawn.client(who).get(
            reverse("matches:detail", kwargs={"edition": drawn.edition.slug, "code": "QF1"})
        )
        assert SEED.hex() not in page.content.decode()
    del hand


# ---------------------------------------------------------------------------------------------
# Deals played, from a PBN file


def _pbn_of(deals: dict[int, Deal]) -> bytes:
    games = [g for b, d in deals.items() for g in pbn.games_for_board(b, d)]
    return pbn.dumps(games).encode("utf-8")


def _r1_segment(drawn: World) -> Segment:
    return Segment.objects.select_related("match__edition").get(
        match__edition=drawn.edition, match__code="R1-M2", number=2
    )


def test_deals_played_loaded_from_a_pbn_file(
    drawn: World, django_capture_on_commit_callbacks: Any
) -> None:
    seg = _r1_segment(drawn)
    deals = dealing.deal_set(SEED, "x", "y", range(1, 17))
    with django_capture_on_commit_callbacks(execute=True):
        # numbered from 1: moved into the segment (boards 17-32)
        loaded = services.load_set(segment=seg, data=_pbn_of(deals), user=None, now=NOW)
    stored = {b.board: Deal.from_pbn(b.deal) for b in loaded.boards.all()}
    assert stored == {b + 16: d for b, d in deals.items()}
    assert loaded.source == "loaded"
    assert all(b.dd is not None for b in loaded.boards.all())
    # replacing asks first
    with pytest.raises(services.ReplaceNeeded):
        services.load_set(segment=seg, data=_pbn_of(deals), user=None, now=NOW)
    services.load_set(segment=seg, data=_pbn_of(deals), user=None, now=NOW, replace=True)
    _no_secret_in_audit(loaded)


def test_a_bad_pbn_file_names_the_problem_and_its_line(drawn: World) -> None:
    seg = _r1_segment(drawn)
    deals = dealing.deal_set(SEED, "x", "y", range(17, 33))
    with pytest.raises(ServiceError) as bad:
        services.load_set(
            segment=seg, data=b'[Board "17"]\n[Deal "N:AK - - -"]\n', user=None, now=NOW
        )
    assert "line 2" in bad.value.message
    # boards outside the segment, missing boards
    some = {b: deals[b] for b in range(17, 30)} | {40: deals[17]}
    with pytest.raises(ServiceError) as wrong:
        services.load_set(segment=seg, data=_pbn_of(some), user=None, now=NOW)
    assert any("40" in line for line in wrong.value.errors)
    assert any("30, 31, 32" in line for line in wrong.value.errors)
    # two different deals for one board across the rooms
    two = pbn.dumps(
        [g for b, d in deals.items() for g in pbn.games_for_board(b, d)]
        + list(pbn.games_for_board(20, deals[21]))
    ).encode()
    with pytest.raises(ServiceError) as clash:
        services.load_set(segment=seg, data=two, user=None, now=NOW)
    assert any("board 20" in line for line in clash.value.errors)
    with pytest.raises(ServiceError) as large:
        services.load_set(segment=seg, data=b" " * 1_000_001, user=None, now=NOW)
    assert "too large" in large.value.message
    assert not DealSet.objects.filter(segment=seg).exists()


def test_a_loaded_file_never_replaces_a_computer_dealt_set(drawn: World) -> None:
    deal_set = _committed(drawn)
    deals = dealing.deal_set(SEED, "x", "y", range(1, 17))
    with pytest.raises(ServiceError):
        services.load_set(
            segment=deal_set.segment, data=_pbn_of(deals), user=None, now=NOW, replace=True
        )


def test_load_page_asks_before_replacing(drawn: World, settings: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    seg = _r1_segment(drawn)
    data = _pbn_of(dealing.deal_set(SEED, "x", "y", range(17, 33)))
    url = reverse(
        "boards:load", kwargs={"edition": drawn.edition.slug, "code": "R1-M2", "segment": 2}
    )
    client = drawn.client("td")
    first = client.post(url, {"file": SimpleUploadedFile("a.pbn", data)})
    assert first.status_code == 302
    again = client.post(url, {"file": SimpleUploadedFile("a.pbn", data)})
    assert again.status_code == 200 and "confirm-form" in again.content.decode()
    confirmed = client.post(url, {"pbn": again.context["confirm"].initial["pbn"], "replace": "on"})
    assert confirmed.status_code == 302
    bad = client.post(url, {"file": SimpleUploadedFile("b.pbn", b'[Board "1"]\n[Deal "x"]\n')})
    assert bad.status_code == 400 and "line 2" in bad.content.decode()
    assert DealSet.objects.filter(segment=seg).count() == 1


# ---------------------------------------------------------------------------------------------
# Analysis


def test_analysis_failure_is_recorded_and_can_be_restarted(
    drawn: World, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    from bridgeko.bridge import analysis

    deal_set = _committed(drawn)
    calls = {"n": 0}
    real = analysis.dd_table

    def flaky(deal: Deal) -> Any:
        calls["n"] += 1
        if calls["n"] == 5:
            raise RuntimeError("DDS crashed")
        return real(deal)

    monkeypatch.setattr(analysis, "dd_table", flaky)
    with django_capture_on_commit_callbacks(execute=True):
        services.make_set(deal_set=deal_set, user=None, now=NOW)
    deal_set.refresh_from_db()
    p = services.progress(deal_set)
    assert (p.done, p.total) == (4, 16) and "DDS crashed" in p.error
    with django_capture_on_commit_callbacks(execute=True):
        services.restart_analysis(deal_set=deal_set, user=drawn.users["organiser"], now=NOW)
    deal_set.refresh_from_db()
    assert services.progress(deal_set).finished and not deal_set.analysis_error
    assert AuditEntry.objects.filter(action="bridgeko.dealset.analysis_restarted").exists()


def test_a_stale_analysis_can_be_restarted(drawn: World) -> None:
    deal_set = _committed(drawn)
    BoardDeal.objects.create(
        deal_set=deal_set,
        board=1,
        deal=Deal.from_pbn(
            "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
        ).to_pbn(),
    )
    DealSet.objects.filter(pk=deal_set.pk).update(analysis_started_at=NOW)
    deal_set.refresh_from_db()
    assert services.progress(deal_set, now=NOW + timedelta(minutes=1)).running
    with pytest.raises(ServiceError):
        services.restart_analysis(deal_set=deal_set, user=None, now=NOW + timedelta(minutes=1))
    assert services.progress(deal_set, now=NOW + timedelta(hours=1)).stale
    services.restart_analysis(deal_set=deal_set, user=None, now=NOW + timedelta(hours=1))
    assert services.pending_sets() == [deal_set.pk]
    assert services.pending_sets("other") == []
    services.analyse_set(deal_set.pk)
    assert services.pending_sets() == []


# ---------------------------------------------------------------------------------------------
# Pages


def test_staff_pages_commit_make_and_download(drawn: World, settings: Any) -> None:
    settings.BRIDGEKO_BACKGROUND = "inline"
    _quarterfinal(drawn)
    client = drawn.client("organiser")
    base = {"edition": drawn.edition.slug, "code": "QF1"}
    listing = client.get(reverse("boards:match", kwargs=base))
    assert listing.status_code == 200 and "commit-link" in listing.content.decode()
    commit_url = reverse("boards:commit", kwargs=base | {"segment": 1})
    form = client.get(commit_url)
    assert form.context["form"].initial == {
        "event": "Bridge Open K.O. 1999",
        "session": "QF1-S1",
    }
    done = client.post(commit_url, {"event": "Bridge Open K.O. 1999", "session": "QF1-S1"})
    assert done.status_code == 302
    again = client.post(commit_url, {"event": "E", "session": "S"})
    assert again.status_code == 400 and "lost" in again.content.decode()
    made = client.post(reverse("boards:make", kwargs=base | {"segment": 1}))
    assert made.status_code == 302
    deal_set = DealSet.objects.get(segment__match__code="QF1", segment__number=1)
    assert deal_set.boards.count() == 16
    url = reverse("boards:download", kwargs=base | {"segment": 1})
    file = client.get(url, {"format": "dup", "first": 1, "last": 16, "copies": 2})
    assert file.status_code == 200
    assert "QF1_segment-1" in file["Content-Disposition"]
    assert formats.from_dup(file.content) == {
        b.board: Deal.from_pbn(b.deal) for b in deal_set.boards.all()
    }
    bad = client.get(url, {"format": "dlm", "first": 5, "last": 99})
    assert bad.status_code == 302


def test_I15_td_records_the_end_per_room_on_the_match_page(drawn: World) -> None:
    match = Match.objects.filter(edition=drawn.edition, code="R1-M2").get()
    client = drawn.client("td")
    detail = reverse("matches:detail", kwargs={"edition": drawn.edition.slug, "code": "R1-M2"})
    page = client.get(detail).content.decode()
    assert 'id="end-1-open"' in page and 'id="boards-link"' in page
    kwargs = {"edition": drawn.edition.slug, "code": "R1-M2", "segment": 1}
    now = datetime.now(UTC).astimezone()
    for room in ("open", "closed"):
        response = client.post(
            reverse("matches:room_end", kwargs=kwargs | {"room": room}),
            {
                f"end-1-{room}-date": now.date().isoformat(),
                f"end-1-{room}-time": "00:00",
            },
        )
        assert response.status_code == 302
    seg = Segment.objects.get(match=match, number=1)
    assert seg.ended_at is not None
    clear = reverse("matches:room_end_clear", kwargs=kwargs | {"room": "closed"})
    ask = client.get(clear)
    assert ask.status_code == 200 and "confirm-clear-end" in ask.content.decode()
    assert client.post(clear).status_code == 302
    seg.refresh_from_db()
    assert seg.closed_ended_at is None and seg.ended_at is None
    bad = client.post(
        reverse("matches:room_end", kwargs=kwargs | {"room": "open"}), {"end-1-open-time": "xx"}
    )
    assert bad.status_code == 302
