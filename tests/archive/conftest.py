"""Campaigns of every system with characters made through the services, ledgers included."""

from __future__ import annotations

import copy
import json
import random

import pytest

from campaigns.table import rolling
from characters import services as character_services
from tests import system_kit

#: The installed systems (tests/system_kit.py): each system's testkit.py gives its sample hero's
#: name and the ledger entries appended to it (LEDGER, one reverted: LEDGER_REVERTED).
SYSTEMS = tuple(system_kit.installed_keys())


@pytest.fixture
def make_campaign(world):
    """A campaign of ``system`` whose members are the world's personas (GM, players, observer)."""
    from campaigns.models import Membership, Role

    def make(system, name=None):
        if system == world.campaign.system and name is None:
            return world.campaign
        campaign = system_kit.make_campaign(world.users["gm"], system, name=name or f"{system} table")
        for user, role in (
            ("player", Role.PLAYER),
            ("other_player", Role.PLAYER),
            ("observer", Role.OBSERVER),
        ):
            Membership.objects.create(campaign=campaign, user=world.users[user], role=role)
        return campaign

    return make


@pytest.fixture
def make_hero(world):
    """A finalized character of the campaign's system with a ledger (one entry reverted)."""

    def make(campaign, owner="player", name=None, ledger=True):
        kit = system_kit.extras(campaign.system)
        entries, revert = getattr(kit, "LEDGER", ()), getattr(kit, "LEDGER_REVERTED", None)
        choices = system_kit.demo(campaign.system).choices(name or getattr(kit, "HERO", "Kim"), owner)
        draft = character_services.create_draft(campaign, world.users[owner], choices=choices)
        character = character_services.finalize(draft, is_gm=True, rng=random.Random(3))
        if ledger:
            rows = [
                character_services.append_entry(character, copy.deepcopy(entry), world.users["gm"])
                for entry in entries
            ]
            if revert is not None:
                character_services.revert_entry(rows[revert], world.users["gm"], "recorded by mistake")
        character.refresh_from_db()
        return character

    return make


SECRET_PURPOSE = "secret check of the traitor"
SECRET_NOTES = "the innkeeper is the Demorean"


@pytest.fixture
def full_campaign(world, make_hero):
    """The world's TIMEMASTER campaign with something in every section: missions, characters with
    ledgers (an entry tied to a mission, a reversal), a draft, NPCs (one hidden), open and secret rolls."""
    from campaigns import npc_services

    campaign = world.campaign
    gm = world.users["gm"]
    first = campaign.missions.create(
        title="Operation Lantern", briefing="Find the lantern.", status="completed"
    )
    campaign.missions.create(title="Operation Quill")
    harry = make_hero(campaign, "player")
    mae = make_hero(campaign, "other_player", name="Mae Lin", ledger=False)
    character_services.append_entry(
        mae,
        {"kind": "sp_awarded", "type": "bonus", "session": 3, "amount": 10},
        gm,
        mission=first,
        reason="bravery",
    )
    character_services.create_draft(campaign, world.users["player"], choices={"name": "Half Done"})
    npc_services.create_npc(campaign, gm, {"name": "Innkeeper", "quick": True, "gm_notes": SECRET_NOTES})
    npc_services.create_npc(
        campaign, gm, {"name": "Shifter", "quick": True, "kind": "demorean", "revealed": True}
    )
    membership = world.membership
    _run_a_mission(world, [harry, mae])
    rolling.record_roll(membership["player"], kind="d6", count=2, character=harry, rng=random.Random(1))
    rolling.record_roll(
        membership["gm"],
        kind="d1000",
        secret=True,
        purpose=SECRET_PURPOSE,
        mission=first,
        rng=random.Random(2),
    )
    return campaign


class D10Faces(random.Random):
    """Hands out the given d10 faces (0-9) in order: the significance check reads them."""

    def __init__(self, faces):
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def _run_a_mission(world, agents):
    """A TIMEMASTER mission through the GM's services: planned with a chart, started, two
    mistakes (one reversed), closed with a secret check roll, and published."""
    from campaigns import missions
    from systems.timemaster import missions as tm_missions

    mission = missions.create_mission(
        world.campaign,
        {
            "title": "The Vienna clockmaker",
            "briefing": "Keep the clockmaker alive.",
            "parallel": "T-0",
            "place": "Vienna",
            "start_year": 1805,
            "end_year": 1805,
            "significance_rating": 700,
            "historical_changes_chart": [
                {"low": 0, "high": 99, "text": "A clock stops a day early."},
                {"low": 100, "high": None, "text": "The city keeps a different time."},
            ],
            "agents": agents,
        },
    )
    gm = world.users["gm"]
    missions.start_mission(mission, gm)
    first = tm_missions.record_mistake(
        mission, gm, {"kind": "event_changed", "rating": 100, "description": "late"}
    )
    tm_missions.record_mistake(mission, gm, {"kind": "other", "rating": 50, "description": "noticed"})
    tm_missions.reverse_mistake(mission, first.pk, gm, "it did not happen")
    mission.refresh_from_db()
    tm_missions.close_mission(world.membership["gm"], mission, "success", rng=D10Faces([3, 9, 1]))
    mission.refresh_from_db()
    missions.publish_mission(mission, gm)
    return mission


# -- campaigns with play records (each system's testkit.ARCHIVE_PLAY) ------------------------------
#: The installed systems whose testkit names a module making a campaign with play records.
PLAY_SYSTEMS = tuple(
    key for key in system_kit.installed_keys() if getattr(system_kit.extras(key), "ARCHIVE_PLAY", "")
)


@pytest.fixture
def play_campaign(world, make_campaign, make_hero, monkeypatch):
    """play_campaign(system): a campaign of ``system`` with play records through the apps' own
    services (the module its testkit names in ARCHIVE_PLAY: one record finished and one in
    progress, their rolls in the dice log and their ledger entries)."""
    import importlib

    def make(system, name=None):
        campaign = make_campaign(system, name=name or f"{system} play")
        module = importlib.import_module(system_kit.extras(system).ARCHIVE_PLAY)
        return module.play(world, campaign, make_hero, monkeypatch)

    return make


@pytest.fixture
def as_written_by_version_2(monkeypatch):
    """Export as Dossier did before format version 3: the ids inside payloads, builds and outcomes
    are the server's own (archive.references makes them keys since version 3)."""
    from archive import references

    def export(make_document):
        with monkeypatch.context() as patch:
            patch.setattr(references.ExportKeys, "key", lambda self, kind, value, path="": value)
            document = json.loads(json.dumps(make_document()))
        document["format_version"] = 2
        return document

    return export
