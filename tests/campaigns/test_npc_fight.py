"""NPCs bleed too (issue 49, point 5): an NPC defender's Stamina, wounds, unconsciousness, death
and crumpled armor are kept in its GM-only record, shown on the GM's NPC page, each change
revertible; players never see them, and the log names an NPC only once it is revealed
(timemaster-play.md §16, §16.1 L623, §19; ARCHITECTURE.md "Who may see what")."""

from __future__ import annotations

import pytest

from campaigns import npc_services
from systems.timemaster import attacks
from systems.timemaster import npc_condition_services as npc_cond
from tests.campaigns.test_checks import BOOK_ABILITIES, Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)


@pytest.fixture
def fight(world, make_agent):  # noqa: F811
    harry = make_agent("player", abilities=dict(BOOK_ABILITIES))
    gm = world.users["gm"]
    guards = [
        npc_services.create_npc(
            world.campaign, gm, {"name": f"Guard {n}", "quick": True, "kind": "human", "revealed": n == 3}
        )
        for n in (1, 2, 3)
    ]
    return harry, guards


def _hit(world, harry, guard, faces, **more):
    attack = attacks.Attack(
        form="melee",
        attacker=harry,
        attacker_score="other:unskilled_melee",
        defender_npc=guard,
        **more,
    )
    return attacks.resolve(world.membership["gm"], attack, Faces(*faces))


def test_three_guards_take_their_hits_and_the_gm_page_shows_each_condition(world, fight, client):
    harry, (one, two, three) = fight
    # Harry's UM 62 on a guard's UM 50 (column 4): roll 20, margin 42 -> M: (3+4)x2 = 14, 3 wounds
    roll, _ = _hit(world, harry, one, (2, 0, 3, 4))
    assert roll.detail["defender"] == "NPC" and roll.detail["code"] == "M"  # Guard 1 is not revealed
    assert npc_cond.summary(one)["current_stamina"] == 36 and npc_cond.summary(one)["wounds_marked"] == 3
    # Guard 2 in mail: location 15 = upper torso, 14 + bonus 10 = 24 < 45: nothing
    _hit(world, harry, two, (2, 0, 3, 4, 1, 5), armor=["mail"])
    assert npc_cond.summary(two)["current_stamina"] == 50 and not npc_cond.history(two)
    # Guard 3 (revealed) is struck down: the log names him; at 0 Stamina he is helpless next time
    roll, _ = _hit(
        world,
        harry,
        three,
        (0, 1, 0, 0, 0),
    )
    assert roll.detail["defender"] == "Guard 3"
    state = npc_cond.summary(three)
    assert state["status"] == "unconscious" and state["current_stamina"] == 0
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/npcs/{one.pk}/").content.decode()
    assert "<strong>Conscious</strong>: Stamina 36 of 50; wounds 3 of 13 marked" in page
    assert "14 Stamina, 3 wounds" in page


def test_a_change_is_reverted_from_the_npc_page_and_players_never_see_the_condition(
    world, fight, client, api
):
    harry, (_one, _two, three) = fight
    _hit(world, harry, three, (2, 0, 3, 4))
    entry = npc_cond.history(three)[0]
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/npcs/{three.pk}/").content.decode()
    assert "Stamina 36" not in page and "npc-condition" not in page
    denied = client.post(f"/campaigns/{world.campaign.pk}/npcs/{three.pk}/condition/{entry.pk}/revert/")
    assert denied.status_code in (403, 404)
    public = api(world.users["player"]).get(f"/api/v1/campaigns/{world.campaign.pk}/npcs/{three.pk}/").json()
    assert "derived" not in public and "Stamina" not in str(public)
    assert npc_cond.summary(three)["current_stamina"] == 36
    client.force_login(world.users["gm"])
    response = client.post(f"/campaigns/{world.campaign.pk}/npcs/{three.pk}/condition/{entry.pk}/revert/")
    assert response.status_code == 302
    assert npc_cond.summary(three)["current_stamina"] == 50
    url = f"/api/v1/campaigns/{world.campaign.pk}/npcs/{three.pk}/condition/"
    assert api(world.users["player"]).get(url).status_code in (403, 404)
    gm_view = api(world.users["gm"]).get(url).json()
    assert gm_view["condition"]["current_stamina"] == 50 and gm_view["entries"][0]["reverted"] is True


