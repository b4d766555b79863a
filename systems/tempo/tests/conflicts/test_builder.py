"""The Flashpoints agent builder: steps, live checks of ratings and benefits, finalizing."""

from __future__ import annotations

import pytest

from characters.models import Character
from systems.tempo.tests.helpers import ROLES

ASPECTS = {
    "name": "Finn Marlowe",
    "codename": "KESTREL",
    "player": "Fred",
    "primary_text": "good enough is good enough",
    "primary_anchor": "his old sergeant",
    "origin_text": "DOCKSIDE KID",
    "origin_anchor": "the Hamburg docks",
    "service_text": "EX-SPECIAL FORCES",
    "service_anchor": "a battered beret",
    "flashpoint_1_text": "THE BERLIN TUNNEL",
    "flashpoint_1_anchor": "Checkpoint Charlie",
    "flashpoint_2_text": "SHARP EYES",
    "flashpoint_2_anchor": "Leanne",
}
RATINGS = {f"role_{k}": v for k, v in ROLES.items()}


@pytest.fixture
def draft(world, tempo, client):
    client.force_login(world.users["player"])
    response = client.post(f"/campaigns/{tempo.pk}/characters/new/")
    assert response.status_code == 302
    assert response.url.endswith("/build/aspects/")
    return Character.objects.get(campaign=tempo, status="draft")


def url(draft, step):
    return f"/characters/{draft.pk}/build/{step}/"


def test_the_list_offers_a_new_agent_and_the_builder_starts_with_aspects(world, tempo, client):
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{tempo.pk}/characters/").content.decode()
    assert "New agent" in page
    assert "Conflicts" in page


def test_every_aspect_needs_an_anchor(draft, client):
    body = {**ASPECTS, "service_anchor": ""}
    response = client.post(url(draft, "aspects"), body)
    assert response.status_code == 400
    assert "needs an anchor" in response.content.decode()
    assert client.post(url(draft, "aspects"), ASPECTS).status_code == 302
    draft.refresh_from_db()
    assert draft.name == "Finn Marlowe"
    assert draft.choices["aspects"]["primary"] == {
        "text": "GOOD ENOUGH IS GOOD ENOUGH",
        "anchor": "his old sergeant",
    }


