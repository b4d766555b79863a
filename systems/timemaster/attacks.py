"""A GM resolves one attack at the table: the column is the engine's, not typed.

The attacker is an agent's score (``"skill:pistol"``, ``"other:unskilled_melee"``...) or an
NPC's base chance; the defender is an agent of the campaign, whose Unskilled Melee, declared
melee skill, Luck and current Willpower come from the agent, or an NPC described by the GM.
The engine (systems.timemaster.engine.combat) chooses the column and gives its reasons, reads
the roll and rolls the damage; the roll goes into the dice log with all of that in its detail.
A PC's Luck spent is a ledger entry made before the roll (lost even on a miss), and the damage
a ledger entry on the agent (timemaster-play.md §4, §5.2-§5.3, §11, §16, §16.1).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns import services as campaign_services
from campaigns.models import Membership, Mission, Roll
from characters.models import AdvancementEntry, Character
from characters.systems import RuleError, get_system
from characters.systems.dice import d10, system_rng
from systems.timemaster import action_checks as checks
from systems.timemaster import condition_services
from systems.timemaster.engine import combat
from systems.timemaster.engine.condition import condition_of

#: Situation fields the agent itself supplies when the defender is an agent.
AGENT_SUPPLIED = (
    "defender_kind",
    "unskilled_melee",
    "declared_skill_score",
    "luck_available",
    "current_willpower",
)
ADVANCED_SELF_DEFENSE, FLORENTINE = "advanced_self_defense", "florentine_style"  # characters §4
FORM_LABELS = {"melee": "Melee", "missile": "Missile", "paranormal": "Paranormal"}
KEY_LABELS = {"armed": "Armed combat", "unarmed": "Unarmed combat"}


@dataclass
class Attack:
    """What the GM chose for one attack (already type-checked by a form or a serializer)."""

    form: str
    results_key: str = "armed"
    attacker: Character | None = None
    attacker_score: str | None = None
    strike_base: int | None = None
    modifier: int = 0
    defender: Character | None = None
    defender_skill: str | None = None
    situation: dict[str, Any] = field(default_factory=dict)
    apply_damage: bool = True
    secret: bool = False
    mission: Mission | None = None
    purpose: str = ""


def _attacker(attack: Attack) -> tuple[str, str, int]:
    """(attacker's name, the score's name, the base chance)."""
    if attack.attacker is not None:
        if not attack.attacker_score:
            raise ValidationError(
                {"attacker_score": "Choose the attacker's score (a skill or Unskilled Melee)."}
            )
        try:
            score = checks._choose(checks.agent_scores(attack.attacker), attack.attacker_score)
        except ValidationError as error:  # named for this request's fields
            words = " ".join(m for ms in error.message_dict.values() for m in ms)
            raise ValidationError({"attacker_score": words}) from None
        return attack.attacker.name, score.name, score.value
    if attack.strike_base is None:
        raise ValidationError({"strike_base": "Choose an attacking agent, or give the NPC's base chance."})
    return "NPC", "base chance", attack.strike_base


def _situation(attack: Attack) -> tuple[dict[str, Any], str, list[str]]:
    """The engine's situation, the defender's name, and notes about what the agent supplied."""
    situation = {"form": attack.form, **attack.situation}
    if attack.attacker is not None:
        held = attack.attacker.build.get("skills") or {}
        if ADVANCED_SELF_DEFENSE in held:
            situation["attacker_advanced_self_defense"] = True
        if attack.attacker_score == f"skill:{FLORENTINE}":
            situation["attacker_florentine"] = True  # he attacks with it this round
    if attack.form != "missile":
        situation.pop("missile_class", None)
    defender = attack.defender
    if defender is None:
        return situation, "NPC", []
    for name in AGENT_SUPPLIED:
        situation.pop(name, None)
    try:
        checks.agent_scores(defender)  # a finished TIMEMASTER agent
    except ValidationError as error:
        words = " ".join(m for ms in error.message_dict.values() for m in ms)
        raise ValidationError({"defender": words}) from None
    derived = get_system(checks.SYSTEM).derive(defender.build)
    condition = condition_of(defender.build)
    if condition["dead"]:
        raise ValidationError({"defender": f"{defender.name} is dead."})
    situation.update(
        defender_kind="pc",
        unskilled_melee=derived["unskilled_melee"],
        luck_available=derived["abilities"]["LUCK"],
        current_willpower=condition["current_willpower"],
    )
    notes = []
    held = defender.build.get("skills") or {}
    for skill, flag in (
        (ADVANCED_SELF_DEFENSE, "defender_advanced_self_defense"),
        (FLORENTINE, "defender_florentine"),
    ):
        if skill in held and not situation.get(flag):
            situation[flag] = True  # the agent's own skill counts without the GM ticking it
    if attack.defender_skill and attack.form == "melee":
        skill = derived["skills"].get(attack.defender_skill)
        if skill is None or skill.get("score") is None:
            raise ValidationError(
                {"defender_skill": f"{defender.name} has no melee skill {attack.defender_skill!r}."}
            )
        situation["declared_skill_score"] = skill["score"]
    if condition["unconscious"]:
        situation["helpless"] = True
        notes.append(f"{defender.name} is unconscious: helpless")
    return situation, defender.name, notes


#: An NPC's scores in a reason ("Unskilled Melee 61: column 5"), left out of what the log keeps.
_NPC_SCORE = re.compile(r"(declared melee skill|Unskilled Melee|current Willpower|AR) \d+")
#: What the log must not keep of an NPC attacker: its base chance and what gives it away.
_NPC_ATTACKER_NUMBERS = ("base", "modifier", "strike_number", "margin", "row")


def _detail(
    outcome: combat.AttackOutcome,
    names: dict[str, Any],
    notes: list[str],
    npc_attacker: bool,
    npc_defender: bool,
) -> dict[str, Any]:
    """The roll's detail. NPC statistics are the GM's (ARCHITECTURE.md, "Who may see what"): an
    NPC's scores stay out of the log, which players read; the column and the result stay in."""
    data = outcome.as_dict()
    data.pop("defense")
    reasons = [r.text for r in outcome.defense.reasons]
    if npc_defender:
        reasons = [_NPC_SCORE.sub(r"\1", text) for text in reasons]
    data["reasons"] = reasons
    data["why"] = "; ".join(reasons)
    if npc_attacker:
        for name in _NPC_ATTACKER_NUMBERS:
            data.pop(name, None)
            names.pop(name, None)
    data["defense_die"] = outcome.defense.defense_die
    data["luck_spent"] = outcome.defense.luck_spent
    data["notes"] = [*notes, *data["notes"]]
    return {"attack": True, **names, **data}


