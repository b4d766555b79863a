"""The TIMEMASTER mission after-action report: the GM's copy with everything, a player's copy with
only what was published to them, and nobody else's copies."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaigns import missions
from sheets.models import SheetRender
from sheets.tasks import run_render
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import gm_membership, mistake, new_agent, roll_of, started
from tests.sheets.conftest import pdf_text

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")


def request_url(campaign):
    return f"/api/v1/campaigns/{campaign.pk}/sheets/"


@pytest.fixture
def closed_mission(world):
    agents = [
        new_agent(world, "player", "Harry Adams"),
        new_agent(world, "other_player", "Ida Brandt"),
        new_agent(world, "player", "Carl Dorn"),
    ]
    mission = started(world, agents)  # significance 700
    mistake(world, mission, "event_changed", 100, description="Clock tower struck early")
    mistake(world, mission, "other", 90, description="Renegade cache found", shown_to_players=False)
    wrong = mistake(world, mission, "other", 55, description="Counted twice")
    tm_missions.reverse_mistake(mission, wrong.pk, world.users["gm"], "recorded twice")
    # total 190, roll 391: history intact, pool 510 -> 170 each
    return tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(391))


def publish(world, mission):
    return missions.publish_mission(mission, world.users["gm"])


def ask(api, world, persona, mission):
    return api(world.users[persona]).post(
        request_url(world.campaign), {"kind": "after_action", "mission": mission.pk}, format="json"
    )


def rendered_text(render_id: int) -> tuple[int, str]:
    assert run_render(render_id) == "done"
    render = SheetRender.objects.get(pk=render_id)
    return pdf_text(Path(render.file.path).read_bytes())


def test_the_gms_copy_has_the_tally_the_check_the_verdict_and_every_award(world, api, closed_mission):
    response = ask(api, world, "gm", closed_mission)
    assert response.status_code == 202, response.content
    # the render names what it printed under the request's own field (the kind's target)
    assert response.json()["mission"] == closed_mission.pk and response.json()["run"] is None
    pages, text = rendered_text(response.json()["id"])
    flat = " ".join(text.split())
    assert pages == 1
    assert "The Vienna clockmaker" in text and "History intact" in text
    assert "700" in text  # the significance rating
    assert "391" in text and "190" in text  # the roll and the mistakes total
    assert "Renegade cache found" in text and "Clock tower struck early" in text
    assert "reversed" in text and "recorded twice" in flat
    for name in ("Harry Adams", "Ida Brandt", "Carl Dorn"):
        assert name in text
    assert "170" in text and "510" in text  # share and pool
    assert "GM COPY" in text.upper()
    # the Verdict table's Difference, 190 - 391, is the audit's (it was blank while history held)
    assert "Difference -201" in flat or "Difference −201" in flat


@pytest.mark.parametrize("persona", ["player", "other_player", "observer"])
def test_before_publishing_a_player_gets_no_report(world, api, closed_mission, persona):
    response = ask(api, world, persona, closed_mission)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "mission"
    assert SheetRender.objects.count() == 0


def test_a_players_copy_leaves_out_what_the_gm_did_not_publish(world, api, closed_mission):
    publish(world, closed_mission)
    response = ask(api, world, "player", closed_mission)
    assert response.status_code == 202, response.content
    pages, text = rendered_text(response.json()["id"])
    assert pages == 1
    assert "History intact" in text and "Clock tower struck early" in text and "391" in text
    assert "Renegade cache found" not in text  # a line the GM kept from the players
    assert "700" not in text and "510" not in text  # significance and pool stay the GM's
    assert "Harry Adams" in text and "Carl Dorn" in text  # the player's own agents' awards
    assert "GM COPY" not in text.upper()
    render = SheetRender.objects.get(pk=response.json()["id"])
    assert not render.gm_copy and render.mission == closed_mission


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 202), ("player", 202), ("other_player", 202), ("observer", 202), ("outsider", 404)],
)
def test_who_may_request_a_published_report(world, api, closed_mission, persona, expected):
    publish(world, closed_mission)
    assert ask(api, world, persona, closed_mission).status_code == expected


def test_each_reader_downloads_only_their_own_copy(world, api, closed_mission):
    publish(world, closed_mission)
    copies = {p: ask(api, world, p, closed_mission).json()["id"] for p in ("gm", "player", "other_player")}
    assert len(set(copies.values())) == 3
    for render_id in copies.values():
        assert run_render(render_id) == "done"
    for owner, render_id in copies.items():
        for persona in PERSONAS:
            response = api(world.users[persona]).get(f"/api/v1/sheets/{render_id}/download/")
            expected = 200 if persona == owner or persona == "gm" else (404 if persona == "outsider" else 403)
            if owner == "gm" and persona != "gm":
                expected = 404  # the GM's copy: answered as an id nobody holds (docs/secrets.md)
            assert response.status_code == expected, (owner, persona)
            if expected != 200:
                assert b"%PDF" not in response.content


def test_a_mission_of_another_campaign_or_an_open_one_is_refused(world, api, closed_mission):
    from campaigns import services as campaign_services
    from campaigns.models import Mission

    other = campaign_services.create_campaign(world.users["gm"], name="Other", system="timemaster")
    foreign = Mission.objects.create(campaign=other, title="Elsewhere")
    assert ask(api, world, "gm", foreign).status_code == 404
    open_mission = Mission.objects.create(campaign=world.campaign, title="Still open")
    response = ask(api, world, "gm", open_mission)
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "mission"
    missing = api(world.users["gm"]).post(
        request_url(world.campaign), {"kind": "after_action"}, format="json"
    )
    assert missing.status_code == 400 and missing.json()["errors"][0]["field"] == "mission"


def test_the_sheets_page_offers_published_reports_to_players_only(world, client, closed_mission):
    client.force_login(world.users["player"])
    url = f"/campaigns/{world.campaign.pk}/sheets/"
    button = f'data-testid="print-after-action-{closed_mission.pk}"'.encode()
    assert button not in client.get(url).content
    publish(world, closed_mission)
    assert button in client.get(url).content
    response = client.post(url, {"kind": "after_action", "mission": closed_mission.pk})
    assert response.status_code == 302


def test_a_players_copy_is_numbered_and_totalled_as_if_nothing_were_hidden(world, closed_mission):
    """Issue 20: the hidden line left a gap in the numbering and the full total (190) stood beside
    printed lines worth 100. A player's copy numbers its own lines 1, 2, 3 ... and totals them."""
    from systems.timemaster import sheets as after_action

    publish(world, closed_mission)
    closed_mission.refresh_from_db()
    fields = after_action.report(closed_mission, world.users["player"], is_gm=False)
    numbers = [row["number"] for row in fields["tally"]]
    assert numbers == list(range(1, len(numbers) + 1))
    counted = [row["rating"] for row in fields["tally"] if not row["reversed"] and row["rating"]]
    assert fields["mistakes_total"] == sum(counted) == 100
    gm_fields = after_action.report(closed_mission, world.users["gm"], is_gm=True)
    assert [row["number"] for row in gm_fields["tally"]] == list(range(1, len(gm_fields["tally"]) + 1))
    assert gm_fields["mistakes_total"] == 190


