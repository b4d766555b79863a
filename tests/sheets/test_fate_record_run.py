"""The GM's Fate Record Sheet filled from a Time to Kill mission run (issue 8): the current turn's
Fates, keyed by the run and its event count, for the GM only; the blank one stays for table play."""

from __future__ import annotations

from pathlib import Path

import pytest

from sheets import services
from sheets.models import RenderStatus, SheetRender
from sheets.tasks import run_render
from systems.time_to_kill import sheets as ttk_sheets
from systems.time_to_kill.tests.missions.helpers import PLACEMENT, ScriptedRng
from tests.sheets.conftest import pdf_metadata, pdf_text

PERSONAS = ("gm", "player", "other_player", "observer", "outsider")
SECRET_NOTES = "The abbot keeps the key under the bell"
#: Into the current turn: the Fates rolled (- 0 + 0), placed as PLACEMENT, Opposition revealed.
OPENING = [
    ("player", "prepare_draw", {}),
    ("player", "end_preparation", {}),
    ("gm", "roll_fates", {}),
    ("gm", "assign_fates", {"fates": PLACEMENT}),
    ("player", "reveal_fate", {"fate": "opposition"}),
]


def request_url(campaign):
    return f"/api/v1/campaigns/{campaign.pk}/sheets/"


@pytest.fixture
def script(monkeypatch):
    from systems.time_to_kill import services as ttk_services

    def set_script(**queues):
        rng = ScriptedRng(**queues)
        monkeypatch.setattr(ttk_services, "make_rng", lambda: rng)
        monkeypatch.setattr("characters.systems.fair_dice.FairRandom", lambda key: rng)  # the dice
        return rng

    return set_script


@pytest.fixture
def ttk_run(world, ttk_world, script):
    """A running mission of Kage (the player's ninja) in its first turn, Fates placed."""
    from campaigns.access import get_campaign_for_user
    from systems.time_to_kill import services as ttk_services

    script(draws=["o"], fudge=[-1, 0, 1, 0])
    _, gm = get_campaign_for_user(world.users["gm"], ttk_world.pk, need="gm")
    run = ttk_services.start_run(
        gm,
        ninja=ttk_world.characters.get().pk,
        title="The Bell Tower",
        mission_stones=12,
        briefing={"victory_conditions": "Silence the abbot", "gm_notes": SECRET_NOTES},
    )
    for side, kind, params in OPENING:
        move(world, run, side, kind, **params)
    return run


def move(world, run, side, kind, **params):
    from systems.time_to_kill import services as ttk_services

    user = world.users["gm" if side == "gm" else "player"]
    return ttk_services.post_event(run, user, side, {"type": kind, **params})


def gm_render(world, campaign, run, paper="letter"):
    from campaigns.access import get_campaign_for_user

    _, membership = get_campaign_for_user(world.users["gm"], campaign.pk, need="gm")
    render, created = services.request_render(
        world.users["gm"], "fate_record", campaign, membership, paper=paper, target=run
    )
    return render, created


def rendered(render) -> tuple[int, str, bytes]:
    assert run_render(render.pk) == "done"
    render.refresh_from_db()
    data = Path(render.file.path).read_bytes()
    pages, text = pdf_text(data)
    return pages, text, data


def box_values(text: str) -> list[str]:
    """The four values printed under the four box labels, in the sheet's order (each Fate is its
    own box since Sheets 2.0: its label, then its value in a circle)."""
    lines = text.splitlines()
    start = lines.index("This turn's Fates")
    return [
        lines[lines.index(label, start) + 1]
        for label in ("Opposition", "Concealment", "Terrain", "Circumstance")
    ]


# -- what the GM's copy shows -----------------------------------------------------------------
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_gms_copy_shows_the_current_turns_fates_on_one_page(world, ttk_world, ttk_run, paper):
    render, created = gm_render(world, ttk_world, ttk_run, paper)
    assert created and render.record == ttk_run and render.gm_copy
    assert render.revision == ttk_run.event_count == len(OPENING)
    pages, text, data = rendered(render)
    assert pages == 1 and render.pages == 1
    assert box_values(text) == [
        PLACEMENT[key] for key in ("opposition", "concealment", "terrain", "circumstance")
    ]
    flat = " ".join(text.split())
    assert "The Bell Tower · running · after event 5" in flat
    assert "revealed by" in flat  # Opposition was revealed to the player
    assert "Stones left 11" in flat and "Stones at start 12" in flat
    assert "Target stone in the bag" in flat
    assert SECRET_NOTES in flat and "Silence the abbot" in flat
    assert "Kage · after event 5" in flat  # the footer: the ninja and the event count
    assert pdf_metadata(data).title == "The Bell Tower Fate Record, after event 5"


