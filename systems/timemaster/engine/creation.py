"""Creating an agent step by step, and validating any build against the rules.

timemaster-characters.md §2 (creation steps 1-13), §10 (validation rules 1-18, 23-24, 28-35).
The advancement rules that concern ledger entries rather than a build (§10 rules 19-22, 25-27,
32-33 transitions, 36) are enforced by ``advancement.apply_entry`` and ``significance``.

Choices for the wizard (every key optional until its step; ``new_build`` needs all):

    {"name": str, "player": str,
     "ability_method": "rolled" | "manual",            # default "rolled"
     "ability_roll": roll record from abilities.roll_abilities / reroll_hopeless,
     "abilities": {"STR": int, ...},                   # the assignment (or the typed numbers)
     "ability_priority": [8 codes],                    # new_build only: assign rolled numbers in this order
     "reroll_hopeless": bool,                          # new_build only: take a reroll when allowed
     "background": {...},                              # see README
     "skills": [skill_key, skill_key],                 # the two chosen skills
     "profession_skill": skill_key | None,             # which of the two goes with the profession
     "historical_specialty": {"cultures": [str, ...]}, # at most two
     "talent": talent_key,                             # the one chosen besides Paranormal Memory
     "cm_approvals": [field, ...]}                     # CM rulings, see README
"""

from __future__ import annotations

import copy
import random
from typing import Any

from characters.systems.base import Build, Review, RuleError, RuleViolation
from characters.systems.base import is_int as _is_int

from . import campaign_settings
from .abilities import (
    assign_in_order,
    check_abilities_shape,
    check_assignment,
    check_manual,
    check_number,
    check_roll_record,
    is_hopeless,
    reroll_hopeless,
    roll_abilities,
)
from .background import check_background
from .condition import check_condition, is_fresh_condition
from .formulas import chart_key
from .skills import (
    check_skill_entries,
    check_specialties,
    era_problems,
    is_known_skill,
    skill_name,
    starting_specialty_period,
)
from .tables import (
    ABILITY_CODES,
    ABILITY_MAX,
    ABILITY_MIN,
    ABILITY_NAMES,
    AUTOMATIC_SKILLS,
    HISTORICAL_SPECIALTY,
    HUMAN_TALENTS,
    MAX_GRADE,
    MAX_GRADE_TIMEMASTER,
    MAX_TALENTS,
    PARANORMAL_MEMORY,
    RANKS,
    SKILL_LEVEL_ORDER,
    SKILLS,
    STARTING_CHOSEN_SKILLS,
    STARTING_GRADE,
    STARTING_RANK,
    TALENTS,
)

STEPS: tuple[str, ...] = ("abilities", "background", "skills", "talents", "name")
STAGES: tuple[str, ...] = ("auto", "creation", "play")

RULE_NAME = "timemaster-characters.md §2 step 13"
RULE_ASSIGN = "timemaster-characters.md §10 rule 3"
RULE_STARTING = "timemaster-characters.md §10 rule 8"
RULE_FIT = "timemaster-characters.md §10 rule 9"
RULE_PREREQ_AT_CREATION = "timemaster-characters.md §10 rule 11"
RULE_TALENTS_AT_CREATION = "timemaster-characters.md §10 rule 12"
RULE_FRESH = "timemaster-characters.md §10 rule 13"
RULE_TALENTS = "timemaster-characters.md §10 rule 18"
RULE_SP = "timemaster-characters.md §10 rule 23"
RULE_ABILITY_CAP = "timemaster-characters.md §10 rule 24"
RULE_RANK = "timemaster-characters.md §10 rules 32-33, ruling 1"
RULE_TIMES = "timemaster-characters.md §10 rules 34-35, ruling 5"
RULE_SKILL_PACE = "timemaster-characters.md §10 rules 25-27"

#: Checks the CM may overrule: their violations name these rules.
OVERRIDABLE_RULES: tuple[str, ...] = ("timemaster-characters.md §10 rule 10", RULE_FIT)


def _approvals(source: dict[str, Any]) -> set[str]:
    approvals = source.get("cm_approvals") or []
    return {a for a in approvals if isinstance(a, str)} if isinstance(approvals, list) else set()


