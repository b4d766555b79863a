"""A GM resolves one attack at the table: the column is the engine's, not typed.

The attacker is an agent's score (``"skill:pistol"``, ``"other:unskilled_melee"``...) or an
NPC's base chance; the defender is an agent of the campaign, whose Unskilled Melee, declared
melee skill, Luck and current Willpower come from the agent, or an NPC described by the GM.
The engine (systems.timemaster.engine.combat) chooses the column and gives its reasons, reads
the roll and rolls the damage; the roll goes into the dice log with all of that in its detail.
A PC's Luck spent is a ledger entry made before the roll (lost even on a miss), and the damage
a ledger entry on the agent (timemaster-play.md §4, §5.2-§5.3, §11, §16, §16.1).

The round's modifiers are named choices the engine values (engine/modifiers.py, §13.3, §13.7,
§15); a called shot is declared with the attack and a C grants it (§11); on a hit the defender's
armor is read (engine/armor.py, §19): the location (called, or rolled on the chart), the
penetration test with the attacker's bonus, the head and partial helmets, crumpled armor. An
agent's armor and crumpled locations come from its condition; an NPC's the GM gives.
"""

from __future__ import annotations

import dataclasses
import random
import re
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import NPC, Membership, Mission, Roll
from campaigns.table import fairness, rolling
from characters.models import AdvancementEntry, Character
from characters.systems import RuleError, get_system
from characters.systems.dice import d10, percent
from systems.timemaster import action_checks as checks
from systems.timemaster import condition_services, fight_states, npc_condition_services
from systems.timemaster.engine import armor as armor_rules
from systems.timemaster.engine import combat, special
from systems.timemaster.engine import modifiers as modifier_rules
from systems.timemaster.engine.condition import condition_of
from systems.timemaster.engine.formulas import penetration_bonus
from systems.timemaster.engine.tables import RESULTS_KEYS
from systems.timemaster.models import AttackedNPC, FightState, RollLedgerEntry
from systems.timemaster.npc_rules import RULES as NPC_RULES

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
    modifiers: list[str] = field(default_factory=list)
    range_weapon: str | None = None
    range_feet: int | None = None
    missile_weapon: str | None = None
    armor: list[str] | None = None
    crumpled: list[str] | None = None
    closed_helmet: bool = False
    attacker_penetration_bonus: int | None = None
    knockout_skill: str | None = None
    called_location: str | None = None
    called_severity: str | None = None
    called_knockout: bool = False
    called_kill: bool = False
    defender_npc: NPC | None = None
    called_hold: str | None = None
    called_joint: bool = False
    called_target: bool = False
    into_melee: bool = False
    fight_round: int = 1  # the fight's round, for what lasts (a hold since round 2)
    covered_locations: list[str] | None = None  # what the cover hides (hit_location_always, L1558)


#: The missile weapon names the armor class of the shot (§19) and the shield's missile class (§4).
MISSILE_WEAPON_CLASS = {
    "thrown": "missiles_a",
    "sling": "missiles_a",
    "short_bow": "missiles_a",
    "fired": "missiles_b",
    "firearm": "firearm",
    "beam": "firearm",
}
CLASS_ATTACK_KIND = {"firearm": "firearm", "missiles_b": "fired"}


def _invalid(error: RuleError) -> ValidationError:
    return ValidationError({v.field: v.message for v in error.violations})


@dataclass
class Plan:
    """What is settled before any die is rolled: the modifiers, the called shot, the armor."""

    parts: list[modifier_rules.Modifier]
    named_total: int
    shot: armor_rules.CalledShot
    attack_kind: str | None
    armor: list[str]
    crumpled: list[str]
    bonus: int
    defender_stamina: int | None
    defender_dex: int | None = None
    defender_willpower: int | None = None
    hold: str | None = None
    martial_arts: bool = False
    always_location: bool = False
    covered: list[str] | None = None


COVER = "target_behind_cover"


def _cover(attack: Attack, settings: dict[str, Any]) -> tuple[list[str], list[str] | None]:
    """The modifiers to value, and what the cover hides when the campaign rolls hit location on
    every hit (setting hit_location_always, L1558): in missile fire the cover is then no -30 but
    the locations it hides, which the GM names; a hit there misses."""
    option = bool((settings or {}).get("hit_location_always"))
    if not (option and attack.form == "missile" and COVER in attack.modifiers):
        if attack.covered_locations:
            raise ValidationError(
                {
                    "covered_locations": "What the cover hides counts only in missile fire at a target "
                    "behind cover, in a campaign that rolls hit location on every hit."
                }
            )
        return list(attack.modifiers), None
    if not attack.covered_locations:
        raise ValidationError(
            {
                "covered_locations": "This campaign rolls hit location against cover (L1558): name the "
                "locations the cover hides."
            }
        )
    return [m for m in attack.modifiers if m != COVER], list(attack.covered_locations)


