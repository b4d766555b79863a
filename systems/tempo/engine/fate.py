"""Fate points: how they are gained and spent, as ledger entries (tempo-flashpoints.md §B7, §D4;
rules README ruling 7 for starting fate points and refresh).

Ledger entries (applied by ``apply_fate_entry``, reached through ``SYSTEM.apply``):

    {"kind": "fate_point_gained", "reason": one of FATE_GAIN_REASONS, "count": int >= 1 (default 1),
     "aspect": str (needed for penalty_die_from_own_aspect: a slot key or the aspect's text),
     "note": str (optional), "roll": roll id (optional)}
    {"kind": "fate_point_spent", "reason": one of FATE_SPEND_REASONS, "count": int >= 1 (default 1),
     "aspect": str (needed for bonus_die_from_aspect and make_aspect_apply), "note", "roll"}
    {"kind": "fate_refresh", "amount": int >= 0}     # made by refresh_entry from the settings

The balance never goes below zero: a spend larger than the balance is refused.
"""

from __future__ import annotations

import copy
from typing import Any, cast

from characters.systems.base import Build, refuse

from .campaign_settings import resolved
from .modules import get_module
from .tables import FATE_GAIN_REASONS, FATE_SPEND_REASONS, MAX_TEXT

RULE_FATE = "tempo-flashpoints.md §B7, §D4"
RULE_START = "rules README ruling 7"
FATE_ENTRY_KINDS: tuple[str, ...] = ("fate_point_gained", "fate_point_spent", "fate_refresh")
# Benefits that waive the fate point for a spend reason (§E10: Gadgeteer and tools at hand).
WAIVED_BY: dict[str, str] = {"tools_at_hand": "gadgeteer"}


def balance(build: Build) -> int:
    if not isinstance(build, dict):
        raise refuse("build", "A build must be an object.")
    value = build.get("fate_points", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def starting_fate_points(settings: dict[str, Any] | None = None) -> int:
    """A new agent's fate points: a campaign setting, 0 unless the GM says otherwise (ruling 7)."""
    return cast(int, resolved(settings)["starting_fate_points"])


def refresh_entry(build: Build, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The fate_refresh entry the campaign's refresh setting gives this agent now (ruling 7):
    "top_up" raises the balance to the refresh value, "add" adds it."""
    options = resolved(settings)
    value = options["fate_refresh"]
    amount = value if options["fate_refresh_mode"] == "add" else max(0, value - balance(build))
    return {"kind": "fate_refresh", "amount": amount}


def entries_for_roll(result: Any) -> list[dict[str, Any]]:
    """The fate point entries a roll causes (§B7): one spent per paid invocation, one gained per
    penalty die taken from the agent's own aspect. ``result`` is a RollResult or its dict."""
    data = result.as_dict() if hasattr(result, "as_dict") else result
    uses = data.get("aspects", ()) if isinstance(data, dict) else None
    if not isinstance(uses, list | tuple) or not all(
        isinstance(use, dict) and isinstance(use.get("aspect"), str) for use in uses
    ):
        raise refuse("aspects", "A roll result lists its aspect uses as objects naming the aspect.")
    entries: list[dict[str, Any]] = []
    for use in uses:
        if use.get("use") == "invoke":
            entries.append(
                {"kind": "fate_point_spent", "reason": "bonus_die_from_aspect", "aspect": use["aspect"]}
            )
    for use in uses:
        if use.get("use") == "trouble":
            entries.append(
                {
                    "kind": "fate_point_gained",
                    "reason": "penalty_die_from_own_aspect",
                    "aspect": use["aspect"],
                }
            )
    return entries


def _count(entry: dict[str, Any]) -> int:
    count = entry.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 20:
        raise refuse("count", "The number of fate points must be a whole number from 1 to 20.", RULE_FATE)
    return count


def _aspect(entry: dict[str, Any], needed: bool) -> str | None:
    aspect = entry.get("aspect")
    if aspect is None and not needed:
        return None
    if not isinstance(aspect, str) or not aspect.strip() or len(aspect) > MAX_TEXT:
        raise refuse("aspect", "Name the aspect this fate point is for.", RULE_FATE)
    return aspect.strip()


def _own_aspect(build: Build, name: str) -> bool:
    aspects = build.get("aspects") or {}
    if name in aspects:
        return True
    texts = {(a or {}).get("text", "").strip().casefold() for a in aspects.values() if isinstance(a, dict)}
    return name.casefold() in texts


def _holds(build: Build, benefit: str) -> bool:
    return any(
        (item.get("key") if isinstance(item, dict) else item) == benefit
        for chosen in (build.get("benefits") or {}).values()
        for item in chosen or []
    )


def gain(build: Build, entry: dict[str, Any]) -> Build:
    """fate_point_gained (§B7 gaining): returns a new build."""
    reason = entry.get("reason")
    if not isinstance(reason, str) or reason not in FATE_GAIN_REASONS:
        raise refuse(
            "reason", f"A fate point is gained for one of: {', '.join(FATE_GAIN_REASONS)}.", RULE_FATE
        )
    count = _count(entry)
    aspect = _aspect(entry, needed=reason == "penalty_die_from_own_aspect")
    if reason == "penalty_die_from_own_aspect" and not _own_aspect(build, aspect):  # type: ignore[arg-type]
        raise refuse("aspect", f"{aspect!r} is not one of this agent's aspects.", RULE_FATE)
    new = copy.deepcopy(build)
    new["fate_points"] = balance(build) + count
    return new


def spend(build: Build, entry: dict[str, Any]) -> Build:
    """fate_point_spent (§B7 spending); refused when the balance would go below zero (§D4)."""
    reason = entry.get("reason")
    if not isinstance(reason, str) or reason not in FATE_SPEND_REASONS:
        raise refuse(
            "reason", f"A fate point is spent for one of: {', '.join(FATE_SPEND_REASONS)}.", RULE_FATE
        )
    count = _count(entry)
    _aspect(entry, needed=reason in ("bonus_die_from_aspect", "make_aspect_apply"))
    waiver = WAIVED_BY.get(reason)
    if waiver and _holds(build, waiver):
        module = get_module(build.get("module"))
        name = next((b.name for r in module.roles for b in r.benefits if b.key == waiver), waiver)
        raise refuse("reason", f"{name}: this agent needs no fate point for reasonable kit.", RULE_FATE)
    have = balance(build)
    if count > have:
        raise refuse(
            "fate_points",
            f"Spending {count} fate point{'s' if count > 1 else ''} needs {count}; the agent has {have}.",
            RULE_FATE,
        )
    new = copy.deepcopy(build)
    new["fate_points"] = have - count
    return new


def refresh(build: Build, entry: dict[str, Any]) -> Build:
    """fate_refresh: add the amount the refresh setting gave (ruling 7)."""
    amount = entry.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= 40:
        raise refuse("amount", "A refresh adds a whole number of fate points from 0 to 40.", RULE_START)
    new = copy.deepcopy(build)
    new["fate_points"] = balance(build) + amount
    return new


def apply_fate_entry(build: Build, entry: dict[str, Any]) -> Build:
    handler = {"fate_point_gained": gain, "fate_point_spent": spend, "fate_refresh": refresh}[entry["kind"]]
    return handler(build, entry)
