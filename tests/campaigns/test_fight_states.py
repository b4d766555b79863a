"""What lasts in a TIMEMASTER fight (issue 49): the hold (who holds whom since which round), the
strangle, the knockdown (down since which round, until getting up), kept by the attack that makes
them, shown in the GM's fight panel on the dice page with the NPCs' condition, each change
revertible; a hit on the holder breaks his hold (timemaster-play.md §15 L1334-1346, §5.2-§5.3).
Players never see the panel, the API or a name in it."""

from __future__ import annotations

import pytest

from campaigns import npc_services
from systems.timemaster import attacks, fight_states
from systems.timemaster import npc_condition_services as npc_cond
from systems.timemaster.engine import special
from systems.timemaster.models import FightState
from tests.campaigns.test_checks import BOOK_ABILITIES, Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")
GM_ONLY = {"gm": 200, "player": 403, "other_player": 403, "observer": 403, "outsider": 404, "anonymous": 401}


@pytest.fixture
def fight(world, make_agent):  # noqa: F811
    harry = make_agent("player", abilities=dict(BOOK_ABILITIES))
    guard = npc_services.create_npc(
        world.campaign, world.users["gm"], {"name": "Guard Ottokar", "quick": True, "kind": "human"}
    )
    return harry, guard


def _hold(world, harry, guard, kind="hold", fight_round=3):
    # a surprised guard (column 1), roll 01 -> CK on the Unarmed key: the called hold is made
    attack = attacks.Attack(
        form="melee",
        results_key="unarmed",
        attacker=harry,
        attacker_score="other:unskilled_melee",
        defender_npc=guard,
        situation={"surprised": True},
        called_hold=kind,
        fight_round=fight_round,
    )
    attacks.resolve(world.membership["gm"], attack, Faces(0, 1, 1, 1, 1, 2, 0))
    return FightState.objects.get(defender_npc=guard, kind=kind, ended_at=None, reverted_at=None)


def test_the_engine_tells_a_hold_and_a_knockdown_and_refuses_a_round_zero():
    text, rule = special.state_text("strangle", 2, 2)
    assert text.startswith("strangle (a current-Stamina check at each round's end) since round 2, 2 rounds")
    assert "next: round 3 of it" in text and "L1344-1346" in rule
    text, rule = special.state_text("down", 1)
    assert "on the ground until getting up (an attack from the ground -40, getting up first -20)" in text
    assert "L1369-1373" in rule
    assert special.next_hold_round("hold", 1) == 2
    with pytest.raises(Exception, match="round of the fight"):
        special.state_text("hold", 0)
    with pytest.raises(Exception, match="Only a hold"):
        special.next_hold_round("down", 1)


def test_a_hold_is_kept_since_its_round_and_a_hit_on_the_holder_breaks_it(world, fight):
    harry, guard = fight
    hold = _hold(world, harry, guard)
    assert (hold.holder, hold.holder_name, hold.since_round, hold.rounds_held) == (harry, "Harry Adams", 3, 1)
    # another guard (an NPC described by the GM) hits Harry: the hold is broken (L1340-1342)
    roll, _ = attacks.resolve(
        world.membership["gm"],
        attacks.Attack(form="melee", strike_base=200, defender=harry, apply_damage=False),
        Faces(5, 0, 1, 1, 1, 3, 0, 3, 0),
    )
    assert "a hit on the holder breaks the hold (L1340-1342)" in roll.detail["special"]
    hold.refresh_from_db()
    assert hold.ended_at is not None and hold.end_reason == "broken: NPC hit the holder"
    with pytest.raises(Exception, match="No hold lasting"):
        attacks.hold_from({"hold": hold.pk}, world.membership["gm"], world.campaign)


def test_each_change_is_revertible_and_a_reverted_hold_takes_no_round(world, fight, api):
    harry, guard = fight
    hold = _hold(world, harry, guard, "strangle")
    gm = api(world.users["gm"])
    base = f"/api/v1/campaigns/{world.campaign.pk}/fight/"
    # a K with the C: held and down (characters, Wrestling L2659)
    listed = gm.get(base).json()["states"]
    assert [s["title"] for s in listed] == ["Harry Adams strangles Guard Ottokar", "Guard Ottokar is down"]
    assert listed[0]["since_round"] == 3 and listed[0]["next_round"] == 2
    assert gm.post(f"{base}{hold.pk}/end/", {}, format="json").json()["end_reason"] == "broken or let go"
    assert gm.post(base.replace("fight/", "holds/"), {"hold": hold.pk}, format="json").status_code == 400
    again = gm.post(f"{base}{hold.pk}/reopen/", {}, format="json")
    assert again.status_code == 200 and again.json()["status"] == "active"
    assert gm.post(f"{base}{hold.pk}/reopen/", {}, format="json").status_code == 400
    reverted = gm.post(f"{base}{hold.pk}/revert/", {}, format="json")
    assert reverted.json()["status"] == "reverted"
    assert [s["kind"] for s in gm.get(base).json()["states"]] == ["down"]
    assert [s["status"] for s in gm.get(base).json()["recent"]] == ["reverted"]
    assert gm.post(f"{base}{hold.pk}/end/", {}, format="json").status_code == 400
    assert gm.post(f"{base}999/end/", {}, format="json").status_code == 400


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ["get", "end", "reopen", "revert"])
def test_every_fight_route_answers_each_role_as_it_must(world, fight, api, role, action):
    harry, guard = fight
    hold = _hold(world, harry, guard)
    if action == "reopen":
        fight_states.end(world.membership["gm"], hold.pk)
    client = api(None if role == "anonymous" else world.users[role])
    base = f"/api/v1/campaigns/{world.campaign.pk}/fight/"
    if action == "get":
        response = client.get(base)
    else:
        response = client.post(f"{base}{hold.pk}/{action}/", {}, format="json")
    assert response.status_code == GM_ONLY[role], response.content
    if role != "gm":
        assert "Ottokar" not in response.content.decode() and "Harry" not in response.content.decode()
        hold.refresh_from_db()
        assert (hold.reverted_at is None) and ((hold.ended_at is None) == (action != "reopen"))


