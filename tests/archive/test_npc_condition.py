"""TIMEMASTER NPCs' condition in the campaign archive (issue 49, point 5; the timemaster_npc_condition
section, systems/timemaster/archive.py): the GM's record of an NPC's Stamina, wounds, crumpled armor
and death travels with the campaign, reverts included, by positions and never database ids; a bad
entry is refused at its path with nothing imported; a file from before the section still imports;
and a player's character export carries none of it."""

from __future__ import annotations

import json

import pytest

from archive import schema, services
from archive.problems import ArchiveRefused
from campaigns import npc_services
from campaigns.models import NPC, Campaign, Roll
from systems.timemaster import archive as npc_archive
from systems.timemaster import attacks
from systems.timemaster import npc_condition_services as npc_cond
from systems.timemaster.engine import npc_condition, recovery
from systems.timemaster.engine.armor import LOCATIONS
from systems.timemaster.engine.tables import ARMOR
from systems.timemaster.models import NPCConditionEntry
from tests.campaigns.test_checks import BOOK_ABILITIES, Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

KEY = npc_archive.KEY


@pytest.fixture
def fight(world, make_agent):  # noqa: F811
    """Harry against three guards: Guard 1 hit (14 Stamina, 3 wounds) then put in mail, Guard 2 hit
    and the hit reverted, Guard 3 struck down (unconscious), a guard with no entry; and an NPC
    without Stamina."""
    harry = make_agent("player", abilities=dict(BOOK_ABILITIES))
    gm = world.membership["gm"]
    guards = [
        npc_services.create_npc(
            world.campaign, world.users["gm"], {"name": f"Guard {n}", "quick": True, "kind": "human"}
        )
        for n in (1, 2, 3, 4)
    ]

    def hit(guard, *faces):
        attack = attacks.Attack(
            form="melee", attacker=harry, attacker_score="other:unskilled_melee", defender_npc=guard
        )
        return attacks.resolve(gm, attack, Faces(*faces))

    one, two, three, _four = guards
    hit(one, 2, 0, 3, 4)  # roll 20 on column 4: M, 14 Stamina and 3 wounds
    npc_cond.record(one, gm, "armor_worn", {"armor": ["mail", "helmet"]}, "Put on at the gate")
    hit(two, 2, 0, 3, 4)
    npc_cond.revert(two, gm, npc_cond.history(two)[0].pk)
    hit(three, 0, 1, 0, 0, 0)  # 01: struck down, 0 Stamina
    return guards


def exported(campaign):
    gm = campaign.memberships.get(role="gm").user
    return json.loads(json.dumps(services.export_campaign(campaign, gm)))


def condition_of(npc) -> tuple:
    """What the GM's NPC page shows: the condition and each entry (text, source, reverted, who, when)."""
    return (
        npc_cond.summary(npc),
        [
            (
                {k: v for k, v in npc_cond.describe(row).items() if k != "id"},
                row.recorded_by.username if row.recorded_by else None,
                row.reverted_by.username if row.reverted_by else None,
                row.reverted_at,
                None if row.roll is None else (row.roll.purpose, row.roll.total, row.roll.faces),
            )
            for row in npc_cond.history(npc)
        ],
    )


