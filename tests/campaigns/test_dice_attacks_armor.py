"""Armor, called shots and the round's named modifiers in the GM's attack flow (dice page and
API): timemaster-play.md §11 (L978-990), §13.3 (L1074-1113), §13.7 (L1174), §15 (L1356-1403),
§19 (L1477-1584); timemaster-characters.md Blackjack (L2695). An agent in mail no longer takes
full damage (issue 49, point 1)."""

from __future__ import annotations

import pytest

from campaigns.models import Roll
from systems.timemaster import attacks
from systems.timemaster.engine.condition import condition_of
from tests.campaigns.test_checks import BOOK_ABILITIES, Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)


@pytest.fixture
def agents(world, make_agent):  # noqa: F811
    # "mine" (Harry): STR 64 (penetration bonus +10), Unskilled Melee 62; "theirs" (Dana): UM 66, STA 40
    mine = make_agent("player", abilities=dict(BOOK_ABILITIES))
    theirs = make_agent("other_player", name="Dana Quill")
    return {"mine": mine, "theirs": theirs}


def _wear(agent, *armor):
    agent.build.setdefault("condition", {})["armor"] = list(armor)
    type(agent).objects.filter(pk=agent.pk).update(build=agent.build)
    agent.refresh_from_db()


def _learn(agent, skill):
    agent.build["skills"][skill] = {"level": "specialist", "source": "purchase"}
    type(agent).objects.filter(pk=agent.pk).update(build=agent.build)
    agent.refresh_from_db()


def _errors(response):
    return {e["field"]: e["message"] for e in response.json()["errors"]}


def _post(client, world, **fields):
    data = {
        "attack-modifier": "0",
        "attack-attack_number": "1",
        "attack-luck_spent": "0",
        "attack-shield": "none",
    }
    for key, value in fields.items():
        data[f"attack-{key}"] = value
    return client.post(f"/campaigns/{world.campaign.pk}/dice/attack/", data)


def test_an_agent_in_mail_takes_nothing_from_a_sword_that_does_not_get_through(
    world, agents, client, monkeypatch
):
    # percent 20 vs Unskilled Melee 62: margin 42, Dana's column 5 -> M, 2d10x2 = (3+4)x2 = 14;
    # location roll 15 = upper torso, under the mail (AR 45): 14 + Harry's bonus 10 = 24 < 45 (§19)
    theirs = agents["theirs"]
    _wear(theirs, "mail")
    # MK: the Knockdown still applies, and Dana's DEX check 10 keeps her items (L1504, L4077)
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(2, 0, 3, 4, 1, 5, 1, 0))
    client.force_login(world.users["gm"])
    response = _post(
        client,
        world,
        form="melee",
        results_key="armed",
        attacker_score=f"{agents['mine'].pk}:other:unskilled_melee",
        defender=str(theirs.pk),
        apply_damage="on",
    )
    html = response.content.decode()
    assert response.status_code == 200, html
    assert (
        '<span data-testid="attack-location">upper torso</span>: upper torso (location roll 15); '
        "14 + bonus 10 = 24 &lt; AR 45: the mail holds; not penetrated: no effect" in html
    )
    assert '<span data-testid="attack-taken">takes 0 Stamina, 0 wounds</span>' in html
    dex = theirs.build["abilities"]["DEX"]
    assert (
        "; Knockdown: knocked down and 5 ft back, the other actions of this round lost; "
        f"DEX check 10 vs {dex}: keeps what is held" in html
    )
    theirs.refresh_from_db()
    assert condition_of(theirs.build)["current_stamina"] == 40 and not theirs.entries.exists()


def test_a_firearm_goes_through_mail_the_hit_counts_and_the_location_crumples_until_reverted(
    world, agents, api
):
    # NPC pistol, SN 200, roll 50 on the die's column 1 -> CK: 3d10x2 = 6, 5 wounds; location 15
    theirs = agents["theirs"]
    _wear(theirs, "mail")
    gm = world.membership["gm"]
    attack = attacks.Attack(
        form="missile",
        strike_base=200,
        defender=theirs,
        missile_weapon="firearm",
        situation={"defense_die": 1},
    )
    roll, entries = attacks.resolve(gm, attack, Faces(5, 0, 1, 1, 1, 1, 5, 1, 0))
    assert roll.detail["armor_why"] == (
        "upper torso (location roll 15); a firearm goes through Mail (type A); "
        "penetrated: full damage, the mail there is crumpled from now on"
    )
    theirs.refresh_from_db()
    condition = condition_of(theirs.build)
    assert (condition["current_stamina"], condition["wounds_marked"], condition["crumpled"]) == (
        34,
        5,
        ["upper_torso"],
    )
    client = api(world.users["gm"])
    response = client.post(
        f"/api/v1/campaigns/{world.campaign.pk}/characters/{theirs.pk}/entries/{entries[0].pk}/revert/",
        {"reason": "wrong target"},
        format="json",
    )
    assert response.status_code in (200, 201), response.content
    theirs.refresh_from_db()
    assert condition_of(theirs.build)["crumpled"] == []


