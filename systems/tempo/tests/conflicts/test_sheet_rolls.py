"""Click to roll from a Tempo agent's page (campaigns/table/sheet_rolls.py): a role's roll and an aspect
invoked, whose fate point leaves the agent's ledger with the roll; a roll made while the agent is
in a running conflict is filed with the conflict, so only who sees the conflict sees it."""

from __future__ import annotations

import pytest

from campaigns.models import Roll
from characters.models import AdvancementEntry
from systems.tempo import services

pytestmark = pytest.mark.django_db


def test_the_agents_page_has_a_button_per_rated_role_and_per_aspect(client, world, agent):
    client.force_login(world.users["player"])
    html = client.get(f"/characters/{agent.pk}/").content.decode()
    assert 'data-testid="roll-role:soldier"' in html
    assert 'data-testid="roll-aspect:primary"' in html
    client.force_login(world.users["other_player"])
    assert 'data-testid="roll-role:soldier"' not in client.get(f"/characters/{agent.pk}/").content.decode()


def test_a_role_roll_reads_the_outcome_band_and_is_fair(api, world, agent):
    made = api(world.users["player"]).post(
        f"/api/v1/characters/{agent.pk}/rolls/",
        {"spec": "role:soldier", "modifiers": {"bonuses": [2, 1], "penalty_dice": 1}},
        format="json",
    )
    assert made.status_code == 201, made.content
    roll = Roll.objects.get(pk=made.json()["id"])
    assert roll.kind == "3d6_penalty" and roll.count == 1 and len(roll.faces) == 4
    assert roll.total == roll.detail["total"] == sum(roll.kept) + roll.modifier
    assert roll.detail["band_name"] in roll.detail["summary"]
    assert roll.proof.lane == "open"


def test_invoking_an_aspect_spends_a_fate_point_in_the_ledger_with_the_roll(api, world, agent):
    before = agent.build["fate_points"]
    assert before >= 1
    made = api(world.users["player"]).post(
        f"/api/v1/characters/{agent.pk}/rolls/",
        {"spec": "aspect:primary", "modifiers": {"role": "observer", "use": "invoke"}},
        format="json",
    )
    assert made.status_code == 201, made.content
    agent.refresh_from_db()
    assert agent.build["fate_points"] == before - 1
    entry = AdvancementEntry.objects.filter(character=agent).latest("id")
    assert entry.kind == "fate_point_spent" and entry.payload["roll"] == made.json()["id"]


def test_an_aspect_the_agent_cannot_pay_for_is_refused_and_changes_nothing(api, world, agent):
    agent.build["fate_points"] = 0
    agent.save(update_fields=["build"])
    made = api(world.users["player"]).post(
        f"/api/v1/characters/{agent.pk}/rolls/",
        {"spec": "aspect:primary", "modifiers": {"use": "invoke"}},
        format="json",
    )
    assert made.status_code == 400
    error = made.json()["errors"][0]
    assert error["field"] == "modifiers.use" and "has none to spend" in error["message"]
    assert not Roll.objects.exists()
    agent.refresh_from_db()
    assert agent.build["fate_points"] == 0
    assert not AdvancementEntry.objects.filter(character=agent, kind="fate_point_spent").exists()


def test_the_popover_with_no_fate_point_preselects_no_use_disables_invoke_and_says_why(client, world, agent):
    """Issue 44, finding 1: the demo's agents start at 0 fate points; the popover offered Invoke
    first, and its refusal sat below the Roll button, out of view. It now starts on the use that
    costs nothing (the demo walk: a fate point is spent only when the player picks the invoke)."""
    agent.build["fate_points"] = 0
    agent.save(update_fields=["build"])
    client.force_login(world.users["player"])
    html = client.get(f"/characters/{agent.pk}/").content.decode()
    popover = html.split('data-testid="roll-aspect:primary"')[1].split("</form>")[0]
    assert '<option value="invoke" disabled>' in popover
    assert '<option value="none" selected>' in popover
    assert '<option value="trouble">' in popover
    assert 'data-testid="roll-why-not"' in popover and "has none to spend" in popover
    select = popover.split('name="mod-use"')[1].split(">")[0]
    assert "-use-why" in select  # aria-describedby points at the reason
    # the answer area sits with the Roll button, not after the form
    actions = popover.split('class="roll-actions"')[1]
    assert actions.index('data-testid="roll-result"') < actions.index('data-testid="roll-submit"')