def _plan(
    attack: Attack,
    situation: dict[str, Any],
    attacker_skill: str | None,
    settings: dict[str, Any] | None = None,
) -> Plan:
    """Check the named modifiers, the called shot and the armor before rolling (a bad choice is a
    400 that rolls nothing)."""
    named, covered = _cover(attack, settings or {})
    try:
        parts, total = modifier_rules.strike_modifiers(
            named, form=attack.form, range_weapon=attack.range_weapon, range_feet=attack.range_feet
        )
        skill = attacker_skill if attack.attacker is not None else attack.knockout_skill
        shot = armor_rules.check_called(
            {
                "location": attack.called_location,
                "severity": attack.called_severity,
                "knockout": attack.called_knockout,
                "kill": attack.called_kill,
                "joint": attack.called_joint,
                "target": attack.called_target,
            },
            form=attack.form,
            results_key=attack.results_key,
            attacker_skill=skill,
            helpless=bool(situation.get("helpless")),
            surprised_or_from_behind=bool(situation.get("surprised")) or "from_behind" in attack.modifiers,
        )
        worn = armor_rules.check_armor(attack.armor)
    except RuleError as error:
        raise _invalid(error) from None
    crumpled = list(attack.crumpled or [])
    stamina = dex = willpower = None
    if attack.defender is not None:
        condition = condition_of(attack.defender.build)
        worn, crumpled, stamina = (
            list(condition["armor"]),
            list(condition["crumpled"]),
            condition["current_stamina"],
        )
        dex, willpower = attack.defender.build["abilities"]["DEX"], condition["current_willpower"]
    elif attack.defender_npc is not None:
        state = npc_condition_services.summary(attack.defender_npc) or {}
        crumpled = list(state.get("crumpled") or crumpled)
        worn = worn or list(state.get("armor") or [])  # the attack's armor, else what the NPC wears
        stamina, willpower = state.get("current_stamina"), state.get("current_willpower")
        dex = (attack.defender_npc.abilities or {}).get("DEX")
    if attack.into_melee and attack.form != "missile":
        raise ValidationError({"into_melee": "Firing into a melee is a missile attack (TIMEMASTER §13.5)."})
    if attack.called_target and not attack.into_melee:
        raise ValidationError({"called_target": "Calling the intended target is for firing into a melee."})
    hold = attack.called_hold or None
    if hold is not None:
        if hold not in ("hold", "strangle"):
            raise ValidationError({"called_hold": "A called hold is a hold or a strangle."})
        if attack.form != "melee":
            raise ValidationError({"called_hold": "A hold is made in melee (TIMEMASTER §15)."})
        if shot.knockout or shot.kill:
            raise ValidationError({"called_hold": "Call a hold, a knockout or a kill, one at a time."})
    if attack.attacker is not None:
        bonus = penetration_bonus(attack.attacker.build["abilities"]["STR"])
    else:
        bonus = attack.attacker_penetration_bonus or 0
    kind = None
    if attack.form == "paranormal" or situation.get("missile_class") == "catastrophe":
        worn = []  # talents and falls are not read against armor (docs/rulings-timemaster-combat.md 6)
    elif attack.results_key == "unarmed":
        kind = "unarmed"
    elif attack.form == "melee":
        kind = "melee_weapon"
    else:
        kind = attack.missile_weapon or CLASS_ATTACK_KIND.get(situation.get("missile_class") or "")
        if kind is None and (worn or shot.location):
            raise ValidationError(
                {"missile_weapon": "Name the missile weapon: armor tells a thrown one from a sling or a bow."}
            )
    martial = attack.attacker is not None and attacker_skill == "martial_arts"
    always = bool((settings or {}).get("hit_location_always")) and attack.form != "paranormal"
    return Plan(
        parts,
        total,
        shot,
        kind,
        worn,
        crumpled,
        bonus,
        stamina,
        dex,
        willpower,
        hold,
        martial,
        always,
        covered,
    )


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
    if attack.form == "missile" and attack.missile_weapon:
        derived_class = MISSILE_WEAPON_CLASS[attack.missile_weapon]
        given = situation.get("missile_class")
        if given and given != derived_class:
            raise ValidationError(
                {"missile_class": "The missile class does not fit the missile weapon chosen."}
            )
        situation["missile_class"] = derived_class
    if attack.attacker is not None:
        held = attack.attacker.build.get("skills") or {}
        if ADVANCED_SELF_DEFENSE in held:
            situation["attacker_advanced_self_defense"] = True
        if attack.attacker_score == f"skill:{FLORENTINE}":
            situation["attacker_florentine"] = True  # he attacks with it this round
    if attack.form != "missile":
        situation.pop("missile_class", None)
    defender = attack.defender
    if defender is None and attack.defender_npc is not None:
        return _npc_situation(attack.defender_npc, situation)
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


def _npc_situation(npc: NPC, situation: dict[str, Any]) -> tuple[dict[str, Any], str, list[str]]:
    """An NPC of the campaign defends: its Unskilled Melee and current Willpower come from its
    record and condition unless the GM gave them; an unconscious NPC is helpless (§11, §16).
    The log names it only once the GM has revealed it."""
    state = npc_condition_services.summary(npc)
    if state is None:
        raise ValidationError({"defender_npc": "This NPC has no Stamina score to track."})
    name = npc.name if npc.revealed else "NPC"
    if state["status"] == "dead":
        raise ValidationError({"defender_npc": f"{npc.name} is dead."})
    situation["defender_kind"] = "npc"
    if situation.get("unskilled_melee") is None and situation.get("declared_skill_score") is None:
        try:
            situation["unskilled_melee"] = NPC_RULES.derive(npc)["unskilled_melee"]
        except RuleError:
            raise ValidationError({"unskilled_melee": "Give the NPC's Unskilled Melee."}) from None
    if situation.get("current_willpower") is None:
        situation["current_willpower"] = state["current_willpower"]
    notes = []
    if state["status"] == "unconscious":
        situation["helpless"] = True
        notes.append(f"{name} is unconscious: helpless")
    return situation, name, notes