def test_npc_condition_round_trips_with_its_reverts_and_the_npc_page_shows_it_again(world, fight, client):
    document = exported(world.campaign)
    section = document[KEY]
    assert [item["npc"] for item in section] == [0, 0, 1, 2]
    # no server id: the NPC by its position in npcs, the roll by its position in rolls
    names = [npc["name"] for npc in document["npcs"]]
    assert [names[item["npc"]] for item in section] == ["Guard 1", "Guard 1", "Guard 2", "Guard 3"]
    for item in section:
        assert set(item) == set(npc_archive.FIELDS)
        if item["roll"] is not None:
            assert document["rolls"][item["roll"]]["detail"].get("attack") is True
    # NPC and roll ids are random and long (kernel.fields.random_public_id): none is in the section
    ids = [*NPC.objects.values_list("pk", flat=True), *Roll.objects.values_list("pk", flat=True)]
    text = json.dumps(section)
    assert ids and all(pk > 1000 and str(pk) not in text for pk in ids)
    assert [item["reverted_at"] is not None for item in section] == [False, False, True, False]

    copy_ = services.import_campaign(document, world.users["gm"], trusted=True)
    for guard in fight:
        again = copy_.npcs.get(name=guard.name)
        assert condition_of(again) == condition_of(guard)
    assert npc_cond.summary(copy_.npcs.get(name="Guard 3"))["status"] == "unconscious"
    assert npc_cond.summary(copy_.npcs.get(name="Guard 1"))["armor"] == ["mail", "helmet"]
    # the rolls named are the copy's
    rolls = NPCConditionEntry.objects.filter(npc__campaign=copy_).exclude(roll=None)
    assert rolls.count() == 3 and {row.roll.campaign_id for row in rolls} == {copy_.pk}
    client.force_login(world.users["gm"])
    one = copy_.npcs.get(name="Guard 1")
    page = client.get(f"/campaigns/{copy_.pk}/npcs/{one.pk}/").content.decode()
    assert "<strong>Conscious</strong>: Stamina 36 of 50; wounds 3 of 13 marked" in page
    assert "14 Stamina, 3 wounds" in page
    # a revert of the copy still works: the armor entry goes, the rest folds again
    armor = npc_cond.history(one)[1]
    npc_cond.revert(one, copy_.memberships.get(user=world.users["gm"]), armor.pk)
    assert npc_cond.summary(one)["armor"] == []


def test_the_section_holds_the_entries_oldest_first(world, fight):
    section = exported(world.campaign)[KEY]
    assert [item["entry"]["kind"] for item in section] == [
        "damage_taken",
        "armor_worn",
        "damage_taken",
        "damage_taken",
    ]
    assert section[1] | {"created_at": None} == {
        "npc": 0,
        "entry": {"kind": "armor_worn", "armor": ["mail", "helmet"]},
        "source": "Put on at the gate",
        "roll": None,
        "recorded_by": "gm",
        "created_at": None,
        "reverted_at": None,
        "reverted_by": None,
    }


def counts():
    return {model.__name__: model.objects.count() for model in (Campaign, NPC, Roll, NPCConditionEntry)}


def refused(world, document) -> set[tuple[str, str]]:
    before = counts()
    with pytest.raises(ArchiveRefused) as caught:
        services.import_campaign(document, world.users["gm"])
    assert counts() == before
    return {(p.path, p.message) for p in caught.value.problems}


BAD = [
    # (where in the section, the new value, the path refused, words of the message)
    ((0, "entry", "wounds"), -3, f"{KEY}[0].entry.wounds", "must be at least 0"),
    ((0, "entry", "kind"), "luck_spent", f"{KEY}[0].entry.kind", "must be one of"),
    ((1, "entry", "armor"), ["mail", "chain_of_office"], f"{KEY}[1].entry.armor", "armor keys"),
    ((0, "entry", "fists"), 2, f"{KEY}[0].entry.fists", "is not a field of a damage_taken entry"),
    ((0, "npc"), 9, f"{KEY}[0].npc", "must be the position of one of the 4 npcs"),
    ((0, "npc"), "Guard 1", f"{KEY}[0].npc", "must be the position"),
    ((0, "roll"), 10_000, f"{KEY}[0].roll", "rolls of the archive"),
    ((0, "id"), 17, f"{KEY}[0].id", "is not a field"),
    ((0, "reverted_at"), "yesterday", f"{KEY}[0].reverted_at", "must be a date and time"),
]


@pytest.mark.parametrize(("where", "value", "path", "words"), BAD)
def test_a_bad_entry_is_refused_at_its_path_and_nothing_is_imported(world, fight, where, value, path, words):
    document = exported(world.campaign)
    target = document[KEY]
    for step in where[:-1]:
        target = target[step]
    target[where[-1]] = value
    problems = refused(world, document)
    assert {p for p, _ in problems} == {path}
    assert words in " ".join(m for _, m in problems)