def test_the_download_is_named_after_the_subject_and_system(world, api, closed_mission):
    publish(world, closed_mission)
    render_id = ask(api, world, "player", closed_mission).json()["id"]
    assert run_render(render_id) == "done"
    response = api(world.users["player"]).get(f"/api/v1/sheets/{render_id}/download/")
    assert response.status_code == 200
    disposition = response["Content-Disposition"]
    assert "-timemaster-after-action-report-r0-letter.pdf" in disposition
    assert "after_action" not in disposition


def test_every_document_on_the_sheets_page_is_offered_on_either_paper(world, client, closed_mission):
    """A new user found no paper choice for the after-action report (and the Fate Record Sheet):
    they always came out on the campaign's paper. Each print form has its paper, and A4 is A4."""
    import re

    import pypdfium2

    client.force_login(world.users["gm"])
    page = client.get(f"/campaigns/{world.campaign.pk}/sheets/").content.decode()
    forms = re.findall(r'<form method="post"[^>]*>(.*?)</form>', page, re.S)
    printing = [form for form in forms if 'name="kind"' in form]
    assert printing and all('name="paper"' in form for form in printing)
    response = client.post(
        f"/campaigns/{world.campaign.pk}/sheets/",
        {"kind": "after_action", "mission": closed_mission.pk, "paper": "a4"},
    )
    assert response.status_code == 302
    render = SheetRender.objects.get(kind="after_action")
    assert run_render(render.pk) == "done"
    render.refresh_from_db()
    width, height = pypdfium2.PdfDocument(Path(render.file.path).read_bytes())[0].get_size()
    assert (round(width), round(height)) == (595, 842)