def _settle(review: Review, approvals: set[str]) -> Review:
    """Move the CM-approved confirmations and overridable errors out of the way."""
    kept_errors: list[RuleViolation] = []
    kept_pending: list[RuleViolation] = []
    for violation in review.errors:
        if violation.rule in OVERRIDABLE_RULES and violation.field in approvals:
            review.approved.append(violation)
        else:
            kept_errors.append(violation)
    for violation in review.pending:
        (review.approved if violation.field in approvals else kept_pending).append(violation)
    review.errors, review.pending = kept_errors, kept_pending
    return review


# -- steps -----------------------------------------------------------------------------------------


def _step_abilities(choices: dict[str, Any], settings: dict[str, Any]) -> Review:
    """§2 steps 4-5, §10 rules 1-3."""
    review = Review()
    method = choices.get("ability_method", "rolled")
    abilities = choices.get("abilities")
    if method == "manual":
        review.errors += check_manual(abilities)
        return review
    if method != "rolled":
        review.errors.append(
            RuleViolation(
                "ability_method", "Choose how the Abilities were made: rolled or manual.", RULE_ASSIGN
            )
        )
        return review
    record: Any = choices.get("ability_roll")  # a roll record once check_roll_record finds no error
    review.errors += check_roll_record(record, settings["hopeless_reroll_rounds"])
    if review.errors:
        return review
    if abilities is None:
        review.errors.append(
            RuleViolation("abilities", "Assign the eight numbers to the Abilities.", RULE_ASSIGN)
        )
    else:
        review.errors += check_assignment(record["values"], abilities)
    return review


def _step_background(choices: dict[str, Any], settings: dict[str, Any]) -> Review:
    """§2 step 2, §2.14, §10 rules 4-7."""
    errors, warnings, pending = check_background(choices.get("background"), settings["corps_present_year"])
    return Review(errors=errors, warnings=warnings, pending=pending)


def _profession(background: Any) -> str:
    if not isinstance(background, dict):
        return ""
    profession = background.get("profession")
    return profession.strip() if isinstance(profession, str) else ""


def _chosen_skill_review(chosen: list[str], profession_skill: Any, background: Any) -> Review:
    """The two chosen skills against the background (§10 rules 9-11)."""
    review = Review()
    usable_background = background if isinstance(background, dict) else {}
    for key in chosen:
        if SKILLS[chart_key(key)]["prerequisite"]:
            review.errors.append(
                RuleViolation(
                    f"skills.{key}",
                    f"{skill_name(key)} needs another skill first, so a new agent cannot start with it.",
                    RULE_PREREQ_AT_CREATION,
                )
            )
        errors, pending = era_problems(key, usable_background)
        review.errors += errors
        review.pending += pending
    profession = _profession(background)
    if profession and chosen and profession_skill not in chosen:
        review.errors.append(
            RuleViolation(
                "skills.profession",
                f"One of the chosen skills must go with the profession {profession!r}; mark which one.",
                RULE_FIT,
            )
        )
    if chosen:
        names = " and ".join(skill_name(k) for k in chosen)
        tail = (
            f", and that {skill_name(profession_skill)} goes with the profession"
            if (profession and profession_skill in chosen)
            else ""
        )
        review.pending.append(
            RuleViolation(
                "skills", f"The game master should confirm that {names} suit the background{tail}.", RULE_FIT
            )
        )
    return review