#: An NPC's scores in a reason ("Unskilled Melee 61: column 5"), left out of what the log keeps.
_NPC_SCORE = re.compile(r"(declared melee skill|Unskilled Melee|current Willpower|AR) \d+")
#: What the log must not keep of an NPC attacker: its base chance and what gives it away.
_NPC_ATTACKER_NUMBERS = ("base", "modifier", "strike_number", "margin", "row")
#: An NPC attacker's penetration bonus gives away its Strength: the log says only that it counted.
#: An NPC defender's scores in a check's line ("DEX check 45 vs 50"): the roll stays, the score goes.
_NPC_CHECK = re.compile(r" vs (current Stamina )?\d+")
_NPC_BONUS = re.compile(r"\d+ \+ bonus \d+ = \d+")


def _read_hit(
    outcome: combat.AttackOutcome, plan: Plan, attack: Attack, rng: random.Random
) -> tuple[combat.AttackOutcome, dict[str, Any]]:
    """A hit after the called shot (§11) and the armor (§19): the result read, and what the
    defender takes (``stamina_applied``, ``wounds_applied``), the location and why."""
    extra: dict[str, Any] = {}
    called = armor_rules.called_result(outcome.code or "", plan.shot)
    if called["text"]:
        extra["called"] = called["text"]
    letter = outcome.letter
    if called["granted"] and (plan.shot.kill or plan.shot.knockout):
        extra["kill" if plan.shot.kill else "knockout"] = True
        extra["stamina_applied"] = plan.defender_stamina if plan.shot.knockout else None
        extra["wounds_applied"] = 0
        return dataclasses.replace(outcome, damage=None), extra
    key = attack.results_key
    if called["granted"]:
        letter = called["letter"]
        if plan.martial_arts and plan.shot.severity and key == "unarmed":
            # a Martial Artist's called severity is read on the Armed key: up to 5 wounds (L2667)
            key = "armed"
            extra["called"] += " on the Armed key (Martial Arts)"
    assert letter is not None
    if letter != outcome.letter or outcome.damage is None or key != attack.results_key:
        faces = d10(rng, combat.damage_dice(letter)).faces
        outcome = dataclasses.replace(
            outcome,
            letter=letter,
            result_name=RESULTS_KEYS[key][letter]["name"],
            damage=combat.damage(letter, key, faces),
        )
    assert outcome.damage is not None
    if attack.into_melee:
        granted_target = called["granted"] and plan.shot.target
        right, why = armor_rules.into_melee(0 if granted_target else percent(rng).total, granted_target)
        extra["into_melee"] = why
        if not right:
            extra.update(wrong_target=True, stamina_applied=0, wounds_applied=0)
            return outcome, extra
    stamina, wounds = outcome.damage.stamina, outcome.damage.wounds
    location = called["location"]
    location_roll = None
    if location is None and ((plan.armor and plan.attack_kind) or plan.always_location):
        location_roll = percent(rng).total
        location = armor_rules.hit_location(location_roll)
    if plan.covered is not None and location is not None:
        missed, words = armor_rules.behind_cover(location, plan.covered, location_roll)
        extra["cover"] = words
        if missed:  # L1558: the location lies behind the cover, the shot misses
            extra.update(stamina_applied=0, wounds_applied=0)
            return dataclasses.replace(outcome, hit=False, damage=None, knockdown=False), extra
    if plan.armor and plan.attack_kind:
        pieces = armor_rules.covering(plan.armor, location)
        helmet_roll = None
        if (
            location == "head"
            and location not in plan.crumpled
            and not attack.closed_helmet
            and any(p in armor_rules.PARTIAL_ON_HEAD for p in pieces)
        ):
            helmet_roll = percent(rng).total
        result = armor_rules.armor_outcome(
            stamina,
            wounds,
            location,
            plan.armor,
            plan.attack_kind,
            penetration_bonus=plan.bonus,
            crumpled=plan.crumpled,
            helmet_roll=helmet_roll,
            closed_helmet=attack.closed_helmet,
            called=called["location"] is not None,
            location_roll=location_roll,
            joint=plan.shot.joint,
        )
        extra.update(
            armor=result.as_dict(),
            location=armor_rules.LOCATION_LABELS[location],
            armor_why=result.summary(),
            crumple=result.crumples,
        )
        stamina, wounds = result.stamina, result.wounds
        if outcome.knockdown and result.penetrated is False:
            extra["knockdown_note"] = "the Knockdown still applies (armor stops damage, not a K)"
    elif location:
        why = "called" if location_roll is None else f"location roll {location_roll}"
        extra.update(
            location=armor_rules.LOCATION_LABELS[location], armor_why=f"{why}; no armor there: full damage"
        )
    extra["stamina_applied"], extra["wounds_applied"] = stamina, wounds
    _special(outcome, plan, attack, rng, extra)
    return outcome, extra


