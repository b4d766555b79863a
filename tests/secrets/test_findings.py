"""Issue 28's findings, one test each (finding 7, the error pages' headers, is in
tests/hardening/test_security_headers.py). Each failed on the main of 2026-11-27."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from campaigns import missions, services
from campaigns.models import Roll
from campaigns.table import rolling
from characters.models import AdvancementEntry
from systems.timemaster import action_checks as checks
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import mistake, new_agent, roll_of, started

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(world):
    """The issue's mission: lines 100, 90 (hidden from players) and 55; one agent; published."""
    agent = new_agent(world, "player", "Harry Adams")
    other = started(world, [new_agent(world, "other_player", "Ida Brandt")], title="An earlier mission")
    mistake(world, other, "event_changed", 10, description="An earlier line")  # campaign-wide ids move on
    mission = started(world, [agent], start_year=1806, end_year=1806)
    mistake(world, mission, "event_changed", 100, description="Clock tower burnt")
    hidden = mistake(world, mission, "other", 90, description="The GM's secret slip", shown_to_players=False)
    mistake(world, mission, "other", 55, description="A witness saw the gate")
    closed = tm_missions.close_mission(world.membership["gm"], mission, "success", rng=roll_of(500))
    missions.publish_mission(closed, world.users["gm"])
    closed.refresh_from_db()
    return {"mission": closed, "agent": agent, "hidden": hidden}


def _after_action(api, world, user, mission):
    url = f"/api/v1/campaigns/{world.campaign.pk}/missions/{mission.pk}/after-action/"
    return api(world.users[user]).get(url).json()