def test_a_blackjack_knockout_drops_a_guard_without_telling_the_table_his_stamina(world, fight):
    harry, (one, _two, _three) = fight
    harry.build["skills"]["blackjack"] = {"level": "specialist", "source": "purchase"}
    type(harry).objects.filter(pk=harry.pk).update(build=harry.build)
    harry.refresh_from_db()
    attack = attacks.Attack(
        form="melee",
        attacker=harry,
        attacker_score="skill:blackjack",
        defender_npc=one,
        situation={"surprised": True},
        called_knockout=True,
    )
    roll, _ = attacks.resolve(world.membership["gm"], attack, Faces(0, 1))  # 01 on column 1: C
    assert roll.detail["knockout"] is True and "stamina_applied" not in roll.detail
    assert npc_cond.summary(one)["status"] == "unconscious"
    assert npc_cond.history(one)[0].source == "Called knockout from Harry Adams"


def test_a_strangle_over_three_rounds_from_the_api_knocks_the_guard_out(world, fight, api, monkeypatch):
    # §15 (L1334-1346): round 1 is the called strangle, surprised guard on column 1, roll 01 -> CK:
    # Crushing 3d10x2 = 6 Stamina, 2 wounds; end-of-round check 20 vs 44 holds. Round 2: 1d10 = 5,
    # check 30 vs 39 holds. Round 3: 1d10 = 9, check 90 vs 30 fails: unconscious, Stamina 0
    harry, (one, _two, _three) = fight
    rolls = iter([Faces(0, 1, 1, 1, 1, 2, 0), Faces(5, 3, 0), Faces(9, 9, 0)])
    monkeypatch.setattr(attacks, "system_rng", lambda: next(rolls))
    client = api(world.users["gm"])
    base = f"/api/v1/campaigns/{world.campaign.pk}/"
    first = client.post(
        base + "attacks/",
        {
            "form": "melee",
            "results_key": "unarmed",
            "attacker": harry.pk,
            "attacker_score": "other:unskilled_melee",
            "defender_npc": one.pk,
            "surprised": True,
            "called_hold": "strangle",
        },
        format="json",
    )
    assert first.status_code == 201, first.content
    assert first.json()["detail"]["hold"] == "strangle"
    assert "strangle check 20: stays conscious" in first.json()["detail"]["special"]
    assert npc_cond.summary(one)["current_stamina"] == 44
    for round_number, line in (
        (2, "strangle check 30: stays conscious"),
        (3, "strangle check 90: falls unconscious"),
    ):
        response = client.post(
            base + "holds/",
            {"round": round_number, "strangle": True, "holder": harry.pk, "defender_npc": one.pk},
            format="json",
        )
        assert response.status_code == 201, response.content
        assert any(text.startswith(line) for text in response.json()["detail"]["lines"])
    state = npc_cond.summary(one)
    assert state["status"] == "unconscious" and state["current_stamina"] == 0
    refused = client.post(base + "holds/", {"round": 1, "defender_npc": one.pk}, format="json")
    assert refused.status_code == 400
    assert (
        api(world.users["player"])
        .post(base + "holds/", {"round": 2, "defender_npc": one.pk}, format="json")
        .status_code
        == 403
    )


