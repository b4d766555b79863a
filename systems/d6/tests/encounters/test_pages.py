"""Encounter pages for every persona, the htmx panel, bad form input, and the D6 character builder."""

from __future__ import annotations

import pytest

from characters.models import Character
from systems.d6 import services
from systems.d6.models import Encounter, EncounterEvent, Participant

PAGE_STATUS = {"gm": 200, "player": 200, "other_player": 200, "observer": 200, "outsider": 404}


def _pages(d6, encounter):
    c = d6.campaign.pk
    return [
        f"/campaigns/{c}/encounters/",
        f"/campaigns/{c}/encounters/{encounter.pk}/",
        f"/campaigns/{c}/encounters/{encounter.pk}/panel/",
    ]


@pytest.mark.parametrize("role", PAGE_STATUS)
def test_encounter_pages_for_every_role(d6, running, client, role):
    client.force_login(d6.users[role])
    for url in _pages(d6, running):
        assert client.get(url).status_code == PAGE_STATUS[role], url


def test_anonymous_visitors_are_sent_to_log_in(d6, running, client):
    for url in _pages(d6, running):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    "role, path, data, expected",
    [
        ("player", "", {"name": "Mine"}, 403),
        ("observer", "", {"name": "Mine"}, 403),
        ("outsider", "", {"name": "Mine"}, 404),
        ("player", "SETUP/participants/", {"name": "X", "perception": "2D", "reflexes": "2D"}, 403),
        ("player", "SETUP/start/", {}, 403),
        ("observer", "RUN/event/", {"type": "begin_round"}, 403),
        ("player", "RUN/event/", {"type": "begin_round"}, 403),
        ("outsider", "RUN/event/", {"type": "begin_round"}, 404),
    ],
)
def test_only_the_gm_runs_the_encounter_from_the_pages(d6, running, client, role, path, data, expected):
    setup = services.create_encounter(d6.campaign, d6.users["gm"], name="Alley")
    client.force_login(d6.users[role])
    url = f"/campaigns/{d6.campaign.pk}/encounters/" + path.replace("SETUP", str(setup.pk)).replace(
        "RUN", str(running.pk)
    )
    before = (Encounter.objects.count(), Participant.objects.count(), EncounterEvent.objects.count())
    assert client.post(url, data).status_code == expected
    assert (Encounter.objects.count(), Participant.objects.count(), EncounterEvent.objects.count()) == before


def test_the_gm_sets_up_and_runs_a_round_through_the_panel(d6, client):
    client.force_login(d6.users["gm"])
    c = d6.campaign.pk
    response = client.post(f"/campaigns/{c}/encounters/", {"name": "Pier", "method": "every_round"})
    encounter = Encounter.objects.get()
    assert response.status_code == 302 and encounter.method == "every_round"
    base = f"/campaigns/{c}/encounters/{encounter.pk}/"
    hx = {"HTTP_HX_REQUEST": "true"}
    assert client.post(base + "participants/", {"character": d6.ada.pk}, **hx).status_code == 200
    npc = {"name": "Dogs", "kind": "group", "members": "Rex, Fang", "perception": "2D", "reflexes": "4D"}
    npc["other_skills"] = "bite, Reflexes, 5D"
    response = client.post(base + "participants/", npc, **hx)
    assert response.status_code == 200 and "Dogs" in response.content.decode()
    assert client.post(base + "start/", **hx).status_code == 200
    for data in ({"type": "begin_round"}, {"type": "roll_initiative", f"cp_character-{d6.ada.pk}": "1"}):
        assert client.post(base + "event/", data, **hx).status_code == 200
    encounter.refresh_from_db()
    assert encounter.state["participants"][f"character-{d6.ada.pk}"]["character_points_spent"] == 1
    first = encounter.state["order"][0]
    response = client.post(base + "event/", {"type": "declare", "participant": first, "actions": "3"}, **hx)
    html = response.content.decode()
    assert f'data-testid="penalty-{first}">-2D<' in html
    assert "higher initiative total" in html or "tie-break" in html