def test_1_a_players_mistakes_total_is_that_of_the_lines_the_player_sees(world, api, client, published):
    mission = published["mission"]
    assert mission.outcome["mistakes_total"] == 245 and mission.outcome["awards"][0]["regular"] == 455
    assert _after_action(api, world, "player", mission)["mistakes_total"] == 155
    assert _after_action(api, world, "gm", mission)["mistakes_total"] == 245
    client.force_login(world.users["player"])
    page = client.get(f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/report/").content.decode()
    assert "mistakes total of 155" in page and "mistakes total of 245" not in page


def test_2_a_players_tally_is_numbered_within_the_mission_with_no_ids(world, api, published):
    tally = _after_action(api, world, "player", published["mission"])["tally"]
    assert [line["number"] for line in tally] == [1, 2]
    assert [line["rating"] for line in tally] == [100, 55]
    assert all("id" not in line for line in tally)
    assert {key for line in tally for key in line} == {
        "number", "kind", "description", "rating", "equipment_item", "reverses", "reversed", "reason"
    }  # fmt: skip
    gm_tally = _after_action(api, world, "gm", published["mission"])["tally"]
    assert [line["number"] for line in gm_tally] == [1, 2, 3]  # within the mission, for the GM too


def test_3_a_correction_after_publishing_shows_players_the_new_award_but_not_its_cause(
    world, api, client, published
):
    mission, agent = published["mission"], published["agent"]
    reason = "Forgot that the slip happened offstage"
    tm_missions.reverse_mistake(mission, published["hidden"].pk, world.users["gm"], reason)
    mission.refresh_from_db()
    assert mission.outcome["awards"][0]["regular"] == 545  # the awards change: the words must say so
    assert AdvancementEntry.objects.filter(character=agent, reason__contains=reason).count() == 0
    history = api(world.users["player"]).get(
        f"/api/v1/campaigns/{world.campaign.pk}/characters/{agent.pk}/history/"
    )
    assert reason not in history.content.decode()
    assert tm_missions.CORRECTION_REASON in history.content.decode()  # a correction, shown as one
    client.force_login(world.users["player"])
    page = client.get(f"/characters/{agent.pk}/history/").content.decode()
    assert reason not in page
    client.force_login(world.users["gm"])
    ask = client.post(f"/campaigns/{world.campaign.pk}/missions/{mission.pk}/publish/").content.decode()
    assert "is final" not in ask and "worked out again" in ask


def test_4_a_players_secret_check_goes_to_the_gm_only(world, api, client):
    agent = new_agent(world, "player", "Harry Adams")  # Investigation: a secret check (its chart marker)
    secret_scores = [s for s in checks.agent_scores(agent) if s.secret]
    assert secret_scores, "the agent needs a secret-check skill for this test"
    score = secret_scores[0]
    client.force_login(world.users["player"])
    response = client.post(
        f"/campaigns/{world.campaign.pk}/dice/check/",
        {
            "check-character": agent.pk,
            "check-score": score.key,
            "check-kind": "general",
            "check-modifier": 0,
            "check-results_key": "ability",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200, page
    roll = Roll.objects.get()
    assert roll.secret and roll.announced and roll.sealed and roll.roller == world.users["player"]
    assert "Secret check made for Harry Adams" in page and f"rolled <strong>{roll.total}</strong>" not in page
    for user in ("player", "other_player", "observer"):
        (seen,) = (
            api(world.users[user]).get(f"/api/v1/campaigns/{world.campaign.pk}/rolls/").json()["results"]
        )
        assert (seen["total"], seen["faces"], seen["detail"], seen["purpose"]) == (None, [], {}, "")
        assert seen["character"] == agent.pk and seen["roller"] == "player"
    gm_view = api(world.users["gm"]).get(f"/api/v1/campaigns/{world.campaign.pk}/rolls/").json()["results"][0]
    assert gm_view["total"] == roll.total and gm_view["detail"]["score_key"] == score.key
    # The GM rolls it secretly without ticking a box; sharing it shows the table the result.
    gm_roll = checks.roll_check(world.membership["gm"], agent, score.key, rng=random.Random(5))
    assert gm_roll.secret and gm_roll.sealed
    api(world.users["gm"]).post(f"/api/v1/campaigns/{world.campaign.pk}/rolls/{gm_roll.pk}/reveal/")
    shown = api(world.users["other_player"]).get(f"/api/v1/campaigns/{world.campaign.pk}/rolls/{gm_roll.pk}/")
    assert shown.json()["total"] == gm_roll.total and shown.json()["sealed"] is False


def test_5_a_dead_invitation_link_answers_like_an_unknown_code(world, client):
    revoked = services.revoke_invitation(services.create_invitation(world.campaign, world.users["gm"]))
    expired = services.create_invitation(world.campaign, world.users["gm"])
    expired.expires_at = timezone.now() - timedelta(days=1)
    expired.save()
    unknown = client.get("/join/no-such-code/")
    for who in (None, "outsider"):
        if who:
            client.force_login(world.users[who])
        for invitation in (revoked, expired):
            response = client.get(f"/join/{invitation.code}/")
            page = response.content.decode()
            assert response.status_code == unknown.status_code == 404
            assert world.campaign.name not in page and "TIMEMASTER" not in page
            assert services.INVALID_INVITATION in page
            assert client.post(f"/join/{invitation.code}/").status_code == 404


def test_6_successful_logins_from_one_address_never_lock_a_table_out(world, client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "login": "5/hour"}
    for _ in range(3):  # a whole evening of switching between accounts from one router
        for user in ("gm", "player", "other_player", "observer", "outsider"):
            response = client.post(
                "/accounts/login/",
                {"username": user, "password": "a-long-test-password"},
                REMOTE_ADDR="10.4.4.4",
            )
            assert response.status_code == 302, response.content.decode()[:300]
            client.logout()
    # failures still count per address; the answer says what happened and when it ends
    for name in ("a", "b", "c", "d", "e"):
        client.post("/accounts/login/", {"username": name, "password": "x"}, REMOTE_ADDR="10.4.4.4")
    locked = client.post(
        "/accounts/login/", {"username": "player", "password": "a-long-test-password"}, REMOTE_ADDR="10.4.4.4"
    )
    assert locked.status_code == 429
    assert "failed to log in from this address" in locked.content.decode()
    assert "minute" in locked.content.decode()


@pytest.mark.parametrize(
    "role, expected",
    [("gm", 302), ("player", 403), ("other_player", 403), ("observer", 403), ("outsider", 404), (None, 302)],
)
def test_only_the_gm_shares_a_secret_rolls_result_from_the_dice_page(world, client, role, expected):
    roll = rolling.record_roll(world.membership["gm"], kind="d6", secret=True, rng=random.Random(9))
    if role:
        client.force_login(world.users[role])
    response = client.post(f"/campaigns/{world.campaign.pk}/dice/{roll.pk}/reveal/")
    assert response.status_code == expected
    roll.refresh_from_db()
    assert (roll.revealed_at is not None) == (role == "gm")
    if role is None:
        assert "/accounts/login/" in response["Location"]
    if role == "gm":  # once shared, sharing again is refused with a message and changes nothing
        again = client.post(f"/campaigns/{world.campaign.pk}/dice/{roll.pk}/reveal/", follow=True)
        assert "already shared" in again.content.decode()