def test_a_hold_round_from_the_dice_page_costs_1d10_and_a_player_has_no_hold_panel(
    world, fight, client, monkeypatch
):
    harry, (_one, two, _three) = fight
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(7))
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert 'data-testid="hold-panel"' in page
    response = client.post(
        f"/campaigns/{world.campaign.pk}/dice/hold/",
        {"hold-round": "2", "hold-holder": str(harry.pk), "hold-defender_npc": str(two.pk)},
    )
    html = response.content.decode()
    assert response.status_code == 200, html
    # the GM's own log names the held NPC; the table's says "NPC" until it is revealed (walk, point 4)
    assert "Harry Adams holds Guard 2 (shown as NPC): round 2 of the hold: 1d10 = 7 Stamina" in html
    assert npc_cond.summary(two)["current_stamina"] == 43
    client.force_login(world.users["player"])
    player_page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert 'data-testid="hold-panel"' not in player_page
    assert "Harry Adams holds NPC: round 2 of the hold: 1d10 = 7 Stamina" in player_page
    assert "Guard 2" not in player_page
    denied = client.post(
        f"/campaigns/{world.campaign.pk}/dice/hold/", {"hold-round": "2", "hold-defender_npc": str(two.pk)}
    )
    assert denied.status_code == 403 and npc_cond.summary(two)["current_stamina"] == 43


def test_falls_fire_and_poison_are_entries_the_gm_applies_through_the_api(world, fight, api, monkeypatch):
    # §18 (L1459-1475): a 15-ft fall is a missile-type roll with SN 105 and Luck; 120 ft kills; fire
    # costs 3 wounds a round; a failed poison check kills (a PC's Luck check against death is due)
    from systems.timemaster.engine.condition import condition_of

    harry, (one, two, _three) = fight
    luck = harry.build["abilities"]["LUCK"]
    client = api(world.users["gm"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/special-damage/"
    # die 3 + Luck 1 = column 4; roll 50: margin 55 -> H: (1+1+1)x2 = 6 Stamina, 4 wounds
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(3, 5, 0, 1, 1, 1))
    fall = client.post(
        url, {"kind": "fall", "feet": 15, "defender": harry.pk, "luck_spent": 1}, format="json"
    )
    assert fall.status_code == 201, fall.content
    detail = fall.json()["roll"]["detail"]
    assert (detail["strike_number"], detail["column"], detail["code"]) == (105, 4, "H")
    harry.refresh_from_db()
    assert harry.build["abilities"]["LUCK"] == luck - 1
    assert condition_of(harry.build)["wounds_marked"] == 4
    deadly = client.post(url, {"kind": "fall", "feet": 120, "defender_npc": one.pk}, format="json")
    assert deadly.status_code == 201 and deadly.json()["roll"] is None
    assert npc_cond.summary(one)["status"] == "dead"
    fire = client.post(url, {"kind": "fire", "rounds": 2, "defender_npc": two.pk}, format="json")
    assert fire.status_code == 201 and npc_cond.summary(two)["wounds_marked"] == 6
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(9, 9))
    poison = client.post(url, {"kind": "poison", "defender": harry.pk}, format="json")
    assert poison.status_code == 201
    harry.refresh_from_db()
    assert condition_of(harry.build)["death_check_due"] is True
    assert (
        api(world.users["player"])
        .post(url, {"kind": "fire", "defender_npc": two.pk}, format="json")
        .status_code
        == 403
    )
    npc_luck = client.post(
        url, {"kind": "fall", "feet": 20, "defender_npc": two.pk, "luck_spent": 1}, format="json"
    )
    assert npc_luck.status_code == 400


