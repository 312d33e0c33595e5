"""Fills the edition's stage (``editions`` 0003) with "draw held" for the editions whose draw was
held (after ``entries`` 0002 set "entries closed"). The value is written out here, not imported:
a migration never imports live code."""

from typing import Any

from django.db import migrations

DRAW_HELD = "draw_held"


def forward(apps: Any, schema_editor: Any) -> None:
    Edition = apps.get_model("editions", "Edition")
    Draw = apps.get_model("draw", "Draw")
    held = Draw.objects.filter(held_at__isnull=False).values_list("edition_id", flat=True)
    Edition.objects.filter(pk__in=list(held)).update(stage=DRAW_HELD)


class Migration(migrations.Migration):

    dependencies = [
        ("draw", "0001_initial"),
        ("entries", "0002_edition_stage_from_closing"),
    ]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
