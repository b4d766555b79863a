"""Play records in the campaign archive: Time to Kill mission runs, Tempo conflicts and D6
encounters round-trip field by field, a tampered event is refused with nothing created, files
without these sections still import, and the GM's secrets stay out of a player's export."""

from __future__ import annotations

import copy
import json
import os

import pytest
from django.db import connection

from archive import engine_states, services
from archive import sections as archive_sections
from archive.problems import ArchiveRefused
from archive.sections import OPTIONAL_SECTIONS
from campaigns.models import Campaign, Roll
from characters.models import AdvancementEntry, Character
from systems.d6 import services as d6_services
from systems.d6.models import Encounter, EncounterEvent
from systems.d6.models import Participant as D6Participant
from systems.tempo.models import Conflict, ConflictEvent
from systems.tempo.models import Participant as TempoParticipant
from systems.time_to_kill import archive as ttk_runs
from systems.time_to_kill import services as ttk_services
from systems.time_to_kill.engine import gm_view
from systems.time_to_kill.models import MissionEvent, MissionRun
from tests.archive.conftest import PLAY_SYSTEMS
from tests.archive.test_round_trip import campaign_rows, count_queries, row_values

PLAY_MODELS = (
    MissionRun,
    MissionEvent,
    Conflict,
    TempoParticipant,
    ConflictEvent,
    Encounter,
    D6Participant,
    EncounterEvent,
)
ALL_MODELS = (Campaign, Character, AdvancementEntry, Roll, *PLAY_MODELS)


def counts():
    return {model.__name__: model.objects.count() for model in ALL_MODELS}


def exported(campaign, by=None):
    return json.loads(json.dumps(services.export_campaign(campaign, by)))


# -- comparing play records without ids --------------------------------------------------------------
def _roll_label(pk):
    roll = Roll.objects.filter(pk=pk).first() if isinstance(pk, int) else None
    return None if roll is None else [roll.kind, roll.total, roll.faces, roll.purpose]


def ttk_rows(campaign) -> list[dict]:
    out = []
    for run in MissionRun.objects.filter(campaign=campaign).order_by("created_at", "id"):
        as_name = lambda value, run=run: ttk_runs._ninja_ids(value, str(run.ninja_id), run.ninja.name)  # noqa: E731
        entry = run.result_entry
        out.append(
            {
                **row_values(run, ignore={"initial_state", "state", "result_entry"}),
                "initial_state": as_name(run.initial_state),
                "state": as_name(run.state),
                "result_entry": None
                if entry is None
                else [entry.character.name, entry.kind, entry.revision_after],
                "gm_view": gm_view(as_name(run.state)),
                "whose_side": ttk_services.whose_side(run),
                "events": [
                    {**row_values(e, ignore={"run", "event"}), "event": as_name(e.event)}
                    for e in run.events.order_by("seq")
                ],
            }
        )
    return out


def tempo_rows(campaign) -> list[dict]:
    labelled = lambda value: engine_states.map_key(value, "log_roll", _roll_label)  # noqa: E731
    return [
        {
            **row_values(conflict, ignore={"state"}),
            "state": labelled(conflict.state),
            "participants": sorted(
                (row_values(p, ignore={"conflict"}) for p in conflict.participants.all()), key=json.dumps
            ),
            "events": [
                {**row_values(e, ignore={"conflict", "payload"}), "payload": labelled(e.payload)}
                for e in conflict.events.order_by("seq")
            ],
        }
        for conflict in Conflict.objects.filter(campaign=campaign).order_by("created_at", "id")
    ]


