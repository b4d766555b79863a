"""Computed values of a Tempo agent (tempo-flashpoints.md §A2, §C1): ratings from ranks, the
distribution check, the chosen benefits with their names and details, what is still missing."""

from __future__ import annotations

from typing import Any

from characters.systems.base import Build, RuleError, refuse

from .creation import DEFAULT_MODULE, distribution, normalised_benefits, validate
from .module_data import Role, TempoModule
from .modules import get_module


def _benefit_rows(module: TempoModule, role: Role, chosen: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for item in chosen:
        benefit = role.benefit(item["key"]) if isinstance(item.get("key"), str) else None
        if benefit is None:
            continue
        rows.append(
            {
                "key": benefit.key,
                "name": benefit.name,
                "summary": benefit.summary,
                "field": item.get("field") if benefit.needs_field else None,
                "variant": benefit.variant,
                "needs_approval": benefit.needs_approval,
                "approved": bool(item.get("table_approved")) if benefit.needs_approval else None,
                "substitution": None
                if benefit.substitution is None
                else {
                    "role": benefit.substitution.role,
                    "instead_of": benefit.substitution.instead_of,
                    "when": benefit.substitution.when,
                },
            }
        )
    return rows


def derive(build: Build) -> dict[str, Any]:
    """Every computed value of the agent; works on drafts too (missing parts are simply empty)."""
    if not isinstance(build, dict):
        raise refuse("build", "A build must be an object.")
    try:
        module = get_module(build.get("module", DEFAULT_MODULE))
    except RuleError as error:
        return {"problems": [v.as_dict() for v in error.violations], "complete": False}
    roles: dict[str, Any] = build["roles"] if isinstance(build.get("roles"), dict) else {}
    benefits: dict[str, Any] = build["benefits"] if isinstance(build.get("benefits"), dict) else {}
    role_rows: list[dict[str, Any]] = []
    for role in module.roles:
        rank = module.rank(roles[role.key]) if isinstance(roles.get(role.key), str) else None
        chosen = normalised_benefits(benefits.get(role.key, [])) or []
        role_rows.append(
            {
                "key": role.key,
                "name": role.name,
                "summary": role.summary,
                "rank": rank.key if rank else None,
                "rank_name": rank.name if rank else None,
                "modifier": rank.modifier if rank else None,
                "benefit_picks": rank.benefit_picks if rank else 0,
                "benefits": _benefit_rows(module, role, chosen),
            }
        )
    rated = [row["modifier"] for row in role_rows if row["modifier"] is not None]
    problems = validate({"module": module.key, **build}, "final")
    rows = distribution(module, roles)
    return {
        "module": module.key,
        "module_label": module.label,
        "role_ratings": {row["key"]: row["modifier"] for row in role_rows},
        "roles": role_rows,
        "rating_total": sum(rated),
        "distribution": rows,
        "distribution_ok": all(row["need"] is None or row["need"] == row["have"] for row in rows),
        "benefit_count": sum(len(row["benefits"]) for row in role_rows),
        "substitutions": [
            {"benefit": b["name"], **b["substitution"]}
            for row in role_rows
            for b in row["benefits"]
            if b["substitution"]
        ],
        "awaiting_approval": [
            b["name"]
            for row in role_rows
            for b in row["benefits"]
            if b["needs_approval"] and not b["approved"]
        ],
        "fate_points": build.get("fate_points", 0),
        "campaign_aspects": list(module.campaign_aspects),
        "own_aspects_per_roll": module.own_aspects_per_roll,
        "complete": not problems,
        "problems": [v.as_dict() for v in problems],
    }
