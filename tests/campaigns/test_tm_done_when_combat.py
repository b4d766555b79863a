"""Issue 49's "Done when" fights, each resolved by the GM on the dice page AND through the API
without typing a number the rules define (the column, the modifiers' values, the damage, the
armor's AR, the hold's round are the engine's): a called shot to the head of a helmeted guard; a
pistol shot from cover at long range on a running target; a knockout with a Blackjack; a hold, then
a strangle over three rounds; a sword against plate that does not penetrate. Each log line says
the column and why, the named modifiers, and the location and why (timemaster-play.md §4, §11,
§13.3, §15, §19; docs/rulings-timemaster-combat.md)."""

from __future__ import annotations

import pytest

from campaigns import npc_services
from campaigns.models import Roll
from systems.timemaster import attacks
from systems.timemaster import npc_condition_services as npc_cond
from systems.timemaster.models import FightState
from tests.campaigns.test_checks import BOOK_ABILITIES, Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

ROUTES = ("api", "page")


@pytest.fixture
def fight(world, make_agent):  # noqa: F811
    # Harry: STR 64 (penetration bonus +10), DEX 72, Unskilled Melee 62; guards: quick humans
    harry = make_agent("player", abilities=dict(BOOK_ABILITIES))
    guards = [
        npc_services.create_npc(
            world.campaign, world.users["gm"], {"name": f"Guard {n}", "quick": True, "kind": "human"}
        )
        for n in (1, 2)
    ]
    return harry, guards


def _learn(agent, skill):
    agent.build["skills"][skill] = {"level": "specialist", "source": "purchase"}
    type(agent).objects.filter(pk=agent.pk).update(build=agent.build)
    agent.refresh_from_db()


def _wear(world, api, guard, *armor):
    """The GM records once what the guard wears (his GM-only condition); every attack reads it."""
    url = f"/api/v1/campaigns/{world.campaign.pk}/npcs/{guard.pk}/condition/"
    response = api(world.users["gm"]).post(url, {"kind": "armor_worn", "armor": list(armor)}, format="json")
    assert response.status_code == 201, response.content


def _script(monkeypatch, *faces):
    rolls = iter([Faces(*f, 3, 0, 3, 0) for f in faces])  # spare faces: a check the dice lead to
    monkeypatch.setattr(attacks, "system_rng", lambda: next(rolls))


def _attack(route, world, api, client, **fields):
    """One attack by the GM through the API or the dice page's form; the roll it logged."""
    before = _roll_ids(world)
    if route == "api":
        response = api(world.users["gm"]).post(
            f"/api/v1/campaigns/{world.campaign.pk}/attacks/", fields, format="json"
        )
        assert response.status_code == 201, response.content
    else:
        # what the browser sends untouched: the form's own defaults
        data = {
            "attack-shield": "none",
            "attack-attack_number": "1",
            "attack-luck_spent": "0",
            "attack-modifier": "0",
        }
        data["attack-fight_round"] = str(fields.pop("fight_round", 1))
        data["attack-apply_damage"] = "on"
        if "attacker" in fields:
            data["attack-attacker_score"] = f"{fields.pop('attacker')}:{fields.pop('attacker_score')}"
        for key, value in fields.items():
            if value is True:
                value = "on"
            data[f"attack-{key}"] = value if isinstance(value, list) else str(value)
        client.force_login(world.users["gm"])
        response = client.post(f"/campaigns/{world.campaign.pk}/dice/attack/", data)
        assert response.status_code == 200, response.content.decode()
    return _new_roll(world, before, "attack")


def _roll_ids(world):
    return set(Roll.objects.filter(campaign=world.campaign).values_list("id", flat=True))


def _new_roll(world, before, flag):
    """The one roll of this kind the request logged (ids are not in order: no latest())."""
    (roll,) = [
        r for r in Roll.objects.filter(campaign=world.campaign).exclude(id__in=before) if r.detail.get(flag)
    ]
    return roll


def _line(world, client, roll):
    """The roll's line in the GM's dice log, as text."""
    import re

    client.force_login(world.users["gm"])
    html = client.get(f"/campaigns/{world.campaign.pk}/dice/log/").content.decode()
    item = html.split(f'<li id="roll-{roll.pk}"', 1)[1].split("</li>", 1)[0]
    line = item.split('data-testid="attack-line">', 1)[1]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line))
    return text.replace("&quot;", '"').replace("&#x27;", "'").replace("&lt;", "<")


