"""A D6 character build: free-form attributes and skills as die codes, with the four traits
initiative needs (rules README ruling 8; d6-game-time.md §A2). The chapter gives no creation
budget (§A2), so nothing here limits how many dice a character has.

``new_build(choices)`` tidies the choices (code spelling, the names of the four required traits,
search and dodge at their attribute's code when left out, §E4) and refuses them with every
problem; ``validate(build)`` lists the problems of a stored build.
"""

from __future__ import annotations

import copy
from typing import Any

from characters.systems.base import Build, RuleError, RuleViolation, is_one_of
from characters.systems.base import is_int as _is_int

from .dicecode import DieCode, format_code, parse
from .tables import (
    BONUS_ABILITIES,
    BONUS_TRAITS,
    DEFAULT_ACTION_ALLOTMENT,
    MAX_ACTION_ALLOTMENT,
    MAX_ATTRIBUTES,
    MAX_LIST,
    MAX_MOVE,
    MAX_NOTES,
    MAX_POINTS,
    MAX_RANKS,
    MAX_SKILLS,
    MAX_TEXT,
    PERCEPTION,
    REQUIRED_ATTRIBUTES,
    REQUIRED_SKILLS,
    RULES,
)

SYSTEM_KEY = "d6"
RULE_TRAITS = "rules README ruling 8; d6-game-time.md §A2"
RULE_CODES = f"{RULES} §A1, §D1"
RULE_ALLOTMENT = f"{RULES} §B1, §B8"
RULE_EQUIPMENT = f"{RULES} §B8, §D9, §E11"
RULE_ABILITIES = f"{RULES} §A2, §B4"

TOP_LEVEL_KEYS = (
    "system",
    "name",
    "player",
    "attributes",
    "skills",
    "move",
    "action_allotment",
    "character_points",
    "fate_points",
    "goes_first",
    "special_abilities",
    "equipment",
    "notes",
)
ABILITY_KEYS = ("name", "ranks", "affects", "goes_first", "note")
ITEM_KEYS = ("name", "quick_multi_use", "uses_per_round", "settings", "note")
DEFAULTS: dict[str, Any] = {
    "system": SYSTEM_KEY,
    "player": "",
    "move": None,
    "action_allotment": DEFAULT_ACTION_ALLOTMENT,
    "character_points": 0,
    "fate_points": 0,
    "goes_first": False,
    "special_abilities": [],
    "equipment": [],
    "notes": "",
}


def _text_ok(value: Any, limit: int = MAX_TEXT, required: bool = False) -> bool:
    if not isinstance(value, str) or len(value) > limit:
        return False
    return bool(value.strip()) or not required


# -- reading a build ---------------------------------------------------------------------------------
def attributes(build: Build) -> dict[str, DieCode]:
    """Attribute name -> code, skipping anything unreadable (validate reports those)."""
    result = {}
    for name, text in (build.get("attributes") or {}).items():
        try:
            result[name] = parse(text)
        except RuleError:
            continue
    return result


def skills(build: Build) -> dict[str, dict[str, Any]]:
    """Skill name -> {"attribute": name, "code": DieCode}, skipping unreadable entries."""
    result = {}
    for name, entry in (build.get("skills") or {}).items():
        if not isinstance(entry, dict):
            continue
        try:
            result[name] = {"attribute": entry.get("attribute"), "code": parse(entry.get("code"))}
        except RuleError:
            continue
    return result


def trait_code(build: Build, name: str) -> DieCode | None:
    """The code of an attribute or skill; a skill missing from the build falls back on nothing
    here (the encounter asks which attribute an untrained skill uses, §E4)."""
    found = attributes(build).get(name)
    if found is not None:
        return found
    skill = skills(build).get(name)
    return None if skill is None else skill["code"]


def bonus_ranks(abilities: Any) -> int:
    """Ranks of Skill Bonus / Increased Attribute that apply to Reflexes or search, summed over
    the qualifying abilities (§B4, §E6)."""
    names = {name.casefold() for name in BONUS_ABILITIES}
    targets = {trait.casefold() for trait in BONUS_TRAITS}
    count = 0
    for ability in abilities or []:
        if not isinstance(ability, dict) or not isinstance(ability.get("name"), str):
            continue
        affects = {a.casefold() for a in ability.get("affects") or [] if isinstance(a, str)}
        if (
            ability["name"].strip().casefold() in names
            and affects & targets
            and _is_int(ability.get("ranks"))
        ):
            count += ability["ranks"]
    return count