def test_the_sheet_shows_what_fate_record_sheet_for_run_gives(world, ttk_world, ttk_run):
    """The sheet prints the ttk_missions data as is: nothing of the rules is worked out in sheets."""
    from systems.time_to_kill.services import fate_record_sheet_for_run

    expected = fate_record_sheet_for_run(ttk_run)
    render, _ = gm_render(world, ttk_world, ttk_run)
    page = render.snapshot["pages"][0]["fields"]
    assert page["boxes"] == expected["boxes"] and page["turn"] == expected["turn"]
    assert page["grid"] == expected["grid"] and page["dice"] == expected["dice"]
    assert {k: v for k, v in page["mission"].items() if k != "target_label"} == expected["mission"]


# -- keyed by the run and its event count ------------------------------------------------------
def test_the_same_state_reuses_the_stored_pdf_and_a_new_event_makes_a_new_one(
    world, ttk_world, ttk_run, api, django_capture_on_commit_callbacks
):
    client = api(world.users["gm"])
    body = {"kind": "fate_record", "run": ttk_run.pk}
    with django_capture_on_commit_callbacks() as queued:
        first = client.post(request_url(ttk_world), body, format="json")
    assert first.status_code == 202 and len(queued) == 1
    assert first.json()["run"] == ttk_run.pk and first.json()["revision"] == 5
    rendered(SheetRender.objects.get(pk=first.json()["id"]))

    with django_capture_on_commit_callbacks() as queued:
        again = client.post(request_url(ttk_world), body, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"] and queued == []
    assert again.json()["download_url"]

    move(world, ttk_run, "gm", "narrate", text="Fog over the monastery wall.")
    with django_capture_on_commit_callbacks() as queued:
        moved = client.post(request_url(ttk_world), body, format="json")
    assert moved.status_code == 202 and moved.json()["id"] != first.json()["id"] and len(queued) == 1
    assert moved.json()["revision"] == 6
    assert ttk_run.sheet_renders.count() == 2


def test_a_runs_prints_go_with_the_run_and_nothing_else_does(world, ttk_world, ttk_run, api):
    """The render names its run through a generic relation (the platform names no system's model);
    the run's GenericRelation deletes its prints with it, as the old foreign key's cascade did."""
    from django.contrib.contenttypes.models import ContentType

    client = api(world.users["gm"])
    filled = client.post(request_url(ttk_world), {"kind": "fate_record", "run": ttk_run.pk}, format="json")
    blank = client.post(request_url(ttk_world), {"kind": "fate_record"}, format="json")
    render = SheetRender.objects.get(pk=filled.json()["id"])
    assert render.record_type == ContentType.objects.get_for_model(ttk_run) and render.record_id == ttk_run.pk
    assert list(ttk_run.sheet_renders.all()) == [render]

    ttk_run.delete()
    assert not SheetRender.objects.filter(pk=render.pk).exists()
    assert SheetRender.objects.filter(pk=blank.json()["id"]).exists()


def test_the_blank_sheet_and_a_runs_sheet_are_separate_prints(world, ttk_world, ttk_run, api):
    client = api(world.users["gm"])
    blank = client.post(request_url(ttk_world), {"kind": "fate_record"}, format="json").json()
    filled = client.post(
        request_url(ttk_world), {"kind": "fate_record", "run": ttk_run.pk}, format="json"
    ).json()
    assert blank["id"] != filled["id"] and blank["run"] is None and filled["run"] == ttk_run.pk
    pages, text, _ = rendered(SheetRender.objects.get(pk=blank["id"]))
    assert pages == 1 and SECRET_NOTES not in text and "The Bell Tower" not in text


def test_a_finished_run_prints_its_last_turn_and_its_outcome(world, ttk_world, ttk_run):
    from campaigns.access import get_campaign_for_user
    from systems.time_to_kill import services as ttk_services

    _, gm = get_campaign_for_user(world.users["gm"], ttk_world.pk, need="gm")
    ttk_services.abandon_run(ttk_run, gm)
    render, _ = gm_render(world, ttk_world, ttk_run)
    pages, text, _ = rendered(render)
    flat = " ".join(text.split())
    assert pages == 1 and "The Bell Tower · over · after event 5" in flat
    assert ttk_services.ABANDONED_LABEL in flat
    assert box_values(text) == ["-", "0", "+", "0"]


def longest_run_to_turn(world, ttk_world, script, last_turn: int):
    """A mission run with the longest texts the forms accept, played until turn ``last_turn``."""
    from campaigns.access import get_campaign_for_user
    from systems.time_to_kill import services as ttk_services
    from systems.time_to_kill.engine.tables import MAX_LONG_TEXT, MAX_TEXT

    _, gm = get_campaign_for_user(world.users["gm"], ttk_world.pk, need="gm")
    run = ttk_services.start_run(
        gm,
        ninja=ttk_world.characters.get().pk,
        title="A Long Night " + "W" * (MAX_TEXT - 13),
        mission_stones=100,
        briefing={
            "brief": ("Over the wall " * 200)[:MAX_LONG_TEXT],
            "victory_conditions": "W" * MAX_LONG_TEXT,
            "gm_notes": ("The abbot sleeps late " * 100)[:MAX_LONG_TEXT],
        },
    )
    script(draws=["o"] * 100, fudge=[0] * 400)
    move(world, run, "player", "end_preparation")
    while run.state["turn"] < last_turn:
        move(world, run, "gm", "roll_fates")
        move(world, run, "gm", "assign_fates", fates=dict.fromkeys(PLACEMENT, "0"))
        move(world, run, "gm", "narrate", text="Still night.")
        move(world, run, "player", "wait")
        move(world, run, "gm", "end_turn")
    return run


def test_a_long_mission_with_the_longest_texts_keeps_to_one_page(world, ttk_world, script):
    run = longest_run_to_turn(world, ttk_world, script, ttk_sheets.FATE_RECORD_GRID_TURNS + 6)
    render, _ = gm_render(world, ttk_world, run)
    grid = render.snapshot["pages"][0]["fields"]["grid"]
    assert len(grid) == ttk_sheets.FATE_RECORD_GRID_TURNS and grid[-1]["turn"] == run.state["turn"]
    pages, text, _ = rendered(render)  # Letter: the shorter page
    flat = " ".join(text.split())
    earlier = run.state["turn"] - ttk_sheets.FATE_RECORD_GRID_TURNS
    assert pages == 1 and f"The last {len(grid)} turns; {earlier} earlier in the mission history." in flat


def test_a_full_turn_record_with_the_longest_texts_keeps_its_notes_lines_on_one_page(
    world, ttk_world, script
):
    """Exactly a grid of turns, so no "earlier turns" line: the sheet also prints its GM notes lines."""
    run = longest_run_to_turn(world, ttk_world, script, ttk_sheets.FATE_RECORD_GRID_TURNS)
    render, _ = gm_render(world, ttk_world, run)
    assert len(render.snapshot["pages"][0]["fields"]["grid"]) == ttk_sheets.FATE_RECORD_GRID_TURNS
    pages, text, _ = rendered(render)  # Letter: the shorter page
    assert pages == 1 and "GM notes" in text and "earlier in the mission history" not in text


# -- GM only, in the API and the pages -----------------------------------------------------------
@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 202), ("player", 403), ("other_player", 403), ("observer", 403), ("outsider", 404)],
)
def test_only_the_gm_may_request_a_runs_fate_record_sheet(world, ttk_world, ttk_run, api, persona, expected):
    response = api(world.users[persona]).post(
        request_url(ttk_world), {"kind": "fate_record", "run": ttk_run.pk}, format="json"
    )
    assert response.status_code == expected, response.content
    assert SheetRender.objects.exists() == (expected == 202)
    assert SECRET_NOTES not in response.content.decode()


