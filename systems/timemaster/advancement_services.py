"""TIMEMASTER advancement for the pages and the API: the shop, free picks on a new rank,
regulation violations and bonus Success Points.

The rules are the engine's (systems.timemaster.engine.advancement and .regulations): this
module locks the character row, asks the engine for the entry against the locked build, and
appends it through services.append_entry, so two simultaneous requests never fold into the same
build (the second waits for the first and then sees its result). Engine refusals arrive as
ValidationErrors keyed by the field the engine names.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from characters import access, services
from characters.models import Character
from characters.systems import RuleError
from kernel.errors import Conflict
from systems.timemaster.engine import advancement as engine
from systems.timemaster.engine import regulations as regs
from systems.timemaster.engine import tables as tm
from systems.timemaster.engine.advancement_tables import (
    BONUS_SP_MAX_PER_SESSION,
    BONUS_SP_STEP,
    PUNISHMENTS,
    PURCHASE_LABELS,
    REGULATIONS,
    SP_COSTS,
)

SYSTEM = "timemaster"
PURCHASES = tuple(SP_COSTS)
#: What each purchase names, besides itself.
PURCHASE_TARGET = {
    "new_skill": "skill",
    "new_talent": "talent",
    "ability_point": "ability",
    "specialist_to_expert": "skill",
    "expert_to_master": "skill",
}
MAX_TEXT = 500
STATUS_LABELS = {
    "eligible": "On active duty",
    "demoted": "Demoted: no regular Success Points until the former standing is regained",
    "timemaster_10": "Timemaster/10: earns no more Success Points",
    "banished": "Banished to a prison Parallel",
}


class RevisionConflict(Conflict):
    """The character changed since the page or client read it (e.g. a double click)."""

    def __init__(self, expected: int, current: int):
        self.expected, self.current = expected, current
        self.text = (
            f"The character changed since you looked (revision {expected}, now {current}); "
            "reload and choose again."
        )
        super().__init__({"revision": [self.text]})

    def __str__(self) -> str:
        return self.text


# -- who may do what -----------------------------------------------------------------------------
def has_advancement(character: Character) -> bool:
    return character.system == SYSTEM and not character.is_draft


def can_spend(character: Character, membership) -> bool:
    """The owner (a player of the campaign) or the campaign's GM (§6.4 is the player's choice)."""
    if membership is None or not has_advancement(character):
        return False
    if membership.role == access.GM:
        return True
    return membership.role == access.PLAYER and character.owner_id == membership.user_id


def require_advancement(character: Character) -> None:
    if character.system != SYSTEM:
        raise ValidationError({"system": ["Only TIMEMASTER agents have Success Points and a shop."]})
    if character.is_draft:
        raise ValidationError({"status": ["A draft has no ledger yet; finalize it first."]})


# -- read-outs -----------------------------------------------------------------------------------
def standing(character: Character) -> dict | None:
    """Rank/grade, Success Points, status, pending free picks ... for the character page."""
    if not has_advancement(character):
        return None
    build = character.build
    summary = engine.advancement_summary(build)
    summary["success_points"] = build.get("success_points", 0)
    summary["offence_log"] = _offence_rows(build)
    summary["status_label"] = STATUS_LABELS.get(summary["status"], summary["status"])
    return summary


def _punishment_label(row: dict) -> str:
    return PUNISHMENTS.get(row.get("punishment"), {}).get("label", str(row.get("punishment")))


def _offence_rows(build: dict) -> list[dict]:
    log = engine.state_of(build)["offence_log"]
    return [
        {**row, "name": REGULATIONS.get(row.get("regulation"), "?"), "label": _punishment_label(row)}
        for row in log
    ]


def shop(character: Character) -> dict:
    """What the agent can buy now (engine.shop_offer), with labels for the page."""
    require_advancement(character)
    offer = engine.shop_offer(character.build)
    offer["price_list"] = [
        {"purchase": key, "label": PURCHASE_LABELS[key], "cost": cost} for key, cost in SP_COSTS.items()
    ]
    for line in offer["abilities"]:
        line["name"] = tm.ABILITY_NAMES[line["ability"]]
    for line in offer["raises"]:
        line["from_name"] = tm.SKILL_LEVEL_NAMES[line["from"]]
        line["to_name"] = tm.SKILL_LEVEL_NAMES[line["to"]]
    return offer


def free_pick_options(character: Character) -> dict:
    """Skills (at Specialist) and talents the next pending free pick may take, each tried
    through the engine with the reason for a refusal."""
    require_advancement(character)
    build = character.build
    pending = engine.state_of(build)["pending_free_choices"]
    options: dict[str, Any] = {"pending": copy.deepcopy(pending), "skills": [], "talents": []}
    if not pending:
        return options
    held = build.get("skills") or {}
    for key, skill in tm.SKILLS.items():
        if key in held and key != tm.HISTORICAL_SPECIALTY:
            continue
        extra = (
            {"period": {"start_year": 1, "end_year": 1}, "cultures": ["?"]}
            if key == tm.HISTORICAL_SPECIALTY
            else {}
        )
        allowed, reason = _trial(
            build, {"kind": "free_choice_taken", "choice": "skill", "skill": key, **extra}
        )
        options["skills"].append(
            {
                "skill": key,
                "name": skill["name"],
                "allowed": allowed,
                "reason": reason,
                "needs_period": key == tm.HISTORICAL_SPECIALTY,
            }
        )
    for key, talent in tm.TALENTS.items():
        if talent.get("demorean") or key in (build.get("talents") or []):
            continue
        allowed, reason = _trial(build, {"kind": "free_choice_taken", "choice": "talent", "talent": key})
        options["talents"].append(
            {"talent": key, "name": talent["name"], "allowed": allowed, "reason": reason}
        )
    return options


def _trial(build: dict, entry: dict) -> tuple[bool, str | None]:
    try:
        engine.apply_entry(build, entry)
    except RuleError as error:
        return False, " ".join(v.message for v in error.violations)
    return True, None


def violation_options(character: Character) -> dict:
    """The regulations, the punishments, and what the ladder gives the next offence."""
    require_advancement(character)
    return {
        "regulations": [{"number": n, "name": name} for n, name in REGULATIONS.items()],
        "punishments": [{"punishment": k, "label": v["label"]} for k, v in PUNISHMENTS.items()],
        "next": regs.punishment_preview(character.build),
        "log": _offence_rows(character.build),
        "banished": engine.state_of(character.build)["banished"],
    }


# -- writes --------------------------------------------------------------------------------------
@contextmanager
def _locked(character: Character, revision: int | None) -> Iterator[Character]:
    """The character row, locked for the rest of the transaction (PostgreSQL: SELECT ... FOR
    UPDATE; SQLite: the immediate transaction already holds the write lock)."""
    with transaction.atomic():
        locked = (
            Character.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=character.pk)
        )
        require_advancement(locked)
        if revision is not None and locked.revision != revision:
            raise RevisionConflict(revision, locked.revision)
        yield locked
    character.build, character.revision = locked.build, locked.revision


def _append(locked: Character, entry: dict, by, mission=None, reason: str = ""):
    return services.append_entry(locked, entry, by, mission=mission, reason=reason)


def _engine_error(error: RuleError) -> ValidationError:
    return services.violations_error(error.violations)


def _clean_text(value: Any, field: str, required: bool = True, limit: int = 120) -> str | None:
    if value is None or value == "":
        if required:
            raise ValidationError({field: ["This field is required."]})
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValidationError({field: ["Must be text."]})
    if len(value) > limit:
        raise ValidationError({field: [f"At most {limit} characters."]})
    return value.strip()


def _clean_specialty(period: Any, cultures: Any) -> dict:
    """A further Historical Specialty's period and cultures, type-checked (the engine checks the
    rules: length, cultures count, no duplicate)."""
    if not isinstance(period, dict) or not all(
        isinstance(period.get(k), int) and not isinstance(period.get(k), bool)
        for k in ("start_year", "end_year")
    ):
        raise ValidationError({"period": ["A Historical Specialty needs a start year and an end year."]})
    if cultures is None:
        cultures = []
    if not isinstance(cultures, list) or not all(isinstance(c, str) and c.strip() for c in cultures):
        raise ValidationError({"cultures": ["Cultures are a list of names."]})
    return {
        "period": {"start_year": period["start_year"], "end_year": period["end_year"]},
        "cultures": [c.strip()[:120] for c in cultures],
    }


def _target(purchase_or_choice: str, field: str, value: Any, period: Any, cultures: Any) -> dict:
    target = {field: _clean_text(value, field)}
    if (
        field == "skill"
        and purchase_or_choice in ("new_skill", "skill")
        and target["skill"] == tm.HISTORICAL_SPECIALTY
    ):
        target.update(_clean_specialty(period, cultures))
    return target


def buy(
    character: Character,
    by,
    purchase: Any,
    *,
    skill: Any = None,
    talent: Any = None,
    ability: Any = None,
    period: Any = None,
    cultures: Any = None,
    revision: int | None = None,
):
    """Spend banked Success Points on one purchase (§6.4): an sp_spent entry, checked by the
    engine against the locked build. Returns the ledger row."""
    if purchase not in PURCHASES:
        raise ValidationError({"purchase": [f"Choose one of: {', '.join(PURCHASES)}."]})
    field = PURCHASE_TARGET[purchase]
    value = {"skill": skill, "talent": talent, "ability": ability}[field]
    target = _target(purchase, field, value, period, cultures)
    with _locked(character, revision) as locked:
        try:
            entry = engine.spend_entry(locked.build, purchase, **target)
        except RuleError as error:
            raise _engine_error(error) from None
        row = _append(locked, entry, by)
    return row


def take_free_choice(
    character: Character,
    by,
    choice: Any,
    *,
    skill: Any = None,
    talent: Any = None,
    period: Any = None,
    cultures: Any = None,
    revision: int | None = None,
):
    """Take the oldest pending free pick: a skill at Specialist or a talent, no cost (§6.5)."""
    if choice not in ("skill", "talent"):
        raise ValidationError({"choice": ['Choose "skill" or "talent".']})
    target = _target(choice, choice, skill if choice == "skill" else talent, period, cultures)
    with _locked(character, revision) as locked:
        pending = engine.state_of(locked.build)["pending_free_choices"]
        entry = {"kind": "free_choice_taken", "choice": choice, **target}
        if pending:
            entry["rank"] = pending[0]["rank"]
        row = _append(locked, entry, by)
    return row


def record_violation(
    character: Character,
    by,
    regulation: Any,
    *,
    punishment: Any = None,
    mission=None,
    note: Any = "",
    judiciary_override: bool = False,
    reason: Any = "",
    revision: int | None = None,
):
    """A regulation violation and its punishment from the ladder (§6.6), one ledger entry; the
    engine applies the demotion or banishment and keeps the standing to regain (ruling 3)."""
    if isinstance(regulation, bool) or not isinstance(regulation, int):
        raise ValidationError({"regulation": ["Choose a regulation from 1 to 8."]})
    if punishment is not None and punishment not in PUNISHMENTS:
        raise ValidationError({"punishment": [f"Choose one of: {', '.join(PUNISHMENTS)}."]})
    note = _clean_text(note, "note", required=False, limit=MAX_TEXT) or ""
    reason = _clean_text(reason, "reason", required=False, limit=MAX_TEXT) or ""
    if mission is not None and mission.campaign_id != character.campaign_id:
        raise ValidationError({"mission": ["That mission belongs to another campaign."]})
    with _locked(character, revision) as locked:
        try:
            entry = regs.violation_entry(
                locked.build,
                regulation,
                punishment=punishment,
                mission=mission.pk if mission is not None else None,
                note=note,
                judiciary_override=bool(judiciary_override),
                reason=reason,
            )
        except RuleError as error:
            raise _engine_error(error) from None
        row = _append(locked, entry, by, mission=mission, reason=reason)
    return row


def award_bonus(character: Character, by, amount: Any, session: Any, *, revision: int | None = None):
    """Bonus Success Points for one session (§6.3, ruling 2), checked by engine.bonus_sp_entry
    with the campaign's setting for demoted agents."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValidationError(
            {
                "amount": [
                    f"A whole number: a multiple of {BONUS_SP_STEP}, at most {BONUS_SP_MAX_PER_SESSION}."
                ]
            }
        )
    session = _clean_text(session, "session", limit=60)
    with _locked(character, revision) as locked:
        try:
            entry = engine.bonus_sp_entry(locked.build, amount, session, settings=locked.campaign.settings)
        except RuleError as error:
            raise _engine_error(error) from None
        # The build remembers the totals of its 20 latest bonus sessions only (so it does not grow
        # with every session played); the ledger remembers them all, so the cap of ruling 2 holds
        # exactly for a session further back too.
        earlier = sum(
            row.payload.get("amount", 0)
            for row in locked.entries.filter(
                kind="sp_awarded", payload__type="bonus", payload__session=session, reversed_by__isnull=True
            ).only("payload")
        )
        if earlier + amount > BONUS_SP_MAX_PER_SESSION:
            raise ValidationError(
                {
                    "amount": [
                        f"At most {BONUS_SP_MAX_PER_SESSION} bonus points per session; this agent already "
                        f"has {earlier} for session {session}."
                    ]
                }
            )
        row = _append(locked, entry, by)
    return row
