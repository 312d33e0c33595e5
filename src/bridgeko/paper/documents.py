"""What each paper form says: plain data for its Typst template, every text in the active
language (the view chooses it). One function per document returns a :class:`Document` (the
template, its data and a file name); :func:`bridgeko.paper.render.render` typesets it.

The numbers and rules come from where they live: the fees of R4.1, the deposit and deadlines of
R16 from the edition's regulations, the board results and IMPs from :func:`bridgeko.matches.
state.view`, the seats from :mod:`bridgeko.matches.lineups`, the places and prizes from
:mod:`bridgeko.matches.standings`. Nothing here writes."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from bridgeko.accounts.models import Role, RoleAssignment
from bridgeko.boards import handrecords
from bridgeko.bridge.annotate import par_items
from bridgeko.bridge.cards import Deal, Seat, Strain, Suit, Vulnerability
from bridgeko.bridge.ddtable import DDTable, Par
from bridgeko.bridge.errors import BridgeInputError
from bridgeko.competition import match as engine
from bridgeko.competition import schedule
from bridgeko.competition.stage import Stage
from bridgeko.core.l10n import money, show_date, show_datetime, show_time
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.entries.queries import TeamInfo
from bridgeko.matches import lineups
from bridgeko.matches import state as match_state
from bridgeko.matches.models import Match, MatchStatus, Segment
from bridgeko.matches.standings import Standings
from bridgeko.matches.views import _date_and_place, _penalty_rows, stage_label

__all__ = [
    "Document",
    "HandRecord",
    "appeal_form",
    "entry_form",
    "hand_records",
    "hand_records_pdf",
    "line_up_cards",
    "match_record",
    "prize_list",
    "public_hand_records",
    "receipt",
]


@dataclass(frozen=True, slots=True)
class Document:
    """A form to typeset: ``render(template, data)``, sent as ``filename``."""

    template: str
    data: dict[str, Any]
    filename: str


def _slug(text: str) -> str:
    """A file-name-safe form of ``text`` (ASCII letters, digits and dashes)."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "-", plain).strip("-").lower()[:60] or "x"


def _filename(edition: Edition, *parts: str) -> str:
    return "-".join(_slug(p) for p in (edition.slug, *parts)) + ".pdf"


def _base(edition_name: str, title: str, clause: str, today: date) -> dict[str, Any]:
    return {
        "lang": (get_language() or "cs").split("-")[0],
        "title": title,
        "edition": edition_name,
        "clause": clause,
        "printed": _("Printed %(date)s") % {"date": show_date(today)},
    }


# ---------------------------------------------------------------------------------------------
# 1. The entry form (R3.1) with the R16.5 declaration


def _captain_email(team: Team) -> str:
    assignment = (
        RoleAssignment.objects.filter(edition_id=team.edition_id, role=Role.CAPTAIN, team=team)
        .select_related("user")
        .first()
    )
    return assignment.user.email if assignment is not None else ""


def waiver_text() -> str:
    """The declaration of R16.5, as the entry form prints it."""
    return _(
        "So as not to disrupt the schedule, our team waives its right of appeal to the national "
        "authority under Law 93C; the decision of the appeals committee is final (R16.5)."
    )