def d6_rows(campaign) -> list[dict]:
    out = []
    for encounter in Encounter.objects.filter(campaign=campaign).order_by("created_at", "id"):
        places = list(encounter.participants.select_related("character").order_by("position", "id"))
        names = {p.key: f"character:{p.character.name}" for p in places if p.character}
        out.append(
            {
                **row_values(encounter, ignore={"state"}),
                "state": engine_states.rename(encounter.state, names),
                "participants": [
                    {**row_values(p, ignore={"encounter", "key"}), "key": names.get(p.key, p.key)}
                    for p in places
                ],
                "events": [
                    {
                        **row_values(e, ignore={"encounter", "payload"}),
                        "payload": engine_states.rename(e.payload, names),
                    }
                    for e in encounter.events.order_by("seq")
                ],
            }
        )
    return out


def play_rows(campaign) -> dict:
    d6_names = dict(Encounter.objects.filter(campaign=campaign).values_list("pk", "name"))
    conflict_names = dict(Conflict.objects.filter(campaign=campaign).values_list("pk", "title"))
    rows = campaign_rows(campaign)
    for roll in rows["rolls"]:  # a D6 roll names its encounter by id: compare the encounter's name
        if isinstance(roll["detail"], dict) and "encounter" in roll["detail"]:
            roll["detail"]["encounter"] = d6_names.get(roll["detail"]["encounter"])
        if isinstance(roll["detail"], dict) and "conflict" in roll["detail"]:  # a Tempo conflict's, too
            roll["detail"]["conflict"] = conflict_names.get(roll["detail"]["conflict"])
    return {**rows, "ttk_runs": ttk_rows(campaign), "tempo": tempo_rows(campaign), "d6": d6_rows(campaign)}


# -- round trips ---------------------------------------------------------------------------------------
def round_trip(system, world, play_campaign):
    campaign = play_campaign(system)
    document = exported(campaign, world.users["gm"])
    copy_ = services.import_campaign(document, world.users["gm"], trusted=True)  # every member back
    assert copy_.pk != campaign.pk
    assert play_rows(copy_) == play_rows(campaign)
    again = exported(copy_, world.users["gm"])
    strip = lambda d: {k: v for k, v in d.items() if k != "exported_at"}  # noqa: E731
    assert again["campaign"]["name"] == document["campaign"]["name"] + " (imported)"
    again["campaign"]["name"] = document["campaign"]["name"]
    assert strip(again) == strip(document)
    return campaign, copy_, document


def test_time_to_kill_runs_round_trip_field_by_field(world, play_campaign):
    campaign, copy_, document = round_trip("time_to_kill", world, play_campaign)
    runs = document["ttk_runs"]
    assert [(r["status"], r["outcome"]) for r in runs] == [
        ("over", "victory"),
        ("running", ""),
        ("over", "abandoned"),
    ]
    assert str(campaign.ttk_runs.first().ninja_id) not in json.dumps(runs[0]["initial_state"]["ninja"])
    won = copy_.ttk_runs.get(title="The monastery")
    assert won.result_entry.character == won.ninja and won.result_entry.kind == "mission_result"
    assert won.mission == copy_.missions.get(title="The monastery")
    assert won.state["ninja"]["id"] == str(won.ninja_id)
    # the run in progress goes on after the import: its next move is the ninja's, as before
    running = copy_.ttk_runs.get(title="Rooftops")
    assert ttk_services.whose_side(running) == "gm"
    ttk_services.post_event(running, world.users["gm"], "gm", {"type": "narrate", "text": "Wind."})
    assert running.event_count == 6


def test_tempo_conflicts_round_trip_field_by_field(world, play_campaign):
    campaign, copy_, document = round_trip("tempo", world, play_campaign)
    assert [c["status"] for c in document["tempo_conflicts"]] == ["over", "running"]
    log_rolls = engine_states.values_of(document["tempo_conflicts"], "log_roll")
    assert log_rolls and all(0 <= p < len(document["rolls"]) for p in log_rolls)
    running = copy_.tempo_conflicts.get(title="The checkpoint")
    copied_roll = Roll.objects.get(pk=running.state["log"][0]["results"]["a"]["log_roll"])
    assert copied_roll.campaign == copy_
    # A conflict's roll names its conflict (the dice log shows it only to who sees the conflict):
    # the archive carries no database id for it; the import names the new conflict again.
    assert not any("conflict" in roll["detail"] for roll in document["rolls"])
    assert copied_roll.detail["conflict"] == running.pk
    named = Roll.objects.filter(campaign=copy_, detail__has_key="conflict").count()
    assert (
        named
        == Roll.objects.filter(campaign=campaign, detail__has_key="conflict").count()
        == len(set(log_rolls))
    )


