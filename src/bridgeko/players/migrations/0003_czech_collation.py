"""The Czech sort key and the search columns of the names (bridgeko.core.collation), filled
for the existing rows."""

import unicodedata
from typing import Any

from django.db import migrations, models


def _collator() -> Any:
    # The Czech collation of bridgeko.core.collation, written out (migrations import no live
    # bridgeko code).
    import icu

    return icu.Collator.createInstance(icu.Locale("cs_CZ"))


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def fill(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("players", "Player")
    collator = _collator()
    rows = []
    for player in Player.objects.only("pk", "name", "club").iterator(chunk_size=2000):
        player.name_key = bytes(collator.getSortKey(player.name))
        player.name_search = _fold(player.name)
        player.club_search = _fold(player.club)
        rows.append(player)
        if len(rows) >= 2000:
            Player.objects.bulk_update(rows, ["name_key", "name_search", "club_search"])
            rows = []
    if rows:
        Player.objects.bulk_update(rows, ["name_key", "name_search", "club_search"])

class Migration(migrations.Migration):

    dependencies = [
        ('players', '0002_elo_import_undo_and_upload'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='player',
            options={'ordering': ('name_key', 'federation_id'), 'verbose_name': 'player', 'verbose_name_plural': 'players'},
        ),
        migrations.AddField(
            model_name='player',
            name='club_search',
            field=models.CharField(blank=True, editable=False, max_length=120),
        ),
        migrations.AddField(
            model_name='player',
            name='name_key',
            field=models.BinaryField(db_index=True, default=b''),
        ),
        migrations.AddField(
            model_name='player',
            name='name_search',
            field=models.CharField(blank=True, editable=False, max_length=120),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