def _special(
    outcome: combat.AttackOutcome, plan: Plan, attack: Attack, rng: random.Random, extra: dict[str, Any]
) -> None:
    """The special results of a hit (engine/special.py): the Knockdown and its DEX check, the
    weapon arm or hand check, a hold or strangle granted on a C and strangling's check."""
    notes: list[str] = extra.setdefault("special", [])
    if outcome.knockdown:
        effect, check = (
            special.knockdown(attack.results_key, plan.defender_dex, percent(rng).total)
            if attack.results_key == "armed" and plan.defender_dex is not None
            else special.knockdown("unarmed")
        )
        notes.append(f"Knockdown: {effect}")
        if check is not None:
            notes.append(check.text)
        elif attack.results_key == "armed":
            notes.append("the GM makes the DEX check to keep held items")
    location = (extra.get("armor") or {}).get("location") or (
        plan.shot.location if extra.get("called") else None
    )
    if location in armor_rules.WEAPON_LIMBS and extra.get("wounds_applied"):
        if plan.defender_dex is not None and plan.defender_willpower is not None:
            check = special.weapon_hand(
                outcome.letter or "",
                attack.results_key,
                plan.defender_dex,
                plan.defender_willpower,
                percent(rng).total,
            )
            notes.append(f"if that hand holds a weapon, {check.text}")
        else:
            notes.append("if that hand holds a weapon, the GM makes the DEX check (WPR if crippled)")
    if plan.hold and str(outcome.code or "").startswith("C"):
        extra["hold"] = plan.hold
        notes.append(
            "strangle hold made: 1d10 Stamina each later round, a current-Stamina check at each round's end"
            if plan.hold == "strangle"
            else "hold made: the defender can only try to break it; 1d10 Stamina each later round"
        )
        if plan.hold == "strangle" and plan.defender_stamina is not None:
            left = max(0, plan.defender_stamina - (extra.get("stamina_applied") or 0))
            check = special.strangle_check(left, percent(rng).total)
            notes.append(check.text)
            if not check.passed and left:
                extra["strangled_out"] = left