@pytest.mark.parametrize(
    "data, words",
    [
        (
            {"type": "declare", "participant": "FIRST", "actions": "lots"},
            "Number of actions must be a whole number",
        ),
        ({"type": "declare", "participant": "FIRST", "actions": "99"}, "from 0 to 40"),
        ({"type": "fly"}, "Type: "),  # the field in words, not its code
        (
            {"type": "act", "participant": "FIRST", "action": "punch", "trait": "brawling"},
            "declares how many",
        ),
    ],
)
def test_bad_form_input_is_a_400_in_the_panel_and_changes_nothing(d6, running, client, data, words):
    gm = d6.membership["gm"]
    services.record_event(running, gm, {"type": "begin_round"})
    services.record_event(running, gm, {"type": "order_without_rolls"})
    count = running.event_count
    first = running.state["order"][0]
    client.force_login(d6.users["gm"])
    data = {k: (first if v == "FIRST" else v) for k, v in data.items()}
    url = f"/campaigns/{d6.campaign.pk}/encounters/{running.pk}/event/"
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert words in response.content.decode()
    assert Encounter.objects.get(pk=running.pk).event_count == count


def test_a_bad_npc_code_is_named_in_the_setup_panel(d6, client):
    encounter = services.create_encounter(d6.campaign, d6.users["gm"], name="Alley")
    client.force_login(d6.users["gm"])
    url = f"/campaigns/{d6.campaign.pk}/encounters/{encounter.pk}/participants/"
    response = client.post(url, {"name": "Dog", "perception": "3Q", "reflexes": "2D"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "Attributes Perception: &#x27;3Q&#x27; is not a die code" in response.content.decode()
    response = client.post(
        url, {"name": "Dog", "perception": "3D", "reflexes": "2D", "other_skills": "bite 4D"}
    )
    assert response.status_code == 400 and "Line 1" in response.content.decode()
    assert not Participant.objects.exists()


@pytest.mark.parametrize("role", ("player", "other_player", "observer"))
def test_player_pages_hold_no_npc_statistics(d6, running, client, role):
    gm = d6.membership["gm"]
    services.record_event(running, gm, {"type": "begin_round"})
    services.record_event(running, gm, {"type": "roll_initiative"})
    setup = services.create_encounter(d6.campaign, d6.users["gm"], name="Alley")
    services.add_npc(setup, {"name": "Guard", "attributes": {"Perception": "2D+1", "Reflexes": "2D"}})
    client.force_login(d6.users[role])
    html = client.get(f"/campaigns/{d6.campaign.pk}/encounters/{running.pk}/").content.decode()
    html += client.get(f"/campaigns/{d6.campaign.pk}/encounters/{setup.pk}/").content.decode()
    for secret in ("2D+1", "4D+2", "Thug 1", "Perception 2D"):
        assert secret not in html, secret
    thugs_total = running.state["initiative"]["totals"]["group-1"]
    assert f'data-testid="total-group-1">{thugs_total}<' not in html
    # a player-run character's total is the table's: the order shows what the log says (a new
    # user saw "—" beside a character whose log line read "rolls 4 for initiative")
    state = Encounter.objects.get(pk=running.pk).state
    for pid, participant in state["participants"].items():
        if participant["controlled_by"] != "gm":
            total = state["initiative"]["totals"][pid]
            assert f'data-testid="total-{pid}">{total}<' in html, pid


def test_the_panel_costs_the_same_queries_for_more_participants(d6, client, django_assert_max_num_queries):
    def encounter_with(npcs):
        encounter = services.create_encounter(d6.campaign, d6.users["gm"], name=f"With {npcs}")
        services.add_character(encounter, d6.ada.pk)
        for number in range(npcs):
            services.add_npc(
                encounter, {"name": f"N{number}", "attributes": {"Perception": "2D", "Reflexes": "2D"}}
            )
        encounter = services.start_encounter(encounter)
        services.record_event(encounter, d6.membership["gm"], {"type": "begin_round"})
        services.record_event(encounter, d6.membership["gm"], {"type": "roll_initiative"})
        return encounter

    small, large = encounter_with(2), encounter_with(12)
    for role in ("gm", "player"):
        client.force_login(d6.users[role])
        with django_assert_max_num_queries(20) as few:
            client.get(f"/campaigns/{d6.campaign.pk}/encounters/{small.pk}/panel/")
        with django_assert_max_num_queries(len(few.captured_queries)):
            client.get(f"/campaigns/{d6.campaign.pk}/encounters/{large.pk}/panel/")


def test_the_encounters_tab_shows_on_d6_campaigns(d6, client):
    client.force_login(d6.users["player"])
    html = client.get(f"/campaigns/{d6.campaign.pk}/npcs/").content.decode()
    assert f"/campaigns/{d6.campaign.pk}/encounters/" in html


def test_encounter_pages_are_404_on_other_systems(world, client):
    client.force_login(world.users["gm"])
    assert client.get(f"/campaigns/{world.campaign.pk}/encounters/").status_code == 404


# -- the D6 character builder ------------------------------------------------------------------------
def _errors(response):
    return [line.strip() for line in response.content.decode().splitlines() if 'class="error"' in line]


def test_a_player_builds_a_d6_character_step_by_step(d6, client):
    client.force_login(d6.users["player"])
    response = client.post(f"/campaigns/{d6.campaign.pk}/characters/new/")
    draft = Character.objects.get(status="draft")
    assert response["Location"].endswith(f"/characters/{draft.pk}/build/identity/")
    base = f"/characters/{draft.pk}/build/"
    identity = {
        "name": "Cass",
        "action_allotment": "2",
        "character_points": "5",
        "fate_points": "1",
        "move": "10",
    }
    assert client.post(base + "identity/", identity).status_code == 302
    html = client.get(base + "attributes/").content.decode()
    assert 'value="Perception"' in html and 'value="Reflexes"' in html
    attributes = {
        "name_0": "Perception",
        "code_0": "3d+1",
        "name_1": "Reflexes",
        "code_1": "3D",
        "name_2": "Strength",
        "code_2": "2D+2",
    }
    assert client.post(base + "attributes/", attributes).status_code == 302
    html = client.get(base + "skills/").content.decode()
    assert 'value="search"' in html and 'value="dodge"' in html
    skills = {
        "name_0": "search", "attribute_0": "Perception", "code_0": "5D+1",
        "name_1": "dodge", "attribute_1": "Reflexes", "code_1": "4D",
        "name_2": "brawling", "attribute_2": "Strength", "code_2": "3D",
    }  # fmt: skip
    response = client.post(base + "skills/", skills)
    assert response.status_code == 302 and response["Location"].endswith("/build/extras/")
    extras = {
        "ability_name_0": "Skill Bonus", "ability_ranks_0": "6", "ability_affects_0": "search",
        "item_name_0": "Pistol", "item_quick_0": "on", "item_uses_0": "3",
    }  # fmt: skip
    assert client.post(base + "extras/", extras).status_code == 302
    assert client.get(base + "review/").status_code == 200
    response = client.post(base + "review/")
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == "active" and draft.build["attributes"]["Perception"] == "3D+1"
    assert draft.build["action_allotment"] == 2 and draft.build["character_points"] == 5
    assert draft.build["special_abilities"][0]["ranks"] == 6
    assert draft.build["equipment"][0] == {"name": "Pistol", "quick_multi_use": True, "uses_per_round": 3}
    html = client.get(f"/characters/{draft.pk}/").content.decode()
    assert 'data-testid="initiative">3D+1<' in html and 'data-testid="allotment">2<' in html
    assert "brawling" in html and "-1D" in html  # the penalty strip starts after the allotment
    # optional bonus: search 2D over Perception (+1) and 6 ranks of Skill Bonus on search (+1)
    assert "+2" in html and "Pistol: 3 per round" in html


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"name_0": "Perception", "code_0": "3Q", "name_1": "Reflexes", "code_1": "3D"},
            "Perception code: &#x27;3Q&#x27; is not a die code",
        ),
        (
            {"name_0": "Perception", "code_0": "3D", "name_1": "Reflexes", "code_1": "2D+3"},
            "Reflexes code: &#x27;2D+3&#x27; has 3 pips, but 3 pips make 1D: write it as 3D.",
        ),
        ({"name_0": "Perception", "code_0": "3D"}, "Every D6 character needs Reflexes"),
        ({"name_0": "Perception", "code_0": "0D", "name_1": "Reflexes", "code_1": "3D"}, "has no dice"),
        ({"name_0": "", "code_0": "3D", "name_1": "Reflexes", "code_1": "3D"}, "Give this attribute a name"),
    ],
)
def test_bad_attribute_codes_are_named_by_their_field(d6, client, data, message):
    client.force_login(d6.users["player"])
    client.post(f"/campaigns/{d6.campaign.pk}/characters/new/")
    draft = Character.objects.get(status="draft")
    response = client.post(f"/characters/{draft.pk}/build/attributes/", data)
    assert response.status_code == 400
    assert message in response.content.decode(), _errors(response)


