"""TIMEMASTER checks from the dice roller: an agent's score, a percent roll, the Action Table.

The engine does the rules (systems/timemaster/engine/action_table.py: general_check,
specific_check; timemaster-play.md §2-§5); this module picks the score from the agent's derived
values, decides who may roll for which agent, and appends the roll, with its reading in
``Roll.detail``, to the campaign's dice log through ``rolling.record_roll``.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from campaigns.models import Membership, Mission, Roll
from campaigns.table import rolling
from characters.models import Character
from characters.systems import RuleError, get_system
from systems.timemaster.check_scores import Score, reading  # noqa: F401 (this module's API)
from systems.timemaster.engine import rolls as roll_rules
from systems.timemaster.engine.condition import condition_of
from systems.timemaster.engine.tables import RESULTS_KEYS

SYSTEM = "timemaster"
CHECK_KINDS = ("general", "specific")
# The scores, their usual defense columns and the results keys' names are the engine's
# (systems/timemaster/engine/rolls.py), which the character page's roll buttons read too.
ABILITY_COLUMN, SKILL_COLUMN = roll_rules.ABILITY_COLUMN, roll_rules.SKILL_COLUMN
OTHER_SCORES = roll_rules.OTHER_SCORES
#: The Luck check against death, offered while it is due; rolling it records the ledger entry
#: (systems/timemaster/condition_services.py, timemaster-play.md §16, §16.1).
DEATH_CHECK = "condition:luck_against_death"
RESULTS_KEY_NAMES = roll_rules.RESULTS_KEY_NAMES
MODIFIER_LIMIT = 200


class NoSuchAgent(ValidationError):
    """No agent with that id in this campaign that the member may see (a 400 in a request body,
    a 404 in a URL)."""

    def __init__(self):
        super().__init__({"character": "No agent with this id in this campaign."})


def scores_of(derived: dict[str, Any]) -> list[Score]:
    """Every checkable score of an agent, from the engine's ``derive()`` (automatic talents, which
    have no score, are left out)."""
    return [Score(r.key, r.group, r.name, r.value, r.column, r.secret) for r in roll_rules.scores(derived)]


def agent_scores(character: Character) -> list[Score]:
    """The agent's scores; ValidationError (field ``character``) when it cannot be checked."""
    if character.system != SYSTEM:
        raise ValidationError({"character": "Checks on the Action Table are for TIMEMASTER agents."})
    if character.is_draft:
        raise ValidationError({"character": f"{character.name} is a draft: finish the agent first."})
    try:
        derived = get_system(SYSTEM).derive(character.build)
    except RuleError as error:
        raise ValidationError({"character": f"{character.name} cannot be checked: {error}"}) from None
    scores = scores_of(derived)
    if condition_of(character.build)["death_check_due"]:
        luck = derived["abilities"]["LUCK"]
        scores.append(Score(DEATH_CHECK, "Condition", "Luck check against death", luck, None))
    return scores


def checkable_agents(membership: Membership):
    """Agents this member may roll checks for: the GM any finished agent of the campaign, a player
    their own; observers none."""
    agents = Character.objects.filter(
        campaign_id=membership.campaign_id, system=SYSTEM, status__in=["active", "retired", "dead"]
    )
    if membership.is_gm:
        return agents.order_by("name", "id")
    if not membership.at_least("player"):
        return agents.none()
    return agents.filter(owner_id=membership.user_id).order_by("name", "id")


def agent_for_check(membership: Membership, character_id: Any) -> Character:
    """The agent a member asked to check. Not an agent of this campaign the member may see:
    ValidationError on ``character`` (the same words whether or not it exists elsewhere);
    someone else's agent for a player: PermissionDenied."""
    try:
        character_id = int(character_id)
    except (TypeError, ValueError):
        raise NoSuchAgent() from None
    character = (
        Character.objects.filter(campaign_id=membership.campaign_id, pk=character_id)
        .select_related("owner")
        .first()
    )
    hidden_draft = character is not None and character.is_draft and not membership.is_gm
    if character is None or (hidden_draft and character.owner_id != membership.user_id):
        raise NoSuchAgent()
    if not membership.is_gm and character.owner_id != membership.user_id:
        raise PermissionDenied("Players roll checks for their own agents only.")
    return character


def _choose(scores: list[Score], score_key: str) -> Score:
    for score in scores:
        if score.key == score_key:
            return score
    offered = ", ".join(s.key for s in scores)
    raise ValidationError({"score": f"This agent has no score {score_key!r}; choose one of: {offered}."})


def _check_arguments(
    kind: Any, defense_column: Any, results_key: Any, modifier: Any, score: Score
) -> tuple[int | None, str, int]:
    problems: dict[str, str] = {}
    if kind not in CHECK_KINDS:
        problems["kind"] = "A check is general or specific."
    if isinstance(modifier, bool) or not isinstance(modifier, int) or abs(modifier) > MODIFIER_LIMIT:
        problems["modifier"] = f"The modifier is a whole number from -{MODIFIER_LIMIT} to {MODIFIER_LIMIT}."
    column = None
    key = results_key or "ability"
    if kind == "specific":
        column = score.column if defense_column in (None, "") else defense_column
        if column is None:
            problems["defense_column"] = (
                f"{score.name} has no usual column: give the defense column (1 to 10)."
            )
        elif isinstance(column, bool) or not isinstance(column, int) or not 1 <= column <= 10:
            problems["defense_column"] = "Defense columns run from 1 to 10."
        if key not in RESULTS_KEYS:
            problems["results_key"] = f"Choose a results key: one of {', '.join(RESULTS_KEYS)}."
    if problems:
        raise ValidationError(problems)
    return column, key, modifier