def _detail(
    outcome: combat.AttackOutcome,
    names: dict[str, Any],
    notes: list[str],
    npc_attacker: bool,
    npc_defender: bool,
    extra: dict[str, Any] | None = None,
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
    extra = dict(extra or {})
    if npc_attacker:
        for name in _NPC_ATTACKER_NUMBERS:
            data.pop(name, None)
            names.pop(name, None)
        if "armor" in extra:
            extra["armor"] = {
                **extra["armor"],
                "reasons": [
                    _NPC_BONUS.sub("with the attacker's bonus", r) for r in extra["armor"]["reasons"]
                ],
            }
            extra["armor_why"] = _NPC_BONUS.sub("with the attacker's bonus", extra["armor_why"])
    if npc_defender and extra.get("knockout"):
        extra.pop("stamina_applied", None)  # an NPC's current Stamina is the GM's
    if npc_defender and extra.get("special"):
        extra["special"] = [_NPC_CHECK.sub("", text) for text in extra["special"]]
    extra.pop("strangled_out", None)
    data["defense_die"] = outcome.defense.defense_die
    data["luck_spent"] = outcome.defense.luck_spent
    data["notes"] = [*notes, *data["notes"]]
    if extra.get("knockdown_note"):
        data["notes"].append(extra.pop("knockdown_note"))
    return {"attack": True, **names, **data, **extra}


def system_rng() -> random.Random | None:
    """The dice an attack takes when its caller gives none: None, the campaign's fair dice
    (docs/fair-dice.md), so every attack is proved. Tests replace this to script an attack."""
    return None


def _fair_draw(membership: Membership, secret: bool, mission: Mission | None) -> fairness.Draw:
    """The fair draw an attack's roll is proved with (docs/fair-dice.md): the roll's own dice come
    first on its stream; the dice its reading goes on to need (damage, hit location, helmet,
    knockdown, a strangle's check) follow on the same stream, so the seed fixes them too. Call
    inside the roll's transaction."""
    return fairness.draw(membership.campaign, secret=secret, announced=True, mission=mission)


def _defense_die(
    membership: Membership, rng: random.Random | None, defender: str, **fields: Any
) -> tuple[int, list[int]]:
    """A missile defense die (timemaster-combat.md §5.3) and the rolls the attack's row names as
    made with it: scripted when the caller gives the dice (none), else a fair roll of its own in the
    log, proved like any other (it is read before the attack's roll, so it cannot follow that roll's
    dice). A secret attack's die is secret too, and is shared with the attack's roll (its detail's
    ``with_rolls``: rolling.reveal_roll), so the seed's key is not held back by it."""
    if rng is not None:
        return d10(rng).total, []
    roll = rolling.record_roll(membership, kind="d10", purpose=f"Defense die: {defender}"[:200], **fields)
    return roll.total, [roll.pk]


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
    situation, defender, notes = _situation(attack)
    skill = (attack.attacker_score or "").partition("skill:")[2] or None
    settings = membership.campaign.settings
    plan = _plan(attack, situation, skill, settings)
    strike_number = base + plan.named_total + attack.modifier
    if plan.covered is not None:
        notes = [*notes, "target behind cover: no -30, the hit location decides (L1558)"]
    scripted = rng or system_rng()
    names = {
        "form": attack.form,
        "attacker": attacker,
        "score_name": score_name,
        "base": base,
        "modifiers": [m.text for m in plan.parts],
        "modifier_rules": sorted({m.rule for m in plan.parts}),
        "modifier": attack.modifier,
        "strike_number": strike_number,
        "defender": defender,
    }
    purpose = (attack.purpose or f"{FORM_LABELS[attack.form]} attack: {attacker} on {defender}")[:200]
    entries: list[AdvancementEntry] = []
    holding = fight_states.holds_of(membership.campaign_id, holder=attack.defender)
    with transaction.atomic():
        if (
            situation.get("form") == "missile"
            and not situation.get("helpless")
            and situation.get("defense_die") is None
        ):
            situation["defense_die"], with_rolls = _defense_die(
                membership,
                scripted,
                defender,
                secret=attack.secret,
                mission=attack.mission,
                character=attack.defender,
            )
            if with_rolls:
                names["with_rolls"] = with_rolls
        try:
            defense = combat.defense_column(situation, settings)
        except RuleError as error:
            raise _invalid(error) from None
        made = None if scripted else _fair_draw(membership, attack.secret, attack.mission)
        rng = made.rng if made else scripted
        if attack.defender is not None and defense.luck_spent:
            row, _ = condition_services.record(
                attack.defender,
                membership,
                "luck_spent",
                {"points": defense.luck_spent},
                mission=attack.mission,
            )
            entries.append(row)
        outcomes: list[tuple[combat.AttackOutcome, dict[str, Any]]] = []

        def read(dice: Any) -> dict[str, Any]:
            if defense.automatic_hit:
                outcome = combat.resolve_attack(
                    strike_number, None, defense, attack.results_key, dice.faces, settings
                )
            else:
                outcome = combat.resolve_attack(
                    strike_number, dice.total, defense, attack.results_key, None, settings
                )
            extra: dict[str, Any] = {}
            if outcome.hit and outcome.letter:
                outcome, extra = _read_hit(outcome, plan, attack, rng)
            if outcome.hit and holding:
                extra.setdefault("special", []).append("a hit on the holder breaks the hold (L1340-1342)")
            outcomes.append((outcome, extra))
            return _detail(
                outcome, dict(names), notes, attack.attacker is None, attack.defender is None, extra
            )

        helpless_dice = combat.damage_dice(combat.helpless_letter(settings)) if defense.automatic_hit else 1
        roll = rolling.record_roll(
            membership,
            kind="d10" if defense.automatic_hit else "percent",
            count=helpless_dice,
            purpose=purpose,
            secret=attack.secret,
            mission=attack.mission,
            character=attack.defender or attack.attacker,
            rng=scripted,
            draw=made,
            detail=read,
        )
        if attack.defender_npc is not None:  # for the GM's log: the table's line says "NPC"
            AttackedNPC.objects.create(roll=roll, npc=attack.defender_npc)
        outcome, extra = outcomes[-1]
        if attack.defender is not None and attack.apply_damage and outcome.hit:
            entries += _apply_to_agent(attack, membership, attacker, outcome, extra)
        if attack.defender_npc is not None and attack.apply_damage and outcome.hit:
            _apply_to_npc(attack, membership, attacker, outcome, extra, roll)
        if outcome.hit:
            _lasting(attack, membership, attacker, outcome, extra, roll, holding)
    return roll, _linked(roll, entries)


def _lasting(
    attack: Attack,
    membership: Membership,
    attacker: str,
    outcome: combat.AttackOutcome,
    extra: dict[str, Any],
    roll: Roll,
    holding: list[FightState],
) -> None:
    """What the hit leaves for the next rounds (systems.timemaster.fight_states): a hit on a holder
    breaks his holds (L1340-1342); a hold or strangle made on a C, and a Knockdown, are kept on a
    defender of the campaign (an agent, or an NPC of its list), since the attack's round; a
    defender the hit kills is held and down no more."""
    if holding:
        fight_states.break_holds(membership, holding, f"broken: {attacker} hit the holder")
    if not attack.apply_damage or (attack.defender is None and attack.defender_npc is None):
        return
    who = {"defender": attack.defender, "defender_npc": attack.defender_npc, "roll": roll}
    if extra.get("hold"):
        fight_states.start(
            membership,
            extra["hold"],
            holder=attack.attacker,
            holder_name=attacker,
            since_round=attack.fight_round,
            **who,
        )
    if outcome.knockdown and not (extra.get("kill") or extra.get("knockout") or extra.get("wrong_target")):
        fight_states.start(membership, FightState.DOWN, since_round=attack.fight_round, **who)
    fight_states.end_if_dead(membership, defender=attack.defender, defender_npc=attack.defender_npc)


def _hit_fields(attack: Attack, attacker: str, outcome: combat.AttackOutcome, extra: dict[str, Any]):
    """(entry kind, fields, source) of a hit on the defender, or None when the armor held."""
    if extra.get("kill"):
        return "fatal_blow", {"cause": "killing_shot"}, f"Killing called shot from {attacker}"
    if extra.get("knockout"):
        source = f"Called knockout from {attacker}"
    else:
        source = f"{KEY_LABELS[attack.results_key]} {outcome.code} ({outcome.result_name}) from {attacker}"
        if extra.get("location"):
            source += f", {extra['location']}"
    fields: dict[str, Any] = {
        "stamina": extra.get("stamina_applied") or 0,
        "wounds": extra.get("wounds_applied") or 0,
    }
    if extra.get("crumple"):
        fields["crumple"] = extra["crumple"]
    if extra.get("strangled_out"):
        fields["stamina"] += extra["strangled_out"]
        source += "; strangled unconscious"
    if not (fields["stamina"] or fields["wounds"] or "crumple" in fields):
        return None
    return "damage_taken", fields, source[:200]


def _apply_to_npc(
    attack: Attack,
    membership: Membership,
    attacker: str,
    outcome: combat.AttackOutcome,
    extra: dict[str, Any],
    roll: Roll,
) -> None:
    """The hit on the NPC's GM-only condition (revertible on the NPC's page)."""
    assert attack.defender_npc is not None
    hit = _hit_fields(attack, attacker, outcome, extra)
    if hit is not None:
        kind, fields, source = hit
        npc_condition_services.record(attack.defender_npc, membership, kind, fields, source, roll)


def _apply_to_agent(
    attack: Attack,
    membership: Membership,
    attacker: str,
    outcome: combat.AttackOutcome,
    extra: dict[str, Any],
) -> list[AdvancementEntry]:
    """The hit on the agent's ledger: a killing called shot is a fatal blow (the Luck check
    against death is due, L990), a called knockout takes current Stamina to 0 (L1403, L2695),
    any other hit its Stamina and wounds after armor, and the location where armor crumpled."""
    assert attack.defender is not None
    hit = _hit_fields(attack, attacker, outcome, extra)
    if hit is None:
        return []  # the armor held: nothing to record
    kind, fields, source = hit
    if kind == "damage_taken":
        fields = {**fields, "source": source}
    row, _ = condition_services.record(attack.defender, membership, kind, fields, mission=attack.mission)
    return [row]


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
    npc = None
    if data.get("defender_npc"):
        npc = campaign.npcs.filter(pk=data["defender_npc"]).first()
        if npc is None:
            raise ValidationError({"defender_npc": "No NPC with this id in this campaign."})
        if data.get("defender"):
            raise ValidationError({"defender_npc": "Choose an agent or an NPC as the defender, not both."})
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
        modifiers=list(data.get("modifiers") or []),
        range_weapon=data.get("range_weapon") or None,
        range_feet=data.get("range_feet"),
        missile_weapon=data.get("missile_weapon") or None,
        armor=list(data.get("armor") or []),
        crumpled=list(data.get("crumpled") or []),
        closed_helmet=bool(data.get("closed_helmet")),
        attacker_penetration_bonus=data.get("attacker_penetration_bonus"),
        knockout_skill=data.get("knockout_skill") or None,
        called_location=data.get("called_location") or None,
        called_severity=data.get("called_severity") or None,
        called_knockout=bool(data.get("called_knockout")),
        called_kill=bool(data.get("called_kill")),
        defender_npc=npc,
        called_hold=data.get("called_hold") or None,
        called_joint=bool(data.get("called_joint")),
        called_target=bool(data.get("called_target")),
        into_melee=bool(data.get("into_melee")),
        fight_round=data.get("fight_round") or 1,
        covered_locations=list(data.get("covered_locations") or []),
    )


