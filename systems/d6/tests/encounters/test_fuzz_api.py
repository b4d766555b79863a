"""Schemathesis against the D6 encounter routes with real encounter and participant ids (the
project-wide fuzz in tests/hardening runs in a TIMEMASTER campaign, where these routes mostly
answer that encounters are for D6 campaigns). Same checks: no 5xx, answers match the schema,
the one error format, no NPC statistics for anyone but the GM, nothing for non-members."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from systems.d6 import services
from tests.hardening.test_fuzz_api import _fuzz_operation, api_schema  # noqa: F401  (fixture)


@pytest.fixture
def planted(d6, running):
    from knox.models import AuthToken

    gm = d6.membership["gm"]
    services.record_event(running, gm, {"type": "begin_round"})
    services.record_event(running, gm, {"type": "roll_initiative"}, random.Random(1))
    setup = services.create_encounter(d6.campaign, d6.users["gm"], name="Alley")
    guard = services.add_npc(setup, {"name": "Guard", "attributes": {"Perception": "2D+1", "Reflexes": "2D"}})
    d6.tokens = {name: AuthToken.objects.create(user=user)[1] for name, user in d6.users.items()}
    d6.gm_only = ["Thug 1", "4D+2", "2D+1"]
    d6.known_ids = sorted(
        {running.pk, setup.pk, guard.pk, d6.campaign.pk, *running.participants.values_list("pk", flat=True)}
    )
    return d6


@pytest.mark.fuzz
@pytest.mark.parametrize("persona", ["gm", "player", "observer", "outsider", "anonymous"])
def test_generated_requests_to_the_encounter_routes(api_schema, planted, persona):  # noqa: F811
    operations = [result.ok() for result in api_schema.get_all_operations()]
    operations = [op for op in operations if "/d6-encounters/" in op.path]
    assert len(operations) == 11
    problems: list[str] = []
    statuses: Counter = Counter()
    for operation in operations:
        problems.extend(_fuzz_operation(operation, planted, persona, statuses))
    assert not problems, "\n\n".join(problems)
    assert statuses[5] == 0