def entry_form(edition: Edition, info: TeamInfo | None, today: date) -> Document:
    """The entry form of R3.1(a): blank (``info`` None), or filled in with a team's name,
    roster (captain first, club, federation id, Elo), captain's e-mail and fee."""
    reg = edition.regulations
    cur = reg.edition.currency
    title = _("Entry form of a team")
    data = _base(edition.name, title, "R3.1, R4.1, R16.5", today)
    data["subtitle"] = f"{reg.edition.organiser}, {reg.edition.venue}"
    data["t"] = {
        "team_name": _("Team name"),
        "players": _("Players"),
        "players_note": _(
            "From %(min)s to %(max)s players; the captain first (R7.1). Club, federation id "
            "and Elo as on the federation's list."
        )
        % {"min": reg.entry.min_players, "max": reg.entry.max_players},
        "name": pgettext("person", "Name"),
        "club": _("Club"),
        "federation_id": _("Federation id"),
        "elo": _("Elo"),
        "captain": _("captain"),
        "captain_label": _("Captain"),
        "contact": _("Contact"),
        "email": _("E-mail"),
        "phone": _("Phone"),
        "address": _("Address"),
        "fees": _("Entry fee (R4.1)"),
        "tier": _("The team is"),
        "amount": _("Fee"),
        "waiver_title": _("Declaration (R16.5)"),
        "place_date": _("Place and date"),
        "signature": _("Captain's signature"),
    }
    rows: list[dict[str, str]] = []
    chosen = None
    if info is not None:
        data["team_name"] = info.name
        for line in info.roster:
            rows.append(
                {
                    "name": line.player.name,
                    "club": line.player.club or "",
                    "federation_id": line.player.federation_id or "",
                    "elo": str(line.elo) if line.elo is not None else "",
                }
            )
        captain = info.captain
        data["captain"] = captain.name if captain is not None else None
        data["email"] = _captain_email(info.team) or None
        if info.fee is not None:
            chosen = str(info.fee.tier)
            data["fee_note"] = _("Fee of this team: %(amount)s.") % {
                "amount": money(info.fee.amount, cur)
            }
            if info.fee.overridden:
                data["fee_note"] += " " + _("Set by the organiser (I4).")
        else:
            data["fee_note"] = None
    else:
        data.update(team_name=None, captain=None, email=None, fee_note=None)
    blank = {"name": "", "club": "", "federation_id": "", "elo": ""}
    rows += [blank] * max(0, reg.entry.max_players - len(rows))
    data["players"] = rows
    fees = reg.fees
    data["tiers"] = [
        {
            "label": _(
                "a team that took part in the previous edition (same name, at least "
                "%(players)s of the same players, or %(captain)s with the previous captain)"
            )
            % {
                "players": fees.returning_same_players,
                "captain": fees.returning_same_players_with_captain,
            },
            "amount": money(fees.returning, cur),
            "chosen": chosen == "returning",
        },
        {
            "label": _("a new team made up exclusively of members of the federation"),
            "amount": money(fees.members_only, cur),
            "chosen": chosen == "members_only",
        },
        {
            "label": _("any other team"),
            "amount": money(fees.other, cur),
            "chosen": chosen == "other",
        },
    ]
    data["conditions"] = _(
        "The team takes part when the organiser has received, by %(deadline)s, this form, the "
        "convention cards of all its pairs and the entry fee (R3.1, R3.2)."
    ) % {"deadline": show_date(reg.entry.deadline)}
    data["waiver"] = waiver_text()
    name = info.name if info is not None else _("blank")
    return Document("entry-form", data, _filename(edition, _("entry-form"), name))


# ---------------------------------------------------------------------------------------------
# 2. Table cards and line-up slips of a segment (R12.2, R12.6)


def seat_name(seat: str) -> str:
    return {
        "N": pgettext("seat", "North"),
        "E": pgettext("seat", "East"),
        "S": pgettext("seat", "South"),
        "W": pgettext("seat", "West"),
    }[seat]


def room_name(room: str) -> str:
    return _("Open room") if room == "open" else _("Closed room")


def _segment_text(segment: Segment) -> str:
    text = _("Segment %(number)s, boards %(first)s–%(last)s") % {
        "number": segment.number,
        "first": segment.first_board,
        "last": segment.last_board,
    }
    if segment.is_extra:
        text += " (" + _("extra segment (R12.5)") + ")"
    return text


def _team_name(team: Any) -> str:
    return team.name if isinstance(team, Team) else "?"


