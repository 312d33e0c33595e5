"""The paper forms (issue 11 item 5): each PDF is read back with pypdf and its key values found,
in Czech and in English — the entry form with the R16.5 declaration (R3.1), the table cards and
line-up slips (R12.2, R12.6), the match record (R14.2b), the appeal form with the deposit and the
deadline (R16.2, R16.3), the hand records (secret until the segment has ended, I15), the fee
receipt (R4.1), the prize list (R5.1, I7); bad URLs are 404s, never 500s; who may ask."""

from __future__ import annotations

import io
import os
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from bridgeko.boards.models import BoardDeal, DealSet
from bridgeko.bridge.annotate import dd_dict, par_dict
from bridgeko.bridge.cards import Deal, Seat, Strain
from bridgeko.bridge.contract import Contract
from bridgeko.bridge.ddtable import DDTable, Par, ParContract
from bridgeko.entries.models import Team
from bridgeko.entries.queries import team_info
from bridgeko.matches import services, standings
from bridgeko.matches import state as match_state
from bridgeko.matches.models import Match, MatchStatus, Segment
from bridgeko.paper import documents
from bridgeko.paper.render import render
from tests.web.conftest import World
from tests.web.test_lineups import captain, give
from tests.web.test_matches import play_segment
from tests.web.test_standings import play_out

CZECH_NAME = "Řeřichy Žďár ůě"
"""A team name with the letters a font without Czech would lose (č ř ě ů ž)."""
DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"


def artifacts() -> Path:
    base = Path(os.environ.get("BRIDGEKO_TEST_ARTIFACTS", "test-artifacts"))
    folder = base / "paper"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def text_of(response: Any, name: str = "") -> str:
    """The PDF's text (every page), after checking it is a PDF sent with a file name."""
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('inline; filename="ko-1999-')
    assert response["Content-Disposition"].endswith('.pdf"')
    body = response.content
    assert body.startswith(b"%PDF-")
    if name:
        (artifacts() / f"{name}.pdf").write_bytes(body)
    reader = PdfReader(io.BytesIO(body))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def fonts_of(response: Any) -> set[str]:
    """The fonts the PDF embeds (every one must be embedded: the reader's machine may lack it)."""
    reader = PdfReader(io.BytesIO(response.content))
    found = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            found.add(str(font["/BaseFont"]))
            descendant = font.get("/DescendantFonts")
            if descendant is not None:
                descriptor = descendant[0].get_object()["/FontDescriptor"].get_object()
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    return found


def paper(name: str, world: World, **kwargs: Any) -> str:
    return reverse(f"paper:{name}", kwargs={"edition": world.edition.slug, **kwargs})


def get(client: Client, url: str, lang: str | None = None) -> Any:
    return client.get(url, {"lang": lang} if lang else {})


@pytest.fixture
def drawn_match(drawn: World) -> Match:
    found = Match.objects.filter(edition=drawn.edition, status=MatchStatus.TO_PLAY).first()
    assert found is not None
    assert found.home is not None
    Team.objects.filter(pk=found.home.pk).update(name=CZECH_NAME)
    found.refresh_from_db()
    return found


# ---------------------------------------------------------------------- 1. the entry form


@pytest.mark.django_db
def test_R3_1_R16_5_blank_entry_form_in_czech_and_english(world: World) -> None:
    client = world.client("captain")
    cs = text_of(get(client, paper("entry_form", world), "cs"), "entry-form-cs")
    assert "Přihláška družstva" in cs
    assert "Prohlášení (R16.5)" in cs
    assert "93C" in cs and "konečné" in cs  # the waiver sentence
    assert "300 Kč" in cs and "1 200 Kč" in cs
    assert "Podpis kapitána" in cs
    en = text_of(get(client, paper("entry_form", world), "en"), "entry-form-en")
    assert "Entry form" in en
    assert "waives its right of appeal to the national" in en
    assert "the decision of the appeals committee is final (R16.5)" in en
    assert "CZK 1,200" in en
    assert "5 March 1999" in en  # the entry deadline (R3.2)


