"""The boards' link on the TD's match page (the matches app lies below and may not name the
boards app's URLs: :mod:`bridgeko.core.page_links`). No queries."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from bridgeko.core import page_links
from bridgeko.core.page_links import Link


def match_boards(request: Any, edition: Any, match: Any) -> list[Link]:
    """Next to the ends of the segments (I15): the boards of the match."""
    url = reverse("boards:match", kwargs={"edition": edition.slug, "code": match.code})
    return [Link(_("Boards of this match"), url, id="boards-link")]


page_links.register("match_boards", match_boards)