def _step_skills(choices: dict[str, Any], settings: dict[str, Any]) -> Review:
    """§2 step 3, §10 rules 8-11, 30 (the starting specialty's cultures)."""
    review = Review()
    chosen = choices.get("skills")
    if not isinstance(chosen, list) or not all(isinstance(k, str) for k in chosen):
        review.errors.append(RuleViolation("skills", "Choose two skills.", RULE_STARTING))
        return review
    if len(chosen) != STARTING_CHOSEN_SKILLS:
        review.errors.append(
            RuleViolation(
                "skills",
                f"A new agent chooses exactly {STARTING_CHOSEN_SKILLS} skills besides Historical Specialty "
                f"and Time Corps Stunner, not {len(chosen)}.",
                RULE_STARTING,
            )
        )
    if len(set(chosen)) != len(chosen):
        review.errors.append(
            RuleViolation("skills", "The two chosen skills must be different.", RULE_STARTING)
        )
    known = []
    for key in chosen:
        if not is_known_skill(key) or chart_key(key) != key:
            review.errors.append(
                RuleViolation(f"skills.{key}", f"{key!r} is not a skill on the Skills Chart.", RULE_STARTING)
            )
        elif key in AUTOMATIC_SKILLS:
            review.errors.append(
                RuleViolation(
                    f"skills.{key}",
                    f"Every agent already has {skill_name(key)}; choose two other skills.",
                    RULE_STARTING,
                )
            )
        else:
            known.append(key)
    profession_skill = choices.get("profession_skill")
    if profession_skill is not None and profession_skill not in chosen:
        review.errors.append(
            RuleViolation(
                "profession_skill", "The profession skill must be one of the two chosen skills.", RULE_FIT
            )
        )
    review.extend(_chosen_skill_review(known, profession_skill, choices.get("background")))
    specialty = choices.get("historical_specialty") or {}
    if not isinstance(specialty, dict):
        review.errors.append(
            RuleViolation("historical_specialty", "Historical Specialty details must be an object.")
        )
    else:
        background: dict[str, Any] = (
            choices["background"] if isinstance(choices.get("background"), dict) else {}
        )
        period = starting_specialty_period(background) or {"start_year": 1, "end_year": 1}
        entry = {"level": "specialist", "period": period, "cultures": specialty.get("cultures", [])}
        review.errors += [
            v
            for v in check_specialties({HISTORICAL_SPECIALTY: entry}, background)
            if v.field.endswith("cultures")
        ]
    return review


def _step_talents(choices: dict[str, Any], settings: dict[str, Any]) -> Review:
    """§2 step 10, §10 rule 12."""
    review = Review()
    talent = choices.get("talent")
    if talent is None:
        review.errors.append(
            RuleViolation("talent", "Choose one talent besides Paranormal Memory.", RULE_TALENTS_AT_CREATION)
        )
    elif talent == PARANORMAL_MEMORY:
        review.errors.append(
            RuleViolation(
                "talent",
                "Every agent has Paranormal Memory already; choose one other talent.",
                RULE_TALENTS_AT_CREATION,
            )
        )
    elif not isinstance(talent, str) or talent not in TALENTS:
        review.errors.append(
            RuleViolation("talent", f"{talent!r} is not a paranormal talent.", RULE_TALENTS_AT_CREATION)
        )
    elif talent not in HUMAN_TALENTS:
        review.errors.append(
            RuleViolation(
                "talent",
                f"{TALENTS[talent]['name']} is a Demorean talent; agents learn only human talents.",
                RULE_TALENTS,
            )
        )
    return review


def _step_name(choices: dict[str, Any], settings: dict[str, Any]) -> Review:
    """§2 step 13."""
    name = choices.get("name")
    if not isinstance(name, str) or not name.strip():
        return Review(errors=[RuleViolation("name", "Give the agent a name.", RULE_NAME)])
    if len(name) > 200:
        return Review(errors=[RuleViolation("name", "The name is longer than 200 characters.", RULE_NAME)])
    return Review()


_STEP_CHECKS = {
    "abilities": _step_abilities,
    "background": _step_background,
    "skills": _step_skills,
    "talents": _step_talents,
    "name": _step_name,
}


def validate_step(step: str, choices: dict[str, Any], settings: dict[str, Any] | None = None) -> Review:
    """Check one wizard step of a (possibly partial) draft. The skills step reads the background
    for the era rules when it is there."""
    if not isinstance(step, str) or step not in _STEP_CHECKS:
        raise RuleError(RuleViolation("step", f"Unknown step {step!r}; the steps are: {', '.join(STEPS)}."))
    if not isinstance(choices, dict):
        raise RuleError(RuleViolation("choices", "Choices must be an object."))
    resolved = campaign_settings.resolve(settings if settings is not None else choices.get("settings"))
    return _settle(_STEP_CHECKS[step](choices, resolved), _approvals(choices))


