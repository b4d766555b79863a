"""What an award reveals, said honestly (issue 44, finding 13; docs/secrets.md, "What an award
reveals"): a player reads their agent's award, and a corrected award, in every place that holds one
(the history page, its API, the character export and the export inside their sheet), and never
the mission's pool, share or remainder, which the document keeps the GM's.

The mission: significance 913, a shown line of 100 and a hidden one of 94, two agents: the pool is
719, the share 359, the remainder 1. After the GM reverses the hidden line the pool is 813 and the
award 406. The figures are chosen to appear nowhere else.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.apps import apps

from campaigns import missions
from characters.models import AdvancementEntry
from systems.timemaster import missions as tm_missions
from tests.campaigns.test_missions import gm_membership, new_agent, roll_of, started

pytestmark = pytest.mark.django_db

POOL, AWARD, REMAINDER = 719, 359, 1
CORRECTED_POOL, CORRECTED_AWARD = 813, 406
#: The mission's figures a player must not get: the pools, before and after the correction.
HIDDEN_FIGURES = (POOL, CORRECTED_POOL)


def _berlin(world):
    agents = [new_agent(world, "player", "Dora Engel"), new_agent(world, "other_player", "Emil Falk")]
    mission = started(world, agents, title="Berlin", significance_rating=913)
    gm = world.users["gm"]
    tm_missions.record_mistake(mission, gm, {"kind": "other", "rating": 100, "shown_to_players": True})
    hidden = tm_missions.record_mistake(
        mission, gm, {"kind": "other", "rating": 94, "shown_to_players": False}
    )
    closed = tm_missions.close_mission(gm_membership(world), mission, "success", rng=roll_of(600))
    assert (closed.outcome["pool"], closed.outcome["share"], closed.outcome["remainder"]) == (
        POOL,
        AWARD,
        REMAINDER,
    )
    missions.publish_mission(closed, gm)
    return agents[0], closed, hidden


def _pdf_with_export(user, membership, character) -> str:
    """The character sheet the player prints: its pages' text and the export embedded in it."""
    from pypdf import PdfReader

    from sheets import services as sheet_services
    from sheets.models import SheetRender
    from sheets.tasks import run_render

    render, _ = sheet_services.request_render(user, "character", character.campaign, membership, character)
    run_render(render.pk)
    render = SheetRender.objects.get(pk=render.pk)
    with render.file.open("rb") as handle:
        reader = PdfReader(io.BytesIO(handle.read()))
    embedded = [part.decode() for parts in reader.attachments.values() for part in parts]
    assert embedded, "the sheet carries the character's export"
    return "\n".join(page.extract_text() for page in reader.pages) + "\n".join(embedded)


def _what_the_player_reads(world, client, api, agent) -> dict[str, str]:
    player = world.users["player"]
    client.force_login(player)
    campaign = world.campaign.pk
    return {
        "history page": client.get(f"/characters/{agent.pk}/history/").content.decode(),
        "history API": api(player)
        .get(f"/api/v1/campaigns/{campaign}/characters/{agent.pk}/history/")
        .content.decode(),
        "character export": client.get(
            f"/campaigns/{campaign}/archive/characters/{agent.pk}/export/"
        ).content.decode(),
        "sheet and its export": _pdf_with_export(player, world.membership["player"], agent),
    }


def _figure(value: int) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.]){value}(?!\.?\d)(?!\w)")


def _assert_award_alone(readings: dict[str, str], award: int) -> None:
    for where, text in readings.items():
        assert _figure(award).search(text), f"{where} holds no award of {award}"
        for figure in HIDDEN_FIGURES:
            assert not _figure(figure).search(text), f"{where} gives the pool {figure} away"
        assert not re.search(r"(?i)\bpool\b|remainder|equal share", text), where


def test_a_player_reads_their_agents_award_and_nothing_of_the_pool(world, client, api):
    dora, _, _ = _berlin(world)
    readings = _what_the_player_reads(world, client, api, dora)
    _assert_award_alone(readings, AWARD)
    assert f"Awarded {AWARD} Success Points for Berlin." in readings["history page"]
    award = next(e for e in json.loads(readings["character export"])["ledger"] if e["kind"] == "sp_awarded")
    assert award["payload"] == {"type": "regular", "mission": award["payload"]["mission"]} | {
        "amount": AWARD,
        "forgone": 0,
        "reason": "earned",
    }


def test_a_corrected_award_shows_the_new_award_and_still_no_pool(world, client, api):
    dora, berlin, hidden = _berlin(world)
    tm_missions.reverse_mistake(berlin, hidden.pk, world.users["gm"], "Counted twice")
    readings = _what_the_player_reads(world, client, api, dora)
    _assert_award_alone(readings, CORRECTED_AWARD)
    page = readings["history page"]
    assert f"Awarded {CORRECTED_AWARD} Success Points for Berlin." in page
    assert "Counted twice" not in page and "The game master corrected this mission" in page


def test_awards_written_before_keep_their_points_and_lose_the_pool(world):
    """timemaster 0003: an award entry as it was written before (with the pool, share and
    remainder) keeps the award and the engine's fields; the mission's figures go."""
    from importlib import import_module

    strip = import_module("systems.timemaster.migrations.0003_awards_without_pools").strip
    dora, _, _ = _berlin(world)
    award = dora.entries.get(kind="sp_awarded")
    old = {**award.payload, "pool": POOL, "share": AWARD, "remainder_not_awarded": REMAINDER}
    AdvancementEntry.objects.filter(pk=award.pk).update(payload=old)
    bonus = AdvancementEntry.objects.create(
        character=dora,
        kind="sp_awarded",
        payload={"type": "bonus", "session": 1, "amount": 10},
        revision_after=dora.revision,
    )
    strip(apps, None)
    award.refresh_from_db()
    assert award.payload == {
        k: v for k, v in old.items() if k not in ("pool", "share", "remainder_not_awarded")
    }
    assert award.payload["amount"] == AWARD
    assert AdvancementEntry.objects.get(pk=bonus.pk).payload == {"type": "bonus", "session": 1, "amount": 10}


def test_an_older_export_imported_brings_no_pool_back(world, client):
    """An award exported before 2026-12-07 holds the pool, share and remainder; imported (a GM's
    campaign archive, a player's character file or sheet), the ledger keeps the award alone."""
    from archive import services as archive_services
    from campaigns import services as campaign_services
    from campaigns.models import Membership, Role

    dora, _, _ = _berlin(world)
    dora.refresh_from_db()
    document = archive_services.export_character(dora)
    award = next(e for e in document["ledger"] if e["kind"] == "sp_awarded")
    award["payload"] |= {"pool": POOL, "share": AWARD, "remainder_not_awarded": REMAINDER}
    gm, player = world.users["gm"], world.users["player"]
    target = campaign_services.create_campaign(gm, name="Second Corps", system="timemaster")
    Membership.objects.create(campaign=target, user=player, role=Role.PLAYER)
    copy = archive_services.import_character(json.loads(json.dumps(document)), target, player, gm)
    kept = copy.entries.get(kind="sp_awarded").payload
    assert kept["amount"] == AWARD and not {"pool", "share", "remainder_not_awarded"} & set(kept)
    client.force_login(player)
    page = client.get(f"/characters/{copy.pk}/history/").content.decode()
    assert f"Awarded {AWARD} Success Points" in page and not _figure(POOL).search(page)