def test_the_gm_runs_the_fight_from_the_dice_page_and_a_player_never_sees_it(world, fight, client):
    harry, guard = fight
    hold = _hold(world, harry, guard)
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    panel = page.split('data-testid="fight-panel"', 1)[1].split("</section>", 1)[0]
    assert "<strong>Harry Adams holds Guard Ottokar</strong>: hold since round 3" in panel
    assert "Guard Ottokar</a>: <strong>Conscious</strong>, Stamina 44 of 50" in panel
    assert f'name="hold-hold" value="{hold.pk}"' in panel and ">Round 2</button>" in panel
    # the next round from the panel: the GM types no number
    response = client.post(f"/campaigns/{world.campaign.pk}/dice/hold/", {"hold-hold": str(hold.pk)})
    assert response.status_code == 200, response.content.decode()
    hold.refresh_from_db()
    assert hold.rounds_held == 2
    # the round's damage is reverted from the fight panel, back on the dice page
    entry = npc_cond.history(guard)[-1]
    response = client.post(
        f"/campaigns/{world.campaign.pk}/npcs/{guard.pk}/condition/{entry.pk}/revert/", {"back": "fight"}
    )
    assert response.status_code == 302 and response["Location"].endswith("/dice/#fight-panel")
    assert npc_cond.summary(guard)["current_stamina"] == 44
    response = client.post(f"/campaigns/{world.campaign.pk}/dice/fight/{hold.pk}/end/")
    assert response.status_code == 302
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert "holds Guard Ottokar</strong>" not in page and "(ended: broken or let go)" in page
    assert client.post(f"/campaigns/{world.campaign.pk}/dice/fight/{hold.pk}/reopen/").status_code == 302
    hold.refresh_from_db()
    assert hold.ended_at is None

    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert 'data-testid="fight-panel"' not in page and "Ottokar" not in page
    for action in ("end", "revert"):
        denied = client.post(f"/campaigns/{world.campaign.pk}/dice/fight/{hold.pk}/{action}/")
        assert denied.status_code == 403
    hold.refresh_from_db()
    assert hold.ended_at is None and hold.reverted_at is None


def test_a_knockdown_is_kept_until_the_gm_says_the_guard_got_up(world, fight, client):
    harry, guard = fight
    # Harry's UM 62 on the surprised guard: roll 01 -> CK on the Armed key, (1+1+1)x2, DEX check 30
    attacks.resolve(
        world.membership["gm"],
        attacks.Attack(
            form="melee",
            attacker=harry,
            attacker_score="other:unskilled_melee",
            defender_npc=guard,
            situation={"surprised": True},
            fight_round=4,
        ),
        Faces(0, 1, 1, 1, 1, 3, 0),
    )
    (down,) = fight_states.active(world.campaign.pk)
    assert down.kind == "down" and down.since_round == 4
    assert fight_states.describe(down)["title"] == "Guard Ottokar is down"
    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert "knocked down in round 4: the rest of that round&#x27;s actions lost" in page
    assert ">Got up</button>" in page
    client.post(f"/campaigns/{world.campaign.pk}/dice/fight/{down.pk}/end/")
    down.refresh_from_db()
    assert down.end_reason == "got up"


def test_a_guard_killed_while_held_is_held_no_more(world, fight):
    harry, guard = fight
    hold = _hold(world, harry, guard)
    kill = attacks.Attack(
        form="melee",
        attacker=harry,
        attacker_score="other:unskilled_melee",
        defender_npc=guard,
        situation={"helpless": True},
        called_kill=True,
    )
    attacks.resolve(world.membership["gm"], kill, Faces(1, 1, 1))
    assert npc_cond.summary(guard)["status"] == "dead"
    hold.refresh_from_db()
    assert hold.end_reason == "dead" and not fight_states.active(world.campaign.pk).exists()