def validate_choices(choices: dict[str, Any], settings: dict[str, Any] | None = None) -> Review:
    """Every step at once."""
    review = Review()
    for step in STEPS:
        review.extend(validate_step(step, choices, settings))
    return review


# -- the whole build -------------------------------------------------------------------------------


def _rolled_choices(choices: dict[str, Any], rng: random.Random, settings: dict[str, Any]) -> dict[str, Any]:
    """Fill in a roll and an assignment when the choices leave them to the engine."""
    choices = dict(choices)
    if choices.get("ability_method", "rolled") != "rolled":
        return choices
    if choices.get("ability_roll") is None:
        record = roll_abilities(rng)
        while (
            choices.get("reroll_hopeless")
            and is_hopeless(record["values"])
            and record["rerolls_used"] < settings["hopeless_reroll_rounds"]
        ):
            record = reroll_hopeless(record, rng, settings["hopeless_reroll_rounds"])
        choices["ability_roll"] = record
    if choices.get("abilities") is None and not check_roll_record(
        choices["ability_roll"], allowed_rounds=None
    ):
        choices["abilities"] = assign_in_order(
            list(choices["ability_roll"].get("values") or []),
            choices.get("ability_priority") or ABILITY_CODES,
        )
    return choices


def assemble(choices: dict[str, Any]) -> Build:
    """The build document from complete choices (no checks; see ``new_build``)."""
    background = copy.deepcopy(choices["background"])
    if isinstance(background.get("sex"), str):
        background["sex"] = background["sex"].strip().lower()
    profession_skill = choices.get("profession_skill")
    specialty = choices.get("historical_specialty") or {}
    skills: dict[str, Any] = {
        HISTORICAL_SPECIALTY: {
            "level": "specialist",
            "source": "creation",
            "period": starting_specialty_period(background),
            "cultures": list(specialty.get("cultures", [])),
        },
        "time_corps_stunner": {"level": "specialist", "source": "creation"},
    }
    for key in choices["skills"]:
        skills[key] = {"level": "specialist", "source": "creation", "profession": key == profession_skill}
    build: Build = {
        "name": choices["name"].strip(),
        "abilities": {code: choices["abilities"][code] for code in ABILITY_CODES},
        "background": background,
        "skills": skills,
        "talents": [PARANORMAL_MEMORY, choices["talent"]],
        "rank": STARTING_RANK,
        "grade": STARTING_GRADE,
        "success_points": 0,
        "times_visited": [],
        "state": _initial_state(),
    }
    if choices.get("player"):
        build["player"] = str(choices["player"])
    approvals = sorted(_approvals(choices))
    if approvals:
        build["cm_approvals"] = approvals
    return build


def _initial_state() -> dict[str, Any]:
    """The advancement engine's starting bookkeeping, when that engine is installed."""
    try:
        from .advancement_tables import STATE_DEFAULTS
    except ImportError:  # pragma: no cover - the advancement engine is written separately
        return {}
    return copy.deepcopy(STATE_DEFAULTS)


def new_build(choices: dict[str, Any], rng: random.Random, settings: dict[str, Any] | None = None) -> Build:
    """A new agent from the player's choices (§2). Rolls the Abilities with ``rng`` when the choices
    hold no roll. Raises RuleError listing every problem."""
    if not isinstance(choices, dict):
        raise RuleError(RuleViolation("choices", "Choices must be an object."))
    resolved = campaign_settings.resolve(settings if settings is not None else choices.get("settings"))
    choices = _rolled_choices(choices, rng, resolved)
    review = validate_choices(choices, resolved)
    if review.errors:
        raise RuleError(review.errors)
    build = assemble(choices)
    final = review_build(build, resolved, stage="creation")
    if final.errors:  # pragma: no cover - the steps above cover every creation rule
        raise RuleError(final.errors)
    return build


