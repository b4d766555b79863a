"""TIMEMASTER builds stored with a bonus-points key per game session (state.bonus_by_session) get
the bounded list instead (state.bonus_sessions: the latest sessions, issue 22), worked out from
each agent's own ledger as the replay does, so a stored build equals its ledger replayed (the
character export's import checks exactly that). Builds already in the new shape are left alone;
the revision does not change (the agent is the same, only its bookkeeping's shape)."""

from django.db import migrations


def bound_bonus_sessions(apps, schema_editor):
    from systems.timemaster.engine import advancement

    Character = apps.get_model("characters", "Character")
    AdvancementEntry = apps.get_model("characters", "AdvancementEntry")
    for character in Character.objects.filter(system="timemaster").iterator(chunk_size=200):
        state = (character.build or {}).get("state")
        if not isinstance(state, dict) or "bonus_by_session" not in state:
            continue
        entries = list(
            AdvancementEntry.objects.filter(character_id=character.pk)
            .order_by("id")
            .values_list("id", "kind", "payload", "reverses_id")
        )
        undone = {reverses for _, kind, _, reverses in entries if kind == "reversal"}
        awards = [
            (payload["session"], payload["amount"])
            for pk, kind, payload, _ in entries
            if kind == "sp_awarded" and pk not in undone and (payload or {}).get("type") == "bonus"
        ]
        _, kept = advancement.bonus_sessions_of(awards)
        del state["bonus_by_session"]
        state["bonus_sessions"] = kept
        Character.objects.filter(pk=character.pk).update(build=character.build)


class Migration(migrations.Migration):
    dependencies = [("characters", "0002_ledger")]

    operations = [migrations.RunPython(bound_bonus_sessions, migrations.RunPython.noop)]
