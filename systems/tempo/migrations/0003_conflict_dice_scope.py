"""Each conflict gets its own label on the fair dice (``Conflict.dice_scope``): its rolls are
numbered within lanes of their own (``open:<label>``, ``secret:<label>``), so a member who is not
in the conflict sees no gap in the campaign's counters (issue 32), and its secret rolls take the
scope's own secret key (campaigns.DiceScope). A random label per conflict: it names no database id
and counts no other conflict. Rolls made before keep their lanes (and the campaign's keys)."""

import hashlib
import secrets

import django.utils.timezone
from django.db import migrations, models

import systems.tempo.models


def label_conflicts(apps, schema_editor):
    """A label and a dice scope (its secret key committed) for every conflict; an ended one's scope
    is closed at once."""
    Conflict = apps.get_model("tempo_conflicts", "Conflict")
    DiceScope = apps.get_model("campaigns", "DiceScope")
    now = django.utils.timezone.now()
    for conflict in Conflict.objects.only("pk", "campaign_id", "status").iterator():
        label = "conflict-" + secrets.token_hex(6)
        Conflict.objects.filter(pk=conflict.pk).update(dice_scope=label)
        key = secrets.token_hex(32)
        DiceScope.objects.create(
            campaign_id=conflict.campaign_id,
            label=label,
            secret_key=key,
            secret_commitment=hashlib.sha256(bytes.fromhex(key)).hexdigest(),
            closed_at=now if conflict.status == "over" else None,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tempo_conflicts", "0002_conflict_rolls_name_their_conflict"),
        ("campaigns", "0014_dice_scopes"),
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
