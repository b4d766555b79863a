"""An agent's condition in play for the pages and the API: damage, the Luck check against death,
waking, critical treatment, rest, bedrest and Medical care, sleep, Luck spent.

The rules are the engine's (systems.timemaster.engine.recovery): this module checks who may
record what, locks the character row, asks the engine for the entry against the locked build,
appends it to the ledger (so the GM can audit and revert it), and rolls what the rules roll:
the Luck check against death in the open, and in secret the dice the rules give the CM (the
minutes an agent stays unconscious, the days of a coma; timemaster-play.md §16, L1425, L1429).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError

from campaigns.models import Membership, Role, Roll
from campaigns.table import rolling
from characters import access
from characters.models import AdvancementEntry, Character
from characters.systems import RuleError
from systems.timemaster import advancement_services as adv
from systems.timemaster import check_scores as checks
from systems.timemaster.engine import recovery

KINDS = recovery.ENTRY_KINDS
#: What the agent's own player may record (rest, sleep, Luck spent on a missile defense are
#: the player's choices; the Luck check against death is a server roll he may make himself);
#: everything else is the GM's.
PLAYER_KINDS = ("stamina_rested", "willpower_slept", "luck_spent", "death_check", "talent_used")
LABELS = {
    "damage_taken": "Damage taken",
    "fatal_blow": "A fatal blow (Luck check against death due)",
    "armor_worn": "Armor worn from now on",
    "death_check": "Luck check against death",
    "luck_spent": "Luck spent on a missile defense",
    "came_to": "Came to",
    "critical_treated": "Critical wounds treated",
    "stamina_rested": "Rounds of rest",
    "wounds_healed": "Days of bedrest",
    "willpower_slept": "Hours of sleep",
    "talent_used": "Willpower paid for a talent",
}
FIELDS: dict[str, tuple[str, ...]] = {kind: names for kind, (_f, names) in recovery.FUNCTIONS.items()}
STATUS_LABELS = {
    "conscious": "Conscious",
    "unconscious": "Unconscious",
    "coma": "In a coma",
    "dying": "Dying: Luck check against death due",
    "dead": "Dead",
}


def can_record(character: Character, membership, kind: str) -> bool:
    if membership is None or not adv.has_advancement(character):
        return False
    if membership.role == access.GM:
        return True
    return (
        kind in PLAYER_KINDS and membership.role == access.PLAYER and character.owner_id == membership.user_id
    )


def summary(character: Character) -> dict[str, Any] | None:
    """The agent's condition for the page and the API (None for a draft or another system)."""
    if not adv.has_advancement(character):
        return None
    try:
        data = recovery.condition_summary(character.build, character.campaign.settings)
    except RuleError:  # a build the engine cannot read shows no condition rather than failing
        return None
    data["status_label"] = STATUS_LABELS[data["status"]]
    return data


def _secret_roll(membership, character: Character, kind: str, purpose: str, mission=None) -> Roll:
    """A roll the rules give the CM: rolled in secret in the GM's name, also when the player's own
    action (his Luck check) calls for it."""
    if not membership.is_gm:
        gm = (
            Membership.objects.filter(campaign_id=membership.campaign_id, role=Role.GM).order_by("id").first()
        )
        membership = gm or membership
    return rolling.record_roll(
        membership, kind=kind, purpose=purpose, secret=True, character=character, mission=mission
    )


def _luck_roll(membership, character: Character, luck: int, mission=None) -> Roll:
    score = checks.Score("ability:LUCK", "Abilities", "Luck", luck, None)
    return rolling.record_roll(
        membership,
        kind="percent",
        purpose="Luck check against death",
        character=character,
        mission=mission,
        detail=lambda dice: checks.reading(score, "general", luck, dice.total, None, "ability"),
    )


def record(
    character: Character,
    membership,
    kind: Any,
    fields: dict[str, Any] | None = None,
    *,
    revision: int | None = None,
    mission=None,
    reason: str = "",
) -> tuple[AdvancementEntry, list[Roll]]:
    """Record one condition change as a ledger entry; returns the entry and the rolls made."""
    if kind not in KINDS:
        raise ValidationError({"kind": [f"Choose one of: {', '.join(KINDS)}."]})
    if not can_record(character, membership, kind):
        raise PermissionDenied(
            "Only the game master (or, for rest, sleep and Luck, the agent's player) can do this."
        )
    fields = dict(fields or {})
    if mission is not None and mission.campaign_id != character.campaign_id:
        raise ValidationError({"mission": ["That mission belongs to another campaign."]})
    rolls: list[Roll] = []
    with adv._locked(character, revision) as locked:
        try:
            if kind == "death_check":
                recovery.play_entry(locked.build, kind, roll=100)  # refused before any die is rolled
                luck = locked.build["abilities"]["LUCK"]
                rolls.append(_luck_roll(membership, locked, luck, mission))
                fields["roll"] = rolls[-1].total
            entry, events = recovery.play_entry(locked.build, kind, **fields)
        except RuleError as error:
            raise adv._engine_error(error) from None
        row = adv._append(locked, entry, membership.user, mission=mission, reason=reason)
        if events.get("knocked_out"):
            rolls.append(
                _secret_roll(membership, locked, "percent", f"Minutes unconscious: {locked.name}", mission)
            )
        if kind == "death_check" and events.get("survived"):
            rolls.append(_secret_roll(membership, locked, "d10", f"Days in a coma: {locked.name}", mission))
    return row, rolls
