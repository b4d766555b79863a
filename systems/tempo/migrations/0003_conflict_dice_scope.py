"""Each conflict gets its own label on the fair dice (``Conflict.dice_scope``): its rolls are
numbered within lanes of their own (``open:<label>``, ``secret:<label>``), so a member who is not
in the conflict sees no gap in the campaign's counters (issue 32). A random label per conflict:
it names no database id and counts no other conflict. Rolls made before keep their lanes."""

import secrets

from django.db import migrations, models

import systems.tempo.models


def label_conflicts(apps, schema_editor):
    Conflict = apps.get_model("tempo_conflicts", "Conflict")
    for conflict in Conflict.objects.only("pk").iterator():
        Conflict.objects.filter(pk=conflict.pk).update(dice_scope="conflict-" + secrets.token_hex(6))


class Migration(migrations.Migration):
    dependencies = [
        ("tempo_conflicts", "0002_conflict_rolls_name_their_conflict"),
    ]

    operations = [
        migrations.AddField(
            model_name="conflict",
            name="dice_scope",
            field=models.CharField(default="", editable=False, max_length=40),
            preserve_default=False,
        ),
        migrations.RunPython(label_conflicts, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="conflict",
            name="dice_scope",
            field=models.CharField(
                default=systems.tempo.models.new_dice_scope, editable=False, max_length=40
            ),
        ),
    ]
