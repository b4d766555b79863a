"""The GM's attack panel on the dice page: melee and missile attacks resolved without typing a
column, the log showing the column and why (timemaster-play.md §4, §5.2, §16.1, §19)."""

from __future__ import annotations

import pytest

from campaigns.models import Roll
from systems.timemaster import attacks
from systems.timemaster.engine.condition import condition_of
from tests.campaigns.test_checks import BOOK_ABILITIES, Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)


@pytest.fixture
def agents(world, make_agent):  # noqa: F811
    # "mine": STR 64, AGL 60 -> Unskilled Melee 62; "theirs": STR 72, AGL 60 -> 66 (column 5), STA 40
    mine = make_agent("player", abilities=dict(BOOK_ABILITIES))
    theirs = make_agent("other_player", name="Dana Quill")
    return {"mine": mine, "theirs": theirs}


def _dice(client, world):
    return client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()


def _attack(client, world, **fields):
    data = {
        "attack-modifier": "0",
        "attack-attack_number": "1",
        "attack-luck_spent": "0",
        "attack-shield": "none",
    }
    data.update({f"attack-{k}": v for k, v in fields.items()})
    return client.post(f"/campaigns/{world.campaign.pk}/dice/attack/", data)


def test_the_gm_has_an_attack_panel_without_a_column_field_and_players_have_none(world, agents, client):
    client.force_login(world.users["gm"])
    page = _dice(client, world)
    panel = page.split('id="attack-heading"')[1].split("</form>")[0]
    assert 'id="id_attack-attacker_score"' in panel and "defense_column" not in panel
    client.force_login(world.users["player"])
    assert 'id="attack-heading"' not in _dice(client, world)
    assert _attack(client, world, form="melee", strike_base="50").status_code == 403
    assert not Roll.objects.filter(campaign=world.campaign).exists()


def test_a_melee_attack_from_the_dice_page_reads_the_shielded_column_and_wounds_the_defender(
    world, agents, client, monkeypatch
):
    # percent 2/0 = 20 against Unskilled Melee 62: margin 42; Dana's column 5, small shield +1 = 6 -> M;
    # damage 2d10x2 with faces 3 and 4 = 14 Stamina, 3 wounds (play §5.2)
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(2, 0, 3, 4))
    client.force_login(world.users["gm"])
    response = _attack(
        client,
        world,
        form="melee",
        results_key="armed",
        attacker_score=f"{agents['mine'].pk}:other:unskilled_melee",
        defender=str(agents["theirs"].pk),
        shield="small",
        apply_damage="on",
    )
    html = response.content.decode()
    assert response.status_code == 200, html
    assert (
        'column <strong data-testid="attack-column">6</strong> '
        "(Unskilled Melee 66: column 5; small shield +1: column 6)" in html
    )
    assert '<strong data-testid="attack-code">M</strong> Medium Wound: 14 Stamina, 3 wounds' in html
    theirs = agents["theirs"]
    theirs.refresh_from_db()
    assert (
        condition_of(theirs.build)["current_stamina"] == 26
        and condition_of(theirs.build)["wounds_marked"] == 3
    )
    assert theirs.entries.get().kind == "damage_taken"


def test_a_missile_attack_rolls_the_defenders_die_adds_his_luck_and_the_players_log_shows_why(
    world, agents, client, monkeypatch
):
    # defense die 4 + 2 Luck = column 6; percent 1/0 = 10 against 72+10 = 82: margin 72 -> H;
    # damage 3d10x2 with faces 1, 1, 1 = 6 Stamina, 4 wounds
    monkeypatch.setattr(attacks, "system_rng", lambda: Faces(4, 1, 0, 1, 1, 1))
    mine = agents["mine"]
    luck = mine.build["abilities"]["LUCK"]
    client.force_login(world.users["gm"])
    response = _attack(
        client,
        world,
        form="missile",
        missile_class="firearm",
        strike_base="72",
        modifier="10",
        defender=str(mine.pk),
        luck_spent="2",
        shield="large",
        apply_damage="on",
    )
    assert response.status_code == 200, response.content.decode()
    mine.refresh_from_db()
    assert mine.build["abilities"]["LUCK"] == luck - 2
    assert condition_of(mine.build)["wounds_marked"] == 4
    client.force_login(world.users["player"])
    log = client.get(f"/campaigns/{world.campaign.pk}/dice/log/").content.decode()
    assert (
        "defense roll 1d10 = 4; Luck spent +2 (lost for good, hit or miss): 6; "
        "large shield: no help against a firearm" in log
    )
    assert "= 82)" not in log and "base chance" not in log  # the NPC attacker's numbers are the GM's


def test_a_bad_attack_is_a_400_that_names_the_field_and_logs_nothing(world, agents, client):
    client.force_login(world.users["gm"])
    response = _attack(
        client, world, form="missile", strike_base="50", defender=str(agents["mine"].pk), luck_spent="2"
    )
    assert response.status_code == 400
    assert "Name the missile" in response.content.decode()
    assert not Roll.objects.filter(campaign=world.campaign).exists()


def test_an_agents_own_advanced_self_defense_and_florentine_style_move_the_column_without_a_tick(
    world, agents
):
    # characters §4 (L2683, L2711): Dana defends with ASD (+1); Harry attacks Florentine style (-1)
    theirs, mine = agents["theirs"], agents["mine"]
    theirs.build["skills"]["advanced_self_defense"] = {"level": "specialist", "source": "purchase"}
    mine.build["skills"]["florentine_style"] = {"level": "specialist", "source": "purchase"}
    type(theirs).objects.filter(pk=theirs.pk).update(build=theirs.build)
    type(mine).objects.filter(pk=mine.pk).update(build=mine.build)
    theirs.refresh_from_db()
    mine.refresh_from_db()
    attack = attacks.Attack(
        form="melee",
        attacker=mine,
        attacker_score="skill:florentine_style",
        defender=theirs,
        apply_damage=False,
    )
    roll, entries = attacks.resolve(world.membership["gm"], attack, Faces(9, 9))
    assert roll.detail["reasons"] == [
        "Unskilled Melee 66: column 5",
        "defender's Advanced Self-Defense +1: column 6",
        "attacker fights Florentine style -1: column 5",
    ]
    assert entries == []
