"""TIMEMASTER's fights in the campaign archive (issue 49): which NPC each logged attack fell on
(timemaster_attacked_npcs, systems/timemaster/archive_attacked.py) and the holds, strangles and
knockdowns kept (timemaster_fight_states, systems/timemaster/archive_fight_states.py) travel with
the campaign by positions, never database ids; the restored GM log names the guard again and the
restored fight panel shows the same holds; a bad item is refused at its path with nothing
imported; an archive from before these sections still imports."""

from __future__ import annotations

import json

import pytest

from archive import schema, services
from archive.problems import ArchiveRefused
from campaigns import npc_services
from campaigns.models import NPC, Campaign, Roll
from systems.timemaster import archive_attacked, archive_fight_states, attacks, fight_states
from systems.timemaster.engine import special
from systems.timemaster.models import AttackedNPC, FightState
from tests.campaigns.test_checks import BOOK_ABILITIES, Faces
from tests.characters.conftest import make_agent  # noqa: F401  (fixture)

ATTACKED, STATES = archive_attacked.KEY, archive_fight_states.KEY


@pytest.fixture
def fight(world, make_agent):  # noqa: F811
    """Harry holds Guard 1 (a called hold on a C: held and down), hits Guard 2 and lets go of
    Guard 1 after a round; Guard 2's knockdown is reverted as a mistake."""
    harry = make_agent("player", abilities=dict(BOOK_ABILITIES))
    gm = world.membership["gm"]
    one, two = (
        npc_services.create_npc(
            world.campaign, world.users["gm"], {"name": f"Guard {n}", "quick": True, "kind": "human"}
        )
        for n in (1, 2)
    )
    hold = attacks.Attack(
        form="melee",
        results_key="unarmed",
        attacker=harry,
        attacker_score="other:unskilled_melee",
        defender_npc=one,
        situation={"surprised": True},
        called_hold="hold",
        fight_round=2,
    )
    attacks.resolve(gm, hold, Faces(0, 1, 1, 1, 1))
    held = FightState.objects.get(kind="hold")
    attacks.hold_round(gm, round_number=2, state=held, rng=Faces(4))
    fight_states.end(gm, held.pk, "let go")
    blow = attacks.Attack(
        form="melee",
        attacker=harry,
        attacker_score="other:unskilled_melee",
        defender_npc=two,
        situation={"surprised": True},
    )
    attacks.resolve(gm, blow, Faces(0, 1, 1, 1, 1, 3, 0))
    fight_states.revert(gm, FightState.objects.get(kind="down", defender_npc=two).pk)
    return harry, one, two


def exported(campaign):
    gm = campaign.memberships.get(role="gm").user
    return json.loads(json.dumps(services.export_campaign(campaign, gm)))


def shown(campaign) -> list[tuple]:
    """What the GM's fight panel and log hold: each state as described, and each attack's NPC."""
    states = [
        {
            k: v
            for k, v in fight_states.describe(row).items()
            if k not in ("id", "defender", "defender_npc", "holder", "roll")
        }
        for row in FightState.objects.filter(campaign=campaign).order_by("created_at", "id")
    ]
    attacked = sorted(
        (row.roll.purpose, row.roll.total, row.npc.name)
        for row in AttackedNPC.objects.filter(roll__campaign=campaign).select_related("roll", "npc")
    )
    return [states, attacked]


