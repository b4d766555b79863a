"""Click to roll from a TIMEMASTER agent's page (campaigns/table/sheet_rolls.py): who sees the buttons,
who may roll, what reaches the log (fair dice, by hand, secret checks, the mission under way), and
bad input refused with nothing logged. The other systems' pages have their own files next to their
fixtures (tests/tempo_conflicts, tests/d6_encounters, systems/time_to_kill/tests/missions)."""

from __future__ import annotations

import re

import pytest

from campaigns.models import Mission, Roll
from campaigns.table import fairness

pytestmark = pytest.mark.django_db

BUTTON = 'data-testid="roll-skill:pistol"'
#: The API routes this file walks for every role (tests/campaigns/test_api_roles.py WALKS_ELSEWHERE).
WALKED_ROUTES = {"api-character-rolls"}


@pytest.fixture
def agent(make_agent):
    return make_agent("player")


def page(client, user, agent):
    client.force_login(user)
    return client.get(f"/characters/{agent.pk}/")


@pytest.mark.parametrize(
    ("who", "buttons"), [("player", True), ("gm", True), ("other_player", False), ("observer", False)]
)
def test_the_buttons_are_for_the_agents_player_and_the_game_master(client, world, agent, who, buttons):
    response = page(client, world.users[who], agent)
    assert response.status_code == 200
    html = response.content.decode()
    assert (BUTTON in html) is buttons
    assert "Pistol" in html  # the score is on the page either way
    if buttons:
        assert 'popovertarget="roll-' in html and 'name="spec" value="skill:pistol"' in html


def test_an_outsider_gets_404_for_the_page_the_roll_and_the_api(client, api, world, agent):
    assert page(client, world.users["outsider"], agent).status_code == 404
    assert client.post(f"/characters/{agent.pk}/roll/", {"spec": "skill:pistol"}).status_code == 404
    assert api(world.users["outsider"]).get(f"/api/v1/characters/{agent.pk}/rolls/").status_code == 404
    assert (
        api(world.users["outsider"])
        .post(f"/api/v1/characters/{agent.pk}/rolls/", {"spec": "skill:pistol"}, format="json")
        .status_code
        == 404
    )
    assert not Roll.objects.exists()