def test_smoke_from_the_dice_page_marks_wounds_on_the_npc(world, fight, client):
    _harry, (_one, _two, three) = fight
    client.force_login(world.users["gm"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/dice/special/",
        {
            "special-kind": "smoke",
            "special-rounds": "3",
            "special-defender_npc": str(three.pk),
            "special-luck_spent": "0",
        },
    )
    assert response.status_code == 200, response.content.decode()
    assert npc_cond.summary(three)["wounds_marked"] == 6
    bad = client.post(
        f"/campaigns/{world.campaign.pk}/dice/special/",
        {
            "special-kind": "fall",
            "special-feet": "5",
            "special-defender_npc": str(three.pk),
            "special-luck_spent": "0",
        },
    )
    assert bad.status_code == 400 and "from 11" in bad.content.decode()


def test_a_martial_artists_called_severity_is_read_on_the_armed_key(world, fight):
    # characters Martial Arts (L2665-2667): a called "H" kick on a C marks the Armed key's 4 wounds
    # (the Unarmed key's H marks 1); surprised guard, column 1, roll 01 -> CK; (1+1+1)x2 = 6 Stamina
    harry, (one, _two, _three) = fight
    harry.build["skills"]["martial_arts"] = {"level": "specialist", "source": "purchase"}
    type(harry).objects.filter(pk=harry.pk).update(build=harry.build)
    harry.refresh_from_db()
    attack = attacks.Attack(
        form="melee",
        results_key="unarmed",
        attacker=harry,
        attacker_score="skill:martial_arts",
        defender_npc=one,
        situation={"surprised": True},
        called_severity="H",
    )
    roll, _ = attacks.resolve(world.membership["gm"], attack, Faces(0, 1, 1, 1, 1))
    assert roll.detail["called"] == 'called "H": C grants it, read as "H" on the Armed key (Martial Arts)'
    assert roll.detail["result_name"] == "Heavy Wound"
    assert npc_cond.summary(one)["wounds_marked"] == 4


def test_the_gm_puts_armor_on_a_guard_once_and_every_attack_reads_it(world, fight, api, monkeypatch):
    # the guard wears plate (AR 60) from an entry on his condition; a sword's 14 + 10 = 24 holds
    harry, (one, _two, _three) = fight
    client = api(world.users["gm"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/npcs/{one.pk}/condition/"
    worn = client.post(url, {"kind": "armor_worn", "armor": ["metal_plates"]}, format="json")
    assert worn.status_code == 201 and worn.json()["condition"]["armor"] == ["metal_plates"]
    assert api(world.users["player"]).post(
        url, {"kind": "armor_worn", "armor": []}, format="json"
    ).status_code in (403, 404)
    roll, _ = _hit(world, harry, one, (2, 0, 3, 4, 1, 5))
    assert "14 + bonus 10 = 24 < AR 60: the metal plates holds" in roll.detail["armor_why"]
    assert npc_cond.summary(one)["current_stamina"] == 50
    bad = client.post(url, {"kind": "damage_taken", "wounds": 1}, format="json")
    assert bad.status_code == 400


def test_a_day_of_exposure_is_read_at_sn_99_on_column_5_and_a_catastrophe_at_the_gms_sn(world, fight):
    # §18 (L1463-1467): exposure SN 99, column 5, Armed key; a catastrophe's SN is the GM's (100 by default)
    harry, (_one, two, _three) = fight
    gm = world.membership["gm"]
    roll, _ = attacks.special_damage(gm, "exposure", defender_npc=two, rng=Faces(9, 9, 1, 1, 1))
    assert (roll.detail["strike_number"], roll.detail["column"], roll.detail["margin"]) == (99, 5, 0)
    assert roll.detail["why"] == "exposure: column 5"
    roll, entries = attacks.special_damage(
        gm, "catastrophe", defender=harry, strike_number=175, rng=Faces(4, 5, 0, 1, 1, 1)
    )
    assert roll.detail["strike_number"] == 175 and roll.detail["column"] == 4 and roll.detail["hit"]


def test_the_gms_own_log_names_the_npc_attacked_and_a_players_log_says_npc(world, fight, client):
    """Walk, point 4: an attack on an NPC not revealed was logged "on NPC" in the GM's log too."""
    harry, (one, _, _) = fight
    roll, _ = _hit(world, harry, one, (9, 9, 3, 4))  # a miss leaves no condition entry: still named
    assert roll.detail["defender"] == "NPC"  # the table's line
    client.force_login(world.users["gm"])
    gm_page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert f'on <span data-testid="attack-defender">{one.name} (shown as NPC)</span>' in gm_page
    client.force_login(world.users["player"])
    player_page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert 'on <span data-testid="attack-defender">NPC</span>' in player_page
    assert one.name not in player_page
    api = client.get(f"/api/v1/campaigns/{world.campaign.pk}/rolls/").content.decode()
    assert "NPC" in api and one.name not in api and str(one.pk) not in api
