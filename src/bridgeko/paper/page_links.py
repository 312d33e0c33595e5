"""The paper forms' links on the pages of the apps below this one (they may not name its URLs:
the links reach them through :mod:`bridgeko.core.page_links`). No queries: the pages show the
links where they showed them before (each PDF view checks its own permission)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.core import page_links
from bridgeko.core.page_links import Link


def _url(name: str, **kwargs: Any) -> str:
    return reverse(f"paper:{name}", kwargs=kwargs)


def match(request: Any, edition: Any, match: Any) -> list[Link]:
    """The TD's match page: "Print (PDF): Match record · Appeal form"."""
    kwargs = {"edition": edition.slug, "code": match.code}
    return [
        Link(_("Match record"), _url("match_record", **kwargs)),
        Link(_("Appeal form"), _url("appeal_form", **kwargs)),
    ]


def segment(request: Any, edition: Any, match: Any, number: int) -> list[Link]:
    """A segment on the TD's match page."""
    kwargs = {"edition": edition.slug, "code": match.code, "number": number}
    return [Link(_("Table cards and line-up slips (PDF)"), _url("line_ups", **kwargs))]


def table_cards(request: Any, edition: Any, match: Any, number: int) -> list[Link]:
    """The table cards page of a segment."""
    kwargs = {"edition": edition.slug, "code": match.code, "number": number}
    return [
        Link(_("Table cards and line-up slips (PDF)"), _url("line_ups", **kwargs)),
        Link(_("Hand records (PDF, once the segment has ended)"), _url("hand_records", **kwargs)),
    ]


def entry_form(request: Any, edition: Any) -> list[Link]:
    """The blank entry form (the teams, the draw, the edition's page)."""
    url = _url("entry_form", edition=edition.slug)
    return [Link(_("Blank entry form (PDF)"), url, id="entry-form-pdf")]


def prize_list(request: Any, edition: Any) -> list[Link]:
    return [Link(_("Prize list (PDF)"), _url("prize_list", edition=edition.slug))]


def team(request: Any, edition: Any, team: Any) -> list[Link]:
    """A team's page: "Print (PDF): Entry form · Fee receipt"."""
    kwargs = {"edition": edition.slug, "team": team.pk}
    out = [Link(_("Entry form"), _url("team_entry_form", **kwargs))]
    if team.fee_paid:
        out.append(Link(_("Fee receipt"), _url("receipt", **kwargs)))
    return out


def my_team_entry_form(request: Any, edition: Any, team: Any) -> list[Link]:
    kwargs = {"edition": edition.slug, "team": team.pk}
    url = _url("team_entry_form", **kwargs)
    return [Link(_("Print the entry form (PDF)"), url, id="entry-form-pdf")]


def my_team_fee(request: Any, edition: Any, team: Any) -> list[Link]:
    if not team.fee_paid:
        return []
    kwargs = {"edition": edition.slug, "team": team.pk}
    return [Link(_("Fee receipt"), _url("receipt", **kwargs), id="receipt-pdf")]


page_links.register("match", match)
page_links.register("segment", segment)
page_links.register("table_cards", table_cards)
page_links.register("edition", entry_form)
page_links.register("teams", entry_form, position=30)
page_links.register("draw", entry_form)
page_links.register("print_index", entry_form)
page_links.register("print_index", prize_list)
page_links.register("standings", prize_list)
page_links.register("team", team)
page_links.register("my_team_entry_form", my_team_entry_form)
page_links.register("my_team_fee", my_team_fee)
