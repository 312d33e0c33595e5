"""A failure to appear is recorded once per team and match (a withdrawn record does not count;
an old record without a match id neither)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("entries", "0004_no_show_legacy_text")]

    operations = [
        migrations.AddConstraint(
            model_name="noshow",
            constraint=models.UniqueConstraint(
                condition=models.Q(("withdrawn_at__isnull", True), models.Q(("match", ""), _negated=True)),
                fields=("team", "match"),
                name="no_show_once_per_team_and_match",
            ),
        ),
    ]
