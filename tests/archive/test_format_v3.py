"""Format version 3: no server ids in ledger payloads, builds and mission outcomes.

Before it, a TIMEMASTER agent's history kept the exporting server's mission ids verbatim
(``mission_started``, the award, Times Visited ...). On a fresh server a new mission can get an id
that history already uses, and the engine then thinks the agent already went on it. These tests
make that happen: the source mission is deleted after the export (the old server is gone, its id is
free again) and the new server's next mission is given that id.
"""

from __future__ import annotations

import json

from archive import services
from campaigns import missions
from campaigns.models import Mission
from systems.timemaster import missions as tm_missions
from tests.archive.conftest import D10Faces


def _vienna(campaign) -> Mission:
    return campaign.missions.get(title="The Vienna clockmaker")


def _forget_the_old_server(campaign) -> int:
    """Delete the exported mission so that its id is free, as on a fresh server; return the id."""
    old = _vienna(campaign)
    old_id = old.pk
    old.delete()
    return old_id


def _mission_with_id(pk: int, campaign, agents) -> Mission:
    """A planned TIMEMASTER mission with the given database id (the id a fresh server hands out)."""
    mission = Mission.objects.create(
        pk=pk,
        campaign=campaign,
        title="The Paris printer",
        parallel="T-0",
        place="Paris",
        start_year=1900,
        end_year=1900,
        significance_rating=500,
    )
    mission.agents.set(agents)
    return mission


def _send_close_and_publish(world, mission) -> None:
    gm = world.users["gm"]
    missions.start_mission(mission, gm)
    membership = mission.campaign.memberships.get(user=gm)
    tm_missions.close_mission(membership, mission, "success", rng=D10Faces([0, 0, 1]))
    mission.refresh_from_db()
    missions.publish_mission(mission, gm)


def _regular_awards(character) -> list[dict]:
    return [
        e.payload
        for e in character.entries.filter(kind="sp_awarded", reversed_by__isnull=True)
        if e.payload.get("type") == "regular"
    ]


def test_a_new_mission_with_an_id_an_imported_agent_history_used_is_a_new_mission(
    world, full_campaign, make_campaign
):
    harry = full_campaign.characters.get(name="Harry Adams")
    document = json.loads(json.dumps(services.export_character(harry, world.users["gm"])))
    old_id = _forget_the_old_server(full_campaign)
    target = make_campaign("timemaster", name="A fresh server")
    copy = services.import_character(document, target, world.users["player"], world.users["gm"])
    mission = _mission_with_id(old_id, target, [copy])

    _send_close_and_publish(world, mission)

    copy.refresh_from_db()
    assert str(old_id) in copy.build["state"]["missions_awarded"]
    assert len(_regular_awards(copy)) == 2  # Vienna's, then the new mission's


def test_a_new_mission_with_an_id_an_imported_campaign_used_is_a_new_mission(world, full_campaign):
    document = json.loads(json.dumps(services.export_campaign(full_campaign, world.users["gm"])))
    old_id = _forget_the_old_server(full_campaign)
    copy = services.import_campaign(document, world.users["gm"], trusted=True)
    harry = copy.characters.get(name="Harry Adams")
    mission = _mission_with_id(old_id, copy, [harry])

    _send_close_and_publish(world, mission)

    harry.refresh_from_db()
    assert len(_regular_awards(harry)) == 2


def test_an_imported_agent_history_names_the_imported_missions(world, full_campaign):
    document = json.loads(json.dumps(services.export_campaign(full_campaign, world.users["gm"])))
    copy = services.import_campaign(document, world.users["gm"], trusted=True)
    vienna = _vienna(copy)
    harry = copy.characters.get(name="Harry Adams")
    assert harry.build["state"]["missions_awarded"] == [str(vienna.pk)]
    assert [visit["mission"] for visit in harry.build["times_visited"]] == [str(vienna.pk)]
    started = harry.entries.get(kind="mission_started")
    assert started.payload["mission"] == str(vienna.pk) and started.mission == vienna
    assert vienna.outcome["mission"] == str(vienna.pk)
    assert sorted(a["agent"] for a in vienna.outcome["awards"]) == sorted(
        str(c.pk) for c in copy.characters.filter(name__in=("Harry Adams", "Mae Lin"))
    )


