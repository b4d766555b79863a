"""Secret rolls that the table sees were made (issue 28, finding 4), and ids that leave no gaps.

- ``Roll.announced``: rolls made before this keep what they were (a secret roll wholly hidden from
  everyone but the GM), so the column is added as False and then defaults to True for new rolls.
- ``Roll.revealed_at``: the check roll of a mission already published was shown on its after-action
  record, so it counts as revealed then.
- ``Roll.id`` and ``NPC.id`` come from ``kernel.fields.random_public_id`` for new rows; the rows
  already numbered keep their ids (the random ones start above 2**40).
"""

import kernel.fields
from django.db import migrations, models


def reveal_published_checks(apps, schema_editor):
    mission_model = apps.get_model("campaigns", "Mission")
    roll_model = apps.get_model("campaigns", "Roll")
    published = mission_model.objects.filter(published_at__isnull=False, check_roll__isnull=False)
    for check_roll_id, published_at in published.values_list("check_roll_id", "published_at"):
        roll_model.objects.filter(pk=check_roll_id).update(revealed_at=published_at)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0008_system_choices_from_the_registry"),
    ]

    operations = [
        migrations.AddField(
            model_name="roll",
            name="announced",
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name="roll",
            name="announced",
            field=models.BooleanField(default=True),
        ),
        migrations.AddField(
            model_name="roll",
            name="revealed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(reveal_published_checks, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="npc",
            name="id",
            field=models.BigIntegerField(
                default=kernel.fields.random_public_id, editable=False, primary_key=True, serialize=False
            ),
        ),
        migrations.AlterField(
            model_name="roll",
            name="id",
            field=models.BigIntegerField(
                default=kernel.fields.random_public_id, editable=False, primary_key=True, serialize=False
            ),
        ),
    ]