def test_the_live_check_counts_ratings_without_saving(draft, client):
    body = {"role_athlete": "elite", "role_diplomat": "elite", "role_observer": "elite", "check": "1"}
    response = client.post(url(draft, "roles"), body, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Elite: 3 of 2" in html
    assert "Move 1 to another rating" in html
    draft.refresh_from_db()
    assert "roles" not in draft.choices


def test_a_wrong_distribution_is_refused_with_the_engines_words(draft, client):
    body = {**RATINGS, "role_thief": "trained"}
    response = client.post(url(draft, "roles"), body)
    assert response.status_code == 400
    assert "Trained: 3 roles" in response.content.decode()


def test_benefits_are_offered_for_elite_and_world_class_roles_only(draft, client):
    client.post(url(draft, "aspects"), ASPECTS)
    client.post(url(draft, "roles"), RATINGS)
    page = client.get(url(draft, "benefits")).content.decode()
    assert 'name="benefits_observer"' in page and 'name="benefits_diplomat"' in page
    assert 'name="benefits_thief"' not in page
    live = client.post(
        url(draft, "benefits"),
        {"benefits_diplomat": ["gambler", "plant_seed"], "check": "1"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Remove 1" in live


def test_a_player_cannot_give_the_tables_approval(draft, client, world):
    client.post(url(draft, "aspects"), ASPECTS)
    the_man = {
        **RATINGS,
        "role_observer": "elite",
        "role_politician": "world_class",
        "role_diplomat": "trained",
    }
    assert client.post(url(draft, "roles"), the_man).status_code == 302
    client.post(
        url(draft, "benefits"),
        {
            "benefits_politician": ["the_man_focus"],
            "approved_politician": "on",
            "benefits_diplomat": ["gambler"],
            "benefits_observer": ["cold_read"],
            "benefits_scholar": ["linguist"],
        },
    )
    draft.refresh_from_db()
    assert draft.choices["benefits"]["politician"] == [{"key": "the_man_focus", "table_approved": False}]


def test_the_whole_build_finalizes_to_an_agent_with_starting_fate_points(draft, client):
    assert client.post(url(draft, "aspects"), ASPECTS).status_code == 302
    assert client.post(url(draft, "roles"), RATINGS).status_code == 302
    response = client.post(
        url(draft, "benefits"),
        {
            "benefits_diplomat": ["gambler"],
            "benefits_observer": ["cold_read", "elementary"],
            "benefits_scholar": ["great_mind"],
            "field_scholar": "Soviet history",
        },
    )
    assert response.status_code == 302, response.content.decode()
    review = client.get(url(draft, "review")).content.decode()
    assert "TRUST NO ONE" in review and "Finalize the agent" in review
    response = client.post(url(draft, "review"))
    assert response.status_code == 302
    agent = Character.objects.get(pk=draft.pk)
    assert agent.status == "active" and agent.build["fate_points"] == 2
    page = client.get(f"/characters/{agent.pk}/").content.decode()
    assert "EX-SPECIAL FORCES" in page and "a battered beret" in page
    assert "Great Mind — Soviet history" in page
    assert 'data-testid="fate-points">2<' in page
    assert "Roll 3d6" in page


def test_a_draft_resumes_at_its_first_open_step(draft, client):
    client.post(url(draft, "aspects"), ASPECTS)
    page = client.get(f"/characters/{draft.pk}/").content.decode()
    assert url(draft, "roles") in page


def test_an_unknown_step_is_404(draft, client):
    assert client.get(url(draft, "talent")).status_code == 404


def test_the_gm_gives_the_tables_approval_and_the_agent_can_be_finalized(draft, client, world):
    the_man = {
        **RATINGS,
        "role_observer": "elite",
        "role_politician": "world_class",
        "role_diplomat": "trained",
    }
    benefits = {
        "benefits_politician": ["the_man_focus"],
        "benefits_observer": ["cold_read"],
        "benefits_scholar": ["linguist"],
    }
    client.post(url(draft, "aspects"), ASPECTS)
    assert client.post(url(draft, "roles"), the_man).status_code == 302
    response = client.post(url(draft, "benefits"), benefits)
    assert response.status_code == 400
    assert "needs the table&#x27;s approval" in response.content.decode()
    client.force_login(world.users["gm"])
    page = client.get(url(draft, "benefits")).content.decode()
    assert 'name="approved_politician"' in page
    assert client.post(url(draft, "benefits"), {**benefits, "approved_politician": "on"}).status_code == 302
    client.force_login(world.users["player"])
    client.post(url(draft, "benefits"), benefits)  # the player saving again keeps the GM's approval
    draft.refresh_from_db()
    assert draft.choices["benefits"]["politician"] == [{"key": "the_man_focus", "table_approved": True}]
    assert client.post(url(draft, "review")).status_code == 302
    assert Character.objects.get(pk=draft.pk).status == "active"


def test_a_world_class_athlete_gets_both_benefits_without_choosing(draft, client):
    client.post(url(draft, "aspects"), ASPECTS)
    world_class_athlete = {**RATINGS, "role_athlete": "world_class", "role_observer": "seasoned"}
    assert client.post(url(draft, "roles"), world_class_athlete).status_code == 302
    body = {"benefits_diplomat": ["gambler"], "benefits_scholar": ["linguist"]}
    assert client.post(url(draft, "benefits"), body).status_code == 302
    draft.refresh_from_db()
    assert [b["key"] for b in draft.choices["benefits"]["athlete"]] == ["mobility", "brute"]


def test_benefits_of_a_role_no_longer_elite_are_dropped(draft, client):
    client.post(url(draft, "aspects"), ASPECTS)
    client.post(url(draft, "roles"), RATINGS)
    client.post(
        url(draft, "benefits"),
        {
            "benefits_diplomat": ["gambler"],
            "benefits_scholar": ["linguist"],
            "benefits_observer": ["cold_read", "elementary"],
        },
    )
    swapped = {**RATINGS, "role_diplomat": "seasoned", "role_athlete": "elite"}
    assert client.post(url(draft, "roles"), swapped).status_code == 302
    response = client.post(
        url(draft, "benefits"),
        {
            "benefits_athlete": ["brute"],
            "benefits_scholar": ["linguist"],
            "benefits_observer": ["cold_read", "elementary"],
        },
    )
    assert response.status_code == 302
    draft.refresh_from_db()
    assert "diplomat" not in draft.choices["benefits"]


@pytest.mark.parametrize("persona, expected", [("other_player", 404), ("observer", 404), ("outsider", 404)])
def test_only_the_owner_and_the_gm_open_a_draft(draft, client, world, persona, expected):
    client.force_login(world.users[persona])
    assert client.get(url(draft, "aspects")).status_code == expected
    assert client.post(url(draft, "roles"), {**RATINGS, "check": "1"}).status_code == expected