def test_a_called_shot_to_the_head_of_a_helmeted_agent_costs_stamina_but_no_wounds_on_the_helmet(
    world, agents, api, monkeypatch
):
    # NPC sword, SN 200, roll 50: margin 150, Dana's column 5 -> CK: the called "M" is granted;
    # 2d10x2 = (4+4)x2 = 16, no location roll (called); helmet roll 80 (51-00): on the helmet,
    # 16 < AR 30 holds, a head hit keeps the Stamina: 16 Stamina, no wounds (L1562-1566)
    theirs = agents["theirs"]
    _wear(theirs, "helmet")
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(5, 0, 4, 4, 8, 0, 1, 0))
    client = api(world.users["gm"])
    response = client.post(
        f"/api/v1/campaigns/{world.campaign.pk}/attacks/",
        {
            "form": "melee",
            "strike_base": 200,
            "defender": theirs.pk,
            "called_location": "head",
            "called_severity": "M",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    detail = response.json()["detail"]
    assert detail["called"] == 'called head, "M": C grants it, read as "M"'
    assert detail["armor_why"] == (
        "called head; helmet roll 80 (51-00): on the helmet; 16 < AR 30: the helmet holds; "
        "a head hit: the Stamina still counts, no wounds"
    )
    assert "the Knockdown still applies (armor stops damage, not a K)" in detail["notes"]
    theirs.refresh_from_db()
    assert condition_of(theirs.build)["current_stamina"] == 24
    assert condition_of(theirs.build)["wounds_marked"] == 0


def test_a_sword_against_plate_hides_the_npc_attackers_bonus_from_the_log(world, agents, api, monkeypatch):
    # NPC guard (bonus +15) on an NPC in plate: CK, 3d10x2 = 6; location 20 = upper torso;
    # 6 + 15 = 21 < AR 60 (§19); the bonus would give away the NPC's Strength
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(5, 0, 1, 1, 1, 2, 0))
    client = api(world.users["gm"])
    response = client.post(
        f"/api/v1/campaigns/{world.campaign.pk}/attacks/",
        {
            "form": "melee",
            "strike_base": 200,
            "unskilled_melee": 40,
            "armor": ["metal_plates"],
            "attacker_penetration_bonus": 15,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    detail = response.json()["detail"]
    assert detail["armor_why"] == (
        "upper torso (location roll 20); with the attacker's bonus < AR 60: the metal plates holds; "
        "not penetrated: no effect"
    )
    assert detail["stamina_applied"] == 0 and "15" not in str(detail["armor"]["reasons"])


def test_a_pistol_shot_from_cover_at_long_range_on_a_running_target_names_every_modifier(
    world, agents, api, monkeypatch
):
    # Harry's DEX 72; target running -20, behind cover -30, automatic pistol at 60 ft 5 x -12 = -60
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(3, 0, 5))
    client = api(world.users["gm"])
    response = client.post(
        f"/api/v1/campaigns/{world.campaign.pk}/attacks/",
        {
            "form": "missile",
            "attacker": agents["mine"].pk,
            "attacker_score": "ability:DEX",
            "missile_weapon": "firearm",
            "modifiers": ["target_running", "target_behind_cover"],
            "range_weapon": "automatic_pistol",
            "range_feet": 60,
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    detail = response.json()["detail"]
    assert detail["modifiers"] == [
        "target running -20",
        "target behind cover -30",
        "range 60 ft with an automatic pistol (5 × -12) -60",
    ]
    assert detail["strike_number"] == 72 - 110 and detail["hit"] is False
    client.force_login(world.users["player"])
    log = client.get(f"/campaigns/{world.campaign.pk}/dice/log/").content.decode()
    assert "Dexterity 72; target running -20; target behind cover -30" in log


def test_a_called_knockout_with_a_blackjack_drops_a_surprised_agent_and_without_surprise_is_refused(
    world, agents, api, monkeypatch
):
    mine, theirs = agents["mine"], agents["theirs"]
    _learn(mine, "blackjack")
    client = api(world.users["gm"])
    body = {
        "form": "melee",
        "attacker": mine.pk,
        "attacker_score": "skill:blackjack",
        "defender": theirs.pk,
        "called_knockout": True,
    }
    refused = client.post(f"/api/v1/campaigns/{world.campaign.pk}/attacks/", body, format="json")
    assert refused.status_code == 400 and "back is turned" in _errors(refused)["called_knockout"]
    assert not Roll.objects.filter(campaign=world.campaign).exists()
    # surprised: column 1; roll 01 -> a C result (margin of 60 or so on column 1)
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(0, 1))
    response = client.post(
        f"/api/v1/campaigns/{world.campaign.pk}/attacks/", {**body, "surprised": True}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["detail"]["knockout"] is True
    theirs.refresh_from_db()
    condition = condition_of(theirs.build)
    assert condition["current_stamina"] == 0 and condition["unconscious"] is True


def test_knockouts_kills_and_talent_called_shots_are_refused_by_name(world, agents, api):
    client = api(world.users["gm"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/attacks/"
    kill = client.post(
        url, {"form": "melee", "strike_base": 60, "unskilled_melee": 40, "called_kill": True}, format="json"
    )
    assert kill.status_code == 400 and "helpless" in _errors(kill)["called_kill"]
    talent = client.post(
        url,
        {"form": "paranormal", "strike_base": 60, "current_willpower": 40, "called_location": "head"},
        format="json",
    )
    assert talent.status_code == 400 and "paranormal" in str(_errors(talent))
    mixed = client.post(
        url,
        {"form": "melee", "strike_base": 60, "unskilled_melee": 40, "modifiers": ["target_running"]},
        format="json",
    )
    assert mixed.status_code == 400 and "missile modifier" in _errors(mixed)["modifiers"]
    assert not Roll.objects.filter(campaign=world.campaign).exists()


def test_a_killing_called_shot_on_a_helpless_agent_is_a_fatal_blow(world, agents):
    theirs = agents["theirs"]
    attack = attacks.Attack(
        form="melee", strike_base=50, defender=theirs, situation={"helpless": True}, called_kill=True
    )
    roll, entries = attacks.resolve(world.membership["gm"], attack, Faces(1, 1, 1))
    assert roll.detail["kill"] is True and [e.kind for e in entries] == ["fatal_blow"]
    theirs.refresh_from_db()
    assert condition_of(theirs.build)["death_check_due"] is True


def test_the_gm_records_the_armor_an_agent_wears_and_a_new_suit_is_whole_again(world, agents, api):
    # §19: the armor an attack reads is the agent's condition, set by a ledger entry (revertible)
    theirs = agents["theirs"]
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/{theirs.pk}/condition/"
    player = api(world.users["other_player"]).post(
        url, {"kind": "armor_worn", "armor": ["mail"]}, format="json"
    )
    assert player.status_code == 403
    gm = api(world.users["gm"])
    assert gm.post(url, {"kind": "armor_worn", "armor": ["mail", "helmet"]}, format="json").status_code == 201
    theirs.refresh_from_db()
    attack = attacks.Attack(form="missile", strike_base=200, defender=theirs, missile_weapon="firearm")
    attacks.resolve(world.membership["gm"], attack, Faces(1, 5, 0, 1, 1, 1, 1, 5, 1, 0))
    theirs.refresh_from_db()
    assert condition_of(theirs.build)["crumpled"] == ["upper_torso"]
    again = gm.post(url, {"kind": "armor_worn", "armor": ["mail", "helmet"]}, format="json")
    assert again.status_code == 201
    theirs.refresh_from_db()
    assert (
        condition_of(theirs.build)["armor"] == ["mail", "helmet"]
        and condition_of(theirs.build)["crumpled"] == []
    )
    assert theirs.entries.filter(kind="armor_worn").count() == 2
    bad = gm.post(url, {"kind": "armor_worn", "armor": ["cardboard"]}, format="json")
    assert bad.status_code == 400


def test_a_shot_into_a_melee_that_rolls_51_hits_someone_else_and_the_agent_takes_nothing(world, agents):
    # §13.5 (L1127): NPC pistol, die 1 (column 1), roll 50 -> CK; C = (1+1+1)x2; into-melee roll 51
    theirs = agents["theirs"]
    attack = attacks.Attack(
        form="missile",
        strike_base=200,
        defender=theirs,
        missile_weapon="firearm",
        situation={"defense_die": 1},
        into_melee=True,
    )
    roll, entries = attacks.resolve(world.membership["gm"], attack, Faces(5, 0, 1, 1, 1, 5, 1))
    assert roll.detail["into_melee"] == "into the melee: roll 51 (51-00), someone else is hit (the GM picks)"
    assert entries == [] and roll.detail["damage"]["stamina"] == 6
