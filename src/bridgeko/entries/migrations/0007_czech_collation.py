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
    Team = apps.get_model("entries", "Team")
    collator = _collator()
    rows = []
    for team in Team.objects.only("pk", "name"):
        team.name_key = bytes(collator.getSortKey(team.name))
        team.name_search = _fold(team.name)
        rows.append(team)
    Team.objects.bulk_update(rows, ["name_key", "name_search"], batch_size=500)

class Migration(migrations.Migration):

    dependencies = [
        ('entries', '0006_convention_card'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='team',
            options={'ordering': ('edition', 'name_key'), 'verbose_name': 'team', 'verbose_name_plural': 'teams'},
        ),
        migrations.AddField(
            model_name='team',
            name='name_key',
            field=models.BinaryField(default=b''),
        ),
        migrations.AddField(
            model_name='team',
            name='name_search',
            field=models.CharField(blank=True, editable=False, max_length=120),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
