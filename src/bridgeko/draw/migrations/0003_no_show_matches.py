"""Ties the failures to appear recorded as free text (``entries`` 0004 moved it to
``legacy_match``) to a match of the bracket where the text names a match the team plays
(``r1-m4``, ``R1 M4`` and ``R1M4`` name ``R1-M4``): ``match`` gets the id and the free text goes.
Any other text stays as it was (an old record, shown as such). A second record of the same team
and match is withdrawn as a duplicate (it barred the same players).

The bracket is worked out here as the draw app shows it before any result is stored: the
standard scheme (I1) of the draw's size with the drawn numbers, a team without an opponent going
on without a match (R11.4). It is written out, not imported: a migration keeps doing what it did
when it was written (``tests/web/test_no_shows.py`` checks it against the engine)."""

import re
from typing import Any

from django.db import migrations
from django.utils import timezone

DUPLICATE = "Duplicate of failure to appear #%d (merged when failures to appear were tied to matches)."


def _layout(size: int) -> list[int]:
    order = [1, 2]
    while len(order) < size:
        m2 = 2 * len(order) + 1
        new: list[int] = []
        for i, s in enumerate(order):
            new.extend((s, m2 - s) if i % 2 == 0 else (m2 - s, s))
        order = new
    return order


def _round_ids(round_no: int, rounds: int, count: int) -> list[str]:
    from_end = rounds - round_no
    if from_end == 0:
        return ["F"]
    if from_end == 1:
        return [f"SF{j}" for j in range(1, count + 1)]
    if from_end == 2:
        return [f"QF{j}" for j in range(1, count + 1)]
    return [f"R{round_no}-M{j}" for j in range(1, count + 1)]


TEAM, EMPTY, PENDING = "team", "empty", "pending"


def played_matches(size: int, present: set[int]) -> dict[str, tuple[int, int]]:
    """match id -> (home, away) numbers, for every match whose two teams are known."""
    order = _layout(size)
    slots: list[tuple[str, int | None]] = [
        ((TEAM, n) if n in present else (EMPTY, None))
        for k in range(0, size, 2)
        for n in (min(order[k], order[k + 1]), max(order[k], order[k + 1]))
    ]
    rounds = size.bit_length() - 1
    out: dict[str, tuple[int, int]] = {}
    for r in range(1, rounds + 1):
        ids = _round_ids(r, rounds, len(slots) // 2)
        winners: list[tuple[str, int | None]] = []
        for j, mid in enumerate(ids):
            home, away = slots[2 * j], slots[2 * j + 1]
            kinds = (home[0], away[0])
            if kinds == (TEAM, TEAM) and home[1] is not None and away[1] is not None:
                out[mid] = (home[1], away[1])
                winners.append((PENDING, None))
            elif PENDING in kinds:
                winners.append((PENDING, None))
            elif TEAM in kinds:
                winners.append(home if home[0] == TEAM else away)  # R11.4: on without a match
            else:
                winners.append((EMPTY, None))
        slots = winners
    return out


def _key(text: str) -> str:
    return re.sub(r"[\s\-_.]", "", text).upper()


def forward(apps: Any, schema_editor: Any) -> None:
    NoShow = apps.get_model("entries", "NoShow")
    Draw = apps.get_model("draw", "Draw")
    DrawNumber = apps.get_model("draw", "DrawNumber")
    brackets: dict[int, dict[int, dict[str, str]]] = {}  # edition -> team -> key -> match id
    for show in NoShow.objects.filter(match="", withdrawn_at__isnull=True).order_by("pk"):
        if not show.legacy_match.strip():
            continue
        if show.edition_id not in brackets:
            draw = Draw.objects.filter(
                edition_id=show.edition_id, held_at__isnull=False, scheme_size__isnull=False
            ).first()
            teams: dict[int, dict[str, str]] = {}
            if draw is not None:
                numbers = dict(
                    DrawNumber.objects.filter(draw=draw).values_list("number", "team_id")
                )
                for mid, pair in played_matches(draw.scheme_size, set(numbers)).items():
                    for n in pair:
                        teams.setdefault(numbers[n], {})[_key(mid)] = mid
            brackets[show.edition_id] = teams
        found = brackets[show.edition_id].get(show.team_id, {}).get(_key(show.legacy_match))
        if found is None:
            continue  # stays an old record with its text
        first = NoShow.objects.filter(
            team_id=show.team_id, match=found, withdrawn_at__isnull=True
        ).first()
        if first is not None:
            show.withdrawn_at = timezone.now()
            show.withdrawn_reason = DUPLICATE % first.pk
            show.save(update_fields=["withdrawn_at", "withdrawn_reason"])
        else:
            show.match, show.legacy_match = found, ""
            show.save(update_fields=["match", "legacy_match"])


def backward(apps: Any, schema_editor: Any) -> None:
    """The ids go back to free text (``entries`` 0004 then puts it back into ``match``)."""
    NoShow = apps.get_model("entries", "NoShow")
    for show in NoShow.objects.exclude(match=""):
        show.legacy_match, show.match = show.match, ""
        show.save(update_fields=["match", "legacy_match"])


class Migration(migrations.Migration):
    dependencies = [
        ("draw", "0002_edition_stage_from_draw"),
        ("entries", "0005_no_show_once_per_team_and_match"),
    ]

    operations = [migrations.RunPython(forward, backward)]