def line_up_cards(edition: Edition, match: Match, segment: Segment, today: date) -> Document:
    """The table cards of both rooms (who sits North, East, South and West, R12.2) and each
    team's line-up slip (R12.6): filled in with the line-ups given, else lines to fill in."""
    view = lineups.segment_line_ups(segment)
    title = _("Table cards and line-up slips")
    data = _base(edition.name, title, "R12.2, R12.6", today)
    home, visitors = _team_name(match.home), _team_name(match.visitors)
    data.update(code=match.code, home=home, visitors=visitors)
    data["segment_text"] = _segment_text(segment)
    data["t"] = {
        "match": _("Match"),
        "slips_title": _("Line-up slips (R12.6)"),
        "slip": _("Line-up slip"),
        "room": _("Room"),
        "player": _("Player"),
        "handed_in": _("Handed to the TD at (time)"),
        "captain_signature": _("Captain's signature"),
    }
    data["rooms"] = [
        {
            "name": room_name(room),
            "seats": [
                {
                    "seat": s.seat,
                    "seat_name": seat_name(s.seat),
                    "player": s.player.name if s.player is not None else "",
                    "team": _team_name(s.team),
                }
                for s in seats
            ],
        }
        for room, seats in view.rooms()
    ]
    slips = []
    for side in (view.first, view.second):
        line_up = view.of(side)
        rows = []
        for room in ("open", "closed"):
            first_seat, second_seat = lineups.SEATS[lineups.line_of(segment, side, room)]
            first = getattr(line_up, f"{room}_first") if line_up is not None else None
            second = getattr(line_up, f"{room}_second") if line_up is not None else None
            rows.append(
                {
                    "room": room_name(room),
                    "seat1": seat_name(first_seat),
                    "player1": first.name if first is not None else "",
                    "seat2": seat_name(second_seat),
                    "player2": second.name if second is not None else "",
                }
            )
        order = (
            _("Gives the line-up first.")
            if side == view.first
            else _("Sits down second: gives the line-up after seeing the other team's (R12.6).")
        )
        slips.append({"team": _team_name(view.team(side)), "order": order, "rows": rows})
    data["slips"] = slips
    name = _("line-ups")
    return Document("lineup", data, _filename(edition, name, match.code, str(segment.number)))


# ---------------------------------------------------------------------------------------------
# 3. The match record (R14.2b)


def _split_result(text: str | None) -> dict[str, str]:
    """A stored result ("4S N =", "3NTX E -2", "Pass") as the scorecard's columns."""
    empty = {"contract": "", "declarer": "", "result": ""}
    if not text:
        return empty
    parts = text.split()
    if len(parts) == 3:
        return {"contract": parts[0], "declarer": parts[1], "result": parts[2]}
    return {**empty, "contract": text}


def _room_cells(result: Any) -> dict[str, str]:
    cells = _split_result(result.text if result is not None else None)
    score = result.ns_score if result is not None else None
    cells["ns"] = str(score) if score is not None and score > 0 else ""
    cells["ew"] = str(-score) if score is not None and score < 0 else ""
    return cells


def _planned_segments(match: Match) -> list[tuple[int, int, int, bool]]:
    """(number, first, last, extra) of the match's segments; before they exist, the plan of
    its stage (R1.3, R12.1)."""
    stored = list(Segment.objects.filter(match=match).order_by("number"))
    if stored:
        return [(s.number, s.first_board, s.last_board, s.is_extra) for s in stored]
    try:
        plan = engine.segments_for_stage(Stage(match.stage), match.edition.regulations)
    except (ValueError, engine.MatchError):
        return []
    return [(s.number, s.first_board, s.last_board, s.is_extra) for s in plan]


def _when_where(match: Match) -> str:
    start, place = _date_and_place(match)
    parts = [show_datetime(start)] if start is not None else []
    if place:
        parts.append(place)
    return ", ".join(parts)