@pytest.mark.django_db
def test_R3_1_entry_form_filled_in_for_a_team_captain_first(drawn_match: Match) -> None:
    world_team = drawn_match.home
    assert isinstance(world_team, Team)
    info = team_info(world_team)
    client = Client()
    client.force_login(_captain_user(drawn_match, "home"))
    url = reverse("paper:team_entry_form", kwargs={"edition": "ko-1999", "team": world_team.pk})
    response = get(client, url, "cs")
    cs = text_of(response, "entry-form-team-cs")
    assert CZECH_NAME in cs  # č ř ě ů ž intact
    assert all(line.player.name in cs for line in info.roster)
    assert all(str(line.elo) in cs for line in info.roster if line.elo is not None)
    first = info.roster[0].player.name
    assert f"{first} (kapitán)" in cs  # the captain first (R7.1)
    assert "Vklad tohoto družstva" in cs
    assert "ko-1999-prihlaska-rerichy-zdar-ue.pdf" in response["Content-Disposition"]
    fonts = fonts_of(response)
    # the fonts the typst wheel embeds (the check mark of the fee chosen is New CM Math's)
    assert fonts and all("LibertinusSerif" in f or "NewCM" in f for f in fonts), fonts
    # the other team's captain may not
    other = Client()
    other.force_login(_captain_user(drawn_match, "visitors"))
    assert get(other, url).status_code == 403


def _captain_user(match: Match, side: str) -> Any:
    from bridgeko.accounts.models import Role, RoleAssignment
    from tests.web.conftest import make_user

    team = match.home if side == "home" else match.visitors
    user = make_user(f"paper-captain-{side}")
    RoleAssignment.objects.create(user=user, edition=match.edition, role=Role.CAPTAIN, team=team)
    return user


# ------------------------------------------------------ 2. table cards and line-up slips


@pytest.mark.django_db
def test_R12_6_table_cards_and_slips_name_every_seat(drawn: World, drawn_match: Match) -> None:
    url = paper("line_ups", drawn, code=drawn_match.code, number=1)
    blank = text_of(get(drawn.client("td"), url, "en"), "line-ups-blank")
    assert "Open room" in blank and "Closed room" in blank and "Line-up slips (R12.6)" in blank
    assert CZECH_NAME in blank
    home = give(drawn, drawn_match, 1, "visitors")  # the visitors sit first in segment 1
    home = give(drawn, drawn_match, 1, "home")
    cs = text_of(get(drawn.client("td"), url, "cs"), "line-ups-cs")
    assert "Otevřená místnost" in cs and "Uzavřená místnost" in cs
    for player in (home.open_first, home.open_second, home.closed_first, home.closed_second):
        assert player.name in cs
    assert "Sever" in cs and "Západ" in cs
    # a captain must not see the other team's line-up here
    assert get(captain(drawn, drawn_match, "home"), url).status_code == 403


# ------------------------------------------------------------------ 3. the match record


@pytest.mark.django_db
def test_R14_2_match_record_blank_then_filled_with_both_rooms(
    drawn: World, drawn_match: Match
) -> None:
    url = paper("match_record", drawn, code=drawn_match.code)
    blank = text_of(get(drawn.client("td"), url, "en"), "match-record-blank")
    assert "Match record" in blank and "Open room" in blank and "Closed room" in blank
    assert "Segment 2, boards 17–32" in blank
    assert "Home captain" in blank and "Visiting captain" in blank
    play_segment(drawn, drawn_match, 1, "4S N =", "4S N -1")  # 420 and 50: 10 IMPs a board
    filled = text_of(get(drawn.client("td"), url, "cs"), "match-record-cs")
    assert "Zápis utkání" in filled
    assert "4S" in filled and "420" in filled and "50" in filled
    total = match_state.view(drawn_match).segments[0].home_imps
    assert total > 0 and f"Součet sestavy {total}" in filled  # the segment total
    assert CZECH_NAME in filled
    assert "Kapitán domácích" in filled and "Rozhodčí" in filled
    # a captain of the match may print it (R14.2b: the winner delivers it)
    assert get(captain(drawn, drawn_match, "visitors"), url).status_code == 200


# ------------------------------------------------------------------ 4. the appeal form


