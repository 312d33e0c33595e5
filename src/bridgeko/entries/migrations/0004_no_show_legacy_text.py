"""The free text of every failure to appear recorded so far moves to ``legacy_match`` (shown as
such); ``match`` is left empty for the id of a match of the bracket, which the draw app's
migration (``draw`` 0003) fills where the text names a match the team plays. Nothing of bridgeko
is imported: a migration keeps doing what it did when it was written."""

from typing import Any

from django.db import migrations


def forward(apps: Any, schema_editor: Any) -> None:
    NoShow = apps.get_model("entries", "NoShow")
    for show in NoShow.objects.exclude(match=""):
        show.legacy_match, show.match = show.match[:40], ""
        show.save(update_fields=["legacy_match", "match"])


def backward(apps: Any, schema_editor: Any) -> None:
    """Back to one free-text field. A withdrawn record is deleted: before, every record barred
    the players (the audit log keeps the withdrawn one)."""
    NoShow = apps.get_model("entries", "NoShow")
    NoShow.objects.filter(withdrawn_at__isnull=False).delete()
    for show in NoShow.objects.exclude(legacy_match=""):
        show.match, show.legacy_match = show.match or show.legacy_match, ""
        show.save(update_fields=["legacy_match", "match"])


class Migration(migrations.Migration):
    dependencies = [("entries", "0003_no_show_withdrawal_fields")]

    operations = [migrations.RunPython(forward, backward)]