def test_a_correction_to_a_mission_closed_before_the_export_works_after_the_import(world, full_campaign):
    document = json.loads(json.dumps(services.export_campaign(full_campaign, world.users["gm"])))
    copy = services.import_campaign(document, world.users["gm"], trusted=True)
    vienna = _vienna(copy)
    counting = vienna.tally_entries.get(kind="other")

    tm_missions.reverse_mistake(vienna, counting.pk, world.users["gm"], "it was nobody's fault")

    vienna.refresh_from_db()
    assert vienna.outcome["mistakes_total"] == 0
    harry = copy.characters.get(name="Harry Adams")
    # the award grew from the corrected tally: the old award reverted, the new one written
    assert [p["amount"] for p in _regular_awards(harry)] == [350]


def test_the_archive_names_missions_and_agents_by_archive_keys(world, full_campaign):
    document = services.export_campaign(full_campaign, world.users["gm"])
    titles = [m["title"] for m in document["missions"]]
    vienna = titles.index("The Vienna clockmaker")
    harry = next(c for c in document["characters"] if c["name"] == "Harry Adams")
    mission_refs = [e["payload"]["mission"] for e in harry["ledger"] if "mission" in e["payload"]]
    assert mission_refs and set(mission_refs) == {f"mission:{vienna}"}
    state = harry["build"]["state"]
    assert state["missions_closed"] == state["missions_awarded"] == [f"mission:{vienna}"]
    assert [visit["mission"] for visit in harry["build"]["times_visited"]] == [f"mission:{vienna}"]
    outcome = document["missions"][vienna]["outcome"]
    agents = sorted(
        f"character:{i}"
        for i, c in enumerate(document["characters"])
        if c["name"] in ("Harry Adams", "Mae Lin")
    )
    assert outcome["mission"] == f"mission:{vienna}"
    assert sorted(a["agent"] for a in outcome["awards"]) == sorted(outcome["ledger"]) == agents


# -- Time to Kill runs and Tempo rolls ---------------------------------------------------------------
def test_a_ninja_history_names_the_imported_run(world, play_campaign):
    from systems.time_to_kill.models import MissionRun

    source = play_campaign("time_to_kill")
    document = json.loads(json.dumps(services.export_campaign(source, world.users["gm"])))
    kage = next(c for c in document["characters"] if c["name"] == "Kage")
    result = next(e for e in kage["ledger"] if e["kind"] == "mission_result")
    won = next(i for i, run in enumerate(document["ttk_runs"]) if run["outcome"] == "victory")
    assert result["payload"]["mission"] == f"ttk_run:{won}"
    assert [m["mission"] for m in kage["build"]["missions"]] == [f"ttk_run:{won}"]

    copy = services.import_campaign(document, world.users["gm"])
    run = MissionRun.objects.get(campaign=copy, outcome="victory")
    ninja = copy.characters.get(name="Kage")
    assert ninja.entries.get(kind="mission_result").payload["mission"] == run.pk
    assert [m["mission"] for m in ninja.build["missions"]] == [run.pk]
    assert run.result_entry.character == ninja


def test_a_fate_point_names_the_imported_roll_that_made_it(world, play_campaign):
    import random

    from systems.tempo import services as tempo_services

    source = play_campaign("tempo")
    finn = source.characters.get(name="Finn Marlowe")
    gm = source.memberships.get(user=world.users["gm"])
    roll, ledger = tempo_services.roll_for_character(
        gm, finn, "soldier", {"aspects": [{"aspect": "origin", "use": "trouble"}]}, rng=random.Random(6)
    )
    assert ledger and ledger[0].payload["roll"] == roll.pk
    document = json.loads(json.dumps(services.export_campaign(source, world.users["gm"])))
    position = next(
        i
        for i, r in enumerate(document["rolls"])
        if r["kind"] == roll.kind and r["total"] == roll.total and r["character"] is not None
    )
    exported = next(c for c in document["characters"] if c["name"] == "Finn Marlowe")["ledger"][-1]
    assert exported["payload"]["roll"] == f"roll:{position}"
    assert exported["reason"].startswith(f"Roll roll:{position}: ")

    copy = services.import_campaign(document, world.users["gm"])
    entry = copy.characters.get(name="Finn Marlowe").entries.order_by("id").last()
    new_roll = copy.rolls.get(pk=entry.payload["roll"])
    assert new_roll.total == roll.total and new_roll.pk != roll.pk
    assert entry.reason.startswith(f"Roll {new_roll.pk}: ")


