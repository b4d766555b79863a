"""Ledger entries of a D6 character. ``apply_entry`` folds one entry into a NEW build (the input
is never changed) or raises RuleError; ``replay`` folds a whole ledger, skipping reversed entries.

The chapter only says Character Points may boost initiative and Fate Points may not (§B2), and
that special abilities raise the action allotment (§B1, §B8); what improvements cost is not in
it (§A2), so a raise carries the Character Point cost the GM agreed, 0 by default. Payloads are
listed in ``ENTRY_SHAPES`` and in README.md.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from characters.systems.base import (
    Build,
    RuleError,
    RuleViolation,
    entry_kind,
    is_one_of,
    refuse,
    replay_ledger,
    reversed_ids,
)
from characters.systems.wording import counted, is_are

from .creation import validate
from .dicecode import format_code, parse
from .tables import MAX_ACTION_ALLOTMENT, MAX_POINTS, MAX_RANKS, MAX_TEXT, RULES

RULE_POINTS = f"{RULES} §A2, §B2"
RULE_TRAITS = "rules README ruling 8; d6-game-time.md §A1"
RULE_ALLOTMENT = f"{RULES} §B1, §B8"

ENTRY_SHAPES: dict[str, str] = {
    "character_points_gained": '{"count": int>=1, "reason": str}',
    "character_points_spent": '{"count": int>=1, "reason": str, "on": "initiative"|"roll"|"other"}',
    "fate_points_gained": '{"count": int>=1, "reason": str}',
    "fate_points_spent": '{"count": int>=1, "reason": str}',
    "trait_raised": '{"trait": attribute or skill name, "to": die code, "cost": int>=0 Character Points}',
    "skill_added": '{"skill": str, "attribute": attribute name, "code": die code (default: the '
    'attribute\'s), "cost": int>=0}',
    "special_ability_gained": '{"name": str, "ranks": int>=1, "affects": [trait], "goes_first": bool, '
    '"cost": int>=0}',
    "action_allotment_changed": '{"to": int>=1, "reason": str}',
    "reversal": '{"reverses": entry id, "reason": str} (folded by replay only)',
}
ENTRY_KINDS: tuple[str, ...] = tuple(ENTRY_SHAPES)
SPEND_TARGETS = ("initiative", "roll", "other")


def _count(
    entry: dict[str, Any],
    key: str = "count",
    minimum: int = 1,
    maximum: int = MAX_POINTS,
    default: Any = None,
) -> int:
    value = entry.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise refuse(
            key, f"{key.capitalize()} must be a whole number from {minimum} to {maximum}.", RULE_POINTS
        )
    return value


def _reason(entry: dict[str, Any], required: bool = True) -> str:
    reason = entry.get("reason", "")
    if not isinstance(reason, str) or len(reason) > MAX_TEXT or (required and not reason.strip()):
        raise refuse("reason", f"Say briefly why (at most {MAX_TEXT} characters).")
    return reason.strip()


def _pay(build: Build, cost: int) -> None:
    banked = build.get("character_points", 0)
    if cost > banked:
        raise refuse(
            "cost",
            f"This costs {cost} Character Points and only {banked} {is_are(banked)} banked.",
            RULE_POINTS,
        )
    build["character_points"] = banked - cost


def _gain(key: str) -> Callable[[Build, dict[str, Any]], None]:
    def gain(build: Build, entry: dict[str, Any]) -> None:
        _reason(entry)
        build[key] = build.get(key, 0) + _count(entry)
        if build[key] > MAX_POINTS:
            raise refuse("count", f"A character holds at most {MAX_POINTS} points.", RULE_POINTS)

    return gain


def _spend(key: str, label: str) -> Callable[[Build, dict[str, Any]], None]:
    def spend(build: Build, entry: dict[str, Any]) -> None:
        _reason(entry)
        count = _count(entry)
        if key == "character_points" and not is_one_of(entry.get("on", "other"), SPEND_TARGETS):
            raise refuse(
                "on", f"Character Points are spent on one of: {', '.join(SPEND_TARGETS)}.", RULE_POINTS
            )
        banked = build.get(key, 0)
        if count > banked:
            raise refuse(
                "count",
                f"Only {counted(banked, label.removesuffix('s'), label)} {is_are(banked)} banked; "
                f"{count} cannot be spent.",
                RULE_POINTS,
            )
        build[key] = banked - count

    return spend


def _trait_raised(build: Build, entry: dict[str, Any]) -> None:
    trait = entry.get("trait")
    cost = _count(entry, "cost", 0, default=0)
    to = parse(entry.get("to"), "to")
    if isinstance(trait, str) and trait in build["attributes"]:
        current = parse(build["attributes"][trait])
        target = ("attributes", trait)
    elif isinstance(trait, str) and trait in build["skills"]:
        current = parse(build["skills"][trait]["code"])
        target = ("skills", trait)
    else:
        raise refuse("trait", f"{trait!r} is not one of the character's attributes or skills.", RULE_TRAITS)
    if to <= current:
        raise refuse("to", f"{trait} is already {current}; a raise must go above it.", RULE_TRAITS)
    _pay(build, cost)
    if target[0] == "attributes":
        build["attributes"][trait] = format_code(to)
    else:
        build["skills"][trait]["code"] = format_code(to)


def _skill_added(build: Build, entry: dict[str, Any]) -> None:
    skill = entry.get("skill")
    if not isinstance(skill, str) or not skill.strip() or len(skill) > MAX_TEXT:
        raise refuse("skill", f"Name the new skill (at most {MAX_TEXT} characters).", RULE_TRAITS)
    skill = skill.strip()
    taken = {name.casefold() for name in (*build["attributes"], *build["skills"])}
    if skill.casefold() in taken:
        raise refuse("skill", f"The character already has a trait called {skill!r}.", RULE_TRAITS)
    attribute = entry.get("attribute")
    if not is_one_of(attribute, build["attributes"]):
        raise refuse(
            "attribute", "A new skill must be based on one of the character's attributes.", RULE_TRAITS
        )
    base = parse(build["attributes"][attribute])
    code = parse(entry["code"], "code") if entry.get("code") is not None else base
    _pay(build, _count(entry, "cost", 0, default=0))
    build["skills"][skill] = {"attribute": attribute, "code": format_code(code)}


def _ability_gained(build: Build, entry: dict[str, Any]) -> None:
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_TEXT:
        raise refuse("name", f"Name the special ability (at most {MAX_TEXT} characters).", f"{RULES} §A2")
    ranks = _count(entry, "ranks", 1, MAX_RANKS, default=1)
    affects = entry.get("affects", [])
    goes_first = entry.get("goes_first", False)
    if not isinstance(goes_first, bool):
        raise refuse("goes_first", "Going first is yes or no.", f"{RULES} §B3")
    _pay(build, _count(entry, "cost", 0, default=0))
    abilities = build.setdefault("special_abilities", [])
    for ability in abilities:
        if ability["name"].strip().casefold() == name.strip().casefold():
            ability["ranks"] = ability.get("ranks", 1) + ranks
            extra = [a for a in affects if a not in ability.setdefault("affects", [])]
            ability["affects"].extend(extra)
            ability["goes_first"] = ability.get("goes_first", False) or goes_first
            return
    abilities.append(
        {"name": name.strip(), "ranks": ranks, "affects": list(affects), "goes_first": goes_first}
    )


def _allotment_changed(build: Build, entry: dict[str, Any]) -> None:
    _reason(entry)
    to = entry.get("to")
    if isinstance(to, bool) or not isinstance(to, int) or not 1 <= to <= MAX_ACTION_ALLOTMENT:
        raise refuse(
            "to", f"The action allotment is a whole number from 1 to {MAX_ACTION_ALLOTMENT}.", RULE_ALLOTMENT
        )
    build["action_allotment"] = to


_HANDLERS: dict[str, Callable[[Build, dict[str, Any]], None]] = {
    "character_points_gained": _gain("character_points"),
    "character_points_spent": _spend("character_points", "Character Points"),
    "fate_points_gained": _gain("fate_points"),
    "fate_points_spent": _spend("fate_points", "Fate Points"),
    "trait_raised": _trait_raised,
    "skill_added": _skill_added,
    "special_ability_gained": _ability_gained,
    "action_allotment_changed": _allotment_changed,
}


def apply_entry(build: Build, entry: dict[str, Any]) -> Build:
    """Fold one ledger entry into a NEW build; illegal entries raise RuleError."""
    kind = entry_kind(entry)
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise refuse("kind", f"Unknown ledger entry kind {kind!r}; D6 knows {', '.join(ENTRY_KINDS)}.")
    problems = validate(build)
    if problems:
        raise RuleError([RuleViolation("build", "The character has problems to fix first.")] + problems)
    new = copy.deepcopy(build)
    handler(new, entry)
    problems = validate(new)
    if problems:
        raise RuleError(problems)
    return new


def replay(creation_build: Build, entries: list[dict[str, Any]]) -> Build:
    """The current build: creation plus every entry not reversed, in order. An entry a reversal
    has made illegal (a spend with nothing banked) is named in the RuleError."""
    return replay_ledger(creation_build, entries, apply_entry)


__all__ = ["ENTRY_KINDS", "ENTRY_SHAPES", "apply_entry", "replay", "reversed_ids"]
