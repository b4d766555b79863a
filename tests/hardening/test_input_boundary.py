"""Issue 18, findings 2 and 3: hostile text is refused at the one input boundary with a 400 that
names the field, and nothing is stored.

Bodies are sent as raw JSON text: a lone surrogate exists only as the escape ``\\udc00`` (it
cannot be encoded as UTF-8), and a 4301-digit number cannot even be written by ``json.dumps``.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from django.apps import apps

from archive import services as archive_services
from tests.archive.conftest import make_campaign, make_hero, play_campaign  # noqa: F401  (fixtures)

LONE = "\\udc00"  # the JSON escape of a lone low surrogate
FORM = "application/x-www-form-urlencoded"


def snapshot():
    """Row counts of every Dossier model (nothing stored = all equal before and after)."""
    return {
        model._meta.label: model._default_manager.count()
        for config in apps.get_app_configs()
        if config.label
        in ("campaigns", "characters", "sheets", "ttk_missions", "tempo_conflicts", "d6_encounters")
        for model in config.get_models()
    }


def send(client, method, url, text):
    return client.generic(method, url, text, content_type="application/json")


def assert_refused(response, field):
    assert response.status_code == 400, response.content[:500]
    body = response.json()
    assert set(body) == {"status", "detail", "errors"} and body["status"] == 400
    fields = [error["field"] for error in body["errors"]]
    assert any(f == field or f.startswith(field) for f in fields), body


@pytest.fixture
def gm(world, api):
    return api(world.users["gm"])


def test_a_lone_surrogate_in_a_time_to_kill_narration_is_refused(world, gm, play_campaign):  # noqa: F811
    from systems.time_to_kill.models import MissionRun

    campaign = play_campaign("time_to_kill")
    run = MissionRun.objects.get(campaign=campaign, title="Rooftops")  # the GM narrates next
    before = snapshot()
    response = send(
        gm, "POST", f"/api/v1/ttk-runs/{run.pk}/events/", f'{{"type": "narrate", "text": "{LONE}"}}'
    )
    assert_refused(response, "text")
    assert snapshot() == before
    # The same event with valid text goes through: the refusal was the surrogate, not the move.
    ok = send(gm, "POST", f"/api/v1/ttk-runs/{run.pk}/events/", '{"type": "narrate", "text": "Rain"}')
    assert ok.status_code == 201, ok.content[:300]


def test_a_lone_surrogate_in_a_d6_encounter_note_is_refused(world, gm, play_campaign):  # noqa: F811
    from systems.d6.models import Encounter

    campaign = play_campaign("d6")
    encounter = Encounter.objects.get(campaign=campaign, name="Warehouse")
    url = f"/api/v1/campaigns/{campaign.pk}/d6-encounters/{encounter.pk}/events/"
    before = snapshot()
    assert_refused(send(gm, "POST", url, f'{{"type": "end_scene", "reason": "{LONE}"}}'), "reason")
    assert snapshot() == before


def test_a_lone_surrogate_in_builder_draft_choices_is_refused(world, gm):
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/"
    before = snapshot()
    text = f'{{"choices": {{"name": "Harry", "skills": [{{"name": "x"}}, {{"name": "{LONE}"}}]}}}}'
    assert_refused(send(gm, "POST", url, text), "choices.skills[1].name")
    assert snapshot() == before


def test_a_nul_in_builder_draft_choices_is_refused_on_every_database(world, gm):
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/"
    before = snapshot()
    assert_refused(send(gm, "POST", url, '{"choices": {"name": "Har\\u0000ry"}}'), "choices.name")
    assert snapshot() == before


def test_draft_choices_nested_600_deep_are_refused(world, gm):
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/"
    before = snapshot()
    text = '{"choices": {"name": "Harry", "notes": ' + "[" * 600 + "]" * 600 + "}}"
    assert_refused(send(gm, "POST", url, text), "choices.notes")
    assert snapshot() == before


def test_a_lone_surrogate_in_mission_chart_text_is_refused(world, gm):
    url = f"/api/v1/campaigns/{world.campaign.pk}/missions/"
    chart = f'[{{"low": 0, "high": null, "text": "{LONE}"}}]'
    before = snapshot()
    text = f'{{"title": "Sundial", "historical_changes_chart": {chart}}}'
    assert_refused(send(gm, "POST", url, text), "historical_changes_chart[0].text")
    assert snapshot() == before


def test_a_lone_surrogate_in_campaign_settings_is_refused(world, gm):
    url = f"/api/v1/campaigns/{world.campaign.pk}/"
    before = (snapshot(), world.campaign.settings)
    assert_refused(send(gm, "PATCH", url, f'{{"settings": {{"{LONE}": true}}}}'), "settings")
    assert_refused(
        send(
            gm, "POST", "/api/v1/campaigns/", f'{{"name": "X", "system": "d6", "settings": {{"{LONE}": 1}}}}'
        ),
        "settings",
    )
    world.campaign.refresh_from_db()
    assert (snapshot(), world.campaign.settings) == before


def test_a_lone_surrogate_in_npc_skills_is_refused(world, gm):
    url = f"/api/v1/campaigns/{world.campaign.pk}/npcs/"
    before = snapshot()
    text = f'{{"name": "Guard", "quick": true, "skills": {{"comp{LONE}": {{"level": "expert"}}}}}}'
    assert_refused(send(gm, "POST", url, text), "skills.comp\ufffd")
    assert snapshot() == before


@pytest.fixture
def archive_text(world, make_hero):  # noqa: F811
    """The world's campaign exported, as JSON text (ensure_ascii: every character an escape)."""
    world.campaign.missions.create(title="Operation Lantern", briefing="Find the lantern.")
    make_hero(world.campaign, ledger=False)
    return json.dumps(archive_services.export_campaign(world.campaign, world.users["gm"]))