def is_new(build: Build) -> bool:
    """A build nothing has happened to since creation: Trainee/0, no Success Points, no trips, only
    creation skills, an unhurt agent and untouched advancement bookkeeping."""
    if build.get("rank") != STARTING_RANK or build.get("grade") != STARTING_GRADE:
        return False
    if build.get("success_points") != 0 or build.get("times_visited"):
        return False
    skills = build.get("skills")
    if not isinstance(skills, dict) or any(
        isinstance(e, dict) and e.get("source", "creation") != "creation" for e in skills.values()
    ):
        return False
    if not isinstance(build.get("abilities"), dict) or not is_fresh_condition(build):
        return False
    state = build.get("state") or {}
    if not isinstance(state, dict):
        return False
    defaults = _initial_state()
    return all(
        value == defaults.get(key) or (not value and not defaults.get(key)) for key, value in state.items()
    )


def _check_abilities(build: Build, stage: str) -> list[RuleViolation]:
    """§10 rules 1, 3 and 24. After creation Ability points are bought one at a time, so odd
    numbers are fine; Luck may also have been spent below 26 (§9.3)."""
    abilities = build.get("abilities")
    problems = check_abilities_shape(abilities)
    if problems:
        return problems
    assert isinstance(abilities, dict)
    out: list[RuleViolation] = []
    for code in ABILITY_CODES:
        value, label, where = abilities[code], ABILITY_NAMES[code], f"abilities.{code}"
        if stage == "creation":
            out += check_number(where, value, label)
        elif value > ABILITY_MAX:
            out.append(
                RuleViolation(
                    where, f"{label} {value} is above the maximum of {ABILITY_MAX}.", RULE_ABILITY_CAP
                )
            )
        elif value < (0 if code == "LUCK" else ABILITY_MIN):
            minimum = 0 if code == "LUCK" else ABILITY_MIN
            out.append(
                RuleViolation(where, f"{label} {value} is below the minimum of {minimum}.", RULE_ABILITY_CAP)
            )
    return out


def _check_skills(build: Build, stage: str) -> Review:
    """§10 rules 8-11, 16, 28-30."""
    review = Review()
    skills = build.get("skills")
    review.errors += check_skill_entries(skills)
    if not isinstance(skills, dict):
        return review
    background: dict[str, Any] = build["background"] if isinstance(build.get("background"), dict) else {}
    review.errors += check_specialties(skills, background)
    for key in AUTOMATIC_SKILLS:
        if key not in skills:
            review.errors.append(
                RuleViolation(f"skills.{key}", f"Every agent has {SKILLS[key]['name']}.", RULE_STARTING)
            )
    from_creation = {
        key: entry
        for key, entry in skills.items()
        if isinstance(entry, dict)
        and is_known_skill(key)
        and entry.get("source", "creation" if stage == "creation" else None) == "creation"
    }
    chosen = [key for key in from_creation if key not in AUTOMATIC_SKILLS]
    if stage == "creation":
        extra = [key for key in skills if key not in from_creation]
        if extra:
            review.errors.append(
                RuleViolation(
                    "skills",
                    f"A new agent has only the starting skills, not {', '.join(extra)}.",
                    RULE_STARTING,
                )
            )
        raised = [key for key, entry in from_creation.items() if entry.get("level") != "specialist"]
        if raised:
            review.errors.append(
                RuleViolation(
                    "skills",
                    f"A new agent holds every skill at Specialist ({', '.join(raised)} is not).",
                    RULE_STARTING,
                )
            )
    wrong_count = (
        len(chosen) != STARTING_CHOSEN_SKILLS if stage == "creation" else len(chosen) > STARTING_CHOSEN_SKILLS
    )
    if wrong_count:
        review.errors.append(
            RuleViolation(
                "skills",
                f"A new agent chooses exactly {STARTING_CHOSEN_SKILLS} skills besides the two every agent "
                f"has; this one has {len(chosen)}.",
                RULE_STARTING,
            )
        )
    marked = [key for key in chosen if from_creation[key].get("profession")]
    review.extend(_chosen_skill_review(chosen, marked[0] if marked else None, background))
    return review


