"""Fills the edition's stage (``editions`` 0003) for the editions whose entries are closed: "entries
closed", or "cancelled" when the closing cancelled the competition (R8.1). The stage's values are
written out here, not imported: a migration never imports live code."""

from typing import Any

from django.db import migrations

ENTRIES_OPEN = "entries_open"
ENTRIES_CLOSED = "entries_closed"
CANCELLED = "cancelled"


def forward(apps: Any, schema_editor: Any) -> None:
    Edition = apps.get_model("editions", "Edition")
    EntriesClosing = apps.get_model("entries", "EntriesClosing")
    for closing in EntriesClosing.objects.all():
        Edition.objects.filter(pk=closing.edition_id, stage=ENTRIES_OPEN).update(
            stage=CANCELLED if closing.cancelled else ENTRIES_CLOSED
        )


class Migration(migrations.Migration):

    dependencies = [
        ("editions", "0003_edition_stage"),
        ("entries", "0001_initial"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
