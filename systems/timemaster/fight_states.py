"""What lasts in a TIMEMASTER fight, kept for the GM: holds, strangles and knockdowns.

The attack that makes one starts it (systems.timemaster.attacks): who holds whom since which
round of the fight, who is down since which round (timemaster-play.md §15 L1334-1346, §5.2-§5.3).
A later round of a hold is resolved from it, so the GM types no round number; a hit on the holder
breaks his holds (L1340-1342). The GM ends one (broken, got up) and can revert either change:
a state made by mistake is reverted, an end made by mistake is undone. The rows are the GM's:
no player page or API answer reads them (ARCHITECTURE.md, "Who may see what").
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import NPC, Membership, Roll
from characters.models import Character
from characters.systems import RuleError
from systems.timemaster.engine import special
from systems.timemaster.models import FightState

#: How many ended or reverted states the fight panel still lists (each with its undo).
RECENT = 5


def _gm(membership: Membership | None, campaign_id: int) -> None:
    if membership is None or not membership.is_gm or membership.campaign_id != campaign_id:
        raise PermissionDenied("Only the game master changes what lasts in a fight.")


def _who(character: Character | None, npc: NPC | None) -> str:
    if character is not None:
        return character.name
    return npc.name if npc is not None else "NPC"


def start(
    membership: Membership,
    kind: str,
    *,
    defender: Character | None = None,
    defender_npc: NPC | None = None,
    holder: Character | None = None,
    holder_name: str = "",
    since_round: int = 1,
    roll: Roll | None = None,
) -> FightState:
    """A hold, strangle or knockdown made by an attack; a defender already down stays down (one
    row), and a new hold on a defender replaces the holder's old one on him."""
    _gm(membership, membership.campaign_id)
    if kind not in special.STATE_KINDS:
        raise ValidationError({"kind": "A lasting state is a hold, a strangle or a knockdown."})
    if (defender is None) == (defender_npc is None):
        raise ValidationError({"defender": "Name the agent or the NPC it falls on."})
    try:
        special.state_text(kind, since_round)
    except RuleError as error:
        raise ValidationError({v.field: v.message for v in error.violations}) from None
    same = active(membership.campaign_id).filter(defender=defender, defender_npc=defender_npc)
    if kind == FightState.DOWN:
        same = same.filter(kind=FightState.DOWN)
    else:
        same = same.exclude(kind=FightState.DOWN).filter(holder=holder, holder_name=holder_name[:200])
    now = timezone.now()
    same.update(ended_at=now, ended_by=membership.user, end_reason="made again")
    return FightState.objects.create(
        campaign_id=membership.campaign_id,
        kind=kind,
        defender=defender,
        defender_npc=defender_npc,
        holder=holder if kind != FightState.DOWN else None,
        holder_name=holder_name[:200] if kind != FightState.DOWN else "",
        since_round=since_round,
        roll=roll,
        created_by=membership.user,
    )


def active(campaign_id: int):
    return FightState.objects.filter(campaign_id=campaign_id, ended_at__isnull=True, reverted_at__isnull=True)


def recent(campaign_id: int) -> list[FightState]:
    """The last states ended or reverted, newest first (each can be undone)."""
    rows = FightState.objects.filter(campaign_id=campaign_id).exclude(
        ended_at__isnull=True, reverted_at__isnull=True
    )
    return list(rows.select_related("defender", "defender_npc", "holder").order_by("-id")[:RECENT])


def holds_of(campaign_id: int, *, holder: Character | None = None) -> list[FightState]:
    """The active holds an agent keeps (a hit on him breaks them, L1340-1342)."""
    if holder is None:
        return []
    return list(active(campaign_id).exclude(kind=FightState.DOWN).filter(holder=holder))


def break_holds(membership: Membership, rows: list[FightState], why: str) -> None:
    now = timezone.now()
    FightState.objects.filter(pk__in=[r.pk for r in rows], ended_at__isnull=True).update(
        ended_at=now, ended_by=membership.user, end_reason=why[:200]
    )


def end_if_dead(membership: Membership, *, defender: Character | None, defender_npc: NPC | None) -> None:
    """A dead defender is held and down no more: what lasts on him ends ("dead")."""
    from systems.timemaster import npc_condition_services as npc_cond
    from systems.timemaster.engine.condition import condition_of

    if defender is not None:
        defender.refresh_from_db(fields=["build"])
        dead = bool(condition_of(defender.build)["dead"])
    elif defender_npc is not None:
        dead = (npc_cond.summary(defender_npc) or {}).get("status") == "dead"
    else:
        return
    if dead:
        rows = list(active(membership.campaign_id).filter(defender=defender, defender_npc=defender_npc))
        break_holds(membership, rows, "dead")