def test_the_fight_round_trips_and_the_restored_gm_log_names_the_guard(world, fight, client):
    harry, one, _two = fight
    document = exported(world.campaign)
    names = [npc["name"] for npc in document["npcs"]]
    assert [names[item["npc"]] for item in document[ATTACKED]] == ["Guard 1", "Guard 1", "Guard 2"]
    assert [(item["kind"], item["since_round"], item["rounds_held"]) for item in document[STATES]] == [
        ("hold", 2, 2),
        ("down", 2, 1),
        ("down", 1, 1),
    ]
    assert document[STATES][0]["end_reason"] == "let go" and document[STATES][0]["ended_by"] == "gm"
    assert document[STATES][2]["reverted_at"] is not None
    ids = [*NPC.objects.values_list("pk", flat=True), *Roll.objects.values_list("pk", flat=True)]
    text = json.dumps([document[ATTACKED], document[STATES]])
    assert all(str(pk) not in text for pk in ids)

    copy_ = services.import_campaign(document, world.users["gm"], trusted=True)
    assert shown(copy_) == shown(world.campaign)
    restored = FightState.objects.get(campaign=copy_, kind="hold")
    assert restored.holder.campaign_id == copy_.pk and restored.holder.name == harry.name
    assert restored.defender_npc.campaign_id == copy_.pk and restored.roll.campaign_id == copy_.pk
    client.force_login(world.users["gm"])
    log = client.get(f"/campaigns/{copy_.pk}/dice/log/").content.decode()
    assert "Guard 1 (shown as NPC)" in log and "Guard 2 (shown as NPC)" in log
    page = client.get(f"/campaigns/{copy_.pk}/dice/").content.decode()
    assert "Guard 1 is down</strong>: knocked down in round 2" in page


BAD = [
    (ATTACKED, (0, "npc"), 7, f"{ATTACKED}[0].npc", "must be the position of one of the 2 npcs"),
    (ATTACKED, (1, "roll"), 0, f"{ATTACKED}[1].roll", "names a roll another item already names"),
    (ATTACKED, (0, "id"), 3, f"{ATTACKED}[0].id", "is not a field"),
    (STATES, (0, "kind"), "tickle", f"{STATES}[0].kind", "must be one of"),
    (STATES, (0, "since_round"), 0, f"{STATES}[0].since_round", "must be at least 1"),
    (STATES, (0, "defender_npc"), None, f"{STATES}[0].defender", "an agent or an NPC"),
    (STATES, (0, "holder"), 40, f"{STATES}[0].holder", "characters of the archive"),
    (STATES, (0, "ended_at"), "soon", f"{STATES}[0].ended_at", "must be a date and time"),
]


def counts():
    return {m.__name__: m.objects.count() for m in (Campaign, NPC, Roll, AttackedNPC, FightState)}


@pytest.mark.parametrize(("key", "where", "value", "path", "words"), BAD)
def test_a_bad_item_is_refused_at_its_path_and_nothing_is_imported(
    world, fight, key, where, value, path, words
):
    document = exported(world.campaign)
    target = document[key]
    for step in where[:-1]:
        target = target[step]
    target[where[-1]] = value
    before = counts()
    with pytest.raises(ArchiveRefused) as caught:
        services.import_campaign(document, world.users["gm"])
    assert counts() == before
    problems = {(p.path, p.message) for p in caught.value.problems}
    assert {p for p, _ in problems} == {path}, problems
    assert words in " ".join(m for _, m in problems)


def test_another_systems_archive_and_an_archive_from_before_the_sections(world, fight):
    document = exported(world.campaign)
    document["campaign"]["system"] = "d6"
    with pytest.raises(ArchiveRefused) as caught:
        services.import_campaign(document, world.users["gm"])
    paths = {p.path for p in caught.value.problems}
    assert {ATTACKED, STATES} <= paths
    document = exported(world.campaign)
    del document[ATTACKED], document[STATES]
    copy_ = services.import_campaign(document, world.users["gm"])
    assert not FightState.objects.filter(campaign=copy_).exists()
    assert not AttackedNPC.objects.filter(roll__campaign=copy_).exists()


def test_the_schema_names_the_engines_kinds_and_every_field():
    items = schema.section_schema(archive_fight_states)["items"]
    assert items["properties"]["kind"]["enum"] == list(special.STATE_KINDS)
    assert set(items["properties"]) == set(archive_fight_states.FIELDS)
    assert set(schema.section_schema(archive_attacked)["items"]["properties"]) == set(archive_attacked.FIELDS)
