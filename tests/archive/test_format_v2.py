"""Format version 2: a TIMEMASTER agent's bonus Success Points per session are kept for the latest
sessions only (a bounded list, not a key per session ever played: issue 22). Archives of version 1
still import: the upgrade step rewrites that part of the build from the file's own ledger, and a
version-1 build that the ledger does not give is still refused as hand-edited."""

from __future__ import annotations

import json

from archive import format as archive_format
from archive import references, services
from archive.sections import export_keys
from characters import services as character_services
from systems.timemaster.engine import advancement

from .test_refusals import refused_character


def _as_version_1(document: dict) -> dict:
    """The document as Dossier wrote it before version 2: a map with a key per bonus session."""
    document = json.loads(json.dumps(document))
    document["format_version"] = 1
    for character in [document, *document.get("characters", [])]:
        state = (character.get("build") or {}).get("state") or {}
        if "bonus_sessions" in state:
            totals = {}
            undone = {e["reverses"] for e in character["ledger"] if e["kind"] == "reversal"}
            for index, entry in enumerate(character["ledger"]):
                payload = entry["payload"]
                if entry["kind"] == "sp_awarded" and payload.get("type") == "bonus" and index not in undone:
                    totals[str(payload["session"])] = (
                        totals.get(str(payload["session"]), 0) + payload["amount"]
                    )
            del state["bonus_sessions"]
            state["bonus_by_session"] = totals
    return document


def _long_played(world, make_hero):
    hero = make_hero(world.campaign)
    for session in range(advancement.BONUS_SESSIONS_KEPT + 5):
        entry = {"kind": "sp_awarded", "type": "bonus", "session": f"game {session}", "amount": 20}
        character_services.append_entry(hero, entry, world.users["gm"])
    return hero


def test_an_export_keeps_a_bounded_list_of_bonus_sessions(world, make_hero):
    hero = _long_played(world, make_hero)
    document = services.export_character(hero, world.users["gm"])
    assert document["format_version"] == archive_format.FORMAT_VERSION >= 2
    state = document["build"]["state"]
    assert "bonus_by_session" not in state
    assert len(state["bonus_sessions"]) == advancement.BONUS_SESSIONS_KEPT


def test_a_version_1_character_document_imports_with_the_bonus_sessions_upgraded(
    world, make_hero, as_written_by_version_2
):
    hero = _long_played(world, make_hero)
    current = as_written_by_version_2(lambda: services.export_character(hero, world.users["gm"]))
    old = _as_version_1(current)
    assert len(old["build"]["state"]["bonus_by_session"]) == advancement.BONUS_SESSIONS_KEPT + 5 + 1
    imported = services.import_character(
        old, world.campaign, world.users["player"], world.users["gm"], on_duplicate="copy"
    )
    assert imported.build == hero.build and imported.build["success_points"] == hero.build["success_points"]


def test_a_version_1_campaign_archive_imports(world, full_campaign, as_written_by_version_2):
    document = as_written_by_version_2(lambda: services.export_campaign(full_campaign, world.users["gm"]))
    old = _as_version_1(document)
    assert any("bonus_by_session" in (c["build"].get("state") or {}) for c in old["characters"])
    campaign = services.import_campaign(old, world.users["gm"])

    def builds(of):  # the missions of each campaign by archive key (ids aside)
        keys = export_keys(of)
        return sorted(
            json.dumps(references.character(row, keys.key)["build"], sort_keys=True)
            for row in of.characters.values("system", "build")
        )

    assert builds(campaign) == builds(full_campaign)


def test_a_version_1_build_the_ledger_does_not_give_is_still_refused(
    world, make_hero, as_written_by_version_2
):
    hero = _long_played(world, make_hero)
    old = _as_version_1(as_written_by_version_2(lambda: services.export_character(hero, world.users["gm"])))
    old["build"]["state"]["bonus_by_session"]["game 3"] = 50  # hand-edited
    problems, _ = refused_character(world, old)
    assert {path for path, _ in problems} == {"build"}
    assert "changed by hand" in " ".join(message for _, message in problems)
