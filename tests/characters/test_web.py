"""The web pages: the wizard from a blank draft to a finalized agent, the character page and
its history, and who may open which page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters import services
from characters.models import Character

from .conftest import agent_choices

BACKGROUND_POST = {
    "name": "Ada Stone",
    "player": "Pat",
    "birth_year": "1950",
    "birth_place": "Boston",
    "age_at_recruitment": "30",
    "sex": "female",
    "profession": "police detective",
    "height": "5'6\"",
    "weight": "130 lb",
    "native_parallel": "T-0",
    "era_city": "on",
    "era_writing": "on",
}
SKILLS_POST = {
    "skill_1": "investigation",
    "skill_2": "pistol",
    "profession_skill": "1",
    "culture_1": "United States",
}


def _client(client, user):
    client.force_login(user)
    return client


def _step(pk, step):
    return reverse("character-wizard-step", args=[pk, step])


def _walk_to_review(client, pk, manual=True):
    if manual:
        numbers = {f"number_{i}": str(v) for i, v in enumerate([72, 64, 60, 56, 52, 48, 44, 40])}
        response = client.post(_step(pk, "roll"), {"action": "manual", **numbers})
        assert response.status_code == 302 and response.url == _step(pk, "assign")
    else:
        # a roll comes back to its own step, showing the dice (and any reroll) before "Assign them"
        response = client.post(_step(pk, "roll"), {"action": "roll"})
        assert response.status_code == 302 and response.url == _step(pk, "roll")
        assert 'data-testid="rolled-numbers"' in client.get(response.url).content.decode()
    character = Character.objects.get(pk=pk)
    values = character.choices.get("manual_values") or character.choices["ability_roll"]["values"]
    ordered = sorted(values, reverse=True)
    codes = ["STR", "DEX", "AGL", "PER", "WPR", "PCN", "LUCK", "STA"]
    response = client.post(_step(pk, "assign"), {c: str(v) for c, v in zip(codes, ordered, strict=True)})
    assert response.status_code == 302, response.content.decode()[:3000]
    response = client.post(_step(pk, "background"), BACKGROUND_POST)
    assert response.status_code == 302, response.content.decode()[:3000]
    response = client.post(_step(pk, "skills"), SKILLS_POST)
    assert response.status_code == 302, response.content.decode()[:3000]
    response = client.post(_step(pk, "talent"), {"talent": "telepathic_probe"})
    assert response.status_code == 302 and response.url == _step(pk, "review")


@pytest.mark.parametrize("manual", [True, False], ids=["typed-in", "rolled"])
def test_the_gm_builds_an_agent_through_the_wizard(world, client, manual):
    client = _client(client, world.users["gm"])
    response = client.post(reverse("character-new", args=[world.campaign.pk]))
    pk = Character.objects.get().pk
    assert response.url == _step(pk, "roll")
    _walk_to_review(client, pk, manual=manual)
    review = client.get(_step(pk, "review"))
    assert review.status_code == 200 and b"Confirm and finalize" in review.content
    response = client.post(_step(pk, "review"))
    assert response.status_code == 302 and response.url == reverse("character-detail", args=[pk])
    agent = Character.objects.get(pk=pk)
    assert agent.status == "active" and agent.revision == 1 and agent.name == "Ada Stone"
    page = client.get(response.url).content.decode()
    derived = services.system_of(agent).derive(agent.build)
    assert f'data-testid="unskilled-melee">{derived["unskilled_melee"]}<' in page
    assert f'data-testid="penetration-bonus">{derived["penetration_bonus"]}<' in page
    assert "Telepathic Probe" in page and "Time Corps Stunner" in page and "Trainee/0" in page


def test_a_player_draft_waits_for_the_gm_who_sees_it_and_finalizes_it(world, client):
    player = _client(client, world.users["player"])
    player.post(reverse("character-new", args=[world.campaign.pk]))
    pk = Character.objects.get().pk
    _walk_to_review(player, pk)
    review = player.get(_step(pk, "review")).content.decode()
    assert "Ask your game master" in review and "Finalize" not in review
    assert player.post(_step(pk, "review")).status_code == 400
    player.logout()
    gm = _client(client, world.users["gm"])
    listing = gm.get(reverse("character-list", args=[world.campaign.pk])).content.decode()
    assert "Ada Stone" in listing and "Draft" in listing
    assert gm.post(_step(pk, "review")).status_code == 302
    assert Character.objects.get(pk=pk).owner == world.users["player"]


def test_engine_violations_are_shown_next_to_their_field(world, client):
    player = _client(client, world.users["player"])
    draft = services.create_draft(world.campaign, world.users["player"], choices=agent_choices())
    response = player.post(_step(draft.pk, "background"), {**BACKGROUND_POST, "birth_year": "9000"})
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors["birth_year"] and "7171" in form.errors["birth_year"][0]
    # the draft keeps what was typed, so it can be corrected later
    assert Character.objects.get(pk=draft.pk).choices["background"]["birth_year"] == 9000


def test_typed_in_numbers_must_be_even_and_in_range(world, client):
    player = _client(client, world.users["player"])
    draft = services.create_draft(world.campaign, world.users["player"])
    numbers = {f"number_{i}": "50" for i in range(8)} | {"number_0": "81", "number_3": "51"}
    response = player.post(_step(draft.pk, "roll"), {"action": "manual", **numbers})
    assert response.status_code == 400
    errors = response.context["manual"].errors
    assert "80" in errors["number_0"][0] and "odd" in errors["number_3"][0]


def test_a_roll_cannot_be_repeated_by_the_player(world, client):
    player = _client(client, world.users["player"])
    draft = services.create_draft(world.campaign, world.users["player"])
    player.post(_step(draft.pk, "roll"), {"action": "roll"})
    first = Character.objects.get(pk=draft.pk).choices["ability_roll"]
    assert player.post(_step(draft.pk, "roll"), {"action": "roll"}).status_code == 400
    assert Character.objects.get(pk=draft.pk).choices["ability_roll"] == first


def test_an_assignment_must_use_each_number_once(world, client):
    player = _client(client, world.users["player"])
    draft = services.create_draft(world.campaign, world.users["player"])
    numbers = {f"number_{i}": str(v) for i, v in enumerate([72, 64, 60, 56, 52, 48, 44, 40])}
    player.post(_step(draft.pk, "roll"), {"action": "manual", **numbers})
    twice = dict.fromkeys(["STR", "DEX", "AGL", "PER", "WPR", "PCN", "LUCK", "STA"], "72")
    response = player.post(_step(draft.pk, "assign"), twice)
    assert response.status_code == 400
    assert response.context["form"].errors


@pytest.mark.parametrize(
    "role, draft_status, page_status",
    [
        ("gm", 200, 200),
        ("player", 200, 200),
        ("other_player", 404, 200),
        ("observer", 404, 200),
        ("outsider", 404, 404),
    ],
)
def test_who_may_open_which_page(world, client, make_agent, role, draft_status, page_status):
    agent = make_agent("player")
    draft = services.create_draft(world.campaign, world.users["player"], choices=agent_choices())
    c = _client(client, world.users[role])
    assert c.get(reverse("character-detail", args=[draft.pk])).status_code == draft_status
    assert c.get(_step(draft.pk, "background")).status_code == draft_status
    assert c.get(reverse("character-detail", args=[agent.pk])).status_code == page_status
    assert c.get(reverse("character-history", args=[agent.pk])).status_code == page_status
    assert c.get(reverse("character-list", args=[world.campaign.pk])).status_code == page_status


def test_observers_cannot_start_a_character(world, client):
    c = _client(client, world.users["observer"])
    assert c.post(reverse("character-new", args=[world.campaign.pk])).status_code == 403
    assert not Character.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(world, client, make_agent):
    agent = make_agent("player")
    response = client.get(reverse("character-detail", args=[agent.pk]))
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_only_the_gm_reverts_from_the_history_page(world, client, make_agent, award):
    agent = make_agent("player")
    entry = award(agent, session=1)
    url = reverse("character-entry-revert", args=[agent.pk, entry.pk])
    player = _client(client, world.users["player"])
    assert b"Revert" not in player.get(reverse("character-history", args=[agent.pk])).content
    assert player.post(url, {"reason": "no"}).status_code == 403
    player.logout()
    gm = _client(client, world.users["gm"])
    assert b"Revert" in gm.get(reverse("character-history", args=[agent.pk])).content
    assert gm.post(url, {"reason": "wrong session"}).status_code == 302
    agent.refresh_from_db()
    assert agent.build["success_points"] == 0 and agent.revision == 3
    page = gm.get(reverse("character-history", args=[agent.pk])).content.decode()
    assert "Reverted" in page and "wrong session" in page


@pytest.mark.parametrize(
    "choices, step",
    [
        ({}, "roll"),
        ({"ability_method": "manual", "abilities": {"STR": 72}}, "assign"),
        (agent_choices(background={}), "background"),
        (agent_choices(skills=[]), "skills"),
        (agent_choices(talent=None), "talent"),
        (agent_choices(), "review"),
    ],
)
def test_a_draft_resumes_at_the_first_step_still_open(world, client, choices, step):
    draft = services.create_draft(world.campaign, world.users["player"], choices=choices)
    page = _client(client, world.users["player"]).get(reverse("character-detail", args=[draft.pk]))
    assert page.context["resume_url"] == _step(draft.pk, step)
