"""The CM's option of L1558 (timemaster-play.md §19, note to the CM), a campaign setting
(hit_location_always): every hit rolls its location, armor or not; in missile fire at a target
behind cover the -30 is not taken, and a hit whose location the cover hides misses. Off by
default: an attack reads as before (docs/rulings-timemaster-combat.md ruling 8)."""

from __future__ import annotations

import pytest

from campaigns import npc_services
from systems.timemaster import attacks
from systems.timemaster import npc_condition_services as npc_cond
from systems.timemaster.engine import armor
from tests.campaigns.test_checks import BOOK_ABILITIES, Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)


@pytest.fixture
def fight(world, make_agent):  # noqa: F811
    harry = make_agent("player", abilities=dict(BOOK_ABILITIES))
    guard = npc_services.create_npc(
        world.campaign, world.users["gm"], {"name": "Guard 1", "quick": True, "kind": "human"}
    )
    return harry, guard


def _always(world, on=True):
    world.campaign.settings = {**(world.campaign.settings or {}), "hit_location_always": on}
    world.campaign.save(update_fields=["settings"])
    world.membership["gm"].campaign.refresh_from_db()


def _shot(world, harry, guard, faces, **more):
    attack = attacks.Attack(
        form="missile",
        attacker=harry,
        attacker_score="ability:DEX",
        missile_weapon="firearm",
        defender_npc=guard,
        **more,
    )
    return attacks.resolve(world.membership["gm"], attack, Faces(*faces))


def test_the_engine_reads_a_location_behind_cover():
    assert armor.behind_cover("left_leg", ["left_leg", "right_leg"], 55) == (
        True,
        "left leg (location roll 55) is behind the cover: the shot misses",
    )
    assert armor.behind_cover("head", ["left_leg"]) == (False, "head is not behind the cover")
    with pytest.raises(Exception, match="hit locations the cover hides"):
        armor.behind_cover("head", ["tail"])


def test_off_by_default_a_hit_without_armor_rolls_no_location(world, fight, client):
    harry, guard = fight
    roll, _ = _shot(world, harry, guard, (3, 2, 0, 1, 1, 1, 1, 1))
    assert roll.detail["hit"] and "location" not in roll.detail
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert "attack-covered_locations" not in page


def test_with_the_option_every_hit_says_where_it_lands(world, fight):
    harry, guard = fight
    _always(world)
    melee = attacks.Attack(
        form="melee", attacker=harry, attacker_score="other:unskilled_melee", defender_npc=guard
    )
    # roll 20 on column 4: M, (3+4)x2 = 14, 3 wounds; location roll 15: upper torso, no armor
    roll, _ = attacks.resolve(world.membership["gm"], melee, Faces(2, 0, 3, 4, 1, 5))
    assert (roll.detail["location"], roll.detail["armor_why"]) == (
        "upper torso",
        "location roll 15; no armor there: full damage",
    )
    assert npc_cond.summary(guard)["current_stamina"] == 36


def test_a_shot_behind_cover_drops_the_30_and_misses_on_a_hidden_location(world, fight, api, client):
    harry, guard = fight
    _always(world)
    cover = {"modifiers": ["target_behind_cover"], "covered_locations": ["left_leg", "right_leg"]}
    # defense die 3 (column 3); roll 20 vs DEX 72 (no -30): margin 52, C, (1+1+1)x2;
    # location roll 55: left leg, behind the cover
    roll, _ = _shot(world, harry, guard, (3, 2, 0, 1, 1, 1, 5, 5), **cover)
    assert roll.detail["strike_number"] == 72 and roll.detail["modifiers"] == []
    assert roll.detail["hit"] is False and "is behind the cover: the shot misses" in roll.detail["cover"]
    assert "target behind cover: no -30, the hit location decides (L1558)" in roll.detail["notes"]
    assert npc_cond.history(guard) == []
    client.force_login(world.users["gm"])
    log = client.get(f"/campaigns/{world.campaign.pk}/dice/log/").content.decode()
    assert 'miss (<span data-testid="attack-cover">' in log
    # location roll 15 = upper torso, not behind the cover: the hit counts
    roll, _ = _shot(world, harry, guard, (3, 2, 0, 1, 1, 1, 1, 5), **cover)
    assert roll.detail["hit"] is True and roll.detail["cover"].endswith("is not behind the cover")
    assert npc_cond.history(guard)
    # the API refuses the cover without what it hides, and what it hides without the option
    gm = api(world.users["gm"])
    url = f"/api/v1/campaigns/{world.campaign.pk}/attacks/"
    body = {
        "form": "missile",
        "attacker": harry.pk,
        "attacker_score": "ability:DEX",
        "missile_weapon": "firearm",
    }
    bare = gm.post(url, {**body, "modifiers": ["target_behind_cover"]}, format="json")
    assert bare.status_code == 400 and "covered_locations" in str(bare.json())
    _always(world, False)
    extra = gm.post(url, {**body, "covered_locations": ["head"]}, format="json")
    assert extra.status_code == 400 and "covered_locations" in str(extra.json())
