"""Rolls made in a conflict before this release name their conflict (``detail.conflict``), found
through the events that point at them (``log_roll``): the dice log shows a conflict's rolls only to
who may see the conflict (issue 18)."""

from django.db import migrations


def _log_rolls(value):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "log_roll":
                if isinstance(item, int) and not isinstance(item, bool):
                    yield item
            else:
                yield from _log_rolls(item)
    elif isinstance(value, list):
        for item in value:
            yield from _log_rolls(item)


def name_conflicts(apps, schema_editor):
    ConflictEvent = apps.get_model("tempo_conflicts", "ConflictEvent")
    Roll = apps.get_model("campaigns", "Roll")
    conflict_of = {}
    for event in ConflictEvent.objects.filter(kind="roll").only("conflict_id", "payload").iterator():
        for pk in _log_rolls(event.payload):
            conflict_of[pk] = event.conflict_id
    ids = sorted(conflict_of)
    for start in range(0, len(ids), 500):
        rolls = []
        for roll in Roll.objects.filter(pk__in=ids[start : start + 500]).only("id", "detail"):
            detail = roll.detail if isinstance(roll.detail, dict) else {}
            if "conflict" not in detail:
                roll.detail = {**detail, "conflict": conflict_of[roll.pk]}
                rolls.append(roll)
        Roll.objects.bulk_update(rolls, ["detail"])


class Migration(migrations.Migration):
    dependencies = [
        ("tempo_conflicts", "0001_initial"),
        ("campaigns", "0004_mission_tally"),
    ]

    operations = [migrations.RunPython(name_conflicts, migrations.RunPython.noop)]
