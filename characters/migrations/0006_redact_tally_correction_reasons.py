"""Ledger entries written by a tally correction after closing used to carry the GM's reason
("Tally corrected after closing: <the GM's text>"), which players read in their agents' history
(issue 28, finding 3). The reason stays on the tally's reversal line; the ledger says only that
the award was corrected."""

from django.db import migrations

OLD_PREFIX = "Tally corrected after closing: "
NEUTRAL = "The game master corrected this mission's tally after closing; the award was worked out again."


def redact(apps, schema_editor):
    entries = apps.get_model("characters", "AdvancementEntry")
    # A queryset update: the model's append-only save() is not involved, and no row but the reason changes.
    entries.objects.filter(kind="reversal", reason__startswith=OLD_PREFIX).update(reason=NEUTRAL)


class Migration(migrations.Migration):
    dependencies = [("characters", "0005_system_choices_from_the_registry")]

    operations = [migrations.RunPython(redact, migrations.RunPython.noop)]
