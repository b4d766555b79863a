"""Encounter services: the stored state is the engine's replay of the stored events, rolls go into
the campaign's dice log (NPC rolls secret), and events are append-only."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.models import Roll
from systems.d6 import services
from systems.d6.models import Encounter, EncounterEvent


def _two_rounds(d6, encounter):
    gm = d6.membership["gm"]
    rng = random.Random(7)
    services.record_event(encounter, gm, {"type": "begin_round"}, rng)
    services.record_event(
        encounter, gm, {"type": "roll_initiative", "character_points": {f"character-{d6.ada.pk}": 1}}, rng
    )
    for _ in range(2):
        while encounter.state["phase"] == "turns":
            pid = encounter.state["active"][-1]["participant"]
            p = encounter.state["participants"][pid]
            if p["round"]["declared"] is None:
                services.record_event(
                    encounter, gm, {"type": "declare", "participant": pid, "actions": 2}, rng
                )
            elif encounter.state["windows"]:
                services.record_event(encounter, gm, {"type": "announce", "result": "hit"}, rng)
            elif p["round"]["used"] < 2:
                trait = "brawling"
                services.record_event(
                    encounter, gm, {"type": "act", "participant": pid, "action": "punch", "trait": trait}, rng
                )
            else:
                services.record_event(encounter, gm, {"type": "done", "participant": pid}, rng)
        if encounter.state["round"] == 1:
            services.record_event(encounter, gm, {"type": "begin_round"}, rng)
    return encounter


def test_the_stored_state_is_the_replay_of_the_stored_events(d6, running):
    encounter = _two_rounds(d6, running)
    assert encounter.state["round"] == 2 and encounter.state["phase"] == "between_rounds"
    fresh = Encounter.objects.get(pk=encounter.pk)
    assert services.replayed_state(fresh) == fresh.state
    assert fresh.event_count == EncounterEvent.objects.filter(encounter=fresh).count()
    assert list(fresh.events.values_list("seq", flat=True)) == list(range(1, fresh.event_count + 1))


def test_every_penalised_roll_in_two_rounds_took_one_die_off(d6, running):
    encounter = _two_rounds(d6, running)
    acts = [r for r in encounter.state["log"] if r["type"] == "act"]
    assert acts and all(r["penalty_dice"] == 1 for r in acts)
    ada_brawling = next(r for r in acts if r["participant"] == f"character-{d6.ada.pk}")
    assert ada_brawling["code"] == "4D" and ada_brawling["effective"] == "3D"


def test_initiative_and_action_rolls_go_into_the_dice_log_with_npc_rolls_secret(d6, running):
    encounter = _two_rounds(d6, running)
    initiative = Roll.objects.filter(campaign=d6.campaign, kind="d6 initiative")
    assert initiative.count() == 3
    thugs = initiative.get(purpose__startswith="Initiative for Thugs")
    assert thugs.secret and thugs.character is None
    ada = initiative.get(character=d6.ada)
    assert not ada.secret
    # 4D: three dice and the Wild Die's chain, plus one more Wild Die for the Character Point
    assert len(ada.detail["dice"]) == 3 and len(ada.detail["extra_wild"]) == 1
    assert ada.faces == ada.detail["dice"] + ada.detail["wild"] + ada.detail["extra_wild"][0]
    assert ada.total == ada.detail["total"] == sum(ada.faces) - sum(ada.detail["removed"]) + ada.modifier
    actions = Roll.objects.filter(campaign=d6.campaign, kind="d6 action")
    assert actions.count() == len([r for r in encounter.state["log"] if r["type"] == "act"])
    assert actions.filter(secret=True).count() == len(
        [r for r in encounter.state["log"] if r["type"] == "act" and r["participant"] == "group-1"]
    )
    player_view = Roll.objects.visible_to(d6.users["player"])
    # the NPCs' rolls reach the table sealed: that they were made, never their dice (docs/secrets.md)
    npc_rolls = player_view.filter(secret=True)
    assert npc_rolls.exists() and all(roll.sealed_for(d6.membership["player"]) for roll in npc_rolls)
    assert player_view.filter(character=d6.ada).exists()


def test_a_refused_event_stores_nothing(d6, running):
    gm = d6.membership["gm"]
    with pytest.raises(ValidationError) as caught:
        services.record_event(running, gm, {"type": "declare", "participant": "group-1", "actions": 1})
    assert "phase" in caught.value.message_dict
    assert not EncounterEvent.objects.exists() and not Roll.objects.exists()
    assert Encounter.objects.get(pk=running.pk).event_count == 0


def test_events_are_append_only(d6, running):
    services.record_event(running, d6.membership["gm"], {"type": "begin_round"})
    event = EncounterEvent.objects.get()
    with pytest.raises(ValueError):
        event.save()
    with pytest.raises(ValueError):
        event.delete()


def test_an_observer_cannot_send_events(d6, running):
    with pytest.raises(PermissionDenied):
        services.record_event(running, d6.membership["observer"], {"type": "begin_round"})


def test_the_start_reads_characters_at_their_current_revision(d6):
    from characters import services as character_services

    encounter = services.create_encounter(d6.campaign, d6.users["gm"], name="Later")
    participant = services.add_character(encounter, d6.ada.pk)
    character_services.append_entry(
        d6.ada, {"kind": "character_points_gained", "count": 4, "reason": "x"}, by=None
    )
    encounter = services.start_encounter(encounter)
    participant.refresh_from_db()
    assert participant.character_revision == 2
    assert encounter.state["participants"][participant.key]["character_points"] == 3 + 4


def test_a_campaign_setting_change_after_the_start_does_not_change_the_replay(d6, running):
    _two_rounds(d6, running)
    d6.campaign.settings = {**d6.campaign.settings, "wild_die": "plain", "optional_initiative_bonus": True}
    d6.campaign.save()
    fresh = Encounter.objects.get(pk=running.pk)
    assert services.replayed_state(fresh) == fresh.state


def test_the_optional_bonus_setting_of_the_encounter_reaches_the_rolls(d6):
    encounter = services.create_encounter(
        d6.campaign, d6.users["gm"], name="Bonus", method="every_round", optional_initiative_bonus=True
    )
    services.add_npc(encounter, {"name": "Quick", "attributes": {"Perception": "2D", "Reflexes": "8D"}})
    encounter = services.start_encounter(encounter)
    gm = d6.membership["gm"]
    services.record_event(encounter, gm, {"type": "begin_round"})
    services.record_event(encounter, gm, {"type": "roll_initiative"}, random.Random(3))
    roll = encounter.state["initiative"]["rolls"]["npc-1"]
    assert roll["bonus"] == 2  # 8D of Reflexes: +1 per full 4D


def test_character_points_spent_in_the_encounter_leave_the_characters_ledger(d6, running):
    from characters.models import AdvancementEntry

    gm = d6.membership["gm"]
    ada = f"character-{d6.ada.pk}"
    services.record_event(running, gm, {"type": "begin_round"})
    services.record_event(
        running, gm, {"type": "roll_initiative", "character_points": {ada: 2}}, random.Random(4)
    )
    d6.ada.refresh_from_db()
    assert d6.ada.build["character_points"] == 1
    entry = AdvancementEntry.objects.get(character=d6.ada, kind="character_points_spent")
    assert entry.payload["count"] == 2 and entry.payload["on"] == "initiative"
    assert entry.payload["reason"] == "Dockside, round 1"


def test_points_already_spent_elsewhere_are_refused_and_nothing_is_stored(d6):
    from characters import services as character_services

    encounter = services.create_encounter(d6.campaign, d6.users["gm"], name="Twice")
    services.add_character(encounter, d6.ada.pk)
    encounter = services.start_encounter(encounter)  # Ada brings 3 Character Points
    character_services.append_entry(
        d6.ada, {"kind": "character_points_spent", "count": 2, "reason": "elsewhere", "on": "other"}, by=None
    )
    gm = d6.membership["gm"]
    services.record_event(encounter, gm, {"type": "begin_round"})
    ada = f"character-{d6.ada.pk}"
    with pytest.raises(ValidationError) as caught:
        services.record_event(encounter, gm, {"type": "roll_initiative", "character_points": {ada: 3}})
    assert f"character_points.{ada}" in caught.value.message_dict
    encounter.refresh_from_db()
    assert encounter.event_count == 1 and not Roll.objects.exists()
    d6.ada.refresh_from_db()
    assert d6.ada.build["character_points"] == 1
