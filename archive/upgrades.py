"""The steps that turn an archive of one format version into the next (archive.format.UPGRADES).

Version 1 -> 2: a system may have changed how a build keeps its state; each installed system's
``archive_format`` module (SystemApp.archive_format) supplies its step for one of its characters
in ``UPGRADES[1]`` (TIMEMASTER's keeps the latest bonus sessions as a bounded list, issue 22).

Version 2 -> 3: ledger payloads, builds and mission outcomes kept the exporting server's ids;
version 3 holds archive keys instead (archive/references.py, ``upgrade_v2_to_v3``).

Version 3 -> 4: a campaign archive carried every fair-dice seed whole, the seed in use and the
secret keys not yet released included; version 4 carries a server seed once revealed and a secret
key once released (``upgrade_v3_to_v4``; archive/sections/fair_dice.py).
"""

from __future__ import annotations

from typing import Any

from archive import references


def _character_steps(document: dict[str, Any], version: int) -> dict[str, Any]:
    """Each character's system's step from ``version`` (a character document is one character; a
    campaign archive holds a list of them)."""
    characters = document.get("characters")
    for character in [document, *(characters if isinstance(characters, list) else [])]:
        if not isinstance(character, dict):
            continue
        steps = getattr(references.archive_format(character.get("system")), "UPGRADES", {})
        if version in steps:
            steps[version](character)
    return document


def upgrade_v1_to_v2(document: dict[str, Any]) -> dict[str, Any]:
    return _character_steps(document, 1)


# -- version 2 -> 3: no server ids inside payloads, builds and outcomes -----------------------------
def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _item(items: Any, index: Any) -> Any:
    if isinstance(items, list) and _whole(index) and 0 <= index < len(items):
        return items[index]
    return None


def _old_mission_ids(document: dict[str, Any]) -> dict[int, int]:
    """Old mission id -> position, from what version 2 held by both: each mission's outcome names
    it, and a ledger entry tied to a mission (by position) names it in its payload."""
    found: dict[int, int] = {}
    missions = document.get("missions") if isinstance(document.get("missions"), list) else []
    for position, mission in enumerate(missions):
        if not isinstance(mission, dict):
            continue
        earlier = (
            mission.get("previous_outcomes") if isinstance(mission.get("previous_outcomes"), list) else []
        )
        for outcome in [mission.get("outcome"), *earlier]:
            old = references.as_id(outcome.get("mission")) if isinstance(outcome, dict) else None
            if old is not None:
                found.setdefault(old, position)
    for character in _list(document.get("characters")):
        spots = references.spots_of(character.get("system")) if isinstance(character, dict) else None
        if spots is None or spots.payload_kind != references.MISSION:
            continue
        for entry in _list(character.get("ledger")):
            payload = entry.get("payload") if isinstance(entry, dict) else None
            if spots.entry_kinds is not None and isinstance(entry, dict):
                payload = payload if entry.get("kind") in spots.entry_kinds else None
            old = references.as_id(payload.get(spots.payload_field)) if isinstance(payload, dict) else None
            if old is not None and _item(missions, entry.get("mission")) is not None:
                found.setdefault(old, entry["mission"])
    return found


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _old_character_ids(document: dict[str, Any]) -> dict[int, int]:
    """Old character id -> position: an outcome names the mission's agents by id, its record by
    position; both in the order of the ids (characters are exported by id, agents sorted by id)."""
    found: dict[int, int] = {}
    missions = _list(document.get("missions"))
    for record in _list(document.get("mission_records")):
        mission = _item(missions, record.get("mission")) if isinstance(record, dict) else None
        agents = record.get("agents") if isinstance(record, dict) else None
        if not isinstance(mission, dict) or not isinstance(agents, list) or not all(map(_whole, agents)):
            continue
        for outcome in [mission.get("outcome"), *_list(mission.get("previous_outcomes"))]:
            awards = outcome.get("awards") if isinstance(outcome, dict) else None
            olds = [references.as_id(a.get("agent")) if isinstance(a, dict) else None for a in _list(awards)]
            if awards and None not in olds and len(olds) == len(agents):
                for old, position in zip(sorted(olds), sorted(agents), strict=True):  # type: ignore[type-var]
                    found.setdefault(old, position)  # type: ignore[arg-type]
    return found


def upgrade_v2_to_v3(document: dict[str, Any]) -> dict[str, Any]:
    """Ids inside payloads, builds and outcomes become archive keys (archive/references.py). A
    character document holds no missions, runs or rolls: every id becomes a key of a record not in
    the file. A campaign archive's ids become positions where version 2 shows which record they
    were (the two functions above, and each system's ``OLD_IDS``); a dice-log roll's id it never
    does (a fate point's roll), so those become keys of records not in the file, like any id
    nothing matches."""
    if document.get("format") == "dossier.campaign":
        maps = {
            references.MISSION: _old_mission_ids(document),
            references.CHARACTER: _old_character_ids(document),
        }
        for module in references.archive_formats():  # a system's play records (OLD_IDS)
            if hasattr(module, "OLD_IDS"):
                maps.update(module.OLD_IDS(document))
        keys = references.ExportKeys(held={kind: (lambda found=found: found) for kind, found in maps.items()})
        if isinstance(document.get("missions"), list):
            document["missions"] = [references.mission(m, keys.key, "") for m in document["missions"]]
        if isinstance(document.get("characters"), list):
            document["characters"] = [references.character(c, keys.key) for c in document["characters"]]
        return document
    return references.character(document, references.ExportKeys().key)


def upgrade_v3_to_v4(document: dict[str, Any]) -> dict[str, Any]:
    """A campaign archive's seeds and dice scopes lose what version 4 never carries: the server
    seed of a seed not revealed (in use when the file was written) and every secret key not
    released. The restored campaign then rolls under none of them (issue 48, finding 5: with them
    anyone holding the file could compute the next rolls). A character document holds no dice."""
    if document.get("format") != "dossier.campaign":
        return document
    for seed in _list(document.get("fair_dice")):
        if not isinstance(seed, dict):
            continue
        if not seed.get("rotated_at"):
            seed["server_seed"] = None
        if not seed.get("secret_released_at"):
            seed["secret_key"] = None
    for scope in _list(document.get("fair_dice_scopes")):
        if isinstance(scope, dict) and not scope.get("secret_released_at"):
            scope["secret_key"] = None
    return document


def upgrade_v4_to_v5(document: dict[str, Any]) -> dict[str, Any]:
    """Version 5 carries the campaign's play sessions and their notes (issue 50); a campaign
    archive written before them had none, so it gets an empty ``play_sessions``. A TIMEMASTER bonus
    award's free-text session id (``session`` in its ledger payload) is kept as it was written: it
    stays readable beside the numbered play sessions. A character document is unchanged."""
    if document.get("format") != "dossier.campaign":
        return document
    if not isinstance(document.get("play_sessions"), list):
        document["play_sessions"] = []
    return document
