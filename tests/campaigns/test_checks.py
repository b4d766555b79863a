"""TIMEMASTER checks in the dice roller: the book's example, who may roll for which agent, secret
checks, the log showing roll/margin/column/letter, and bad input that logs nothing."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaigns import services
from campaigns.models import Mission, Roll
from systems.timemaster import action_checks as checks
from systems.timemaster.tests.helpers import ASSIGNMENT
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

ROLES = ("gm", "player", "other_player", "observer", "outsider", "anonymous")
# Dexterity 72 as in the book's example (timemaster-play.md §2.2): the player's agent.
BOOK_ABILITIES = {**ASSIGNMENT, "STR": ASSIGNMENT["DEX"], "DEX": 72}

#: API routes this module walks for every role (wired into test_api_roles by the integrator).
WALKED_ROUTES = {"api-check", "api-check-scores"}


class Faces(random.Random):
    """An rng whose d10 faces (0-9) come from a list: percentile 5 then 2 reads 52."""

    def __init__(self, *faces: int):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):  # noqa: D102
        return self.faces.pop(0)


@pytest.fixture
def agents(world, make_agent):  # noqa: F811
    mine = make_agent("player", abilities=dict(BOOK_ABILITIES))
    theirs = make_agent("other_player", name="Dana Quill")
    return {"mine": mine, "theirs": theirs}


def _client(api, world, role):
    return api(None if role == "anonymous" else world.users[role])


# --- the service --------------------------------------------------------------------------------


def test_book_example_dexterity_72_rolled_52_gives_margin_20_and_column_5_reads_m(world, agents):
    roll = checks.roll_check(
        world.membership["player"],
        agents["mine"],
        "ability:DEX",
        kind="specific",
        defense_column=5,
        results_key="armed",
        rng=Faces(5, 2),
    )
    assert roll.kind == "percent" and roll.total == 52 and roll.faces == [5, 2]
    d = roll.detail
    assert (d["score"], d["roll"], d["success"], d["margin"], d["row"]) == (72, 52, True, 20, "10-29")
    assert (d["column"], d["code"], d["letter"], d["result_name"]) == (5, "M", "M", "Medium Wound")
    assert roll.character == agents["mine"] and roll.roller == world.users["player"]
    assert roll.purpose == "Dexterity check"


def test_specific_ability_check_uses_column_2_by_default_and_reads_the_ability_key(world, agents):
    # Harry's specific Agility check in the book: a margin of 0 on column 2 gives L (play §2.2).
    roll = checks.roll_check(
        world.membership["gm"], agents["mine"], "ability:DEX", kind="specific", modifier=-8, rng=Faces(6, 4)
    )
    d = roll.detail
    assert (d["target"], d["roll"], d["margin"], d["column"], d["code"]) == (64, 64, 0, 2, "L")
    assert d["result_name"] == "Limited success"
    assert roll.purpose == "Dexterity check (-8)"


def test_general_check_is_success_at_or_below_the_score_and_has_no_table_reading(world, agents):
    ok = checks.roll_check(world.membership["player"], agents["mine"], "ability:DEX", rng=Faces(7, 2))
    assert ok.detail["success"] is True and ok.detail["margin"] is None and ok.detail["code"] is None
    miss = checks.roll_check(world.membership["player"], agents["mine"], "ability:DEX", rng=Faces(7, 3))
    assert miss.detail["success"] is False
    failed_specific = checks.roll_check(
        world.membership["player"], agents["mine"], "ability:DEX", kind="specific", rng=Faces(0, 0)
    )  # 00 reads 100: above the score, no table result
    assert failed_specific.total == 100 and failed_specific.detail["success"] is False
    assert failed_specific.detail["code"] is None


def test_every_score_of_the_engines_derive_is_offered_and_checkable(world, agents):
    scores = checks.agent_scores(agents["mine"])
    keys = {s.key for s in scores}
    assert {f"ability:{c}" for c in ("STR", "DEX", "AGL", "PER", "WPR", "PCN", "LUCK", "STA")} <= keys
    assert {
        "skill:investigation",
        "skill:pistol",
        "talent:paranormal_memory",
        "talent:telepathic_probe",
    } <= keys
    assert "other:unskilled_melee" in keys
    by_key = {s.key: s for s in scores}
    assert by_key["ability:DEX"].value == 72 and by_key["ability:DEX"].column == 2
    assert by_key["skill:pistol"].column == 3
    for score in scores:  # each one rolls and lands in the log
        roll = checks.roll_check(world.membership["gm"], agents["mine"], score.key, rng=Faces(1, 0))
        assert roll.detail["score_key"] == score.key and roll.detail["score"] == score.value


def test_a_specific_check_without_a_usual_column_needs_one(world, agents):
    with pytest.raises(ValidationError) as error:
        checks.roll_check(
            world.membership["player"], agents["mine"], "other:unskilled_melee", kind="specific"
        )
    assert "defense_column" in error.value.message_dict
    assert not Roll.objects.exists()


def test_players_check_only_their_own_agents_and_only_the_gm_rolls_in_secret(world, agents):
    with pytest.raises(PermissionDenied):
        checks.roll_check(world.membership["player"], agents["theirs"], "ability:DEX")
    with pytest.raises(PermissionDenied):
        checks.roll_check(world.membership["player"], agents["mine"], "ability:DEX", secret=True)
    with pytest.raises(PermissionDenied):
        checks.roll_check(world.membership["observer"], agents["mine"], "ability:DEX")
    assert not Roll.objects.exists()
    secret = checks.roll_check(world.membership["gm"], agents["theirs"], "ability:DEX", secret=True)
    assert secret.secret and secret.sealed
    # the table sees that it was made (sealed: api and pages leave its result out)
    (seen,) = Roll.objects.visible_to(world.users["player"], world.membership["player"])
    assert seen.pk == secret.pk and seen.sealed_for(world.membership["player"])


def test_a_draft_cannot_be_checked(world):
    from characters import services as character_services

    draft = character_services.create_draft(world.campaign, world.users["player"], choices={"name": "Half"})
    with pytest.raises(ValidationError) as error:
        checks.roll_check(world.membership["player"], draft, "ability:DEX")
    assert "character" in error.value.message_dict


# --- the API: every role -------------------------------------------------------------------------

CHECK_STATUS = {
    "gm": 201,
    "player": 201,
    "other_player": 403,
    "observer": 403,
    "outsider": 404,
    "anonymous": 401,
}
SCORES_STATUS = {
    "gm": 200,
    "player": 200,
    "other_player": 403,
    "observer": 403,
    "outsider": 404,
    "anonymous": 401,
}


@pytest.mark.parametrize("role", ROLES)
def test_check_endpoint_answers_each_role_as_it_must(world, agents, api, role):
    body = {"character": agents["mine"].pk, "score": "ability:DEX", "kind": "specific", "defense_column": 5}
    response = _client(api, world, role).post(
        f"/api/v1/campaigns/{world.campaign.pk}/checks/", body, format="json"
    )
    assert response.status_code == CHECK_STATUS[role], response.content
    if response.status_code == 201:
        data = response.json()
        assert data["kind"] == "percent" and data["character"] == agents["mine"].pk
        assert data["detail"]["score"] == 72 and data["detail"]["column"] == 5
        assert Roll.objects.count() == 1
    else:
        payload = response.json()
        assert payload["status"] == CHECK_STATUS[role] and payload["errors"]
        assert not Roll.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_scores_endpoint_answers_each_role_as_it_must(world, agents, api, role):
    url = f"/api/v1/campaigns/{world.campaign.pk}/checks/scores/{agents['mine'].pk}/"
    response = _client(api, world, role).get(url)
    assert response.status_code == SCORES_STATUS[role], response.content
    if response.status_code == 200:
        dex = next(s for s in response.json() if s["key"] == "ability:DEX")
        assert dex == {
            "key": "ability:DEX",
            "group": "Abilities",
            "name": "Dexterity",
            "score": 72,
            "default_column": 2,
            "secret_check": False,
        }


def test_gm_checks_any_agent_in_secret_and_players_never_see_it(world, agents, api):
    gm = api(world.users["gm"])
    body = {"character": agents["theirs"].pk, "score": "ability:PCN", "secret": True}
    response = gm.post(f"/api/v1/campaigns/{world.campaign.pk}/checks/", body, format="json")
    assert response.status_code == 201 and response.json()["secret"] is True
    for role in ("player", "other_player", "observer"):
        listing = api(world.users[role]).get(f"/api/v1/campaigns/{world.campaign.pk}/rolls/").json()
        (sealed,) = listing["results"]
        assert sealed["sealed"] is True and sealed["total"] is None and sealed["detail"] == {}
    player = api(world.users["player"])
    refused = player.post(
        f"/api/v1/campaigns/{world.campaign.pk}/checks/",
        {"character": agents["mine"].pk, "score": "ability:DEX", "secret": True},
        format="json",
    )
    assert refused.status_code == 403 and Roll.objects.count() == 1


def test_another_campaigns_agent_is_refused_and_nothing_is_logged(world, agents, api, make_user):
    # an agent of another TIMEMASTER campaign whose GM is also the GM here
    other = services.create_campaign(world.users["gm"], name="Second", system="timemaster")
    from characters import services as character_services
    from tests.characters.conftest import agent_choices

    stranger = character_services.finalize(
        character_services.create_draft(other, world.users["gm"], choices=agent_choices()),
        is_gm=True,
        rng=random.Random(3),
    )
    gm = api(world.users["gm"])
    response = gm.post(
        f"/api/v1/campaigns/{world.campaign.pk}/checks/",
        {"character": stranger.pk, "score": "ability:DEX"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "character", "message": "No agent with this id in this campaign."}
    ]
    assert gm.get(f"/api/v1/campaigns/{world.campaign.pk}/checks/scores/{stranger.pk}/").status_code == 404
    outsider = api(world.users["outsider"])
    assert outsider.post(
        f"/api/v1/campaigns/{world.elsewhere.pk}/checks/",
        {"character": agents["mine"].pk, "score": "ability:DEX"},
        format="json",
    ).status_code in (400, 404)
    assert not Roll.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"score": "ability:XYZ"}, "score"),
        ({"score": "skill:lockpicking"}, "score"),
        ({"score": ""}, "score"),
        ({"kind": "special"}, "kind"),
        ({"kind": "specific", "defense_column": 11}, "defense_column"),
        ({"kind": "specific", "defense_column": 0}, "defense_column"),
        ({"kind": "specific", "results_key": "magic"}, "results_key"),
        ({"modifier": 10_000}, "modifier"),
        ({"modifier": "lots"}, "modifier"),
        ({"character": "abc"}, "character"),
        ({"character": 99_999_999}, "character"),
        ({"character": 10**30}, "character"),
        ({"mission": 99_999_999}, "mission"),
        ({"kind": "specific", "score": "other:unskilled_melee"}, "defense_column"),
    ],
)
def test_bad_check_input_is_a_400_naming_the_field_and_logs_nothing(world, agents, api, body, field):
    full = {"character": agents["mine"].pk, "score": "ability:DEX", **body}
    response = api(world.users["player"]).post(
        f"/api/v1/campaigns/{world.campaign.pk}/checks/", full, format="json"
    )
    assert response.status_code == 400, response.content
    assert field in {e["field"] for e in response.json()["errors"]}, response.json()
    assert not Roll.objects.exists()


def test_a_body_that_is_not_an_object_is_a_400(world, agents, api):
    client = api(world.users["player"])
    response = client.post(f"/api/v1/campaigns/{world.campaign.pk}/checks/", [1, 2], format="json")
    assert response.status_code == 400 and not Roll.objects.exists()


def test_a_check_in_a_campaign_of_another_system_is_refused(world, api, make_user):
    """404, as on every TIMEMASTER route (tests/test_wrong_system_routes.py)."""
    d6 = services.create_campaign(world.users["gm"], name="D6", system="d6")
    response = api(world.users["gm"]).post(
        f"/api/v1/campaigns/{d6.pk}/checks/", {"character": 1, "score": "ability:DEX"}, format="json"
    )
    assert response.status_code == 404 and not Roll.objects.exists()


# --- the dice page -------------------------------------------------------------------------------


def test_player_rolls_a_specific_check_on_the_dice_page_and_sees_it_in_the_log(
    world, agents, client, monkeypatch
):
    # The server's dice come from the fair-dice stream (characters/systems/fair_dice.py): fixed here.
    monkeypatch.setattr("characters.systems.fair_dice.FairRandom", lambda key: Faces(5, 2))
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert 'id="id_check-score"' in page and "Dexterity (72)" in page
    assert agents["theirs"].name not in page.split('id="check-heading"')[1].split("</form>")[0]
    mission = Mission.objects.create(campaign=world.campaign, title="Rome")
    response = client.post(
        f"/campaigns/{world.campaign.pk}/dice/check/",
        {
            "check-character": agents["mine"].pk,
            "check-score": "ability:DEX",
            "check-kind": "specific",
            "check-defense_column": "5",
            "check-results_key": "armed",
            "check-modifier": "0",
            "check-mission": mission.pk,
        },
    )
    assert response.status_code == 200, response.content.decode()
    roll = Roll.objects.get()
    assert roll.mission == mission and roll.detail["column"] == 5
    html = response.content.decode()
    assert 'data-testid="check-result"' in html
    log = client.get(f"/campaigns/{world.campaign.pk}/dice/log/").content.decode()
    assert "Dexterity 72: rolled <strong>52</strong>" in html
    assert 'margin 20, column 5 → <strong data-testid="check-letter">M</strong> (Medium Wound)' in html
    assert "specific check of Dexterity 72" in log
    assert "margin 20, column 5 → <strong>M</strong> (Medium Wound)" in log


def test_choosing_another_agent_shows_its_scores(world, agents, client):
    client.force_login(world.users["gm"])
    url = f"/campaigns/{world.campaign.pk}/dice/?check-character={agents['theirs'].pk}"
    page = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    theirs = checks.agent_scores(agents["theirs"])
    assert f"Dexterity ({next(s.value for s in theirs if s.key == 'ability:DEX')})" in page
    assert "Secret (the table sees only that it was made)" in page


# another player's form offers only their own agents: mine is not a valid choice there (400)
@pytest.mark.parametrize(("role", "status"), [("other_player", 400), ("observer", 403), ("outsider", 404)])
def test_the_check_page_refuses_who_may_not_roll_for_the_agent(world, agents, client, role, status):
    client.force_login(world.users[role])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/dice/check/",
        {
            "check-character": agents["mine"].pk,
            "check-score": "ability:DEX",
            "check-kind": "general",
            "check-modifier": "0",
            "check-results_key": "ability",
        },
    )
    assert response.status_code == status
    assert not Roll.objects.exists()


def test_observers_and_players_without_agents_see_no_check_form(world, agents, client):
    client.force_login(world.users["observer"])
    assert "check-heading" not in client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()


def test_bad_input_on_the_check_page_is_a_400_on_its_field(world, agents, client):
    client.force_login(world.users["player"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/dice/check/",
        {
            "check-character": agents["mine"].pk,
            "check-score": "ability:XYZ",
            "check-kind": "general",
            "check-modifier": "0",
            "check-results_key": "ability",
        },
    )
    assert response.status_code == 400
    assert "Score:" in response.content.decode()
    assert not Roll.objects.exists()


def _check_panel(html: str) -> str:
    return html.split('id="check-heading"')[1].split("</form>")[0]


def test_choosing_another_agent_keeps_what_was_entered_in_the_check_form(world, agents, client):
    """Issue 44, finding 4: the reload for another agent used to send only the agent, so "What
    for" was wiped, the score went back to Strength and a secret check became an open one."""
    client.force_login(world.users["gm"])
    query = {
        "check-character": agents["theirs"].pk,
        "check-score": "ability:PCN",
        "check-kind": "specific",
        "check-defense_column": "4",
        "check-results_key": "armed",
        "check-modifier": "-5",
        "check-purpose": "Spot the <forger>",
        "check-secret": "on",
    }
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/", query, HTTP_HX_REQUEST="true")
    assert page.status_code == 200
    panel = _check_panel(page.content.decode())
    assert f'<option value="{agents["theirs"].pk}" selected>' in panel
    assert 'value="Spot the &lt;forger&gt;"' in panel
    assert '<option value="ability:PCN" selected>' in panel
    assert '<option value="specific" selected>' in panel
    assert '<option value="4" selected>' in panel
    assert '<option value="armed" selected>' in panel
    assert 'value="-5"' in panel
    assert 'name="check-secret" id="id_check-secret" checked' in panel
    assert "errorlist" not in panel and "Please fix" not in panel  # a reload is not a submission
    # an unticked secret box stays unticked (it is absent from the query)
    del query["check-secret"]
    panel = _check_panel(client.get(f"/campaigns/{world.campaign.pk}/dice/", query).content.decode())
    assert 'name="check-secret" id="id_check-secret" checked' not in panel