def test_a_character_document_names_no_record_it_does_not_hold(world, play_campaign, client):
    source = play_campaign("time_to_kill")
    kage = source.characters.get(name="Kage")
    document = services.export_character(kage, world.users["gm"])
    assert [m["mission"] for m in document["build"]["missions"]] == ["ttk_run:~1"]
    target = play_campaign("time_to_kill", name="Another dojo")
    # the target has its own Kage, of the same name and owner: imported as a copy
    copy = services.import_character(
        document, target, world.users["player"], world.users["gm"], on_duplicate="copy"
    )
    # the run is not on this server: the key stays, it is no id, and the page shows no link for it
    assert [m["mission"] for m in copy.build["missions"]] == ["ttk_run:~1"]
    client.force_login(world.users["gm"])
    page = client.get(f"/characters/{copy.pk}/")
    assert page.status_code == 200 and b"ttk_run:~1" not in page.content


# -- older versions ---------------------------------------------------------------------------------
def test_a_version_2_character_document_no_longer_collides_with_a_new_mission(
    world, full_campaign, make_campaign, as_written_by_version_2
):
    harry = full_campaign.characters.get(name="Harry Adams")
    old = as_written_by_version_2(lambda: services.export_character(harry, world.users["gm"]))
    old_id = _forget_the_old_server(full_campaign)
    assert any(e["payload"].get("mission") == str(old_id) for e in old["ledger"])
    target = make_campaign("timemaster", name="A fresh server")
    copy = services.import_character(old, target, world.users["player"], world.users["gm"])
    assert copy.build["state"]["missions_closed"] == ["mission:~1"]
    mission = _mission_with_id(old_id, target, [copy])

    _send_close_and_publish(world, mission)

    copy.refresh_from_db()
    assert len(_regular_awards(copy)) == 2


def test_a_version_2_campaign_archive_gets_its_ids_translated(world, full_campaign, as_written_by_version_2):
    old = as_written_by_version_2(lambda: services.export_campaign(full_campaign, world.users["gm"]))
    copy = services.import_campaign(old, world.users["gm"], trusted=True)
    vienna = _vienna(copy)
    harry = copy.characters.get(name="Harry Adams")
    assert harry.build["state"]["missions_closed"] == [str(vienna.pk)]
    assert vienna.outcome["mission"] == str(vienna.pk)
    assert str(harry.pk) in vienna.outcome["ledger"]
    counting = vienna.tally_entries.get(kind="other")
    tm_missions.reverse_mistake(vienna, counting.pk, world.users["gm"], "it was nobody's fault")
    assert [p["amount"] for p in _regular_awards(harry)] == [350]


# -- refusals -----------------------------------------------------------------------------------------
def test_a_server_id_in_a_version_3_document_is_refused_at_its_path(world, full_campaign):
    from tests.archive.test_refusals import refused_campaign, refused_character

    harry = full_campaign.characters.get(name="Harry Adams")
    document = json.loads(json.dumps(services.export_character(harry, world.users["gm"])))
    started = next(i for i, e in enumerate(document["ledger"]) if e["kind"] == "mission_started")
    document["ledger"][started]["payload"]["mission"] = "12"
    document["build"]["state"]["missions_awarded"] = ["mission:0"]
    problems, _ = refused_character(world, document)
    paths = {path for path, _ in problems}
    assert f"ledger[{started}].payload.mission" in paths
    assert "build.state.missions_awarded[0]" in paths

    archive = json.loads(json.dumps(services.export_campaign(full_campaign, world.users["gm"])))
    vienna = next(i for i, m in enumerate(archive["missions"]) if m["title"] == "The Vienna clockmaker")
    archive["missions"][vienna]["outcome"]["awards"][0]["agent"] = "character:99"
    problems, _ = refused_campaign(world, archive)
    assert {path for path, _ in problems} == {f"missions[{vienna}].outcome.awards[0].agent"}
    assert "points past the 3 records of characters" in " ".join(m for _, m in problems)


def test_an_outcome_naming_an_agent_or_mission_the_file_does_not_hold_is_refused(world, full_campaign):
    from tests.archive.test_refusals import refused_campaign

    archive = json.loads(json.dumps(services.export_campaign(full_campaign, world.users["gm"])))
    vienna = next(i for i, m in enumerate(archive["missions"]) if m["title"] == "The Vienna clockmaker")
    outcome = archive["missions"][vienna]["outcome"]
    outcome["awards"][0]["agent"] = "character:~1"
    outcome["mission"] = "mission:0"
    problems, _ = refused_campaign(world, archive)
    assert {path for path, _ in problems} == {
        f"missions[{vienna}].outcome.awards[0].agent",
        f"missions[{vienna}].outcome.mission",
    }