def test_anonymous_requests_for_a_runs_sheet_are_refused(world, ttk_world, ttk_run, api):
    response = api().post(request_url(ttk_world), {"kind": "fate_record", "run": ttk_run.pk}, format="json")
    assert response.status_code == 401 and not SheetRender.objects.exists()


@pytest.mark.parametrize(
    "persona, expected",
    [("gm", 200), ("player", 404), ("other_player", 404), ("observer", 404), ("outsider", 404)],
)
def test_nobody_but_the_gm_sees_or_downloads_a_runs_sheet(
    world, ttk_world, ttk_run, api, web, persona, expected
):
    render, _ = gm_render(world, ttk_world, ttk_run)
    rendered(render)
    client = api(world.users[persona])
    for url in (f"/api/v1/sheets/{render.pk}/", f"/api/v1/sheets/{render.pk}/download/"):
        response = client.get(url)
        assert response.status_code == expected, url
        if expected != 200:
            assert not response.content.startswith(b"%PDF") and SECRET_NOTES not in response.content.decode()
    page_client = web(world.users[persona])
    for url in (f"/sheets/{render.pk}/", f"/sheets/{render.pk}/status/", f"/sheets/{render.pk}/download/"):
        response = page_client.get(url)
        assert response.status_code == expected, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert body.startswith(b"%PDF") == (expected == 200 and url.endswith("download/"))


