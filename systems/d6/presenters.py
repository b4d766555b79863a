"""What each role sees of an encounter, shared by the pages and the API.

The engine decides what is hidden (``views.tracker`` for the GM, ``views.public_view`` for
players: no NPC codes, rolls, totals, group makeup or tie-break values). On top of that a player
sees the declarations of their own characters only (d6-game-time.md, hidden information: a
character's intentions are not shown to other players).
"""

from __future__ import annotations

import copy
from typing import Any

from systems.d6.engine import encounter as engine
from systems.d6.engine import visibility as engine_views
from systems.d6.engine.tables import ACTIONS, INITIATIVE_METHODS, PARTICIPANT_KINDS
from systems.d6.models import Encounter, Participant

KIND_LABELS = dict(Participant.Kind.choices)
assert set(KIND_LABELS) == set(PARTICIPANT_KINDS)


def own_keys(encounter: Encounter, user) -> set[str]:
    if not user.is_authenticated:
        return set()
    return set(
        encounter.participants.filter(character__owner=user, controlled_by="player").values_list(
            "key", flat=True
        )
    )


def _note_text(note: dict[str, Any] | None, names: dict[str, str]) -> str:
    """Why the participant ahead stands before this one, in words."""
    if not note:
        return ""
    ahead = f"ahead of {names.get(note['after'], note['after'])}: "
    if note["decided_by"] == "hidden":
        return ahead + "decided by the GM's numbers"
    values = note.get("values") or []
    label = note["label"]
    if note.get("factor_number"):
        label = f"tie-break {note['factor_number']}: {label}"
    if len(values) == 2 and note["decided_by"] not in ("unresolved", "gm", "split", "first_move"):
        shown = [("yes" if v else "no") if isinstance(v, bool) else str(v) for v in values]
        return f"{ahead}{label} ({shown[0]} against {shown[1]})"
    return ahead + label


def gm_view(encounter: Encounter) -> dict[str, Any]:
    """The GM tracker (§C2) with the order notes in words."""
    state = encounter.state
    view = engine_views.tracker(state)
    names = {pid: p["name"] for pid, p in state["participants"].items()}
    for row in view["order"]:
        row["reason"] = _note_text(row["tie_break_note"], names)
        row["kind_label"] = KIND_LABELS.get(row["kind"], row["kind"])
    view["log"] = list(reversed(state["log"]))
    for window in view["pending_results"]:
        window["participant_name"] = names[window["participant"]]
        window["action_name"] = ACTIONS[window["action"]]["name"]
    view["whose_turn_name"] = names.get(view["whose_turn"] or "", "")
    view["acting_now_name"] = names.get(view["acting_now"] or "", "")
    view["participants"] = {
        pid: {
            "name": p["name"],
            "waiting": p["round"]["waiting"],
            "remaining": engine.remaining_actions(p),
            "incapacitated": p["incapacitated"],
            "kind": p["kind"],
        }
        for pid, p in state["participants"].items()
    }
    return view


def player_view(encounter: Encounter, keys: set[str]) -> dict[str, Any]:
    """The order and the public log; declarations and penalties only for the player's own
    characters."""
    public = engine_views.public_view(encounter.state)
    names = {pid: p["name"] for pid, p in public["participants"].items()}
    notes_ahead = {note["before"]: note for note in public["order_notes"]}
    totals = (public.get("initiative") or {}).get("totals", {})
    order = public["order"] or public["setup_order"]
    rows = []
    for place, pid in enumerate(order, start=1):
        p = public["participants"][pid]
        mine = pid in keys
        row = {
            "place": place if public["order"] else None,
            "id": pid,
            "name": p["name"],
            "kind": p["kind"],
            "kind_label": KIND_LABELS.get(p["kind"], p["kind"]),
            "mine": mine,
            # every total the public view keeps (a GM-run one is gone): the log says each anyway
            "initiative_total": totals.get(pid),
            "reason": _note_text(notes_ahead.get(pid), names),
            "incapacitated": p["incapacitated"],
            "is_turn": engine.whose_turn(encounter.state) == pid,
            "acting": engine.acting_now(encounter.state) == pid,
            "turn_taken": p["round"]["turn_taken"],
        }
        if mine:
            penalty = engine.penalty_for(encounter.state, pid, "skill")
            row.update(
                {
                    "declared": penalty["declared"],
                    "allotment": penalty["allotment"],
                    "penalty_dice": penalty["penalty_dice"],
                    "penalty": penalty["penalty"],
                    "remaining": engine.remaining_actions(encounter.state["participants"][pid]),
                    "waiting": p["round"]["waiting"],
                }
            )
        rows.append(row)
    mine_or_public = [
        record
        for record in public["log"]
        if record.get("participant") in keys
        or record["type"] not in ("declare",)
        or record.get("participant") is None
    ]
    return {
        "scene": public["name"],
        "method": public["method"],
        "method_label": INITIATIVE_METHODS[public["method"]]["label"],
        "status": public["status"],
        "phase": public["phase"],
        "round": public["round"],
        "order": rows,
        "whose_turn": engine.whose_turn(encounter.state),
        "whose_turn_name": names.get(engine.whose_turn(encounter.state) or "", ""),
        "acting_now": engine.acting_now(encounter.state),
        "acting_now_name": names.get(engine.acting_now(encounter.state) or "", ""),
        "pending_results": [
            {
                "participant": w["participant"],
                "action": w["action"],
                "action_name": ACTIONS[w["action"]]["name"],
            }
            for w in public["windows"]
        ],
        "log": [
            {
                "round": r["round"],
                "type": r["type"],
                "participant": r.get("participant"),
                "summary": r["summary"],
            }
            for r in reversed(mine_or_public)
        ],
    }


def traits_of(state: dict[str, Any], pid: str) -> list[dict[str, Any]]:
    """Every attribute and skill of a participant with the code each roll gets right now, after
    the multi-action penalty (engine ``effective_code``)."""
    p = state["participants"][pid]
    rows = []
    for name in list(p["attributes"]) + list(p["skills"]):
        rows.append(engine.effective_code(state, pid, name))
    return rows


def setup_rows(encounter: Encounter, is_gm: bool) -> list[dict[str, Any]]:
    rows = []
    for p in encounter.participants.all():
        row = {"id": p.pk, "key": p.key, "name": p.name, "kind": p.kind, "kind_label": p.get_kind_display()}
        if is_gm and p.kind != Participant.Kind.CHARACTER:
            row["stats"] = copy.deepcopy(p.stats)
            row["members"] = list(p.members)
        rows.append(row)
    return rows
