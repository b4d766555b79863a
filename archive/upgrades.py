"""The steps that turn an archive of one format version into the next (archive.format.UPGRADES).

Version 1 -> 2: a TIMEMASTER agent's build kept its bonus Success Points per game session as a map
with a key for every session ever played (``state.bonus_by_session``), so the build grew with the
agent's age; version 2 keeps the latest few sessions as a list (``state.bonus_sessions``, see
systems/timemaster/engine/advancement.py, issue 22). The step rewrites that part of each
TIMEMASTER build from the document's own ledger, the same fold the replay does, and only when the
ledger gives exactly the map the file holds: anything else is left as it was, so the import's
replay check refuses it as a hand-edited build, as it would have in version 1.

Version 2 -> 3: ledger payloads, builds and mission outcomes kept the exporting server's ids;
version 3 holds archive keys instead (archive/references.py, ``upgrade_v2_to_v3``).
"""

from __future__ import annotations

from typing import Any

from archive import references
from systems.timemaster.engine import advancement as timemaster_advancement

REVERSAL = "reversal"


def _bonus_awards(ledger: list) -> list[tuple[Any, int]]:
    """(session, amount) of every bonus award the replay folds in: in ledger order, without the
    reversals and the entries they undo (by position, as in archive.characters.replay)."""
    undone = {entry.get("reverses") for entry in ledger if entry.get("kind") == REVERSAL}
    awards = []
    for index, entry in enumerate(ledger):
        payload = entry.get("payload") or {}
        if entry.get("kind") != "sp_awarded" or index in undone or payload.get("type") != "bonus":
            continue
        awards.append((payload["session"], payload["amount"]))
    return awards


def _timemaster_build_v2(character: Any) -> None:
    if not isinstance(character, dict) or character.get("system") != "timemaster":
        return
    state = (character.get("build") or {}).get("state")
    if not isinstance(state, dict) or not isinstance(state.get("bonus_by_session"), dict):
        return
    try:
        totals, kept = timemaster_advancement.bonus_sessions_of(_bonus_awards(character.get("ledger")))
    except (AttributeError, KeyError, TypeError, ValueError):  # a malformed ledger: the checks say so
        return
    if totals != {str(key): value for key, value in state["bonus_by_session"].items()}:
        return
    del state["bonus_by_session"]
    state["bonus_sessions"] = kept


def upgrade_v1_to_v2(document: dict[str, Any]) -> dict[str, Any]:
    """A character document is one character; a campaign archive holds a list of them."""
    characters = document.get("characters")
    for character in [document, *(characters if isinstance(characters, list) else [])]:
        _timemaster_build_v2(character)
    return document


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
        if not isinstance(character, dict) or character.get("system") != "timemaster":
            continue
        for entry in _list(character.get("ledger")):
            payload = entry.get("payload") if isinstance(entry, dict) else None
            old = references.as_id(payload.get("mission")) if isinstance(payload, dict) else None
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


def _old_run_ids(document: dict[str, Any]) -> dict[int, int]:
    """Old Time to Kill run id -> position: the run's result entry names the run in its payload."""
    found: dict[int, int] = {}
    characters = _list(document.get("characters"))
    for position, run in enumerate(_list(document.get("ttk_runs"))):
        ninja = _item(characters, run.get("ninja")) if isinstance(run, dict) else None
        entry = _item(ninja.get("ledger"), run.get("result_entry")) if isinstance(ninja, dict) else None
        payload = entry.get("payload") if isinstance(entry, dict) else None
        old = references.as_id(payload.get("mission")) if isinstance(payload, dict) else None
        if old is not None:
            found.setdefault(old, position)
    return found


def upgrade_v2_to_v3(document: dict[str, Any]) -> dict[str, Any]:
    """Ids inside payloads, builds and outcomes become archive keys (archive/references.py). A
    character document holds no missions, runs or rolls: every id becomes a key of a record not in
    the file. A campaign archive's ids become positions where version 2 shows which record they
    were (see the three functions above); a dice-log roll's id it never does (a Tempo fate point's
    roll), so those become keys of records not in the file, like any id nothing matches."""
    if document.get("format") == "dossier.campaign":
        maps = {
            references.MISSION: _old_mission_ids(document),
            references.CHARACTER: _old_character_ids(document),
            references.TTK_RUN: _old_run_ids(document),
        }
        keys = references.ExportKeys(held={kind: (lambda found=found: found) for kind, found in maps.items()})
        if isinstance(document.get("missions"), list):
            document["missions"] = [references.mission(m, keys.key, "") for m in document["missions"]]
        if isinstance(document.get("characters"), list):
            document["characters"] = [references.character(c, keys.key) for c in document["characters"]]
        return document
    return references.character(document, references.ExportKeys().key)