def test_the_player_rolls_a_skill_onto_the_campaigns_fair_dice(client, world, agent):
    client.force_login(world.users["player"])
    response = client.post(
        f"/characters/{agent.pk}/roll/",
        {"spec": "skill:pistol", "mod-check": "specific", "mod-modifier": "-5"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    roll = Roll.objects.get()
    assert (roll.character, roll.roller, roll.kind, roll.secret) == (
        agent,
        world.users["player"],
        "percent",
        False,
    )
    assert roll.detail["sheet_roll"]["key"] == "skill:pistol" and roll.detail["target"] == 74
    assert roll.detail["check"] == "specific" and roll.detail["column"] == 3
    assert roll.proof.lane == "open" and not roll.proof.by_hand
    assert "Pistol (Specialist) check (-5)" in response.content.decode()
    # the campaign's dice log shows it with its reading
    log = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert "Pistol (Specialist) check (-5)" in log and f"({agent.name})" in log
    # and it verifies once the seed is revealed
    fairness.rotate(world.membership["gm"])
    doc = fairness.proof_document(world.campaign, world.users["player"], world.membership["player"])
    assert [v["verdict"] for v in fairness.verify_document(doc)] == ["verified"]


def test_without_javascript_the_form_posts_and_comes_back_to_the_page_with_the_result(client, world, agent):
    client.force_login(world.users["gm"])
    response = client.post(f"/characters/{agent.pk}/roll/", {"spec": "ability:DEX"}, follow=True)
    assert response.redirect_chain[-1][0] == f"/characters/{agent.pk}/"
    assert "Dexterity check" in response.content.decode()
    assert Roll.objects.get().roller == world.users["gm"]


@pytest.mark.parametrize("who", ["other_player", "observer"])
def test_another_player_or_an_observer_may_not_roll_for_the_agent(client, api, world, agent, who):
    client.force_login(world.users[who])
    assert (
        client.post(
            f"/characters/{agent.pk}/roll/", {"spec": "skill:pistol"}, HTTP_HX_REQUEST="true"
        ).status_code
        == 403
    )
    response = api(world.users[who]).post(
        f"/api/v1/characters/{agent.pk}/rolls/", {"spec": "skill:pistol"}, format="json"
    )
    assert response.status_code == 403
    assert api(world.users[who]).get(f"/api/v1/characters/{agent.pk}/rolls/").json() == []
    assert not Roll.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"spec": "skill:juggling"}, "spec"),
        ({"spec": ""}, "spec"),
        ({"spec": "skill:pistol", "modifiers": {"modifier": "lots"}}, "modifiers.modifier"),
        ({"spec": "skill:pistol", "modifiers": {"modifier": 9999}}, "modifiers.modifier"),
        ({"spec": "skill:pistol", "modifiers": {"luck": 1}}, "modifiers.luck"),
        ({"spec": "skill:pistol", "modifiers": {"check": "specific", "column": "0"}}, "modifiers.column"),
        ({"spec": "skill:pistol", "faces": [1, 2, 3]}, "faces"),
        ({"spec": "skill:pistol", "faces": [11]}, "faces"),
        ({"spec": "skill:pistol", "faces": [1]}, "faces"),
        ({"spec": ["skill:pistol"]}, "spec"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_logs_nothing(api, world, agent, body, field):
    before = agent.revision
    response = api(world.users["player"]).post(f"/api/v1/characters/{agent.pk}/rolls/", body, format="json")
    assert response.status_code == 400, response.content
    assert any(e["field"].startswith(field) for e in response.json()["errors"]), response.json()
    assert not Roll.objects.exists()
    agent.refresh_from_db()
    assert agent.revision == before


def test_a_bad_modifier_on_the_page_is_shown_in_the_popover_and_logs_nothing(client, world, agent):
    client.force_login(world.users["player"])
    response = client.post(
        f"/characters/{agent.pk}/roll/", {"spec": "skill:pistol", "mod-modifier": "x"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert "Modifier to the score must be a whole number" in response.content.decode()
    assert not Roll.objects.exists()


def test_the_api_lists_the_rolls_and_makes_one(api, world, agent):
    client = api(world.users["player"])
    specs = client.get(f"/api/v1/characters/{agent.pk}/rolls/").json()
    by_key = {s["key"]: s for s in specs}
    assert by_key["ability:DEX"]["value"] == "64" and by_key["skill:investigation"]["secret"] is True
    made = client.post(
        f"/api/v1/characters/{agent.pk}/rolls/",
        {"spec": "ability:DEX", "modifiers": {"modifier": 5}},
        format="json",
    )
    assert made.status_code == 201
    body = made.json()
    assert body["character"] == agent.pk and body["detail"]["target"] == 69 and body["total"] is not None


def test_a_secret_check_shows_the_player_only_that_it_was_made(client, api, world, agent):
    client.force_login(world.users["player"])
    response = client.post(
        f"/characters/{agent.pk}/roll/", {"spec": "skill:investigation"}, HTTP_HX_REQUEST="true"
    )
    text = response.content.decode()
    roll = Roll.objects.get()
    assert roll.secret and roll.sealed and roll.proof.lane == "secret"
    # the line the player reads names no number at all (ids elsewhere in the answer may hold digits)
    line = re.search(r'<p class="roll-line"[^>]*>(.*?)</p>', text, re.S).group(1)
    assert "the game master has the result" in line and not re.search(r"\d", line)
    mine = api(world.users["player"]).get(f"/api/v1/campaigns/{world.campaign.pk}/rolls/{roll.pk}/").json()
    assert mine["sealed"] and mine["total"] is None and mine["detail"] == {} and mine["faces"] == []
    theirs = api(world.users["gm"]).get(f"/api/v1/campaigns/{world.campaign.pk}/rolls/{roll.pk}/").json()
    assert theirs["total"] == roll.total and theirs["detail"]["score_key"] == "skill:investigation"
    # by the API too, the player's answer carries no result
    made = api(world.users["player"]).post(
        f"/api/v1/characters/{agent.pk}/rolls/", {"spec": "talent:telepathic_probe"}, format="json"
    )
    assert made.status_code == 201 and made.json()["total"] is None and made.json()["detail"] == {}


def test_dice_rolled_at_the_table_are_entered_by_hand_and_marked(client, world, agent):
    client.force_login(world.users["player"])
    response = client.post(
        f"/characters/{agent.pk}/roll/", {"spec": "skill:pistol", "faces": "0 7"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    roll = Roll.objects.get()
    assert roll.faces == [0, 7] and roll.total == 7 and roll.detail["success"] is True
    assert roll.proof.by_hand
    assert "entered by hand, not verifiable" in response.content.decode()
    log = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert 'data-testid="log-by-hand"' in log


def test_a_roll_made_on_a_mission_under_way_is_filed_with_it(api, world, agent):
    mission = Mission.objects.create(campaign=world.campaign, title="Rome", status=Mission.Status.ACTIVE)
    mission.agents.add(agent)
    elsewhere = Mission.objects.create(campaign=world.campaign, title="Paris", status=Mission.Status.ACTIVE)
    made = api(world.users["player"]).post(
        f"/api/v1/characters/{agent.pk}/rolls/", {"spec": "ability:STR"}, format="json"
    )
    roll = Roll.objects.get(pk=made.json()["id"])
    assert roll.mission == mission != elsewhere
    assert roll.detail["during"]["title"] == "Mission “Rome”"


def test_a_draft_offers_no_rolls(client, world):
    from characters import services
    from tests.characters.conftest import agent_choices

    draft = services.create_draft(world.campaign, world.users["player"], choices=agent_choices())
    client.force_login(world.users["player"])
    assert (
        client.post(
            f"/characters/{draft.pk}/roll/", {"spec": "ability:STR"}, HTTP_HX_REQUEST="true"
        ).status_code
        == 400
    )
    assert not Roll.objects.exists()


@pytest.mark.parametrize(
    ("who", "listed", "made"),
    [
        ("player", True, 201),
        ("gm", True, 201),
        ("other_player", False, 403),
        ("observer", False, 403),
        ("outsider", None, 404),
        (None, None, 401),
    ],
)
def test_the_rolls_api_for_every_role(api, world, agent, who, listed, made):
    client = api(world.users[who] if who else None)
    url = f"/api/v1/characters/{agent.pk}/rolls/"
    got = client.get(url)
    if listed is None:
        assert got.status_code == made
    else:
        assert got.status_code == 200 and bool(got.json()) is listed
    posted = client.post(url, {"spec": "ability:STR"}, format="json")
    assert posted.status_code == made
    assert Roll.objects.count() == (1 if made == 201 else 0)


def test_a_player_never_types_the_dice_of_a_secret_check(client, api, world, agent):
    """Issue 48, finding 4: the owner posting faces for a secret check got 201 and chose, and knew,
    its result. Refused on the API and the form alike, with a clear message; nothing is logged."""
    made = api(world.users["player"]).post(
        f"/api/v1/characters/{agent.pk}/rolls/",
        {"spec": "skill:investigation", "faces": [0, 1]},
        format="json",
    )
    assert made.status_code == 400
    assert "never typed by a player" in str(made.json())
    client.force_login(world.users["player"])
    response = client.post(
        f"/characters/{agent.pk}/roll/",
        {"spec": "skill:investigation", "faces": "0 1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400 and "never typed by a player" in response.content.decode()
    # the dice page's form and API for rolls by hand refuse a secret roll from a player too
    hand = api(world.users["player"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/rolls-by-hand/",
        {"kind": "percent", "faces": [0, 1], "secret": True},
        format="json",
    )
    assert hand.status_code == 400 and "never typed by a player" in str(hand.json())
    assert not Roll.objects.exists()
    # the popover offers the player no faces to type for it; the GM may still enter them
    html = page(client, world.users["player"], agent).content.decode()
    popover = html.split('name="spec" value="skill:investigation"')[1].split("</form>")[0]
    assert 'name="faces"' not in popover
    by_gm = api(world.users["gm"]).post(
        f"/api/v1/characters/{agent.pk}/rolls/",
        {"spec": "skill:investigation", "faces": [0, 1]},
        format="json",
    )
    assert by_gm.status_code == 201 and Roll.objects.get().proof.by_hand


def test_click_to_roll_costs_a_fixed_number_of_statements_and_reads_the_build_alone(client, world, agent):
    """The click-to-roll request as htmx sends it (issue 47: the server's CPU per roll): at most 12
    statements on PostgreSQL, 14 on SQLite, in a test's transaction: the session, the user, the
    savepoint of the roll's transaction (BEGIN outside a test), the character with its campaign and
    the user's membership, locked, the mission under way, the fair dice's counter taken with the
    players' seeds, the roll, its proof, the Merkle logs locked, their leaves, nodes and heads
    written (one statement on PostgreSQL, up to three on SQLite), the live event, and the release
    (COMMIT). Of the character's JSON only the build is read, once (the draft's choices and the
    creation build were decoded twice a roll, the build twice; the character was read twice)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(world.users["player"])
    url, body = f"/characters/{agent.pk}/roll/", {"spec": "skill:pistol"}
    assert client.post(url, body, headers={"HX-Request": "true"}).status_code == 200  # warm-up
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, body, headers={"HX-Request": "true"})
    assert response.status_code == 200 and b"roll-line" in response.content
    statements = [q["sql"] for q in captured.captured_queries]
    character_reads = [sql for sql in statements if 'FROM "characters_character"' in sql]
    assert len(character_reads) == 1, character_reads  # the access check, locked for the roll
    assert not any('"creation_build"' in sql or '"choices"' in sql for sql in character_reads)
    assert sum('"characters_character"."build"' in sql for sql in character_reads) == 1
    assert sum('"campaigns_membership"' in sql for sql in statements) == 2  # with the character; the seeds
    if connection.vendor == "postgresql":
        assert character_reads[0].endswith('FOR UPDATE OF "characters_character"')
    assert len(statements) <= (12 if connection.vendor == "postgresql" else 14), "\n".join(statements)