def match_record(edition: Edition, match: Match, today: date) -> Document:
    """Both rooms' scorecards of every segment (board, contract, declarer, result, the score
    to each line, the IMPs to each team), the segment totals, penalties, the result and the
    signatures of both captains and the TD (R14.2b): filled in as far as results exist,
    otherwise blank lines for the boards of the match."""
    view = match_state.view(match)
    home, visitors = _team_name(match.home), _team_name(match.visitors)
    title = _("Match record")
    data = _base(edition.name, title, "R14.2", today)
    data["subtitle"] = f"{match.code} · {stage_label(match.stage)}"
    data.update(home=home, visitors=visitors, date_place=_when_where(match) or None)
    data["home_short"] = _short(home)
    data["visitors_short"] = _short(visitors)
    data["t"] = {
        "home": _("Home team"),
        "visitors": _("Visiting team"),
        "date_place": _("Date and place"),
        "td": _("TD"),
        "rooms_note": _(
            "Open room: the home team sits North–South; closed room: East–West (R12.2). "
            "IMPs to each team."
        ),
        "board": _("Board"),
        "open_room": _("Open room"),
        "closed_room": _("Closed room"),
        "imps": _("IMPs"),
        "contract": _("Contract"),
        "declarer": _("Decl."),
        "result": _("Result"),
        "ns": _("NS"),
        "ew": _("EW"),
        "segment_total": _("Segment total"),
        "penalties": _("Penalties and adjustments"),
        "segment": _("Segment"),
        "kind": _("Kind"),
        "effect": _("Effect"),
        "reason": _("Reason"),
        "home_captain": _("Home captain"),
        "visitors_captain": _("Visiting captain"),
        "td_signature": _("TD"),
    }
    views = {sv.segment.number: sv for sv in view.segments}
    segments = []
    for number, first, last, extra in _planned_segments(match):
        sv = views.get(number)
        lines = {b.number: b for b in sv.boards} if sv is not None else {}
        boards = []
        for n in range(first, last + 1):
            line = lines.get(n)
            imps = line.imps if line is not None else None
            removed = line is not None and line.removed
            open_cells = _room_cells(line.open if line is not None else None)
            if removed:
                open_cells["contract"] = _("removed (R12.9)")
            boards.append(
                {
                    "number": n,
                    "open": open_cells,
                    "closed": _room_cells(line.closed if line is not None else None),
                    "home": str(imps) if imps is not None and imps > 0 else "",
                    "visitors": str(-imps) if imps is not None and imps < 0 else "",
                }
            )
        has = sv is not None and (sv.scored > 0 or sv.segment.has_totals)
        seg_title = _("Segment %(number)s, boards %(first)s–%(last)s") % {
            "number": number,
            "first": first,
            "last": last,
        }
        if extra:
            seg_title += " (" + _("extra segment (R12.5)") + ")"
        segments.append(
            {
                "title": seg_title,
                "boards": boards,
                "home": str(sv.home_imps) if has and sv is not None else "",
                "visitors": str(sv.visitors_imps) if has and sv is not None else "",
            }
        )
    data["segments"] = segments
    data["penalties"] = [
        {
            "segment": str(row["penalty"].segment),
            "kind": f"{row['penalty'].get_kind_display()}: {row['team']}",
            "effect": row["what"],
            "reason": row["penalty"].reason,
        }
        for row in _penalty_rows(match, view.facts.penalties, view)
    ]
    played = any(s["home"] or s["visitors"] for s in segments)
    data["home_total"] = str(view.state.home_total) if played else ""
    data["visitors_total"] = str(view.state.visitors_total) if played else ""
    data["t"]["result_title"] = _("Result (IMPs, penalties included)")
    winner = view.state.winner
    if winner is not None and match.is_over:
        name = home if winner.value == "home" else visitors
        data["winner_text"] = _("Winner: %(team)s") % {"team": name}
    else:
        data["winner_text"] = _("Winner:")
    return Document("record", data, _filename(edition, _("match-record"), match.code))


def _short(name: str) -> str:
    """A team's name cut to fit a narrow column."""
    return name if len(name) <= 10 else name[:9].rstrip() + "."


# ---------------------------------------------------------------------------------------------
# 4. The appeal form (R16.2, R16.3, R16.4)


