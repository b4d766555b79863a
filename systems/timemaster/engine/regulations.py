"""Time Corps regulations, the punishment ladder, and rank/grade arithmetic.

timemaster-characters.md §6.5 (rank and grade), §6.6 (regulations and punishments), §11
ambiguities 6-8, and rulings 1, 3 and 9 of rules/README.md. Pure functions on plain data.
"""

from __future__ import annotations

from typing import Any, cast

from characters.systems.base import RuleError, RuleViolation, is_one_of, refuse

from .advancement_tables import (
    GRADES_PER_RANK,
    PUNISHMENT_LADDER,
    PUNISHMENTS,
    RANK_NAMES,
    REGULATIONS,
    TOP_GRADE,
    TOP_RANK,
)

RULE_RANKS = "timemaster-characters.md §6.5, ruling 1"
RULE_REGULATIONS = "timemaster-characters.md §6.6, ruling 3"
RULE_DEMOTION_FLOOR = "timemaster-characters.md §6.5-6.6, ruling 9"

Position = tuple[int, int]  # (rank index 0-9, grade)


# -- rank and grade ----------------------------------------------------------------------------
def max_grade(rank_index: int) -> int:
    """Highest grade of a rank: 9, or 10 for Timemaster (ruling 1)."""
    return TOP_GRADE if RANK_NAMES[rank_index] == TOP_RANK else GRADES_PER_RANK - 1


def rank_index(rank: Any) -> int:
    if rank not in RANK_NAMES:
        raise refuse("rank", f"{rank!r} is not a Time Corps rank.", RULE_RANKS)
    return RANK_NAMES.index(rank)


def position_of(build: dict[str, Any]) -> Position:
    """The agent's (rank index, grade), checked against ruling 1."""
    index = rank_index(build.get("rank"))
    grade = build.get("grade")
    if isinstance(grade, bool) or not isinstance(grade, int) or not 0 <= grade <= max_grade(index):
        raise refuse(
            "grade",
            f"Grade {grade!r} does not exist in rank {RANK_NAMES[index]} (0 to {max_grade(index)}).",
            RULE_RANKS,
        )
    return index, grade


def rank_grade_label(rank: str, grade: int) -> str:
    return f"{rank}/{grade}"


def position_label(position: Position) -> str:
    return rank_grade_label(RANK_NAMES[position[0]], position[1])


def at_top(position: Position) -> bool:
    """Timemaster/10: no more Success Points, no more grades (ruling 1)."""
    return RANK_NAMES[position[0]] == TOP_RANK and position[1] == TOP_GRADE


def next_position(position: Position) -> Position:
    """One grade up; the tenth step of a rank is grade 0 of the next rank (ruling 1)."""
    index, grade = position
    if at_top(position):
        raise refuse("grade", "Timemaster/10 is the top; there is no higher grade.", RULE_RANKS)
    if grade < max_grade(index):
        return index, grade + 1
    return index + 1, 0


def demoted_position(position: Position, ranks: int = 0, grades: int = 0) -> Position:
    """Demotion arithmetic (§11 ambiguity 7): ranks first, keeping the grade when the lower rank
    has it (cut to its top grade: Timemaster/10 -> Protector/9); then grades, borrowing from the
    rank below (Probationer/0 -> Trainee/9). Ruling 9: nobody goes below Trainee/0, and a rank
    demotion that would go below Trainee lands on Trainee/0, not on Trainee with the old grade."""
    index, grade = position
    if index - ranks < 0:
        return 0, 0
    index -= ranks
    grade = min(grade, max_grade(index))
    for _ in range(grades):
        if grade > 0:
            grade -= 1
        elif index > 0:
            index -= 1
            grade = max_grade(index)
    return index, grade


# -- regulations -------------------------------------------------------------------------------
def regulation_name(number: Any) -> str:
    if isinstance(number, bool) or not isinstance(number, int | float) or number not in REGULATIONS:
        raise refuse(
            "regulation", f"There is no Regulation {number!r}; they run from 1 to 8.", RULE_REGULATIONS
        )
    return REGULATIONS[cast(int, number)]  # 1.0 finds Regulation 1 too


def ladder_step(offence: int) -> tuple[str, ...]:
    """Punishments the ladder allows for the n-th offence (§6.6); past the 4th it stays banishment."""
    return PUNISHMENT_LADDER[min(offence, max(PUNISHMENT_LADDER))]


def check_punishment(offence: int, punishment: Any, judiciary_override: bool, reason: Any) -> None:
    """Refuse a punishment the ladder does not allow, unless the Corps judiciary changed it."""
    if not is_one_of(punishment, PUNISHMENTS):
        raise refuse(
            "punishment",
            f"Unknown punishment {punishment!r}; choose one of: {', '.join(PUNISHMENTS)}.",
            RULE_REGULATIONS,
        )
    allowed = ladder_step(offence)
    if punishment in allowed:
        return
    if judiciary_override:
        if not isinstance(reason, str) or not reason.strip():
            raise refuse(
                "reason",
                "A punishment that departs from the ladder needs the judiciary's reason.",
                RULE_REGULATIONS,
            )
        return
    wanted = " or ".join(PUNISHMENTS[p]["label"].lower() for p in allowed)
    raise refuse(
        "punishment",
        f"Offence number {offence} is punished by: {wanted}. "
        f"'{PUNISHMENTS[punishment]['label']}' needs a judiciary override with a reason.",
        RULE_REGULATIONS,
    )