def _row(membership: Membership, state_id: int) -> FightState:
    _gm(membership, membership.campaign_id)
    row = (
        FightState.objects.select_for_update().filter(pk=state_id, campaign_id=membership.campaign_id).first()
    )
    if row is None:
        raise ValidationError({"state": "No such hold or knockdown in this campaign."})
    return row


def end(membership: Membership, state_id: int, reason: str = "") -> FightState:
    """The hold is broken or let go, the knocked-down one got up."""
    with transaction.atomic():
        row = _row(membership, state_id)
        if row.ended_at is not None or row.reverted_at is not None:
            raise ValidationError({"state": "It has already ended or been reverted."})
        default = "got up" if row.kind == FightState.DOWN else "broken or let go"
        row.ended_at, row.ended_by, row.end_reason = (
            timezone.now(),
            membership.user,
            (reason or default)[:200],
        )
        row.save(update_fields=["ended_at", "ended_by", "end_reason"])
        return row


def reopen(membership: Membership, state_id: int) -> FightState:
    """Undo an end made by mistake: the hold or the knockdown lasts again."""
    with transaction.atomic():
        row = _row(membership, state_id)
        if row.ended_at is None or row.reverted_at is not None:
            raise ValidationError({"state": "Only an ended hold or knockdown can be taken up again."})
        row.ended_at, row.ended_by, row.end_reason = None, None, ""
        row.save(update_fields=["ended_at", "ended_by", "end_reason"])
        return row


def revert(membership: Membership, state_id: int) -> FightState:
    """A state made by mistake: it never was (the attack's log line stays, as every roll does)."""
    with transaction.atomic():
        row = _row(membership, state_id)
        if row.reverted_at is not None:
            raise ValidationError({"state": "It is already reverted."})
        row.reverted_at, row.reverted_by = timezone.now(), membership.user
        row.save(update_fields=["reverted_at", "reverted_by"])
        return row


def held_round(row: FightState) -> None:
    """One more round of the hold resolved (attacks.hold_round)."""
    FightState.objects.filter(pk=row.pk).update(rounds_held=row.rounds_held + 1)
    row.rounds_held += 1


def describe(row: FightState) -> dict[str, Any]:
    """One state as the fight panel and the GM's API show it (GM only: it names NPCs)."""
    text, rule = special.state_text(row.kind, row.since_round, row.rounds_held)
    held = _who(row.defender, row.defender_npc)
    if row.kind == FightState.DOWN:
        title = f"{held} is down"
    else:
        verb = "strangles" if row.kind == FightState.STRANGLE else "holds"
        title = f"{row.holder.name if row.holder else row.holder_name or 'NPC'} {verb} {held}"
    status = "reverted" if row.reverted_at else "ended" if row.ended_at else "active"
    return {
        "id": row.pk,
        "kind": row.kind,
        "title": title,
        "text": text,
        "rule": rule,
        "since_round": row.since_round,
        "rounds_held": row.rounds_held,
        "next_round": None if row.kind == FightState.DOWN else row.rounds_held + 1,
        "defender": row.defender_id,
        "defender_npc": row.defender_npc_id,
        "holder": row.holder_id,
        "status": status,
        "end_reason": row.end_reason,
        "roll": row.roll_id,
    }


def fight(campaign_id: int) -> dict[str, Any]:
    """The fight as the GM sees it: what lasts now, and what ended or was reverted lately."""
    rows = active(campaign_id).select_related("defender", "defender_npc", "holder")
    return {
        "states": [describe(r) for r in rows],
        "recent": [describe(r) for r in recent(campaign_id)],
    }


#: How many of an NPC's latest condition changes the fight panel lists (the NPC's page has all).
NPC_CHANGES = 3


def npcs_in_fight(campaign) -> list[dict[str, Any]]:
    """The campaign's NPCs with a condition in a fight (GM only): each with its condition and its
    latest changes, each revertible from the fight panel (systems.timemaster.npc_condition_services)."""
    from systems.timemaster import npc_condition_services as npc_cond

    npcs = (
        campaign.npcs.filter(system=campaign.system, timemaster_condition__isnull=False)
        .distinct()
        .order_by("name", "id")
    )
    out = []
    for npc in npcs:
        state = npc_cond.summary(npc)
        if state is None:
            continue
        changes = [npc_cond.describe(row) for row in npc_cond.history(npc)][-NPC_CHANGES:]
        out.append({"npc": npc, "condition": state, "changes": changes})
    return out
