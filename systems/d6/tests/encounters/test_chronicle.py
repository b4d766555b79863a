"""The D6 System's part of the chronicle's recap (systems/d6/chronicle.py): who advanced (a trait
raised, a skill added, a special ability gained), the Wild Dice that came up 6 twice or more in a
row, and the encounters that ended in the session, for every member; an NPC's sealed roll only for
the GM."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.chronicle import play_sessions
from campaigns.chronicle import recap as chronicle
from campaigns.models import Roll
from characters import services as character_services
from systems.d6 import chronicle as d6_chronicle
from systems.d6 import services

pytestmark = pytest.mark.django_db

ADVANCED, SCENES, ROLLS = "Who advanced", "How the scenes ended", "Rolls to remember"


def _groups(session, d6, who) -> dict[str, list]:
    return dict(chronicle.recap(session, d6.users[who], d6.membership[who]).groups)


def _texts(highlights) -> list[str]:
    return [h.text for h in highlights]


def _end(d6, encounter, reason: str = "") -> None:
    services.record_event(encounter, d6.membership["gm"], {"type": "end_scene", "reason": reason})


def _started(d6, name: str):
    """A started encounter of Ada's."""
    made = services.create_encounter(d6.campaign, d6.users["gm"], name=name, method="once_per_scene")
    services.add_character(made, d6.ada.pk)
    return services.start_encounter(made)


def test_a_trait_raised_a_skill_added_and_an_ability_gained_are_who_advanced(d6):
    gm = d6.membership["gm"]
    session = play_sessions.start(gm)
    for entry in (
        {"kind": "character_points_gained", "count": 2, "reason": "the docks"},  # a bank, no line
        {"kind": "trait_raised", "trait": "Perception", "to": "4d +1", "cost": 2},
        {"kind": "skill_added", "skill": "sneak", "attribute": "Reflexes", "code": "3D+2", "cost": 1},
        {"kind": "skill_added", "skill": "climbing", "attribute": "Strength"},
        {"kind": "special_ability_gained", "name": "Keen Eyes", "ranks": 2, "affects": ["Perception"]},
        {"kind": "special_ability_gained", "name": "Night Sight"},
    ):
        character_services.append_entry(d6.ada, entry, by=d6.users["gm"])
    play_sessions.end(gm, session)
    told = [
        "Ada raised Perception to 4D+1.",
        "Ada learned a new skill, sneak (Reflexes, 3D+2).",
        "Ada learned a new skill, climbing (Strength).",
        "Ada gained the special ability Keen Eyes (2 ranks).",
        "Ada gained the special ability Night Sight.",
    ]
    for who in ("gm", "player"):
        advanced = _groups(session, d6, who)[ADVANCED]
        assert _texts(advanced) == told, who
        assert advanced[0].url == f"/characters/{d6.ada.pk}/history/"


def test_a_wild_die_that_came_up_6_twice_is_a_roll_to_remember_and_a_sealed_one_only_the_gms(
    d6, running, api
):
    gm = d6.membership["gm"]
    session = play_sessions.start(gm)
    url = f"/api/v1/characters/{d6.ada.pk}/rolls/"
    for faces in ([2, 3, 6, 6, 1], [2, 3, 6, 1], [4, 4, 5]):  # 6, 6, 1; one 6; no 6 (Strength 3D)
        made = api(d6.users["player"]).post(url, {"spec": "code:Strength", "faces": faces}, format="json")
        assert made.status_code == 201, made.content
    # the Thugs' initiative (2D+1: one die and the Wild Die), entered by hand: 6, 6, 6, 2 on the Wild Die
    services.record_event(running, gm, {"type": "begin_round"}, random.Random(7))
    hand = {"type": "roll_initiative", "rolls": {"group-1": {"dice": [3], "wild": [6, 6, 6, 2]}}}
    services.record_event(running, gm, hand, random.Random(7))
    thugs = Roll.objects.get(purpose__startswith="Initiative for Thugs")
    assert thugs.secret and thugs.detail["wild"] == [6, 6, 6, 2]
    play_sessions.end(gm, session)

    strength = Roll.objects.get(detail__wild=[6, 6, 1])
    assert Roll.objects.filter(d6_chronicle.NOTABLE_ROLLS).count() == 2  # one 6 in a row is not read
    ada = f"Ada: {strength.purpose}, the Wild Die came up 6 twice in a row (total 18)."
    for who in ("player", "other_player", "observer"):
        assert _texts(_groups(session, d6, who)[ROLLS]) == [ada], who
    gm_rolls = _groups(session, d6, "gm")[ROLLS]
    assert _texts(gm_rolls) == [
        ada,
        f"{thugs.purpose}, the Wild Die came up 6 three times in a row (total {thugs.detail['total']}).",
    ]
    assert [h.gm_only for h in gm_rolls] == [False, True]
    assert gm_rolls[0].url == f"{reverse('campaign-dice-log', args=[d6.campaign.pk])}#roll-{strength.pk}"


def test_an_encounter_that_ended_in_the_session_tells_its_rounds_and_reason(d6, running):
    gm = d6.membership["gm"]
    before = _started(d6, "Yesterday")
    _end(d6, before, "Long ago")
    session = play_sessions.start(gm)
    services.record_event(running, gm, {"type": "begin_round"}, random.Random(7))
    _end(d6, running, "The gang scatters.")
    quiet = _started(d6, "Quiet night")
    _end(d6, quiet)
    _started(d6, "Still on")
    play_sessions.end(gm, session)
    told = ["Dockside ended after 1 round: The gang scatters.", "Quiet night ended before its first round."]
    for who in ("gm", "player", "other_player", "observer"):
        scenes = _groups(session, d6, who)[SCENES]
        assert _texts(scenes) == told, who
        assert scenes[0].url == reverse("d6-encounter-detail", args=[d6.campaign.pk, running.pk])
    start, stop = play_sessions.window(session)
    assert d6_chronicle.scene_highlights(d6.campaign, d6.users["outsider"], None, start, stop) == []


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_recap_reads_as_many_queries_for_two_encounters_as_for_ten(d6, who):
    gm = d6.membership["gm"]

    def queries(count: int) -> tuple[int, int]:
        session = play_sessions.start(gm)
        for n in range(count):
            _end(d6, _started(d6, f"Fight {n}"), f"Reason {n}")
        play_sessions.end(gm, session)
        with CaptureQueriesContext(connection) as captured:
            groups = _groups(session, d6, who)
        return len(captured), len(groups[SCENES])

    two, ten = queries(2), queries(10)
    assert two[1] == 2 and ten[1] == chronicle.MAX_HIGHLIGHTS
    assert ten[0] == two[0]