@pytest.mark.django_db
def test_R16_2_appeal_form_with_the_deposit_and_the_deadline(
    drawn: World, drawn_match: Match
) -> None:
    url = paper("appeal_form", drawn, code=drawn_match.code)
    en = text_of(get(drawn.client("appeals"), url, "en"), "appeal-en")
    assert "deposit of CZK 200" in en
    assert "within 30 minutes after the end of the match" in en
    assert "by 13:00 on the scheduled day of the round" in en
    assert drawn_match.code in en and CZECH_NAME in en
    cs = text_of(get(drawn.client("td"), url, "cs"), "appeal-cs")
    assert "Odvolání" in cs and "200 Kč" in cs
    assert "do 30 minut po skončení utkání" in cs
    assert "kauce" in cs.lower()
    play_segment(drawn, drawn_match, 1, "4S N =", "4S N -1")
    play_segment(drawn, drawn_match, 2, "4S N =", "4S N -1")
    drawn_match.refresh_from_db()
    assert drawn_match.decided_at is not None
    played = text_of(get(drawn.client("td"), url, "en"))
    assert "For this match: by 10 April 1999, 11:30 (R16.3)." in played  # 30 minutes after


# ------------------------------------------------------------------ 5. hand records


def _deals(match: Match, number: int = 1, *, analysed: bool = True) -> Segment:
    segment = Segment.objects.get(match=match, number=number)
    deal_set = DealSet.objects.create(segment=segment, source="loaded")
    table = DDTable({(s, t): 7 for s in Seat for t in Strain} | {(Seat.NORTH, Strain.SPADES): 10})
    par = Par(420, (ParContract(Contract.parse("4S"), (Seat.NORTH, Seat.SOUTH)),))
    for board in segment.board_numbers:
        BoardDeal.objects.create(
            deal_set=deal_set,
            board=board,
            deal=DEAL,
            dd=dd_dict(table) if analysed else None,
            par=par_dict(par) if analysed else None,
        )
    return segment


def _end(segment: Segment) -> None:
    at = datetime(1999, 6, 4, 12, tzinfo=UTC)
    Segment.objects.filter(pk=segment.pk).update(open_ended_at=at, closed_ended_at=at)


@pytest.mark.django_db
def test_I15_hand_records_secret_until_the_segment_ended(drawn: World, drawn_match: Match) -> None:
    segment = _deals(drawn_match)
    url = paper("hand_records", drawn, code=drawn_match.code, number=1)
    assert get(drawn.client("td"), url).status_code == 403  # not the chief TD
    assert get(drawn.client("captain"), url).status_code == 403
    cs = text_of(get(drawn.client("organiser"), url, "cs"), "hand-records-cs")
    assert "Rozbor rozdání" in cs or "rozdání" in cs
    _end(segment)
    en = text_of(get(drawn.client("td"), url, "en"), "hand-records-en")
    for board in (1, 2, 16):
        assert f"Board {board}" in en
    assert "AKQJ" in en and "T98" in en
    assert "Par: NS 4S, NS +420" in en
    assert "Dealer: North" in en and "Vulnerable: both" in en  # board 7 is all vulnerable
    assert "10" in en  # the DD tricks of North in spades


@pytest.mark.django_db
def test_hand_records_without_analysis_show_the_hands_only(
    drawn: World, drawn_match: Match
) -> None:
    _end(_deals(drawn_match, analysed=False))
    url = paper("hand_records", drawn, code=drawn_match.code, number=1)
    en = text_of(get(drawn.client("captain"), url, "en"))
    assert "the hands only" in en and "Par:" not in en


@pytest.mark.django_db
def test_hand_records_leave_out_a_deal_that_cannot_be_read(
    drawn: World, drawn_match: Match
) -> None:
    segment = _deals(drawn_match, analysed=False)
    _end(segment)
    BoardDeal.objects.filter(deal_set__segment=segment, board=3).update(deal="N:nonsense")
    url = paper("hand_records", drawn, code=drawn_match.code, number=1)
    en = text_of(get(drawn.client("td"), url, "en"))
    assert "Boards whose deal cannot be read: 3." in en
    assert "Board 2" in en and "Board 4" in en and "Board 3 " not in en


