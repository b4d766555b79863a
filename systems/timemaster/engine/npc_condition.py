"""An NPC's body in a fight: current Stamina and Willpower, wounds, unconsciousness, death and
crumpled armor, tracked like an agent's (timemaster-play.md §16, §19; §16.1 and §29 ambiguity 37:
NPCs have no Luck, so an NPC whose boxes are all marked is dead, no check).

The NPC's condition is the fold of its entries, in the shapes of the agent's play entries
(``recovery.ENTRY_SHAPES``): each is a pure ``state -> state`` step, so the GM can revert any of
them and the rest folds again. Wound boxes come from the NPC's STA with the chart's formula,
extended beyond 26-80 as §29 ambiguity 14 reads it. Seed lines: L1405-1435, L1535-1537, L623.
"""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, refuse

from . import recovery
from .condition import condition_of, with_condition
from .formulas import is_critically_wounded, wound_count

RULE_NPC = "timemaster-play.md §16, §16.1 (L623, L1429), §29 ambiguity 37"
#: What the GM records on an NPC (a Luck check against death is the PCs' alone, L623).
NPC_KINDS = ("damage_taken", "fatal_blow", "came_to", "critical_treated", "stamina_rested", "armor_worn")


def npc_build(abilities: Any) -> Build:
    """The NPC as the recovery rules read a body: its Abilities (no Luck, L3761) and no condition."""
    if not isinstance(abilities, dict) or not isinstance(abilities.get("STA"), int):
        raise refuse("npc", "This NPC has no Stamina score to track.", RULE_NPC)
    return {"abilities": {**abilities, "LUCK": 0}}


def apply(build: Build, kind: str, fields: dict[str, Any]) -> tuple[Build, dict[str, Any]]:
    """One entry on the NPC; when every box is marked the NPC is dead at once (no Luck)."""
    if kind not in NPC_KINDS:
        raise refuse("kind", f"An NPC's entry is one of: {', '.join(NPC_KINDS)}.", RULE_NPC)
    function, names = recovery.FUNCTIONS[kind]
    unknown = sorted(set(fields) - set(names) - {"source"})
    if unknown:
        raise refuse(unknown[0], f"{kind} takes: {', '.join(names) or 'nothing'}.", RULE_NPC)
    # a missing required value reaches the rule as None, which refuses it by name
    arguments = {
        name: fields.get(name) for name in names if name in fields or name not in recovery.OPTIONAL_FIELDS
    }
    new, events = function(build, **arguments)
    if condition_of(new)["death_check_due"]:
        new = with_condition(new, death_check_due=False, dead=True)
        events = {**events, "died": True}
    return new, events


def fold(abilities: Any, entries: list[dict[str, Any]]) -> Build:
    """The NPC's body after its entries, in order."""
    build = npc_build(abilities)
    for entry in entries:
        fields = {k: v for k, v in entry.items() if k != "kind"}
        build, _events = apply(build, entry["kind"], fields)
    return build


def summary(build: Build) -> dict[str, Any]:
    """What the GM's NPC page and the fight show: Stamina, Willpower, wounds, state, crumpled armor."""
    c = condition_of(build)
    abilities = build["abilities"]
    boxes = wound_count(abilities["STA"])
    if c["dead"]:
        status = "dead"
    elif c["unconscious"]:
        status = "unconscious"
    else:
        status = "conscious"
    return {
        "status": status,
        "current_stamina": c["current_stamina"],
        "stamina": abilities["STA"],
        "current_willpower": c["current_willpower"],
        "willpower": abilities.get("WPR"),
        "wounds": boxes,
        "wounds_marked": c["wounds_marked"],
        "wounds_left": boxes - c["wounds_marked"],
        "critical": not c["dead"] and is_critically_wounded(abilities["STA"], c["wounds_marked"]),
        "crumpled": c["crumpled"],
        "armor": c["armor"],
    }
