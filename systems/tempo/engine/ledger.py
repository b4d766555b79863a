"""Ledger entries of a Tempo agent: fate points (tempo-flashpoints.md §B7, §D4, ruling 7) and VETO
cards (§B2 GM veto). ``apply_entry`` folds one entry into a NEW build; ``replay`` folds a ledger,
skipping reversed entries.

    {"kind": "veto_card", "note": str}     # the GM overruled this player's description
    {"kind": "reversal", "id": ..., "reverses": id of an earlier entry, "reason": str}  # replay only

Fate point entries: see ``fate``.
"""

from __future__ import annotations

import copy
from typing import Any

from characters.systems.base import Build, entry_kind, refuse, replay_ledger, reversed_ids

from .fate import FATE_ENTRY_KINDS, apply_fate_entry
from .tables import MAX_TEXT

ENTRY_SHAPES: dict[str, str] = {
    "fate_point_gained": '{"reason": penalty_die_from_own_aspect|qualified_success_complication|'
    'gm_complication|accepted_offer, "count": int>=1 (default 1), "aspect": str, "note": str, "roll": id}',
    "fate_point_spent": '{"reason": bonus_die_from_aspect|make_aspect_apply|tools_at_hand, "count": int>=1, '
    '"aspect": str, "note": str, "roll": id}',
    "fate_refresh": '{"amount": int>=0} (made by fate.refresh_entry from the campaign settings)',
    "veto_card": '{"note": str}',
    "reversal": '{"reverses": entry id, "reason": str} (folded by replay only)',
}
ENTRY_KINDS: tuple[str, ...] = tuple(ENTRY_SHAPES)


def _veto_card(build: Build, entry: dict[str, Any]) -> Build:
    note = entry.get("note")
    if not isinstance(note, str) or not note.strip() or len(note) > MAX_TEXT:
        raise refuse("note", "Say briefly what the GM overruled.", "tempo-flashpoints.md §B2")
    new = copy.deepcopy(build)
    new.setdefault("veto_cards", []).append({"note": note.strip()})
    return new


def apply_entry(build: Build, entry: dict[str, Any]) -> Build:
    """Fold one ledger entry into a NEW build; illegal entries raise RuleError."""
    if not isinstance(build, dict):
        raise refuse("build", "A build must be an object.")
    kind = entry_kind(entry)
    if kind in FATE_ENTRY_KINDS:
        return apply_fate_entry(build, entry)
    if kind == "veto_card":
        return _veto_card(build, entry)
    raise refuse("kind", f"Unknown ledger entry kind {kind!r}; Tempo knows {', '.join(ENTRY_KINDS)}.")


def replay(creation_build: Build, entries: list[dict[str, Any]]) -> Build:
    """The current build: creation plus every entry not reversed, in order. If a reversal leaves a
    later entry illegal (a spend with no points left), the RuleError names that entry."""
    return replay_ledger(creation_build, entries, apply_entry)


__all__ = ["ENTRY_KINDS", "ENTRY_SHAPES", "apply_entry", "replay", "reversed_ids"]
