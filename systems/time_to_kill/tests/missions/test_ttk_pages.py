"""The mission pages for every persona, and the rule that nothing secret reaches a player's HTML."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from systems.time_to_kill.models import MissionRun
from systems.time_to_kill.tests.test_ttk_properties import scrambled

from .conftest import PERSONAS, SECRET_NOTES
from .helpers import VICTORY_MOVES, VICTORY_SCRIPT

NON_GM = ("player", "other_player", "observer")
GM_ONLY_TEXT = ("Fate Record Sheet", "Fate dice:", "Placed:", "Rush downshift:", "Shift:", SECRET_NOTES)
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+')


def client_for(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def html(response):
    return CSRF.sub(r"\1-", response.content.decode())


def player_urls(run):
    return [
        f"/ttk/{run.pk}/",
        f"/ttk/{run.pk}/panel/",
        f"/ttk/{run.pk}/history/",
        f"/ttk/{run.pk}/history/?at={run.event_count}",
        f"/campaigns/{run.campaign_id}/ttk/",
        f"/api/v1/ttk-runs/{run.pk}/player-state/",
        f"/api/v1/ttk-runs/{run.pk}/events/",
    ]


@pytest.mark.parametrize(
    "persona, expected", [("gm", 200), ("player", 200), ("observer", 200), ("outsider", 404)]
)
def test_the_run_list_for_each_persona(ttk, start, persona, expected):
    start()
    response = client_for(ttk.users[persona]).get(f"/campaigns/{ttk.campaign.pk}/ttk/")
    assert response.status_code == expected
    if expected == 200:
        assert ("Start the mission" in response.content.decode()) == (persona == "gm")
        assert "The Bell Tower" in response.content.decode()


def test_anonymous_visitors_are_sent_to_log_in(ttk, start):
    run = start()
    for url in (f"/campaigns/{ttk.campaign.pk}/ttk/", f"/ttk/{run.pk}/", f"/ttk/{run.pk}/history/"):
        response = Client().get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Client().post(f"/ttk/{run.pk}/move/", {"type": "prepare_draw"}).status_code == 302


@pytest.mark.parametrize(
    "persona, expected", [("gm", 302), ("player", 403), ("observer", 403), ("outsider", 404)]
)
def test_only_the_gm_starts_a_mission(ttk, persona, expected):
    data = {
        "ninja": ttk.ninja.pk,
        "title": "Ash and Salt",
        "mission_stones": 12,
        "victory_conditions": "Unseen",
    }
    response = client_for(ttk.users[persona]).post(f"/campaigns/{ttk.campaign.pk}/ttk/", data)
    assert response.status_code == expected
    assert MissionRun.objects.filter(title="Ash and Salt").exists() == (expected == 302)
    if expected == 302:
        run = MissionRun.objects.get()
        assert run.state["bag"]["start_ordinary"] == 12 and response["Location"] == f"/ttk/{run.pk}/"


def test_a_bad_start_form_says_what_is_wrong(ttk):
    response = client_for(ttk.users["gm"]).post(
        f"/campaigns/{ttk.campaign.pk}/ttk/", {"ninja": "", "mission_stones": 0}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "This field is required" in body and "greater than or equal to 1" in body
    assert not MissionRun.objects.exists()


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 302), ("player", 302), ("other_player", 403), ("observer", 403), ("outsider", 404)],
)
def test_who_may_move(ttk, start, script, persona, expected):
    script(draws=["o"])
    run = start()
    kind = "prepare_draw"
    response = client_for(ttk.users[persona]).post(f"/ttk/{run.pk}/move/", {"type": kind, "after": 0})
    run.refresh_from_db()
    if persona == "gm":  # the GM may move, but this is the player's step
        assert response.status_code == 400 and "player" in response.content.decode()
        assert run.event_count == 0
    else:
        assert response.status_code == expected
        assert run.event_count == (1 if expected == 302 else 0)


def test_the_gm_console_shows_the_secret_sheet_and_the_gm_buttons(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = start()
    for side, kind, params in VICTORY_MOVES[:3]:
        move(run, side, kind, **params)
    body = client_for(ttk.users["gm"]).get(f"/ttk/{run.pk}/").content.decode()
    assert "Fate Record Sheet" in body and SECRET_NOTES in body
    assert "Place the dice on the Fates" in body and 'name="fates__opposition"' in body
    assert "Stones left" in body


def test_the_player_sees_their_choices_and_nothing_of_the_gms(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = start()
    body = client_for(ttk.users["player"]).get(f"/ttk/{run.pk}/").content.decode()
    assert "Draw a preparation stone" in body and "Start the mission" in body
    other = client_for(ttk.users["other_player"]).get(f"/ttk/{run.pk}/").content.decode()
    assert "Draw a preparation stone" not in other and "Your choices" not in other


def test_the_panel_is_not_sent_again_until_the_run_moves(ttk, start, move, script):
    script(draws=["o"])
    run = start()
    client = client_for(ttk.users["gm"])
    assert client.get(f"/ttk/{run.pk}/panel/?after=0").status_code == 204
    move(run, "player", "prepare_draw")
    response = client.get(f"/ttk/{run.pk}/panel/?after=0")
    assert response.status_code == 200 and 'data-events="1"' in response.content.decode()


def test_an_htmx_move_returns_the_new_panel_and_a_refusal_in_the_panel(ttk, start, script):
    script(draws=["o"])
    run = start()
    client = client_for(ttk.users["player"])
    ok = client.post(f"/ttk/{run.pk}/move/", {"type": "prepare_draw", "after": 0}, HTTP_HX_REQUEST="true")
    assert ok.status_code == 200 and 'data-events="1"' in ok.content.decode()
    stale = client.post(f"/ttk/{run.pk}/move/", {"type": "prepare_draw", "after": 0}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409 and "moved on" in stale.content.decode()
    bad = client.post(f"/ttk/{run.pk}/move/", {"type": "reveal_fate", "after": 1}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "not possible now" in bad.content.decode()
    run.refresh_from_db()
    assert run.event_count == 1


def test_no_page_of_a_player_depends_on_a_secret_at_any_step(ttk, start, move, script):
    """At every step of a mission: every page, fragment and API answer a non-GM member gets is the
    same when every secret in the state is changed, and never holds GM-only text."""
    script(**VICTORY_SCRIPT)
    run = start()
    rng = random.Random(5)
    clients = {persona: client_for(ttk.users[persona]) for persona in NON_GM}
    for side, kind, params in [*VICTORY_MOVES, (None, None, None)]:
        run.refresh_from_db()
        for persona, client in clients.items():
            for url in player_urls(run):
                before = client.get(url)
                assert before.status_code == 200, (url, before.status_code)
                for text in GM_ONLY_TEXT:
                    assert text not in before.content.decode(), (persona, url, text)
                if "/history/" in url or url.endswith("/events/"):
                    continue  # built from the stored events, checked by the texts above
                original = run.state
                MissionRun.objects.filter(pk=run.pk).update(state=scrambled(original, rng))
                after = client.get(url)
                MissionRun.objects.filter(pk=run.pk).update(state=original)
                if url.startswith("/api/"):
                    assert after.json()["state"] == before.json()["state"], (persona, url)
                else:
                    assert html(after) == html(before), (persona, url)
        if kind is not None:
            move(run, side, kind, **params)


def test_a_fate_shows_on_the_players_page_only_once_revealed(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = start()
    for side, kind, params in VICTORY_MOVES[:5]:
        move(run, side, kind, **params)
    body = client_for(ttk.users["player"]).get(f"/ttk/{run.pk}/").content.decode()
    assert re.search(
        r'data-fate="opposition" data-revealed="true"><span>Opposition</span>\s*<strong class="faces">-', body
    )
    for fate in ("concealment", "terrain", "circumstance"):
        assert re.search(
            rf'data-fate="{fate}" data-revealed="false"><span>\w+</span>\s*<span class="meta">hidden', body
        )


def test_the_history_replays_every_move_and_shows_the_gm_the_dice(ttk, start, move, script):
    script(**VICTORY_SCRIPT)
    run = start()
    for side, kind, params in VICTORY_MOVES:
        move(run, side, kind, **params)
    gm = client_for(ttk.users["gm"]).get(f"/ttk/{run.pk}/history/").content.decode()
    assert "dice [-1, 0, 1, 0]" in gm and "roll 5" in gm and "Mission accomplished" in gm
    player = client_for(ttk.users["player"]).get(f"/ttk/{run.pk}/history/?at=4").content.decode()
    assert "The mission after move 4" in player and "[-1, 0, 1, 0]" not in player
    assert "roll 5" in player
    bad = client_for(ttk.users["player"]).get(f"/ttk/{run.pk}/history/?at=99")
    assert bad.status_code == 400 and "from 0 to 9" in bad.content.decode()


def test_page_queries_do_not_grow_with_the_moves(ttk, start, move, script, django_assert_max_num_queries):
    script(**VICTORY_SCRIPT)
    run = start()
    client = client_for(ttk.users["gm"])
    client.get(f"/ttk/{run.pk}/history/")
    for side, kind, params in VICTORY_MOVES[:8]:
        move(run, side, kind, **params)
    for url in (f"/ttk/{run.pk}/", f"/ttk/{run.pk}/history/", f"/campaigns/{ttk.campaign.pk}/ttk/"):
        with django_assert_max_num_queries(12):
            assert client.get(url).status_code == 200


@pytest.mark.parametrize("persona", PERSONAS)
def test_unknown_runs_are_404_for_everyone(ttk, persona):
    assert client_for(ttk.users[persona]).get("/ttk/987654/").status_code == 404
    assert client_for(ttk.users[persona]).get("/ttk/9999999999999999999999/").status_code == 404


def test_the_missions_tab_is_on_time_to_kill_campaigns_only(ttk, make_user):
    from campaigns import services as campaign_services

    client = client_for(ttk.users["gm"])
    page = client.get(f"/campaigns/{ttk.campaign.pk}/").content.decode()
    assert f'href="/campaigns/{ttk.campaign.pk}/ttk/">Missions</a>' in page
    other = campaign_services.create_campaign(ttk.users["gm"], name="Chronos", system="timemaster")
    assert "/ttk/" not in client.get(f"/campaigns/{other.pk}/").content.decode()


def test_the_gm_abandons_a_mission_and_the_players_page_says_so(ttk, start):
    run = start()
    player = client_for(ttk.users["player"])
    assert player.post(f"/ttk/{run.pk}/abandon/", {"confirm": "1"}).status_code == 403
    response = client_for(ttk.users["gm"]).post(f"/ttk/{run.pk}/abandon/", {"confirm": "1"})
    assert response.status_code == 302
    panel = player.get(f"/ttk/{run.pk}/panel/?after=0")
    assert panel.status_code == 200
    body = panel.content.decode()
    assert (
        "Abandoned by the GM" in body and "Draw a preparation stone" not in body and "hx-trigger" not in body
    )
