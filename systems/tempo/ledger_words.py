"""Tempo's fate points in a character's history as sentences a player reads ("Gained a fate point.
The GM brought an aspect's drawback into play from outside."), not the ledger's reason codes
(issue 46 walk: the history page showed gm_complication). Registered as SystemApp.ledger_sentence;
the history page keeps the payload one click away. Only the payload is read."""

from __future__ import annotations

from typing import Any

from systems.tempo.engine.tables import FATE_GAIN_REASONS, FATE_SPEND_REASONS


def _fate_points(count: Any) -> str:
    number = count if isinstance(count, int) and count > 0 else 1
    return "a fate point" if number == 1 else f"{number} fate points"


def sentence(kind: str, payload: dict[str, Any], mission: str) -> str:
    payload = payload or {}
    if kind == "fate_point_gained":
        why = FATE_GAIN_REASONS.get(str(payload.get("reason")), "")
        return f"Gained {_fate_points(payload.get('count'))}." + (f" {why}" if why else "")
    if kind == "fate_point_spent":
        why = FATE_SPEND_REASONS.get(str(payload.get("reason")), "")
        aspect = str(payload.get("aspect") or "").strip().replace("_", " ")
        on = f" on {aspect}" if aspect else ""
        return f"Spent {_fate_points(payload.get('count'))}{on}." + (f" {why}" if why else "")
    if kind == "fate_refresh":
        amount = payload.get("amount")
        return f"Fate refresh: {_fate_points(amount)} more." if amount else "Fate refresh: none due."
    return ""