def goes_first(build: Build) -> bool:
    """Tie-break factor 1 (§B3): the build's flag, or a special ability marked as letting the
    character go first."""
    if build.get("goes_first") is True:
        return True
    return any(
        isinstance(a, dict) and a.get("goes_first") is True for a in build.get("special_abilities") or []
    )


# -- tidying choices ---------------------------------------------------------------------------------
def _canonical(name: Any, wanted: tuple[str, ...] | list[str]) -> Any:
    if not isinstance(name, str):
        return name
    for canonical in wanted:
        if isinstance(canonical, str) and name.strip().casefold() == canonical.casefold():
            return canonical
    return name.strip()


def _tidy_code(value: Any) -> Any:
    try:
        return format_code(parse(value))
    except RuleError:
        return value


def normalised(choices: dict[str, Any]) -> Build:
    """The choices as a build document: defaults filled, names of the required traits and code
    spellings tidied, search/dodge added at their attribute's code when missing (§E4)."""
    build: Build = {**copy.deepcopy(DEFAULTS), **copy.deepcopy(choices)}
    build["system"] = SYSTEM_KEY
    for key in ("name", "player"):
        if isinstance(build.get(key), str):
            build[key] = build[key].strip()
    attrs = build.get("attributes")
    if isinstance(attrs, dict):
        build["attributes"] = {_canonical(k, REQUIRED_ATTRIBUTES): _tidy_code(v) for k, v in attrs.items()}
    raw_skills = build.get("skills", {})
    if isinstance(raw_skills, dict):
        tidy: dict[str, Any] = {}
        for name, entry in raw_skills.items():
            if isinstance(entry, dict):
                entry = {
                    **entry,
                    "attribute": _canonical(entry.get("attribute"), list(build.get("attributes") or {})),
                    "code": _tidy_code(entry.get("code")),
                }
            tidy[_canonical(name, tuple(REQUIRED_SKILLS))] = entry
        if isinstance(build.get("attributes"), dict):
            for skill, attribute in REQUIRED_SKILLS.items():
                base = build["attributes"].get(attribute)
                if skill not in tidy and base is not None:
                    tidy[skill] = {"attribute": attribute, "code": base}
        build["skills"] = tidy
    return build


# -- validation ---------------------------------------------------------------------------------------
def _v(problems: list[RuleViolation], where: str, message: str, rule: str = "") -> None:
    problems.append(RuleViolation(where, message, rule))


def _check_code(problems: list[RuleViolation], value: Any, where: str) -> DieCode | None:
    try:
        return parse(value, where)
    except RuleError as error:
        problems.extend(error.violations)
        return None


def _check_names(problems: list[RuleViolation], names: list[Any], where: str, what: str) -> None:
    seen: dict[str, str] = {}
    for name in names:
        if not _text_ok(name, required=True):
            _v(problems, where, f"Each {what} needs a name of at most {MAX_TEXT} characters.", RULE_TRAITS)
            continue
        folded = name.strip().casefold()
        if folded in seen:
            _v(problems, f"{where}.{name}", f"{name!r} and {seen[folded]!r} are the same name.", RULE_TRAITS)
        seen[folded] = name


def check_attributes(build: Build) -> list[RuleViolation]:
    problems: list[RuleViolation] = []
    attrs = build.get("attributes")
    if not isinstance(attrs, dict) or not attrs:
        return [
            RuleViolation("attributes", "List the attributes, each with a die code like 3D.", RULE_TRAITS)
        ]
    if len(attrs) > MAX_ATTRIBUTES:
        _v(problems, "attributes", f"A character has at most {MAX_ATTRIBUTES} attributes.", RULE_TRAITS)
    _check_names(problems, list(attrs), "attributes", "attribute")
    for name, value in attrs.items():
        _check_code(problems, value, f"attributes.{name}")
    for required in REQUIRED_ATTRIBUTES:
        if required not in attrs:
            _v(
                problems,
                f"attributes.{required}",
                f"Every D6 character needs {required}: initiative uses it.",
                RULE_TRAITS,
            )
    perception = attributes(build).get(PERCEPTION)
    if perception is not None and not perception.usable:
        _v(
            problems,
            f"attributes.{PERCEPTION}",
            f"Perception {perception} has no dice, so the character could not roll initiative; give it at "
            "least 1D.",
            f"{RULES} §B2, §B9",
        )
    return problems


