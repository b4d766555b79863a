"""Ledger entries of a ninja: mission results feed the player's ranking, a failed mission ends the
ninja (time-to-kill.md §A4, §B12, §B13, §D14, §E5, §E18, §E24). ``apply_entry`` folds one entry into a
NEW build; ``replay`` folds a whole ledger, skipping reversed entries.

    {"kind": "mission_result", "outcome": "victory"|"out_of_time"|"fatally_wounded",
     "die_rolls": int >= 0, "mission": str|int|None, "turns": int (optional)}
    {"kind": "rename", "name": str}
    {"kind": "rebuild", "abilities": {key: rating}, "use_ranking": bool}   # needs survivor_rebuild
    {"kind": "reversal", "id": ..., "reverses": id, "reason": str}          # replay only
"""

from __future__ import annotations

import copy
from typing import Any, NoReturn, cast

from characters.systems.base import (
    Build,
    RuleError,
    RuleViolation,
    entry_kind,
    refuse,
    replay_ledger,
    reversed_ids,
)

from . import creation
from .campaign_settings import resolved
from .tables import BASE_POINTS, MAX_TEXT, OUTCOMES

ENTRY_SHAPES: dict[str, str] = {
    "mission_result": '{"outcome": "victory"|"out_of_time"|"fatally_wounded", "die_rolls": int>=0, '
    '"mission": id or null, "turns": int (optional)}',
    "rename": '{"name": str (empty = "the ninja")}',
    "rebuild": '{"abilities": {ability: "-"|"0"|"+"}, "use_ranking": bool} (setting survivor_rebuild)',
    "reversal": '{"reverses": entry id, "reason": str} (folded by replay only)',
}
ENTRY_KINDS: tuple[str, ...] = tuple(ENTRY_SHAPES)
RULE_VICTORY = "time-to-kill.md §B13, §A4"
RULE_FAILURE = "time-to-kill.md §B12, §E18"


def is_dead(build: Build) -> bool:
    """Whether this ninja has died: a failed mission ends the ninja for good, and the player makes a
    new one (§B12, §E18). The only death a build records is the one ``_mission_result`` writes."""
    return build.get("status") == "dead"


def _alive(build: Build) -> None:
    if is_dead(build):
        raise refuse("status", "This ninja is dead; a new ninja has to be made.", RULE_FAILURE)


def _mission_result(build: Build, entry: dict[str, Any]) -> Build:
    """Victory adds the die rolls to the player's points and one mission completed (§B13); a failed
    mission, by time or by a fatal wound, ends the ninja and scores nothing (§B12, §E6, §E18)."""
    _alive(build)
    outcome = entry.get("outcome")
    if not isinstance(outcome, str) or outcome not in OUTCOMES:
        raise refuse("outcome", f"A mission ends in one of: {', '.join(OUTCOMES)}.", RULE_VICTORY)
    die_rolls = entry.get("die_rolls", 0)
    if isinstance(die_rolls, bool) or not isinstance(die_rolls, int) or die_rolls < 0:
        raise refuse("die_rolls", "The number of die rolls is a whole number, 0 or more.", RULE_VICTORY)
    new = copy.deepcopy(build)
    points = die_rolls if outcome == "victory" else 0
    summary = {"mission": entry.get("mission"), "outcome": outcome, "die_rolls": die_rolls, "points": points}
    if "turns" in entry:
        summary["turns"] = entry["turns"]
    new["missions"].append(summary)
    if outcome == "victory":
        new["record"]["ranking_points"] += points
        new["record"]["missions_completed"] += 1
    else:
        new["status"] = "dead"
        new["death"] = {"cause": outcome, "mission": entry.get("mission")}
    return new


def _rename(build: Build, entry: dict[str, Any]) -> Build:
    name = entry.get("name")
    if not isinstance(name, str) or len(name) > MAX_TEXT:
        raise refuse("name", f"The name must be text of at most {MAX_TEXT} characters.")
    new = copy.deepcopy(build)
    new["name"] = name.strip()
    return new


def _rebuild(build: Build, entry: dict[str, Any], settings: dict[str, Any]) -> Build:
    """A survivor re-spends with the budget the current ranking gives, when the campaign allows (§E24)."""
    if not settings["survivor_rebuild"]:
        raise refuse(
            "kind",
            "This campaign does not let a surviving ninja be rebuilt (setting survivor_rebuild).",
            "time-to-kill.md §E24",
        )
    _alive(build)
    if not build["missions"] or build["missions"][-1]["outcome"] != "victory":
        raise refuse(
            "kind", "Only a ninja who has just completed a mission may be rebuilt.", "time-to-kill.md §E24"
        )
    use_ranking = entry.get("use_ranking", False)
    if not isinstance(use_ranking, bool):
        raise refuse("use_ranking", "Say yes or no to adding the ranking to the budget.")
    abilities = cast("dict[str, str]", entry.get("abilities"))  # its shape is checked just below
    problems = creation.ability_shape_problems(abilities)
    bonus = creation.ranking_bonus(build["record"]) if use_ranking else 0
    if not problems:
        problems = creation.ability_rule_problems(abilities, BASE_POINTS + bonus)
    if problems:
        raise RuleError(problems)
    new = copy.deepcopy(build)
    new["abilities"] = dict(abilities)
    new["creation"] = {"use_ranking": use_ranking, "ranking_bonus": bonus, "record": dict(build["record"])}
    return new


def apply_entry(build: Build, entry: dict[str, Any], settings: dict[str, Any] | None = None) -> Build:
    """Fold one ledger entry into a NEW build; illegal entries raise RuleError."""
    problems = creation.validate(build)
    if problems:
        raise RuleError(problems)
    kind = entry_kind(entry)
    if kind == "mission_result":
        return _mission_result(build, entry)
    if kind == "rename":
        return _rename(build, entry)
    if kind == "rebuild":
        return _rebuild(build, entry, resolved(settings))
    raise refuse("kind", f"Unknown ledger entry kind {kind!r}; Time to Kill knows {', '.join(ENTRY_KINDS)}.")


def _no_longer_fits(entry_id: str, entry: dict[str, Any], error: RuleError) -> NoReturn:
    """A ninja's replay names each of the entry's violations under the entry."""
    raise RuleError(
        [RuleViolation(f"ledger.{entry_id}.{v.field}", v.message, v.rule) for v in error.violations]
    ) from None


def replay(
    creation_build: Build, entries: list[dict[str, Any]], settings: dict[str, Any] | None = None
) -> Build:
    """The current build: creation plus every entry not reversed, in order."""

    def apply(build: Build, entry: dict[str, Any]) -> Build:
        return apply_entry(build, entry, settings)

    return replay_ledger(creation_build, entries, apply, refusal=_no_longer_fits)


__all__ = ["ENTRY_KINDS", "ENTRY_SHAPES", "apply_entry", "is_dead", "replay", "reversed_ids"]
