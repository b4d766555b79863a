"""What the shared system test kit checks of TIMEMASTER (tests/system_kit.py): test support only,
read by the tests, never by the running site."""

from __future__ import annotations

#: Labels the blank sheet prints (from the engine's tables).
BLANK_LABELS = ["Strength", "Luck", "Stamina", "Skills", "Paranormal talents", "Times visited", "15"]

#: The sample hero's name, and ledger entries the archive round trips append to it (the entry at
#: LEDGER_REVERTED is reverted after).
HERO = "Harry Adams"
LEDGER = (
    {"kind": "sp_awarded", "type": "bonus", "session": 1, "amount": 10},
    {"kind": "sp_awarded", "type": "bonus", "session": 2, "amount": 20},
)
LEDGER_REVERTED = 0

#: The records TIMEMASTER's own route keywords name, for the walks over every route.
ROUTE_KWARG_OWNERS = {"state_pk": "fight_state"}


def check_demo(campaign) -> None:
    """The demo's play: a published mission (in alice's agent's ledger) and an open one."""
    from campaigns.models import Mission
    from characters.models import Character

    published = Mission.objects.get(campaign=campaign, title="The Vienna Clockmaker")
    assert published.is_published
    assert Mission.objects.get(campaign=campaign, title="The Lost Dispatch").status == Mission.Status.ACTIVE
    # the agents' ledgers hold the published award (the engine wrote it, not the seed)
    harriet = Character.objects.get(campaign=campaign, owner__username="alice")
    assert harriet.entries.filter(mission=published).exists()


def api_route_ids(campaign, members, character) -> dict[str, dict]:
    """The URL ids of TIMEMASTER's own API routes in ``campaign`` (the personas are its members,
    ``character`` a player's agent), for the walks over every API route."""
    from campaigns.models import NPC
    from systems.timemaster.models import FightState, NPCConditionEntry

    own = {"campaign_pk": campaign.pk, "character_pk": character.pk}
    guard = NPC.objects.create(
        campaign=campaign,
        system=campaign.system,
        name="Walked Guard",
        kind="human",
        abilities=dict.fromkeys(("STR", "DEX", "AGL", "PCN", "STA", "WPR", "PER"), 50),
        significance_rating=1,
    )
    entry = NPCConditionEntry.objects.create(
        npc=guard, entry={"kind": "damage_taken", "stamina": 2, "wounds": 1}
    )
    npc = {"campaign_pk": campaign.pk, "npc_pk": guard.pk}
    state = FightState.objects.create(campaign=campaign, kind="down", defender_npc=guard)
    held = {"campaign_pk": campaign.pk, "state_pk": state.pk}
    return {
        "api-campaign-fight": own,
        "api-campaign-fight-end": held,
        "api-campaign-fight-reopen": held,
        "api-campaign-fight-revert": held,
        "api-check": own,
        "api-campaign-attacks": own,
        "api-campaign-holds": own,
        "api-campaign-special-damage": own,
        "api-check-scores": own,
        "api-npc-condition": npc,
        "api-npc-condition-revert": {**npc, "entry_pk": entry.pk},
    }


#: This system's part of the chronicle's browser test (tests/e2e/test_chronicle_evenings.py).
BROWSER_EVENING = "tests.e2e.evenings.timemaster"