def violation_entry(
    build: dict[str, Any],
    regulation: int,
    punishment: str | None = None,
    mission: Any = None,
    note: str = "",
    judiciary_override: bool = False,
    reason: str = "",
) -> dict[str, Any]:
    """The ledger entry for one regulation violation, its punishment taken from the ladder.

    When the ladder offers a choice (third offence: two ranks or banishment) ``punishment`` must
    name it. The entry is checked here and again when applied (advancement.apply_entry).
    """
    regulation_name(regulation)
    state = build.get("state") or {}
    if state.get("banished"):
        raise refuse("banished", "This agent has been banished; no further violations can be recorded.")
    offence = int(state.get("offences", 0)) + 1
    allowed = ladder_step(offence)
    if punishment is None:
        if len(allowed) > 1:
            raise refuse(
                "punishment",
                f"Offence number {offence}: the GM must choose between "
                + " and ".join(PUNISHMENTS[p]["label"].lower() for p in allowed)
                + ".",
                RULE_REGULATIONS,
            )
        punishment = allowed[0]
    check_punishment(offence, punishment, judiciary_override, reason)
    entry = {
        "kind": "regulation_violation",
        "regulation": regulation,
        "offence": offence,
        "punishment": punishment,
        "mission": mission,
        "note": note,
    }
    if judiciary_override:
        entry["judiciary_override"] = True
        entry["reason"] = reason
    spec = PUNISHMENTS[punishment]
    if spec["ranks"] or spec["grades"]:
        entry.update(standing_change(build, ranks=spec["ranks"], grades=spec["grades"]))
    return entry


def demotion_entry(
    build: dict[str, Any], ranks: int = 0, grades: int = 0, reason: str = ""
) -> dict[str, Any]:
    """The ledger entry for a demotion the judiciary orders outside the ladder, checked, with the
    standing before and after (ruling 9)."""
    entry = {"kind": "demotion", "ranks": ranks, "grades": grades, "reason": reason}
    check_demotion_payload(entry)
    if (build.get("state") or {}).get("banished"):
        raise refuse("banished", "This agent has been banished; no further demotions can be recorded.")
    entry.update(standing_change(build, ranks=ranks, grades=grades))
    return entry


def standing(position: Position) -> dict[str, Any]:
    return {"rank": RANK_NAMES[position[0]], "grade": position[1]}


def standing_change(build: dict[str, Any], ranks: int = 0, grades: int = 0) -> dict[str, Any]:
    """What a demotion does to the agent, for its ledger entry (ruling 9): the standing before and
    after, written also when the two are the same (an agent already at Trainee/0), in which case
    no standing is owed back (see apply_demotion)."""
    before = position_of(build)
    return {
        "standing_before": standing(before),
        "standing_after": standing(demoted_position(before, ranks=ranks, grades=grades)),
    }


def punishment_preview(build: dict[str, Any]) -> dict[str, Any]:
    """What the next violation would bring: the offence number and the ladder's options."""
    offence = int((build.get("state") or {}).get("offences", 0)) + 1
    return {
        "offence": offence,
        "options": [{"punishment": p, "label": PUNISHMENTS[p]["label"]} for p in ladder_step(offence)],
    }


# -- demotion bookkeeping (ruling 3) -----------------------------------------------------------
def apply_punishment(build: dict[str, Any], punishment: str) -> None:
    """Move rank/grade down (or banish) in place on a build copy, remembering the former standing.

    The standing held before the first unrecovered demotion is kept in state["demoted_from"];
    a later demotion keeps the earlier (higher) mark, because that is the status to regain.
    """
    spec = PUNISHMENTS[punishment]
    if spec["banish"]:
        build["state"]["banished"] = True
        return
    apply_demotion(build, ranks=spec["ranks"], grades=spec["grades"])


def apply_demotion(build: dict[str, Any], ranks: int = 0, grades: int = 0) -> None:
    """Demote in place (on a build copy) and remember the standing to regain (ruling 3); a
    demotion that changes nothing (already at Trainee/0) leaves nothing owed back (ruling 9)."""
    state = build["state"]
    before = position_of(build)
    after = demoted_position(before, ranks=ranks, grades=grades)
    if after == before:
        return
    if state.get("demoted_from") is None:
        state["demoted_from"] = {"rank": RANK_NAMES[before[0]], "grade": before[1]}
    build["rank"], build["grade"] = RANK_NAMES[after[0]], after[1]


def demoted_from_position(build: dict[str, Any]) -> Position | None:
    mark = (build.get("state") or {}).get("demoted_from")
    if not mark:
        return None
    return rank_index(mark["rank"]), int(mark["grade"])


def is_demoted(build: dict[str, Any]) -> bool:
    """Below the standing held before a demotion (ruling 3)."""
    mark = demoted_from_position(build)
    return mark is not None and position_of(build) < mark


def clear_demotion_if_regained(build: dict[str, Any]) -> None:
    """Once back at the former rank/grade, regular Success Points resume (ruling 3)."""
    mark = demoted_from_position(build)
    if mark is not None and position_of(build) >= mark:
        build["state"]["demoted_from"] = None


def check_demotion_payload(entry: dict[str, Any]) -> tuple[int, int]:
    """A judiciary demotion entry: whole ranks and/or grades, at least one step."""
    problems = []
    steps = {}
    for key in ("ranks", "grades"):
        value = entry.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.append(
                RuleViolation(key, f"{key.capitalize()} to demote must be a whole number, 0 or more.")
            )
        steps[key] = value
    if not problems and steps["ranks"] == 0 and steps["grades"] == 0:
        problems.append(RuleViolation("ranks", "A demotion must take away at least one rank or grade."))
    if not isinstance(entry.get("reason"), str) or not entry["reason"].strip():
        problems.append(RuleViolation("reason", "A demotion needs a reason."))
    if problems:
        raise RuleError(problems)
    return steps["ranks"], steps["grades"]
