"""Campaigns of every system with characters made through the services, ledgers included."""

from __future__ import annotations

import copy
import json
import random

import pytest

from characters import services as character_services


def timemaster_choices(name):
    from tests.characters.conftest import agent_choices

    return agent_choices(name=name)


def time_to_kill_choices(name):
    return {"name": name, "abilities": {}}


def tempo_choices(name):
    from tests.systems.tempo.helpers import choices

    return choices(name=name)


def d6_choices(name):
    return {
        "name": name,
        "attributes": {"Perception": "3D", "Reflexes": "3D", "Strength": "3D"},
        "skills": {
            "search": {"attribute": "Perception", "code": "3D"},
            "dodge": {"attribute": "Reflexes", "code": "3D"},
            "brawling": {"attribute": "Strength", "code": "4D"},
        },
    }


#: system -> (module, wizard choices, ledger entries, index of the entry to revert or None)
SYSTEMS = {
    "timemaster": (
        "",
        timemaster_choices,
        [
            {"kind": "sp_awarded", "type": "bonus", "session": 1, "amount": 10},
            {"kind": "sp_awarded", "type": "bonus", "session": 2, "amount": 20},
        ],
        0,
    ),
    "time_to_kill": (
        "",
        time_to_kill_choices,
        [
            {"kind": "mission_result", "outcome": "victory", "die_rolls": 7, "mission": None},
            {"kind": "rename", "name": "Kage the Second"},
        ],
        1,
    ),
    "tempo": (
        "flashpoints",
        tempo_choices,
        [
            {"kind": "fate_point_gained", "reason": "qualified_success_complication"},
            {"kind": "veto_card", "note": "the guard was not asleep"},
        ],
        0,
    ),
    "d6": (
        "",
        d6_choices,
        [
            {"kind": "character_points_gained", "count": 5, "reason": "first session"},
            {"kind": "fate_points_gained", "count": 1, "reason": "heroic moment"},
        ],
        1,
    ),
}
NAMES = {"timemaster": "Harry Adams", "time_to_kill": "Kage", "tempo": "Finn Marlowe", "d6": "Ana"}


