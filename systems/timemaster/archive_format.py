"""How TIMEMASTER's records sit in a campaign archive beside its sections (SystemApp.archive_format).

``SPOTS``: where the advancement engine keeps mission ids (timemaster-characters.md §6: regular
awards, grade steps, violations, visits, mission start and close name their mission; the build's
mission lists and Times Visited too), rewritten as archive keys by archive/references.py.

``UPGRADES[1]``: format version 1 -> 2. An agent's build kept its bonus Success Points per game
session as a map with a key for every session ever played (``state.bonus_by_session``), so the
build grew with the agent's age; version 2 keeps the latest few sessions as a list
(``state.bonus_sessions``, see engine/advancement.py, issue 22). The step rewrites that part of the
build from the document's own ledger, the same fold the replay does, and only when the ledger gives
exactly the map the file holds: anything else is left as it was, so the import's replay check
refuses it as a hand-edited build, as it would have in version 1.

``MISSION_PROBLEMS``: a mission's Historical Changes Chart checked by the significance engine.

``LEDGER_PAYLOAD``: what an imported ledger entry keeps. An award exported before 2026-12-07
carries its mission's pool, share and remainder, which players must not read in the history it
lands in (docs/secrets.md, "What an award reveals"); the import leaves them out, as migration
timemaster/0003 did for the awards already stored. Nothing the engine folds changes.
"""

from __future__ import annotations

from typing import Any

from archive.problems import join
from archive.references import MISSION, Change, Spots, changed_field
from systems.timemaster.engine import advancement, significance

REVERSAL = "reversal"
MISSION_LISTS = ("missions_closed", "missions_awarded", "qualifying_missions", "missions_advanced")


def _build(build: Any, change: Change, path: str) -> Any:
    """The advancement build: state.current_mission, the state's mission lists, times_visited[].mission."""
    if not isinstance(build, dict):
        return build
    build = dict(build)
    state = build.get("state")
    if isinstance(state, dict):
        state = dict(state)
        where = join(path, "state")
        if state.get("current_mission") is not None:
            state["current_mission"] = change(
                MISSION, state["current_mission"], join(where, "current_mission")
            )
        for name in MISSION_LISTS:
            if isinstance(state.get(name), list):
                state[name] = [
                    change(MISSION, value, join(join(where, name), index))
                    for index, value in enumerate(state[name])
                ]
        build["state"] = state
    if isinstance(build.get("times_visited"), list):
        build["times_visited"] = [
            changed_field(visit, "mission", MISSION, change, join(join(path, "times_visited"), index))
            for index, visit in enumerate(build["times_visited"])
        ]
    return build


SPOTS = Spots(payload_field="mission", payload_kind=MISSION, build=_build)


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


def bonus_sessions_v2(character: dict[str, Any]) -> None:
    """Version 1 -> 2 of one agent, in place (see the module's docstring)."""
    state = (character.get("build") or {}).get("state")
    if not isinstance(state, dict) or not isinstance(state.get("bonus_by_session"), dict):
        return
    try:
        totals, kept = advancement.bonus_sessions_of(_bonus_awards(character.get("ledger")))
    except (AttributeError, KeyError, TypeError, ValueError):  # a malformed ledger: the checks say so
        return
    if totals != {str(key): value for key, value in state["bonus_by_session"].items()}:
        return
    del state["bonus_by_session"]
    state["bonus_sessions"] = kept


UPGRADES = {1: bonus_sessions_v2}


def MISSION_PROBLEMS(mission: dict[str, Any]) -> list[tuple[str, str]]:  # noqa: N802 (a hook's name)
    """(field, message) of each problem of the system's fields of an archive mission."""
    chart = mission.get("historical_changes_chart")
    if not isinstance(chart, list):
        return []
    found = significance.validate_chart(chart)
    return [("historical_changes_chart", violation.message) for violation in found]


def LEDGER_PAYLOAD(kind: str, payload: dict[str, Any]) -> dict[str, Any]:  # noqa: N802 (a hook's name)
    """The payload an imported ledger entry keeps (significance.award_without_mission_figures)."""
    return significance.award_without_mission_figures(kind, payload)
