"""Mission awards in the agents' ledgers used to carry the mission's pool, share and remainder
("an equal share of 260"), which players read in their agents' history, its API and the export
inside their sheets, though docs/secrets.md keeps those figures the GM's (issue 44, finding 13).
The mission's outcome keeps them for the GM; the ledger keeps the agent's own award."""

from django.db import migrations

#: The award's figures that are the mission's, not the agent's (significance._ledger_entries).
GM_ONLY = ("pool", "share", "remainder_not_awarded")


def strip(apps, schema_editor):
    entries = apps.get_model("characters", "AdvancementEntry")
    awards = entries.objects.filter(character__system="timemaster", kind="sp_awarded", payload__type="regular")
    for pk, payload in awards.values_list("pk", "payload").iterator():
        if isinstance(payload, dict) and any(key in payload for key in GM_ONLY):
            kept = {key: value for key, value in payload.items() if key not in GM_ONLY}
            # A queryset update: the model's append-only save() is not involved, and nothing the
            # engine folds changes (the award's amount, forgone points and reason stay).
            entries.objects.filter(pk=pk).update(payload=kept)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0006_redact_tally_correction_reasons"),
        ("timemaster", "0002_attacked_npc"),
    ]

    operations = [migrations.RunPython(strip, migrations.RunPython.noop)]