def resolve(
    membership: Membership, attack: Attack, rng: random.Random | None = None
) -> tuple[Roll, list[AdvancementEntry]]:
    """Roll one attack and log it; on an agent defender, Luck spent and damage go to the ledger.
    ValidationError naming the field, or PermissionDenied; nothing is logged then."""
    if not membership.is_gm:
        raise PermissionDenied("Only the game master resolves attacks.")
    if attack.results_key not in combat.DAMAGE_KEYS:
        raise ValidationError({"results_key": "An attack is read on the armed or unarmed key."})
    for who in (attack.attacker, attack.defender):
        if who is not None and who.campaign_id != membership.campaign_id:
            raise checks.NoSuchAgent()
    attacker, score_name, base = _attacker(attack)
    strike_number = base + attack.modifier
    situation, defender, notes = _situation(attack)
    rng = rng or system_rng()
    if (
        situation.get("form") == "missile"
        and not situation.get("helpless")
        and situation.get("defense_die") is None
    ):
        situation["defense_die"] = d10(rng).total
    settings = membership.campaign.settings
    try:
        defense = combat.defense_column(situation, settings)
    except RuleError as error:
        raise ValidationError({v.field: v.message for v in error.violations}) from None
    names = {
        "form": attack.form,
        "attacker": attacker,
        "score_name": score_name,
        "base": base,
        "modifier": attack.modifier,
        "defender": defender,
    }
    purpose = (attack.purpose or f"{FORM_LABELS[attack.form]} attack: {attacker} on {defender}")[:200]
    entries: list[AdvancementEntry] = []
    with transaction.atomic():
        if attack.defender is not None and defense.luck_spent:
            row, _ = condition_services.record(
                attack.defender,
                membership,
                "luck_spent",
                {"points": defense.luck_spent},
                mission=attack.mission,
            )
            entries.append(row)
        outcomes: list[combat.AttackOutcome] = []

        def read(dice: Any) -> dict[str, Any]:
            if defense.automatic_hit:
                outcome = combat.resolve_attack(
                    strike_number, None, defense, attack.results_key, dice.faces, settings
                )
            else:
                outcome = combat.resolve_attack(
                    strike_number, dice.total, defense, attack.results_key, None, settings
                )
                if outcome.hit and outcome.letter:
                    faces = d10(rng, combat.damage_dice(outcome.letter)).faces
                    outcome = combat.resolve_attack(
                        strike_number, dice.total, defense, attack.results_key, faces, settings
                    )
            outcomes.append(outcome)
            return _detail(outcome, dict(names), notes, attack.attacker is None, attack.defender is None)

        helpless_dice = combat.damage_dice(combat.helpless_letter(settings)) if defense.automatic_hit else 1
        roll = campaign_services.record_roll(
            membership,
            kind="d10" if defense.automatic_hit else "percent",
            count=helpless_dice,
            purpose=purpose,
            secret=attack.secret,
            mission=attack.mission,
            character=attack.defender or attack.attacker,
            rng=rng,
            detail=read,
        )
        outcome = outcomes[-1]
        if attack.defender is not None and attack.apply_damage and outcome.hit and outcome.damage:
            source = (
                f"{KEY_LABELS[attack.results_key]} {outcome.code} ({outcome.result_name}) from {attacker}"
            )
            row, _ = condition_services.record(
                attack.defender,
                membership,
                "damage_taken",
                {"stamina": outcome.damage.stamina, "wounds": outcome.damage.wounds, "source": source},
                mission=attack.mission,
            )
            entries.append(row)
    return roll, entries


SITUATION_NAMES = tuple(name for name in combat.SITUATION_FIELDS if name != "form")


def attack_from(data: dict, membership, campaign) -> Attack:
    """An Attack from validated fields (the API's or the dice page form's)."""

    def agent(field: str):
        if not data.get(field):
            return None
        try:
            return checks.agent_for_check(membership, data[field])
        except checks.NoSuchAgent:
            raise ValidationError({field: "No agent with this id in this campaign."}) from None

    mission = None
    if data.get("mission"):
        mission = campaign.missions.filter(pk=data["mission"]).first()
        if mission is None:
            raise ValidationError({"mission": "No mission with this id in this campaign."})
    situation = {name: data[name] for name in SITUATION_NAMES if data.get(name) not in (None, "")}
    return Attack(
        form=data["form"],
        results_key=data.get("results_key") or "armed",
        attacker=agent("attacker"),
        attacker_score=data.get("attacker_score") or None,
        strike_base=data.get("strike_base"),
        modifier=data.get("modifier") or 0,
        defender=agent("defender"),
        defender_skill=data.get("defender_skill") or None,
        situation=situation,
        apply_damage=data.get("apply_damage", True),
        secret=data.get("secret", False),
        mission=mission,
        purpose=data.get("purpose") or "",
    )
