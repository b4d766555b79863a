"""Bad files are refused with a clear message (JSON path + what is wrong) and change nothing."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from archive import format as archive_format
from archive import services
from archive.problems import ArchiveRefused
from campaigns.models import NPC, Campaign, Membership, Mission, Roll
from characters.models import AdvancementEntry, Character
from tests.archive.conftest import SYSTEMS

MODELS = (Campaign, Membership, Mission, Character, AdvancementEntry, NPC, Roll)


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture
def hero_document(world, make_hero):
    hero = make_hero(world.campaign)
    return json.loads(json.dumps(services.export_character(hero, world.users["gm"])))


@pytest.fixture
def campaign_document(world, full_campaign):
    return json.loads(json.dumps(services.export_campaign(full_campaign, world.users["gm"])))


def refused_character(world, source, campaign=None):
    before = counts()
    with pytest.raises(ArchiveRefused) as caught:
        services.import_character(
            source, campaign or world.campaign, world.users["player"], world.users["gm"]
        )
    assert counts() == before
    return {(p.path, p.message) for p in caught.value.problems}, caught.value


def refused_campaign(world, source, trusted=False):
    before = counts()
    with pytest.raises(ArchiveRefused) as caught:
        services.import_campaign(source, world.users["gm"], trusted=trusted)
    assert counts() == before
    return {(p.path, p.message) for p in caught.value.problems}, caught.value


def messages(problems):
    return " ".join(message for _, message in problems)


# -- reading the file -----------------------------------------------------------------------------
def test_a_truncated_character_file_is_refused_saying_it_ends_too_early(world, hero_document):
    text = json.dumps(hero_document)
    problems, _ = refused_character(world, text[: len(text) // 2].encode())
    assert "not valid JSON" in messages(problems) and "truncated" in messages(problems)


def test_a_truncated_campaign_archive_is_refused(world, campaign_document):
    text = json.dumps(campaign_document)
    problems, _ = refused_campaign(world, text[:-1].encode())
    assert "line 1" in messages(problems) and "truncated" in messages(problems)


@pytest.mark.parametrize("version", [6, 99, 0, -1, "1", None, True])
def test_an_unknown_format_version_is_refused(world, campaign_document, version):
    campaign_document["format_version"] = version
    problems, _ = refused_campaign(world, json.dumps(campaign_document).encode())
    assert {path for path, _ in problems} == {"format_version"}


def test_a_newer_version_says_to_update_dossier(world, hero_document):
    hero_document["format_version"] = archive_format.FORMAT_VERSION + 1
    problems, _ = refused_character(world, hero_document)
    assert "newer than this Dossier reads" in messages(problems)


def test_a_campaign_archive_is_not_a_character_document(world, campaign_document):
    problems, _ = refused_character(world, campaign_document)
    assert (
        "format",
        "Expected 'dossier.character', found 'dossier.campaign' (that is a campaign archive).",
    ) in problems


@pytest.mark.parametrize("raw", [b"", b"   ", b"[1, 2]", b'"text"', b"\xff\xfe\x00", b"{" * 100_000])
def test_files_that_are_not_archives_are_refused(world, raw):
    problems, _ = refused_campaign(world, raw)
    assert problems


def test_a_20_mb_file_is_refused_before_it_is_parsed(world, monkeypatch):
    def no_parsing(*args, **kwargs):
        raise AssertionError("a file over the limit must not be parsed")

    monkeypatch.setattr(archive_format.json, "loads", no_parsing)
    problems, refusal = refused_campaign(world, b" " * (20 * 1000 * 1000))
    assert refusal.status == 413
    assert "archives are limited to 8 MB" in messages(problems)


def test_the_api_refuses_a_20_mb_upload_by_its_declared_length(world, api):
    before = counts()
    upload = SimpleUploadedFile("big.json", b" " * (20 * 1000 * 1000), content_type="application/json")
    response = api(world.users["gm"]).post("/api/v1/campaigns/import/", {"file": upload}, format="multipart")
    assert response.status_code == 413
    assert "limited to 8 MB" in response.json()["errors"][0]["message"]
    assert counts() == before


# -- structure and rules --------------------------------------------------------------------------
def test_a_build_that_breaks_a_rule_is_refused_naming_the_field(world, hero_document):
    hero_document["creation_build"]["abilities"]["agility"] = 120
    hero_document["build"]["abilities"]["agility"] = 120
    problems, _ = refused_character(world, hero_document)
    assert any(path.startswith("creation_build.abilities") for path, _ in problems), problems


def test_a_tampered_current_build_is_refused(world, hero_document):
    hero_document["build"]["success_points"] = hero_document["build"].get("success_points", 0) + 500
    problems, _ = refused_character(world, hero_document)
    assert [path for path, _ in problems] == ["build"]
    assert "ledger replayed" in messages(problems) and "success_points" in messages(problems)


def test_a_tampered_ledger_entry_is_refused_at_its_position(world, hero_document):
    hero_document["ledger"][1]["payload"]["amount"] = 7
    problems, _ = refused_character(world, hero_document)
    assert [path for path, _ in problems] == ["ledger[1]"]
    assert "multiples of 10" in messages(problems)


def test_a_reversal_must_point_at_an_earlier_entry(world, hero_document):
    reversal = next(i for i, e in enumerate(hero_document["ledger"]) if e["kind"] == "reversal")
    hero_document["ledger"][reversal]["reverses"] = reversal
    problems, _ = refused_character(world, hero_document)
    assert (
        f"ledger[{reversal}].reverses",
        "must be the position of an earlier entry of this ledger.",
    ) in problems


def test_an_entry_kind_the_system_does_not_know_is_refused(world, hero_document):
    hero_document["ledger"][0]["kind"] = "level_up"
    problems, _ = refused_character(world, hero_document)
    assert ("ledger[0].kind", "TIMEMASTER has no entry kind 'level_up'.") in problems


def test_a_character_of_another_system_is_refused(world, make_campaign, make_hero):
    d6_hero = make_hero(make_campaign("d6"))
    problems, _ = refused_character(world, services.export_character(d6_hero))
    assert ("system", "This campaign plays timemaster, not d6.") in problems


def test_every_structural_problem_is_listed_at_once(world, hero_document):
    hero_document["name"] = ""
    hero_document["revision"] = "three"
    hero_document["ledger"][0]["payload"] = []
    hero_document["surprise"] = 1
    problems, _ = refused_character(world, hero_document)
    assert {path for path, _ in problems} == {"name", "revision", "ledger[0].payload", "surprise"}


def test_a_campaign_archive_with_a_broken_character_creates_nothing(world, campaign_document):
    campaign_document["characters"][1]["build"]["abilities"]["strength"] = 1
    problems, _ = refused_campaign(world, campaign_document)
    assert [path for path, _ in problems] == ["characters[1].build"]


def test_the_administrators_import_naming_a_missing_account_creates_nothing(world, campaign_document):
    campaign_document["members"].append({"username": "nobody-here", "role": "player"})
    problems, _ = refused_campaign(world, campaign_document, trusted=True)
    assert ("members[4].username", "There is no account called 'nobody-here' here.") in problems


def test_bad_references_and_settings_are_refused(world, campaign_document):
    campaign_document["rolls"][0]["character"] = 99
    campaign_document["characters"][0]["ledger"][0]["mission"] = -1
    campaign_document["campaign"]["settings"] = {"no_such_setting": 1}
    campaign_document["unknown_section"] = []
    problems, _ = refused_campaign(world, campaign_document)
    paths = {path for path, _ in problems}
    assert {"rolls[0].character", "characters[0].ledger[0].mission", "unknown_section"} <= paths
    # settings are checked by the engine once the structure is sound
    del campaign_document["unknown_section"]
    campaign_document["rolls"][0]["character"] = 0
    campaign_document["characters"][0]["ledger"][0]["mission"] = None
    problems, _ = refused_campaign(world, campaign_document)
    assert [path for path, _ in problems] == ["campaign.settings.no_such_setting"]


def test_a_refused_npc_leaves_no_campaign_behind(world, campaign_document):
    campaign_document["npcs"][0]["abilities"] = {"strength": 500}
    problems, _ = refused_campaign(world, campaign_document)
    assert all(path.startswith("npcs[0]") for path, _ in problems) and problems


def test_an_upgrade_step_runs_for_each_older_version(world, hero_document, monkeypatch):
    """vN -> vN+1 is one function: pretend the current version is one more and register the step."""
    current = archive_format.FORMAT_VERSION

    def one_step(document):
        upgraded = copy.deepcopy(document)
        upgraded["name"] = document["name"].upper()
        return upgraded

    monkeypatch.setattr(archive_format, "FORMAT_VERSION", current + 1)
    monkeypatch.setitem(archive_format.UPGRADES, current, one_step)
    document = archive_format.upgrade(hero_document, archive_format.CHARACTER)
    assert document["format_version"] == current + 1 and document["name"] == "HARRY ADAMS"


def test_bad_mission_records_are_refused_at_their_path(world, campaign_document):
    record = campaign_document["mission_records"][0]
    record["agents"].append(42)
    record["tally"][2]["reverses"] = 2
    record["tally"][0]["kind"] = "bad_luck"
    campaign_document["missions"][0]["historical_changes_chart"] = [{"low": 5, "high": 1, "text": "x"}]
    problems, _ = refused_campaign(world, campaign_document)
    paths = {path for path, _ in problems}
    assert {
        f"mission_records[0].agents[{len(record['agents']) - 1}]",
        "mission_records[0].tally[2].reverses",
        "mission_records[0].tally[0].kind",
        "missions[0].historical_changes_chart",
    } <= paths


JUNK = (None, "x", -5, 10**30, [], {}, [{"a": 1}], True)


def refused_or_consistent(document, campaign, world):
    """Either a refusal with problems, or a character whose ledger replays to its build; never
    another exception."""
    from characters.services import replay

    try:
        character = services.import_character(document, campaign, world.users["player"], world.users["gm"])
    except ArchiveRefused as refused:
        assert refused.problems
        return False
    assert replay(character) == character.build
    return True


@pytest.mark.parametrize("system", SYSTEMS)
def test_junk_in_any_build_field_is_refused_never_a_crash(world, make_campaign, make_hero, system):
    """Each top-level field of the creation build and of the current build swapped for junk."""
    campaign = make_campaign(system)
    document = json.loads(json.dumps(services.export_character(make_hero(campaign))))
    refusals = 0
    for which in ("creation_build", "build"):
        for key in list(document[which]):
            for junk in JUNK:
                broken = copy.deepcopy(document)
                broken[which][key] = junk
                refusals += not refused_or_consistent(broken, campaign, world)
    assert refusals > len(document["build"]) * len(JUNK)  # most junk is refused


@pytest.mark.parametrize("system", SYSTEMS)
def test_junk_in_any_ledger_payload_is_refused_never_a_crash(world, make_campaign, make_hero, system):
    """Free text (a reason, a note) may change; anything the engine folds in is checked by the replay."""
    campaign = make_campaign(system)
    document = json.loads(json.dumps(services.export_character(make_hero(campaign))))
    for index, entry in enumerate(document["ledger"]):
        for key in list(entry["payload"]):
            for junk in JUNK:
                broken = copy.deepcopy(document)
                broken["ledger"][index]["payload"][key] = junk
                refused_or_consistent(broken, campaign, world)


def test_junk_in_any_field_of_a_campaign_archive_is_refused_never_a_crash(world, campaign_document):
    """The first item of every section, each field swapped for junk: a refusal or a clean import."""
    for section in ("campaign", "members", "missions", "characters", "npcs", "rolls", "mission_records"):
        item = campaign_document[section] if section == "campaign" else campaign_document[section][0]
        for key in list(item):
            for junk in (None, "x", [], -1):
                broken = copy.deepcopy(campaign_document)
                target = broken[section] if section == "campaign" else broken[section][0]
                target[key] = junk
                try:
                    services.import_campaign(broken, world.users["gm"])
                except ArchiveRefused as refused:
                    assert refused.problems, (section, key, junk)


def test_a_json_body_over_djangos_limit_is_told_to_use_a_file_upload(world, api):
    body = b'{"format": "dossier.campaign", "padding": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    before = counts()
    response = api(world.users["gm"]).post("/api/v1/campaigns/import/", body, content_type="application/json")
    assert response.status_code == 413
    assert "multipart upload in the field 'file'" in response.json()["errors"][0]["message"]
    assert counts() == before


def test_the_import_page_refuses_a_20_mb_upload(world, client):
    client.force_login(world.users["gm"])
    before = counts()
    big = SimpleUploadedFile("big.json", b" " * (20 * 1000 * 1000), content_type="application/json")
    response = client.post("/campaigns/import/", {"file": big})
    assert response.status_code == 413
    assert "limited to 8 MB" in response.content.decode()
    assert counts() == before