def hold_round(
    membership: Membership,
    *,
    round_number: int,
    strangle: bool = False,
    holder: str = "NPC",
    defender: Character | None = None,
    defender_npc: NPC | None = None,
    secret: bool = False,
    mission: Mission | None = None,
    rng: random.Random | None = None,
    state: FightState | None = None,
) -> tuple[Roll, list[AdvancementEntry]]:
    """One later round of a hold made with a called hold (§15, L1334-1346): 1d10 Stamina; for a
    strangle, the check against current Stamina at the round's end, a failure knocking the
    defender out (current Stamina 0). The damage goes to the agent's ledger or the NPC's
    condition; the log line says the round, the damage and the check."""
    if not membership.is_gm:
        raise PermissionDenied("Only the game master resolves holds.")
    if state is not None:  # the kept hold says who, which round, and whether it is a strangle
        if state.campaign_id != membership.campaign_id or state.kind == FightState.DOWN:
            raise ValidationError({"hold": "No such hold in this campaign."})
        if state.ended_at is not None or state.reverted_at is not None:
            raise ValidationError({"hold": "This hold has ended: take it up again first."})
        round_number = special.next_hold_round(state.kind, state.rounds_held)
        strangle = state.kind == FightState.STRANGLE
        holder = state.holder.name if state.holder is not None else state.holder_name or "NPC"
        defender, defender_npc = state.defender, state.defender_npc
    if (defender is None) == (defender_npc is None):
        raise ValidationError({"defender": "Choose the held agent or the held NPC."})
    if defender is not None:
        if defender.campaign_id != membership.campaign_id:
            raise checks.NoSuchAgent()
        condition = condition_of(defender.build)
        if condition["dead"]:
            raise ValidationError({"defender": f"{defender.name} is dead."})
        current, name = condition["current_stamina"], defender.name
    else:
        assert defender_npc is not None
        held = npc_condition_services.summary(defender_npc)
        if held is None or held["status"] == "dead":
            raise ValidationError({"defender_npc": "This NPC cannot be held: dead, or no Stamina to track."})
        current, name = held["current_stamina"], defender_npc.name if defender_npc.revealed else "NPC"
    try:
        special.hold_damage(round_number, 1)
    except RuleError as error:
        raise _invalid(error) from None
    scripted = rng or system_rng()
    taken: dict[str, Any] = {}

    def read(dice: Any) -> dict[str, Any]:
        stamina = special.hold_damage(round_number, dice.total)
        lines = [
            f"round {round_number} of the {'strangle' if strangle else 'hold'}: 1d10 = {stamina} Stamina"
        ]
        left = max(0, current - stamina)
        if strangle:
            check = special.strangle_check(left, percent(rng).total)
            text = check.text if defender is not None else _NPC_CHECK.sub("", check.text)
            lines.append(text)
            if not check.passed:
                stamina += left
        taken["stamina"] = stamina
        return {
            "hold": True,
            "attacker": holder,
            "defender": name,
            "round": round_number,
            "strangle": strangle,
            "lines": lines,
            "rules": [special.RULE_STRANGLE if strangle else special.RULE_HOLD],
        }

    entries: list[AdvancementEntry] = []
    with transaction.atomic():
        made = None if scripted else _fair_draw(membership, secret, mission)
        rng = made.rng if made else scripted
        roll = rolling.record_roll(
            membership,
            kind="d10",
            purpose=f"{'Strangle' if strangle else 'Hold'}, round {round_number}: {holder} on {name}"[:200],
            secret=secret,
            mission=mission,
            character=defender,
            rng=scripted,
            draw=made,
            detail=read,
        )
        if defender_npc is not None:
            AttackedNPC.objects.create(roll=roll, npc=defender_npc)
        source = f"{'Strangle' if strangle else 'Hold'} by {holder}, round {round_number}"
        fields = {"stamina": taken["stamina"], "wounds": 0}
        if defender is not None:
            row, _ = condition_services.record(
                defender, membership, "damage_taken", {**fields, "source": source}, mission=mission
            )
            entries.append(row)
        else:
            assert defender_npc is not None
            npc_condition_services.record(defender_npc, membership, "damage_taken", fields, source, roll)
        if state is not None:
            fight_states.held_round(state)
    return roll, _linked(roll, entries)