def test_the_popover_refusal_of_an_invoke_says_why_and_changes_nothing(client, world, agent):
    agent.build["fate_points"] = 0
    agent.save(update_fields=["build"])
    client.force_login(world.users["player"])
    refused = client.post(
        f"/characters/{agent.pk}/roll/",
        {"spec": "aspect:primary", "mod-role": "observer", "mod-use": "invoke"},
        HTTP_HX_REQUEST="true",
    )
    assert refused.status_code == 400
    body = refused.content.decode()
    assert 'role="alert"' in body and "costs 1 fate point and this agent has none to spend" in body
    assert not Roll.objects.exists()
    made = client.post(
        f"/characters/{agent.pk}/roll/",
        {"spec": "aspect:primary", "mod-role": "observer", "mod-use": "trouble"},
        HTTP_HX_REQUEST="true",
    )
    assert made.status_code == 200 and 'data-testid="roll-line"' in made.content.decode()
    agent.refresh_from_db()
    assert agent.build["fate_points"] == 1
    # the page's popovers were drawn at 0 fate points: the answer says the sheet changed
    assert 'data-testid="roll-sheet-changed"' in made.content.decode()
    role = client.post(f"/characters/{agent.pk}/roll/", {"spec": "role:soldier"}, HTTP_HX_REQUEST="true")
    assert role.status_code == 200 and 'data-testid="roll-sheet-changed"' not in role.content.decode()


def test_a_roll_during_a_conflict_is_filed_with_it_and_hidden_from_players_outside(api, world, agent):
    conflict = services.create_conflict(
        world.tempo_membership["gm"],
        {
            "title": "Rooftops",
            "sides": [{"name": "Kestrel", "characters": [agent.pk]}, {"name": "Stasi", "npcs": ["B"]}],
        },
    )
    made = api(world.users["player"]).post(
        f"/api/v1/characters/{agent.pk}/rolls/", {"spec": "role:athlete"}, format="json"
    )
    roll = Roll.objects.get(pk=made.json()["id"])
    assert roll.detail["conflict"] == conflict.pk and roll.detail["during"]["title"] == "Conflict “Rooftops”"
    base = f"/api/v1/campaigns/{world.tempo.pk}/rolls/{roll.pk}/"
    assert api(world.users["player"]).get(base).status_code == 200
    assert api(world.users["gm"]).get(base).status_code == 200
    assert api(world.users["other_player"]).get(base).status_code == 404
    assert api(world.users["observer"]).get(base).status_code == 404


def test_the_tempo_roll_panel_rolls_on_fair_dice(api, world, agent):
    """The roll panel's dice are one draw of the dice roller from the campaign's seed: 3d6 with
    its bonus or penalty dice when three are kept, plain d6 when an extra or lost die changes the
    count (the rules' reading, keeping three of four, in the detail): both verify after rotation."""
    from campaigns.table import fairness

    client = api(world.users["player"])
    url = f"/api/v1/characters/{agent.pk}/tempo-rolls/"
    made = client.post(url, {"role": "soldier", "bonus_dice": 2, "penalty_dice": 1}, format="json")
    assert made.status_code == 201, made.content
    roll = Roll.objects.get(pk=made.json()["roll"]["id"])
    assert (roll.kind, roll.count, roll.modifier) == ("3d6_bonus", 1, 4)
    assert roll.total == roll.detail["total"] and roll.proof.lane == "open"
    # an extra die (§B4's extreme situation) keeps four: the draw is four plain d6
    extra = client.post(url, {"role": "soldier", "extra_dice": 1}, format="json")
    assert extra.status_code == 201, extra.content
    four = Roll.objects.get(pk=extra.json()["roll"]["id"])
    assert (four.kind, four.count, four.modifier) == ("d6", 4, 4) and four.faces == four.detail["faces"]
    assert four.total == sum(four.faces) + 4 and four.detail["total"] == sum(four.detail["kept"]) + 4
    fairness.rotate(world.tempo_membership["gm"])
    doc = fairness.proof_document(world.tempo, world.users["player"], world.tempo_membership["player"])
    assert sorted(v["verdict"] for v in fairness.verify_document(doc)) == ["verified", "verified"]