def appeal_form(edition: Edition, match: Match, today: date) -> Document:
    """The blank appeal form of a match: match, appealing team, segment and boards, the facts,
    the TD's ruling, the reasons, the deposit of the edition's amount, the deadline of R16.3 in
    words, the signatures, and the committee's decision (R16.1, R16.5)."""
    reg = edition.regulations
    rules = reg.appeals
    home, visitors = _team_name(match.home), _team_name(match.visitors)
    title = _("Appeal")
    data = _base(edition.name, title, "R16.2, R16.3", today)
    data["subtitle"] = f"{match.code}: {home} – {visitors}"
    data["match"] = f"{match.code} · {stage_label(match.stage)}"
    data["date_place"] = _when_where(match) or None
    data["teams"] = [home, visitors]
    data["t"] = {
        "match": _("Match"),
        "date_place": _("Date and place"),
        "segment": _("Segment"),
        "boards": _("Board(s)"),
        "appellant": _("Appealing team"),
        "facts": _("The facts"),
        "ruling": _("The TD's ruling"),
        "td": _("TD"),
        "reasons": _("Reasons for the appeal"),
        "deposit_title": _("Deposit and deadline"),
        "lodged_at": _("Lodged at (date, time)"),
        "received_by": _("Received by the TD"),
        "appellant_signature": _("Captain of the appealing team"),
        "td_signature": _("TD"),
        "committee": _("Decision of the appeals committee (R16.1)"),
        "upheld": _("the TD's ruling stands"),
        "adjusted": _("adjusted score"),
        "dismissed": _("appeal dismissed"),
        "deposit_fate": _("Deposit"),
        "returned": _("returned"),
        "forfeited": _("forfeited (the appeal was frivolous, R16.2)"),
        "member": _("Member of the committee"),
    }
    data["deposit"] = _(
        "The appeal is lodged through the TD who directed the match, with a deposit of "
        "%(deposit)s (R16.2). The deposit may be forfeited if the appeal is frivolous."
    ) % {"deposit": money(rules.deposit, reg.edition.currency)}
    deadline = _(
        "An appeal must be lodged within %(minutes)s minutes after the end of the match, i.e. "
        "after the last board has been completed in both rooms (R16.3, I15). If the organiser "
        "has announced it, an appeal about a segment must be lodged within %(minutes)s minutes "
        "after the end of that segment. For a match played early by agreement, the TD must "
        "hand the form over to the organiser by %(time)s on the scheduled day of the round "
        "(R16.4)."
    ) % {"minutes": rules.deadline_minutes, "time": show_time(rules.early_match_form_deadline)}
    if match.decided_at is not None and match.status != MatchStatus.WALKOVER:
        try:
            ends = schedule.appeal_deadlines(reg, match_ended_at=match.decided_at)
        except schedule.ScheduleError:
            ends = ()
        for end in ends:
            deadline += " " + _("For this match: by %(at)s (%(clause)s).") % {
                "at": show_datetime(end.at),
                "clause": end.clause,
            }
    data["deadline"] = deadline
    data["final"] = _(
        "The committee's decision is final: the teams waived the appeal to the national "
        "authority on the entry form (R16.5)."
    )
    return Document("appeal", data, _filename(edition, _("appeal-form"), match.code))