def test_d6_encounters_round_trip_field_by_field(world, play_campaign):
    campaign, copy_, document = round_trip("d6", world, play_campaign)
    assert [e["status"] for e in document["d6_encounters"]] == ["over", "running", "setup"]
    assert "character-" not in json.dumps(document["d6_encounters"])
    for encounter in copy_.d6_encounters.exclude(status="setup"):
        assert d6_services.replayed_state(encounter) == encounter.state  # the app's own replay agrees
    ana = copy_.characters.get(name="Ana")
    dockside = copy_.d6_encounters.get(name="Dockside")
    assert dockside.participants.get(character=ana).key == f"character-{ana.pk}"
    d6_roll = copy_.rolls.filter(kind__startswith="d6").first()
    assert d6_roll.detail["encounter"] in set(copy_.d6_encounters.values_list("pk", flat=True))


def test_an_archive_without_the_play_sections_still_imports(world, play_campaign):
    document = exported(play_campaign("d6"), world.users["gm"])
    for key in OPTIONAL_SECTIONS:
        document.pop(key)
    d6_rolls = [roll for roll in document["rolls"] if "encounter" in roll["detail"]]
    for roll in d6_rolls:  # as a file from before the sections: the encounter's database id
        roll["detail"]["encounter"] = 4242
    copy_ = services.import_campaign(document, world.users["gm"])
    assert copy_.characters.count() == 2 and not copy_.d6_encounters.exists()
    assert copy_.rolls.count() == len(document["rolls"])
    assert d6_rolls and all(
        roll.detail["encounter"] is None for roll in copy_.rolls.filter(kind__startswith="d6")
    )


# -- tampered files ------------------------------------------------------------------------------------
def refused(world, document):
    before = counts()
    with pytest.raises(ArchiveRefused) as caught:
        services.import_campaign(document, world.users["gm"])
    assert counts() == before
    return {(p.path, p.message) for p in caught.value.problems}


def test_a_tampered_time_to_kill_event_is_refused_with_nothing_created(world, play_campaign):
    document = exported(play_campaign("time_to_kill"), world.users["gm"])
    event = document["ttk_runs"][0]["events"][8]["event"]
    assert event["type"] == "choose_fates" and event["results"]["roll"] == 5
    event["results"]["roll"] = 1  # the action die: a failure instead of the success that was rolled
    problems = refused(world, document)
    assert [path for path, _ in problems] == ["ttk_runs[0].state"]
    assert "changed by hand" in " ".join(m for _, m in problems)


def test_a_time_to_kill_event_out_of_turn_is_refused_naming_it(world, play_campaign):
    document = exported(play_campaign("time_to_kill"), world.users["gm"])
    document["ttk_runs"][1]["events"][2]["event"]["by"] = ttk_runs.ARCHIVE_NINJA
    problems = refused(world, document)
    assert {path for path, _ in problems} == {"ttk_runs[1].events[2].event"}
    assert "rules refuse" in " ".join(m for _, m in problems)


def test_a_tampered_tempo_roll_is_refused_with_nothing_created(world, play_campaign):
    document = exported(play_campaign("tempo"), world.users["gm"])
    payload = document["tempo_conflicts"][0]["events"][0]["payload"]
    payload["results"]["b"]["kept"] = [6, 6, 6]
    payload["results"]["b"]["total"] += 10
    problems = refused(world, document)
    assert {path for path, _ in problems} == {"tempo_conflicts[0].state"}


