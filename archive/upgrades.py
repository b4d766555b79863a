"""The steps that turn an archive of one format version into the next (archive.format.UPGRADES).

Version 1 -> 2: a TIMEMASTER agent's build kept its bonus Success Points per game session as a map
with a key for every session ever played (``state.bonus_by_session``), so the build grew with the
agent's age; version 2 keeps the latest few sessions as a list (``state.bonus_sessions``, see
systems/timemaster/engine/advancement.py, issue 22). The step rewrites that part of each
TIMEMASTER build from the document's own ledger, the same fold the replay does, and only when the
ledger gives exactly the map the file holds: anything else is left as it was, so the import's
replay check refuses it as a hand-edited build, as it would have in version 1.
"""

from __future__ import annotations

from typing import Any

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