def _hold_round(route, world, api, client, state):
    """The next round of a kept hold: the GM picks the hold, and types no round number."""
    before = _roll_ids(world)
    if route == "api":
        response = api(world.users["gm"]).post(
            f"/api/v1/campaigns/{world.campaign.pk}/holds/", {"hold": state.pk}, format="json"
        )
        assert response.status_code == 201, response.content
    else:
        client.force_login(world.users["gm"])
        response = client.post(f"/campaigns/{world.campaign.pk}/dice/hold/", {"hold-hold": str(state.pk)})
        assert response.status_code == 200, response.content.decode()
    return _new_roll(world, before, "hold")


@pytest.mark.parametrize("route", ROUTES)
def test_a_called_shot_to_the_head_of_a_helmeted_guard(route, world, fight, api, client, monkeypatch):
    # Harry's UM 62 on a surprised guard (column 1): roll 01, margin 61 -> CK, called head granted;
    # C = (1+1+1)x2 = 6 Stamina, 5 wounds; helmet roll 80 (51-00): on the helmet, 6 + bonus 10 = 16
    # < AR 30 holds, a head hit keeps its Stamina: 6 Stamina, no wounds (L1562-1566); the K's DEX
    # check 30 keeps what is held, and the guard is down from round 2 (the round the GM named)
    harry, (guard, _) = fight
    _wear(world, api, guard, "helmet")
    _script(monkeypatch, (0, 1, 1, 1, 1, 8, 0, 3, 0))
    roll = _attack(
        route,
        world,
        api,
        client,
        form="melee",
        attacker=harry.pk,
        attacker_score="other:unskilled_melee",
        defender_npc=guard.pk,
        surprised=True,
        called_location="head",
        fight_round=2,
    )
    line = _line(world, client, roll)
    assert "column 1 (surprised: column 1); rolled 1, hit, margin 61 → CK Crippling Wound" in line
    assert (
        "called head: C grants it; head: called head; helmet roll 80 (51-00): on the helmet; "
        "6 + bonus 10 = 16 < AR 30: the helmet holds; a head hit: the Stamina still counts, no wounds; "
        "takes 6 Stamina, 0 wounds" in line
    )
    state = npc_cond.summary(guard)
    assert (state["current_stamina"], state["wounds_marked"]) == (44, 0)
    (down,) = FightState.objects.filter(defender_npc=guard, kind="down")
    assert down.since_round == 2 and down.roll == roll


@pytest.mark.parametrize("route", ROUTES)
def test_a_pistol_shot_from_cover_at_long_range_on_a_running_target(
    route, world, fight, api, client, monkeypatch
):
    # Harry's DEX 72 with an automatic pistol at 60 ft (5 x -12 = -60, §13.7 L1174), the guard
    # running (-20) behind cover (-30) (§13.3): strike number -38; the guard's defense die 4
    harry, (guard, _) = fight
    _script(monkeypatch, (3,), (0, 5))
    roll = _attack(
        route,
        world,
        api,
        client,
        form="missile",
        attacker=harry.pk,
        attacker_score="ability:DEX",
        missile_weapon="firearm",
        modifiers=["target_running", "target_behind_cover"],
        range_weapon="automatic_pistol",
        range_feet=60,
        defender_npc=guard.pk,
    )
    line = _line(world, client, roll)
    assert (
        "Harry Adams (Dexterity 72; target running -20; target behind cover -30; "
        "range 60 ft with an automatic pistol (5 × -12) -60 = -38)" in line
    )
    assert roll.detail["modifier_rules"] and roll.detail["column"] == roll.detail["defense_die"]
    assert f"column {roll.detail['column']} (" in line and "miss" in line
    assert npc_cond.history(guard) == []


@pytest.mark.parametrize("route", ROUTES)
def test_a_knockout_with_a_blackjack(route, world, fight, api, client, monkeypatch):
    # Harry's Blackjack from behind (+20, §15; the blackjack needs the back turned, L2695): roll 01
    # on the guard's column -> C: the called knockout is granted, current Stamina to 0
    harry, (guard, _) = fight
    _learn(harry, "blackjack")
    _script(monkeypatch, (0, 1))
    roll = _attack(
        route,
        world,
        api,
        client,
        form="melee",
        attacker=harry.pk,
        attacker_score="skill:blackjack",
        defender_npc=guard.pk,
        modifiers=["from_behind"],
        called_knockout=True,
    )
    line = _line(world, client, roll)
    assert "attack from behind +20" in line and "column " in line
    assert "called knockout: C grants it; knocked out: current Stamina to 0" in line
    assert "Stamina 50" not in line  # the guard's Stamina is the GM's
    state = npc_cond.summary(guard)
    assert state["status"] == "unconscious" and state["current_stamina"] == 0