def test_a_panel_roll_with_a_helpers_die_proves_its_own_dice(api, world, agent):
    """A helper's die was rolled in the helper's own roll: the row's draw is the agent's three
    fresh dice, the helper's die joins them in the rules' reading (detail, and the purpose)."""
    from campaigns.table import fairness

    client = api(world.users["player"])
    url = f"/api/v1/characters/{agent.pk}/tempo-rolls/"
    body = {"role": "soldier", "help": [{"helper": "Mara", "kept": [6, 5, 2], "total": 13}]}
    made = client.post(url, body, format="json")
    assert made.status_code == 201, made.content
    roll = Roll.objects.get(pk=made.json()["roll"]["id"])
    assert (roll.kind, roll.count) == ("3d6_bonus", 0) and len(roll.faces) == 3
    assert roll.detail["help_dice"] and roll.faces == roll.detail["faces"]
    assert roll.detail["total"] == sum(roll.detail["kept"]) + roll.modifier
    if roll.total != roll.detail["total"]:
        assert f"at {roll.detail['total']}" in roll.purpose
    fairness.rotate(world.tempo_membership["gm"])
    doc = fairness.proof_document(world.tempo, world.users["player"], world.tempo_membership["player"])
    assert [v["verdict"] for v in fairness.verify_document(doc)] == ["verified"]


def test_an_invoke_redraws_the_open_popovers_options_from_the_sheet_as_it_left_it(client, world, agent):
    """The walk's leftover: after an invoke spent the last fate point, the open popover still read
    "1 fate point to spend" and offered Invoke until it was reopened. The answer now carries every
    popover's options drawn again (htmx swaps each into its popover by id, out of band)."""
    agent.build["fate_points"] = 1
    agent.save(update_fields=["build"])
    client.force_login(world.users["player"])
    page = client.get(f"/characters/{agent.pk}/").content.decode()
    before = page.split('data-testid="roll-aspect:primary"')[1].split("</form>")[0]
    anchor = before.split('id="')[1].split('"')[0]
    assert f'id="{anchor}-options"' in before and '<option value="invoke" disabled>' not in before
    made = client.post(
        f"/characters/{agent.pk}/roll/",
        {"spec": "aspect:primary", "mod-role": "observer", "mod-use": "invoke"},
        HTTP_HX_REQUEST="true",
    )
    assert made.status_code == 200
    body = made.content.decode()
    fresh = body.split(f'id="{anchor}-options"')[1].split('<div id="roll-')[0]
    assert 'hx-swap-oob="true"' in body.split(f'id="{anchor}-options"')[1].split(">")[0]
    assert '<option value="invoke" disabled>' in fresh and "has none to spend" in fresh
    title = body.split(f'id="{anchor}-title"')[1].split("</p>")[0]
    assert 'hx-swap-oob="true"' in title and "(0 fate points to spend)" in title
    # a roll that changes nothing on the sheet sends no options again
    role = client.post(f"/characters/{agent.pk}/roll/", {"spec": "role:soldier"}, HTTP_HX_REQUEST="true")
    assert "hx-swap-oob" not in role.content.decode()