def test_a_run_of_another_campaign_is_not_found(world, ttk_world, ttk_run, api, make_character):
    from campaigns import services as campaign_services

    other = campaign_services.create_campaign(world.users["gm"], name="Second Night", system="time_to_kill")
    response = api(world.users["gm"]).post(
        request_url(other), {"kind": "fate_record", "run": ttk_run.pk}, format="json"
    )
    assert response.status_code == 404 and not SheetRender.objects.exists()


@pytest.mark.parametrize(
    "body, field",
    [
        ({"kind": "blank", "run": 1}, "run"),
        ({"kind": "fate_record", "run": "tower"}, "run"),
        ({"kind": "fate_record", "run": 0}, "run"),
        ({"kind": "fate_record", "run": 2**70}, "run"),
    ],
)
def test_a_bad_run_is_refused_by_field(world, ttk_world, api, body, field):
    response = api(world.users["gm"]).post(request_url(ttk_world), body, format="json")
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert not SheetRender.objects.exists()


def test_a_missing_run_is_not_found(world, ttk_world, api):
    response = api(world.users["gm"]).post(
        request_url(ttk_world), {"kind": "fate_record", "run": 99999}, format="json"
    )
    assert response.status_code == 404 and not SheetRender.objects.exists()


@pytest.fixture
def web(client):
    def login(user):
        client.force_login(user)
        return client

    return login


def test_the_gm_prints_a_runs_sheet_from_the_campaign_sheets_page(world, ttk_world, ttk_run, web):
    client = web(world.users["gm"])
    page = client.get(f"/campaigns/{ttk_world.pk}/sheets/").content.decode()
    assert f"print-fate-record-{ttk_run.pk}" in page and "print-fate-record" in page
    response = client.post(f"/campaigns/{ttk_world.pk}/sheets/", {"kind": "fate_record", "run": ttk_run.pk})
    render = SheetRender.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/sheets/{render.pk}/"
    assert render.record == ttk_run and render.revision == ttk_run.event_count
    progress = client.get(f"/sheets/{render.pk}/").content.decode()
    assert "The Bell Tower" in progress
    run_render(render.pk)
    assert "after event 5" in client.get(f"/sheets/{render.pk}/status/").content.decode()
    listing = client.get(f"/campaigns/{ttk_world.pk}/sheets/").content.decode()
    assert "Fate Record Sheet: The Bell Tower" in listing


@pytest.mark.parametrize("persona, expected", [("player", 403), ("other_player", 403), ("observer", 403)])
def test_other_members_get_no_print_button_and_no_sheet(world, ttk_world, ttk_run, web, persona, expected):
    client = web(world.users[persona])
    page = client.get(f"/campaigns/{ttk_world.pk}/sheets/").content.decode()
    assert "print-fate-record" not in page and "Print Fate Record Sheet" not in page
    response = client.post(f"/campaigns/{ttk_world.pk}/sheets/", {"kind": "fate_record", "run": ttk_run.pk})
    assert response.status_code == expected
    assert not SheetRender.objects.exists()


def test_an_outsider_cannot_even_find_the_print_page(world, ttk_world, ttk_run, web):
    client = web(world.users["outsider"])
    assert client.get(f"/campaigns/{ttk_world.pk}/sheets/").status_code == 404
    response = client.post(f"/campaigns/{ttk_world.pk}/sheets/", {"kind": "fate_record", "run": ttk_run.pk})
    assert response.status_code == 404 and not SheetRender.objects.exists()


@pytest.mark.parametrize("persona", PERSONAS)
def test_only_the_gm_console_links_to_the_sheet(world, ttk_world, ttk_run, web, persona):
    response = web(world.users[persona]).get(f"/ttk/{ttk_run.pk}/")
    if persona == "outsider":
        assert response.status_code == 404
        return
    page = response.content.decode()
    assert ("Print Fate Record Sheet" in page) == (persona == "gm")
    if persona == "gm":
        assert f'name="run" value="{ttk_run.pk}"' in page and f"/campaigns/{ttk_world.pk}/sheets/" in page


def test_a_failed_render_of_a_run_is_retried_by_a_new_request(world, ttk_world, ttk_run):
    render, _ = gm_render(world, ttk_world, ttk_run)
    SheetRender.objects.filter(pk=render.pk).update(status=RenderStatus.FAILED, error="disk full")
    again, created = gm_render(world, ttk_world, ttk_run)
    assert created and again.pk != render.pk and again.revision == render.revision