def check_skills(build: Build) -> list[RuleViolation]:
    problems: list[RuleViolation] = []
    entries = build.get("skills")
    if not isinstance(entries, dict):
        return [
            RuleViolation(
                "skills", "Skills are listed by name, each with its attribute and code.", RULE_TRAITS
            )
        ]
    if len(entries) > MAX_SKILLS:
        _v(problems, "skills", f"A character has at most {MAX_SKILLS} skills.", RULE_TRAITS)
    _check_names(problems, list(entries), "skills", "skill")
    attrs: dict[str, Any] = build["attributes"] if isinstance(build.get("attributes"), dict) else {}
    folded_attrs = {name.casefold(): name for name in attrs if isinstance(name, str)}
    for name, entry in entries.items():
        where = f"skills.{name}"
        if isinstance(name, str) and name.casefold() in folded_attrs:
            _v(problems, where, f"{name!r} is already an attribute; a skill needs another name.", RULE_TRAITS)
        if not isinstance(entry, dict):
            _v(
                problems,
                where,
                f"The {name} skill needs its attribute and its code, like "
                '{"attribute": "Perception", "code": "4D"}.',
                RULE_TRAITS,
            )
            continue
        unknown = set(entry) - {"attribute", "code", "note"}
        if unknown:
            _v(
                problems,
                where,
                f"The {name} skill has unknown fields: {', '.join(sorted(map(str, unknown)))}.",
            )
        if not is_one_of(entry.get("attribute"), attrs):
            _v(
                problems,
                f"{where}.attribute",
                f"The {name} skill must name one of the character's attributes as its base.",
                RULE_TRAITS,
            )
        _check_code(problems, entry.get("code"), f"{where}.code")
    for skill, attribute in REQUIRED_SKILLS.items():
        entry = entries.get(skill)
        if entry is None:
            _v(
                problems,
                f"skills.{skill}",
                f"Every D6 character needs the {skill} skill: the initiative "
                "tie-break uses it (at its attribute's code if untrained).",
                RULE_TRAITS,
            )
        elif isinstance(entry, dict) and entry.get("attribute") != attribute:
            _v(
                problems,
                f"skills.{skill}.attribute",
                f"The {skill} skill is based on {attribute}.",
                f"{RULES} §A2",
            )
    return problems


def _check_count(
    problems: list[RuleViolation], value: Any, where: str, label: str, low: int, high: int, rule: str = ""
) -> None:
    if not _is_int(value) or not low <= value <= high:
        _v(problems, where, f"{label} must be a whole number from {low} to {high}.", rule)


def check_abilities(build: Build) -> list[RuleViolation]:
    problems: list[RuleViolation] = []
    abilities = build.get("special_abilities")
    if not isinstance(abilities, list) or len(abilities) > MAX_LIST:
        return [RuleViolation("special_abilities", f"Special abilities are a list of at most {MAX_LIST}.")]
    traits = {
        name
        for part in (build.get("attributes"), build.get("skills"))
        if isinstance(part, dict)
        for name in part
    }
    for i, ability in enumerate(abilities):
        where = f"special_abilities.{i}"
        if not isinstance(ability, dict):
            _v(problems, where, "Each special ability needs a name and its ranks.", RULE_ABILITIES)
            continue
        unknown = set(ability) - set(ABILITY_KEYS)
        if unknown:
            _v(problems, where, f"Unknown special ability fields: {', '.join(sorted(map(str, unknown)))}.")
        if not _text_ok(ability.get("name"), required=True):
            _v(
                problems,
                f"{where}.name",
                f"Name the special ability (at most {MAX_TEXT} characters).",
                RULE_ABILITIES,
            )
        _check_count(
            problems, ability.get("ranks", 1), f"{where}.ranks", "Ranks", 1, MAX_RANKS, RULE_ABILITIES
        )
        affects = ability.get("affects", [])
        if not isinstance(affects, list):
            _v(problems, f"{where}.affects", "List the traits the ability affects.", RULE_ABILITIES)
        else:
            for trait in affects:
                if not is_one_of(trait, traits):
                    _v(
                        problems,
                        f"{where}.affects",
                        f"{trait!r} is not one of the character's attributes or skills.",
                        RULE_ABILITIES,
                    )
        if not isinstance(ability.get("goes_first", False), bool):
            _v(problems, f"{where}.goes_first", "Going first is yes or no.", f"{RULES} §B3")
        if not _text_ok(ability.get("note", ""), MAX_TEXT):
            _v(problems, f"{where}.note", f"A note has at most {MAX_TEXT} characters.")
    return problems