# ---------------------------------------------------------------------------------------------
# 5. Hand records (plain data: the boards app's deals, or any other source)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One board of a hand record: its number, dealer, vulnerability, deal and, when analysed,
    its double-dummy table and par."""

    board: int
    dealer: Seat
    vulnerability: Vulnerability
    deal: Deal
    dd: DDTable | None = None
    par: Par | None = None


_DD_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_DD_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)


def _vulnerability_text(vul: Vulnerability) -> str:
    return {
        Vulnerability.NONE: _("none"),
        Vulnerability.NS: _("North–South"),
        Vulnerability.EW: _("East–West"),
        Vulnerability.ALL: _("both"),
    }[vul]


def _hand(deal: Deal, seat: Seat) -> dict[str, Any]:
    hand = deal[seat]
    return {
        "suits": [
            {"symbol": suit.symbol, "cards": "".join(r.char for r in hand.holding(suit))}
            for suit in Suit
        ],
        "hcp": hand.hcp,
    }


def _strain_symbol(strain: Strain) -> str:
    return _("NT") if strain is Strain.NOTRUMP else Suit(strain.value).symbol


def _board_data(record: HandRecord) -> dict[str, Any]:
    dd = None
    if record.dd is not None:
        table = record.dd
        dd = {
            "strains": [_strain_symbol(s) for s in _DD_STRAINS],
            "rows": [
                {"seat": seat.value, "tricks": [table[seat, s] for s in _DD_STRAINS]}
                for seat in _DD_SEATS
            ],
        }
    par = None
    if record.par is not None:
        contracts = "; ".join(par_items(record.par)) or _("passed out")
        par = _("%(contracts)s, NS %(score)+d") % {
            "contracts": contracts,
            "score": record.par.score,
        }
    return {
        "number": record.board,
        "dealer": seat_name(record.dealer.value),
        "vulnerable": _vulnerability_text(record.vulnerability),
        "hands": {seat.value: _hand(record.deal, seat) for seat in Seat},
        "dd": dd,
        "par": par,
    }


def hand_records_pdf(
    title: str, boards: Sequence[HandRecord], *, edition_name: str = "", today: date
) -> dict[str, Any]:
    """The data of the hand-records template for ``boards`` (any source: the boards app's
    deals, a PBN file ...): typeset it with ``render("hands", data)``."""
    data = _base(edition_name, title, "", today)
    data["t"] = {
        "board": _("Board"),
        "dealer": _("Dealer"),
        "vulnerable": _("Vulnerable"),
        "hcp": _("HCP"),
        "par": _("Par"),
    }
    analysed = any(b.dd is not None for b in boards)
    data["note"] = (
        None if analysed else _("The double-dummy analysis is not available yet: the hands only.")
    )
    data["boards"] = [_board_data(b) for b in boards]
    return data


def hand_records(
    edition: Edition, match: Match, segment: Segment, deals: Iterable[Any], today: date
) -> Document:
    """The hand records of a segment from its stored deals (``boards.BoardDeal`` rows)."""
    from bridgeko.bridge import board as board_rules

    records = []
    unreadable = []
    for row in deals:
        dd, par = stored_analysis(row.dd, row.par)
        try:
            deal = Deal.from_pbn(row.deal)
            dealer, vulnerability = (
                board_rules.dealer(row.board),
                board_rules.vulnerability(row.board),
            )
        except BridgeInputError:  # a stored deal that cannot be read is left out, and said so
            unreadable.append(str(row.board))
            continue
        records.append(HandRecord(row.board, dealer, vulnerability, deal, dd, par))
    title = _("Hand records: %(match)s, segment %(number)s") % {
        "match": match.code,
        "number": segment.number,
    }
    data = hand_records_pdf(title, records, edition_name=edition.name, today=today)
    if unreadable:
        missing = _("Boards whose deal cannot be read: %(boards)s.") % {
            "boards": ", ".join(unreadable)
        }
        data["note"] = f"{data['note']} {missing}" if data["note"] else missing
    data["subtitle"] = f"{_team_name(match.home)} – {_team_name(match.visitors)} · " + (
        _segment_text(segment)
    )
    name = _("hand-records")
    return Document("hands", data, _filename(edition, name, match.code, str(segment.number)))


def public_hand_records(
    edition: Edition, match: Match, segment: Segment, deals: Iterable[Any], changed: datetime
) -> Document:
    """The hand records of a segment for the public site (I15: the caller asks
    :func:`bridgeko.boards.secrecy.revealed` first): as :func:`hand_records`, but dated by
    ``changed`` — the last change of what they show — instead of the day of printing, so the
    file is the same bytes for every reader, and the static export's copy, until the data
    changes. The footer says "Updated <date>", as the public pages do."""
    day = timezone.localtime(changed).date()
    document = hand_records(edition, match, segment, deals, day)
    updated = pgettext("results last changed", "Updated")
    return replace(document, data=document.data | {"printed": f"{updated} {show_date(day)}"})


def stored_analysis(dd: Any, par: Any) -> tuple[DDTable | None, Par | None]:
    """The boards app's stored analysis (``BoardDeal.dd`` and ``.par``) read by its own readers
    (:func:`bridgeko.boards.handrecords.dd_from_json`, ``par_from_json``); anything else gives
    None (the hand record then shows the hands only)."""
    table = handrecords.dd_from_json(dd)
    return table, (handrecords.par_from_json(par) if table is not None else None)


# ---------------------------------------------------------------------------------------------
# 6. The fee receipt


def receipt(edition: Edition, info: TeamInfo, today: date) -> Document:
    """A receipt for what the team paid of its entry fee (R4.1): amount, date, the
    organiser."""
    reg = edition.regulations
    team = info.team
    title = _("Receipt")
    data = _base(edition.name, title, "R3.1, R4.1", today)
    data["t"] = {
        "number": _("Receipt number"),
        "received_from": _("Received from team"),
        "captain": _("Captain"),
        "amount": _("Amount"),
        "purpose": _("For"),
        "date": _("Date of payment"),
        "organiser": _("Organiser"),
        "signature": _("For the organiser"),
    }
    data["copies"] = [_("Copy for the team"), _("Copy for the organiser")]
    data["number"] = f"{edition.slug.upper()}-{team.pk}"
    data["team"] = team.name
    captain = info.captain
    data["captain"] = captain.name if captain is not None else None
    data["amount"] = money(team.fee_paid, reg.edition.currency)
    data["purpose"] = _("entry fee, %(edition)s (R4.1)") % {"edition": edition.name}
    data["date"] = show_date(team.fee_received) if team.fee_received is not None else None
    data["organiser"] = reg.edition.organiser
    note = None
    if info.fee is not None and team.fee_paid < info.fee.amount:
        note = _("Still due: %(amount)s.") % {
            "amount": money(info.fee.amount - team.fee_paid, reg.edition.currency)
        }
    data["note"] = note
    return Document("receipt", data, _filename(edition, _("receipt"), team.name))


# ---------------------------------------------------------------------------------------------
# 7. The prize list (R5.1, I7)


def prize_list(edition: Edition, summary: Standings, today: date) -> Document:
    """The final places and the prizes (R5.1; a shared place shares its prizes, I7); before
    the end, the standings so far, marked provisional."""
    reg = edition.regulations
    cur = reg.edition.currency
    title = _("Prize list")
    data = _base(edition.name, title, "R1.2, R5.1, I7", today)
    data["t"] = {
        "place": _("Place"),
        "team": _("Team"),
        "prize": _("Prize"),
        "total": _("Total"),
        "place_date": _("Place and date"),
        "organiser_signature": _("For the organiser"),
    }
    prizes: dict[int, int] = {}
    if summary.awards is not None:
        for award in summary.awards:
            prizes[award.team.pk] = award.amount
    rows = []
    for placing in summary.placings:
        for team in placing.teams:
            amount = prizes.get(team.pk)
            rows.append(
                {
                    "place": placing.place,
                    "team": team.name,
                    "prize": money(amount, cur) if amount else "",
                }
            )
    data["rows"] = rows
    data["total"] = money(sum(prizes.values()), cur) if prizes else None
    if summary.awards is None:
        data["note"] = _(
            "Provisional: not every match is decided yet, or a place awaits the organiser's "
            "decision (I16). The prizes follow once the standings are final."
        )
    else:
        data["note"] = None
    data["paid_note"] = _("The prizes are paid in cash on the last day of the competition (R5.1).")
    return Document("prizes", data, _filename(edition, _("prize-list")))