def test_bad_skill_codes_are_named_by_their_field(d6, client):
    client.force_login(d6.users["player"])
    client.post(f"/campaigns/{d6.campaign.pk}/characters/new/")
    draft = Character.objects.get(status="draft")
    base = f"/characters/{draft.pk}/build/"
    client.post(
        base + "attributes/", {"name_0": "Perception", "code_0": "3D", "name_1": "Reflexes", "code_1": "3D"}
    )
    data = {
        "name_0": "search", "attribute_0": "Perception", "code_0": "4D-1",
        "name_1": "dodge", "attribute_1": "Perception", "code_1": "3D",
    }  # fmt: skip
    response = client.post(base + "skills/", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "search code: &#x27;4D-1&#x27; is not a die code" in html
    assert "dodge attribute: The dodge skill is based on Reflexes." in html


def test_an_observer_cannot_build_and_a_draft_resumes_where_it_stands(d6, client):
    client.force_login(d6.users["observer"])
    assert client.post(f"/campaigns/{d6.campaign.pk}/characters/new/").status_code == 403
    client.force_login(d6.users["player"])
    client.post(f"/campaigns/{d6.campaign.pk}/characters/new/")
    draft = Character.objects.get(status="draft")
    client.post(
        f"/characters/{draft.pk}/build/identity/",
        {"name": "Dee", "action_allotment": "1", "character_points": "0", "fate_points": "0"},
    )
    html = client.get(f"/characters/{draft.pk}/").content.decode()
    assert f"/characters/{draft.pk}/build/attributes/" in html
    # Someone else's draft is not there for another player.
    client.force_login(d6.users["other_player"])
    assert client.get(f"/characters/{draft.pk}/build/identity/").status_code == 404


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"ability_name_0": "Skill Bonus", "ability_affects_0": "lockpicking"},
            "affects (traits, comma-separated): &#x27;lockpicking&#x27; is not one of",
        ),
        (
            {"item_name_0": "Rifle", "item_uses_0": "3"},
            "Rifle uses per round: Only gear built for quick repeated use",
        ),
        (
            {"ability_name_0": "Skill Bonus", "ability_ranks_0": "0"},
            "ranks: Ensure this value is greater than or equal to 1.",
        ),
    ],
)
def test_bad_abilities_and_gear_are_named_by_their_row(d6, client, data, message):
    client.force_login(d6.users["player"])
    client.post(f"/campaigns/{d6.campaign.pk}/characters/new/")
    draft = Character.objects.get(status="draft")
    base = f"/characters/{draft.pk}/build/"
    client.post(
        base + "attributes/", {"name_0": "Perception", "code_0": "3D", "name_1": "Reflexes", "code_1": "3D"}
    )
    response = client.post(base + "extras/", data)
    assert response.status_code == 400
    assert message in response.content.decode(), _errors(response)
