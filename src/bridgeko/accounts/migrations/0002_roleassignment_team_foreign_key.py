"""``RoleAssignment.team_id`` (a plain integer) becomes the foreign key ``team`` to
``entries.Team``, keeping every captain's team.

A captain's role whose team no longer exists (the integer pointed at nothing, which the old column
allowed) grants nothing and cannot be kept under a foreign key: it is deleted. No engine code is
imported."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models


def copy_forward(apps: Any, schema_editor: Any) -> None:
    RoleAssignment = apps.get_model("accounts", "RoleAssignment")
    Team = apps.get_model("entries", "Team")
    rows = RoleAssignment.objects.filter(old_team_id__isnull=False)
    existing = set(
        Team.objects.filter(pk__in=rows.values_list("old_team_id", flat=True)).values_list(
            "pk", flat=True
        )
    )
    for row in rows:
        if row.old_team_id in existing:
            row.team_id = row.old_team_id
            row.save(update_fields=["team"])
        else:
            row.delete()


def copy_back(apps: Any, schema_editor: Any) -> None:
    RoleAssignment = apps.get_model("accounts", "RoleAssignment")
    for row in RoleAssignment.objects.filter(team__isnull=False):
        row.old_team_id = row.team_id
        row.save(update_fields=["old_team_id"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0001_initial"),
        ("entries", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="roleassignment", name="accounts_unique_role"),
        migrations.RemoveConstraint(model_name="roleassignment", name="accounts_unique_team_role"),
        migrations.RenameField(model_name="roleassignment", old_name="team_id", new_name="old_team_id"),
        migrations.AddField(
            model_name="roleassignment",
            name="team",
            field=models.ForeignKey(
                blank=True,
                help_text="For a captain: their team in this edition.",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="role_assignments",
                to="entries.team",
                verbose_name="team",
            ),
        ),
        migrations.RunPython(copy_forward, copy_back),
        migrations.RemoveField(model_name="roleassignment", name="old_team_id"),
        migrations.AddConstraint(
            model_name="roleassignment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("team__isnull", True)),
                fields=("user", "edition", "role"),
                name="accounts_unique_role",
            ),
        ),
        migrations.AddConstraint(
            model_name="roleassignment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("team__isnull", False)),
                fields=("user", "edition", "role", "team"),
                name="accounts_unique_team_role",
            ),
        ),
    ]
