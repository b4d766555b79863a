"""characters 0003: TIMEMASTER builds stored with a key per bonus session get the bounded list
their ledger replays to (issue 22), so the stored build still equals the ledger replayed."""

from __future__ import annotations

import importlib

from django.apps import apps
from hypothesis import given
from hypothesis import strategies as st

from characters import services
from characters.models import Character
from systems.timemaster.engine import advancement

migration = importlib.import_module("characters.migrations.0003_timemaster_bonus_sessions")


def test_a_build_in_the_old_shape_becomes_the_replayed_one(world, make_agent, award):
    agent = make_agent("player")
    entries = [award(agent, session=f"s{i}", amount=20) for i in range(advancement.BONUS_SESSIONS_KEPT + 3)]
    services.revert_entry(entries[-1], world.users["gm"], "wrong session")
    agent.refresh_from_db()
    replayed = agent.build
    old = {**replayed, "state": {**replayed["state"]}}
    del old["state"]["bonus_sessions"]
    old["state"]["bonus_by_session"] = {f"s{i}": 20 for i in range(advancement.BONUS_SESSIONS_KEPT + 2)}
    Character.objects.filter(pk=agent.pk).update(build=old)
    untouched = make_agent("player", name="New Agent")

    migration.bound_bonus_sessions(apps, None)

    agent.refresh_from_db()
    assert agent.build == replayed == services.replay(agent)
    assert agent.build["state"]["bonus_sessions"][-1] == [f"s{advancement.BONUS_SESSIONS_KEPT + 1}", 20]
    assert Character.objects.get(pk=untouched.pk).build == untouched.build


@given(
    st.lists(
        st.tuples(
            st.sampled_from([f"s{i}" for i in range(30)] + [7, 8]), st.integers(min_value=1, max_value=50)
        ),
        max_size=80,
    )
)
def test_the_rule_written_into_the_migration_is_the_engines(awards):
    """The migration carries its own copy of the bonus-session rule (the platform imports no
    system's module): it keeps what the engine keeps for any ledger of bonus awards."""
    assert migration.BONUS_SESSIONS_KEPT == advancement.BONUS_SESSIONS_KEPT
    assert migration.kept_sessions(awards) == advancement.bonus_sessions_of(awards)[1]
