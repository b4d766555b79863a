"""Export and import back gives the same data: one character of each system, and a whole campaign."""

from __future__ import annotations

import json
import os

import pytest
from django.db import connection

from archive import references, services
from archive.sections import export_keys
from campaigns.models import NPC, Campaign, Membership, Mission, Roll, SignificanceEntry
from campaigns.table import rolling
from characters.models import AdvancementEntry, Character
from tests.archive.conftest import SYSTEMS

#: Ids, links to rows by id, and when a row was written are not part of what is compared.
IGNORED = {"id", "campaign", "created_at", "updated_at", "joined_at"}


def row_values(row, ignore=()) -> dict:
    """Every concrete field of a row, foreign keys by a stable name, without ids and timestamps."""
    values = {}
    for field in type(row)._meta.concrete_fields:
        if field.name in IGNORED or field.name in ignore:
            continue
        if field.is_relation:
            target = getattr(row, field.name)
            values[field.name] = _label(target)
        else:
            values[field.name] = getattr(row, field.name)
    return json.loads(json.dumps(values, default=str))


def _label(target):
    if target is None:
        return None
    if isinstance(target, AdvancementEntry):
        return [target.kind, target.revision_after]
    if isinstance(target, Roll):
        return [target.kind, target.total, target.purpose]
    if isinstance(target, SignificanceEntry):
        return [target.kind, target.rating, target.description]
    return (
        getattr(target, "username", None) or getattr(target, "title", None) or getattr(target, "name", None)
    )


def campaign_rows(campaign: Campaign) -> dict:
    """The campaign and every row that hangs off it, in a stable order, field by field; the ids the
    engines keep in payloads, builds and outcomes compared as the archive's keys (ids aside)."""
    keys = export_keys(campaign)
    rows = _campaign_rows(campaign)
    rows["missions"] = [references.mission(m, keys.key, "") for m in rows["missions"]]
    rows["characters"] = [references.character(c, keys.key) for c in rows["characters"]]
    return rows


def _campaign_rows(campaign: Campaign) -> dict:
    return {
        # the name is left out: an imported copy is suffixed "(imported)" (test_the_copy_says_it_is_imported)
        "campaign": row_values(campaign, ignore={"created_by", "name"}),
        "members": sorted(
            (row_values(m) for m in Membership.objects.filter(campaign=campaign)), key=lambda m: m["user"]
        ),
        "missions": [
            row_values(m) for m in Mission.objects.filter(campaign=campaign).order_by("created_at", "id")
        ],
        "characters": [
            {
                **row_values(c),
                "ledger": [row_values(e, ignore={"character"}) for e in c.entries.order_by("id")],
            }
            for c in Character.objects.filter(campaign=campaign).order_by("id")
        ],
        "npcs": [row_values(n) for n in NPC.objects.filter(campaign=campaign).order_by("created_at", "id")],
        "rolls": [row_values(r) for r in Roll.objects.filter(campaign=campaign).order_by("created_at", "id")],
    }


def round_trip_character(system, world, make_campaign, make_hero):
    source = make_campaign(system)
    hero = make_hero(source)
    document = json.loads(json.dumps(services.export_character(hero, world.users["player"])))
    target = make_campaign(system, name="Another table")
    copy = services.import_character(document, target, world.users["other_player"], world.users["gm"])
    assert copy.campaign == target and copy.owner == world.users["other_player"]
    original = {
        **row_values(hero, ignore={"owner"}),
        "ledger": [row_values(e, ignore={"character"}) for e in hero.entries.order_by("id")],
    }
    imported = {
        **row_values(copy, ignore={"owner"}),
        "ledger": [row_values(e, ignore={"character"}) for e in copy.entries.order_by("id")],
    }
    assert imported == original
    assert [e.created_at for e in copy.entries.order_by("id")] == [
        e.created_at for e in hero.entries.order_by("id")
    ]
    assert any(e.kind == AdvancementEntry.REVERSAL for e in copy.entries.all())
    # the imported ledger is a real one: Dossier's own replay gives the stored build
    from characters.services import replay

    assert replay(copy) == copy.build


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_character_of_each_system_round_trips_into_another_campaign(
    system, world, make_campaign, make_hero
):
    round_trip_character(system, world, make_campaign, make_hero)