def test_a_tampered_d6_event_is_refused_with_nothing_created(world, play_campaign):
    document = exported(play_campaign("d6"), world.users["gm"])
    events = document["d6_encounters"][0]["events"]
    roll = next(e["payload"] for e in events if e["payload"]["type"] == "roll_initiative")
    ana = roll["rolls"]["character@0"]
    ana["dice"] = [6 for _ in ana["dice"]]  # Ana's initiative: a better roll than the one made
    problems = refused(world, document)
    assert {path for path, _ in problems} == {"d6_encounters[0].state"}


def test_a_d6_archive_written_in_older_log_wording_imports_and_reads_in_todays(world, play_campaign):
    """Log lines are the engine's words, not facts: a file from before a rewording (issue 44, finding
    7: "Thugs's turn." became "Thugs' turn.") is no hand edit; it imports, and its log reads in the
    engine's words of today."""
    document = exported(play_campaign("d6"), world.users["gm"])
    state = document["d6_encounters"][0]["state"]
    today = [line["summary"] for line in state["log"]]
    assert "Ana's turn." in today
    for line in state["log"]:
        line["summary"] = line["summary"].replace("'s turn", "'s go") + " (older words)"
    copy_ = services.import_campaign(document, world.users["gm"])
    assert [line["summary"] for line in copy_.d6_encounters.get(name="Dockside").state["log"]] == today
    # anything else in a log line is still a fact the replay checks
    document = exported(play_campaign("d6"), world.users["gm"])
    document["d6_encounters"][0]["state"]["log"][0]["round"] = 7
    assert {path for path, _ in refused(world, document)} == {"d6_encounters[0].state"}


def test_a_tempo_conflict_that_did_not_start_at_even_is_refused(world, play_campaign):
    document = exported(play_campaign("tempo"), world.users["gm"])
    conflict = document["tempo_conflicts"][1]
    conflict["initial_state"]["tempo"] = {"holder": "a", "level": "decisive"}
    conflict["state"]["tempo"] = {"holder": "a", "level": "decisive"}
    problems = refused(world, document)
    assert {path for path, _ in problems} == {"tempo_conflicts[1].initial_state"}
    assert "not a conflict's starting state (differs in: tempo)" in " ".join(m for _, m in problems)


def test_a_time_to_kill_state_the_engine_cannot_read_is_refused(world, play_campaign):
    document = exported(play_campaign("time_to_kill"), world.users["gm"])
    run = document["ttk_runs"][2]  # the abandoned run: no events
    assert run["events"] == []
    del run["initial_state"]["bag"]
    del run["state"]["bag"]
    problems = refused(world, document)
    assert {path for path, _ in problems} == {"ttk_runs[2].initial_state"}
    assert "cannot read" in " ".join(m for _, m in problems)


def test_a_d6_encounter_ended_by_a_removed_event_is_refused(world, play_campaign):
    document = exported(play_campaign("d6"), world.users["gm"])
    encounter = document["d6_encounters"][0]
    encounter["events"].pop()  # the end of the scene; the file still says the state is over
    problems = refused(world, document)
    assert "d6_encounters[0].state" in {path for path, _ in problems}


def test_play_records_pointing_outside_the_archive_are_refused(world, play_campaign):
    document = exported(play_campaign("time_to_kill"), world.users["gm"])
    document["ttk_runs"][0]["ninja"] = 99
    document["ttk_runs"][1]["result_entry"] = 0  # Yuki's ledger has no mission result
    problems = refused(world, document)
    paths = {path for path, _ in problems}
    assert "ttk_runs[0].ninja" in paths and "ttk_runs[1].result_entry" in paths


def test_a_ninja_on_two_running_missions_is_refused(world, play_campaign):
    document = exported(play_campaign("time_to_kill"), world.users["gm"])
    document["ttk_runs"].append(copy.deepcopy(document["ttk_runs"][1]))  # Yuki's running mission, twice
    problems = refused(world, document)
    assert {path for path, _ in problems} == {"ttk_runs[3].status"}
    assert "already on the running mission ttk_runs[1]" in " ".join(m for _, m in problems)