def _check_talents(build: Build, stage: str) -> list[RuleViolation]:
    """§10 rules 12 and 18."""
    talents = build.get("talents")
    if not isinstance(talents, list) or not all(isinstance(t, str) for t in talents):
        return [RuleViolation("talents", "The talents must be a list of talent names.", RULE_TALENTS)]
    out: list[RuleViolation] = []
    for key in talents:
        if key not in TALENTS:
            out.append(RuleViolation(f"talents.{key}", f"{key!r} is not a paranormal talent.", RULE_TALENTS))
        elif key not in HUMAN_TALENTS:
            out.append(
                RuleViolation(
                    f"talents.{key}",
                    f"{TALENTS[key]['name']} is a Demorean talent; agents hold only human talents.",
                    RULE_TALENTS,
                )
            )
    if len(set(talents)) != len(talents):
        out.append(RuleViolation("talents", "A talent is listed twice.", RULE_TALENTS))
    if len(talents) > MAX_TALENTS:
        out.append(
            RuleViolation(
                "talents", f"An agent holds at most {MAX_TALENTS} talents, not {len(talents)}.", RULE_TALENTS
            )
        )
    if PARANORMAL_MEMORY not in talents:
        out.append(RuleViolation("talents", "Every agent has Paranormal Memory.", RULE_TALENTS_AT_CREATION))
    if stage == "creation" and len(talents) != 2:
        out.append(
            RuleViolation(
                "talents",
                f"A new agent has Paranormal Memory and exactly one other talent, not {len(talents) - 1}.",
                RULE_TALENTS_AT_CREATION,
            )
        )
    return out


def _check_standing(build: Build, stage: str) -> list[RuleViolation]:
    """Rank, grade and Success Points (§10 rules 13, 23, 32-33; ruling 1)."""
    out: list[RuleViolation] = []
    rank, grade, points = build.get("rank"), build.get("grade"), build.get("success_points")
    if rank not in RANKS:
        out.append(RuleViolation("rank", f"{rank!r} is not a Time Corps rank.", RULE_RANK))
    elif not _is_int(grade):
        out.append(RuleViolation("grade", "The grade must be a whole number.", RULE_RANK))
    else:
        top = MAX_GRADE_TIMEMASTER if rank == RANKS[-1] else MAX_GRADE
        if not 0 <= grade <= top:
            out.append(
                RuleViolation("grade", f"Grades of {rank} run from 0 to {top}, not {grade}.", RULE_RANK)
            )
    if not _is_int(points):
        out.append(RuleViolation("success_points", "Success Points must be a whole number.", RULE_SP))
    elif points < 0:
        out.append(
            RuleViolation("success_points", f"Success Points cannot go below 0 (now {points}).", RULE_SP)
        )
    if stage == "creation":
        if (rank, grade) != (STARTING_RANK, STARTING_GRADE):
            out.append(
                RuleViolation(
                    "rank",
                    f"A new agent starts as {STARTING_RANK}/{STARTING_GRADE}, not {rank}/{grade}.",
                    RULE_FRESH,
                )
            )
        if points != 0:
            out.append(
                RuleViolation("success_points", "A new agent starts with 0 Success Points.", RULE_FRESH)
            )
        if not is_fresh_condition(build):
            out.append(
                RuleViolation(
                    "condition",
                    "A new agent starts unhurt, with current Stamina and Willpower at full.",
                    RULE_FRESH,
                )
            )
    return out