def test_a_reverted_entry_brought_back_by_hand_is_folded_on_the_restored_page(world, fight):
    document = exported(world.campaign)
    document[KEY][2]["reverted_at"] = document[KEY][2]["reverted_by"] = None
    copy_ = services.import_campaign(document, world.users["gm"])
    assert npc_cond.summary(copy_.npcs.get(name="Guard 2"))["current_stamina"] == 36


def test_entries_that_no_longer_fold_come_back_as_they_were_and_the_import_says_so(world, fight):
    """The GM lowers a wounded guard's STA after his hits: his entries no longer fold (with 11 wound
    boxes instead of 13 the second blow kills him, so his rest is refused) and his page shows no
    condition. The restore is not refused over it: the copy shows the same, and the GM is told."""
    gm = world.membership["gm"]
    one = fight[0]
    npc_cond.record(one, gm, "damage_taken", {"stamina": 5, "wounds": 8}, "A second blow")
    npc_cond.record(one, gm, "stamina_rested", {"rounds": 1}, "")
    npc_services.update_npc(one, {"abilities": {"STA": 20}})
    one.refresh_from_db()
    assert npc_cond.summary(one) is None
    warnings: list[str] = []
    copy_ = services.import_campaign(exported(world.campaign), world.users["gm"], warnings=warnings)
    again = copy_.npcs.get(name="Guard 1")
    assert npc_cond.summary(again) is None and condition_of(again) == condition_of(one)
    lines = [line for line in warnings if line.startswith("NPC 'Guard 1'")]
    assert len(lines) == 1 and "This agent is dead" in lines[0]
    assert not [line for line in warnings if "Guard 3" in line]  # his entries hold


def test_entries_in_another_systems_archive_are_refused(world, fight):
    document = exported(world.campaign)
    document["campaign"]["system"] = "d6"
    assert (KEY, "NPC condition entries belong to a TIMEMASTER campaign's archive.") in refused(
        world, document
    )


def test_an_archive_from_before_the_section_still_imports(world, fight):
    document = exported(world.campaign)
    del document[KEY]
    copy_ = services.import_campaign(document, world.users["gm"])
    assert copy_.npcs.count() == 4
    assert not NPCConditionEntry.objects.filter(npc__campaign=copy_).exists()
    assert npc_cond.summary(copy_.npcs.get(name="Guard 1"))["current_stamina"] == 50


def test_a_players_character_export_carries_no_npc_condition(world, fight, api):
    harry = world.campaign.characters.get(owner=world.users["player"])
    document = services.export_character(harry, world.users["player"])
    text = json.dumps(document)
    assert KEY not in document and "npcs" not in document
    assert "Put on at the gate" not in text and "Guard 1" not in text
    url = f"/api/v1/campaigns/{world.campaign.pk}/export/"
    for persona in ("player", "other_player", "observer"):
        response = api(world.users[persona]).get(url)
        assert response.status_code == 403 and "Put on at the gate" not in response.content.decode()
    assert api(world.users["gm"]).get(url).json()[KEY][1]["source"] == "Put on at the gate"


def test_the_section_schema_names_what_the_engine_takes():
    items = schema.section_schema(npc_archive)["items"]
    entry = items["properties"]["entry"]["properties"]
    assert entry["kind"]["enum"] == list(npc_condition.NPC_KINDS)
    assert entry["crumple"]["enum"] == sorted(LOCATIONS)  # not the chart's order: no copied prose
    assert entry["cause"]["enum"] == list(recovery.FATAL_CAUSES)
    assert entry["how"]["enum"] == list(recovery.CRITICAL_TREATMENTS)
    assert entry["armor"]["items"]["enum"] == list(ARMOR)
    taken = {name for kind in npc_condition.NPC_KINDS for name in recovery.FUNCTIONS[kind][1]}
    assert set(entry) == {"kind", "source", *taken}
    assert set(items["properties"]) == set(npc_archive.FIELDS)