def hold_from(data: dict, membership, campaign) -> dict[str, Any]:
    """hold_round's arguments from validated fields (the API's or the dice page form's): a kept
    hold (``hold``) names everything; else the round, the holder and the held one are given."""
    if data.get("hold"):
        state = (
            fight_states.active(campaign.pk)
            .exclude(kind=FightState.DOWN)
            .select_related("holder", "defender", "defender_npc")
            .filter(pk=data["hold"])
            .first()
        )
        if state is None:
            raise ValidationError({"hold": "No hold lasting in this campaign with this id."})
        kept: dict[str, Any] = {"round_number": 2, "state": state, "secret": bool(data.get("secret"))}
        if data.get("mission"):
            kept["mission"] = campaign.missions.filter(pk=data["mission"]).first()
            if kept["mission"] is None:
                raise ValidationError({"mission": "No mission with this id in this campaign."})
        return kept
    if not data.get("round"):
        raise ValidationError({"round": "Choose a kept hold, or give the round of the hold."})
    out: dict[str, Any] = {
        "round_number": data["round"],
        "strangle": bool(data.get("strangle")),
        "secret": bool(data.get("secret")),
    }
    for name in ("holder", "defender"):
        if data.get(name):
            try:
                agent = checks.agent_for_check(membership, data[name])
            except checks.NoSuchAgent:
                raise ValidationError({name: "No agent with this id in this campaign."}) from None
            if name == "holder":
                out["holder"] = agent.name
            else:
                out["defender"] = agent
    if data.get("defender_npc"):
        npc = campaign.npcs.filter(pk=data["defender_npc"]).first()
        if npc is None:
            raise ValidationError({"defender_npc": "No NPC with this id in this campaign."})
        out["defender_npc"] = npc
    if data.get("mission"):
        mission = campaign.missions.filter(pk=data["mission"]).first()
        if mission is None:
            raise ValidationError({"mission": "No mission with this id in this campaign."})
        out["mission"] = mission
    return out


SPECIAL_LABELS = {
    "fall": "Fall",
    "catastrophe": "Catastrophe",
    "fire": "On fire",
    "smoke": "Smoke",
    "exposure": "Exposure",
    "poison": "Poison",
}


