"""TIMEMASTER builds stored with a bonus-points key per game session (state.bonus_by_session) get
the bounded list instead (state.bonus_sessions: the latest sessions, issue 22), worked out from
each agent's own ledger as the replay does, so a stored build equals its ledger replayed (the
character export's import checks exactly that). Builds already in the new shape are left alone;
the revision does not change (the agent is the same, only its bookkeeping's shape).

The rule is written out here as it stood when the migration was made (a migration keeps the code
it ran with, and the platform imports no system's module): systems.timemaster.engine.advancement's
bonus_sessions_of and kept_bonus_sessions, with BONUS_SESSIONS_KEPT = 20."""

from django.db import migrations

#: How many sessions' bonus totals a build remembers (advancement_tables.BONUS_SESSIONS_KEPT).
BONUS_SESSIONS_KEPT = 20


def kept_sessions(awards):
    """The ``bonus_sessions`` a replayed build holds after these (session, amount) awards: each
    session's running total, the latest one last, the oldest dropped past BONUS_SESSIONS_KEPT."""
    kept = []
    for session, amount in awards:
        key = str(session)
        total = dict(kept).get(key, 0) + amount
        kept = [pair for pair in kept if pair[0] != key] + [[key, total]]
        kept = kept[-BONUS_SESSIONS_KEPT:]
    return kept


def bound_bonus_sessions(apps, schema_editor):
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
        del state["bonus_by_session"]
        state["bonus_sessions"] = kept_sessions(awards)
        Character.objects.filter(pk=character.pk).update(build=character.build)


class Migration(migrations.Migration):
    dependencies = [("characters", "0002_ledger")]

    operations = [migrations.RunPython(bound_bonus_sessions, migrations.RunPython.noop)]