def check_equipment(build: Build) -> list[RuleViolation]:
    problems: list[RuleViolation] = []
    items = build.get("equipment")
    if not isinstance(items, list) or len(items) > MAX_LIST:
        return [RuleViolation("equipment", f"Equipment is a list of at most {MAX_LIST} items.")]
    for i, item in enumerate(items):
        where = f"equipment.{i}"
        if not isinstance(item, dict):
            _v(problems, where, "Each item needs at least a name.", RULE_EQUIPMENT)
            continue
        unknown = set(item) - set(ITEM_KEYS)
        if unknown:
            _v(problems, where, f"Unknown item fields: {', '.join(sorted(map(str, unknown)))}.")
        if not _text_ok(item.get("name"), required=True):
            _v(problems, f"{where}.name", f"Name the item (at most {MAX_TEXT} characters).")
        quick = item.get("quick_multi_use", False)
        if not isinstance(quick, bool):
            _v(problems, f"{where}.quick_multi_use", "Quick multiple use is yes or no.", RULE_EQUIPMENT)
        uses = item.get("uses_per_round", 1)
        _check_count(problems, uses, f"{where}.uses_per_round", "Uses per round", 1, MAX_LIST, RULE_EQUIPMENT)
        if _is_int(uses) and uses > 1 and quick is not True:
            _v(
                problems,
                f"{where}.uses_per_round",
                "Only gear built for quick repeated use can be used more than once a round; mark it as "
                "quick multiple use or set 1 use per round.",
                RULE_EQUIPMENT,
            )
        modes = item.get("settings", [])
        if not isinstance(modes, list) or not all(_text_ok(m, required=True) for m in modes):
            _v(problems, f"{where}.settings", "An item's settings are a list of names.", f"{RULES} §B11")
        if not _text_ok(item.get("note", ""), MAX_TEXT):
            _v(problems, f"{where}.note", f"A note has at most {MAX_TEXT} characters.")
    return problems


def validate(build: Build) -> list[RuleViolation]:
    """Every problem with a build, each naming its field (§A2, §D, ruling 8)."""
    if not isinstance(build, dict):
        return [RuleViolation("build", "A D6 character is an object of fields.")]
    problems: list[RuleViolation] = []
    for key in build:
        if key not in TOP_LEVEL_KEYS:
            _v(problems, str(key), f"A D6 character has no field called {key!r}.")
    if build.get("system", SYSTEM_KEY) != SYSTEM_KEY:
        _v(problems, "system", "This build belongs to another game system.")
    if not _text_ok(build.get("name"), required=True):
        _v(problems, "name", f"Give the character a name (at most {MAX_TEXT} characters).")
    if not _text_ok(build.get("player", "")):
        _v(problems, "player", f"The player's name has at most {MAX_TEXT} characters.")
    if not _text_ok(build.get("notes", ""), MAX_NOTES):
        _v(problems, "notes", f"Notes have at most {MAX_NOTES} characters.")
    problems += check_attributes(build)
    problems += check_skills(build)
    move = build.get("move")
    if move is not None:
        _check_count(problems, move, "move", "Move", 0, MAX_MOVE, f"{RULES} §A2")
    _check_count(
        problems,
        build.get("action_allotment", DEFAULT_ACTION_ALLOTMENT),
        "action_allotment",
        "The action allotment",
        1,
        MAX_ACTION_ALLOTMENT,
        RULE_ALLOTMENT,
    )
    for key, label in (("character_points", "Character Points"), ("fate_points", "Fate Points")):
        _check_count(problems, build.get(key, 0), key, label, 0, MAX_POINTS, f"{RULES} §A2")
    if not isinstance(build.get("goes_first", False), bool):
        _v(problems, "goes_first", "Going first is yes or no.", f"{RULES} §B3")
    problems += check_abilities(build)
    problems += check_equipment(build)
    return problems


def new_build(choices: dict[str, Any], rng: Any = None, settings: dict[str, Any] | None = None) -> Build:
    """A new character from ``choices`` (the build fields); RuleError with every problem. Dice are
    never rolled at creation, so ``rng`` is unused."""
    if not isinstance(choices, dict):
        raise RuleError(RuleViolation("choices", "Choices must be an object of build fields."))
    build = normalised(choices)
    problems = validate(build)
    if problems:
        raise RuleError(problems)
    return build