def test_stored_analysis_adapter_reads_the_annotate_format_and_nothing_else() -> None:
    table = DDTable({(s, t): 6 for s in Seat for t in Strain})
    par = Par(-100, (ParContract(Contract.parse("5DX"), (Seat.EAST, Seat.WEST), -2),))
    got_table, got_par = documents.stored_analysis(dd_dict(table), par_dict(par))
    assert got_table == table and got_par == par
    assert documents.stored_analysis({"N": {"S": 14}}, None) == (None, None)
    assert documents.stored_analysis("x", {"score_ns": 1}) == (None, None)
    assert documents.stored_analysis(dd_dict(table), {"score_ns": "x"}) == (got_table, None)


def test_hand_records_pdf_from_plain_data() -> None:
    deal = Deal.from_pbn(DEAL)
    boards = [
        documents.HandRecord(n, Seat.NORTH, documents.Vulnerability.NONE, deal) for n in (1, 2)
    ]
    with translation.override("cs"):
        data = documents.hand_records_pdf("Rozbor", boards, today=date(1999, 6, 4))
    text = PdfReader(io.BytesIO(render("hands", data))).pages[0].extract_text()
    assert "Rozdání 1" in text and "Rozdání 2" in text and "Rozdávající: Sever" in text


# ------------------------------------------------------------------ 6. the fee receipt


@pytest.mark.django_db
def test_R4_1_fee_receipt_of_a_team(drawn: World, drawn_match: Match) -> None:
    team = drawn_match.home
    assert isinstance(team, Team) and team.fee_paid > 0
    url = paper("receipt", drawn, team=team.pk)
    cs = text_of(get(drawn.client("organiser"), url, "cs"), "receipt-cs")
    assert "Potvrzení o zaplacení" in cs and CZECH_NAME in cs
    assert f"{team.fee_paid:,} Kč".replace(",", " ") in cs
    assert drawn.edition.regulations.edition.organiser in cs
    en = text_of(get(drawn.client("organiser"), url, "en"))
    assert f"CZK {team.fee_paid:,}" in en and "entry fee" in en
    Team.objects.filter(pk=team.pk).update(fee_paid=0)
    assert get(drawn.client("organiser"), url).status_code == 404  # nothing paid, no receipt


# ------------------------------------------------------------------ 7. the prize list


@pytest.mark.django_db
def test_R5_1_prize_list_provisional_then_final(drawn: World) -> None:
    url = paper("prize_list", drawn)
    before = text_of(get(drawn.client("captain"), url, "en"), "prizes-provisional")
    assert "Provisional" in before
    play_out(drawn)
    summary = standings.summary(drawn.edition)
    assert summary.awards is not None
    cs = text_of(get(drawn.client("td"), url, "cs"), "prizes-cs")
    assert "Ceny" in cs or "Výsledková listina" in cs
    assert "60 000 Kč" in cs and "5 000 Kč" in cs
    assert all(a.team.name in cs for a in summary.awards)
    en = text_of(get(drawn.client("td"), url, "en"))
    assert "CZK 60,000" in en and "Provisional" not in en
    with translation.override("cs"):
        doc = documents.prize_list(drawn.edition, summary, date(1999, 6, 6))
        (artifacts() / "prizes-final.png").write_bytes(render(doc.template, doc.data, output="png"))


# ------------------------------------------------------------ bad URLs, links, speed


@pytest.mark.django_db
def test_bad_paper_urls_are_404_never_500(drawn: World, drawn_match: Match) -> None:
    td = drawn.client("organiser")  # may see a segment's deals before its end (I15)
    bad = [
        paper("match_record", drawn, code="NO-SUCH"),
        paper("appeal_form", drawn, code="NO-SUCH"),
        paper("line_ups", drawn, code=drawn_match.code, number=99),
        paper("line_ups", drawn, code="NO-SUCH", number=1),
        paper("hand_records", drawn, code=drawn_match.code, number=1),  # no deals stored
        paper("hand_records", drawn, code=drawn_match.code, number=99),
        paper("team_entry_form", drawn, team=999_999),
        paper("receipt", drawn, team=999_999),
        "/e/no-such-edition/paper/entry-form.pdf",
    ]
    for url in bad:
        assert td.get(url).status_code == 404, url
    for lang in ("xx", "", "c" * 5000, "cs\x00"):
        assert td.get(paper("entry_form", drawn), {"lang": lang}).status_code == 404
    assert td.post(paper("entry_form", drawn)).status_code == 405