def roll_check(
    membership: Membership,
    character: Character,
    score_key: str,
    *,
    kind: str = "general",
    defense_column: int | None = None,
    results_key: str = "ability",
    modifier: int = 0,
    secret: bool = False,
    mission: Mission | None = None,
    purpose: str = "",
    rng: random.Random | None = None,
) -> Roll:
    """Roll a general or specific check of the agent's score and log it.

    The modifier changes the score before the roll (timemaster-play.md §2.1); the percent roll,
    the margin, the column and the result letter go into the roll's ``detail``. ValidationError
    naming the field, or PermissionDenied, and nothing is logged.
    """
    if not membership.at_least("player"):
        raise PermissionDenied("Observers cannot roll; it needs a player or the game master.")
    if not membership.is_gm and character.owner_id != membership.user_id:
        raise PermissionDenied("Players roll checks for their own agents only.")
    if mission is not None and mission.campaign_id != membership.campaign_id:
        raise ValidationError({"mission": "No mission with this id in this campaign."})
    score = _choose(agent_scores(character), score_key)
    if score.key == DEATH_CHECK:  # a ledger entry, not only a roll: the engine decides coma or death
        from systems.timemaster import condition_services

        _, rolls = condition_services.record(character, membership, "death_check", mission=mission)
        return rolls[0]
    column, key, modifier = _check_arguments(kind, defense_column, results_key, modifier, score)
    target = score.value + modifier
    what = f"{score.name} check" + (f" ({modifier:+d})" if modifier else "")
    with transaction.atomic():
        return rolling.record_roll(
            membership,
            kind="percent",
            purpose=(purpose or what)[:200],
            secret=secret,
            secret_by_rule=score.secret,
            mission=mission,
            character=character,
            rng=rng,
            detail=lambda dice: reading(score, kind, target, dice.total, column, key),
        )


def attack_form(campaign, membership: Membership, data: Any = None, initial: Any = None):
    """The GM's attack panel for the dice page (systems/timemaster/attack_forms.py), or None for
    anyone else or a campaign of another system. Every agent's scores are offered at once, so
    the GM picks the attacker and its score in one list; ``initial`` fills a fresh form with
    what the last attack kept (AttackForm.kept)."""
    if campaign.system != SYSTEM or not membership.is_gm:
        return None
    from systems.timemaster.attack_forms import AttackForm

    agents = list(checkable_agents(membership).only("id", "name", "system", "status", "build", "owner"))
    scores: dict[int, list[Score]] = {}
    for agent in agents:
        try:
            scores[agent.pk] = agent_scores(agent)
        except ValidationError:
            scores[agent.pk] = []
    npcs = list(campaign.npcs.filter(system=SYSTEM).order_by("name", "id"))
    return AttackForm(
        data,
        initial=initial,
        prefix="attack",
        agents=agents,
        scores=scores,
        missions=campaign.missions.only("id", "title", "campaign"),
        npcs=npcs,
        npc_scores={npc.pk: npc_attack_scores(npc) for npc in npcs},
        cover_by_location=bool((campaign.settings or {}).get("hit_location_always")),
    )


def npc_attack_scores(npc) -> list[tuple[str, str, int]]:
    """(key, label, score) an NPC attacks with, from its statistics (timemaster-characters.md §8,
    its scores as an agent's with Luck replaced): Unskilled Melee and each skill with a score; none
    for an NPC whose statistics do not derive (the GM types a base chance instead)."""
    from systems.timemaster.npc_rules import RULES as NPC_RULES

    try:
        derived = NPC_RULES.derive(npc)
    except RuleError:
        return []
    out = [("unskilled_melee", f"Unskilled Melee {derived['unskilled_melee']}", derived["unskilled_melee"])]
    for key, skill in derived["skills"].items():
        if skill.get("score") is not None:
            out.append((f"skill:{key}", f"{skill['name']} {skill['score']}", skill["score"]))
    return out


def hold_form(campaign, membership: Membership, data: Any = None):
    """The GM's hold-round form for the dice page, or None for anyone else."""
    if campaign.system != SYSTEM or not membership.is_gm:
        return None
    from systems.timemaster import fight_states
    from systems.timemaster.attack_forms import HoldForm

    holds = [h for h in fight_states.fight(campaign.pk)["states"] if h["kind"] != "down"]
    return HoldForm(
        data,
        prefix="hold",
        holds=holds,
        agents=list(checkable_agents(membership).only("id", "name", "campaign")),
        npcs=campaign.npcs.filter(system=SYSTEM).only("id", "name", "campaign"),
    )


def special_form(campaign, membership: Membership, data: Any = None):
    """The GM's special-damage form for the dice page, or None for anyone else."""
    if campaign.system != SYSTEM or not membership.is_gm:
        return None
    from systems.timemaster.attack_forms import SpecialDamageForm

    return SpecialDamageForm(
        data,
        prefix="special",
        agents=list(checkable_agents(membership).only("id", "name", "campaign")),
        npcs=campaign.npcs.filter(system=SYSTEM).only("id", "name", "campaign"),
    )