def test_a_score_the_new_agent_lacks_is_dropped_and_said_so(world, agents, client):
    client.force_login(world.users["gm"])
    query = {
        "check-character": agents["theirs"].pk,
        "check-score": "skill:juggling",
        "check-purpose": "Distract the guard",
    }
    panel = _check_panel(client.get(f"/campaigns/{world.campaign.pk}/dice/", query).content.decode())
    assert "Dana Quill has no Juggling skill: choose the score to check." in panel
    assert 'value="Distract the guard"' in panel
    assert "skill:juggling" not in panel


def test_the_agent_select_sends_the_whole_check_form_but_not_the_csrf_token(world, agents, client):
    client.force_login(world.users["gm"])
    panel = _check_panel(client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode())
    select = panel.split('id="id_check-character"')[0].rsplit("<select", 1)[1]
    assert 'hx-include="closest form"' in select and 'hx-params="not csrfmiddlewaretoken"' in select
    # only this form and the agent's condition card are swapped: the page's other forms keep theirs
    assert 'hx-target="#check-panel"' in select and 'hx-select="#check-panel"' in select
    assert 'hx-select-oob="#dice-condition"' in select
    page = client.get(f"/campaigns/{world.campaign.pk}/dice/").content.decode()
    assert 'id="check-panel"' in page and 'id="dice-condition"' in page


def test_a_general_check_offers_no_defense_column_and_a_specific_one_does(world, agents, client):
    """Issue 49, walk point 4: the "Defense column" (and the results key) only read a specific
    check (timemaster-play.md §2.1-§2.2), yet the general check's form offered them. The form
    shows them once the check is specific; choosing the kind reloads it as choosing the agent does."""
    client.force_login(world.users["player"])
    url = f"/campaigns/{world.campaign.pk}/dice/"
    general = _check_panel(client.get(url).content.decode())
    assert 'id="id_check-kind"' in general
    assert "Defense column" not in general and 'name="check-defense_column"' not in general
    assert 'name="check-results_key"' not in general
    kind = general.split('id="id_check-kind"')[0].rsplit("<select", 1)[1]
    assert 'hx-target="#check-panel"' in kind and 'hx-include="closest form"' in kind
    specific = _check_panel(client.get(url, {"check-kind": "specific"}).content.decode())
    assert "Defense column (specific)" in specific and 'name="check-defense_column"' in specific
    assert 'name="check-results_key"' in specific
    assert '<option value="specific" selected>' in specific