def test_a_whole_campaign_round_trips_field_by_field(world, full_campaign):
    """The administrator's restore (trusted) brings back every member, so every field compares."""
    document = json.loads(json.dumps(services.export_campaign(full_campaign, world.users["gm"])))
    copy = services.import_campaign(document, world.users["gm"], trusted=True)
    assert copy.pk != full_campaign.pk
    assert campaign_rows(copy) == campaign_rows(full_campaign)
    # the same holds for the archive made from the copy (nothing was lost on the way)
    again = services.export_campaign(copy, world.users["gm"])
    strip = lambda d: {k: v for k, v in d.items() if k not in ("exported_at",)}  # noqa: E731
    again = json.loads(json.dumps(again))
    assert again["campaign"].pop("name") == "Time Corps (imported)"
    document["campaign"].pop("name")
    assert strip(again) == strip(document)


def test_the_copy_says_it_is_imported_so_it_is_not_mistaken_for_the_original(world, full_campaign):
    document = services.export_campaign(full_campaign, world.users["gm"])
    assert services.import_campaign(document, world.users["gm"]).name == "Time Corps (imported)"
    document["campaign"]["name"] = "x" * 120
    long_copy = services.import_campaign(document, world.users["gm"])
    assert long_copy.name == "x" * 109 + " (imported)" and len(long_copy.name) == 120


def test_the_whole_campaign_round_trip_keeps_every_section_filled(world, full_campaign):
    document = services.export_campaign(full_campaign, world.users["gm"])
    keys = ("members", "missions", "characters", "npcs", "rolls", "mission_records")
    counts = {key: len(document[key]) for key in keys}
    assert counts == {
        "members": 4,
        "missions": 3,
        "characters": 3,
        "npcs": 2,
        "rolls": 3,
        "mission_records": 1,
    }
    record = document["mission_records"][0]
    assert (
        len(record["tally"]) == 3 and record["tally"][2]["reverses"] == 0 and record["check_roll"] is not None
    )
    copy = services.import_campaign(document, world.users["gm"])
    harry_copy = copy.characters.get(name="Harry Adams")
    assert copy.rolls.get(secret=False).character == harry_copy
    assert copy.rolls.get(
        secret=True, kind="d1000", purpose__contains="traitor"
    ).mission == copy.missions.get(title="Operation Lantern")
    vienna = copy.missions.get(title="The Vienna clockmaker")
    assert vienna.check_roll.mission == vienna and vienna.check_roll.campaign == copy
    assert sorted(a.name for a in vienna.agents.all()) == ["Harry Adams", "Mae Lin"]
    assert vienna.tally_entries.get(kind="reversal").reverses.description == "late"
    mae_entry = copy.characters.get(name="Mae Lin").entries.get(reason="bravery")
    assert mae_entry.mission == copy.missions.get(title="Operation Lantern")


# -- the same on PostgreSQL ----------------------------------------------------------------------------
on_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="needs DATABASE_URL=postgres://..."
)


@pytest.mark.services
@on_postgres
@pytest.mark.parametrize("system", list(SYSTEMS))
def test_postgres_a_character_of_each_system_round_trips(system, world, make_campaign, make_hero):
    assert connection.vendor == "postgresql"
    round_trip_character(system, world, make_campaign, make_hero)


@pytest.mark.services
@on_postgres
def test_postgres_a_whole_campaign_round_trips(world, full_campaign):
    assert connection.vendor == "postgresql"
    copy = services.import_campaign(services.export_campaign(full_campaign), world.users["gm"], trusted=True)
    assert campaign_rows(copy) == campaign_rows(full_campaign)


# -- query counts do not grow with rows ----------------------------------------------------------------
def count_queries(function) -> int:
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        function()
    return len(queries)


def test_exporting_a_campaign_costs_the_same_queries_for_more_rows(world, full_campaign, make_hero):

    small = count_queries(lambda: services.export_campaign(full_campaign))
    for name in ("Extra One", "Extra Two", "Extra Three"):
        hero = make_hero(full_campaign, "other_player", name=name)
        rolling.record_roll(world.membership["gm"], kind="d6", character=hero)
        full_campaign.missions.create(title=name)
    assert count_queries(lambda: services.export_campaign(full_campaign)) == small


def test_importing_a_character_costs_the_same_queries_for_a_longer_ledger(world, make_hero):
    from characters import services as character_services

    hero = make_hero(world.campaign)
    short = services.export_character(hero)
    for session in range(4, 10):
        entry = {"kind": "sp_awarded", "type": "bonus", "session": session, "amount": 10}
        character_services.append_entry(hero, entry, world.users["gm"])
    long = services.export_character(hero)
    assert len(long["ledger"]) == len(short["ledger"]) + 6
    gm, player = world.users["gm"], world.users["player"]
    assert count_queries(
        lambda: services.import_character(long, world.campaign, player, gm, on_duplicate="copy")
    ) == count_queries(
        lambda: services.import_character(short, world.campaign, player, gm, on_duplicate="copy")
    )