@pytest.mark.parametrize("route", ROUTES)
def test_a_hold_then_a_strangle_over_three_rounds(route, world, fight, api, client, monkeypatch):
    # Round 1: Harry's called hold on a surprised Guard 2 (column 1), roll 01 -> CK, Crushing
    # (1+1+1)x2 = 6 Stamina; round 2 of the kept hold: 1d10 = 4. Harry lets go. Then a strangle on
    # Guard 1: round 1 roll 01 -> CK, 6 Stamina, the end-of-round check 20 holds; round 2: 1d10 = 5,
    # check 30 holds; round 3: 1d10 = 9, check 90 fails: unconscious, current Stamina 0 (L1334-1346)
    harry, (one, two) = fight
    _script(
        monkeypatch,
        (0, 1, 1, 1, 1),
        (4,),
        (0, 1, 1, 1, 1, 2, 0),
        (5, 3, 0),
        (9, 9, 0),
    )
    common = {
        "form": "melee",
        "results_key": "unarmed",
        "attacker": harry.pk,
        "attacker_score": "other:unskilled_melee",
        "surprised": True,
    }
    roll = _attack(route, world, api, client, **common, defender_npc=two.pk, called_hold="hold")
    assert "hold made: the defender can only try to break it" in _line(world, client, roll)
    (hold,) = FightState.objects.filter(defender_npc=two, kind="hold", ended_at=None)
    assert (hold.holder, hold.since_round, hold.rounds_held) == (harry, 1, 1)
    held = _hold_round(route, world, api, client, hold)
    assert held.detail["lines"] == ["round 2 of the hold: 1d10 = 4 Stamina"]
    assert npc_cond.summary(two)["current_stamina"] == 50 - 6 - 4
    gm = api(world.users["gm"])
    ended = gm.post(
        f"/api/v1/campaigns/{world.campaign.pk}/fight/{hold.pk}/end/", {"reason": "let go"}, format="json"
    )
    assert ended.status_code == 200 and ended.json()["status"] == "ended"

    _attack(route, world, api, client, **common, defender_npc=one.pk, called_hold="strangle")
    (strangle,) = FightState.objects.filter(defender_npc=one, kind="strangle", ended_at=None)
    for line in ("strangle check 30: stays conscious", "strangle check 90: falls unconscious"):
        held = _hold_round(route, world, api, client, strangle)
        assert any(text.startswith(line) for text in held.detail["lines"]), held.detail["lines"]
        assert "vs current Stamina" not in str(held.detail)  # an NPC's Stamina stays the GM's
    strangle.refresh_from_db()
    assert strangle.rounds_held == 3
    assert sorted(r.detail["round"] for r in Roll.objects.filter(detail__hold=True)) == [2, 2, 3]
    state = npc_cond.summary(one)
    assert state["status"] == "unconscious" and state["current_stamina"] == 0


@pytest.mark.parametrize("route", ROUTES)
def test_a_sword_against_plate_that_does_not_penetrate(route, world, fight, api, client, monkeypatch):
    # Harry's UM 62 with a sword (Armed key) on the guard's UM (column 4): roll 20, margin 42 -> M,
    # (3+4)x2 = 14; location roll 15 = upper torso under the plate: 14 + bonus 10 = 24 < AR 60
    harry, (guard, _) = fight
    _wear(world, api, guard, "metal_plates")
    _script(monkeypatch, (2, 0, 3, 4, 1, 5))
    roll = _attack(
        route,
        world,
        api,
        client,
        form="melee",
        attacker=harry.pk,
        attacker_score="other:unskilled_melee",
        defender_npc=guard.pk,
    )
    line = _line(world, client, roll)
    assert "column 4 (Unskilled Melee: column 4)" in line, line
    assert (
        "upper torso: upper torso (location roll 15); 14 + bonus 10 = 24 < AR 60: the metal plates "
        "holds; not penetrated: no effect; takes 0 Stamina, 0 wounds" in line
    )
    assert npc_cond.summary(guard)["current_stamina"] == 50
