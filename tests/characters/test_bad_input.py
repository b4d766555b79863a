"""Bad input gets a 4xx naming the field, in the engine's words, and changes nothing."""

from __future__ import annotations

import pytest

from characters.models import AdvancementEntry, Character

from .conftest import agent_choices

BASE = "/api/v1/campaigns/{c}/characters/"


def _fields(response):
    return {e["field"] for e in response.json()["errors"]}


@pytest.mark.parametrize(
    "body, field",
    [
        ({"choices": ["not", "an", "object"]}, "choices"),
        ({"choices": "text"}, "choices"),
        ({"choices": {"name": "x" * 60_000}}, "choices"),
    ],
)
def test_creating_a_draft_with_bad_choices_is_refused(world, api, body, field):
    response = api(world.users["player"]).post(BASE.format(c=world.campaign.pk), body, format="json")
    assert response.status_code == 400
    assert field in _fields(response)
    assert not Character.objects.exists()


def test_a_body_that_is_not_json_is_a_400_not_a_500(world, api):
    client = api(world.users["player"])
    response = client.generic(
        "POST", BASE.format(c=world.campaign.pk), "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert not Character.objects.exists()


def test_updating_a_draft_with_bad_choices_changes_nothing(world, api):
    client = api(world.users["player"])
    base = BASE.format(c=world.campaign.pk)
    pk = client.post(base, {"choices": {"name": "Kept"}}, format="json").json()["id"]
    response = client.patch(f"{base}{pk}/", {"choices": [1, 2]}, format="json")
    assert response.status_code == 400 and "choices" in _fields(response)
    assert Character.objects.get(pk=pk).choices == {"name": "Kept"}


@pytest.mark.parametrize(
    "changes, field, words",
    [
        (
            {"background": {**agent_choices()["background"], "birth_year": 9000}},
            "background.birth_year",
            "7171",
        ),
        ({"abilities": {**agent_choices()["abilities"], "STR": 85}}, "abilities.STR", "85"),
        ({"abilities": {**agent_choices()["abilities"], "STR": 71}}, "abilities.STR", "odd"),
        ({"talent": "paranormal_memory"}, "talent", "Paranormal Memory"),
        ({"skills": ["investigation"]}, "skills", "exactly"),
        ({"name": ""}, "name", "name"),
    ],
)
def test_finalizing_an_illegal_draft_names_the_field_and_leaves_it_a_draft(world, api, changes, field, words):
    gm = api(world.users["gm"])
    base = BASE.format(c=world.campaign.pk)
    pk = gm.post(base, {"choices": agent_choices(**changes)}, format="json").json()["id"]
    response = gm.post(f"{base}{pk}/finalize/")
    assert response.status_code == 400, response.content
    errors = [e for e in response.json()["errors"] if e["field"] == field]
    assert errors, response.json()
    assert any(words.lower() in e["message"].lower() for e in errors)
    character = Character.objects.get(pk=pk)
    assert character.status == "draft" and character.revision == 0 and character.build == {}


def test_a_client_cannot_supply_its_own_ability_roll(world, api):
    forged = {"values": [80] * 8, "dice": [[10, 10, 10]] * 8, "rerolls_used": 0, "history": []}
    client = api(world.users["player"])
    base = BASE.format(c=world.campaign.pk)
    sneaky = {"ability_roll": forged, "manual_values": ["a", None], "settings": {"hopeless_reroll_rounds": 5}}
    pk = client.post(base, {"choices": sneaky}, format="json").json()["id"]
    client.patch(f"{base}{pk}/", {"choices": sneaky}, format="json")
    assert set(sneaky).isdisjoint(Character.objects.get(pk=pk).choices)
    # the wizard still opens: the numbers step asks for a roll
    client.force_login(world.users["player"])
    assert client.get(f"/characters/{pk}/build/assign/").status_code == 302


def test_a_player_cannot_give_the_gms_confirmations_but_the_gm_can(world, api):
    player, gm = api(world.users["player"]), api(world.users["gm"])
    base = BASE.format(c=world.campaign.pk)
    pk = player.post(base, {"choices": agent_choices(cm_approvals=["skills"])}, format="json").json()["id"]
    assert "cm_approvals" not in Character.objects.get(pk=pk).choices
    gm.patch(
        f"{base}{pk}/", {"choices": {"cm_approvals": ["skills", "background.profession"]}}, format="json"
    )
    player.patch(f"{base}{pk}/", {"choices": {"cm_approvals": []}}, format="json")
    assert Character.objects.get(pk=pk).choices["cm_approvals"] == ["skills", "background.profession"]
    assert player.post(f"{base}{pk}/finalize/").status_code == 200


def test_finalizing_twice_is_refused(world, api, make_agent):
    agent = make_agent("player")
    response = api(world.users["gm"]).post(f"{BASE.format(c=world.campaign.pk)}{agent.pk}/finalize/")
    assert response.status_code == 400 and "status" in _fields(response)
    assert Character.objects.get(pk=agent.pk).revision == 1


@pytest.mark.parametrize(
    "body, field", [({}, "reason"), ({"reason": ""}, "reason"), ({"reason": "x" * 501}, "reason")]
)
def test_revert_needs_a_reason(world, api, make_agent, award, body, field):
    agent = make_agent("player")
    entry = award(agent, session=1)
    url = f"{BASE.format(c=world.campaign.pk)}{agent.pk}/entries/{entry.pk}/revert/"
    response = api(world.users["gm"]).post(url, body, format="json")
    assert response.status_code == 400 and field in _fields(response)
    assert AdvancementEntry.objects.count() == 1
    assert Character.objects.get(pk=agent.pk).revision == 2


def test_reverting_twice_or_reverting_a_reversal_is_refused(world, api, make_agent, award):
    agent = make_agent("player")
    entry = award(agent, session=1)
    base = f"{BASE.format(c=world.campaign.pk)}{agent.pk}/entries/"
    gm = api(world.users["gm"])
    reversal = gm.post(f"{base}{entry.pk}/revert/", {"reason": "mistake"}, format="json").json()
    again = gm.post(f"{base}{entry.pk}/revert/", {"reason": "again"}, format="json")
    undo_undo = gm.post(f"{base}{reversal['id']}/revert/", {"reason": "again"}, format="json")
    assert again.status_code == 400 and "entry" in _fields(again)
    assert undo_undo.status_code == 400 and "entry" in _fields(undo_undo)
    assert AdvancementEntry.objects.count() == 2
    assert Character.objects.get(pk=agent.pk).revision == 3


def test_reverting_an_entry_of_another_character_is_404(world, api, make_agent, award):
    agent, other = make_agent("player"), make_agent("other_player", name="Other")
    entry = award(other, session=1)
    url = f"{BASE.format(c=world.campaign.pk)}{agent.pk}/entries/{entry.pk}/revert/"
    assert api(world.users["gm"]).post(url, {"reason": "x"}, format="json").status_code == 404
    assert AdvancementEntry.objects.count() == 1


@pytest.mark.parametrize("path", ["99999999/", "123456789012345678901234/", "abc/"])
def test_unknown_ids_are_404(world, api, path):
    response = api(world.users["gm"]).get(BASE.format(c=world.campaign.pk) + path)
    assert response.status_code == 404