def _check_skill_history(build: Build) -> list[RuleViolation]:
    """What the advancement bookkeeping shows about raised skills (§10 rules 25-27): a skill is
    bought at Specialist and gains at most one level per adventure, starting the adventure after it
    was acquired, so the adventure of its last raise lies at least one adventure per level gained
    after its acquisition (creation skills count as acquired at adventure 0). Checked only where
    ``state`` records both numbers."""
    state = build.get("state")
    skills = build.get("skills")
    if not isinstance(state, dict) or not isinstance(skills, dict):
        return []
    acquired_in = state.get("skills_acquired_in") or {}
    raised_in = state.get("skills_raised_in") or {}
    if not isinstance(acquired_in, dict) or not isinstance(raised_in, dict):
        return []
    out: list[RuleViolation] = []
    for key, entry in skills.items():
        if not isinstance(entry, dict) or entry.get("level") not in SKILL_LEVEL_ORDER:
            continue
        gained = SKILL_LEVEL_ORDER.index(entry["level"])
        acquired = acquired_in.get(key, 0 if entry.get("source", "creation") == "creation" else None)
        raised = raised_in.get(key)
        if not gained or not _is_int(acquired) or not _is_int(raised):
            continue
        if raised - acquired < gained:
            out.append(
                RuleViolation(
                    f"skills.{key}.level",
                    f"{skill_name(key)} reached {entry['level'].capitalize()} too fast: one level per "
                    "adventure, starting the adventure after it was acquired.",
                    RULE_SKILL_PACE,
                )
            )
    return out


def _check_times_visited(build: Build, settings: dict[str, Any], background_ok: bool) -> Review:
    """No loop traps on the same Parallel; nothing past the Time Barrier (§10 rules 34-35, ruling 5)."""
    review = Review()
    visits = build.get("times_visited")
    if visits is None:
        return review
    if not isinstance(visits, list):
        review.errors.append(
            RuleViolation("times_visited", "Times Visited must be a list of trips.", RULE_TIMES)
        )
        return review
    if not visits or not background_ok:
        return review
    try:
        from .times_visited import check_visit  # one loop-trap rule, shared with the advancement engine
    except ImportError:  # pragma: no cover - that module is written separately
        return review

    for index, visit in enumerate(visits):
        where = f"times_visited.{index}"
        if not isinstance(visit, dict):
            review.errors.append(
                RuleViolation(where, "Each trip needs a Parallel, a start year and an end year.", RULE_TIMES)
            )
            continue
        earlier = {**build, "times_visited": [v for v in visits[:index] if isinstance(v, dict)]}
        try:
            found = check_visit(
                earlier,
                visit.get("parallel"),
                visit.get("start_year"),
                visit.get("end_year"),
                settings["corps_present_year"],
            )
        except RuleError as error:
            review.errors += [
                RuleViolation(f"{where}.{v.field}", v.message, v.rule or RULE_TIMES) for v in error.violations
            ]
            continue
        review.warnings += [
            RuleViolation(f"{where}.{v.field}", v.message, v.rule or RULE_TIMES) for v in found
        ]
    return review


def review_build(build: Build, settings: dict[str, Any] | None = None, stage: str = "auto") -> Review:
    """Every rule a build can be checked against (§10). ``stage`` "creation" adds the rules that hold
    only for a new agent; "auto" uses them when ``is_new(build)``."""
    if stage not in STAGES:
        raise RuleError(RuleViolation("stage", f"Unknown stage {stage!r}; use one of: {', '.join(STAGES)}."))
    resolved = campaign_settings.resolve(settings)
    if not isinstance(build, dict):
        return Review(errors=[RuleViolation("build", "A build must be an object.")])
    if stage == "auto":
        stage = "creation" if is_new(build) else "play"
    review = Review()
    review.errors += _step_name(build, resolved).errors
    review.errors += _check_abilities(build, stage)
    errors, warnings, pending = check_background(build.get("background"), resolved["corps_present_year"])
    review.extend(Review(errors=errors, warnings=warnings, pending=pending))
    review.extend(_check_skills(build, stage))
    review.errors += _check_talents(build, stage)
    review.errors += _check_standing(build, stage)
    review.errors += _check_skill_history(build)
    if not check_abilities_shape(build.get("abilities")):
        review.errors += check_condition(build)
    review.extend(_check_times_visited(build, resolved, background_ok=not errors))
    state = build.get("state", {})
    if not isinstance(state, dict):
        review.errors.append(RuleViolation("state", "The advancement bookkeeping must be an object."))
    return _settle(review, _approvals(build))


def validate(
    build: Build, settings: dict[str, Any] | None = None, stage: str = "auto"
) -> list[RuleViolation]:
    """The blocking problems of a build (``review_build`` has the warnings and CM confirmations too)."""
    return review_build(build, settings, stage).errors