def special_damage(
    membership: Membership,
    kind: str,
    *,
    defender: Character | None = None,
    defender_npc: NPC | None = None,
    feet: int | None = None,
    strike_number: int | None = None,
    rounds: int | None = None,
    luck_spent: int = 0,
    secret: bool = False,
    mission: Mission | None = None,
    rng: random.Random | None = None,
) -> tuple[Roll | None, list[AdvancementEntry]]:
    """Damage that is not an attack (§18, engine/special.py): a fall (SN 90 + feet, a missile-type
    roll with Luck; 100 ft or more kills), a catastrophe (SN 100 unless the GM sets it), exposure
    (SN 99 on column 5), fire and smoke (wounds a round), poison (a check against current
    Stamina, a failure kills). The result goes to the agent's ledger or the NPC's condition."""
    if not membership.is_gm:
        raise PermissionDenied("Only the game master applies special damage.")
    if kind not in special.SPECIAL_KINDS:
        raise ValidationError({"kind": f"Special damage is one of: {', '.join(special.SPECIAL_KINDS)}."})
    if (defender is None) == (defender_npc is None):
        raise ValidationError({"defender": "Choose the agent or the NPC who takes it."})
    if defender is not None and defender.campaign_id != membership.campaign_id:
        raise checks.NoSuchAgent()
    if defender is not None:
        condition = condition_of(defender.build)
        if condition["dead"]:
            raise ValidationError({"defender": f"{defender.name} is dead."})
        name, current, luck = defender.name, condition["current_stamina"], defender.build["abilities"]["LUCK"]
    else:
        assert defender_npc is not None
        state = npc_condition_services.summary(defender_npc)
        if state is None or state["status"] == "dead":
            raise ValidationError({"defender_npc": "This NPC is dead, or has no Stamina to track."})
        name = defender_npc.name if defender_npc.revealed else "NPC"
        current, luck = state["current_stamina"], None
    if luck_spent and (defender is None or kind not in ("fall", "catastrophe")):
        raise ValidationError(
            {"luck_spent": "Only an agent spends Luck, and only against a fall or a catastrophe."}
        )
    scripted = rng or system_rng()
    label = SPECIAL_LABELS[kind]
    try:
        if kind in ("fire", "smoke"):
            wounds = special.burning(kind, rounds if rounds is not None else 1)
            return None, _special_entry(
                membership,
                defender,
                defender_npc,
                "damage_taken",
                {"stamina": 0, "wounds": wounds},
                f"{label}, {rounds or 1} round(s)",
                mission,
            )
        if kind == "fall":
            fall = special.fall(feet)  # type: ignore[arg-type]
            if fall["deadly"]:
                return None, _special_entry(
                    membership,
                    defender,
                    defender_npc,
                    "fatal_blow",
                    {"cause": "fall_100_ft"},
                    fall["text"],
                    mission,
                )
            strike, title = fall["strike_number"], f"a fall of {feet} ft"
        elif kind == "catastrophe":
            strike = special.CATASTROPHE_BASE if strike_number is None else strike_number
            title = f"a catastrophe (SN {strike})"
        elif kind == "exposure":
            strike, title = special.EXPOSURE_STRIKE, "exposure"
        else:
            strike, title = 0, "poison"
    except RuleError as error:
        raise _invalid(error) from None
    entries: list[AdvancementEntry] = []
    with transaction.atomic():
        if kind == "poison":
            outcome_box: dict[str, Any] = {}

            def read_poison(dice: Any) -> dict[str, Any]:
                check = special.poison_check(current, dice.total)
                outcome_box["passed"] = check.passed
                text = check.text if defender is not None else _NPC_CHECK.sub("", check.text)
                return {
                    "hold": True,
                    "attacker": "Poison",
                    "defender": name,
                    "lines": [text],
                    "rules": [check.rule],
                }

            roll = rolling.record_roll(
                membership,
                kind="percent",
                purpose=f"Poison: {name}",
                secret=secret,
                mission=mission,
                character=defender,
                rng=scripted,
                detail=read_poison,
            )
            if defender_npc is not None:
                AttackedNPC.objects.create(roll=roll, npc=defender_npc)
            if not outcome_box["passed"]:
                entries = _special_entry(
                    membership, defender, defender_npc, "fatal_blow", {"cause": "poison"}, "Poison", mission
                )
            return roll, _linked(roll, entries)
        if defender is not None and luck_spent:
            row, _ = condition_services.record(
                defender, membership, "luck_spent", {"points": luck_spent}, mission=mission
            )
            entries.append(row)
        with_rolls: list[int] = []
        if kind == "exposure":
            defense = combat.DefenseColumn(
                special.EXPOSURE_COLUMN,
                (
                    combat.Reason(
                        f"exposure: column {special.EXPOSURE_COLUMN}",
                        special.EXPOSURE_COLUMN,
                        special.RULE_EXPOSURE,
                    ),
                ),
            )
        else:
            die, with_rolls = _defense_die(
                membership, scripted, name, secret=secret, mission=mission, character=defender
            )
            situation = {
                "form": "missile",
                "missile_class": "catastrophe",
                "defender_kind": "pc" if defender is not None else "npc",
                "defense_die": die,
                "luck_spent": luck_spent,
                "luck_available": luck,
            }
            try:
                defense = combat.defense_column(situation, membership.campaign.settings)
            except RuleError as error:
                raise _invalid(error) from None
        outcomes: list[combat.AttackOutcome] = []
        made = None if scripted else _fair_draw(membership, secret, mission)
        rng = made.rng if made else scripted

        def read(dice: Any) -> dict[str, Any]:
            outcome = combat.resolve_attack(strike, dice.total, defense, "armed")
            if outcome.hit and outcome.letter:
                faces = d10(rng, combat.damage_dice(outcome.letter)).faces
                outcome = combat.resolve_attack(strike, dice.total, defense, "armed", faces)
            outcomes.append(outcome)
            names = {
                "form": "missile",
                "attacker": title[0].upper() + title[1:],
                "score_name": "strike number",
                "base": strike,
                "modifiers": [],
                "modifier": 0,
                "strike_number": strike,
                "defender": name,
            }
            if with_rolls:
                names["with_rolls"] = with_rolls
            return _detail(outcome, names, [], False, defender is None)

        roll = rolling.record_roll(
            membership,
            kind="percent",
            purpose=f"{label}: {name}"[:200],
            secret=secret,
            mission=mission,
            character=defender,
            rng=scripted,
            draw=made,
            detail=read,
        )
        if defender_npc is not None:
            AttackedNPC.objects.create(roll=roll, npc=defender_npc)
        outcome = outcomes[-1]
        if outcome.hit and outcome.damage:
            entries += _special_entry(
                membership,
                defender,
                defender_npc,
                "damage_taken",
                {"stamina": outcome.damage.stamina, "wounds": outcome.damage.wounds},
                f"{label} {outcome.code} ({outcome.result_name})",
                mission,
                roll,
            )
    return roll, _linked(roll, entries)


def _linked(roll: Roll, entries: list[AdvancementEntry]) -> list[AdvancementEntry]:
    """Keep which roll wrote each of the agent's ledger entries (the GM's log marks the line when
    one is reverted, issue 49), and give the entries back."""
    RollLedgerEntry.objects.bulk_create([RollLedgerEntry(entry=entry, roll=roll) for entry in entries])
    return entries


def _special_entry(membership, defender, defender_npc, kind, fields, source, mission, roll=None):
    if defender is not None:
        if kind == "damage_taken":
            fields = {**fields, "source": source[:200]}
        row, _ = condition_services.record(defender, membership, kind, fields, mission=mission)
        return [row]
    npc_condition_services.record(defender_npc, membership, kind, fields, source, roll)
    return []


def special_from(data: dict, membership, campaign) -> dict[str, Any]:
    """special_damage's arguments from validated fields (the API's or the dice page form's)."""
    out: dict[str, Any] = {
        "kind": data["kind"],
        "feet": data.get("feet"),
        "strike_number": data.get("strike_number"),
        "rounds": data.get("rounds"),
        "luck_spent": data.get("luck_spent") or 0,
        "secret": bool(data.get("secret")),
    }
    held = hold_from(
        {"round": 2, **{k: data.get(k) for k in ("defender", "defender_npc", "mission")}},
        membership,
        campaign,
    )
    for name in ("defender", "defender_npc", "mission"):
        if name in held:
            out[name] = held[name]
    return out