@pytest.fixture
def make_campaign(world):
    """A campaign of ``system`` whose members are the world's personas (GM, players, observer)."""
    from campaigns import services
    from campaigns.models import Membership, Role

    def make(system, name=None):
        if system == "timemaster" and name is None:
            return world.campaign
        campaign = services.create_campaign(
            world.users["gm"], name=name or f"{system} table", system=system, module=SYSTEMS[system][0]
        )
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
        _, choices, entries, revert = SYSTEMS[campaign.system]
        draft = character_services.create_draft(
            campaign, world.users[owner], choices=choices(name or NAMES[campaign.system])
        )
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
    from campaigns import services as campaign_services

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
    campaign_services.record_roll(
        membership["player"], kind="d6", count=2, character=harry, rng=random.Random(1)
    )
    campaign_services.record_roll(
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
    first = missions.record_mistake(
        mission, gm, {"kind": "event_changed", "rating": 100, "description": "late"}
    )
    missions.record_mistake(mission, gm, {"kind": "other", "rating": 50, "description": "noticed"})
    missions.reverse_mistake(mission, first.pk, gm, "it did not happen")
    mission.refresh_from_db()
    missions.close_mission(world.membership["gm"], mission, "success", rng=D10Faces([3, 9, 1]))
    mission.refresh_from_db()
    missions.publish_mission(mission, gm)
    return mission


# -- campaigns with play records (Time to Kill runs, Tempo conflicts, D6 encounters) -----------------
PLAY_SYSTEMS = ("time_to_kill", "tempo", "d6")
NINJA_ABILITIES = {"stealth": "+", "awareness": "+", "athletics": "+"}


@pytest.fixture
def play_campaign(world, make_campaign, make_hero, monkeypatch):
    """play_campaign(system): a campaign of ``system`` with play records through the apps' own
    services: one finished and one in progress (Time to Kill: plus an abandoned run; D6: plus one
    still being set up), their rolls in the dice log and their ledger entries."""

    def make(system, name=None):
        campaign = make_campaign(system, name=name or f"{system} play")
        return {"time_to_kill": _ttk_runs, "tempo": _tempo_conflicts, "d6": _d6_encounters}[system](
            world, campaign, make_hero, monkeypatch
        )

    return make


def _ninja(world, campaign, owner, name):
    draft = character_services.create_draft(
        campaign, world.users[owner], choices={"name": name, "abilities": dict(NINJA_ABILITIES)}
    )
    return character_services.finalize(draft, is_gm=True, rng=random.Random(1))


def _ttk_runs(world, campaign, make_hero, monkeypatch):
    from systems.time_to_kill import services
    from tests.ttk_missions.helpers import VICTORY_MOVES, VICTORY_SCRIPT, ScriptedRng

    gm = campaign.memberships.get(user=world.users["gm"])
    kage = _ninja(world, campaign, "player", "Kage")
    yuki = _ninja(world, campaign, "other_player", "Yuki")
    monastery = campaign.missions.create(title="The monastery")
    briefing = {"brief": "Into the monastery.", "gm_notes": "The abbot keeps the key under the bell"}

    def play(run, moves, owner):
        for side, kind, params in moves:
            user = world.users["gm"] if side == "gm" else world.users[owner]
            services.post_event(run, user, side, {"type": kind, **params})

    dice = {"rng": ScriptedRng(**VICTORY_SCRIPT)}
    monkeypatch.setattr(services, "make_rng", lambda: dice["rng"])
    monkeypatch.setattr("characters.systems.fair_dice.FairRandom", lambda key: dice["rng"])  # the dice
    won = services.start_run(gm, ninja=kage.pk, mission=monastery.pk, briefing=briefing)
    play(won, VICTORY_MOVES, "player")
    dice["rng"] = ScriptedRng(draws=["o", "o"], fudge=[1, 0, -1, 0])
    running = services.start_run(gm, ninja=yuki.pk, title="Rooftops")
    play(running, VICTORY_MOVES[:5], "other_player")
    dropped = services.start_run(gm, ninja=kage.pk, title="A test run")
    services.abandon_run(dropped, gm)
    return campaign


def _tempo_conflicts(world, campaign, make_hero, monkeypatch):
    from systems.tempo import services

    gm = campaign.memberships.select_related("campaign", "user").get(user=world.users["gm"])
    finn = make_hero(campaign, "player", name="Finn Marlowe")
    nora = make_hero(campaign, "other_player", name="Nora Vale")
    rng = random.Random(5)

    def conflict(title, agent):
        return services.create_conflict(
            gm,
            {
                "title": title,
                "scene_aspects": ["Rain on the rooftops"],
                "sides": [
                    {"name": agent.name, "characters": [agent.pk]},
                    {"name": "Stasi", "npcs": ["Major Brandt"], "controlled_by": "gm"},
                ],
            },
        )

    def round_(fight):
        services.add_event(
            gm, fight, {"type": "roll", "sides": {"a": {"rating": 2}, "b": {"rating": 1}}}, rng
        )

    over = conflict("The chase", finn)
    round_(over)
    round_(over)
    services.add_event(gm, over, {"type": "end", "reason": "the Stasi lose them in the rain"})
    running = conflict("The checkpoint", nora)
    round_(running)
    return campaign


def _d6_encounters(world, campaign, make_hero, monkeypatch):
    from systems.d6 import services

    gm = campaign.memberships.select_related("campaign", "user").get(user=world.users["gm"])
    ana = make_hero(campaign, "player", name="Ana", ledger=False)
    rey = make_hero(campaign, "other_player", name="Rey", ledger=False)
    thugs = {
        "kind": "group",
        "name": "Thugs",
        "members": ["Thug 1", "Thug 2"],
        "attributes": {"Perception": "2D+1", "Reflexes": "3D"},
        "skills": {"brawling": {"attribute": "Reflexes", "code": "4D+2"}},
    }
    rng = random.Random(7)

    def encounter(name, hero):
        made = services.create_encounter(campaign, world.users["gm"], name=name, method="once_per_scene")
        services.add_character(made, hero.pk)
        services.add_npc(made, thugs)
        made = services.start_encounter(made)
        services.record_event(made, gm, {"type": "begin_round"}, rng)
        services.record_event(made, gm, {"type": "roll_initiative"}, rng)
        pid = made.state["active"][-1]["participant"]
        services.record_event(made, gm, {"type": "declare", "participant": pid, "actions": 1}, rng)
        return made

    over = encounter("Dockside", ana)
    services.record_event(over, gm, {"type": "end_scene", "reason": "the thugs run"}, rng)
    encounter("Warehouse", rey)
    waiting = services.create_encounter(campaign, world.users["gm"], name="Rooftop", method="once_per_scene")
    services.add_npc(waiting, {"name": "Sniper", "attributes": {"Perception": "4D", "Reflexes": "2D"}})
    return campaign


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
