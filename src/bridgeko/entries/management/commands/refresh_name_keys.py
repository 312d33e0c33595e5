"""``manage.py refresh_name_keys``: recompute the Czech sort keys and search columns of every
player and team (after an upgrade of ``pyicu-wheels``: ICU's sort keys may change between ICU
versions). Derived data only: no name changes, so no audit entry."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from bridgeko.core.collation import search_text, sort_key
from bridgeko.entries.models import Team
from bridgeko.players.models import Player, derived_columns

BATCH = 2000


class Command(BaseCommand):
    help = "Recompute the Czech sort keys and search columns of the players' and teams' names."

    def handle(self, *args: Any, **options: Any) -> None:
        players = teams = 0
        with transaction.atomic():
            batch: list[Player] = []
            for player in Player.objects.only("pk", "name", "club").iterator(chunk_size=BATCH):
                player.name_key, player.name_search, player.club_search = derived_columns(
                    player.name, player.club
                )
                batch.append(player)
                if len(batch) >= BATCH:
                    Player.objects.bulk_update(batch, Player.DERIVED_FIELDS)
                    players += len(batch)
                    batch = []
            Player.objects.bulk_update(batch, Player.DERIVED_FIELDS)
            players += len(batch)
            all_teams = list(Team.objects.only("pk", "name"))
            for team in all_teams:
                team.name_key, team.name_search = sort_key(team.name), search_text(team.name)
            Team.objects.bulk_update(all_teams, ["name_key", "name_search"], batch_size=BATCH)
            teams = len(all_teams)
        self.stdout.write(f"{players} players, {teams} teams")
