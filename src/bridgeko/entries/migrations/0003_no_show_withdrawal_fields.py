"""A failure to appear gets the free text of an old record (``legacy_match``), when it was recorded,
and its withdrawal (time and reason). 0004 moves the old free text, 0005 adds the constraint."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('editions', '0003_edition_stage'),
        ('entries', '0002_edition_stage_from_closing'),
    ]

    operations = [
        migrations.AddField(
            model_name='noshow',
            name='legacy_match',
            field=models.CharField(blank=True, max_length=40, verbose_name='match (free text of an old record)'),
        ),
        migrations.AddField(
            model_name='noshow',
            name='recorded_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='recorded'),
        ),
        migrations.AddField(
            model_name='noshow',
            name='withdrawn_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='withdrawn'),
        ),
        migrations.AddField(
            model_name='noshow',
            name='withdrawn_reason',
            field=models.TextField(blank=True, verbose_name='reason for the withdrawal'),
        ),
    ]
