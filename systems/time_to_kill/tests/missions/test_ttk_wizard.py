"""The ninja builder in the web and the ninja's character page."""

from __future__ import annotations

from django.test import Client

from characters.models import Character

from .helpers import VICTORY_MOVES, VICTORY_SCRIPT

NEUTRAL = {
    key: "0"
    for key in (
        "armed",
        "hand_to_hand",
        "ranged",
        "athletics",
        "knowledge",
        "craftsmanship",
        "awareness",
        "willpower",
        "stealth",
    )
}


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def new_draft(client, campaign):
    response = client.post(f"/campaigns/{campaign.pk}/characters/new/")
    assert response.status_code == 302
    draft = Character.objects.filter(status="draft").latest("id")
    return draft, client.get(response["Location"], follow=True)


def test_a_player_builds_a_ninja_and_sees_the_record_on_its_page(ttk):
    client = logged_in(ttk.users["other_player"])
    assert "New ninja" in client.get(f"/campaigns/{ttk.campaign.pk}/characters/").content.decode()
    draft, page = new_draft(client, ttk.campaign)
    assert page.status_code == 200 and "Step 1: the nine abilities" in page.content.decode()
    url = f"/characters/{draft.pk}/build/abilities/"
    choices = {**NEUTRAL, "name": "Tsuru", "armed": "+", "knowledge": "-", "stealth": "+", "awareness": "+"}
    response = client.post(url, choices)
    assert response.status_code == 302 and response["Location"].endswith("/build/review/")
    review = client.get(response["Location"]).content.decode()
    assert "Finalize the ninja" in review and 'data-testid="points-spent">3<' in review
    response = client.post(f"/characters/{draft.pk}/build/review/")
    assert response.status_code == 302
    ninja = Character.objects.get(pk=draft.pk)
    assert ninja.status == "active" and ninja.name == "Tsuru"
    assert ninja.build["abilities"]["knowledge"] == "-"
    page = client.get(f"/characters/{ninja.pk}/").content.decode()
    assert 'data-testid="ranking">-<' in page and 'data-testid="victory-points">0<' in page
    assert "Hand-to-Hand" in page and "Action Table" in page


def test_the_builder_shows_every_rule_broken_next_to_its_field(ttk):
    client = logged_in(ttk.users["other_player"])
    draft, _ = new_draft(client, ttk.campaign)
    url = f"/characters/{draft.pk}/build/abilities/"
    over = client.post(url, {**NEUTRAL, "armed": "+", "ranged": "+", "athletics": "+"})
    assert over.status_code == 400
    assert "cost 6 points but the budget is 5" in over.content.decode()
    combat_minus = client.post(url, {**NEUTRAL, "armed": "-"})
    assert combat_minus.status_code == 400 and "never at -" in combat_minus.content.decode()
    two_trades = client.post(url, {**NEUTRAL, "knowledge": "-", "willpower": "-", "stealth": "+"})
    assert two_trades.status_code == 400 and "Only one Non-Combat ability" in two_trades.content.decode()
    junk = client.post(url, {**NEUTRAL, "stealth": "++"})
    assert junk.status_code == 400
    assert (
        client.get(f"/characters/{draft.pk}/build/review/").content.decode().count("Finalize the ninja") == 0
    )


def test_another_systems_step_name_is_404_naming_the_ninja_builders_steps(ttk):
    client = logged_in(ttk.users["other_player"])
    draft, _ = new_draft(client, ttk.campaign)
    for send in (client.get, client.post):
        response = send(f"/characters/{draft.pk}/build/roll/")
        assert response.status_code == 404
        assert "no step called &#x27;roll&#x27;" in response.content.decode()
        assert "abilities, review" in response.content.decode()


def test_a_victory_shows_on_the_ninja_page_and_the_next_ninja_may_use_the_ranking(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = start()
    for side, kind, params in VICTORY_MOVES:
        move(run, side, kind, **params)
    client = logged_in(ttk.users["player"])
    page = client.get(f"/characters/{ttk.ninja.pk}/").content.decode()
    assert 'data-testid="ranking">1.00<' in page and 'data-testid="victory-points">1<' in page
    assert 'data-testid="missions-completed">1<' in page and f"/ttk/{run.pk}/history/" in page
    draft, page = new_draft(client, ttk.campaign)
    assert "+1 points" in page.content.decode()
    url = f"/characters/{draft.pk}/build/abilities/"
    six = {**NEUTRAL, "armed": "+", "ranged": "+", "athletics": "+"}
    assert client.post(url, six).status_code == 400
    assert client.post(url, {**six, "use_ranking": "on"}).status_code == 302
    assert client.post(f"/characters/{draft.pk}/build/review/").status_code == 302
    ninja = Character.objects.get(pk=draft.pk)
    assert ninja.build["creation"]["ranking_bonus"] == 1 and ninja.build["record"]["missions_completed"] == 1


def test_an_observer_cannot_build_a_ninja(ttk):
    client = logged_in(ttk.users["observer"])
    assert client.post(f"/campaigns/{ttk.campaign.pk}/characters/new/").status_code == 403


def test_a_ranking_record_sent_by_a_player_through_the_api_is_ignored(ttk):
    """The record sets the creation budget; only the server may put it in a draft's choices."""
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(ttk.users["player"])
    forged = {"ranking_points": 40, "missions_completed": 1}
    response = api.post(
        f"/api/v1/campaigns/{ttk.campaign.pk}/characters/",
        {"choices": {"abilities": NEUTRAL, "use_ranking": True, "record": forged}},
        format="json",
    )
    assert response.status_code in (200, 201), response.content
    draft = Character.objects.get(pk=response.json()["id"])
    assert "record" not in draft.choices
