"""The public pages' links on the staff's pages of the apps below this one (they may not name
its URLs: :mod:`bridgeko.core.page_links`). A public page is open to everyone. No queries."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.core import page_links
from bridgeko.core.page_links import Link


def _url(name: str, **kwargs: Any) -> str:
    return reverse(f"public:{name}", kwargs=kwargs)


def standings(request: Any, edition: Any) -> list[Link]:
    return [Link(_("Final standings and prizes"), _url("standings", edition=edition.slug))]


def teams(request: Any, edition: Any) -> list[Link]:
    return [Link(_("Public list"), _url("teams", edition=edition.slug))]


def draw(request: Any, edition: Any) -> list[Link]:
    return [Link(_("Public page of the draw"), _url("draw", edition=edition.slug))]


def boards(request: Any, edition: Any) -> list[Link]:
    label = _("The public page of the commitments and seeds")
    return [Link(label, _url("boards", edition=edition.slug))]


def hand_records(request: Any, edition: Any, match: Any, number: int) -> list[Link]:
    url = _url("hand_records", edition=edition.slug, code=match.code, segment=number)
    return [Link(_("Public page"), url)]


def hand_record(request: Any, edition: Any, match: Any, board: int) -> list[Link]:
    url = _url("hand_record", edition=edition.slug, code=match.code, board=board)
    return [Link(_("Public page"), url)]


def match(request: Any, edition: Any, match: Any) -> list[Link]:
    return [
        Link(_("Public page of the match"), _url("match", edition=edition.slug, code=match.code))
    ]


page_links.register("edition_finished", standings)
page_links.register("teams", teams, position=10)
page_links.register("draw_public", draw)
page_links.register("public_boards", boards)
page_links.register("public_hand_records", hand_records)
page_links.register("public_hand_record", hand_record)
page_links.register("match_appeals", match)
