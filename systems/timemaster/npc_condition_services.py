"""An NPC's condition in a fight, for the attack flow and the GM's NPC page (GM only).

The rules are the engine's (systems.timemaster.engine.npc_condition); this module checks that the
member is the campaign's GM, locks the NPC row, checks the entry against the NPC's current
condition, writes it, and reverts one (the rest folds again). Nothing here reaches a player:
the NPC's statistics and condition are the GM's (ARCHITECTURE.md, "Who may see what").
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import NPC
from characters.systems import RuleError
from systems.timemaster.engine import npc_condition, recovery
from systems.timemaster.engine.armor import LOCATION_LABELS
from systems.timemaster.engine.tables import ARMOR
from systems.timemaster.models import NPCConditionEntry

KIND_LABELS = {
    "damage_taken": "Damage taken",
    "fatal_blow": "Killing called shot: dead",
    "came_to": "Came to",
    "critical_treated": "Critical wounds treated",
    "stamina_rested": "Rounds of rest",
    "armor_worn": "Armor worn",
}
STATUS_LABELS = {"conscious": "Conscious", "unconscious": "Unconscious", "dead": "Dead"}


def _entries(npc: NPC) -> list[NPCConditionEntry]:
    return list(npc.timemaster_condition.filter(reverted_at__isnull=True).order_by("id"))


def build_of(npc: NPC) -> dict[str, Any] | None:
    """The NPC's body now, or None for an NPC without a Stamina score (or entries that no longer fold)."""
    try:
        return npc_condition.fold(npc.abilities, [e.entry for e in _entries(npc)])
    except RuleError:
        return None


def summary(npc: NPC) -> dict[str, Any] | None:
    build = build_of(npc)
    if build is None:
        return None
    data = npc_condition.summary(build)
    data["status_label"] = STATUS_LABELS[data["status"]]
    data["crumpled_labels"] = [LOCATION_LABELS[key] for key in data["crumpled"]]
    data["armor_names"] = [ARMOR[key]["name"] for key in data["armor"] if key in ARMOR]
    return data


def history(npc: NPC) -> list[NPCConditionEntry]:
    return list(npc.timemaster_condition.order_by("id"))


def describe(row: NPCConditionEntry) -> dict[str, Any]:
    """One entry as the NPC page and the GM's API show it."""
    entry = row.entry
    kind = entry.get("kind")
    if kind == "damage_taken":
        text = f"{entry.get('stamina', 0)} Stamina, {entry.get('wounds', 0)} wounds"
        if entry.get("crumple"):
            text += f"; armor crumpled at {LOCATION_LABELS.get(entry['crumple'], entry['crumple'])}"
    elif kind == "armor_worn":
        worn = ", ".join(ARMOR[a]["name"].lower() for a in entry.get("armor") or [] if a in ARMOR)
        text = f"Wears {worn or 'no armor'}"
    else:
        text = KIND_LABELS.get(kind, str(kind))
    return {
        "id": row.pk,
        "kind": kind,
        "text": text,
        "source": row.source,
        "reverted": row.reverted_at is not None,
        "created_at": row.created_at.isoformat() if row.created_at else None,
    }


def _gm(membership, npc: NPC) -> None:
    if membership is None or not membership.is_gm or membership.campaign_id != npc.campaign_id:
        raise PermissionDenied("Only the game master changes an NPC's condition.")


def record(
    npc: NPC, membership, kind: str, fields: dict[str, Any], source: str = "", roll=None
) -> NPCConditionEntry:
    """Append one entry (checked against the NPC's condition now); ValidationError naming the field."""
    _gm(membership, npc)
    with transaction.atomic():
        NPC.objects.select_for_update().filter(pk=npc.pk).first()
        build = build_of(npc)
        if build is None:
            raise ValidationError({"defender_npc": "This NPC has no Stamina score to track."})
        try:
            _new, events = npc_condition.apply(build, kind, fields)
            recovery.refuse_an_empty_rest(kind, events)
        except RuleError as error:
            raise ValidationError({v.field: v.message for v in error.violations}) from None
        return NPCConditionEntry.objects.create(
            npc=npc,
            entry={"kind": kind, **fields},
            source=source[:200],
            roll=roll,
            recorded_by=membership.user,
        )


def revert(npc: NPC, membership, entry_id: int) -> NPCConditionEntry:
    """Undo one entry; refused when the entries after it no longer fold without it."""
    _gm(membership, npc)
    with transaction.atomic():
        NPC.objects.select_for_update().filter(pk=npc.pk).first()
        row = npc.timemaster_condition.filter(pk=entry_id, reverted_at__isnull=True).first()
        if row is None:
            raise ValidationError({"entry": "No such entry on this NPC, or it is already reverted."})
        rest = [e.entry for e in _entries(npc) if e.pk != row.pk]
        try:
            npc_condition.fold(npc.abilities, rest)
        except RuleError as error:
            words = " ".join(v.message for v in error.violations)
            raise ValidationError(
                {"entry": f"The later entries do not hold without this one: {words}"}
            ) from None
        row.reverted_at, row.reverted_by = timezone.now(), membership.user
        row.save(update_fields=["reverted_at", "reverted_by"])
        return row