def test_tempo_participants_and_rolls_must_be_of_the_archive(world, play_campaign):
    document = exported(play_campaign("tempo"), world.users["gm"])
    conflict = document["tempo_conflicts"][0]
    conflict["participants"][0]["character"] = len(document["characters"])
    conflict["events"][0]["payload"]["results"]["a"]["log_roll"] = 500
    problems = refused(world, document)
    paths = {path for path, _ in problems}
    assert "tempo_conflicts[0].participants[0].character" in paths
    assert "tempo_conflicts[0].events[0].payload" in paths


def test_play_records_of_another_system_are_refused(world, play_campaign):
    d6 = exported(play_campaign("d6"), world.users["gm"])
    ttk = exported(play_campaign("time_to_kill", name="Night Work"), world.users["gm"])
    d6["ttk_runs"] = copy.deepcopy(ttk["ttk_runs"][:1])
    d6["ttk_runs"][0]["mission"] = None
    d6["ttk_runs"][0]["ninja"] = 0  # Ana is a D6 character
    problems = refused(world, d6)
    assert ("ttk_runs[0].ninja", "must be a Time to Kill character of the archive.") in problems


# -- who gets what -------------------------------------------------------------------------------------
@pytest.mark.parametrize("system", PLAY_SYSTEMS)
def test_a_players_character_export_holds_no_play_record(system, world, play_campaign):
    campaign = play_campaign(system)
    mine = campaign.characters.filter(owner=world.users["player"]).first()
    document = services.export_character(mine, world.users["player"])
    text = json.dumps(document)
    assert not set(document) & {*OPTIONAL_SECTIONS, "rolls", "npcs"}
    assert "The abbot keeps the key" not in text and "Thugs" not in text and "Major Brandt" not in text


def test_only_the_gm_downloads_the_campaign_with_its_play_records(world, play_campaign, api):
    campaign = play_campaign("time_to_kill")
    url = f"/api/v1/campaigns/{campaign.pk}/export/"
    for persona in ("player", "other_player", "observer"):
        response = api(world.users[persona]).get(url)
        assert response.status_code == 403 and "The abbot keeps the key" not in response.content.decode()
    response = api(world.users["gm"]).get(url)
    assert response.status_code == 200
    assert "The abbot keeps the key" in json.dumps(response.json()["ttk_runs"])


# -- query counts --------------------------------------------------------------------------------------
def _more_records(system, world, campaign):
    """One more record of the system's kind, made through its app (its ARCHIVE_PLAY's ``more``)."""
    import importlib

    from tests import system_kit

    importlib.import_module(system_kit.extras(system).ARCHIVE_PLAY).more(world, campaign)


@pytest.mark.parametrize("system", PLAY_SYSTEMS)
def test_export_and_import_cost_the_same_queries_for_more_play_records(system, world, play_campaign):
    campaign = play_campaign(system)
    small_export = count_queries(lambda: services.export_campaign(campaign))
    small = exported(campaign)
    small_import = count_queries(lambda: services.import_campaign(small, world.users["gm"]))
    for _ in range(3):
        _more_records(system, world, campaign)
    assert count_queries(lambda: services.export_campaign(campaign)) == small_export
    large = exported(campaign)
    # three more play records of the system's own (a Tempo conflict brings its dice scope too)
    own = [section.KEY for section in archive_sections.system_sections()]
    assert sum(len(large[k]) for k in own) == sum(len(small[k]) for k in own) + 3
    assert count_queries(lambda: services.import_campaign(large, world.users["gm"])) == small_import


# -- the same on PostgreSQL ----------------------------------------------------------------------------
on_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="needs DATABASE_URL=postgres://..."
)


@pytest.mark.services
@on_postgres
@pytest.mark.parametrize("system", PLAY_SYSTEMS)
def test_postgres_play_records_round_trip(system, world, play_campaign):
    assert connection.vendor == "postgresql"
    round_trip(system, world, play_campaign)