@pytest.mark.django_db
def test_the_pages_link_their_pdfs(drawn: World, drawn_match: Match) -> None:
    client = drawn.client("organiser")
    team = drawn_match.home
    assert isinstance(team, Team)
    code = drawn_match.code
    team_page = reverse("entries:detail", args=["ko-1999", team.pk])
    match_page = reverse("matches:detail", args=["ko-1999", code])
    slips = reverse("matches:slips", args=["ko-1999", code, 1])
    checks = [
        (team_page, paper("team_entry_form", drawn, team=team.pk)),
        (team_page, paper("receipt", drawn, team=team.pk)),
        (reverse("entries:list", args=["ko-1999"]), paper("entry_form", drawn)),
        (reverse("draw:print_index", args=["ko-1999"]), paper("entry_form", drawn)),
        (reverse("draw:manage", args=["ko-1999"]), paper("entry_form", drawn)),
        (reverse("editions:detail", args=["ko-1999"]), paper("entry_form", drawn)),
        (match_page, paper("match_record", drawn, code=code)),
        (match_page, paper("appeal_form", drawn, code=code)),
        (match_page, paper("line_ups", drawn, code=code, number=1)),
        (slips, paper("line_ups", drawn, code=code, number=1)),
        (slips, paper("hand_records", drawn, code=code, number=1)),
        (reverse("matches:standings", args=["ko-1999"]), paper("prize_list", drawn)),
    ]
    for page, link in checks:
        html = client.get(page).content.decode()
        assert link in html, (page, link)
    # the captain's My team: the team's entry form and receipt, each match's record and form
    mine = Client()
    mine.force_login(_captain_user(drawn_match, "home"))
    html = mine.get(reverse("entries:my_team_of", args=["ko-1999", team.pk])).content.decode()
    for link in (
        paper("team_entry_form", drawn, team=team.pk),
        paper("receipt", drawn, team=team.pk),
        paper("match_record", drawn, code=code),
        paper("appeal_form", drawn, code=code),
    ):
        assert link in html, link


@pytest.mark.django_db
def test_every_form_renders_a_first_page_image(drawn: World, drawn_match: Match) -> None:
    """Each form's first page as a PNG in test-artifacts/paper/ (to look at)."""
    today = date(1999, 6, 4)
    team = drawn_match.home
    assert isinstance(team, Team)
    _end(_deals(drawn_match))
    segment = Segment.objects.get(match=drawn_match, number=1)
    play_segment(drawn, drawn_match, 1, "4S N =", "3NTX E -2")
    with translation.override("cs"):
        forms = {
            "entry-form": documents.entry_form(drawn.edition, team_info(team), today),
            "line-ups": documents.line_up_cards(drawn.edition, drawn_match, segment, today),
            "match-record": documents.match_record(drawn.edition, drawn_match, today),
            "appeal": documents.appeal_form(drawn.edition, drawn_match, today),
            "hand-records": documents.hand_records(
                drawn.edition,
                drawn_match,
                segment,
                BoardDeal.objects.filter(deal_set__segment=segment).order_by("board"),
                today,
            ),
            "receipt": documents.receipt(drawn.edition, team_info(team), today),
            "prizes": documents.prize_list(drawn.edition, standings.summary(drawn.edition), today),
        }
        for name, doc in forms.items():
            png = render(doc.template, doc.data, output="png")
            assert png.startswith(b"\x89PNG"), name
            (artifacts() / f"{name}.png").write_bytes(png)
        second = render("lineup", forms["line-ups"].data, output="png", page=2)
        (artifacts() / "line-ups-2.png").write_bytes(second)
    assert services  # the match services played the segment above