def test_a_lone_surrogate_in_an_archive_is_refused(world, gm, archive_text):
    text = archive_text.replace("Find the lantern.", f"Find the {LONE}lantern.")
    before = snapshot()
    assert_refused(send(gm, "POST", "/api/v1/campaigns/import/", text), "missions[0].briefing")
    assert snapshot() == before


def test_an_archive_nested_900_deep_is_refused(world, gm, archive_text):
    deep = '"choices": {"notes": ' + "[" * 900 + "]" * 900 + ", "
    text = archive_text.replace('"choices": {', deep, 1)
    before = snapshot()
    assert_refused(send(gm, "POST", "/api/v1/campaigns/import/", text), "characters[0].choices.notes")
    assert snapshot() == before


def test_a_4301_digit_number_in_an_archive_is_refused(world, gm, archive_text):
    text = archive_text[:-1] + ', "padding": ' + "7" * 4301 + "}"
    before = snapshot()
    assert_refused(send(gm, "POST", "/api/v1/campaigns/import/", text), "padding")
    assert snapshot() == before


def test_a_4301_digit_number_in_a_json_body_is_refused_naming_the_field(world, gm):
    url = f"/api/v1/campaigns/{world.campaign.pk}/rolls/"
    before = snapshot()
    assert_refused(send(gm, "POST", url, '{"kind": "d6", "modifier": ' + "9" * 4301 + "}"), "modifier")
    assert snapshot() == before


def test_a_4301_digit_form_field_name_is_a_400_not_a_500(world, client):
    """The NPC form reads row numbers out of its field names with int()."""
    client.force_login(world.users["gm"])
    before = snapshot()
    body = urlencode({"name": "Guard", "skill_" + "1" * 4301: "computers"})
    response = client.post(f"/campaigns/{world.campaign.pk}/npcs/", body, content_type=FORM)
    assert response.status_code == 400
    assert "skill_111" in response.content.decode()
    assert snapshot() == before


def test_a_nul_in_an_html_form_is_refused_naming_the_field(world, client):
    client.force_login(world.users["gm"])
    before = snapshot()
    response = client.post(
        f"/campaigns/{world.campaign.pk}/missions/new/", {"title": "Sun", "briefing": "a\x00b"}
    )
    assert response.status_code == 400
    assert "briefing" in response.content.decode() and "NUL" in response.content.decode()
    assert snapshot() == before


def test_a_nul_in_a_query_string_is_refused_when_read_after_the_access_check(world, gm, api):
    url = f"/api/v1/campaigns/{world.campaign.pk}/rolls/"
    assert_refused(gm.get(url, {"mission": "a\x00"}), "mission")
    assert gm.get(url, {"unused": "a\x00"}).status_code == 200  # never read, never used
    assert api(world.users["outsider"]).get(url, {"mission": "a\x00"}).status_code == 404
    assert api().get(url, {"mission": "a\x00"}).status_code == 401


def test_valid_text_outside_the_basic_plane_still_goes_through(world, gm):
    """Surrogate *pairs* are one character (an emoji): only lone surrogates are refused."""
    url = f"/api/v1/campaigns/{world.campaign.pk}/characters/"
    response = send(gm, "POST", url, '{"choices": {"name": "Harry \\ud83d\\ude80\\tthe second"}}')
    assert response.status_code == 201, response.content[:300]
    assert response.json()["name"] == "Harry \U0001f680\tthe second"


def test_the_import_command_refuses_a_lone_surrogate_naming_the_path(world, archive_text, tmp_path):
    from django.core.management import CommandError, call_command

    path = tmp_path / "campaign.json"
    path.write_text(archive_text.replace("Find the lantern.", f"Find {LONE}"))
    before = snapshot()
    with pytest.raises(CommandError) as refused:
        call_command("import_campaign", str(path), "--gm", "gm")
    assert "missions[0].briefing: This value holds a lone surrogate (U+DC00" in str(refused.value)
    assert snapshot() == before


def test_the_archive_import_page_refuses_a_lone_surrogate_naming_the_path(world, client, archive_text):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(world.users["gm"])
    upload = SimpleUploadedFile("c.json", archive_text.replace("Find the lantern.", LONE).encode())
    before = snapshot()
    response = client.post("/campaigns/import/", {"file": upload})
    assert response.status_code == 400
    assert "missions[0].briefing" in response.content.decode()
    assert snapshot() == before
